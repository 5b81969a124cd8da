"""Private pools a trace does not name, inferred from recorded segments the default pool had no need of."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from itertools import islice
from typing import TYPE_CHECKING, Any

import numpy as np

from gpumem_gui.core.allocator.pool_rows import row_pools
from gpumem_gui.core.snapshot.model import Action

if TYPE_CHECKING:
    import numpy.typing as npt

    from gpumem_gui.core.analysis.timetravel import DeviceTimeline
    from gpumem_gui.core.snapshot.model import TraceTable

# the first half of an inferred pool's id: torch counts its own (graph pools {n, 0}, MemPools {0, n}) up from 1, so
# an id this high names no pool of the program's; the second half counts the inferred pools from 1
INFERRED_POOL = 2**62 - 1
MAX_POOLS = 8  # inferred pools a replay assumes at most
MAX_SEGMENTS = 32  # inferred segments (one replay more each) at most

_ACQUIRES = (int(Action.SEGMENT_ALLOC), int(Action.SEGMENT_MAP))
_RELEASES = (int(Action.SEGMENT_FREE), int(Action.SEGMENT_UNMAP))
_DEVICE_CALLS = (*_ACQUIRES, *_RELEASES)
_MADE = ("segment_alloc", "segment_map")


@dataclass(frozen=True)
class InferredSegment:
    event: int  # the recorded segment_alloc or segment_map that made it
    address: int
    size: int
    released: int | None  # the recorded event that gave it back (None: still there at the end)
    piece: int  # its index in the timeline's pieces

    def as_dict(self) -> dict[str, Any]:
        return {"event": self.event, "address": self.address, "size": self.size, "released": self.released}


@dataclass(frozen=True)
class InferredPool:
    """A private pool the replay assumed: the trace names no pool (torch before 2.13 writes no pool_id) and the final
    snapshot no longer holds its segments (a MemPool deleted, a graph destroyed), yet the recorded allocator made
    these segments for requests the default pool had cached memory for."""

    pool_id: tuple[int, int]
    segments: tuple[InferredSegment, ...]

    def as_dict(self) -> dict[str, Any]:
        return {"pool_id": list(self.pool_id), "segments": [s.as_dict() for s in self.segments]}


def unnamed_pool_segment(  # noqa: PLR0917 (a replay's state, read where it parted from the recording)
    trace: TraceTable,
    pools: list[Any],
    timeline: DeviceTimeline,
    inferred: list[InferredPool],
    divergence: int,
    feed: Any,
    sim: Any,
) -> list[InferredPool] | None:
    """The inferred pools with one recorded segment more, where the replay parted at `divergence` in the shape an
    unnamed pool leaves: the recorded allocator made a new segment (segment_alloc or segment_map) for a default-pool
    request that the replay served from memory it had cached, with no device call. None: not that shape, or the
    bounds are reached.

    The segment added: the recorded one the replay's cached block lies in, where that one was made while an inferred
    pool lived (the replay had left it in the default pool: its request matched, as the pool's own first request in
    it would); else the new recorded segment, joining the latest inferred pool that still holds a segment then (one
    pool's segments are made while it lives) or starting a pool of its own.

    `pools`: the replay's per-row pools (row_pools); `feed`, `sim`: the replay's feed and simulator."""
    actions = trace.action
    n = len(actions)
    if int(actions[divergence]) in _RELEASES and inferred:
        return _released_with(trace, pools, timeline, inferred, divergence)
    if int(actions[divergence]) not in _ACQUIRES or pools[divergence] is not None:
        return None
    request = divergence + 1
    while request < n and int(actions[request]) in _DEVICE_CALLS:
        request += 1
    if request >= n or actions[request] != Action.ALLOC or pools[request] is not None:
        return None
    start, size = int(trace.addr[divergence]), int(trace.size[divergence])
    at, asked = int(trace.addr[request]), int(trace.size[request])
    if at + asked <= start or at >= start + size:
        return None  # the request did not land in the new segment: something else made it
    marks = feed.marks
    end = marks[request + 1] if request + 1 < len(marks) else sim.trace_length
    made = list(islice(sim._trace, marks[divergence], end))
    served = [entry[1] for entry in made if entry[0] == "alloc"]
    if not served or any(entry[0] in _MADE for entry in made):
        return None  # the replay too needed the device (or failed): no cached block served it
    if sum(len(p.segments) for p in inferred) >= MAX_SEGMENTS:
        return None
    pieces = timeline.pieces
    cached = _recorded_piece(timeline, feed.places, served[-1], request)
    if cached is not None and pieces.pool[cached] == 0 and not _taken(inferred, cached):
        for j in range(len(inferred) - 1, -1, -1):
            if _lives(inferred[j], int(pieces.start[cached])):
                return _grown(inferred, j, _segments(timeline, cached, n))
    found = np.flatnonzero((pieces.start == divergence) & (pieces.addr == start))
    if not len(found) or pieces.pool[found[0]] != 0 or _taken(inferred, int(found[0])):
        return None
    segments = _segments(timeline, int(found[0]), n)
    for j in range(len(inferred) - 1, -1, -1):
        if _lives(inferred[j], divergence):
            return _grown(inferred, j, segments)
    if len(inferred) >= MAX_POOLS:
        return None
    pool_id = (INFERRED_POOL, len(inferred) + 1)
    while pool_id in timeline.pool_ids:  # never one the file names
        pool_id = (INFERRED_POOL, pool_id[1] + 1)
    return [*inferred, InferredPool(pool_id, segments)]


def _released_with(
    trace: TraceTable, pools: list[Any], timeline: DeviceTimeline, inferred: list[InferredPool], divergence: int
) -> list[InferredPool] | None:
    """The inferred pools with the default-pool segments that the recorded run of releases around `divergence` gives
    back together with an inferred pool's segments, made while that pool lived: the program released the pool (a
    MemPool deleted) and the pool's cached segments went back at once. A segment the replay left in the default pool
    because its first request made a segment there too (alike in size) parts from the recording only here."""
    actions = trace.action
    lo = hi = divergence
    while lo > 0 and int(actions[lo - 1]) in _RELEASES:
        lo -= 1
    while hi + 1 < len(actions) and int(actions[hi + 1]) in _RELEASES:
        hi += 1
    ids = [pool.pool_id for pool in inferred]
    released = {ids.index(pools[r]) for r in range(lo, hi + 1) if pools[r] in ids}
    if len(released) != 1:
        return None
    j = released.pop()
    p = timeline.pieces
    joined: list[InferredSegment] = []
    for k in np.flatnonzero((p.end >= lo) & (p.end <= hi) & (p.pool == 0)).tolist():
        if not _taken(inferred, k) and _lives(inferred[j], int(p.start[k])):
            joined += [s for s in _segments(timeline, k, len(actions)) if s not in joined]
    if not joined or sum(len(pool.segments) for pool in inferred) + len(joined) > MAX_SEGMENTS:
        return None
    return _grown(inferred, j, tuple(joined))


def _taken(inferred: list[InferredPool], piece: int) -> bool:
    return any(s.piece == piece for pool in inferred for s in pool.segments)


def _lives(pool: InferredPool, row: int) -> bool:
    """Whether one of the pool's segments was there at recorded event `row`."""
    return any(s.event < row and (s.released is None or s.released > row) for s in pool.segments)


