"""Why memory ran out (or what holds the peak) at one moment of a device's trace, in plain sentences.

The moment is the device's first OOM, else the peak of allocated memory on its trace, else the final state of a file
without a trace (or any event asked for). Its figures are those of `report --at` for that event (the same code
computes them); the breakdown by site and category is breakdown.py's. Remedies are replayed elsewhere
(core/allocator/remedies.py, a layer above): this module only turns their results into sentences.

The rule for "would it have fitted" (PyTorch's malloc, c10/cuda/CUDACachingAllocator.cpp): a request, rounded by
`round_size`, is served by a free block of its pool (small or large) and stream at least as large (the block is
split), else by a new segment of `allocation_size(request)` bytes when the device has that much free. Before an OOM
the allocator has already released every cached segment without a live block, so the state after the OOM event
holds only holes pinned by live blocks, and the trace's `device_free` is what cudaMalloc could still get. Under
expandable segments there is no cudaMalloc: a request grows a segment by pages mapped onto its free tail
(expandable_room.py has that rule).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from gpumem_gui.core.analysis.breakdown import Breakdown, breakdown_at, nameless_reasons
from gpumem_gui.core.analysis.categories import CATEGORY_LABELS
from gpumem_gui.core.analysis.expandable_room import ExpandableRoom, expandable_room
from gpumem_gui.core.analysis.growth import find_growth, growth_sentences
from gpumem_gui.core.analysis.metrics import metrics_by_group, segment_free
from gpumem_gui.core.analysis.report import DeviceReport
from gpumem_gui.core.analysis.timetravel import DeviceTimeline, OomEvent, build_timeline
from gpumem_gui.core.rules.allocator_constants import MIN_BLOCK_SIZE, MIN_LARGE_ALLOC, ROUND_LARGE, SMALL_SIZE
from gpumem_gui.core.rules.allocator_rules import (
    AllocatorConfig,
    allocation_size,
    is_small_request,
    largest_request_served_by,
    round_size,
)
from gpumem_gui.core.snapshot.frame_kinds import FrameKind, frame_kind
from gpumem_gui.core.snapshot.model import Action, AllocatorState, BlockState, Snapshot, TraceTable
from gpumem_gui.core.snapshot.origin import PROFILER_FORM, SYNTHETIC_SPACE, profiler_made
from gpumem_gui.core.snapshot.stacks import block_sites, format_frame, stack_site_label
from gpumem_gui.core.snapshot.units import format_bytes, format_bytes_exact, format_percent

MAX_SPLITTERS = 12  # live blocks named as splitting the holes (the count says how many there were)
TOP_SITES = 3
MAX_USER_FRAMES = 6  # frames of the failing request's stack named in the user's code


@dataclass(frozen=True)
class Moment:
    kind: str  # "oom" | "peak" | "snapshot" | "event"
    event: int | None  # the trace event (None: the final state of a file without a trace)


@dataclass(frozen=True)
class Splitter:
    """A live block that splits or pins the cached holes an OOM's request could not use."""

    address: int
    size: int
    segment: int  # the address of its segment
    site: str


@dataclass(frozen=True)
class OomAnalysis:
    event: int
    stream: int
    small_pool: bool
    request_bytes: int  # rounded as the allocator rounds it
    segment_bytes: int  # what cudaMalloc was asked for a new segment
    device_free_bytes: int  # cudaMemGetInfo at the OOM (the trace entry's device_free)
    cache_free_bytes: int  # free in the cache, every pool and stream
    pool_free_bytes: int  # free in the cache, in the request's pool and stream
    largest_hole_bytes: int  # the largest free block of that pool and stream
    new_segment_fits_bytes: int  # the largest request a new segment in device_free (or pages mapped) could serve
    fits_up_to_bytes: int  # the largest request that would have been served (by a hole or a new segment)
    live_excess_bytes: int  # how much more device memory a new segment (or the pages to map) needed
    splitter_rule: str  # "split": segments whose holes together fit; "pin": segments to release; "": none
    splitter_segments: int
    splitter_segment_bytes: int  # the size of those segments
    splitter_free_bytes: int  # the free bytes in them
    splitter_count: int
    splitters: tuple[Splitter, ...]  # at most MAX_SPLITTERS of them
    # under expandable segments: where the request would have grown by mapping pages, and how far it could have
    # (segment_bytes and new_segment_fits_bytes are then pages to map, not a cudaMalloc)
    expandable: ExpandableRoom | None = None
    site: str = ""  # the failing request's site (stacks.stack_site_label); "" for a request recorded without one
    user_frames: tuple[str, ...] = ()  # its stack's frames in the user's own code, innermost first
    private_pool: tuple[int, int] | None = None  # the private pool the request went to (None: the default pools)


