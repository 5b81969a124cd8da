"""Time travel through a device's trace: the allocator state right after any event, and series over the trace.

One backward pass undoes the trace from the final `segments` to find the state before the first event (as PyTorch's
viewer does on every click); one forward pass then replays it, deciding each block's real size with the
allocator's split rule and recording every block's and segment's lifetime as event indices. A jump to event i is
then a stabbing query over lifetimes, started from the nearest keyframe (the live blocks every K events), so it
costs O(live + K) numpy work, never a replay.
"""

from __future__ import annotations

import bisect
import heapq
import os
from dataclasses import dataclass, field

import numpy as np

from gpumem_gui.core.analysis.segment_map import LiveSegment, SegmentMap
from gpumem_gui.core.rules.allocator_constants import SMALL_BUFFER, SMALL_SIZE
from gpumem_gui.core.rules.allocator_rules import AllocatorConfig, round_size, should_split
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

try:  # the compiled twin of _ForwardReplay (see _replay.pyx); absent where no C++ compiler built it
    from gpumem_gui.core.analysis import _replay  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - depends on the install
    _replay = None

NEVER = np.iinfo(np.int64).max  # a lifetime that has not ended by the last event
KEYFRAME_INTERVAL = 4096

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


@dataclass(frozen=True)
class OomEvent:
    index: int
    requested_bytes: int  # the rounded request (the trace entry's size)
    device_free_bytes: int
    stream: int
    time_us: int | None


@dataclass(frozen=True)
class Series:
    """Values right after each event (arrays of length N) and before the first one (`initial`)."""

    reserved: I64
    allocated: I64
    requested: I64
    active: I64
    free: I64
    largest_free: I64
    external_fragmentation: np.ndarray  # float64 in [0, 1]
    segments: I64
    time_us: I64 | None
    initial: dict[str, float]

    def __len__(self) -> int:
        return len(self.reserved)

    def peak(self, name: str) -> int:
        values: np.ndarray = getattr(self, name)
        initial = self.initial[name]
        return int(max(initial, values.max())) if len(values) else int(initial)


@dataclass
class _Blk:
    size: int | None
    requested: int
    state: BlockState
    stack: int


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

    def state_at(self, index: int) -> AllocatorState:
        """Segments and blocks right after event `index` (-1: before the first event)."""
        if not -1 <= index < max(self.n_events, 0) and not (index == -1 and self.n_events == 0):
            raise IndexError(f"event {index} is outside the trace (0 to {self.n_events - 1})")
        if index == self.n_events - 1:
            return self.final
        return self.derive_state(index)

    def derive_state(self, index: int) -> AllocatorState:
        """The state after `index` rebuilt from lifetimes (for the last event, equal to the final snapshot)."""
        life = self.lifetimes
        k = (index + 1) // self.keyframe_interval
        first_new = int(np.searchsorted(life.start, k * self.keyframe_interval, "left"))
        last_new = int(np.searchsorted(life.start, index, "right"))
        ids = np.concatenate([self.keyframes[k], np.arange(first_new, last_new, dtype=np.int64)])
        ids = ids[(life.end[ids] > index) & (life.start[ids] <= index)]
        return _assemble_state(self, index, ids)


_COMPILED_WARNINGS = {
    1: "event {event}: alloc of {addr:#x}, which is already live",
    2: "event {event}: alloc of {addr:#x} outside every segment",
    3: "event {event}: alloc of {addr:#x} where no memory is free",
    4: "event {event}: free_requested of {addr:#x}, which is not live",
    5: "event {event}: free_completed of {addr:#x}, which is not live",
    6: "event {event}: segment_alloc of {addr:#x} over a live segment",
    7: "event {event}: segment_free of {addr:#x}, which is not a free segment",
    8: "event {event}: segment_unmap of {addr:#x}, which is not free mapped memory",
    9: "block {addr:#x} lies in no segment before the first event",
    10: "event {event}: alloc of {addr:#x} is not live afterwards",
    11: "event {event}: free_completed of {addr:#x}, which is live afterwards",
}


