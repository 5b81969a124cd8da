"""How far a request could have grown into expandable segments: the free tail at a segment's end plus the pages mapped.

The rule is PyTorch's (c10/cuda/CUDACachingAllocator.cpp, `find_expandable_block`, `try_allocate_expandable_block`,
`map_block`): a request no free block serves walks the pool's unmapped ranges of its stream in address order; at each
it starts from the free block just before the range (the segment's free tail), and it takes the first range whose
free and unmapped bytes from there, in a row, reach the request. It then maps the whole pages the request still
needs onto that range (20 MiB pages in the large pool, 2 MiB in the small one); when the device cannot give them all,
the request fails: the allocator does not go on to another range. With no range that large it reserves a new
segment and maps the request's pages from its start.

A snapshot holds only the mapped runs of each reservation. The unmapped space is read from them: a reservation
spans 1 1/8 of the device's memory in whole pages (the device's memory taken as what the OOM saw, reserved plus
free, as the replay takes it) from the first run of the pool and stream, and its unmapped ranges are the whole
pages between its runs and after its last one; a run past its end starts the next reservation. Unmapped space
before a reservation's first run cannot be seen and is not counted.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gpumem_gui.core.rules.allocator_constants import LARGE_BUFFER, SMALL_BUFFER
from gpumem_gui.core.snapshot.model import AllocatorState, BlockState


@dataclass(frozen=True)
class PageGrowth:
    """Where a request grows: the run whose free tail it starts from, that tail, and the pages it maps."""

    segment: int  # the address of that run; -1 for a new reservation
    tail_bytes: int  # the free block at the run's end the request takes first (0: none, or a new reservation)
    map_bytes: int  # the whole pages it maps after the tail
    bytes: int  # all it takes: the tail, the pages, and any free block of a run it reaches past them


@dataclass(frozen=True)
class ExpandableRoom:
    page_bytes: int
    pages_free: int  # whole pages the device's free memory could still map
    limit_bytes: int  # the largest rounded request above `above` that would have been served, with all below it
    limit: PageGrowth  # how that request would have been served
    request: PageGrowth  # what the failing request needed: where it would grow, and the pages it maps


@dataclass(frozen=True)
class _Range:
    """An unmapped range, with the free bytes a request walks through from the tail before it (PyTorch's
    `has_available_address_space`): the tail, the range, then the next run's leading free block, and so on while
    the next run is wholly free."""

    segment: int
    tail: int
    steps: tuple[tuple[bool, int], ...]  # (unmapped, bytes) after the tail, in address order

    @property
    def room(self) -> int:
        return self.tail + sum(size for _, size in self.steps)


def _ranges(state: AllocatorState, stream: int, small: bool, page: int, capacity: int) -> list[_Range]:
    seg, blk = state.segments, state.blocks
    span = -(-(capacity * 9 // 8) // page) * page  # a reservation's size (ExpandableSegment's max_handles pages)
    rows = np.flatnonzero(seg.is_expandable & (seg.stream == stream) & (seg.is_small == small))
    rows = rows[np.argsort(seg.address[rows], kind="stable")]
    free = blk.state == BlockState.INACTIVE
    runs = []  # (address, end, leading free bytes, trailing free bytes, wholly free)
    for s in rows.tolist():
        first, count = int(seg.block_start[s]), int(seg.block_count[s])
        states = free[first : first + count]
        sizes = blk.size[first : first + count]
        busy = np.flatnonzero(~states)
        lead = int(sizes[: busy[0]].sum()) if len(busy) else int(sizes.sum())
        tail = int(sizes[busy[-1] + 1 :].sum()) if len(busy) else int(sizes.sum())
        address = int(seg.address[s])
        runs.append((address, address + int(seg.total_size[s]), lead, tail, not len(busy)))
    ends: list[int] = []  # the end of each run's reservation
    for k, (address, _end, _lead, _tail, _whole) in enumerate(runs):
        ends.append(ends[-1] if k and address < ends[-1] else address + span)
    out = []
    for k, (address, end, _lead, tail, _whole) in enumerate(runs):
        steps: list[tuple[bool, int]] = []
        at, j = end, k + 1
        while True:  # the walk of has_available_address_space: unmapped pages, then a free block, while free
            last = j == len(runs) or ends[j] != ends[k]
            steps.append((True, ((ends[k] if last else runs[j][0]) - at) // page * page))
            if last:
                break
            _address, nxt_end, nxt_lead, _tail, nxt_whole = runs[j]
            if nxt_lead:
                steps.append((False, nxt_lead))
            if not nxt_whole:
                break
            at, j = nxt_end, j + 1
        out.append(_Range(address, tail, tuple(steps)))
    return out


def _grow(r: _Range, request: int, page: int) -> PageGrowth:
    """The pages a request maps when it grows into range `r` (which has room for it)."""
    have, mapped = r.tail, 0
    for unmapped, size in r.steps:
        if have >= request:
            break
        if unmapped:
            need = min(-(-(request - have) // page) * page, size)
            mapped += need
            have += need
        else:
            have += size
    return PageGrowth(r.segment, r.tail, mapped, have)


def _limit(r: _Range, pages: int, page: int) -> PageGrowth:
    """The most a request can take in range `r` when the device can map `pages` more pages."""
    have, mapped = r.tail, 0
    for unmapped, size in r.steps:
        if not unmapped:
            have += size
            continue
        take = min(size, (pages - mapped // page) * page)
        mapped += take
        have += take
        if take < size:
            break
    return PageGrowth(r.segment, r.tail, mapped, have)


def expandable_room(
    state: AllocatorState, stream: int, small: bool, request: int, *, device_free: int, above: int
) -> ExpandableRoom:
    """Where `request` (rounded) would have grown, and the largest request that would have been served, every one
    from `above` (what free blocks already serve) up to it included, in the state at the OOM."""
    page = SMALL_BUFFER if small else LARGE_BUFFER
    pages = max(device_free, 0) // page
    capacity = int(state.segments.total_size.sum()) + max(device_free, 0)
    ranges = _ranges(state, stream, small, page, capacity)
    whole = -(-request // page) * page
    new = PageGrowth(-1, 0, whole, whole)
    chosen = next((r for r in ranges if r.room >= request), None)
    needed = _grow(chosen, request, page) if chosen is not None else new
    limit_bytes, limit = above, PageGrowth(-1, 0, 0, 0)
    for r in ranges:
        if r.room <= limit_bytes:
            continue  # requests above the limit so far never stop at this range
        most = _limit(r, pages, page)
        if most.bytes > limit_bytes:
            limit_bytes, limit = most.bytes, most
        if most.bytes < r.room:
            break  # the next request up stops at this range, and fails
    else:  # requests above every range's room get a new reservation
        if pages * page > limit_bytes:
            limit_bytes, limit = pages * page, PageGrowth(-1, 0, pages * page, pages * page)
    return ExpandableRoom(page, pages, limit_bytes, limit, needed)