@dataclass(frozen=True)
class GapAnalysis:
    """Reserved but not allocated at the moment, and why."""

    gap_bytes: int
    pending_bytes: int  # freed, waiting for other streams
    split_bytes: int  # free inside segments that also hold live blocks: cannot be given back
    whole_bytes: int  # free segments the cache keeps for later requests
    whole_segments: int
    expandable_bytes: int  # free pages of expandable segments
    later_requests: int  # allocations after the moment
    later_larger: int  # of those, larger than the largest hole at the moment
    largest_hole_bytes: int
    # free segments of private pools (CUDA graphs, MemPool): the pool's own until the program releases it
    pool_bytes: int = 0
    pool_segments: int = 0


@dataclass(frozen=True)
class Remedy:
    """One candidate replayed: the settings (or change) tried, and what the replay gave."""

    settings: str  # the allocator settings replayed ("" for a program change alone)
    fits: bool  # no OOM in the replay (for a program change: up to and with the request explained)
    oom_events: int
    peak_reserved_bytes: int
    unjudged: str = ""  # why the trace cannot judge the settings (the replay's verdict then says nothing); "": it can
    kind: str = "setting"  # "setting": allocator settings; "program": a change of the program, replayed as a
    # changed trace (core/allocator/program_remedies.py)
    change: str = ""  # the change in words (the settings, for a setting)
    frees_bytes: int | None = None  # what the change frees at the moment explained (None: settings free nothing)
    assumes: str = ""  # what the changed trace assumes of the program change
    headroom_bytes: int | None = None  # the recorded settings' replayed peak reserved minus this one's

    @property
    def what(self) -> str:
        """The change as a sentence names it."""
        return self.change or self.settings

    @property
    def judged(self) -> bool:
        return not self.unjudged


@dataclass(frozen=True)
class Diagnosis:
    file: str
    device: int
    moment: Moment
    report: DeviceReport  # the figures of the state at the moment (those of `report --at`)
    breakdown: Breakdown
    oom: OomAnalysis | None
    gap: GapAnalysis
    findings: list[str]  # sentences about the moment; remedy_findings() adds those about the remedies
    timeline: DeviceTimeline


def pick_moment(timeline: DeviceTimeline, at: int | None = None) -> Moment:
    """The moment to explain: `at`, else the first OOM, else the peak of allocated memory, else the final state."""
    if at is not None:
        timeline.state_at(at)  # IndexError outside the trace, with its message
        return Moment("event", at)
    if timeline.ooms:
        return Moment("oom", timeline.ooms[0].index)
    if timeline.n_events:
        # the first event at the peak (found once; the loading worker finds it for the window)
        return Moment("peak", timeline.series.peak_event("allocated"))
    return Moment("snapshot", None)


