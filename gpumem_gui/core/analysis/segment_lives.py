"""Each cached segment's life over a device's trace: created, grown, shrunk, freed, stacked as PyTorch's viewer draws
its "Active Cached Segment Timeline".

A plain segment is one of the timeline's pieces: created by its segment_alloc (or alive before the trace), freed by
its segment_free. An expandable segment is one virtual range whose pages are mapped and unmapped piece by piece: the
pieces of one stream and pool that touch (at any time) belong to one range; its life begins when its first page is
mapped, grows with each segment_map, shrinks with each segment_unmap and ends when nothing of it is mapped (a later
map begins a new life). The lives stack in order of creation, each over those created before it that are still
alive, so that a freed segment lets those above it drop, and the stack's top is the reserved series at every event.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from gpumem_gui.core.analysis.site_series import TotalIndex, sample_events, total_index
from gpumem_gui.core.analysis.timetravel import NEVER, DeviceTimeline, Pieces
from gpumem_gui.core.snapshot.model import I64

MAX_BANDS = 300  # lives drawn one by one; the rest (the smallest by their own peak) share one band at the bottom


@dataclass(frozen=True)
class SegmentLife:
    """One segment's life: its size right after each event where it changed (the first: its creation, -1 when it
    was there before the trace; a last size of 0: its release)."""

    address: int
    stream: int
    small: bool
    expandable: bool
    stack: int  # the stack of its first allocation or mapping (-1: none recorded)
    events: I64
    sizes: I64

    @property
    def created(self) -> int:
        return int(self.events[0])

    @property
    def freed(self) -> int:
        """The event that released it (NEVER: still cached at the end of the trace)."""
        return int(self.events[-1]) if self.sizes[-1] == 0 else NEVER

    @property
    def peak(self) -> int:
        return int(self.sizes.max())

    @property
    def grown(self) -> int:
        """How many times it grew after its creation (expandable segments: pages mapped onto it)."""
        return int(np.count_nonzero(np.diff(self.sizes) > 0))

    @property
    def shrunk(self) -> int:
        """How many times it shrank without being released (pages unmapped)."""
        return int(np.count_nonzero(np.diff(self.sizes[self.sizes > 0]) < 0))


def segment_lives(pieces: Pieces) -> list[SegmentLife]:
    """Every segment's life, in order of creation (then address)."""
    lives: list[SegmentLife] = []
    plain = np.flatnonzero(~pieces.expandable.astype(bool))
    for i in plain.tolist():
        start, end = int(pieces.start[i]), int(pieces.end[i])
        size = int(pieces.size[i])
        events = [start] if end == NEVER else [start, end]
        sizes = [size] if end == NEVER else [size, 0]
        lives.append(_life(pieces, i, events, sizes))
    for group in _ranges(pieces):
        lives.extend(_range_lives(pieces, group))
    lives.sort(key=lambda life: (life.created, life.address))
    return lives


def _life(pieces: Pieces, first: int, events: list[int], sizes: list[int]) -> SegmentLife:
    return SegmentLife(
        address=int(pieces.addr[first]),
        stream=int(pieces.stream[first]),
        small=bool(pieces.small[first]),
        expandable=bool(pieces.expandable[first]),
        stack=int(pieces.stack[first]),
        events=np.asarray(events, np.int64),
        sizes=np.asarray(sizes, np.int64),
    )


def _ranges(pieces: Pieces) -> list[npt.NDArray[np.int64]]:
    """The expandable pieces grouped by virtual range: same stream and pool, touching or overlapping in address."""
    chosen = np.flatnonzero(pieces.expandable.astype(bool))
    if not len(chosen):
        return []
    pool = np.asarray(pieces.pool)[chosen].astype(str)
    order = np.lexsort((pieces.addr[chosen], pool, pieces.stream[chosen]))
    chosen, pool = chosen[order], pool[order]
    groups: list[list[int]] = []
    reach = -1
    for k, i in enumerate(chosen.tolist()):
        addr, end = int(pieces.addr[i]), int(pieces.addr[i] + pieces.size[i])
        same_kind = bool(k) and pieces.stream[i] == pieces.stream[chosen[k - 1]] and pool[k] == pool[k - 1]
        if same_kind and addr <= reach:
            groups[-1].append(i)
            reach = max(reach, end)
        else:
            groups.append([i])
            reach = end
    return [np.asarray(g, np.int64) for g in groups]


