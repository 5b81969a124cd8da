"""The backward pass of time travel: the blocks and segments live before a trace's first event, from the final state.

Blocks need no replay: pairing each address's alloc / free_requested / free_completed events (one sort) tells which
blocks were live before the trace and the final size of every allocation still live at its end. Segment events are
few, so they are undone one by one from the final segments.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gpumem_gui.core.analysis.segment_map import LiveSegment, SegmentMap
from gpumem_gui.core.rules.allocator_constants import SMALL_BUFFER
from gpumem_gui.core.snapshot.model import I64, Action, AllocatorState, BlockState, TraceTable


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
                warnings.append(f"event {i}: segment_alloc of {addr:#x} is not there afterwards")
            else:
                segs.remove(seg)
        elif a == Action.SEGMENT_FREE:
            segs.add(segment_from_event(t, i, expandable=False))
        elif a == Action.SEGMENT_MAP:
            if segs.unmap_range(addr, addr + size) is None:
                warnings.append(f"event {i}: segment_map of {addr:#x} is not mapped afterwards")
        elif a == Action.SEGMENT_UNMAP:
            segs.map_range(addr, addr + size, segment_from_event(t, i, expandable=True))
    return segs, warnings