def diagnose(
    snapshot: Snapshot, device: int | None = None, at: int | None = None, *, timeline: DeviceTimeline | None = None
) -> Diagnosis:
    """The moment of `device` (default: Snapshot.default_device) analysed; IndexError for an `at` outside the trace.

    `timeline`: the device's timeline when the caller has it already (the window's document), so it is not rebuilt."""
    device = (timeline.device if timeline is not None else snapshot.default_device()) if device is None else device
    config = AllocatorConfig.from_snapshot_settings(snapshot.allocator_settings)
    if timeline is None or timeline.device != device:
        timeline = build_timeline(snapshot, device, config)
    moment = pick_moment(timeline, at)
    # the figures as report.build_report makes them, so they are those of `report --at` for the same event
    state = timeline.state_at(moment.event) if moment.event is not None else timeline.final
    report = DeviceReport(device, metrics_by_group(state, config), state, timeline.figures(), moment.event)
    event = timeline.n_events - 1 if moment.event is None else moment.event
    breakdown = breakdown_at(snapshot, timeline, event)
    reasons = nameless_reasons(snapshot, timeline, report.state, event)
    site_code, site_names = block_sites(snapshot.stacks, report.state.blocks.stack, reasons)

    def site_of(row: int) -> str:
        return site_names[int(site_code[row])]

    oom = None
    actions = snapshot.trace(device).action
    if moment.event is not None and moment.event >= 0 and actions[moment.event] == Action.OOM:
        entry = next(o for o in timeline.ooms if o.index == moment.event)
        pool = request_pool(snapshot.trace(device), report.state, moment.event)
        oom = analyze_oom(report.state, entry, config, site_of, pool=pool)
        oom = replace(oom, **_request_site(snapshot, int(snapshot.trace(device).stack[moment.event])))
    gap = analyze_gap(report, timeline, actions, moment)
    findings = _moment_sentences(snapshot, device, moment, report, oom)
    # the failing line and its stack first, then who holds the memory, then why no free memory served it
    lead = 2 if oom else 1
    findings[lead:lead] = _stack_sentences(oom) + _breakdown_sentences(breakdown)
    if profiler_made(snapshot):  # its gaps are between the tensors the profiler saw, not a cache the allocator keeps
        findings.append(f"This is a {PROFILER_FORM}: {SYNTHETIC_SPACE}.")
    else:
        findings += _gap_sentences(gap)
    growth = find_growth(snapshot, timeline)  # memory kept step after step: a leak, whatever the moment
    if growth.sites:
        findings += growth_sentences(growth)
    return Diagnosis(str(snapshot.source), device, moment, report, breakdown, oom, gap, findings, timeline)


def _request_site(snapshot: Snapshot, stack: int) -> dict[str, Any]:
    """The site of a request's stack and its frames in the user's own code (OomAnalysis.site, user_frames)."""
    frames = snapshot.stacks.stack(stack)
    user = tuple(format_frame(f) for f in frames if frame_kind(f) == FrameKind.USER)
    return {"site": stack_site_label(frames) or "", "user_frames": user}


def new_segment_fits(device_free: int, small_pool: bool, config: AllocatorConfig) -> int:
    """The largest request of the pool that a new segment of at most `device_free` bytes could have served."""
    if small_pool:
        return SMALL_SIZE if device_free >= allocation_size(SMALL_SIZE, config) else 0
    whole = device_free // ROUND_LARGE * ROUND_LARGE  # large segments of MIN_LARGE_ALLOC and up: 2 MiB multiples
    if whole >= MIN_LARGE_ALLOC:
        return largest_request_served_by(whole, small_pool=False, config=config)
    if device_free >= allocation_size(SMALL_SIZE + MIN_BLOCK_SIZE, config):  # a whole large_segment_size segment
        return MIN_LARGE_ALLOC - MIN_BLOCK_SIZE
    return 0


def request_pool(trace: TraceTable, state: AllocatorState, event: int) -> int:
    """The pool (an index into state.pool_ids) a failed request went to, -1 when unknown: the oom entry's pool_id
    (torch 2.13), else the pool of the segment holding the last allocation before it, still live in `state` (a
    capture sends every request of its stream to its pool)."""
    if trace.pool[event] >= 0:
        return int(trace.pool[event])
    before = np.flatnonzero(trace.action[:event] == Action.ALLOC)
    if not len(before):
        return -1
    addr = int(trace.addr[before[-1]])
    seg = state.segments
    inside = np.flatnonzero((seg.address <= addr) & (addr < seg.address + seg.total_size))
    return int(seg.pool[inside[0]]) if len(inside) else -1