def _range_lives(pieces: Pieces, group: npt.NDArray[np.int64]) -> list[SegmentLife]:
    """The lives of one expandable range: its mapped bytes after each event where they change, cut where none are."""
    starts, ends, sizes = pieces.start[group], pieces.end[group], pieces.size[group]
    finite = ends != NEVER
    events = np.concatenate([starts, ends[finite]])
    deltas = np.concatenate([sizes, -sizes[finite]])
    order = np.argsort(events, kind="stable")
    events, deltas = events[order], deltas[order]
    change = np.flatnonzero(np.append(events[1:] != events[:-1], True))  # the last entry of each event
    at = events[change]
    mapped = np.cumsum(deltas)[change]
    lives: list[SegmentLife] = []
    begin = 0
    for k in range(len(at)):
        if mapped[k] == 0 or k == len(at) - 1:
            span = slice(begin, k + 1)
            if mapped[span].any():
                opened = group[starts == at[begin]]  # the pieces mapped when this life began: the lowest names it
                first = int(opened[np.argmin(pieces.addr[opened])]) if len(opened) else int(group[0])
                lives.append(_life(pieces, first, at[span].tolist(), mapped[span].tolist()))
            begin = k + 1
    return lives


@dataclass(frozen=True)
class SegmentSeries:
    """The lives of one timeline, ready to be sampled as stacked bands: band 0 is every life past the MAX_BANDS
    largest (empty when there are few), then the drawn lives in order of creation."""

    n_events: int
    lives: tuple[SegmentLife, ...]  # every life, in order of creation
    drawn: tuple[int, ...]  # the lives with a band of their own (indices into lives), in order of creation
    keys: I64  # change points, sorted: band * (n_events + 2) + event + 1
    values: I64  # the band's bytes right after each change point
    index: TotalIndex  # the reserved series, to choose the events a zoomed range is drawn at

    @property
    def n_bands(self) -> int:
        return len(self.drawn) + 1

    def at(self, events: npt.ArrayLike) -> I64:
        """Bytes of every band right after each of `events` (-1: before the first): shape (bands, len(events))."""
        u = np.asarray(events, np.int64).reshape(-1) + 1
        stride = self.n_events + 2
        query = (np.arange(self.n_bands, dtype=np.int64)[:, None] * stride + u[None, :]).reshape(-1)
        found = np.searchsorted(self.keys, query, "right") - 1
        own = found >= 0
        own[own] = self.keys[found[own]] // stride == query[own] // stride
        out = np.where(own, self.values[np.maximum(found, 0)], 0)
        return out.reshape(self.n_bands, len(u))

    def sample(self, lo: float, hi: float, bins: int) -> tuple[I64, I64]:
        """The events that draw [lo, hi] at `bins` columns (each column's lowest and highest reserved bytes) and
        every band's bytes right after each."""
        events = sample_events(self.index, lo, hi, bins)
        return events, self.at(events)

    def band_life(self, band: int) -> SegmentLife | None:
        """The life band `band` draws (None for the band of the many small ones)."""
        return self.lives[self.drawn[band - 1]] if band >= 1 else None


def segment_series(timeline: DeviceTimeline, max_bands: int = MAX_BANDS) -> SegmentSeries:
    """The stacked lives of `timeline` (numpy over its pieces: a few ms for thousands of segments)."""
    lives = segment_lives(timeline.pieces)
    peaks = np.asarray([life.peak for life in lives], np.int64)
    if len(lives) > max_bands:
        largest = np.sort(np.argsort(-peaks, kind="stable")[:max_bands])
    else:
        largest = np.arange(len(lives))
    drawn = tuple(int(i) for i in largest)
    stride = timeline.n_events + 2
    keys: list[I64] = []
    values: list[I64] = []
    rest = np.ones(len(lives), bool)
    rest[list(drawn)] = False
    if rest.any():  # band 0: the sum of the small ones' sizes at each of their changes
        ev = np.concatenate([lives[i].events for i in np.flatnonzero(rest)])
        dv = np.concatenate([np.diff(lives[i].sizes, prepend=0) for i in np.flatnonzero(rest)])
        order = np.argsort(ev, kind="stable")
        ev, total = ev[order], np.cumsum(dv[order])
        last = np.append(ev[1:] != ev[:-1], True)
        keys.append(ev[last] + 1)
        values.append(total[last])
    for band, i in enumerate(drawn, start=1):
        keys.append(band * stride + lives[i].events + 1)
        values.append(lives[i].sizes)
    key = np.concatenate(keys) if keys else np.zeros(0, np.int64)
    value = np.concatenate(values) if values else np.zeros(0, np.int64)
    order = np.argsort(key, kind="stable")
    index = total_index(timeline, "reserved")
    return SegmentSeries(timeline.n_events, tuple(lives), drawn, key[order], value[order], index)
