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
from gpumem_gui.core.analysis.categories import category_label
from gpumem_gui.core.analysis.expandable_room import ExpandableRoom, expandable_room
from gpumem_gui.core.analysis.growth import find_growth, growth_sentences
from gpumem_gui.core.analysis.metrics import metrics_by_group, segment_free
from gpumem_gui.core.analysis.process_limit import ProcessLimit, obtainable, process_limit
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
from gpumem_gui.core.snapshot.origin import PROFILER_SENTENCE, profiler_made
from gpumem_gui.core.snapshot.sentences import QT_TRANSLATE_NOOP, Sentence, joined, say
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
    # the device had room and a limit of the process's own refused the request (see process_limit.py); the
    # figures above that say what could have fitted then count the room under that limit, not the device's
    process_limit: ProcessLimit | None = None


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
    snapshot: Snapshot,
    device: int | None = None,
    at: int | None = None,
    *,
    timeline: DeviceTimeline | None = None,
    capacity: int | None = None,
) -> Diagnosis:
    """The moment of `device` (default: Snapshot.default_device) analysed; IndexError for an `at` outside the trace.

    `timeline`: the device's timeline when the caller has it already (the window's document), so it is not rebuilt.
    `capacity`: what the process could get, as the user knows it: the limit of an OOM the device had room for."""
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
        recorded = snapshot.memory_limit.get(device)
        limit = process_limit(timeline, entry, config, given=capacity, recorded=recorded)
        oom = analyze_oom(report.state, entry, config, site_of, pool=pool, limit=limit)
        oom = replace(oom, **_request_site(snapshot, int(snapshot.trace(device).stack[moment.event])))
    gap = analyze_gap(report, timeline, actions, moment)
    findings = _moment_sentences(snapshot, device, moment, report, oom)
    # the failing line and its stack first, then who holds the memory, then why no free memory served it
    lead = 2 if oom else 1
    findings[lead:lead] = _stack_sentences(oom) + _breakdown_sentences(breakdown)
    if profiler_made(snapshot):  # its gaps are between the tensors the profiler saw, not a cache the allocator keeps
        findings.append(PROFILER_SENTENCE)
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
    limit: ProcessLimit | None = None,
) -> OomAnalysis:
    """The request, the device's and the cache's free memory, the largest hole, and the live blocks in the way
    (`site_of`: the site of a block of `state`, by its row), in the request's pool when `pool` (an index into
    state.pool_ids) says which: a private pool's blocks serve only its requests. `limit`: the process's own limit
    that refused a request the device had room for; new memory is then what is left under it."""
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
    room_left = obtainable(oom.device_free_bytes, limit)
    by_new = new_segment_fits(room_left, small, config)
    room = None
    if config.expandable_segments:  # no cudaMalloc: pages mapped onto a segment's free tail
        room = expandable_room(state, oom.stream, small, request, device_free=room_left, above=by_hole)
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
        enough = np.flatnonzero(room_left + total >= segment_bytes)
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
        live_excess_bytes=max(segment_bytes - room_left, 0),
        splitter_rule=rule,
        splitter_segments=len(chosen),
        splitter_segment_bytes=int(seg.total_size[chosen].sum()),
        splitter_free_bytes=int(seg_free[chosen].sum()),
        splitter_count=count,
        splitters=tuple(splitters),
        expandable=room,
        process_limit=limit,
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
# each marked for the window's translations (views/common/sentences.py says them in its language); the CLI and the
# JSON print them in English as they are


_ACTION_WORDS: dict[int, Sentence] = {
    Action.ALLOC: QT_TRANSLATE_NOOP("Diagnosis", "an allocation"),
    Action.FREE_REQUESTED: QT_TRANSLATE_NOOP("Diagnosis", "a free, requested"),
    Action.FREE_COMPLETED: QT_TRANSLATE_NOOP("Diagnosis", "a free, completed"),
    Action.SEGMENT_ALLOC: QT_TRANSLATE_NOOP("Diagnosis", "a cudaMalloc"),
    Action.SEGMENT_FREE: QT_TRANSLATE_NOOP("Diagnosis", "a cudaFree"),
    Action.SEGMENT_MAP: QT_TRANSLATE_NOOP("Diagnosis", "pages mapped"),
    Action.SEGMENT_UNMAP: QT_TRANSLATE_NOOP("Diagnosis", "pages unmapped"),
    Action.OOM: QT_TRANSLATE_NOOP("Diagnosis", "an OOM"),
}
_AN_EVENT = QT_TRANSLATE_NOOP("Diagnosis", "an event")