def _grown(inferred: list[InferredPool], j: int, segments: tuple[InferredSegment, ...]) -> list[InferredPool]:
    pool = inferred[j]
    return [*inferred[:j], dataclasses.replace(pool, segments=(*pool.segments, *segments)), *inferred[j + 1 :]]


def _recorded_piece(timeline: DeviceTimeline, places: Any, replayed_addr: int, row: int) -> int | None:
    """The recorded segment (piece) alive at `row` that the replay's address lies in, through the ranges the replay
    paired with recorded ones (Places: recorded start -> (end, offset to the replay's))."""
    recorded_addr = None
    for lo, (hi, offset) in places.spans.items():
        if lo + offset <= replayed_addr < hi + offset:
            recorded_addr = replayed_addr - offset
            break
    if recorded_addr is None:
        return None
    p = timeline.pieces
    hit = np.flatnonzero(
        (p.addr <= recorded_addr) & (p.addr + p.size > recorded_addr) & (p.start <= row) & (p.end > row)
    )
    return int(hit[0]) if len(hit) else None


def _segments(timeline: DeviceTimeline, k: int, n: int) -> tuple[InferredSegment, ...]:
    """Piece `k` as an inferred segment, with the pieces one expandable segment grew by (mapped ranges touching it on
    its stream while it is mapped): they are the same segment, of the same pool."""
    p = timeline.pieces
    chain = [k]
    if p.expandable[k]:
        todo = [k]
        while todo:
            j = todo.pop()
            lo, hi = int(p.addr[j]), int(p.addr[j] + p.size[j])
            touching = np.flatnonzero(
                p.expandable
                & (p.stream == p.stream[j])
                & ((p.addr + p.size == lo) | (p.addr == hi))
                & (p.start < p.end[j])
                & (p.end > p.start[j])
                & (p.pool == 0)
            )
            for t in touching.tolist():
                if t not in chain:
                    chain.append(t)
                    todo.append(t)
    out = []
    for j in sorted(chain, key=lambda j: int(p.start[j])):
        released = None if p.end[j] >= n else int(p.end[j])
        out.append(InferredSegment(int(p.start[j]), int(p.addr[j]), int(p.size[j]), released, j))
    return tuple(out)


def with_inferred(
    trace: TraceTable,
    timeline: DeviceTimeline,
    inferred: list[InferredPool],
    at: npt.NDArray[np.int64] | None = None,
) -> list[Any]:
    """Per row of `trace`, its private pool as row_pools names it, with each inferred pool's segments given to that
    pool for their recorded lives (so every unnamed event in them goes there, as for a pool the final snapshot
    names)."""
    pool_ids = list(timeline.pool_ids)
    piece_pools = np.array(timeline.pieces.pool, copy=True)
    for pool in inferred:
        index = len(pool_ids)
        pool_ids.append(pool.pool_id)
        for segment in pool.segments:
            piece_pools[segment.piece] = index
    pieces = dataclasses.replace(timeline.pieces, pool=piece_pools)
    return row_pools(trace, pool_ids, pieces, at)