def analyze_oom(
    state: AllocatorState,
    oom: OomEvent,
    config: AllocatorConfig,
    site_of: Callable[[int], str],
    *,
    pool: int = -1,
) -> OomAnalysis:
    """The request, the device's and the cache's free memory, the largest hole, and the live blocks in the way
    (`site_of`: the site of a block of `state`, by its row), in the request's pool when `pool` (an index into
    state.pool_ids) says which: a private pool's blocks serve only its requests."""
    request = round_size(oom.requested_bytes, config)  # the trace holds it rounded already: this changes nothing
    small = is_small_request(request)
    seg, blk = state.segments, state.blocks
    n = len(seg)
    mine = (seg.stream == oom.stream) & (seg.is_small == small)
    if pool >= 0:
        mine &= seg.pool == pool
    free = blk.state == BlockState.INACTIVE
    live = ~free
    seg_free, seg_largest = segment_free(state)
    seg_live = np.bincount(blk.segment, weights=live, minlength=n).astype(np.int64)
    largest = int(seg_largest[mine].max(initial=0))
    segment_bytes = allocation_size(request, config)
    by_hole = largest_request_served_by(largest, small_pool=small, config=config) if largest else 0
    by_new = new_segment_fits(oom.device_free_bytes, small, config)
    room = None
    if config.expandable_segments:  # no cudaMalloc: pages mapped onto a segment's free tail
        room = expandable_room(state, oom.stream, small, request, device_free=oom.device_free_bytes, above=by_hole)
        segment_bytes = room.request.map_bytes
        grown = room.limit.bytes  # 0 when growing serves nothing the largest hole does not
        by_new = largest_request_served_by(grown, small_pool=small, config=config) if grown else 0

    fixed = mine & ~seg.is_expandable & (seg_live > 0) & (seg_free > 0)
    # "split": a segment whose holes together would serve the request, but no one of them does
    split = np.flatnonzero(fixed & (seg_free >= request) & (seg_largest < request))
    rule, chosen = ("split", split) if len(split) else ("", split)
    if not len(split):
        # "pin": segments, most free first, whose release would have let cudaMalloc get the new segment
        candidates = np.flatnonzero(fixed)
        candidates = candidates[np.lexsort((seg.address[candidates], -seg_free[candidates]))]
        total = np.cumsum(seg.total_size[candidates])
        enough = np.flatnonzero(oom.device_free_bytes + total >= segment_bytes)
        if len(enough):
            rule, chosen = "pin", candidates[: int(enough[0]) + 1]
    splitters: list[Splitter] = []
    count = 0
    for s in chosen.tolist():
        rows = np.arange(int(seg.block_start[s]), int(seg.block_start[s] + seg.block_count[s]))
        holes = rows[free[rows]]
        if rule == "split":  # the live blocks between the first and the last hole
            rows = rows[(rows > holes[0]) & (rows < holes[-1])]
        rows = rows[live[rows]]
        count += len(rows)
        for r in rows[: MAX_SPLITTERS - len(splitters)].tolist():
            splitters.append(Splitter(int(blk.address[r]), int(blk.size[r]), int(seg.address[s]), site_of(r)))
    private = state.pool_ids[pool] if pool > 0 else None
    return OomAnalysis(
        private_pool=private,
        event=oom.index,
        stream=oom.stream,
        small_pool=small,
        request_bytes=request,
        segment_bytes=segment_bytes,
        device_free_bytes=oom.device_free_bytes,
        cache_free_bytes=int(seg_free.sum()),
        pool_free_bytes=int(seg_free[mine].sum()),
        largest_hole_bytes=largest,
        new_segment_fits_bytes=by_new,
        fits_up_to_bytes=max(by_hole, by_new),
        live_excess_bytes=max(segment_bytes - oom.device_free_bytes, 0),
        splitter_rule=rule,
        splitter_segments=len(chosen),
        splitter_segment_bytes=int(seg.total_size[chosen].sum()),
        splitter_free_bytes=int(seg_free[chosen].sum()),
        splitter_count=count,
        splitters=tuple(splitters),
        expandable=room,
    )


