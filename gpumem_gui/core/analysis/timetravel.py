"""Time travel through a device's trace: the allocator state right after any event, and series over the trace.

One backward pass (backward_pass.py) undoes the trace from the final `segments` to find the state before the first
event (as PyTorch's viewer does on every click); one forward pass (forward_replay.py, or its compiled twin
_replay.pyx) then replays it, deciding each block's real size with the allocator's split rule and recording every
block's and segment's lifetime as event indices. A jump to event i is then a stabbing query over lifetimes, started
from the nearest keyframe (the live blocks every K events), so it costs O(live + K) numpy work, never a replay.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from gpumem_gui.core.analysis.backward_pass import (
    BlockHistory,
    backward_segments,
    block_history,
)
from gpumem_gui.core.analysis.forward_replay import NEVER, ForwardReplay, ReplayResult
from gpumem_gui.core.analysis.replay_warnings import MAX_WARNINGS, warning_text
from gpumem_gui.core.rules.allocator_rules import AllocatorConfig
from gpumem_gui.core.snapshot.model import (
    I64,
    NO_STACK,
    Action,
    AllocatorState,
    BlockState,
    BlockTable,
    SegmentTable,
    Snapshot,
    TraceTable,
)
from gpumem_gui.core.snapshot.safe_unpickle import gc_paused
from gpumem_gui.core.snapshot.sentences import QT_TRANSLATE_NOOP, say

try:  # the compiled twin of forward_replay.ForwardReplay; absent where no C++ compiler built it
    from gpumem_gui.core.analysis import _replay  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - depends on the install
    _replay = None

__all__ = [
    "KEYFRAME_INTERVAL",
    "NEVER",
    "SERIES_NAMES",
    "STORED_SERIES",
    "BlockHistory",
    "DeviceTimeline",
    "Lifetimes",
    "OomEvent",
    "Pieces",
    "Series",
    "TraceFigures",
    "block_history",
    "build_timeline",
    "compiled_replay_available",
    "trace_figures",
]

KEYFRAME_INTERVAL = 4096
# the per-event counters, in the order both replay twins' run() take their output columns
_COUNTERS = ("reserved", "allocated", "requested", "active", "largest_free", "segments")

SERIES_NAMES = (
    "reserved",
    "allocated",
    "requested",
    "active",
    "free",
    "largest_free",
    "external_fragmentation",
    "segments",
)
# the series a timeline keeps; free and external_fragmentation are derived from them when read (Series.part), so the
# loading worker writes and the window maps two columns per event fewer
DERIVED_SERIES = ("free", "external_fragmentation")
STORED_SERIES = tuple(name for name in SERIES_NAMES if name not in DERIVED_SERIES)


@dataclass(frozen=True)
class OomEvent:
    index: int
    requested_bytes: int  # the rounded request (the trace entry's size)
    device_free_bytes: int
    stream: int
    time_us: int | None


@dataclass(frozen=True)
class TraceFigures:
    """What a report says of one device's trace: its length, its OOMs, the peaks of reserved and allocated memory
    (the state before the first event included) and the replay's warnings."""

    n_events: int
    peak_reserved: int
    peak_allocated: int
    ooms: list[OomEvent]
    warnings: list[str]


@dataclass(frozen=True)
class Series:
    """Values right after each event (arrays of length N) and before the first one (`initial`). `free` (reserved
    but not active) and `external_fragmentation` (the share of free memory outside the largest free block, float64
    in [0, 1]) are derived from the others when first read; `part` derives a range of them alone."""

    reserved: I64
    allocated: I64
    requested: I64
    active: I64
    largest_free: I64
    segments: I64
    time_us: I64 | None
    initial: dict[str, float]
    # each curve's peak, found once: at 10M events a pass costs ~10 ms and the window asks on every repaint of a view
    _peaks: dict[str, int] = field(default_factory=dict, init=False, repr=False, compare=False)
    _peak_events: dict[str, int] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __len__(self) -> int:
        return len(self.reserved)

    @cached_property
    def free(self) -> I64:
        return self.part("free", 0, len(self))

    @cached_property
    def external_fragmentation(self) -> np.ndarray:
        return self.part("external_fragmentation", 0, len(self))

    def part(self, name: str, start: int, stop: int) -> np.ndarray:
        """Series `name`'s values after events start .. stop - 1, a derived one made of those events alone (the
        whole of it is never made for a view's range)."""
        if name not in DERIVED_SERIES:
            values: np.ndarray = getattr(self, name)[start:stop]
            return values
        if name in self.__dict__:  # made whole already
            whole: np.ndarray = self.__dict__[name]
            return whole[start:stop]
        free = self.reserved[start:stop] - self.active[start:stop]
        if name == "free":
            return free
        return np.where(free > 0, 1.0 - self.largest_free[start:stop] / np.maximum(free, 1), 0.0)

    def peak(self, name: str) -> int:
        if name not in self._peaks:
            values: np.ndarray = getattr(self, name)
            initial = self.initial[name]
            self._peaks[name] = int(max(initial, values.max())) if len(values) else int(initial)
        return self._peaks[name]

    def peak_event(self, name: str) -> int:
        """The first event at the largest value of series `name` (0 for an empty series)."""
        if name not in self._peak_events:
            values: np.ndarray = getattr(self, name)
            self._peak_events[name] = int(np.argmax(values)) if len(values) else 0
        return self._peak_events[name]

    def seed(self, peaks: dict[str, int], peak_events: dict[str, int]) -> None:
        """Peaks and peak events found where the series were made (the loading worker), so that the window's first
        reads do not pass over millions of events."""
        self._peaks.update(peaks)
        self._peak_events.update(peak_events)


