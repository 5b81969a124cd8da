"""The one-snapshot demos' analyses: find in the data the event, the blocks and the figures each question is about."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from gpumem_gui.core.snapshot.model import B8, Action, AllocatorState, BlockState, TraceTable
from gpumem_gui.teach.demos import captions
from gpumem_gui.teach.demos.focus import (
    GROW,
    RELEASE,
    Bracket,
    DemoData,
    DemoFocus,
    Facts,
    TimelineMark,
    first_oom,
    make_focus,
    mark,
)
from gpumem_gui.teach.demos.plans import DemoError


def _active_segments(state: AllocatorState) -> B8:
    """Per segment: does it hold an allocated or pending-free block?"""
    seg, blk = state.segments, state.blocks
    active = np.zeros(len(seg), bool)
    active[blk.segment[blk.state != BlockState.INACTIVE]] = True
    return active


# -- Q1 fragmentation -----------------------------------------------------------------------------------------


def fragmented_oom(data: DemoData, demo: str, title: str) -> DemoFocus:
    event, request, device_free = first_oom(data, demo)
    state = data.timeline.state_at(event)
    free = state.blocks.state == BlockState.INACTIVE
    holes = state.blocks.size[free]
    largest, total = int(holes.max(initial=0)), int(holes.sum())
    caption = captions.fragmented_oom(request, largest, total, len(holes), device_free)
    facts: Facts = {
        "oom_event": event,
        "request_bytes": request,
        "largest_hole_bytes": largest,
        "free_bytes": total,
        "holes": len(holes),
        "device_free_bytes": device_free,
    }
    marks = (mark(event, event, captions.oom_label(demo, request, largest, total)),)
    return make_focus(data, event, state, free, demo=demo, title=title, caption=caption, facts=facts, marks=marks)


# -- Q2 caching -----------------------------------------------------------------------------------------------


def _served_from_cache(trace: TraceTable) -> B8:
    """Per event: an alloc that no segment_alloc / segment_map just before it had to make room for (the allocator
    records the cudaMalloc, or the pages it maps, right before the alloc it serves)."""
    action = trace.action
    alloc = action == Action.ALLOC
    grew = np.zeros(len(action), bool)
    grew[1:] = np.isin(action[:-1], GROW)
    served: B8 = alloc & ~grew
    return served


def cache_reuse(data: DemoData, demo: str, title: str) -> DemoFocus:
    trace, tl = data.trace, data.timeline
    action = trace.action
    allocs = np.flatnonzero(action == Action.ALLOC)
    grows = np.flatnonzero(np.isin(action, GROW))
    if not len(allocs):
        raise DemoError(f"{demo}: {data.snapshot.source} records no allocation on GPU {data.device}")
    cached = _served_from_cache(trace)
    served = int(cached.sum())

    # the map: right after the last allocation, when the last step's blocks are live; point at those the cache served
    event = int(allocs[-1])
    state = tl.state_at(event)
    life = tl.lifetimes
    alive = np.flatnonzero((life.start <= event) & (life.end > event) & (life.start >= 0))
    start_of = dict(zip(life.addr[alive].tolist(), life.start[alive].tolist(), strict=True))
    blk = state.blocks
    mask = np.zeros(len(blk), bool)
    for i in np.flatnonzero(blk.state == BlockState.ALLOCATED):
        start = start_of.get(int(blk.address[i]))
        mask[i] = start is not None and bool(cached[start])

    marks: list[TimelineMark] = []
    if len(grows):
        first_grow, last_grow = int(grows[0]), int(grows[-1])
        marks.append(mark(first_grow, last_grow, captions.mallocs_label(len(grows))))
        after = allocs[allocs > last_grow + 1] if last_grow + 1 < len(action) else allocs[:0]
        if len(after):
            marks.append(mark(int(after[0]), data.last, captions.cached_run_label(len(after))))
    last_malloc = int(grows[-1]) if len(grows) else None
    caption = captions.cache_reuse(len(allocs), len(grows), served, last_malloc)
    facts: Facts = {
        "allocations": len(allocs),
        "cuda_mallocs": len(grows),
        "served_from_cache": served,
        "last_cuda_malloc_event": -1 if last_malloc is None else last_malloc,
        "highlighted_blocks": int(mask.sum()),
    }
    return make_focus(
        data, event, state, mask, demo=demo, title=title, caption=caption, facts=facts, marks=tuple(marks)
    )


# -- Q3 OOM despite reserved memory ---------------------------------------------------------------------------


def split_blocks_oom(data: DemoData, demo: str, title: str) -> DemoFocus:
    event, request, _device_free = first_oom(data, demo)
    state = data.timeline.state_at(event)
    blk, seg = state.blocks, state.segments
    free = blk.state == BlockState.INACTIVE
    # torch's inactive_split: free blocks that share a (non-expandable) segment with live blocks, so neither
    # empty_cache nor the OOM path can hand them back to CUDA
    pinned = _active_segments(state) & ~seg.is_expandable
    split = free & pinned[blk.segment]
    holes = blk.size[free]
    largest, total = int(holes.max(initial=0)), int(holes.sum())
    split_bytes = int(blk.size[split].sum())
    split_segments = int(np.unique(blk.segment[split]).size)
    caption = captions.split_blocks_oom(
        request, largest, total, split_blocks=int(split.sum()), split_bytes=split_bytes, split_segments=split_segments
    )
    facts: Facts = {
        "oom_event": event,
        "request_bytes": request,
        "largest_hole_bytes": largest,
        "free_bytes": total,
        "inactive_split_blocks": int(split.sum()),
        "inactive_split_bytes": split_bytes,
        "segments_with_split_blocks": split_segments,
    }
    marks = (mark(event, event, captions.oom_label(demo, request, largest, total)),)
    return make_focus(data, event, state, split, demo=demo, title=title, caption=caption, facts=facts, marks=marks)


# -- Q7 empty_cache with a live tensor ------------------------------------------------------------------------


def _release_runs(trace: TraceTable) -> list[tuple[int, int]]:
    """(first, last) event of each run of segment_free / segment_unmap events."""
    releasing = np.isin(trace.action, RELEASE)
    edges = np.diff(np.concatenate([[0], releasing.astype(np.int8), [0]]))
    return list(zip(np.flatnonzero(edges == 1).tolist(), (np.flatnonzero(edges == -1) - 1).tolist(), strict=True))


def empty_cache(data: DemoData, demo: str, title: str) -> DemoFocus:
    trace, tl = data.trace, data.timeline
    series = tl.series
    n = tl.n_events
    # the OOM path releases free segments too, right before its oom entry: empty_cache is a release not followed
    # by one; the demo shows the one that gave back the most
    runs = [(a, b) for a, b in _release_runs(trace) if b + 1 >= n or trace.action[b + 1] != Action.OOM]
    if not runs:
        raise DemoError(f"{demo}: {data.snapshot.source} has no empty_cache in the trace of GPU {data.device}")

    def reserved_at(i: int) -> int:
        return int(series.reserved[i]) if i >= 0 else int(series.initial["reserved"])

    def allocated_at(i: int) -> int:
        return int(series.allocated[i]) if i >= 0 else int(series.initial["allocated"])

    first, last = max(runs, key=lambda r: reserved_at(r[0] - 1) - reserved_at(r[1]))
    before, after = first - 1, last
    state_before, state = tl.state_at(before), tl.state_at(after)
    live = state.blocks.state != BlockState.INACTIVE
    live_bytes = int(state.blocks.size[live].sum())
    kept_segments = np.unique(state.blocks.segment[live])
    kept_bytes = int(state.segments.total_size[kept_segments].sum())
    survived = np.isin(
        state.blocks.address[live], state_before.blocks.address[state_before.blocks.state != BlockState.INACTIVE]
    )
    res_b, res_a, alloc_b, alloc_a = reserved_at(before), reserved_at(after), allocated_at(before), allocated_at(after)
    released = res_b - res_a
    caption = captions.empty_cache(
        released_segments=last - first + 1,
        reserved_before=res_b,
        reserved_after=res_a,
        allocated_before=alloc_b,
        allocated_after=alloc_a,
        live_blocks=int(live.sum()),
        live_bytes=live_bytes,
        kept_segments=len(kept_segments),
        kept_bytes=kept_bytes,
    )
    facts: Facts = {
        "before_event": before,
        "after_event": after,
        "reserved_before_bytes": res_b,
        "reserved_after_bytes": res_a,
        "allocated_before_bytes": alloc_b,
        "allocated_after_bytes": alloc_a,
        "released_bytes": released,
        "released_segments": last - first + 1,
        "live_blocks": int(live.sum()),
        "live_bytes": live_bytes,
        "live_blocks_present_before": int(survived.sum()),
        "kept_segment_bytes": kept_bytes,
    }
    marks = (mark(first, last, captions.empty_cache_label(released)),)
    return make_focus(data, after, state, live, demo=demo, title=title, caption=caption, facts=facts, marks=marks)


# -- Q8 reserved vs allocated ---------------------------------------------------------------------------------


def reserved_vs_allocated(data: DemoData, demo: str, title: str) -> DemoFocus:
    tl = data.timeline
    event = data.last
    state = tl.state_at(event)
    blk = state.blocks
    reserved = int(state.segments.total_size.sum())
    allocated = int(blk.size[blk.state == BlockState.ALLOCATED].sum())
    cached = blk.state != BlockState.ALLOCATED  # free, and pending free (freed, waiting on another stream)
    pending = int(blk.size[blk.state == BlockState.PENDING_FREE].sum())
    gap = reserved - allocated
    marks: list[TimelineMark] = []
    series = tl.series
    peak: tuple[int, int] | None = None
    if len(series):
        at = int(np.argmax(series.allocated))
        peak = (at, int(series.allocated[at]))
        marks.append(mark(at, at, captions.peak_label(peak[1])))
        if at < event:
            marks.append(mark(at + 1, event, captions.freed_label()))
    free_blocks = int((blk.state == BlockState.INACTIVE).sum())
    caption = captions.reserved_vs_allocated(reserved, allocated, free_blocks, pending, peak)
    facts: Facts = {
        "reserved_bytes": reserved,
        "allocated_bytes": allocated,
        "gap_bytes": gap,
        "cached_blocks": int(cached.sum()),
        "cached_bytes": int(blk.size[cached].sum()),
        "pending_free_bytes": pending,
        "peak_allocated_bytes": series.peak("allocated"),
    }
    gap_labels = captions.gap_label(reserved, allocated)
    bracket = Bracket(reserved, allocated, gap_labels["en"], gap_labels)
    return make_focus(
        data,
        event,
        state,
        cached,
        demo=demo,
        title=title,
        caption=caption,
        facts=facts,
        marks=tuple(marks),
        bracket=bracket,
    )


SINGLE: dict[str, Callable[[DemoData, str, str], DemoFocus]] = {
    "fragmented_oom": fragmented_oom,
    "cache_reuse": cache_reuse,
    "split_blocks_oom": split_blocks_oom,
    "empty_cache_live_tensor": empty_cache,
    "reserved_vs_allocated": reserved_vs_allocated,
}
