"""Every word a demo shows, in each quiz language: its caption and the labels of its timeline marks and bracket,
from the templates of the quiz files (`map_caption`) filled with the analyses' figures."""

from __future__ import annotations

from collections.abc import Sequence

from gpumem_gui.core.snapshot.units import format_bytes, format_percent
from gpumem_gui.teach.demos.wording import Clause, Figure, Localized, Templates, say, templates_for


def sizes(*values: int) -> list[str]:
    """format_bytes of each, with two decimals where one decimal would print two different sizes alike."""
    texts = [format_bytes(v) for v in values]
    if len(set(texts)) < len(set(values)):
        texts = [two_decimals(v) for v in values]
    return texts


def figures(*values: int) -> list[Figure]:
    return [Figure(t) for t in sizes(*values)]


def size(n: int) -> Figure:
    return Figure(format_bytes(n))


def two_decimals(n: int) -> str:
    text = format_bytes(n)
    unit = text.partition(" ")[2]
    if unit == "B":
        return text
    scale = {"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "TiB": 1 << 40, "PiB": 1 << 50}[unit]
    return f"{n / scale:.2f} {unit}"


def plural(n: int, word: str) -> str:
    return f"{n:,} {word}" if n == 1 else f"{n:,} {word}s"


def _f(*names: str) -> frozenset[str]:
    return frozenset(names)


# the templates each demo's question gives in its map_caption, with the placeholders each must use
SPEC: dict[str, dict[str, frozenset[str]]] = {
    "fragmented_oom": {
        "caption": _f("request", "largest_hole", "free", "holes", "no_room"),
        "no_room": _f("device_free"),
        "mark_oom": _f("request"),
    },
    "cache_reuse": {
        "caption": _f("allocations", "mallocs", "last_malloc", "served"),
        "last_malloc": _f("event"),
        "mark_mallocs": _f("mallocs"),
        "mark_cached": _f("allocations"),
    },
    "split_blocks_oom": {
        "caption": _f("request", "free", "split_blocks", "split_bytes", "split_segments", "largest_hole"),
        "mark_oom": _f("request"),
    },
    "expandable_whatif": {
        "recorded": _f("request", "event", "free", "holes", "largest_hole"),
        "served": _f("settings", "request", "event", "how", "ooms_recorded", "ooms_replayed"),
        "failed": _f("settings", "request", "event"),
        "recorded_settings": _f(),
        "how": _f("parts"),
        "unmapped": _f("unmapped"),
        "mapped": _f("mapped"),
        "mark_oom": _f("request"),
        "mark_served": _f("request"),
    },
    "kv_cache": {
        "contiguous": _f("requests", "kv", "buffer", "unused", "percent", "paged"),
        "paged": _f("requests", "pages", "page", "paged", "pool", "more", "free"),
    },
    "empty_cache_live_tensor": {
        "caption": _f("released_segments", "released", "reserved_before", "reserved_after", "allocated", "kept"),
        "kept_one": _f("live_bytes", "kept_bytes"),
        "kept_many": _f("live_blocks", "live_bytes", "kept_segments", "kept_bytes"),
        "freed_too": _f("released", "reserved_before", "reserved_after", "allocated_before", "allocated_after"),
        "mark": _f("released"),
    },
    "reserved_vs_allocated": {
        "caption": _f("reserved", "allocated", "gap", "free_blocks", "pending", "peak"),
        "pending": _f("pending"),
        "peak": _f("peak", "event"),
        "mark_peak": _f("peak"),
        "mark_freed": _f(),
        "bracket": _f("gap"),
    },
}


def templates(demo: str) -> Templates:
    return templates_for(demo, SPEC[demo])


# the checkpointing lab's captions, one per focus (and its waiting lines), filled by views/teach/lab/captions.py; apart
# from SPEC because the lab is no snapshot demo
LAB_DEMO = "checkpointing_lab"
LAB_SPEC: dict[str, frozenset[str]] = {
    "saved_bytes": _f(
        "n",
        "none",
        "every",
        "sqrt",
        "selective",
        "activation",
        "none_peak",
        "every_peak",
        "sqrt_peak",
        "selective_peak",
    ),
    "sqrt": _f(
        "checkpoints",
        "segment",
        "kept",
        "kept_ratio",
        "n",
        "peak",
        "none_peak",
        "every_peak",
        "ratio",
        "exponent",
        "none_exponent",
    ),
    "recompute": _f(
        "n", "forwards", "recomputed", "matmuls", "percent", "sqrt_recomputed", "sqrt_matmuls", "sqrt_percent"
    ),
    "selective": _f("kept", "n", "none", "every", "pointwise", "matmuls", "trap_matmuls", "every_matmuls"),
    "bf16": _f("n", "fp32", "bf16", "bf16_ratio", "autocast", "autocast_ratio", "autocast_every", "fp32_every"),
    "fsdp": _f(
        "strategy", "world", "dtype", "optimizer", "params", "grads", "state", "total", "single", "fraction", "unit"
    ),
    "measuring": _f(),
    "measuring_bf16": _f(),
    "measuring_fsdp": _f("world"),
    "no_torch": _f(),
}


def lab_templates() -> Templates:
    return templates_for(LAB_DEMO, LAB_SPEC)


# -- timeline and bracket labels ------------------------------------------------------------------------------


def oom_label(demo: str, request: int, *alongside: int) -> Localized:
    """A failed request's mark; its size is written as the caption writes it beside the `alongside` sizes."""
    return say(templates(demo), "mark_oom", request=figures(request, *alongside)[0])


def mallocs_label(mallocs: int) -> Localized:
    return say(templates("cache_reuse"), "mark_mallocs", mallocs=mallocs)


def cached_run_label(allocations: int) -> Localized:
    return say(templates("cache_reuse"), "mark_cached", allocations=allocations)


def empty_cache_label(released: int) -> Localized:
    return say(templates("empty_cache_live_tensor"), "mark", released=size(released))


def peak_label(peak_allocated: int) -> Localized:
    return say(templates("reserved_vs_allocated"), "mark_peak", peak=size(peak_allocated))


def freed_label() -> Localized:
    return say(templates("reserved_vs_allocated"), "mark_freed")


def gap_label(reserved: int, allocated: int) -> Localized:
    """The bracket's label, the gap written as the caption writes it beside reserved and allocated."""
    return say(templates("reserved_vs_allocated"), "bracket", gap=figures(reserved, allocated, reserved - allocated)[2])


def replayed_label(request: int, served: bool) -> Localized:
    if served:
        return say(templates("expandable_whatif"), "mark_served", request=figures(request)[0])
    return oom_label("expandable_whatif", request)


# -- captions, one per demo -----------------------------------------------------------------------------------


def fragmented_oom(request: int, largest_hole: int, free: int, holes: int, device_free: int) -> Localized:
    req, big, tot = figures(request, largest_hole, free)
    no_room = Clause("no_room", {"device_free": size(device_free)}) if device_free < request else None
    return say(
        templates("fragmented_oom"), "caption", request=req, largest_hole=big, free=tot, holes=holes, no_room=no_room
    )


def cache_reuse(allocations: int, mallocs: int, served: int, last_malloc: int | None) -> Localized:
    tail = Clause("last_malloc", {"event": last_malloc}) if last_malloc is not None else None
    return say(
        templates("cache_reuse"), "caption", allocations=allocations, mallocs=mallocs, last_malloc=tail, served=served
    )


def split_blocks_oom(
    request: int, largest_hole: int, free: int, *, split_blocks: int, split_bytes: int, split_segments: int
) -> Localized:
    req, big, tot = figures(request, largest_hole, free)
    return say(
        templates("split_blocks_oom"),
        "caption",
        request=req,
        free=tot,
        split_blocks=split_blocks,
        split_bytes=size(split_bytes),
        split_segments=split_segments,
        largest_hole=big,
    )


def empty_cache(
    *,
    released_segments: int,
    reserved_before: int,
    reserved_after: int,
    allocated_before: int,
    allocated_after: int,
    live_blocks: int,
    live_bytes: int,
    kept_segments: int,
    kept_bytes: int,
) -> Localized:
    t = templates("empty_cache_live_tensor")
    released = reserved_before - reserved_after
    if allocated_after != allocated_before:
        return say(
            t,
            "freed_too",
            released=size(released),
            reserved_before=size(reserved_before),
            reserved_after=size(reserved_after),
            allocated_before=size(allocated_before),
            allocated_after=size(allocated_after),
        )
    if live_blocks == 1 and kept_segments == 1:
        kept = Clause("kept_one", {"live_bytes": size(live_bytes), "kept_bytes": size(kept_bytes)})
    else:
        kept = Clause(
            "kept_many",
            {
                "live_blocks": live_blocks,
                "live_bytes": size(live_bytes),
                "kept_segments": kept_segments,
                "kept_bytes": size(kept_bytes),
            },
        )
    return say(
        t,
        "caption",
        released_segments=released_segments,
        released=size(released),
        reserved_before=size(reserved_before),
        reserved_after=size(reserved_after),
        allocated=size(allocated_after),
        kept=kept,
    )


def reserved_vs_allocated(
    reserved: int, allocated: int, free_blocks: int, pending: int, peak: tuple[int, int] | None
) -> Localized:
    """`peak`: (event, allocated bytes) of the allocated peak, None for a snapshot without a trace."""
    res, alloc, gap = figures(reserved, allocated, reserved - allocated)
    return say(
        templates("reserved_vs_allocated"),
        "caption",
        reserved=res,
        allocated=alloc,
        gap=gap,
        free_blocks=free_blocks,
        pending=Clause("pending", {"pending": size(pending)}) if pending else None,
        peak=Clause("peak", {"event": peak[0], "peak": size(peak[1])}) if peak is not None else None,
    )


def kv_contiguous(requests: int, kv_bytes: int, buffer: int, unused_min: int, paged_bytes: int) -> Localized:
    return say(
        templates("kv_cache"),
        "contiguous",
        requests=requests,
        kv=size(kv_bytes),
        buffer=size(buffer),
        unused=size(unused_min),
        percent=Figure(format_percent(unused_min / kv_bytes)),
        paged=size(paged_bytes),
    )


def kv_paged(requests: int, pages: int, page: int, *, paged_bytes: int, pool: int, more: int, free: int) -> Localized:
    return say(
        templates("kv_cache"),
        "paged",
        requests=requests,
        pages=pages,
        page=size(page),
        paged=size(paged_bytes),
        pool=size(pool),
        more=more,
        free=size(free),
    )


def recorded_oom(request: int, event: int, free: int, holes: int, largest_hole: int) -> Localized:
    req, big = figures(request, largest_hole)
    return say(
        templates("expandable_whatif"),
        "recorded",
        request=req,
        event=event,
        free=size(free),
        holes=holes,
        largest_hole=big,
    )


def replayed(
    overrides: Sequence[str],
    request: int,
    event: int,
    *,
    served: bool,
    mapped: int,
    unmapped: int,
    ooms_recorded: int,
    ooms_replayed: int,
) -> Localized:
    t = templates("expandable_whatif")
    req = figures(request)[0]
    settings: object = ", ".join(overrides) or Clause("recorded_settings", {})
    if not served:
        return say(t, "failed", settings=settings, request=req, event=event)
    parts = [Clause(key, {key: size(n)}) for key, n in (("unmapped", unmapped), ("mapped", mapped)) if n]
    how = Clause("how", {"parts": tuple(parts)}) if parts else None
    return say(
        t,
        "served",
        settings=settings,
        request=req,
        event=event,
        how=how,
        ooms_recorded=ooms_recorded,
        ooms_replayed=ooms_replayed,
    )