@dataclass
@dataclass(frozen=True)
class Lifetimes:
    """Block lifetimes in event indices, in order of `start` (-1: alive before the first event)."""

    addr: I64
    size: I64
    requested: I64
    stack: np.ndarray
    start: I64
    pend: I64  # first event after which the block is pending free (NEVER if it never is; -1 if from the start)
    end: I64  # the free_completed event (NEVER if alive at the end)


@dataclass(frozen=True)
class Pieces:
    """Lifetimes of segments, or of the mapped ranges of expandable segments (touching ones are joined on read)."""

    addr: I64
    size: I64
    stream: I64
    small: np.ndarray
    pool: np.ndarray
    expandable: np.ndarray
    stack: np.ndarray
    start: I64
    end: I64


@dataclass
class DeviceTimeline:
    """Everything needed to show one device at any point of its trace."""

    device: int
    n_events: int
    final: AllocatorState
    pool_ids: list[tuple[int, int]]
    lifetimes: Lifetimes
    pieces: Pieces
    keyframes: list[np.ndarray]
    keyframe_interval: int
    series: Series
    ooms: list[OomEvent]
    block_sizes: I64  # the block size of each alloc/free event (0 for other events)
    warnings: list[str] = field(default_factory=list)
    rule_mismatches: int = 0  # allocations whose size the split rule got wrong, per the final snapshot
    # what the window reads first (the curves' extremes, the ticks, the streams), made by the loading worker: a
    # timeline_digest.TimelineDigest (that module reads this one)
    digest: Any = field(default=None, repr=False, compare=False)

    def state_at(self, index: int) -> AllocatorState:
        """Segments and blocks right after event `index` (-1: before the first event)."""
        if not -1 <= index < max(self.n_events, 0) and not (index == -1 and self.n_events == 0):
            raise IndexError(f"event {index} is outside the trace (0 to {self.n_events - 1})")
        if index == self.n_events - 1:
            return self.final
        return self.derive_state(index)

    def figures(self) -> TraceFigures:
        s = self.series
        return TraceFigures(self.n_events, s.peak("reserved"), s.peak("allocated"), self.ooms, self.warnings)

    def derive_state(self, index: int) -> AllocatorState:
        """The state after `index` rebuilt from lifetimes (for the last event, equal to the final snapshot)."""
        life = self.lifetimes
        k = (index + 1) // self.keyframe_interval
        first_new = int(np.searchsorted(life.start, k * self.keyframe_interval, "left"))
        last_new = int(np.searchsorted(life.start, index, "right"))
        ids = np.concatenate([self.keyframes[k], np.arange(first_new, last_new, dtype=np.int64)])
        ids = ids[(life.end[ids] > index) & (life.start[ids] <= index)]
        return _assemble_state(self, index, ids)


def _series(values: dict[str, I64], trace: TraceTable, initial: dict[str, float]) -> Series:
    """Series from the per-event counters (reserved, allocated, requested, active, largest_free, segments)."""
    time_us = trace.time_us if trace.has_time else None
    return Series(
        values["reserved"],
        values["allocated"],
        values["requested"],
        values["active"],
        values["largest_free"],
        values["segments"],
        time_us,
        initial,
    )