def analyze_gap(report: DeviceReport, timeline: DeviceTimeline, actions: np.ndarray, moment: Moment) -> GapAnalysis:
    """Where the reserved-but-unallocated bytes are, and how many later requests the largest hole was too small for."""
    m = report.metrics
    seg, blk = report.state.segments, report.state.blocks
    n = len(seg)
    live = np.bincount(blk.segment, weights=blk.state != BlockState.INACTIVE, minlength=n) if n else np.zeros(0)
    unused = (live == 0) & ~seg.is_expandable
    whole, pooled = unused & (seg.pool == 0), unused & (seg.pool != 0)
    seg_free, _largest = segment_free(report.state)
    whole_bytes = int(seg_free[whole].sum())
    pool_bytes = int(seg_free[pooled].sum())
    expandable_bytes = int(seg_free[seg.is_expandable].sum())
    later = 0
    larger = 0
    if moment.event is not None:
        after = slice(moment.event + 1, timeline.n_events)
        allocs = actions[after] == Action.ALLOC
        later = int(allocs.sum())
        larger = int((timeline.block_sizes[after][allocs] > m.largest_free_block_bytes).sum())
    return GapAnalysis(
        gap_bytes=m.reserved_bytes - m.allocated_bytes,
        pending_bytes=m.pending_free_bytes,
        split_bytes=m.free_bytes - whole_bytes - pool_bytes - expandable_bytes,
        whole_bytes=whole_bytes,
        whole_segments=int(whole.sum()),
        expandable_bytes=expandable_bytes,
        later_requests=later,
        later_larger=larger,
        largest_hole_bytes=m.largest_free_block_bytes,
        pool_bytes=pool_bytes,
        pool_segments=int(pooled.sum()),
    )


# -- sentences ---------------------------------------------------------------------------------------------------


_ACTION_WORDS: dict[int, str] = {
    Action.ALLOC: "an allocation",
    Action.FREE_REQUESTED: "a free, requested",
    Action.FREE_COMPLETED: "a free, completed",
    Action.SEGMENT_ALLOC: "a cudaMalloc",
    Action.SEGMENT_FREE: "a cudaFree",
    Action.SEGMENT_MAP: "pages mapped",
    Action.SEGMENT_UNMAP: "pages unmapped",
    Action.OOM: "an OOM",
}


def _share(part: int, whole: int) -> str:
    return format_percent(part / whole) if whole else "0%"


def _moment_sentences(
    snapshot: Snapshot, device: int, moment: Moment, report: DeviceReport, oom: OomAnalysis | None
) -> list[str]:
    m = report.metrics
    n = report.trace.n_events
    held = f"{format_bytes(m.allocated_bytes)} allocated in {format_bytes(m.reserved_bytes)} reserved"
    if moment.kind == "oom":
        head = f"Device {device} ran out of memory at event {moment.event} of {n} (its first OOM)."
    elif moment.kind == "peak":
        head = f"Device {device} has no OOM in its trace; this is its peak of allocated memory, at event {moment.event}"
        head += f" of {n}: {held}."
    elif moment.kind == "snapshot":
        head = f"Device {device} has no trace in this file; this is its state when the snapshot was taken: {held}."
    else:
        what = "before the first event" if moment.event == -1 else f"right after event {moment.event} of {n}"
        if moment.event is not None and moment.event >= 0:
            code = int(snapshot.trace(device).action[moment.event])
            what += f" ({_ACTION_WORDS.get(code, 'an event')})"
        head = f"Device {device} {what}: {held}."
    return [head, *(_oom_sentences(oom) if oom else [])]