def _share(part: int, whole: int) -> str:
    return format_percent(part / whole) if whole else "0%"


def _moment_sentences(
    snapshot: Snapshot, device: int, moment: Moment, report: DeviceReport, oom: OomAnalysis | None
) -> list[str]:
    m = report.metrics
    n = report.trace.n_events
    held = say(
        QT_TRANSLATE_NOOP("Diagnosis", "{allocated} allocated in {reserved} reserved"),
        allocated=format_bytes(m.allocated_bytes),
        reserved=format_bytes(m.reserved_bytes),
    )
    fields = {"device": str(device), "event": str(moment.event), "n": str(n), "held": held}
    if moment.kind == "oom":
        head = QT_TRANSLATE_NOOP(
            "Diagnosis", "Device {device} ran out of memory at event {event} of {n} (its first OOM)."
        )
    elif moment.kind == "peak":
        head = QT_TRANSLATE_NOOP(
            "Diagnosis",
            "Device {device} has no OOM in its trace; this is its peak of allocated memory, at event {event} of {n}:"
            " {held}.",
        )
    elif moment.kind == "snapshot":
        head = QT_TRANSLATE_NOOP(
            "Diagnosis",
            "Device {device} has no trace in this file; this is its state when the snapshot was taken: {held}.",
        )
    elif moment.event == -1:
        head = QT_TRANSLATE_NOOP("Diagnosis", "Device {device} before the first event: {held}.")
    elif moment.event is not None and moment.event >= 0:
        fields["action"] = _ACTION_WORDS.get(int(snapshot.trace(device).action[moment.event]), _AN_EVENT)
        head = QT_TRANSLATE_NOOP("Diagnosis", "Device {device} right after event {event} of {n} ({action}): {held}.")
    else:
        head = QT_TRANSLATE_NOOP("Diagnosis", "Device {device} right after event {event} of {n}: {held}.")
    return [say(head, **fields), *(_oom_sentences(oom) if oom else [])]


def _pool_words(o: OomAnalysis) -> Sentence:
    if o.private_pool is None:
        small = QT_TRANSLATE_NOOP("Diagnosis", "small pool")
        return small if o.small_pool else QT_TRANSLATE_NOOP("Diagnosis", "large pool")
    if o.small_pool:
        return say(QT_TRANSLATE_NOOP("Diagnosis", "small pool of private pool {pool}"), pool=str(o.private_pool))
    return say(QT_TRANSLATE_NOOP("Diagnosis", "large pool of private pool {pool}"), pool=str(o.private_pool))