def _surviving_pools(pieces: list[np.ndarray], final: AllocatorState) -> np.ndarray:
    """The pool of each piece: a segment made during a trace whose entries name no pool_id (older than torch 2.13)
    and still there at its end takes the pool its final snapshot segment names."""
    addr, size, pool, end = pieces[0], pieces[1], np.array(pieces[4]), pieces[8]
    seg = final.segments
    if not len(seg) or not (seg.pool != 0).any():
        return pool
    order = np.argsort(seg.address, kind="stable")
    starts, ends = seg.address[order], (seg.address + seg.total_size)[order]
    for k in np.flatnonzero((end == NEVER) & (pool == 0)).tolist():
        j = int(np.searchsorted(starts, addr[k], "right")) - 1
        if j >= 0 and addr[k] + size[k] <= ends[j]:
            pool[k] = seg.pool[order[j]]
    return pool


def _by_address(keyframes: list[np.ndarray], addr: I64) -> list[np.ndarray]:
    """Keyframes with their lifetimes in address order: a jump then sorts little more than the events since."""
    if not keyframes:
        return [np.zeros(0, np.int64)]
    return [k[np.argsort(addr[k], kind="stable")] for k in keyframes]


def _oom_event(trace: TraceTable, i: int) -> OomEvent:
    time_us = int(trace.time_us[i]) if trace.has_time else None
    return OomEvent(i, int(trace.size[i]), int(trace.device_free[i]), int(trace.stream[i]), time_us)


def compiled_replay_available() -> bool:
    return _replay is not None


def build_timeline(
    snapshot: Snapshot, device: int, config: AllocatorConfig | None = None, *, compiled: bool | None = None
) -> DeviceTimeline:
    """Index `device`'s trace for time travel and compute its series (one backward and one forward pass).

    `compiled` picks the C++ replay kernel (default: whenever it was built) or the pure-Python one; both give the
    same result, which a test checks.
    """
    config, compiled = _choices(snapshot, config, compiled)
    with gc_paused():
        return _TimelineBuilder(snapshot, device, config).build(compiled)


def trace_figures(
    snapshot: Snapshot, device: int, config: AllocatorConfig | None = None, *, compiled: bool | None = None
) -> TraceFigures:
    """The figures of `device`'s trace that a report prints, equal to build_timeline(...).figures(): the compiled
    kernel replays without writing a column per event (no time travel is asked for); the pure twin builds the
    timeline."""
    config, compiled = _choices(snapshot, config, compiled)
    if not compiled:
        return build_timeline(snapshot, device, config, compiled=False).figures()
    with gc_paused():
        return _TimelineBuilder(snapshot, device, config).figures()


def _choices(snapshot: Snapshot, config: AllocatorConfig | None, compiled: bool | None) -> tuple[AllocatorConfig, bool]:
    """The file's allocator settings unless given, and the compiled kernel unless told or unbuilt."""
    if config is None:
        config = AllocatorConfig.from_snapshot_settings(snapshot.allocator_settings)
    if compiled is None:
        compiled = _replay is not None and not os.environ.get("GPUMEM_GUI_PURE_PYTHON")
    return config, compiled


