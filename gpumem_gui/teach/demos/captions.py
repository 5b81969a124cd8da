"""Every word a demo shows: its caption and the labels of its timeline marks and bracket, from the analyses' figures."""

from __future__ import annotations

from collections.abc import Sequence

from gpumem_gui.core.snapshot.units import format_bytes, format_percent

FREED_LABEL = "freed, still reserved"


def sizes(*values: int) -> list[str]:
    """format_bytes of each, with two decimals where one decimal would print two different sizes alike."""
    texts = [format_bytes(v) for v in values]
    if len(set(texts)) < len(set(values)):
        texts = [two_decimals(v) for v in values]
    return texts


def two_decimals(n: int) -> str:
    text = format_bytes(n)
    unit = text.partition(" ")[2]
    if unit == "B":
        return text
    scale = {"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "TiB": 1 << 40, "PiB": 1 << 50}[unit]
    return f"{n / scale:.2f} {unit}"


def plural(n: int, word: str) -> str:
    return f"{n:,} {word}" if n == 1 else f"{n:,} {word}s"


# -- timeline and bracket labels ------------------------------------------------------------------------------


def oom_label(request: int, *alongside: int) -> str:
    """A failed request's mark; its size is written as the caption writes it beside the `alongside` sizes."""
    return f"OOM: {sizes(request, *alongside)[0]} requested"


def mallocs_label(mallocs: int) -> str:
    return plural(mallocs, "cudaMalloc call")


def cached_run_label(allocations: int) -> str:
    return f"{allocations:,} allocations, no cudaMalloc"


def empty_cache_label(released: int) -> str:
    return f"empty_cache: -{format_bytes(released)} reserved"


def peak_label(peak_allocated: int) -> str:
    return f"peak: {format_bytes(peak_allocated)} allocated"


def gap_label(reserved: int, allocated: int) -> str:
    """The bracket's label, the gap written as the caption writes it beside reserved and allocated."""
    gap_text = sizes(reserved, allocated, reserved - allocated)[2]
    return f"cached, not allocated: {gap_text}"


def replayed_label(request: int, served: bool) -> str:
    return f"{sizes(request)[0]} served" if served else oom_label(request)


# -- captions, one per demo -----------------------------------------------------------------------------------


def fragmented_oom(request: int, largest_hole: int, free: int, holes: int, device_free: int) -> str:
    req, big, tot = sizes(request, largest_hole, free)
    caption = (
        f"The failed request of {req} is larger than the largest hole ({big}), "
        f"though {tot} is free in {plural(holes, 'hole')}"
    )
    if device_free < request:
        caption += f"; the GPU had only {format_bytes(device_free)} left for a new cudaMalloc"
    return caption


def cache_reuse(allocations: int, mallocs: int, served: int, last_malloc: int | None) -> str:
    tail = f", the last at event {last_malloc:,}" if last_malloc is not None else ""
    return (
        f"{allocations:,} allocations but only {plural(mallocs, 'cudaMalloc call')}{tail}: "
        f"{served:,} requests were served from cached blocks"
    )


def split_blocks_oom(
    request: int, largest_hole: int, free: int, *, split_blocks: int, split_bytes: int, split_segments: int
) -> str:
    req, big, tot = sizes(request, largest_hole, free)
    return (
        f"The {req} request fails although {tot} is free: {plural(split_blocks, 'inactive split block')} "
        f"({format_bytes(split_bytes)}) sit between live blocks in {plural(split_segments, 'segment')}, "
        f"and the largest hole is {big}"
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
) -> str:
    released = reserved_before - reserved_after
    if allocated_after != allocated_before:
        return (
            f"empty_cache gave back {format_bytes(released)}: reserved {format_bytes(reserved_before)} -> "
            f"{format_bytes(reserved_after)}, allocated {format_bytes(allocated_before)} -> "
            f"{format_bytes(allocated_after)}"
        )
    if live_blocks == 1 and kept_segments == 1:
        kept = f"the live {format_bytes(live_bytes)} block keeps its {format_bytes(kept_bytes)} segment"
    else:
        kept = (
            f"the {plural(live_blocks, 'live block')} ({format_bytes(live_bytes)}) keep "
            f"{plural(kept_segments, 'segment')} ({format_bytes(kept_bytes)})"
        )
    return (
        f"empty_cache gave back {plural(released_segments, 'free segment')} ({format_bytes(released)}): reserved "
        f"{format_bytes(reserved_before)} -> {format_bytes(reserved_after)}, allocated unchanged at "
        f"{format_bytes(allocated_after)}; {kept}"
    )


def reserved_vs_allocated(
    reserved: int, allocated: int, free_blocks: int, pending: int, peak: tuple[int, int] | None
) -> str:
    """`peak`: (event, allocated bytes) of the allocated peak, None for a snapshot without a trace."""
    res, alloc, gap_text = sizes(reserved, allocated, reserved - allocated)
    caption = (
        f"Reserved {res} but allocated {alloc}: the {gap_text} gap is "
        f"{plural(free_blocks, 'cached free block')} the allocator keeps"
    )
    if pending:
        caption += f" (with {format_bytes(pending)} pending free)"
    if peak is not None:
        event, peak_bytes = peak
        caption += f", left from the peak of {format_bytes(peak_bytes)} allocated at event {event:,}"
    return caption


def kv_contiguous(requests: int, kv_bytes: int, buffer: int, unused_min: int, paged_bytes: int) -> str:
    return (
        f"{plural(requests, 'request')} hold {format_bytes(kv_bytes)} in buffers of {format_bytes(buffer)} each: "
        f"at least {format_bytes(unused_min)} ({format_percent(unused_min / kv_bytes)}) holds no token, since "
        f"the paged run keeps the same sequences in {format_bytes(paged_bytes)}"
    )


def kv_paged(requests: int, pages: int, page: int, kv_bytes: int, unused_max: int) -> str:
    return (
        f"The same {plural(requests, 'request')} fit in {pages:,} pages of {format_bytes(page)} "
        f"({format_bytes(kv_bytes)}): at most one partial page each, {format_bytes(unused_max)} unused"
    )


def recorded_oom(request: int, event: int, free: int, holes: int, largest_hole: int) -> str:
    req, big = sizes(request, largest_hole)
    return (
        f"Recorded: the {req} request fails at event {event:,} with {format_bytes(free)} free in "
        f"{plural(holes, 'hole')}, none larger than {big}"
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
) -> str:
    req = sizes(request)[0]
    settings = ", ".join(overrides) or "the recorded settings"
    if not served:
        return f"With {settings}, the same {req} request still fails at event {event:,}"
    how = []
    if unmapped:
        how.append(f"{format_bytes(unmapped)} of free pages unmapped")
    if mapped:
        how.append(f"{format_bytes(mapped)} mapped where it is needed")
    return (
        f"With {settings}, the same {req} request is served at event {event:,}"
        + (f" ({', '.join(how)})" if how else "")
        + f"; OOMs {ooms_recorded} -> {ooms_replayed}"
    )