def _limit_sentence(o: OomAnalysis, limit: ProcessLimit) -> str:
    refused = say(
        QT_TRANSLATE_NOOP(
            "Diagnosis",
            "The request needed {needed} more from the device, which had {device_free} free (cudaMemGetInfo at the"
            " OOM): enough. A memory limit of this process refused it (torch.cuda.set_per_process_memory_fraction,"
            " or per_process_memory_fraction in PYTORCH_CUDA_ALLOC_CONF), unless another process took that memory"
            " meanwhile. The trace does not record the limit: the process held {reserved}, so it was under {under}.",
        ),
        needed=format_bytes(limit.needed_bytes),
        device_free=format_bytes_exact(o.device_free_bytes),
        reserved=format_bytes(limit.reserved_bytes),
        under=format_bytes_exact(limit.under_bytes),
    )
    if limit.recorded and limit.given_bytes is not None:
        then = say(
            QT_TRANSLATE_NOOP(
                "Diagnosis",
                "The probe recorded that limit: {given}, the process's memory fraction of the device; the figures"
                " here take it.",
            ),
            given=format_bytes_exact(limit.given_bytes),
        )
    elif limit.given_bytes is not None:
        then = say(
            QT_TRANSLATE_NOOP("Diagnosis", "The limit given is {given}: the figures and replays here take it."),
            given=format_bytes_exact(limit.given_bytes),
        )
    elif limit.lowered:
        then = say(
            QT_TRANSLATE_NOOP(
                "Diagnosis",
                "Earlier in the recording it held {held}, more than that: the limit was set or lowered since, and the"
                " figures and replays here take it just under {under}.",
            ),
            held=format_bytes(limit.held_bytes),
            under=format_bytes(limit.under_bytes),
        )
    else:
        then = say(
            QT_TRANSLATE_NOOP(
                "Diagnosis",
                "Earlier in the recording it held {held}: if the limit was the same all along, at least that much was"
                " allowed, and the figures and replays here take that lowest limit, so a remedy that fits under it"
                " fits under the real one.",
            ),
            held=format_bytes(limit.held_bytes),
        )
    return say(QT_TRANSLATE_NOOP("Diagnosis", "{refused} {then}"), refused=refused, then=then)