def _series(values: dict[str, I64], trace: TraceTable, initial: dict[str, float]) -> Series:
    """Series from the per-event counters (reserved, allocated, requested, active, largest_free, segments)."""
    reserved, active, largest = values["reserved"], values["active"], values["largest_free"]
    free = reserved - active
    frag = np.where(free > 0, 1.0 - largest / np.maximum(free, 1), 0.0)
    time_us = trace.time_us if trace.has_time else None
    return Series(
        reserved,
        values["allocated"],
        values["requested"],
        active,
        free,
        largest,
        frag,
        values["segments"],
        time_us,
        initial,
    )


def _by_address(keyframes: list[np.ndarray], addr: I64) -> list[np.ndarray]:
    """Keyframes with their lifetimes in address order: a jump then sorts little more than the events since."""
    if not keyframes:
        return [np.zeros(0, np.int64)]
    return [k[np.argsort(addr[k], kind="stable")] for k in keyframes]


def _oom_event(trace: TraceTable, i: int) -> OomEvent:
    time_us = int(trace.time_us[i]) if trace.has_time else None
    return OomEvent(i, int(trace.size[i]), int(trace.device_free[i]), int(trace.stream[i]), time_us)


@dataclass(frozen=True)
class BlockHistory:
    """What a trace says of blocks, without replaying it: who is live before the first event, and the size of
    every allocation that is still live in the final snapshot."""

    addr: I64  # blocks live before the first event, by address
    size: I64  # -1 where only the replay can tell (freed during the trace, allocated before it)
    requested: I64
    stack: np.ndarray
    pending: np.ndarray  # pending free from the start (its free_requested came before the trace)
    known_size: I64  # per event: the final block size of an alloc still live at the end, else -1
    warnings: list[str]


_BLOCK_ACTIONS = (Action.ALLOC, Action.FREE_REQUESTED, Action.FREE_COMPLETED)


def block_history(trace: TraceTable, final: AllocatorState) -> BlockHistory:
    """Pair each address's alloc / free_requested / free_completed events (a sort, no replay)."""
    n = len(trace)
    rows = np.flatnonzero(np.isin(trace.action, _BLOCK_ACTIONS))
    rows = rows[np.argsort(trace.addr[rows], kind="stable")]  # by address, then (stable) time
    addr = trace.addr[rows]
    act = trace.action[rows]
    first = np.ones(len(rows), bool)
    first[1:] = addr[1:] != addr[:-1]
    last = np.ones(len(rows), bool)
    last[:-1] = first[1:]

    warnings: list[str] = []
    # within one address the only sequences are alloc -> free_requested -> free_completed -> alloc ...
    prev, nxt = act[:-1], act[1:]
    fine = (
        ((prev == Action.ALLOC) & ((nxt == Action.FREE_REQUESTED) | (nxt == Action.FREE_COMPLETED)))
        | ((prev == Action.FREE_REQUESTED) & (nxt == Action.FREE_COMPLETED))
        | ((prev == Action.FREE_COMPLETED) & (nxt == Action.ALLOC))
    )
    for j in np.flatnonzero(~first[1:] & ~fine)[:10]:
        i = int(rows[j + 1])
        what, after = Action(act[j + 1]).name.lower(), Action(act[j]).name.lower()
        warnings.append(f"event {i}: {what} of {int(addr[j + 1]):#x} after a {after}")

    fb = final.blocks
    live = np.flatnonzero(fb.state != BlockState.INACTIVE)
    f_addr, f_size = fb.address[live], fb.size[live]
    f_order = np.argsort(f_addr)
    f_addr, f_size, live = f_addr[f_order], f_size[f_order], live[f_order]

    group_addr = addr[first]
    first_rows, first_act = rows[first], act[first]
    last_rows, last_act = rows[last], act[last]
    pre = first_act != Action.ALLOC  # the block existed before its first event here
    untouched = ~np.isin(f_addr, group_addr)
    u = live[untouched]
    init_addr = np.concatenate([group_addr[pre], fb.address[u]])
    init_order = np.argsort(init_addr, kind="stable")

    known = np.full(n, -1, np.int64)
    live_at_end = last_act != Action.FREE_COMPLETED
    pos = np.searchsorted(f_addr, group_addr)
    pos = np.minimum(pos, max(len(f_addr) - 1, 0))
    in_final = (f_addr[pos] == group_addr) if len(f_addr) else np.zeros(len(group_addr), bool)
    # the live block's alloc: the last event, or the one before a trailing free_requested
    alloc_row = np.where(last_act == Action.ALLOC, last_rows, -1)
    trailing = np.flatnonzero(last_act == Action.FREE_REQUESTED)
    last_pos = np.flatnonzero(last)
    for g in trailing:
        j = last_pos[g] - 1
        if j >= 0 and not first[j + 1] and act[j] == Action.ALLOC:
            alloc_row[g] = rows[j]
    has = live_at_end & in_final & (alloc_row >= 0)
    known[alloc_row[has]] = f_size[pos[has]]
    for g in np.flatnonzero(live_at_end & ~in_final)[:10]:
        warnings.append(f"event {int(last_rows[g])}: {int(group_addr[g]):#x} should be live at the end but is not")
    for g in np.flatnonzero(~live_at_end & in_final)[:10]:
        warnings.append(
            f"event {int(last_rows[g])}: free_completed of {int(group_addr[g]):#x}, which is live at the end"
        )

    return BlockHistory(
        addr=init_addr[init_order],
        size=np.concatenate([np.full(int(pre.sum()), -1, np.int64), fb.size[u]])[init_order],
        requested=np.concatenate([trace.size[first_rows[pre]], fb.requested_size[u]])[init_order],
        stack=np.concatenate([trace.stack[first_rows[pre]], fb.stack[u]])[init_order],
        pending=np.concatenate([first_act[pre] == Action.FREE_COMPLETED, fb.state[u] == BlockState.PENDING_FREE])[
            init_order
        ],
        known_size=known,
        warnings=warnings,
    )


