"""The cases made on a bundled snapshot: the demo's own masks grade a click on the map (holes that fit, cached blocks,
the segments empty_cache keeps), replays grade a setting, counts in the data grade a number."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from gpumem_gui import assets
from gpumem_gui.core.allocator.remedies import GC_SETTINGS, Candidate, replay_candidates
from gpumem_gui.core.analysis.diagnosis import Remedy
from gpumem_gui.core.analysis.forward_replay import NEVER
from gpumem_gui.core.analysis.timetravel import DeviceTimeline, build_timeline
from gpumem_gui.core.rules.allocator_constants import MiB
from gpumem_gui.core.snapshot.loader import load_snapshot
from gpumem_gui.core.snapshot.model import B8, AllocatorState, BlockState, Snapshot
from gpumem_gui.core.snapshot.units import format_bytes
from gpumem_gui.teach.predict.model import LAB, Case, Prediction, PredictionError
from gpumem_gui.teach.quiz_demos import foci_for, focus_for

Builder = Callable[[Prediction, Snapshot, DeviceTimeline], Case]


def _holes_case(p: Prediction, snapshot: Snapshot, tl: DeviceTimeline) -> Case:
    """Fragmentation: the right holes are the demo's free blocks at the OOM that hold the whole request."""
    focus = focus_for("fragmented_oom", snapshot, tl)
    state = tl.state_at(focus.event)
    request = int(focus.facts["request_bytes"])
    right = focus.block_mask & (state.blocks.size >= request)
    f = focus.facts
    fields = {
        "request": format_bytes(request),
        "largest": format_bytes(f["largest_hole_bytes"]),
        "free": format_bytes(f["free_bytes"]),
        "holes": str(f["holes"]),
        "device_free": format_bytes(f["device_free_bytes"]),
    }
    return Case(p, snapshot, tl, focus.event, state, right, fields, extra={"request": request})


def _cached_case(p: Prediction, snapshot: Snapshot, tl: DeviceTimeline) -> Case:
    """Reserved vs allocated: the demo's cached blocks (free or pending free) are the right ones."""
    focus = focus_for("reserved_vs_allocated", snapshot, tl)
    state = tl.state_at(focus.event)
    f = focus.facts
    fields = {
        "reserved": format_bytes(f["reserved_bytes"]),
        "allocated": format_bytes(f["allocated_bytes"]),
        "cached": str(f["cached_blocks"]),
        "gap": format_bytes(f["gap_bytes"]),
    }
    return Case(p, snapshot, tl, focus.event, state, focus.block_mask.copy(), fields)


def _empty_cache_case(p: Prediction, snapshot: Snapshot, tl: DeviceTimeline) -> Case:
    """empty_cache: the state right before the demo's release; the right segments are those still there after it."""
    focus = focus_for("empty_cache_live_tensor", snapshot, tl)
    before, after = int(focus.facts["before_event"]), int(focus.facts["after_event"])
    state, later = tl.state_at(before), tl.state_at(after)
    kept = np.isin(state.segments.address, later.segments.address)
    right = kept[state.blocks.segment]
    f = focus.facts
    fields = {
        "kept": str(int(kept.sum())),
        "segments": str(len(kept)),
        "live": format_bytes(f["live_bytes"]),
        "released": format_bytes(f["released_bytes"]),
    }
    return Case(p, snapshot, tl, before, state, right, fields, extra={"after_event": after})


def _number_options(right: int, candidates: list[int]) -> tuple[tuple[str, ...], frozenset[int]]:
    """The right number among three others from `candidates`, none within one of it (a near miss is not a
    different idea), ascending."""
    others: list[int] = []
    for c in candidates:
        if c > 0 and abs(c - right) > 1 and c not in others:
            others.append(c)
    values = sorted([right, *others[:3]])
    return tuple(f"{v:,}" for v in values), frozenset({values.index(right)})


def _no_blocks(state: AllocatorState) -> B8:
    return np.zeros(len(state.blocks), bool)


