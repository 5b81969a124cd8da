"""The pure-Python forward replay of one device's trace: the twin of the compiled kernel in _replay.pyx.

From the state before the first event it replays every event, deciding each block's real size with the allocator's
split rule, and records block and segment lifetimes (as event indices), keyframes and the per-event counters. Both
twins take the same steps (setup, run, result) and give the same result, which a test compares array for array.
"""

from __future__ import annotations

import bisect
import heapq
from dataclasses import dataclass
from typing import TypedDict

import numpy as np

from gpumem_gui.core.analysis import replay_warnings as w
from gpumem_gui.core.analysis.backward_pass import BlockHistory, segment_from_event
from gpumem_gui.core.analysis.segment_map import LiveSegment, SegmentMap
from gpumem_gui.core.rules.allocator_constants import SMALL_SIZE
from gpumem_gui.core.rules.allocator_rules import AllocatorConfig, round_size, should_split
from gpumem_gui.core.snapshot.model import I64, NO_STACK, Action, BlockState, TraceTable

NEVER = int(np.iinfo(np.int64).max)  # a lifetime that has not ended by the last event


class ReplayResult(TypedDict):
    """What either twin's `result()` gives: columns of Lifetimes and Pieces, keyframes, and what went wrong."""

    life: list[np.ndarray]  # addr, size, requested, stack, start, pend, end
    pieces: list[np.ndarray]  # addr, size, stream, small (-1 unknown), pool, expandable, stack, start, end
    keyframes: list[np.ndarray]  # live lifetime ids every keyframe_interval events
    ooms: list[int]  # event indices
    warnings: list[tuple[int, int, int]]  # (code of replay_warnings, event, address)
    rule_mismatches: int


@dataclass
class _Blk:
    size: int | None
    requested: int
    state: BlockState
    stack: int