def _oom_sentences(o: OomAnalysis) -> list[str]:
    who = o.site or QT_TRANSLATE_NOOP("Diagnosis", "The program")
    left = obtainable(o.device_free_bytes, o.process_limit)  # what the device, or the process's limit, still gave
    out: list[str] = [
        say(
            QT_TRANSLATE_NOOP(
                "Diagnosis",
                "{who} asked for {request}, rounded as the allocator rounds it, from the {pool} on stream {stream}.",
            ),
            who=who,
            request=format_bytes_exact(o.request_bytes),
            pool=_pool_words(o),
            stream=o.stream,
        ),
        say(
            QT_TRANSLATE_NOOP(
                "Diagnosis",
                "A new segment for it needed {segment} from cudaMalloc, but the device had only {device_free} free"
                " (cudaMemGetInfo at the OOM).",
            ),
            segment=format_bytes(o.segment_bytes),
            device_free=format_bytes_exact(o.device_free_bytes),
        ),
        say(
            QT_TRANSLATE_NOOP(
                "Diagnosis",
                "The cache had {pool_free} free in that pool, but its largest hole was {hole}: no free block could"
                " serve the request.",
            ),
            pool_free=format_bytes(o.pool_free_bytes),
            hole=format_bytes_exact(o.largest_hole_bytes),
        ),
        QT_TRANSLATE_NOOP(
            "Diagnosis",
            "Before raising the OOM the allocator had already given back every cached segment without a live block"
            " (what empty_cache() does), so an empty_cache() before this request would not have helped.",
        ),
    ]
    if o.private_pool is not None:
        out[3] = say(
            QT_TRANSLATE_NOOP(
                "Diagnosis",
                "Before raising the OOM the allocator had already given back every cached segment without a live"
                " block (what empty_cache() does), except those of private pools still in use: pool {pool} keeps its"
                " own until the program releases it (destroys its graphs, deletes its MemPool), so an empty_cache()"
                " before this request would not have helped.",
            ),
            pool=str(o.private_pool),
        )
    if o.expandable is not None:
        out[1] = _pages_needed_sentence(o, o.expandable)
    if o.process_limit is not None:
        out[1] = _limit_sentence(o, o.process_limit)
    if o.expandable is not None:
        out[3] = QT_TRANSLATE_NOOP(
            "Diagnosis",
            "Before raising the OOM the allocator had already unmapped every page of its segments that no live block"
            " touches (what empty_cache() does), so an empty_cache() before this request would not have helped.",
        )
    if o.splitters:
        named = joined(
            (
                say(
                    QT_TRANSLATE_NOOP("Diagnosis", "{size} at {address} from {site}"),
                    size=format_bytes(s.size),
                    address=f"{s.address:#x}",
                    site=s.site,
                )
                for s in o.splitters
            ),
            "; ",
        )
        more: str = ""
        if o.splitter_count > len(o.splitters):
            more = say(QT_TRANSLATE_NOOP("Diagnosis", " (and {n} more)"), n=o.splitter_count - len(o.splitters))
        segments = say(
            QT_TRANSLATE_NOOP("Diagnosis", "{n} segment(s) of {size} with {free} free"),
            n=o.splitter_segments,
            size=format_bytes(o.splitter_segment_bytes),
            free=format_bytes(o.splitter_free_bytes),
        )
        if o.splitter_rule == "split":
            out.append(
                say(
                    QT_TRANSLATE_NOOP(
                        "Diagnosis",
                        "{count} live block(s) split the holes of {segments}: without them the holes would have been"
                        " one, large enough for the request. They are: {named}{more}.",
                    ),
                    count=o.splitter_count,
                    segments=segments,
                    named=named,
                    more=more,
                )
            )
        else:
            out.append(
                say(
                    QT_TRANSLATE_NOOP(
                        "Diagnosis",
                        "{count} live block(s) keep {segments} from being released: without them the allocator would"
                        " have given those segments back and cudaMalloc'ed the request ({device_free} + {released} >="
                        " {needed}). They are: {named}{more}.",
                    ),
                    count=o.splitter_count,
                    segments=segments,
                    device_free=format_bytes(left),
                    released=format_bytes(o.splitter_segment_bytes),
                    needed=format_bytes(o.segment_bytes),
                    named=named,
                    more=more,
                )
            )
    elif o.process_limit is not None and o.cache_free_bytes + left < o.request_bytes:
        out.append(
            say(
                QT_TRANSLATE_NOOP(
                    "Diagnosis",
                    "Even all the free memory of the cache and what was left under the limit together ({cache_free} +"
                    " {left}) is less than the request: no rearrangement of free memory could have served it, only a"
                    " smaller request, a smaller live set or a higher limit.",
                ),
                cache_free=format_bytes(o.cache_free_bytes),
                left=format_bytes(left),
            )
        )
    elif o.process_limit is None and o.cache_free_bytes + o.device_free_bytes < o.request_bytes:
        out.append(
            say(
                QT_TRANSLATE_NOOP(
                    "Diagnosis",
                    "Even all the free memory of the cache and the device together ({cache_free} + {device_free}) is"
                    " less than the request: no rearrangement of free memory could have served it, only a smaller"
                    " request or a smaller live set.",
                ),
                cache_free=format_bytes(o.cache_free_bytes),
                device_free=format_bytes(o.device_free_bytes),
            )
        )
    if o.fits_up_to_bytes < o.request_bytes:
        how = say(
            QT_TRANSLATE_NOOP(
                "Diagnosis",
                "the larger of what the largest hole serves and what a new segment in the device's free memory serves"
                " ({new})",
            ),
            new=format_bytes(o.new_segment_fits_bytes),
        )
        if o.process_limit is not None:
            how = say(
                QT_TRANSLATE_NOOP(
                    "Diagnosis",
                    "the larger of what the largest hole serves and what new memory under the limit serves ({new})",
                ),
                new=format_bytes(o.new_segment_fits_bytes),
            )
        elif o.expandable is not None:
            how = _pages_limit_words(o.expandable, o.new_segment_fits_bytes >= o.fits_up_to_bytes)
        out.append(
            say(
                QT_TRANSLATE_NOOP(
                    "Diagnosis", "The request would have fitted at {fits} or less ({smaller} smaller): {how}."
                ),
                fits=format_bytes_exact(o.fits_up_to_bytes),
                smaller=format_bytes(o.request_bytes - o.fits_up_to_bytes),
                how=how,
            )
        )
    else:
        out.append(
            QT_TRANSLATE_NOOP(
                "Diagnosis",
                "By these figures the request should have fitted: another stream's holes, a private pool or memory"
                " freed while the OOM was handled may explain the difference.",
            )
        )
    if o.live_excess_bytes and o.expandable is not None:
        out.append(
            say(
                QT_TRANSLATE_NOOP(
                    "Diagnosis",
                    "Or the live set would have to shrink by {excess}, freed as whole {page} pages (a page goes back"
                    " to the device only when no live block lies on it).",
                ),
                excess=format_bytes(o.live_excess_bytes),
                page=page_size_text(o.expandable.page_bytes),
            )
        )
    elif o.live_excess_bytes:
        out.append(
            say(
                QT_TRANSLATE_NOOP(
                    "Diagnosis",
                    "Or the live set would have to shrink by {excess}, freed as whole segments (a segment goes back to"
                    " the device only when none of its blocks is live).",
                ),
                excess=format_bytes(o.live_excess_bytes),
            )
        )
    return out