class _TimelineBuilder:
    """The backward pass, then one of the two forward twins, and the timeline made of what they give."""

    def __init__(self, snapshot: Snapshot, device: int, config: AllocatorConfig) -> None:
        self.snapshot = snapshot
        self.device = device
        self.config = config
        self.final = snapshot.state.for_device(device)
        self.trace: TraceTable = snapshot.trace(device)
        self.warnings: list[str] = []

    def build(self, compiled: bool) -> DeviceTimeline:
        n = len(self.trace)
        counters = {name: np.zeros(n, np.int64) for name in _COUNTERS}
        block_sizes = np.zeros(n, np.int64)
        replay = self._replay_compiled if compiled else self._replay_pure
        initial, r = replay(counters, block_sizes)
        for code, event, addr in r["warnings"]:
            self._warn(warning_text(code, event, addr))
        free = initial["reserved"] - initial["active"]
        initial["free"] = free
        initial["external_fragmentation"] = 1.0 - initial["largest_free"] / free if free > 0 else 0.0
        p = r["pieces"]
        timeline = DeviceTimeline(
            device=self.device,
            n_events=n,
            final=self.final,
            pool_ids=self.snapshot.state.pool_ids,
            lifetimes=Lifetimes(*r["life"]),
            pieces=Pieces(p[0], p[1], p[2], p[3] == 1, _surviving_pools(p, self.final), p[5] == 1, p[6], p[7], p[8]),
            keyframes=_by_address(r["keyframes"], r["life"][0]),
            keyframe_interval=KEYFRAME_INTERVAL,
            series=_series(counters, self.trace, initial),
            ooms=[_oom_event(self.trace, int(i)) for i in r["ooms"]],
            block_sizes=block_sizes,
            warnings=self.warnings,
            rule_mismatches=int(r["rule_mismatches"]),
        )
        self._check_final(timeline)
        return timeline

    def _replay_pure(self, counters: dict[str, I64], block_sizes: I64) -> tuple[dict[str, float], ReplayResult]:
        segs, seg_warnings = backward_segments(self.trace, self.final)
        for message in seg_warnings:
            self._warn(message)
        history = block_history(self.trace, self.final)
        replay = ForwardReplay(self.trace, self.config)
        replay.warnings.extend(history.warnings)  # as the compiled kernel: history's codes come first
        initial: dict[str, float] = dict(replay.setup(segs, history))
        replay.run(KEYFRAME_INTERVAL, counters, block_sizes)
        return initial, replay.result()

    def _replay_compiled(self, counters: dict[str, I64], block_sizes: I64) -> tuple[dict[str, float], ReplayResult]:
        assert _replay is not None
        t = self.trace  # the compiled twin of frees_carry_alloc_stacks: one pass, not a sort of every alloc and free
        kernel, initial = self._compiled_kernel(
            keep_free_stack=_replay.frees_carry_alloc_stacks(t.action, t.addr, t.stack)
        )
        kernel.run(KEYFRAME_INTERVAL, *(counters[name] for name in _COUNTERS), block_sizes)
        result: ReplayResult = kernel.result()
        return initial, result

    def _compiled_kernel(self, keep_free_stack: bool) -> tuple[Any, dict[str, float]]:
        """The compiled kernel set up at the state before the first event, and the counters there."""
        assert _replay is not None
        t = self.trace
        segs_map, seg_warnings = backward_segments(t, self.final)
        for message in seg_warnings:
            self._warn(message)
        segs = list(segs_map)
        cfg = self.config
        kernel = _replay.ForwardReplay(
            t.action, t.addr, t.size, t.stream, t.stack, t.pool,
            min(cfg.max_split_size, NEVER), list(cfg.roundup_power2_divisions),
        )  # fmt: skip
        fb = self.final.blocks
        live = np.flatnonzero(fb.state != BlockState.INACTIVE)
        blocks = kernel.history(
            fb.address[live], fb.size[live], fb.requested_size[live], fb.stack[live].astype(np.int64),
            (fb.state[live] == BlockState.PENDING_FREE).astype(np.int64), keep_free_stack,
        )  # fmt: skip
        initial: dict[str, float] = kernel.setup(
            [s.start for s in segs], [s.end for s in segs], [s.stream for s in segs],
            [-1 if s.small is None else int(s.small) for s in segs], [s.pool for s in segs],
            [int(s.expandable) for s in segs], [s.stack for s in segs], *(b.tolist() for b in blocks),
        )  # fmt: skip
        return kernel, initial

    def figures(self) -> TraceFigures:
        """What a report says of the trace, from the compiled kernel's replay without per-event columns: the same
        peaks, OOMs and warnings as the timeline's, for a fraction of the memory written."""
        n = len(self.trace)
        kernel, _ = self._compiled_kernel(keep_free_stack=False)  # stacks are no figure: that check is skipped
        peak_reserved, peak_allocated = kernel.run_peaks()
        for code, event, addr in kernel.warnings():
            self._warn(warning_text(code, event, addr))
        if n:
            self._check_alive(*kernel.alive())
        ooms = np.flatnonzero(self.trace.action == Action.OOM)
        return TraceFigures(
            n, int(peak_reserved), int(peak_allocated), [_oom_event(self.trace, int(i)) for i in ooms], self.warnings
        )

    def _check_final(self, timeline: DeviceTimeline) -> None:
        if timeline.n_events == 0:
            return
        life = timeline.lifetimes
        alive = np.flatnonzero(life.end == NEVER)
        self._check_alive(life.addr[alive], life.size[alive])

    def _check_alive(self, alive_addr: I64, alive_size: I64) -> None:
        """A warning when the blocks live after the replay are not those of the final snapshot."""
        b = self.final.blocks
        live = np.flatnonzero(b.state != BlockState.INACTIVE)
        expected = dict(zip(b.address[live].tolist(), b.size[live].tolist(), strict=True))
        got = dict(zip(alive_addr.tolist(), alive_size.tolist(), strict=True))
        mismatched = [a for a in expected if got.get(a) != expected[a]]
        extra = [a for a in got if a not in expected]
        if mismatched or extra:
            self._warn(
                say(
                    QT_TRANSLATE_NOOP(
                        "Warnings", "replay ends with {unlike} blocks unlike the snapshot and {extra} it does not have"
                    ),
                    unlike=len(mismatched),
                    extra=len(extra),
                )
            )

    def _warn(self, message: str) -> None:
        if len(self.warnings) < MAX_WARNINGS:
            self.warnings.append(message)