class ForwardReplay:
    """The forward pass: live blocks, free gaps (with a lazy max-heap for the largest), counters, lifetimes."""

    def __init__(self, trace: TraceTable, config: AllocatorConfig) -> None:
        self.trace = trace
        self.config = config
        self.n = len(trace)
        self.segs = SegmentMap()
        self.known_size: dict[int, int] = {}  # event -> final size of an alloc still live at the end
        # block lifetimes (parallel lists, appended in order of start)
        self.life_addr: list[int] = []
        self.life_size: list[int] = []
        self.life_req: list[int] = []
        self.life_stack: list[int] = []
        self.life_start: list[int] = []
        self.life_pend: list[int] = []
        self.life_end: list[int] = []
        # segment pieces: addr, size, stream, small (-1 unknown), pool, expandable, stack, start, end
        self.piece_rows: list[list[int]] = []
        self.active: dict[int, int] = {}  # block address -> lifetime id
        self.starts: list[int] = []  # sorted addresses of live blocks
        self.gap_end: dict[int, int] = {}  # free gap start -> end
        self.gap_start: dict[int, int] = {}  # free gap end -> start
        self.gap_count: dict[int, int] = {}
        self.gap_heap: list[int] = []
        self.reserved = self.allocated = self.requested = self.active_bytes = 0
        self.block_sizes: I64 = np.zeros(0, np.int64)  # the output column, set by run()
        self.keyframes: list[np.ndarray] = []
        self.ooms: list[int] = []
        self.warnings: list[tuple[int, int, int]] = []
        self.rule_mismatches = 0

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

    def _warn(self, code: int, event: int, addr: int) -> None:
        if len(self.warnings) < w.MAX_WARNINGS:
            self.warnings.append((code, event, addr))

    # -- setup: the state before the first event ------------------------------------------------------------------

    def setup(self, segs: SegmentMap, history: BlockHistory) -> dict[str, int]:
        """Start from the segments and blocks the backward pass found; the counters before the first event."""
        self.segs = segs
        self.known_size = {int(i): int(history.known_size[i]) for i in np.flatnonzero(history.known_size >= 0)}
        initial_blocks = {
            int(a): _Blk(
                None if s < 0 else int(s), int(r), BlockState.PENDING_FREE if p else BlockState.ALLOCATED, int(k)
            )
            for a, s, r, k, p in zip(
                history.addr, history.size, history.requested, history.stack, history.pending, strict=True
            )
        }
        for initial_seg in self.segs:
            initial_seg.pieces = [self._new_piece(initial_seg.start, initial_seg.size, initial_seg, -1)]
            self.reserved += initial_seg.size
        ordered = sorted(initial_blocks)
        self.starts = list(ordered)
        for pos, addr in enumerate(ordered):
            blk = initial_blocks[addr]
            seg = self.segs.containing(addr)
            if seg is None:
                self._warn(w.W_BLOCK_NO_SEGMENT, -1, addr)
                end = addr + (blk.requested if blk.size is None else blk.size)
                above = bisect.bisect_right(self.segs.starts(), addr)  # a stand-in segment overlaps none
                if above < len(self.segs):
                    end = min(end, self.segs.starts()[above])
                seg = LiveSegment(addr, end, 0, None, 0, False, NO_STACK)
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
        return self._counters()

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

    def _counters(self) -> dict[str, int]:
        return {
            "reserved": self.reserved,
            "allocated": self.allocated,
            "requested": self.requested,
            "active": self.active_bytes,
            "largest_free": self.largest_gap(),
            "segments": len(self.segs),
        }

    # -- the replay ------------------------------------------------------------------------------------------------

    def run(self, keyframe_interval: int, counters: dict[str, I64], block_sizes: I64) -> None:
        """Replay every event, writing the counters right after it (reserved, allocated, requested, active,
        largest_free, segments: the compiled twin takes these columns one by one) and the block size it moves."""
        out_reserved, out_allocated, out_requested = counters["reserved"], counters["allocated"], counters["requested"]
        out_active, out_largest, out_segments = counters["active"], counters["largest_free"], counters["segments"]
        t = self.trace
        n = self.n
        k = keyframe_interval
        self.block_sizes = block_sizes
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
                self.ooms.append(i)
            out_reserved[i] = self.reserved
            out_allocated[i] = self.allocated
            out_requested[i] = self.requested
            out_active[i] = self.active_bytes
            out_largest[i] = self.largest_gap()
            out_segments[i] = len(self.segs)
        if n % k == 0:  # a keyframe for "after the last event" keeps state_at's indexing uniform
            self.keyframes.append(np.fromiter(self.active.values(), np.int64, len(self.active)))

    def _alloc(self, i: int, addr: int, requested: int, stack: int) -> None:
        if addr in self.active:
            self._warn(w.W_ALLOC_LIVE, i, addr)
            return
        seg = self.segs.containing(addr)
        if seg is None:
            self._warn(w.W_ALLOC_NO_SEGMENT, i, addr)
            return
        gap = addr if addr in self.gap_end else self._gap_containing(addr, seg)
        if gap is None:
            self._warn(w.W_ALLOC_NOT_FREE, i, addr)
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
            self._warn(w.W_FREE_REQ_NOT_LIVE, i, addr)
            return
        if self.life_pend[lid] == NEVER:
            self.life_pend[lid] = i
            self.allocated -= self.life_size[lid]
            self.requested -= self.life_req[lid]
        self.block_sizes[i] = self.life_size[lid]

    def _free_completed(self, i: int, addr: int) -> None:
        lid = self.active.pop(addr, None)
        if lid is None:
            self._warn(w.W_FREE_DONE_NOT_LIVE, i, addr)
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
        seg = segment_from_event(self.trace, i, expandable=False)
        if self.segs.overlaps(seg.start, seg.end):
            self._warn(w.W_SEG_ALLOC_OVER, i, seg.start)
            return
        seg.pieces = [self._new_piece(seg.start, seg.size, seg, i)]
        self.segs.add(seg)
        self._add_gap(seg.start, seg.end)
        self.reserved += seg.size

    def _segment_free(self, i: int, addr: int) -> None:
        seg = self.segs.by_start.get(addr)
        if seg is None or self.gap_end.get(addr) != seg.end:
            self._warn(w.W_SEG_FREE_NOT_FREE, i, addr)
            if seg is None:
                return
        else:
            self._remove_gap(addr)
        self.segs.remove(seg)
        for p in seg.pieces:
            self.piece_rows[p][8] = i
        self.reserved -= seg.size

    def _segment_map(self, i: int) -> None:
        template = segment_from_event(self.trace, i, expandable=True)
        start, end = template.start, template.end
        if self.segs.overlaps(start, end):  # only a broken trace maps memory twice
            self._warn(w.W_SEG_MAP_OVER, i, start)
            return
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
            self._warn(w.W_UNMAP_NOT_FREE, i, addr)
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

    def result(self) -> ReplayResult:
        """Lifetimes, pieces and keyframes as columns, in the same shape and types as the compiled kernel's."""
        rows = np.asarray(self.piece_rows, np.int64).reshape(-1, 9)
        return {
            "life": [
                np.asarray(self.life_addr, np.int64),
                np.asarray(self.life_size, np.int64),
                np.asarray(self.life_req, np.int64),
                np.asarray(self.life_stack, np.int32),
                np.asarray(self.life_start, np.int64),
                np.asarray(self.life_pend, np.int64),
                np.asarray(self.life_end, np.int64),
            ],
            "pieces": [rows[:, c].astype(np.int32 if c in (3, 4, 5, 6) else np.int64) for c in range(9)],
            "keyframes": self.keyframes,
            "ooms": self.ooms,
            "warnings": self.warnings,
            "rule_mismatches": self.rule_mismatches,
        }