def _oom_sentences(o: OomAnalysis) -> list[str]:
    pool = ("small" if o.small_pool else "large") + " pool"
    if o.private_pool is not None:
        pool += f" of private pool {o.private_pool}"
    who = o.site or "The program"
    out = [
        f"{who} asked for {format_bytes_exact(o.request_bytes)}, rounded as the allocator rounds it, from the"
        f" {pool} on stream {o.stream}.",
        f"A new segment for it needed {format_bytes(o.segment_bytes)} from cudaMalloc, but the device had only"
        f" {format_bytes_exact(o.device_free_bytes)} free (cudaMemGetInfo at the OOM).",
        f"The cache had {format_bytes(o.pool_free_bytes)} free in that pool, but its largest hole was"
        f" {format_bytes_exact(o.largest_hole_bytes)}: no free block could serve the request.",
        "Before raising the OOM the allocator had already given back every cached segment without a live block (what"
        " empty_cache() does), so an empty_cache() before this request would not have helped.",
    ]
    if o.private_pool is not None:
        out[3] = (
            "Before raising the OOM the allocator had already given back every cached segment without a live block"
            f" (what empty_cache() does), except those of private pools still in use: pool {o.private_pool} keeps"
            " its own until the program releases it (destroys its graphs, deletes its MemPool), so an empty_cache()"
            " before this request would not have helped."
        )
    if o.expandable is not None:
        out[1] = _pages_needed_sentence(o, o.expandable)
        out[3] = (
            "Before raising the OOM the allocator had already unmapped every page of its segments that no live block"
            " touches (what empty_cache() does), so an empty_cache() before this request would not have helped."
        )
    if o.splitters:
        named = "; ".join(f"{format_bytes(s.size)} at {s.address:#x} from {s.site}" for s in o.splitters)
        more = f" (and {o.splitter_count - len(o.splitters)} more)" if o.splitter_count > len(o.splitters) else ""
        segments = (
            f"{o.splitter_segments} segment(s) of {format_bytes(o.splitter_segment_bytes)} with"
            f" {format_bytes(o.splitter_free_bytes)} free"
        )
        if o.splitter_rule == "split":
            out.append(
                f"{o.splitter_count} live block(s) split the holes of {segments}: without them the holes would have"
                f" been one, large enough for the request. They are: {named}{more}."
            )
        else:
            out.append(
                f"{o.splitter_count} live block(s) keep {segments} from being released: without them the allocator"
                f" would have given those segments back and cudaMalloc'ed the request"
                f" ({format_bytes(o.device_free_bytes)} + {format_bytes(o.splitter_segment_bytes)} >="
                f" {format_bytes(o.segment_bytes)}). They are: {named}{more}."
            )
    elif o.cache_free_bytes + o.device_free_bytes < o.request_bytes:
        out.append(
            f"Even all the free memory of the cache and the device together ({format_bytes(o.cache_free_bytes)} +"
            f" {format_bytes(o.device_free_bytes)}) is less than the request: no rearrangement of free memory could"
            " have served it, only a smaller request or a smaller live set."
        )
    if o.fits_up_to_bytes < o.request_bytes:
        how = (
            f"the larger of what the largest hole serves and what a new segment in the device's free memory serves"
            f" ({format_bytes(o.new_segment_fits_bytes)})"
        )
        if o.expandable is not None:
            how = _pages_limit_words(o.expandable, o.new_segment_fits_bytes >= o.fits_up_to_bytes)
        out.append(
            f"The request would have fitted at {format_bytes_exact(o.fits_up_to_bytes)} or less"
            f" ({format_bytes(o.request_bytes - o.fits_up_to_bytes)} smaller): {how}."
        )
    else:
        out.append(
            "By these figures the request should have fitted: another stream's holes, a private pool or memory"
            " freed while the OOM was handled may explain the difference."
        )
    if o.live_excess_bytes and o.expandable is not None:
        out.append(
            f"Or the live set would have to shrink by {format_bytes(o.live_excess_bytes)}, freed as whole"
            f" {page_size_text(o.expandable.page_bytes)} pages (a page goes back to the device only when no live"
            " block lies on it)."
        )
    elif o.live_excess_bytes:
        out.append(
            f"Or the live set would have to shrink by {format_bytes(o.live_excess_bytes)}, freed as whole segments (a"
            " segment goes back to the device only when none of its blocks is live)."
        )
    return out


def _stack_sentences(o: OomAnalysis | None) -> list[str]:
    if o is None or not o.user_frames:
        return []
    shown = o.user_frames[:MAX_USER_FRAMES]
    more = f" (and {len(o.user_frames) - len(shown)} more)" if len(o.user_frames) > len(shown) else ""
    return [f"Its stack in your code, innermost first: {' <- '.join(shown)}{more}."]


def page_size_text(page: int) -> str:
    """A page's size as people name it: "20 MiB" (pages are whole MiB)."""
    return f"{page >> 20} MiB" if page % (1 << 20) == 0 else format_bytes(page)


def _pages(count: int, page: int) -> str:
    return f"{count:,} page{'' if count == 1 else 's'} of {page_size_text(page)}"