def _mallocs_case(p: Prediction, snapshot: Snapshot, tl: DeviceTimeline) -> Case:
    focus = focus_for("cache_reuse", snapshot, tl)
    f = focus.facts
    right, allocations = int(f["cuda_mallocs"]), int(f["allocations"])
    options, right_options = _number_options(right, [allocations, allocations // 2, allocations // 10, 1])
    state = tl.state_at(focus.event)
    fields = {"allocations": f"{allocations:,}", "mallocs": f"{right:,}", "served": f"{int(f['served_from_cache']):,}"}
    return Case(p, snapshot, tl, focus.event, state, _no_blocks(state), fields, options, right_options)


def _activations_case(p: Prediction, snapshot: Snapshot, tl: DeviceTimeline) -> Case:
    """Checkpointing: at the allocated peak, the blocks alive that are freed before the trace ends are activations;
    those never freed are the weights, one per layer."""
    peak = int(np.argmax(tl.series.allocated))
    life = tl.lifetimes
    alive = (life.start <= peak) & (life.end > peak)
    weights = alive & (life.end == NEVER)
    activations = alive & (life.end != NEVER)
    right, layers = int(activations.sum()), int(weights.sum())
    every = math.isqrt(layers)
    options, right_options = _number_options(right, [every, 2 * every, layers // 2, layers, 2 * layers])
    sizes = np.unique(life.size[activations])
    fields = {
        "layers": str(layers),
        "every": str(every),
        "activations": str(right),
        "size": format_bytes(int(sizes.max(initial=0))),
        "peak": format_bytes(int(tl.series.allocated[peak])),
    }
    state = tl.state_at(peak)
    extra = {"peak_event": peak, "activations": right, "layers": layers}
    return Case(p, snapshot, tl, peak, state, _no_blocks(state), fields, options, right_options, extra=extra)


def percent_options(right: float, candidates: list[float]) -> tuple[tuple[str, ...], frozenset[int]]:
    """The right percentage among up to three of `candidates` at least 5 points from it and from each other."""
    values = [right]
    for c in candidates:
        if 0 <= c <= 100 and all(abs(c - v) >= 5 for v in values):
            values.append(c)
    chosen = sorted(values[:4])
    return tuple(f"{v:.1f}%" for v in chosen), frozenset({chosen.index(right)})


def _paging_case(p: Prediction, snapshot: Snapshot, tl: DeviceTimeline) -> Case:
    """PagedAttention: the same requests served by the contiguous run; the right figure is how much less KV-cache
    memory those requests' pages take in the paged run (this snapshot) at the end, from the demo's own facts, and
    the reveal says how many more requests the pages saved serve in the same pool."""
    contiguous = load_snapshot(assets.example_path("kv_cache_contiguous"))
    c_tl = build_timeline(contiguous, contiguous.default_device())
    _, p_focus = foci_for("kv_cache", (contiguous, snapshot), (c_tl, tl))
    f = p_focus.facts
    c_bytes, p_bytes = int(f["contiguous_kv_bytes"]), int(f["paged_kv_bytes"])
    saving = round(100 * (1 - p_bytes / c_bytes), 1)
    options, right = percent_options(saving, [0.0, saving / 2, (100 + saving) / 2, saving / 4, 90.0])
    fields = {
        "requests": str(int(f["requests"])),
        "buffer": format_bytes(int(f["buffer_bytes"])),
        "page": format_bytes(int(f["page_bytes"])),
        "pages": f"{int(f['pages']):,}",
        "contiguous": format_bytes(c_bytes),
        "paged": format_bytes(p_bytes),
        "saving": f"{saving:.1f}%",
        "pool": format_bytes(int(f["pool_bytes"])),
        "more": str(int(f["more_requests"])),
    }
    state = tl.state_at(p_focus.event)
    extra = {"contiguous_kv_bytes": c_bytes, "paged_kv_bytes": p_bytes}
    return Case(p, snapshot, tl, p_focus.event, state, _no_blocks(state), fields, options, right, extra=extra)


def split_size_mb(request: int) -> int:
    """The max_split_size_mb offered: the largest power of two MiB not above half the request, so that blocks that
    large are kept whole for it instead of being carved by small requests."""
    return max(32, 1 << (max(1, request // (2 * MiB)).bit_length() - 1))


def setting_candidates(request: int) -> list[Candidate]:
    """The three settings a learner picks from, in the order shown."""
    mb = split_size_mb(request)
    return [
        Candidate("expandable_segments:True", ("expandable_segments:True",)),
        Candidate(f"max_split_size_mb:{mb}", (f"max_split_size_mb:{mb}",)),
        # the threshold acts only under a memory fraction below 1.0, so the replay sets one and the label shows it
        Candidate(GC_SETTINGS, tuple(GC_SETTINGS.split(","))),
    ]


def _setting_case(p: Prediction, snapshot: Snapshot, tl: DeviceTimeline) -> Case:
    """Which setting removes the OOM: the trace replayed under each; those that finish with no OOM are right."""
    if not tl.ooms:
        raise PredictionError(f"{p.quiz}.{p.question}: {p.example} has no OOM to remove")
    oom = tl.ooms[0]
    state = tl.state_at(oom.index)
    free = state.blocks.state == BlockState.INACTIVE
    candidates = setting_candidates(oom.requested_bytes)
    results = replay_candidates(snapshot, tl.device, candidates, parallel=False)
    remedies = tuple(r for r in results if isinstance(r, Remedy))
    if len(remedies) != len(candidates):
        failed = "; ".join(r for r in results if isinstance(r, str))
        raise PredictionError(f"{p.quiz}.{p.question}: a replay failed: {failed}")
    right = frozenset(i for i, r in enumerate(remedies) if r.fits)
    fields = {
        "request": format_bytes(oom.requested_bytes),
        "free": format_bytes(int(state.blocks.size[free].sum())),
        "holes": str(int(free.sum())),
    }
    options = tuple(c.settings for c in candidates)
    return Case(p, snapshot, tl, oom.index, state, _no_blocks(state), fields, options, right, remedies)


BUILDERS: dict[tuple[str, str], Builder] = {
    ("block", "fragmented_oom"): _holes_case,
    ("block", "reserved_vs_allocated"): _cached_case,
    ("segment", "empty_cache_live_tensor"): _empty_cache_case,
    ("number", "cache_reuse"): _mallocs_case,
    ("number", "checkpointing_off"): _activations_case,
    ("number", "checkpointing_sqrt"): _activations_case,
    ("number", "kv_cache_paged"): _paging_case,
}


def builder_for(prediction: Prediction) -> Builder:
    if prediction.example == LAB:
        raise PredictionError(f"{prediction.quiz}.{prediction.question} is measured in the lab, not on a snapshot")
    if prediction.kind == "setting":
        return _setting_case
    builder = BUILDERS.get((prediction.kind, prediction.example))
    if builder is None:
        raise PredictionError(f"no {prediction.kind} prediction is known on {prediction.example}")
    return builder


def case_on(prediction: Prediction, snapshot: Snapshot) -> Case:
    """The prediction's case on `snapshot` (its default device)."""
    tl = build_timeline(snapshot, snapshot.default_device())
    return builder_for(prediction)(prediction, snapshot, tl)