def compiled_replay_available() -> bool:
    return _replay is not None


def build_timeline(
    snapshot: Snapshot, device: int, config: AllocatorConfig | None = None, *, compiled: bool | None = None
) -> DeviceTimeline:
    """Index `device`'s trace for time travel and compute its series (one backward and one forward pass).

    `compiled` picks the C++ replay kernel (default: whenever it was built) or the pure-Python one; both give the
    same result, which a test checks.
    """
    if config is None:
        config = AllocatorConfig.from_snapshot_settings(snapshot.allocator_settings)
    if compiled is None:
        compiled = _replay is not None and not os.environ.get("GPUMEM_GUI_PURE_PYTHON")
    with gc_paused():
        return _TimelineBuilder(snapshot, device, config).build(compiled)


class _TimelineBuilder:
    def __init__(self, snapshot: Snapshot, device: int, config: AllocatorConfig) -> None:
        self.snapshot = snapshot
        self.device = device
        self.config = config
        self.final = snapshot.state.for_device(device)
        self.trace: TraceTable = snapshot.trace(device)
        self.warnings: list[str] = []

    # -- backward: from the final state to the state before the first event -------------------------------------

    def _final_segments(self) -> SegmentMap:
        segs = SegmentMap()
        s = self.final.segments
        for i in range(len(s)):
            start = int(s.address[i])
            segs.add(
                LiveSegment(
                    start,
                    start + int(s.total_size[i]),
                    int(s.stream[i]),
                    bool(s.is_small[i]),
                    int(s.pool[i]),
                    bool(s.is_expandable[i]),
                    int(s.stack[i]),
                )
            )
        return segs

    def _final_blocks(self) -> dict[int, _Blk]:
        b = self.final.blocks
        live = np.flatnonzero(b.state != BlockState.INACTIVE)
        return {
            int(b.address[i]): _Blk(int(b.size[i]), int(b.requested_size[i]), BlockState(b.state[i]), int(b.stack[i]))
            for i in live
        }

    def _backward(self) -> tuple[dict[int, _Blk], SegmentMap, dict[int, int]]:
        blocks = block_history(self.trace, self.final)
        self.warnings.extend(blocks.warnings[: 50 - len(self.warnings)])
        initial = {
            int(a): _Blk(
                None if s < 0 else int(s), int(r), BlockState.PENDING_FREE if p else BlockState.ALLOCATED, int(k)
            )
            for a, s, r, k, p in zip(
                blocks.addr, blocks.size, blocks.requested, blocks.stack, blocks.pending, strict=True
            )
        }
        known = {int(i): int(blocks.known_size[i]) for i in np.flatnonzero(blocks.known_size >= 0)}
        return initial, self._backward_segments(), known

    def _backward_segments(self) -> SegmentMap:
        """Segments before the first event: undo the (few) segment events from the final segments."""
        t = self.trace
        segs = self._final_segments()
        rows = np.flatnonzero(t.action >= Action.SEGMENT_ALLOC)
        for i in rows[::-1].tolist():
            a, addr, size = int(t.action[i]), int(t.addr[i]), int(t.size[i])
            if a == Action.SEGMENT_ALLOC:
                seg = segs.by_start.get(addr)
                if seg is None:
                    self._warn(f"event {i}: segment_alloc of {addr:#x} is not there afterwards")
                else:
                    segs.remove(seg)
            elif a == Action.SEGMENT_FREE:
                segs.add(self._segment_from_event(i, expandable=False))
            elif a == Action.SEGMENT_MAP:
                if segs.unmap_range(addr, addr + size) is None:
                    self._warn(f"event {i}: segment_map of {addr:#x} is not mapped afterwards")
            elif a == Action.SEGMENT_UNMAP:
                segs.map_range(addr, addr + size, self._segment_from_event(i, expandable=True))
        return segs

    def _segment_from_event(self, i: int, expandable: bool) -> LiveSegment:
        t = self.trace
        addr, size = int(t.addr[i]), int(t.size[i])
        pool = int(t.pool[i]) if t.pool[i] >= 0 else 0
        # A cudaMalloc'ed segment is small exactly when it is kSmallBuffer; an expandable run is decided by its
        # neighbours or its first allocation, since both pools map whole pages.
        small: bool | None = size == SMALL_BUFFER if not expandable else None
        return LiveSegment(addr, addr + size, int(t.stream[i]), small, pool, expandable, int(t.stack[i]))

    # -- forward: replay from the initial state, recording lifetimes and series -------------------------------

    def build(self, compiled: bool) -> DeviceTimeline:
        if compiled:
            timeline = self._build_compiled()
        else:
            initial_blocks, segs, known_size = self._backward()
            fw = _ForwardReplay(self, segs, initial_blocks, known_size)
            fw.run()
            timeline = fw.result(self.warnings)
        self._check_final(timeline)
        return timeline

    def _build_compiled(self) -> DeviceTimeline:
        assert _replay is not None
        t = self.trace
        n = len(t)
        segs = list(self._backward_segments())
        cfg = self.config
        known = np.full(n, -1, np.int64)
        kernel = _replay.ForwardReplay(
            t.action, t.addr, t.size, t.stream, t.stack, t.pool, known,
            min(cfg.max_split_size, NEVER), list(cfg.roundup_power2_divisions),
        )  # fmt: skip
        fb = self.final.blocks
        live = np.flatnonzero(fb.state != BlockState.INACTIVE)
        blocks, known[:] = kernel.history(
            fb.address[live], fb.size[live], fb.requested_size[live], fb.stack[live].astype(np.int64),
            (fb.state[live] == BlockState.PENDING_FREE).astype(np.int64),
        )  # fmt: skip
        initial = kernel.setup(
            [s.start for s in segs], [s.end for s in segs], [s.stream for s in segs],
            [-1 if s.small is None else int(s.small) for s in segs], [s.pool for s in segs],
            [int(s.expandable) for s in segs], [s.stack for s in segs], *(b.tolist() for b in blocks),
        )  # fmt: skip
        initial["free"] = initial["reserved"] - initial["active"]
        free = initial["free"]
        initial["external_fragmentation"] = 1.0 - initial["largest_free"] / free if free > 0 else 0.0
        names = ("reserved", "allocated", "requested", "active", "largest_free", "segments")
        out = {name: np.zeros(n, np.int64) for name in names}
        block_sizes = np.zeros(n, np.int64)
        kernel.run(KEYFRAME_INTERVAL, *(out[name] for name in names), block_sizes)
        r = kernel.result()
        for code, event, addr in r["warnings"]:
            self._warn(_COMPILED_WARNINGS[code].format(event=event, addr=addr))
        p = r["pieces"]
        series = _series(out, t, initial)
        return DeviceTimeline(
            device=self.device,
            n_events=n,
            final=self.final,
            pool_ids=self.snapshot.state.pool_ids,
            lifetimes=Lifetimes(*r["life"]),
            pieces=Pieces(p[0], p[1], p[2], p[3] == 1, p[4], p[5] == 1, p[6], p[7], p[8]),
            keyframes=_by_address(r["keyframes"], r["life"][0]),
            keyframe_interval=KEYFRAME_INTERVAL,
            series=series,
            ooms=[_oom_event(t, int(i)) for i in r["ooms"]],
            block_sizes=block_sizes,
            warnings=self.warnings,
            rule_mismatches=int(r["rule_mismatches"]),
        )

    def _check_final(self, timeline: DeviceTimeline) -> None:
        if timeline.n_events == 0:
            return
        expected = self._final_blocks()
        life = timeline.lifetimes
        alive = np.flatnonzero(life.end == NEVER)
        got = dict(zip(life.addr[alive].tolist(), life.size[alive].tolist(), strict=True))
        mismatched = [a for a in expected if got.get(a) != expected[a].size]
        extra = [a for a in got if a not in expected]
        if mismatched or extra:
            self._warn(
                f"replay ends with {len(mismatched)} blocks unlike the snapshot and {len(extra)} it does not have"
            )

    def _warn(self, message: str) -> None:
        if len(self.warnings) < 50:
            self.warnings.append(message)