def _stack_sentences(o: OomAnalysis | None) -> list[str]:
    if o is None or not o.user_frames:
        return []
    shown = o.user_frames[:MAX_USER_FRAMES]
    more: str = ""
    if len(o.user_frames) > len(shown):
        more = say(QT_TRANSLATE_NOOP("Diagnosis", " (and {n} more)"), n=len(o.user_frames) - len(shown))
    return [
        say(
            QT_TRANSLATE_NOOP("Diagnosis", "Its stack in your code, innermost first: {frames}{more}."),
            frames=" <- ".join(shown),
            more=more,
        )
    ]


def page_size_text(page: int) -> str:
    """A page's size as people name it: "20 MiB" (pages are whole MiB)."""
    return f"{page >> 20} MiB" if page % (1 << 20) == 0 else format_bytes(page)


def _pages(count: int, page: int) -> Sentence:
    return say(
        QT_TRANSLATE_NOOP("Diagnosis", "{n} {n:page|pages} of {size}"), n=f"{count:,}", size=page_size_text(page)
    )


def _pages_needed_sentence(o: OomAnalysis, room: ExpandableRoom) -> Sentence:
    """What growing an expandable segment for the request needed, against what the device had."""
    grow = room.request
    where = (
        QT_TRANSLATE_NOOP("Diagnosis", "a new expandable segment")
        if grow.segment < 0
        else say(
            QT_TRANSLATE_NOOP("Diagnosis", "the free tail of {tail} at the end of the segment at {segment}"),
            tail=format_bytes_exact(grow.tail_bytes),
            segment=f"{grow.segment:#x}",
        )
    )
    return say(
        QT_TRANSLATE_NOOP(
            "Diagnosis",
            "Expandable segments are on, so the allocator grows a segment by mapping pages rather than by cudaMalloc:"
            " the request needed {pages} ({bytes}) mapped onto {where}, but the device had only {device_free} free"
            " (cudaMemGetInfo at the OOM), room for {room}.",
        ),
        pages=_pages(grow.map_bytes // room.page_bytes, room.page_bytes),
        bytes=format_bytes(grow.map_bytes),
        where=where,
        device_free=format_bytes_exact(o.device_free_bytes),
        room=_pages(room.pages_free, room.page_bytes),
    )


def _pages_limit_words(room: ExpandableRoom, by_pages: bool) -> Sentence:
    """How the largest request that fits would have been served: the largest hole, or pages mapped."""
    grow = room.limit
    if not by_pages or not grow.bytes:
        return QT_TRANSLATE_NOOP(
            "Diagnosis", "what the largest hole serves; the device could not map enough pages for more"
        )
    pages = _pages(grow.map_bytes // room.page_bytes, room.page_bytes)
    if grow.segment < 0:
        return say(
            QT_TRANSLATE_NOOP("Diagnosis", "{pages} the device could still map, in a new expandable segment"),
            pages=pages,
        )
    beyond = grow.bytes - grow.tail_bytes - grow.map_bytes
    more: str = ""
    if beyond:
        more = say(
            QT_TRANSLATE_NOOP("Diagnosis", ", plus {beyond} free in the segment after them"),
            beyond=format_bytes_exact(beyond),
        )
    return say(
        QT_TRANSLATE_NOOP(
            "Diagnosis",
            "the free tail of {tail} at the end of the segment at {segment}, plus {pages} the device could still map"
            " after it{more}; the allocator grows the first segment, by address, with room for the request, and maps"
            " no page elsewhere when that fails",
        ),
        tail=format_bytes_exact(grow.tail_bytes),
        segment=f"{grow.segment:#x}",
        pages=pages,
        more=more,
    )


def _breakdown_sentences(b: Breakdown) -> list[str]:
    total = b.allocated_bytes
    if not total:
        return [QT_TRANSLATE_NOOP("Diagnosis", "Nothing is allocated at this moment.")]
    sites = sorted(b.by_site, key=lambda s: -s.bytes)[:TOP_SITES]
    named = joined(
        (
            Sentence(
                "",
                "{site} {bytes} ({share})",
                {"site": s.site, "bytes": format_bytes(s.bytes), "share": _share(s.bytes, total)},
            )
            for s in sites
        ),
        ", ",
    )
    cats = sorted(((v, k) for k, v in b.by_category.items() if v), reverse=True)
    by_cat = joined(
        (
            Sentence(
                "",
                "{category} {bytes} ({share})",
                {"category": category_label(k), "bytes": format_bytes(v), "share": _share(v, total)},
            )
            for v, k in cats
        ),
        ", ",
    )
    if b.category_source == "file":
        by = QT_TRANSLATE_NOOP(
            "Diagnosis", "By category (the file's own categories, from PyTorch's memory profiler): {categories}."
        )
    else:
        by = QT_TRANSLATE_NOOP("Diagnosis", "By category: {categories}.")
    return [
        say(QT_TRANSLATE_NOOP("Diagnosis", "What holds the memory: {sites}."), sites=named),
        say(by, categories=by_cat),
    ]


def _gap_sentences(g: GapAnalysis) -> list[str]:
    if g.gap_bytes <= 0:
        return [QT_TRANSLATE_NOOP("Diagnosis", "Every reserved byte is allocated.")]
    parts: list[Sentence] = []
    if g.split_bytes:
        parts.append(
            say(
                QT_TRANSLATE_NOOP(
                    "Diagnosis",
                    "{bytes} is free inside segments that also hold live blocks (split blocks: the allocator cannot"
                    " give them back)",
                ),
                bytes=format_bytes(g.split_bytes),
            )
        )
    if g.whole_bytes:
        parts.append(
            say(
                QT_TRANSLATE_NOOP(
                    "Diagnosis",
                    "{bytes} is {n} wholly free segment(s) the cache keeps for later requests (empty_cache() would"
                    " give them back)",
                ),
                bytes=format_bytes(g.whole_bytes),
                n=g.whole_segments,
            )
        )
    if g.pool_bytes:
        parts.append(
            say(
                QT_TRANSLATE_NOOP(
                    "Diagnosis",
                    "{bytes} is {n} wholly free segment(s) of private pools (CUDA graphs, MemPool), kept for the"
                    " pools' own requests (empty_cache() gives them back only once the pool is released)",
                ),
                bytes=format_bytes(g.pool_bytes),
                n=g.pool_segments,
            )
        )
    if g.expandable_bytes:
        parts.append(
            say(
                QT_TRANSLATE_NOOP("Diagnosis", "{bytes} is free pages of expandable segments"),
                bytes=format_bytes(g.expandable_bytes),
            )
        )
    if g.pending_bytes:
        parts.append(
            say(
                QT_TRANSLATE_NOOP("Diagnosis", "{bytes} is freed but waits for other streams (pending free)"),
                bytes=format_bytes(g.pending_bytes),
            )
        )
    out: list[str] = [
        say(
            QT_TRANSLATE_NOOP("Diagnosis", "Reserved but not allocated: {gap}. {parts}."),
            gap=format_bytes(g.gap_bytes),
            parts=joined(parts, "; "),
        )
    ]
    if g.later_larger:
        out.append(
            say(
                QT_TRANSLATE_NOOP(
                    "Diagnosis",
                    "{n} of the {total} requests after this moment were larger than its largest cached hole ({hole}),"
                    " so no hole cached here could serve them.",
                ),
                n=g.later_larger,
                total=g.later_requests,
                hole=format_bytes(g.largest_hole_bytes),
            )
        )
    return out
