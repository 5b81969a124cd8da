"""The segments of one device during a trace replay: lookup by address, and expandable map/unmap of ranges."""

from __future__ import annotations

import bisect
from collections.abc import Iterator
from dataclasses import dataclass, field


@dataclass
class LiveSegment:
    """One segment (or contiguous mapped run of an expandable segment) while a trace is replayed."""

    start: int
    end: int
    stream: int
    small: bool | None  # None: an expandable run whose pool is not known yet (decided by its first allocation)
    pool: int
    expandable: bool
    stack: int
    pieces: list[int] = field(default_factory=list)  # ids of the mapped ranges it is made of

    @property
    def size(self) -> int:
        return self.end - self.start


class SegmentMap:
    """Segments sorted by address. Expandable runs that touch (same stream) are one segment, as PyTorch reports."""

    def __init__(self) -> None:
        self._starts: list[int] = []
        self.by_start: dict[int, LiveSegment] = {}
        self.by_end: dict[int, LiveSegment] = {}

    def __len__(self) -> int:
        return len(self._starts)

    def __iter__(self) -> Iterator[LiveSegment]:
        return (self.by_start[s] for s in self._starts)

    def add(self, seg: LiveSegment) -> None:
        bisect.insort(self._starts, seg.start)
        self.by_start[seg.start] = seg
        self.by_end[seg.end] = seg

    def remove(self, seg: LiveSegment) -> None:
        index = bisect.bisect_left(self._starts, seg.start)
        del self._starts[index]
        del self.by_start[seg.start]
        del self.by_end[seg.end]

    def starts(self) -> list[int]:
        """The segments' start addresses, sorted (the map's own list: do not change it)."""
        return self._starts

    def containing(self, addr: int) -> LiveSegment | None:
        index = bisect.bisect_right(self._starts, addr) - 1
        if index < 0:
            return None
        seg = self.by_start[self._starts[index]]
        return seg if addr < seg.end else None

    def overlaps(self, start: int, end: int) -> bool:
        """Whether some segment shares an address with [start, end)."""
        index = bisect.bisect_left(self._starts, start)
        if index < len(self._starts) and self._starts[index] < end:
            return True
        return index > 0 and self.by_start[self._starts[index - 1]].end > start

    def expandable_neighbours(self, start: int, end: int, stream: int) -> tuple[LiveSegment | None, LiveSegment | None]:
        """The expandable runs of `stream` that end at `start` and begin at `end`, which a mapping there joins."""
        index = bisect.bisect_left(self._starts, start) - 1  # the run just below, as the compiled twin looks
        left = self.by_start[self._starts[index]] if index >= 0 else None
        right = self.by_start.get(end)
        if left is not None and not (left.end == start and left.expandable and left.stream == stream):
            left = None
        if right is not None and not (right.expandable and right.stream == stream):
            right = None
        return left, right

    def map_range(self, start: int, end: int, template: LiveSegment) -> tuple[LiveSegment, int]:
        """Map [start, end): join touching runs. Returns the run now holding it and how many runs it joined."""
        left, right = self.expandable_neighbours(start, end, template.stream)
        joined = 0
        new = LiveSegment(
            start,
            end,
            template.stream,
            template.small,
            template.pool,
            True,
            template.stack,
            list(template.pieces),
        )
        if left is not None:
            self.remove(left)
            new.start, new.stack, new.pieces = left.start, left.stack, left.pieces + new.pieces
            new.small = left.small if left.small is not None else new.small
            joined += 1
        if right is not None:
            self.remove(right)
            new.end = right.end
            new.pieces = new.pieces + right.pieces
            new.small = new.small if new.small is not None else right.small
            joined += 1
        self.add(new)
        return new, joined

    def unmap_range(self, start: int, end: int) -> tuple[LiveSegment, list[LiveSegment]] | None:
        """Unmap [start, end) from the run that holds it; returns that run and what is left of it (0 to 2 runs)."""
        seg = self.containing(start)
        if seg is None or end > seg.end:
            return None
        self.remove(seg)
        parts = []
        for lo, hi in ((seg.start, start), (end, seg.end)):
            if hi > lo:
                part = LiveSegment(lo, hi, seg.stream, seg.small, seg.pool, seg.expandable, seg.stack)
                self.add(part)
                parts.append(part)
        return seg, parts