class _ForwardReplay:
    """The forward pass: live blocks, free gaps (with a lazy max-heap for the largest), counters, lifetimes."""

    def __init__(
        self,
        builder: _TimelineBuilder,
        segs: SegmentMap,
        initial_blocks: dict[int, _Blk],
        known_size: dict[int, int],
    ) -> None:
        self.b = builder
        self.segs = segs
        self.known_size = known_size
        self.config = builder.config
        n = len(builder.trace)
        self.n = n
        # block lifetimes (parallel lists, appended in order of start)
        self.life_addr: list[int] = []
        self.life_size: list[int] = []
        self.life_req: list[int] = []
        self.life_stack: list[int] = []
        self.life_start: list[int] = []
        self.life_pend: list[int] = []
        self.life_end: list[int] = []
        # segment pieces
        self.piece_rows: list[
            list[int]
        ] = []  # addr, size, stream, small(-1 unknown), pool, expandable, stack, start, end
        self.active: dict[int, int] = {}  # block address -> lifetime id
        self.starts: list[int] = []  # sorted addresses of live blocks
        self.gap_end: dict[int, int] = {}  # free gap start -> end
        self.gap_start: dict[int, int] = {}  # free gap end -> start
        self.gap_count: dict[int, int] = {}
        self.gap_heap: list[int] = []
        self.reserved = self.allocated = self.requested = self.active_bytes = 0
        self.block_sizes = np.zeros(n, np.int64)
        self.ooms: list[OomEvent] = []
        self.rule_mismatches = 0
        self._setup(initial_blocks)

    # -- free gaps ---------------------------------------------------------------------------------------------

    def _add_gap(self, start: int, end: int) -> None:
        if end <= start:
            return
        self.gap_end[start] = end
        self.gap_start[end] = start
        size = end - start
        count = self.gap_count.get(size, 0)
        self.gap_count[size] = count + 1
        if count == 0:
            heapq.heappush(self.gap_heap, -size)

    def _remove_gap(self, start: int) -> int:
        end = self.gap_end.pop(start)
        del self.gap_start[end]
        self.gap_count[end - start] -= 1
        return end

    def largest_gap(self) -> int:
        heap, count = self.gap_heap, self.gap_count
        while heap and count.get(-heap[0], 0) == 0:
            heapq.heappop(heap)
        return -heap[0] if heap else 0

    def _gap_containing(self, addr: int, seg: LiveSegment) -> int | None:
        """Start of the free gap holding `addr` in `seg`, or None if a block is there."""
        index = bisect.bisect_right(self.starts, addr) - 1
        lo = seg.start
        if index >= 0 and self.starts[index] >= seg.start:
            block = self.starts[index]
            lo = block + self.life_size[self.active[block]]
            if lo > addr:
                return None
        return lo if lo in self.gap_end and self.gap_end[lo] > addr else None

    # -- setup ---------------------------------------------------------------------------------------------------

    def _setup(self, initial_blocks: dict[int, _Blk]) -> None:
        for initial_seg in self.segs:
            initial_seg.pieces = [self._new_piece(initial_seg.start, initial_seg.size, initial_seg, -1)]
            self.reserved += initial_seg.size
        ordered = sorted(initial_blocks)
        self.starts = list(ordered)
        for pos, addr in enumerate(ordered):
            blk = initial_blocks[addr]
            seg = self.segs.containing(addr)
            if seg is None:
                self.b._warn(f"block {addr:#x} lies in no segment before the first event")
                seg = LiveSegment(addr, addr + (blk.size or blk.requested), 0, None, 0, False, NO_STACK)
                self.segs.add(seg)
                seg.pieces = [self._new_piece(seg.start, seg.size, seg, -1)]
                self.reserved += seg.size
            size = blk.size
            if size is None:  # freed during the trace but allocated before it: decide its size as the allocator would
                next_start = ordered[pos + 1] if pos + 1 < len(ordered) else seg.end
                size = self._block_size(addr, blk.requested, min(next_start, seg.end), seg)
            lid = self._new_life(addr, size, blk.requested, blk.stack, -1)
            if blk.state == BlockState.PENDING_FREE:
                self.life_pend[lid] = -1
            else:
                self.allocated += size
                self.requested += blk.requested
            self.active[addr] = lid
            self.active_bytes += size
        for seg in self.segs:
            cursor = seg.start
            index = bisect.bisect_left(self.starts, seg.start)
            while index < len(self.starts) and self.starts[index] < seg.end:
                addr = self.starts[index]
                self._add_gap(cursor, addr)
                cursor = addr + self.life_size[self.active[addr]]
                index += 1
            self._add_gap(cursor, seg.end)
        self.initial = self._values()

    def _new_life(self, addr: int, size: int, requested: int, stack: int, start: int) -> int:
        self.life_addr.append(addr)
        self.life_size.append(size)
        self.life_req.append(requested)
        self.life_stack.append(stack)
        self.life_start.append(start)
        self.life_pend.append(NEVER)
        self.life_end.append(NEVER)
        return len(self.life_addr) - 1

    def _new_piece(self, addr: int, size: int, seg: LiveSegment, start: int) -> int:
        small = -1 if seg.small is None else int(seg.small)
        self.piece_rows.append([addr, size, seg.stream, small, seg.pool, int(seg.expandable), seg.stack, start, NEVER])
        return len(self.piece_rows) - 1

    def _block_size(self, addr: int, requested: int, free_end: int, seg: LiveSegment) -> int:
        rounded = round_size(requested, self.config)
        available = free_end - addr
        if seg.small is None:
            seg.small = rounded <= SMALL_SIZE
            for p in seg.pieces:
                self.piece_rows[p][3] = int(seg.small)
        if rounded >= available:
            return available
        split = should_split(
            available, rounded, small_pool=bool(seg.small), expandable=seg.expandable, config=self.config
        )
        return rounded if split else available

    def _values(self) -> dict[str, float]:
        free = self.reserved - self.active_bytes
        largest = self.largest_gap()
        return {
            "reserved": self.reserved,
            "allocated": self.allocated,
            "requested": self.requested,
            "active": self.active_bytes,
            "free": free,
            "largest_free": largest,
            "external_fragmentation": 1.0 - largest / free if free > 0 else 0.0,
            "segments": len(self.segs),
        }

    # -- the replay ------------------------------------------------------------------------------------------------

    def run(self) -> None:
        t = self.b.trace
        n = self.n
        k = KEYFRAME_INTERVAL
        out_reserved = np.zeros(n, np.int64)
        out_allocated = np.zeros(n, np.int64)
        out_requested = np.zeros(n, np.int64)
        out_active = np.zeros(n, np.int64)
        out_largest = np.zeros(n, np.int64)
        out_segments = np.zeros(n, np.int64)
        self.keyframes: list[np.ndarray] = []
        actions, addrs, sizes, stacks = t.action.tolist(), t.addr.tolist(), t.size.tolist(), t.stack.tolist()
        for i in range(n):
            if i % k == 0:
                self.keyframes.append(np.fromiter(self.active.values(), np.int64, len(self.active)))
            a = actions[i]
            if a == Action.ALLOC:
                self._alloc(i, addrs[i], sizes[i], stacks[i])
            elif a == Action.FREE_REQUESTED:
                self._free_requested(i, addrs[i])
            elif a == Action.FREE_COMPLETED:
                self._free_completed(i, addrs[i])
            elif a == Action.SEGMENT_ALLOC:
                self._segment_alloc(i)
            elif a == Action.SEGMENT_FREE:
                self._segment_free(i, addrs[i])
            elif a == Action.SEGMENT_MAP:
                self._segment_map(i)
            elif a == Action.SEGMENT_UNMAP:
                self._segment_unmap(i, addrs[i], sizes[i])
            elif a == Action.OOM:
                self.ooms.append(_oom_event(t, i))
            out_reserved[i] = self.reserved
            out_allocated[i] = self.allocated
            out_requested[i] = self.requested
            out_active[i] = self.active_bytes
            out_largest[i] = self.largest_gap()
            out_segments[i] = len(self.segs)
        if n % k == 0:  # a keyframe for "after the last event" keeps state_at's indexing uniform
            self.keyframes.append(np.fromiter(self.active.values(), np.int64, len(self.active)))
        values = {"reserved": out_reserved, "allocated": out_allocated, "requested": out_requested}
        values.update(active=out_active, largest_free=out_largest, segments=out_segments)
        self.series = _series(values, t, self.initial)

    def _alloc(self, i: int, addr: int, requested: int, stack: int) -> None:
        if addr in self.active:
            self.b._warn(f"event {i}: alloc of {addr:#x}, which is already live")
            return
        seg = self.segs.containing(addr)
        if seg is None:
            self.b._warn(f"event {i}: alloc of {addr:#x} outside every segment")
            return
        gap = addr if addr in self.gap_end else self._gap_containing(addr, seg)
        if gap is None:
            self.b._warn(f"event {i}: alloc of {addr:#x} where no memory is free")
            return
        gap_end = self._remove_gap(gap)
        self._add_gap(gap, addr)  # only in an inconsistent trace does an allocation not start its gap
        size = self._block_size(addr, requested, gap_end, seg)
        known = self.known_size.get(i)
        if known is not None and known != size:
            # the split rule and the final snapshot disagree (unknown settings of an old file): trust the file
            self.rule_mismatches += 1
            if known <= gap_end - addr:
                size = known
        self._add_gap(addr + size, gap_end)
        bisect.insort(self.starts, addr)
        self.active[addr] = self._new_life(addr, size, requested, stack, i)
        self.allocated += size
        self.requested += requested
        self.active_bytes += size
        self.block_sizes[i] = size

    def _free_requested(self, i: int, addr: int) -> None:
        lid = self.active.get(addr)
        if lid is None:
            self.b._warn(f"event {i}: free_requested of {addr:#x}, which is not live")
            return
        if self.life_pend[lid] == NEVER:
            self.life_pend[lid] = i
            self.allocated -= self.life_size[lid]
            self.requested -= self.life_req[lid]
        self.block_sizes[i] = self.life_size[lid]

    def _free_completed(self, i: int, addr: int) -> None:
        lid = self.active.pop(addr, None)
        if lid is None:
            self.b._warn(f"event {i}: free_completed of {addr:#x}, which is not live")
            return
        size = self.life_size[lid]
        if self.life_pend[lid] == NEVER:  # no free_requested was recorded (skip_actions): it ends here
            self.life_pend[lid] = i
            self.allocated -= size
            self.requested -= self.life_req[lid]
        self.life_end[lid] = i
        self.active_bytes -= size
        self.block_sizes[i] = size
        del self.starts[bisect.bisect_left(self.starts, addr)]
        seg = self.segs.containing(addr)
        lo, hi = addr, addr + size
        if lo in self.gap_start and seg is not None and self.gap_start[lo] >= seg.start:
            lo = self.gap_start[lo]
            self._remove_gap(lo)
        if hi in self.gap_end and seg is not None and hi < seg.end:
            hi = self._remove_gap(hi)
        self._add_gap(lo, hi)

    def _segment_alloc(self, i: int) -> None:
        seg = self.b._segment_from_event(i, expandable=False)
        if self.segs.containing(seg.start) is not None:
            self.b._warn(f"event {i}: segment_alloc of {seg.start:#x} over a live segment")
            return
        seg.pieces = [self._new_piece(seg.start, seg.size, seg, i)]
        self.segs.add(seg)
        self._add_gap(seg.start, seg.end)
        self.reserved += seg.size

    def _segment_free(self, i: int, addr: int) -> None:
        seg = self.segs.by_start.get(addr)
        if seg is None or self.gap_end.get(addr) != seg.end:
            self.b._warn(f"event {i}: segment_free of {addr:#x}, which is not a free segment")
            if seg is None:
                return
        else:
            self._remove_gap(addr)
        self.segs.remove(seg)
        for p in seg.pieces:
            self.piece_rows[p][8] = i
        self.reserved -= seg.size

    def _segment_map(self, i: int) -> None:
        template = self.b._segment_from_event(i, expandable=True)
        start, end = template.start, template.end
        left, right = self.segs.expandable_neighbours(start, end, template.stream)
        template.pieces = [self._new_piece(start, end - start, template, i)]
        lo, hi = start, end
        if left is not None and start in self.gap_start and self.gap_start[start] >= left.start:
            lo = self.gap_start[start]
            self._remove_gap(lo)
        if right is not None and end in self.gap_end:
            hi = self._remove_gap(end)
        merged, _ = self.segs.map_range(start, end, template)
        if merged.small is not None:
            for p in merged.pieces:
                self.piece_rows[p][3] = int(merged.small)
        self._add_gap(lo, hi)
        self.reserved += end - start

    def _segment_unmap(self, i: int, addr: int, size: int) -> None:
        end = addr + size
        seg = self.segs.containing(addr)
        gap = self._gap_containing(addr, seg) if seg is not None else None
        if seg is None or gap is None or self.gap_end[gap] < end:
            self.b._warn(f"event {i}: segment_unmap of {addr:#x}, which is not free mapped memory")
            return
        gap_end = self._remove_gap(gap)
        self._add_gap(gap, addr)
        self._add_gap(end, gap_end)
        result = self.segs.unmap_range(addr, end)
        assert result is not None
        old, parts = result
        for p in old.pieces:
            row = self.piece_rows[p]
            p_start, p_end = row[0], row[0] + row[1]
            if p_end <= addr or p_start >= end:
                self._piece_to(p, parts)
                continue
            row[8] = i  # the range is cut out: the piece ends, and what is left of it starts anew
            for lo, hi in ((p_start, min(p_end, addr)), (max(p_start, end), p_end)):
                if hi > lo:
                    holder = next(s for s in parts if s.start <= lo < s.end)
                    piece = self._new_piece(lo, hi - lo, holder, i)
                    self.piece_rows[piece][6] = row[6]
                    holder.pieces.append(piece)
        for part in parts:
            part.pieces.sort(key=lambda p: self.piece_rows[p][0])
        self.reserved -= size

    def _piece_to(self, piece: int, parts: list[LiveSegment]) -> None:
        lo = self.piece_rows[piece][0]
        next(s for s in parts if s.start <= lo < s.end).pieces.append(piece)

    def result(self, warnings: list[str]) -> DeviceTimeline:
        life = Lifetimes(
            np.asarray(self.life_addr, np.int64),
            np.asarray(self.life_size, np.int64),
            np.asarray(self.life_req, np.int64),
            np.asarray(self.life_stack, np.int32),
            np.asarray(self.life_start, np.int64),
            np.asarray(self.life_pend, np.int64),
            np.asarray(self.life_end, np.int64),
        )
        rows = np.asarray(self.piece_rows, np.int64).reshape(-1, 9)
        pieces = Pieces(
            rows[:, 0].copy(),
            rows[:, 1].copy(),
            rows[:, 2].copy(),
            rows[:, 3] == 1,
            rows[:, 4].astype(np.int32),
            rows[:, 5] == 1,
            rows[:, 6].astype(np.int32),
            rows[:, 7].copy(),
            rows[:, 8].copy(),
        )
        return DeviceTimeline(
            device=self.b.device,
            n_events=self.n,
            final=self.b.final,
            pool_ids=self.b.snapshot.state.pool_ids,
            lifetimes=life,
            pieces=pieces,
            keyframes=_by_address(self.keyframes, life.addr),
            keyframe_interval=KEYFRAME_INTERVAL,
            series=self.series,
            ooms=self.ooms,
            block_sizes=self.block_sizes,
            warnings=warnings,
            rule_mismatches=self.rule_mismatches,
        )


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
