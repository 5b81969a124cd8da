"""The backward pass of time travel: the blocks and segments live before a trace's first event, from the final state.

Blocks need no replay: undoing each alloc / free_requested / free_completed from the final live blocks, newest first,
tells which blocks were live before the trace and the final size of every allocation still live at its end. Segment
events are few, so they too are undone one by one from the final segments.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gpumem_gui.core.analysis.replay_warnings import MAX_WARNINGS, W_HISTORY_ALLOC, W_HISTORY_FREE
from gpumem_gui.core.analysis.segment_map import LiveSegment, SegmentMap
from gpumem_gui.core.rules.allocator_constants import SMALL_BUFFER
from gpumem_gui.core.snapshot.model import I64, NO_STACK, Action, AllocatorState, BlockState, TraceTable
from gpumem_gui.core.snapshot.sentences import QT_TRANSLATE_NOOP, say


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
    warnings: list[tuple[int, int, int]]  # (code of replay_warnings, event, address), as the forward pass reports


def frees_carry_alloc_stacks(trace: TraceTable) -> bool:
    """Whether the trace's frees repeat their allocation's stack (recorded with context="alloc", and the simulator's
    files) rather than the stack of the free (context="all", the default): true when every free whose allocation
    the trace has, and that has a stack, has that allocation's stack. Then the free of a block allocated before the
    trace says where it was allocated; otherwise it says only where it was freed, which is no site of the block."""
    rows = np.flatnonzero((trace.action == Action.ALLOC) | (trace.action == Action.FREE_REQUESTED))
    order = rows[np.lexsort((rows, trace.addr[rows]))]  # by address, then in trace order
    act, addr, stack = trace.action[order], trace.addr[order], trace.stack[order]
    pair = (act[:-1] == Action.ALLOC) & (act[1:] == Action.FREE_REQUESTED) & (addr[:-1] == addr[1:])
    pair &= stack[1:] >= 0
    return bool(pair.any()) and bool(np.all(stack[:-1][pair] == stack[1:][pair]))


def block_history(trace: TraceTable, final: AllocatorState) -> BlockHistory:
    """Undo the block events, newest first, from the final live blocks (the pure twin of _replay.pyx's history()).

    One walk in the compiled kernel's own order, so the two find the same blocks and warn the same way on any
    trace, a broken one included (alloc of a block that is not live afterwards, free of one that is). A block the
    trace shows only being freed keeps the free's stack only where frees carry allocation stacks
    (frees_carry_alloc_stacks): a free's own stack names the line that freed it, not the one that allocated it.
    """
    keep_free_stack = frees_carry_alloc_stacks(trace)
    n = len(trace)
    fb = final.blocks
    live_rows = np.flatnonzero(fb.state != BlockState.INACTIVE)
    h_addr: list[int] = fb.address[live_rows].tolist()
    h_size: list[int] = fb.size[live_rows].tolist()
    h_req: list[int] = fb.requested_size[live_rows].tolist()
    h_stack: list[int] = fb.stack[live_rows].tolist()
    h_pending: list[int] = (fb.state[live_rows] == BlockState.PENDING_FREE).astype(np.int64).tolist()
    h_alive = [True] * len(h_addr)
    live = {a: row for row, a in enumerate(h_addr)}
    known = np.full(n, -1, np.int64)
    warnings: list[tuple[int, int, int]] = []

    def warn(code: int, event: int, addr: int) -> None:
        if len(warnings) < MAX_WARNINGS:
            warnings.append((code, event, addr))

    def add(a: int, i: int, pending: int) -> None:
        live[a] = len(h_addr)
        h_addr.append(a)
        h_size.append(-1)
        h_req.append(int(trace.size[i]))
        h_stack.append(int(trace.stack[i]) if keep_free_stack else NO_STACK)
        h_pending.append(pending)
        h_alive.append(True)

    rows = np.flatnonzero(trace.action <= Action.FREE_COMPLETED)
    actions, addrs = trace.action[rows].tolist(), trace.addr[rows].tolist()
    for i, act, a in zip(rows[::-1].tolist(), actions[::-1], addrs[::-1], strict=True):
        row = live.get(a)
        if act == Action.ALLOC:
            if row is None:
                warn(W_HISTORY_ALLOC, i, a)
                continue
            if h_size[row] >= 0:
                known[i] = h_size[row]
            h_alive[row] = False
            del live[a]
        elif act == Action.FREE_REQUESTED:
            if row is not None:
                h_pending[row] = 0
                continue
            add(a, i, 0)
        else:
            if row is not None:
                warn(W_HISTORY_FREE, i, a)
                h_alive[row] = False
            add(a, i, 1)
    alive = np.asarray(h_alive, bool)
    cols = [np.asarray(c, np.int64)[alive] for c in (h_addr, h_size, h_req, h_stack, h_pending)]
    order = np.argsort(cols[0], kind="stable")
    addr, size, req, stack, pending = (c[order] for c in cols)
    return BlockHistory(addr, size, req, stack, pending.astype(bool), known, warnings)


def segment_from_event(trace: TraceTable, i: int, expandable: bool) -> LiveSegment:
    """The segment (or mapped range) that segment event `i` allocates, frees, maps or unmaps."""
    addr, size = int(trace.addr[i]), int(trace.size[i])
    pool = int(trace.pool[i]) if trace.pool[i] >= 0 else 0
    # A cudaMalloc'ed segment is small exactly when it is kSmallBuffer; an expandable run is decided by its
    # neighbours or its first allocation, since both pools map whole pages.
    small: bool | None = size == SMALL_BUFFER if not expandable else None
    return LiveSegment(addr, addr + size, int(trace.stream[i]), small, pool, expandable, int(trace.stack[i]))


def final_segments(final: AllocatorState) -> SegmentMap:
    segs = SegmentMap()
    s = final.segments
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


def backward_segments(trace: TraceTable, final: AllocatorState) -> tuple[SegmentMap, list[str]]:
    """Segments before the first event: undo the (few) segment events from the final segments; and what did not fit."""
    t = trace
    segs = final_segments(final)
    warnings: list[str] = []
    rows = np.flatnonzero(t.action >= Action.SEGMENT_ALLOC)
    for i in rows[::-1].tolist():
        a, addr, size = int(t.action[i]), int(t.addr[i]), int(t.size[i])
        if a == Action.SEGMENT_ALLOC:
            seg = segs.by_start.get(addr)
            if seg is None:
                warnings.append(
                    say(
                        QT_TRANSLATE_NOOP(
                            "Warnings", "event {event}: segment_alloc of {address} is not there afterwards"
                        ),
                        event=i,
                        address=f"{addr:#x}",
                    )
                )
            else:
                segs.remove(seg)
        elif a == Action.SEGMENT_FREE:
            if segs.overlaps(addr, addr + size):  # a broken trace: the memory it frees is in use afterwards
                warnings.append(
                    say(
                        QT_TRANSLATE_NOOP(
                            "Warnings", "event {event}: segment_free of {address}, whose memory is a segment afterwards"
                        ),
                        event=i,
                        address=f"{addr:#x}",
                    )
                )
            else:
                segs.add(segment_from_event(t, i, expandable=False))
        elif a == Action.SEGMENT_MAP:
            if segs.unmap_range(addr, addr + size) is None:
                warnings.append(
                    say(
                        QT_TRANSLATE_NOOP(
                            "Warnings", "event {event}: segment_map of {address} is not mapped afterwards"
                        ),
                        event=i,
                        address=f"{addr:#x}",
                    )
                )
        elif a == Action.SEGMENT_UNMAP:
            if segs.overlaps(addr, addr + size):
                warnings.append(
                    say(
                        QT_TRANSLATE_NOOP(
                            "Warnings", "event {event}: segment_unmap of {address}, whose memory is mapped afterwards"
                        ),
                        event=i,
                        address=f"{addr:#x}",
                    )
                )
            else:
                segs.map_range(addr, addr + size, segment_from_event(t, i, expandable=True))
    return segs, warnings
