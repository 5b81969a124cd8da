"""What each quiz question's "Show me" opens and points at, computed from the snapshot's own data.

A demo (one of the names in the quiz files' `demo` field) has a `DemoPlan`: which bundled examples to open and how
(one snapshot, two side by side, a what-if replay, or the checkpointing lab). A `DemoFocus` is what to point at in
one view: the trace event to travel to, a mask over the blocks of the allocator state right after that event, events
or spans to mark on the timeline, an optional reserved/allocated bracket for the figures, and one caption whose
figures are all in `facts`, so that tests check the caption's claims on the data, never on fixed places.

    plan = plan_for(question.demo)
    snapshots = [load_snapshot(example_path(name)) for name in plan.examples]
    foci = foci_for(plan.demo, snapshots)                      # "snapshot" and "pair": one focus per view
    run = run_whatif(plan, snapshots[0])                       # "whatif": replay first ...
    foci = whatif_foci(snapshots[0], run.snapshot, plan, run.timeline)   # ... then the recorded and replayed foci
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from gpumem_gui.core.allocator.replay import ReplayResult, replay
from gpumem_gui.core.analysis.timetravel import DeviceTimeline, build_timeline
from gpumem_gui.core.snapshot.convert import snapshot_from_object
from gpumem_gui.core.snapshot.model import B8, I64, Action, AllocatorState, BlockState, Snapshot, TraceTable
from gpumem_gui.core.snapshot.units import format_bytes, format_percent

DemoKind = Literal["snapshot", "pair", "whatif", "lab"]
Facts = dict[str, int | float]

_GROW = (Action.SEGMENT_ALLOC, Action.SEGMENT_MAP)  # a new cudaMalloc, or pages mapped into an expandable segment
_RELEASE = (Action.SEGMENT_FREE, Action.SEGMENT_UNMAP)
KV_CACHE_SITE = "kv_cache"  # the KV cache's blocks are those allocated from a file whose path contains this


class DemoError(ValueError):
    """A demo that cannot be shown on this data (unknown name, or a snapshot that lacks what the demo needs)."""


@dataclass(frozen=True)
class DemoPlan:
    """What "Show me" opens: `examples` are bundled example names (resolve them with assets.example_path)."""

    demo: str
    kind: DemoKind
    examples: tuple[str, ...]
    titles: tuple[str, ...]  # a label per view shown: one for "snapshot", two for "pair" and "whatif"
    overrides: tuple[str, ...] = ()  # "whatif": the PYTORCH_CUDA_ALLOC_CONF items the replay runs under


PLANS: dict[str, DemoPlan] = {
    p.demo: p
    for p in (
        DemoPlan("fragmented_oom", "snapshot", ("fragmented_oom",), ("fragmented OOM",)),
        DemoPlan("cache_reuse", "snapshot", ("cache_reuse",), ("cache reuse",)),
        DemoPlan("split_blocks_oom", "snapshot", ("split_blocks_oom",), ("inactive split blocks",)),
        DemoPlan(
            "expandable_whatif",
            "whatif",
            ("fragmented_oom",),
            ("recorded", "replayed with expandable_segments:True"),
            ("expandable_segments:True",),
        ),
        DemoPlan(
            "kv_cache", "pair", ("kv_cache_contiguous", "kv_cache_paged"), ("contiguous KV cache", "paged KV cache")
        ),
        DemoPlan("checkpointing_lab", "lab", (), ("gradient checkpointing lab",)),
        DemoPlan("empty_cache_live_tensor", "snapshot", ("empty_cache_live_tensor",), ("empty_cache",)),
        DemoPlan("reserved_vs_allocated", "snapshot", ("reserved_vs_allocated",), ("reserved vs allocated",)),
    )
}
DEMO_NAMES: tuple[str, ...] = tuple(PLANS)


@dataclass(frozen=True)
class TimelineMark:
    """Events to mark on the timeline: one event when `start == end`, else the inclusive span between them."""

    start: int
    end: int
    label: str


@dataclass(frozen=True)
class Bracket:
    """The reserved-allocated gap for the figures panel to bracket."""

    reserved_bytes: int
    allocated_bytes: int
    label: str

    @property
    def gap_bytes(self) -> int:
        return self.reserved_bytes - self.allocated_bytes


@dataclass(frozen=True, eq=False)
class DemoFocus:
    """What one view points at. `block_mask` is over the blocks of `state_at(event)` of `device` (all pools and
    streams, in that state's block order), which is what DocumentView.travel_to(event) shows unfiltered."""

    demo: str
    title: str
    device: int
    event: int  # the trace event whose state is shown (n_events - 1: the final snapshot; -1: before the first)
    block_mask: B8
    block_addresses: I64  # the address of every block of that state: what `mask_for` matches other states on
    caption: str
    facts: Facts
    timeline_marks: tuple[TimelineMark, ...] = ()
    bracket: Bracket | None = None

    @property
    def highlighted_addresses(self) -> I64:
        return self.block_addresses[self.block_mask]

    def mask_for(self, state: AllocatorState) -> B8:
        """The mask over `state`'s blocks: `block_mask` itself for the focused state, else matched by address (a
        pool or stream filter keeps a subset of the same blocks)."""
        addresses = state.blocks.address
        if np.array_equal(addresses, self.block_addresses):
            return self.block_mask
        return np.isin(addresses, self.highlighted_addresses)


@dataclass(frozen=True)
class WhatIfRun:
    """A what-if replay, ready to show: the replay's figures, the replayed snapshot and its timeline."""

    result: ReplayResult
    snapshot: Snapshot
    timeline: DeviceTimeline = field(repr=False)


def plan_for(demo: str) -> DemoPlan:
    try:
        return PLANS[demo]
    except KeyError:
        raise DemoError(f"unknown demo {demo!r} (known: {', '.join(DEMO_NAMES)})") from None


# -- small helpers ---------------------------------------------------------------------------------------------


def _sizes(*values: int) -> list[str]:
    """format_bytes of each, with two decimals where one decimal would print two different sizes alike."""
    texts = [format_bytes(v) for v in values]
    if len(set(texts)) < len(set(values)):
        texts = [_two_decimals(v) for v in values]
    return texts


def _two_decimals(n: int) -> str:
    text = format_bytes(n)
    unit = text.partition(" ")[2]
    if unit == "B":
        return text
    scale = {"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "TiB": 1 << 40, "PiB": 1 << 50}[unit]
    return f"{n / scale:.2f} {unit}"


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}" if n == 1 else f"{n:,} {word}s"


@dataclass(frozen=True)
class _Data:
    snapshot: Snapshot
    device: int
    timeline: DeviceTimeline
    trace: TraceTable

    @property
    def last(self) -> int:
        return self.timeline.n_events - 1


def _data(snapshot: Snapshot, timeline: DeviceTimeline | None) -> _Data:
    device = snapshot.default_device() if timeline is None else timeline.device
    if timeline is None:
        timeline = build_timeline(snapshot, device)
    return _Data(snapshot, device, timeline, snapshot.trace(device))


def _focus(
    data: _Data,
    event: int,
    state: AllocatorState,
    mask: B8,
    *,
    demo: str,
    title: str,
    caption: str,
    facts: Facts,
    marks: tuple[TimelineMark, ...] = (),
    bracket: Bracket | None = None,
) -> DemoFocus:
    return DemoFocus(
        demo=demo,
        title=title,
        device=data.device,
        event=event,
        block_mask=np.asarray(mask, bool),
        block_addresses=state.blocks.address.copy(),
        caption=caption,
        facts=facts,
        timeline_marks=marks,
        bracket=bracket,
    )


def _first_oom(data: _Data, demo: str) -> tuple[int, int, int]:
    """(event, requested bytes, device free bytes) of the trace's first OOM."""
    if not data.timeline.ooms:
        raise DemoError(f"{demo}: {data.snapshot.source} has no OOM in the trace of GPU {data.device}")
    oom = data.timeline.ooms[0]
    return oom.index, oom.requested_bytes, oom.device_free_bytes


def _active_segments(state: AllocatorState) -> B8:
    """Per segment: does it hold an allocated or pending-free block?"""
    seg, blk = state.segments, state.blocks
    active = np.zeros(len(seg), bool)
    active[blk.segment[blk.state != BlockState.INACTIVE]] = True
    return active


# -- Q1 fragmentation -----------------------------------------------------------------------------------------


def _fragmented_oom(data: _Data, demo: str, title: str) -> DemoFocus:
    event, request, device_free = _first_oom(data, demo)
    state = data.timeline.state_at(event)
    free = state.blocks.state == BlockState.INACTIVE
    holes = state.blocks.size[free]
    largest, total = int(holes.max(initial=0)), int(holes.sum())
    req, big, tot = _sizes(request, largest, total)
    caption = (
        f"The failed request of {req} is larger than the largest hole ({big}), "
        f"though {tot} is free in {_plural(len(holes), 'hole')}"
    )
    if device_free < request:
        caption += f"; the GPU had only {format_bytes(device_free)} left for a new cudaMalloc"
    facts: Facts = {
        "oom_event": event,
        "request_bytes": request,
        "largest_hole_bytes": largest,
        "free_bytes": total,
        "holes": len(holes),
        "device_free_bytes": device_free,
    }
    marks = (TimelineMark(event, event, f"OOM: {req} requested"),)
    return _focus(data, event, state, free, demo=demo, title=title, caption=caption, facts=facts, marks=marks)


# -- Q2 caching -----------------------------------------------------------------------------------------------


def _served_from_cache(trace: TraceTable) -> B8:
    """Per event: an alloc that no segment_alloc / segment_map just before it had to make room for (the allocator
    records the cudaMalloc, or the pages it maps, right before the alloc it serves)."""
    action = trace.action
    alloc = action == Action.ALLOC
    grew = np.zeros(len(action), bool)
    grew[1:] = np.isin(action[:-1], _GROW)
    served: B8 = alloc & ~grew
    return served


def _cache_reuse(data: _Data, demo: str, title: str) -> DemoFocus:
    trace, tl = data.trace, data.timeline
    action = trace.action
    allocs = np.flatnonzero(action == Action.ALLOC)
    grows = np.flatnonzero(np.isin(action, _GROW))
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
        marks.append(TimelineMark(first_grow, last_grow, f"{_plural(len(grows), 'cudaMalloc call')}"))
        after = allocs[allocs > last_grow + 1] if last_grow + 1 < len(action) else allocs[:0]
        if len(after):
            marks.append(TimelineMark(int(after[0]), data.last, f"{len(after):,} allocations, no cudaMalloc"))
        tail = f", the last at event {last_grow:,}"
    else:
        tail = ""
    caption = (
        f"{len(allocs):,} allocations but only {_plural(len(grows), 'cudaMalloc call')}{tail}: "
        f"{served:,} requests were served from cached blocks"
    )
    facts: Facts = {
        "allocations": len(allocs),
        "cuda_mallocs": len(grows),
        "served_from_cache": served,
        "last_cuda_malloc_event": int(grows[-1]) if len(grows) else -1,
        "highlighted_blocks": int(mask.sum()),
    }
    return _focus(data, event, state, mask, demo=demo, title=title, caption=caption, facts=facts, marks=tuple(marks))


# -- Q3 OOM despite reserved memory ---------------------------------------------------------------------------


def _split_blocks_oom(data: _Data, demo: str, title: str) -> DemoFocus:
    event, request, _device_free = _first_oom(data, demo)
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
    req, big, tot = _sizes(request, largest, total)
    caption = (
        f"The {req} request fails although {tot} is free: {_plural(int(split.sum()), 'inactive split block')} "
        f"({format_bytes(split_bytes)}) sit between live blocks in {_plural(split_segments, 'segment')}, "
        f"and the largest hole is {big}"
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
    marks = (TimelineMark(event, event, f"OOM: {req} requested"),)
    return _focus(data, event, state, split, demo=demo, title=title, caption=caption, facts=facts, marks=marks)


# -- Q7 empty_cache with a live tensor ------------------------------------------------------------------------


def _release_runs(trace: TraceTable) -> list[tuple[int, int]]:
    """(first, last) event of each run of segment_free / segment_unmap events."""
    releasing = np.isin(trace.action, _RELEASE)
    edges = np.diff(np.concatenate([[0], releasing.astype(np.int8), [0]]))
    return list(zip(np.flatnonzero(edges == 1).tolist(), (np.flatnonzero(edges == -1) - 1).tolist(), strict=True))


def _empty_cache(data: _Data, demo: str, title: str) -> DemoFocus:
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
    if int(live.sum()) == 1 and len(kept_segments) == 1:
        kept = f"the live {format_bytes(live_bytes)} block keeps its {format_bytes(kept_bytes)} segment"
    else:
        kept = (
            f"the {_plural(int(live.sum()), 'live block')} ({format_bytes(live_bytes)}) keep "
            f"{_plural(len(kept_segments), 'segment')} ({format_bytes(kept_bytes)})"
        )
    caption = (
        f"empty_cache gave back {_plural(last - first + 1, 'free segment')} ({format_bytes(released)}): reserved "
        f"{format_bytes(res_b)} -> {format_bytes(res_a)}, allocated unchanged at {format_bytes(alloc_a)}; {kept}"
        if alloc_a == alloc_b
        else f"empty_cache gave back {format_bytes(released)}: reserved {format_bytes(res_b)} -> "
        f"{format_bytes(res_a)}, allocated {format_bytes(alloc_b)} -> {format_bytes(alloc_a)}"
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
    marks = (TimelineMark(first, last, f"empty_cache: -{format_bytes(released)} reserved"),)
    return _focus(data, after, state, live, demo=demo, title=title, caption=caption, facts=facts, marks=marks)


# -- Q8 reserved vs allocated ---------------------------------------------------------------------------------


def _reserved_vs_allocated(data: _Data, demo: str, title: str) -> DemoFocus:
    tl = data.timeline
    event = data.last
    state = tl.state_at(event)
    blk = state.blocks
    reserved = int(state.segments.total_size.sum())
    allocated = int(blk.size[blk.state == BlockState.ALLOCATED].sum())
    cached = blk.state != BlockState.ALLOCATED  # free, and pending free (freed, waiting on another stream)
    pending = int(blk.size[blk.state == BlockState.PENDING_FREE].sum())
    gap = reserved - allocated
    res, alloc, gap_text = _sizes(reserved, allocated, gap)
    caption = (
        f"Reserved {res} but allocated {alloc}: the {gap_text} gap is "
        f"{_plural(int((blk.state == BlockState.INACTIVE).sum()), 'cached free block')} the allocator keeps"
    )
    if pending:
        caption += f" (with {format_bytes(pending)} pending free)"
    marks: list[TimelineMark] = []
    series = tl.series
    if len(series):
        peak = int(np.argmax(series.allocated))
        caption += f", left from the peak of {format_bytes(int(series.allocated[peak]))} allocated at event {peak:,}"
        marks.append(TimelineMark(peak, peak, f"peak: {format_bytes(int(series.allocated[peak]))} allocated"))
        if peak < event:
            marks.append(TimelineMark(peak + 1, event, "freed, still reserved"))
    facts: Facts = {
        "reserved_bytes": reserved,
        "allocated_bytes": allocated,
        "gap_bytes": gap,
        "cached_blocks": int(cached.sum()),
        "cached_bytes": int(blk.size[cached].sum()),
        "pending_free_bytes": pending,
        "peak_allocated_bytes": series.peak("allocated"),
    }
    bracket = Bracket(reserved, allocated, f"cached, not allocated: {gap_text}")
    return _focus(
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


# -- Q5 PagedAttention ----------------------------------------------------------------------------------------


def _kv_blocks(snapshot: Snapshot, state: AllocatorState) -> B8:
    """The allocated blocks whose allocation site is the KV cache's."""
    stacks = snapshot.stacks
    sites = [i for i in range(len(stacks)) if any(KV_CACHE_SITE in f.filename for f in stacks.stack(i))]
    kv: B8 = np.isin(state.blocks.stack, sites) & (state.blocks.state == BlockState.ALLOCATED)
    return kv


def kv_cache_foci(
    contiguous: Snapshot,
    paged: Snapshot,
    timelines: Sequence[DeviceTimeline | None] = (None, None),
) -> tuple[DemoFocus, DemoFocus]:
    """The KV cache's blocks at the end of both runs, and what each wastes.

    Both runs served the same requests and hold the same ones at the end. The paged run holds each live sequence's
    tokens plus at most one partial page, so (what the contiguous buffers hold) - (what the pages hold) is a lower
    bound of the contiguous run's unused bytes, and (live requests) x (page size) an upper bound of the paged run's.
    The contiguous run has one buffer per request, which counts the live requests.
    """
    plan = plan_for("kv_cache")
    sides = []
    for snapshot, timeline in zip((contiguous, paged), timelines, strict=True):
        data = _data(snapshot, timeline)
        state = data.timeline.state_at(data.last)
        kv = _kv_blocks(snapshot, state)
        if not kv.any():
            raise DemoError(f"kv_cache: {snapshot.source} has no block allocated from a {KV_CACHE_SITE} file")
        sides.append((data, state, kv))
    (c_data, c_state, c_kv), (p_data, p_state, p_kv) = sides
    c_bytes, p_bytes = int(c_state.blocks.size[c_kv].sum()), int(p_state.blocks.size[p_kv].sum())
    requests = int(c_kv.sum())
    buffer = int(np.median(c_state.blocks.size[c_kv]))
    page = int(np.median(p_state.blocks.size[p_kv]))
    pages = int(p_kv.sum())
    c_unused_min = max(c_bytes - p_bytes, 0)
    p_unused_max = min(requests * page, p_bytes)
    shared: Facts = {
        "requests": requests,
        "contiguous_kv_bytes": c_bytes,
        "paged_kv_bytes": p_bytes,
        "buffer_bytes": buffer,
        "page_bytes": page,
        "pages": pages,
        "contiguous_unused_min_bytes": c_unused_min,
        "paged_unused_max_bytes": p_unused_max,
    }

    def side_facts(state: AllocatorState, kv: B8, unused: int) -> Facts:
        blk = state.blocks
        return shared | {
            "kv_bytes": int(blk.size[kv].sum()),
            "kv_blocks": int(kv.sum()),
            "unused_bytes": unused,
            "cached_free_bytes": int(blk.size[blk.state == BlockState.INACTIVE].sum()),
            "reserved_bytes": int(state.segments.total_size.sum()),
        }

    c_caption = (
        f"{_plural(requests, 'request')} hold {format_bytes(c_bytes)} in buffers of {format_bytes(buffer)} each: "
        f"at least {format_bytes(c_unused_min)} ({format_percent(c_unused_min / c_bytes)}) holds no token, since "
        f"the paged run keeps the same sequences in {format_bytes(p_bytes)}"
    )
    p_caption = (
        f"The same {_plural(requests, 'request')} fit in {pages:,} pages of {format_bytes(page)} "
        f"({format_bytes(p_bytes)}): at most one partial page each, {format_bytes(p_unused_max)} unused"
    )
    c_facts = side_facts(c_state, c_kv, c_unused_min)
    p_facts = side_facts(p_state, p_kv, p_unused_max)
    return (
        _focus(c_data, c_data.last, c_state, c_kv, demo=plan.demo, title=plan.titles[0], caption=c_caption,
               facts=c_facts),
        _focus(p_data, p_data.last, p_state, p_kv, demo=plan.demo, title=plan.titles[1], caption=p_caption,
               facts=p_facts),
    )  # fmt: skip


# -- Q4 expandable segments -----------------------------------------------------------------------------------


def run_whatif(plan: DemoPlan, snapshot: Snapshot, *, capacity: int | None = None) -> WhatIfRun:
    """Replay `snapshot`'s trace under the plan's overrides (what the window's What if... does; blocking)."""
    if plan.kind != "whatif":
        raise DemoError(f"{plan.demo} is not a what-if demo")
    result = replay(snapshot, overrides=list(plan.overrides), capacity=capacity)
    replayed = snapshot_from_object(result.snapshot, f"{snapshot.source} ({result.settings})", "dump")
    return WhatIfRun(result, replayed, build_timeline(replayed, result.device))


def _requests(trace: TraceTable) -> I64:
    """The events where the program asked for memory: allocs, and the oom entries of the requests that failed."""
    return np.flatnonzero(np.isin(trace.action, (Action.ALLOC, Action.OOM))).astype(np.int64)


def _recorded_oom(o: _Data, plan: DemoPlan) -> DemoFocus:
    """The what-if's recorded side: the run at its OOM, the holes the request did not fit in."""
    event, request, _device_free = _first_oom(o, plan.demo)
    o_state = o.timeline.state_at(event)
    free = o_state.blocks.state == BlockState.INACTIVE
    holes = o_state.blocks.size[free]
    req, big = _sizes(request, int(holes.max(initial=0)))
    o_caption = (
        f"Recorded: the {req} request fails at event {event:,} with {format_bytes(int(holes.sum()))} free in "
        f"{_plural(len(holes), 'hole')}, none larger than {big}"
    )
    o_facts: Facts = {
        "oom_event": event,
        "request_bytes": request,
        "largest_hole_bytes": int(holes.max(initial=0)),
        "free_bytes": int(holes.sum()),
        "ooms": len(o.timeline.ooms),
    }
    o_marks = (TimelineMark(event, event, f"OOM: {req} requested"),)
    return _focus(
        o, event, o_state, free, demo=plan.demo, title=plan.titles[0], caption=o_caption, facts=o_facts, marks=o_marks
    )


def whatif_foci(
    original: Snapshot,
    replayed: Snapshot,
    plan: DemoPlan | None = None,
    replayed_timeline: DeviceTimeline | None = None,
    original_timeline: DeviceTimeline | None = None,
) -> tuple[DemoFocus, DemoFocus]:
    """The recorded run at its OOM (the free holes), and the replayed run at the same request (its block).

    The replay feeds the recorded requests in order, so the recorded OOM's request is the replayed trace's request
    of the same rank among allocs and oom entries.
    """
    plan = plan or plan_for("expandable_whatif")
    o = _data(original, original_timeline)
    r = _data(replayed, replayed_timeline)
    o_focus = _recorded_oom(o, plan)
    event = o_focus.event
    req = _sizes(int(o_focus.facts["request_bytes"]))[0]
    settings = ", ".join(plan.overrides) or "the recorded settings"

    rank = int(np.searchsorted(_requests(o.trace), event))
    r_requests = _requests(r.trace)
    if rank >= len(r_requests):
        raise DemoError(f"{plan.demo}: the replay of {original.source} stops before the recorded OOM's request")
    at = int(r_requests[rank])
    r_state = r.timeline.state_at(at)
    r_blk = r_state.blocks
    served = bool(r.trace.action[at] == Action.ALLOC)
    if served:  # the block the request got
        r_mask = (r_blk.address == r.trace.addr[at]) & (r_blk.state == BlockState.ALLOCATED)
    else:  # it failed here too: the holes it did not fit in
        r_mask = r_blk.state == BlockState.INACTIVE
    # what the allocator did to serve it: the run of segment entries right before the request
    j = at - 1
    while j >= 0 and r.trace.action[j] in (*_GROW, *_RELEASE):
        j -= 1
    window = slice(j + 1, at)
    act, size = r.trace.action[window], r.trace.size[window]
    mapped = int(size[np.isin(act, _GROW)].sum())
    unmapped = int(size[np.isin(act, _RELEASE)].sum())
    r_oom_count = len(r.timeline.ooms)
    if served:
        how = []
        if unmapped:
            how.append(f"{format_bytes(unmapped)} of free pages unmapped")
        if mapped:
            how.append(f"{format_bytes(mapped)} mapped where it is needed")
        r_caption = (
            f"With {settings}, the same {req} request is served at event {at:,}"
            + (f" ({', '.join(how)})" if how else "")
            + f"; OOMs {len(o.timeline.ooms)} -> {r_oom_count}"
        )
    else:
        r_caption = f"With {settings}, the same {req} request still fails at event {at:,}"
    r_facts: Facts = {
        "request_event": at,
        "request_bytes": int(r.trace.size[at]),
        "served": int(served),
        "ooms": r_oom_count,
        "original_ooms": len(o.timeline.ooms),
        "mapped_bytes": mapped,
        "unmapped_bytes": unmapped,
        "peak_reserved_bytes": r.timeline.series.peak("reserved"),
        "original_peak_reserved_bytes": o.timeline.series.peak("reserved"),
    }
    r_marks = (TimelineMark(at, at, f"{req} served" if served else f"OOM: {req} requested"),)
    r_focus = _focus(
        r, at, r_state, r_mask, demo=plan.demo, title=plan.titles[1], caption=r_caption, facts=r_facts, marks=r_marks
    )
    return o_focus, r_focus


# -- dispatch -------------------------------------------------------------------------------------------------

_SINGLE = {
    "fragmented_oom": _fragmented_oom,
    "cache_reuse": _cache_reuse,
    "split_blocks_oom": _split_blocks_oom,
    "empty_cache_live_tensor": _empty_cache,
    "reserved_vs_allocated": _reserved_vs_allocated,
}


def focus_for(demo: str, snapshot: Snapshot, timeline: DeviceTimeline | None = None) -> DemoFocus:
    """The focus of a one-snapshot demo on `snapshot` (its default device, or `timeline`'s); for a what-if, the
    recorded run's."""
    plan = plan_for(demo)
    if plan.kind == "whatif":  # the recorded side, which needs no replay (see whatif_foci for both)
        return _recorded_oom(_data(snapshot, timeline), plan)
    maker = _SINGLE.get(demo)
    if maker is None:
        raise DemoError(f"{demo} is a {plan.kind} demo: use foci_for with all its snapshots")
    return maker(_data(snapshot, timeline), demo, plan.titles[0])


def foci_for(
    demo: str, snapshots: Sequence[Snapshot], timelines: Sequence[DeviceTimeline | None] | None = None
) -> tuple[DemoFocus, ...]:
    """One focus per view of the demo: `snapshots` in the order of the plan's examples; for a what-if, the
    recorded snapshot and then the replayed one (see run_whatif)."""
    plan = plan_for(demo)
    if plan.kind == "lab":
        raise DemoError(f"{demo} is shown by the checkpointing lab, not on a snapshot")
    expected = 2 if plan.kind in ("pair", "whatif") else 1
    if len(snapshots) != expected:
        raise DemoError(f"{demo} needs {expected} snapshot(s), got {len(snapshots)}")
    tls = list(timelines) if timelines is not None else [None] * expected
    if plan.kind == "pair":
        return kv_cache_foci(snapshots[0], snapshots[1], tls)
    if plan.kind == "whatif":
        return whatif_foci(snapshots[0], snapshots[1], plan, tls[1], tls[0])
    return (focus_for(demo, snapshots[0], tls[0]),)