def _assemble_state(tl: DeviceTimeline, index: int, ids: np.ndarray) -> AllocatorState:
    """An AllocatorState from the live block lifetimes `ids` and the segment pieces alive after `index`."""
    p = tl.pieces
    alive = np.flatnonzero((p.start <= index) & (p.end > index))
    alive = alive[np.argsort(p.addr[alive], kind="stable")]
    # touching expandable runs of one stream are one segment, as the allocator reports them
    joins = np.zeros(len(alive), bool)
    if len(alive) > 1:
        prev, cur = alive[:-1], alive[1:]
        joins[1:] = (
            p.expandable[prev]
            & p.expandable[cur]
            & (p.addr[prev] + p.size[prev] == p.addr[cur])
            & (p.stream[prev] == p.stream[cur])
        )
    head = alive[~joins]
    group = np.cumsum(~joins) - 1
    seg_size = np.bincount(group, weights=p.size[alive], minlength=len(head)).astype(np.int64)
    seg_addr = p.addr[head]
    nseg = len(head)

    life = tl.lifetimes
    ids = ids[np.argsort(life.addr[ids], kind="stable")]
    b_addr = life.addr[ids]
    b_size = life.size[ids]
    b_seg = np.searchsorted(seg_addr, b_addr, "right") - 1
    pending = life.pend[ids] <= index
    b_state = np.where(pending, BlockState.PENDING_FREE, BlockState.ALLOCATED).astype(np.int8)

    # free gaps: before each live block (from the previous block's end, or its segment's start) and at segment ends
    prev_end = np.empty(len(ids), np.int64)
    if len(ids):
        prev_end[0] = seg_addr[b_seg[0]] if nseg else b_addr[0]
        prev_end[1:] = b_addr[:-1] + b_size[:-1]
        first_in_seg = np.ones(len(ids), bool)
        first_in_seg[1:] = b_seg[1:] != b_seg[:-1]
        prev_end[first_in_seg] = seg_addr[b_seg[first_in_seg]]
    gap_before = b_addr - prev_end
    seg_end = seg_addr + seg_size
    last_end = seg_addr.copy()
    if len(ids):
        last_of_seg = np.ones(len(ids), bool)
        last_of_seg[:-1] = b_seg[:-1] != b_seg[1:]
        last_end[b_seg[last_of_seg]] = (b_addr + b_size)[last_of_seg]
    tail = seg_end - last_end

    has_gap = gap_before > 0
    has_tail = tail > 0
    g_addr = np.concatenate([prev_end[has_gap], last_end[has_tail]])
    g_size = np.concatenate([gap_before[has_gap], tail[has_tail]])
    g_seg = np.concatenate([b_seg[has_gap], np.flatnonzero(has_tail)])

    all_addr = np.concatenate([b_addr, g_addr])
    order = np.argsort(all_addr, kind="stable")
    n_live, n_gap = len(ids), len(g_addr)
    blocks = BlockTable(
        np.concatenate([b_seg, g_seg])[order].astype(np.int32),
        all_addr[order],
        np.concatenate([b_size, g_size])[order],
        np.concatenate([life.requested[ids], np.zeros(n_gap, np.int64)])[order],
        np.concatenate([b_state, np.zeros(n_gap, np.int8)])[order],
        np.concatenate([life.stack[ids], np.full(n_gap, NO_STACK, np.int32)])[order],
    )
    counts = np.bincount(blocks.segment, minlength=nseg).astype(np.int64) if nseg else np.zeros(0, np.int64)
    starts = np.zeros(nseg, np.int64)
    if nseg:
        starts[1:] = np.cumsum(counts)[:-1]
    del n_live
    segments = SegmentTable(
        np.full(nseg, tl.device, np.int32),
        seg_addr,
        seg_size,
        p.stream[head],
        p.small[head],
        p.pool[head],
        p.expandable[head],
        p.stack[head],
        starts,
        counts,
    )
    return AllocatorState(segments, blocks, tl.pool_ids)