def _pages_needed_sentence(o: OomAnalysis, room: ExpandableRoom) -> str:
    """What growing an expandable segment for the request needed, against what the device had."""
    grow = room.request
    where = (
        "a new expandable segment"
        if grow.segment < 0
        else f"the free tail of {format_bytes_exact(grow.tail_bytes)} at the end of the segment at {grow.segment:#x}"
    )
    return (
        f"Expandable segments are on, so the allocator grows a segment by mapping pages rather than by cudaMalloc:"
        f" the request needed {_pages(grow.map_bytes // room.page_bytes, room.page_bytes)}"
        f" ({format_bytes(grow.map_bytes)}) mapped onto {where}, but the device had only"
        f" {format_bytes_exact(o.device_free_bytes)} free (cudaMemGetInfo at the OOM), room for"
        f" {_pages(room.pages_free, room.page_bytes)}."
    )


def _pages_limit_words(room: ExpandableRoom, by_pages: bool) -> str:
    """How the largest request that fits would have been served: the largest hole, or pages mapped."""
    grow = room.limit
    if not by_pages or not grow.bytes:
        return "what the largest hole serves; the device could not map enough pages for more"
    pages = _pages(grow.map_bytes // room.page_bytes, room.page_bytes)
    if grow.segment < 0:
        return f"{pages} the device could still map, in a new expandable segment"
    beyond = grow.bytes - grow.tail_bytes - grow.map_bytes
    more = f", plus {format_bytes_exact(beyond)} free in the segment after them" if beyond else ""
    return (
        f"the free tail of {format_bytes_exact(grow.tail_bytes)} at the end of the segment at {grow.segment:#x},"
        f" plus {pages} the device could still map after it{more}; the allocator grows the first segment, by"
        " address, with room for the request, and maps no page elsewhere when that fails"
    )


def _breakdown_sentences(b: Breakdown) -> list[str]:
    total = b.allocated_bytes
    if not total:
        return ["Nothing is allocated at this moment."]
    sites = sorted(b.by_site, key=lambda s: -s.bytes)[:TOP_SITES]
    named = ", ".join(f"{s.site} {format_bytes(s.bytes)} ({_share(s.bytes, total)})" for s in sites)
    cats = sorted(((v, k) for k, v in b.by_category.items() if v), reverse=True)
    by_cat = ", ".join(f"{CATEGORY_LABELS.get(k, k)} {format_bytes(v)} ({_share(v, total)})" for v, k in cats)
    source = " (the file's own categories, from PyTorch's memory profiler)" if b.category_source == "file" else ""
    return [f"What holds the memory: {named}.", f"By category{source}: {by_cat}."]


def _gap_sentences(g: GapAnalysis) -> list[str]:
    if g.gap_bytes <= 0:
        return ["Every reserved byte is allocated."]
    parts = []
    if g.split_bytes:
        parts.append(
            f"{format_bytes(g.split_bytes)} is free inside segments that also hold live blocks (split blocks: the"
            " allocator cannot give them back)"
        )
    if g.whole_bytes:
        parts.append(
            f"{format_bytes(g.whole_bytes)} is {g.whole_segments} wholly free segment(s) the cache keeps for later"
            " requests (empty_cache() would give them back)"
        )
    if g.pool_bytes:
        parts.append(
            f"{format_bytes(g.pool_bytes)} is {g.pool_segments} wholly free segment(s) of private pools (CUDA graphs,"
            " MemPool), kept for the pools' own requests (empty_cache() gives them back only once the pool is"
            " released)"
        )
    if g.expandable_bytes:
        parts.append(f"{format_bytes(g.expandable_bytes)} is free pages of expandable segments")
    if g.pending_bytes:
        parts.append(f"{format_bytes(g.pending_bytes)} is freed but waits for other streams (pending free)")
    out = [f"Reserved but not allocated: {format_bytes(g.gap_bytes)}. " + "; ".join(parts) + "."]
    if g.later_larger:
        out.append(
            f"{g.later_larger} of the {g.later_requests} requests after this moment were larger than its largest"
            f" cached hole ({format_bytes(g.largest_hole_bytes)}), so no hole cached here could serve them."
        )
    return out
