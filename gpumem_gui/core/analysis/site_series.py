"""Allocated bytes over a device's trace, stacked in bands by allocation site, category, stream or pool.

Each band is kept as its change points: the events where its live bytes change and the value right after each,
sorted by (band, event). The value of every band at any events is then one searchsorted, so a zoomed range is
re-sampled in O(bands * samples * log) without touching the millions of events in between. The sample points are
chosen on the total (the timeline's allocated series): the events where it is lowest and highest within each pixel
column, so that every peak and trough of the stack stays visible, and each band's value there is exact.

A block counts in its band from its alloc event (-1 when it was live before recording began) until it is freed or
becomes pending free, as the allocated series counts it; the bands therefore sum to that series at every event.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from gpumem_gui.core.analysis.breakdown import (
    UNKNOWN_SITE,
    allocated_mask,
    block_categories,
    block_lifetimes,
    lifetime_reasons,
    nameless_reasons,
)
from gpumem_gui.core.analysis.categories import CATEGORIES, lifetime_categories
from gpumem_gui.core.analysis.metadata_groups import block_metadata, lifetime_metadata
from gpumem_gui.core.analysis.timetravel import NEVER, DeviceTimeline
from gpumem_gui.core.snapshot.marked import QT_TRANSLATE_NOOP
from gpumem_gui.core.snapshot.model import DEFAULT_POOL, I64, AllocatorState, Snapshot
from gpumem_gui.core.snapshot.stacks import NAMELESS_SITES, block_sites, stack_sites

GROUPINGS = ("site", "category", "stream", "pool", "metadata")
TOP_SITES = 10
OTHER_SITES = "other"  # the key of the band of every site outside the top N
# the labels of the bands that are no one site, in English; the window says them in its language (site_words)
OTHER_LABEL = QT_TRANSLATE_NOOP("Sites", "other ({n} {n:site|sites})")
UNKNOWN_NO_FRAMES = QT_TRANSLATE_NOOP("Sites", "unknown (no frames)")


def other_label(n: int) -> str:
    """The label of the band of the `n` sites outside the top N: "other (1 site)", "other (12 sites)"."""
    return f"other ({n} {'site' if n == 1 else 'sites'})"


CHUNK = 64  # events per precomputed extreme of the total: a full view reads n / CHUNK of them
_MAX_WALK = 256  # pieces stepped over, at most, to find the segment a block lies in (real files need 1 to 5)


@dataclass(frozen=True)
class Band:
    key: object  # site label, OTHER_SITES or UNKNOWN_SITE; category name; stream number; pool name
    label: str
    peak_bytes: int  # the band's own peak and the first event it is reached after (-1: before the first event)
    peak_event: int
    stack: int  # the stack holding most of the band's bytes over the trace (-1: none, or a mixed band)


@dataclass(frozen=True)
class TotalIndex:
    """The allocated series from event -1 (`total[u]` is the value after event u - 1) and, per CHUNK of it, where
    it is lowest and highest: computed once per timeline, shared by every grouping."""

    total: I64
    chunk_low: I64  # the index u of each chunk's minimum
    chunk_high: I64


@dataclass(frozen=True)
class BandSeries:
    """One grouping's bands over the trace, ready to be sampled at any events."""

    kind: str
    n_events: int
    bands: tuple[Band, ...]
    lifetime_band: npt.NDArray[np.int32]  # the band of every lifetime of the timeline
    code_band: npt.NDArray[np.int32]  # the band of each group code (site index + 1, category, stream rank, pool)
    codes: tuple[object, ...]  # the key of each group code
    keys: I64  # change points, sorted: band * (n_events + 2) + event + 1
    values: I64  # the band's bytes right after each change point
    index: TotalIndex

    def at(self, events: npt.ArrayLike) -> I64:
        """Bytes of every band right after each of `events` (-1: before the first): shape (bands, len(events))."""
        u = np.asarray(events, np.int64).reshape(-1) + 1
        stride = self.n_events + 2
        query = np.arange(len(self.bands), dtype=np.int64)[:, None] * stride + u[None, :]
        found = np.searchsorted(self.keys, query.reshape(-1), "right") - 1
        # a change point of an earlier band is no value of this one: the band had nothing yet
        own = found >= 0
        own[own] = self.keys[found[own]] // stride == (query.reshape(-1)[own] // stride)
        out = np.where(own, self.values[np.maximum(found, 0)], 0)
        return out.reshape(len(self.bands), len(u))

    def band_at(self, event: int) -> I64:
        """Bytes of every band right after `event`."""
        return self.at([event])[:, 0]

    def band_index(self, key: object) -> int:
        for i, band in enumerate(self.bands):
            if band.key == key:
                return i
        raise KeyError(f"no band {key!r} in the {self.kind} grouping")

    def sample(self, lo: float, hi: float, bins: int) -> tuple[I64, I64]:
        """The events that draw the range [lo, hi] at `bins` columns and every band's bytes right after each: all
        events when they are few, else each column's lowest and highest total (and the range's two ends)."""
        events = sample_events(self.index, lo, hi, bins)
        return events, self.at(events)


@dataclass(frozen=True)
class SiteSeries:
    """Every grouping asked for, of one timeline: the frozen result of the work done off the GUI thread."""

    snapshot: Snapshot
    timeline: DeviceTimeline
    groupings: dict[str, BandSeries]

    def band_at(self, kind: str, event: int) -> I64:
        return self.groupings[kind].band_at(event)

    def mask_of(self, kind: str, key: object, event: int) -> Callable[[AllocatorState], npt.NDArray[np.bool_]]:
        """A spotlight's mask function: the allocated blocks of band `key` in a state (right after `event`)."""
        return lambda state: block_mask(self, state, kind, key, event)


def total_index(timeline: DeviceTimeline, series: str = "allocated") -> TotalIndex:
    """The index of one of the timeline's series (allocated for the site bands, reserved for the segments)."""
    s = timeline.series
    total = np.concatenate([[int(s.initial[series])], getattr(s, series)]).astype(np.int64)
    n = len(total)
    pad = -n % CHUNK
    padded_low = np.concatenate([total, np.full(pad, total[-1])]).reshape(-1, CHUNK)
    base = np.arange(len(padded_low), dtype=np.int64) * CHUNK
    return TotalIndex(total, base + padded_low.argmin(axis=1), base + padded_low.argmax(axis=1))


def build_site_series(
    snapshot: Snapshot, timeline: DeviceTimeline, kinds: Sequence[str] = GROUPINGS, top: int = TOP_SITES
) -> SiteSeries:
    """The bands of each grouping of `kinds` (pure numpy over lifetimes: call it off the GUI thread)."""
    index, order = total_index(timeline), event_order(timeline)
    return SiteSeries(
        snapshot, timeline, {kind: build_bands(snapshot, timeline, kind, top, index, order=order) for kind in kinds}
    )


def build_bands(
    snapshot: Snapshot,
    timeline: DeviceTimeline,
    kind: str,
    top: int = TOP_SITES,
    index: TotalIndex | None = None,
    *,
    order: EventOrder | None = None,
) -> BandSeries:
    """One grouping's bands: sites (the `top` largest by their own peak, then "other", then "unknown"),
    categories, streams or pools. `order`: the timeline's event_order, where several groupings share it."""
    if index is None:
        index = total_index(timeline)
    if order is None:
        order = event_order(timeline)
    life = timeline.lifetimes
    if kind == "site":
        return _site_bands(snapshot, timeline, top, index, order)
    if kind == "category":
        code = lifetime_categories(snapshot, timeline).astype(np.int64)
        codes: tuple[object, ...] = CATEGORIES
        labels = [name.replace("_", " ") for name in CATEGORIES]
    elif kind == "stream":
        piece = lifetime_pieces(timeline)
        trace = snapshot.trace(timeline.device)
        # a block whose segment was not found: its alloc event's stream (that of its segment), else stream 0
        fallback = np.zeros(len(piece), np.int64)
        if len(trace):
            fallback = np.where(life.start >= 0, trace.stream[np.clip(life.start, 0, len(trace) - 1)], 0)
        found = piece >= 0
        stream = np.where(found, timeline.pieces.stream[np.maximum(piece, 0)], fallback) if len(piece) else piece
        # np.unique over a million lifetimes holds the GIL for tens of ms (a stall of the GUI thread): the few
        # distinct streams are found among the pieces, and each lifetime's rank by searchsorted
        streams = np.unique(np.concatenate([timeline.pieces.stream, fallback[~found]]))
        code = np.searchsorted(streams, stream)
        codes = tuple(int(s) for s in streams)
        labels = [f"stream {s}" for s in codes]
    elif kind == "pool":
        pieces = timeline.pieces
        names = pool_names(timeline)
        piece_code = [names.index(n) for n in _pool_keys(pieces.pool, pieces.small, timeline.pool_ids)]
        code = np.asarray([*piece_code, len(names) - 1], np.int64)[lifetime_pieces(timeline)]  # -1: "unknown"
        codes = tuple(names)
        labels = list(names)
    elif kind == "metadata":
        code, labels = lifetime_metadata(snapshot, timeline)
        codes = tuple(labels)
    else:
        raise ValueError(f"unknown grouping {kind!r} (one of {', '.join(GROUPINGS)})")
    code = code.reshape(-1).astype(np.int64)
    keys, values, bounds = _points(timeline, code, len(codes), order)
    peaks = _band_peaks(keys, values, bounds, timeline.n_events)
    kept = [c for c in range(len(codes)) if peaks[c][0] > 0]  # a band that never holds a byte is not drawn
    code_band = np.full(len(codes), -1, np.int32)
    code_band[kept] = np.arange(len(kept), dtype=np.int32)
    lifetime_band = code_band[code] if len(code) else np.zeros(0, np.int32)
    if len(code) and int(code.min()) < 0:  # code -1 indexes code_band from its end: the bands' points anew
        keys, values = _change_points(timeline, lifetime_band.astype(np.int64), len(kept), order)
    else:  # each kept code is its band: its points as they are, renumbered
        keys, values = _renumbered(keys, values, bounds, kept, timeline.n_events + 2)
    bands = tuple(Band(codes[c], labels[c], peaks[c][0], peaks[c][1], -1) for c in kept)
    return BandSeries(kind, timeline.n_events, bands, lifetime_band, code_band, codes, keys, values, index)


def _site_bands(
    snapshot: Snapshot, timeline: DeviceTimeline, top: int, index: TotalIndex, order: EventOrder
) -> BandSeries:
    life = timeline.lifetimes
    _sites, site_labels = stack_sites(snapshot.stacks)
    code = _lifetime_site_codes(snapshot, timeline)
    n_codes = len(site_labels) + len(NAMELESS_SITES)  # unknown first, the sites, the other nameless ones
    keys, values, bounds = _points(timeline, code, n_codes, order)
    peaks = _band_peaks(keys, values, bounds, timeline.n_events)
    del keys, values
    # the sites with a name (a block allocated before recording began that has none is a band of its own)
    named = range(1, len(site_labels) + 1)
    codes = (UNKNOWN_SITE, *site_labels, *NAMELESS_SITES[1:])
    ranked = sorted((c for c in named if peaks[c][0] > 0), key=lambda c: (-peaks[c][0], c))
    chosen, rest = ranked[:top], ranked[top:]
    code_band = np.full(n_codes, -1, np.int32)
    code_band[chosen] = np.arange(len(chosen), dtype=np.int32)
    if rest:
        code_band[rest] = len(chosen)
    # before recording, backward without frames, then unknown
    nameless = [c for c in (*range(len(site_labels) + 1, n_codes), 0) if peaks[c][0] > 0]
    for k, c in enumerate(nameless):
        code_band[c] = len(chosen) + bool(rest) + k
    n_bands = len(chosen) + bool(rest) + len(nameless)
    lifetime_band = code_band[code]
    keys, values, bounds = _points(timeline, lifetime_band, n_bands, order)
    own = _band_peaks(keys, values, bounds, timeline.n_events)
    stacks = _main_stacks(life.stack, life.size, lifetime_band, n_bands)
    bands = [Band(site_labels[c - 1], site_labels[c - 1], *own[b], int(stacks[b])) for b, c in enumerate(chosen)]
    if rest:
        bands.append(Band(OTHER_SITES, other_label(len(rest)), *own[len(chosen)], -1))
    for k, c in enumerate(nameless):
        key = codes[c]
        label = UNKNOWN_NO_FRAMES if c == 0 else key
        bands.append(Band(key, label, *own[len(chosen) + bool(rest) + k], -1))
    return BandSeries("site", timeline.n_events, tuple(bands), lifetime_band, code_band, codes, keys, values, index)


def _lifetime_site_codes(snapshot: Snapshot, timeline: DeviceTimeline) -> I64:
    """Each lifetime's site as a band code: 0 for no site, k + 1 for site label k, the last code (labels + 1) for
    a block alive before the first event whose stack names no site (allocated before recording began)."""
    life = timeline.lifetimes
    return _band_codes(*block_sites(snapshot.stacks, life.stack, lifetime_reasons(snapshot, timeline)))


def _band_codes(code: I64, labels: Sequence[str]) -> I64:
    """block_sites' codes (sites, then the nameless ones) as the site grouping's codes: 0 unknown, the sites from 1,
    then the other nameless sites."""
    named = len(labels) - len(NAMELESS_SITES)
    found: I64 = np.where(code < named, code + 1, np.where(code == named, 0, code))
    return found


@dataclass(frozen=True)
class EventOrder:
    """The change points of a timeline's lifetimes (each one's start, then the stop of those that go) in event
    order: one sort per timeline, shared by every grouping, which then only sorts by band (a radix sort of small
    ints) instead of sorting millions of keys again."""

    events: I64  # each change point's event + 1 (0: before recording), in event order
    delta: I64  # the bytes it adds (a start) or takes away (a stop)
    owner: npt.NDArray[np.signedinteger]  # the lifetime it is of (int32 where they fit: the gather per grouping)


def event_order(timeline: DeviceTimeline) -> EventOrder:
    """The timeline's change points in event order (see EventOrder)."""
    life = timeline.lifetimes
    gone = np.flatnonzero(np.minimum(life.pend, life.end) < NEVER)
    n, g = len(life.start), len(gone)
    events = np.empty(n + g, np.int64)
    np.add(np.maximum(life.start, -1), 1, out=events[:n])
    np.add(np.maximum(np.minimum(life.pend[gone], life.end[gone]), -1), 1, out=events[n:])
    delta = np.empty(n + g, np.int64)
    delta[:n] = life.size
    np.negative(life.size[gone], out=delta[n:])
    owner = np.empty(n + g, np.int32 if n < np.iinfo(np.int32).max else np.int64)
    owner[:n] = np.arange(n, dtype=owner.dtype)
    owner[n:] = gone
    order = np.argsort(events, kind="stable")
    return EventOrder(np.take(events, order), np.take(delta, order), np.take(owner, order))


def _change_points(
    timeline: DeviceTimeline, band: I64, n_bands: int, order: EventOrder | None = None
) -> tuple[I64, I64]:
    """Each band's bytes right after every event where they change, keyed band * (n + 2) + event + 1, sorted.

    A lifetime adds its size at its start (-1 before recording) and takes it away at the first of its pending free
    and its free; lifetimes outside every band (band -1) are left out. `order`: the timeline's event_order, where
    several groupings share it."""
    keys, values, _bounds = _points(timeline, band, n_bands, order)
    return keys, values


def _points(
    timeline: DeviceTimeline, band: npt.NDArray[np.integer], n_bands: int, order: EventOrder | None = None
) -> tuple[I64, I64, list[int]]:
    """_change_points, with where each band's points start in them (n_bands + 1 offsets: band b's are
    bounds[b]:bounds[b + 1])."""
    if order is None:
        order = event_order(timeline)
    stride = timeline.n_events + 2
    top = int(band.max()) if len(band) else -1
    n_bands = max(n_bands, top + 1)
    if top < 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64), [0] * (n_bands + 1)
    low = int(band.min())
    # the bands of millions of change points, gathered and radix-sorted as int16 where they fit (1/4 of the bytes)
    small = band.astype(np.int16) if low >= np.iinfo(np.int16).min and top <= np.iinfo(np.int16).max else band
    point_band = np.take(small, order.owner)  # each change point's band, in event order
    if low == top:  # one band holds them all (the events already in order)
        key, running = order.events.copy(), order.delta.copy()
        bounds = [0] * (top + 1) + [len(key)] * (n_bands - top)
    else:
        # a stable sort by band keeps the event order within each band: the order of the keys band * stride + event
        by_band = np.argsort(point_band, kind="stable")
        edges = np.searchsorted(np.take(point_band, by_band), np.arange(n_bands + 1), "left").tolist()
        edges[-1] = len(by_band)
        outside = edges[0]  # band -1: left out
        by_band = by_band[outside:]
        bounds = [e - outside for e in edges]
        key, running = np.take(order.events, by_band), np.take(order.delta, by_band)
        del by_band
    del point_band
    np.cumsum(running, out=running)
    # each band starts from nothing: take away the running sum the bands before it left, and key it by its band
    before = [int(running[s - 1]) if s > 0 else 0 for s in bounds[:-1]]
    for b in range(n_bands):
        s, e = bounds[b], bounds[b + 1]
        if e > s:
            if before[b]:
                running[s:e] -= before[b]
            if b:
                key[s:e] += b * stride
    if not len(key):
        return np.zeros(0, np.int64), np.zeros(0, np.int64), [0] * (n_bands + 1)
    keys, values = _last_of_each(key, running)
    bounds = np.searchsorted(keys, np.arange(n_bands + 1, dtype=np.int64) * stride, "left").tolist()
    return keys, values, bounds


_FEW_TIES = 4096  # events with several changes of one band, at most, left out slice by slice


def _last_of_each(key: I64, running: I64) -> tuple[I64, I64]:
    """The value after all the changes of each key (of one band at one event): the last of each run of `key`."""
    same = np.flatnonzero(np.equal(key[1:], key[:-1]))  # a change followed by another of the same event
    if not len(same):
        return key, running
    if len(same) > _FEW_TIES:
        last = np.ones(len(key), bool)
        last[same] = False
        return key[last], running[last]
    # few (a block allocated and freed at one event): the runs between them moved down in place, not masked
    # element-wise into new arrays (pages never touched before cost more than the copy)
    at = src = 0
    for drop in [*same.tolist(), len(key)]:
        n = drop - src
        if at != src:
            key[at : at + n], running[at : at + n] = key[src:drop], running[src:drop]
        at, src = at + n, drop + 1
    return key[:at], running[:at]


def _band_peaks(keys: I64, values: I64, bounds: Sequence[int], n_events: int) -> list[tuple[int, int]]:
    """Per band: its highest bytes and the first event right after which it holds them ((0, -1) if empty)."""
    stride = n_events + 2
    out = []
    for b in range(len(bounds) - 1):
        s, e = bounds[b], bounds[b + 1]
        if e == s:
            out.append((0, -1))
            continue
        at = s + int(values[s:e].argmax())  # the first of the highest
        out.append((int(values[at]), int(keys[at]) - b * stride - 1))
    return out


def _renumbered(keys: I64, values: I64, bounds: Sequence[int], kept: Sequence[int], stride: int) -> tuple[I64, I64]:
    """The change points of bands `kept` (ascending) alone, band kept[j] keyed as band j: as _change_points gives
    them for the bands renumbered so, without going over the change points again."""
    if list(kept) == list(range(len(bounds) - 1)):
        return keys, values
    total = sum(bounds[c + 1] - bounds[c] for c in kept)
    out_keys, out_values = np.empty(total, np.int64), np.empty(total, np.int64)
    at = 0
    for j, c in enumerate(kept):
        s, e = bounds[c], bounds[c + 1]
        np.add(keys[s:e], (j - c) * stride, out=out_keys[at : at + e - s])
        out_values[at : at + e - s] = values[s:e]
        at += e - s
    return out_keys, out_values


def _run_index(heads: npt.NDArray[np.bool_]) -> I64:
    """The run each element is in, from its run heads (a cumsum of bools casts as it goes and holds the GIL for
    tens of ms at a million; cast first, the cumsum lets the GUI thread run)."""
    index: I64 = np.cumsum(heads.astype(np.int64))
    index -= 1
    return index


def _run_heads(a: npt.NDArray[np.generic]) -> npt.NDArray[np.bool_]:
    """True where a run of equal values of `a` starts."""
    out = np.empty(len(a), bool)
    if len(a):
        out[0] = True
        np.not_equal(a[1:], a[:-1], out=out[1:])
    return out


def _main_stacks(stack: npt.NDArray[np.int32], size: I64, band: npt.NDArray[np.int32], n_bands: int) -> I64:
    """Per band, the stack whose lifetimes hold most bytes over the trace (-1 where the band has none)."""
    out = np.full(n_bands, -1, np.int64)
    ok = (band >= 0) & (stack >= 0)
    if not ok.any():
        return out
    n_stacks = int(stack[ok].max()) + 1
    pair = band[ok].astype(np.int64) * n_stacks + stack[ok]
    weight = np.bincount(pair, weights=size[ok].astype(np.float64), minlength=n_bands * n_stacks)
    weight = weight.reshape(n_bands, n_stacks)
    has = weight.max(axis=1) > 0
    out[has] = weight[has].argmax(axis=1)
    return out


def lifetime_pieces(timeline: DeviceTimeline) -> I64:
    """The segment piece each block lifetime lies in when it is allocated (-1 where none is found; read-only,
    cached per timeline: the stream and the pool groupings both read it).

    Pieces of one moment do not overlap, but an address range is reused by other pieces over time: from the last
    piece starting at or below the block, step down until one covers it at that moment (one step in most files)."""
    key = id(timeline)
    found = _LIFETIME_PIECES.get(key)
    if found is None or found[0] is not timeline.lifetimes or found[1] is not timeline.pieces:
        pieces = _lifetime_pieces(timeline)
        pieces.flags.writeable = False
        if key not in _LIFETIME_PIECES:
            weakref.finalize(timeline, _LIFETIME_PIECES.pop, key, None)
        found = _LIFETIME_PIECES[key] = (timeline.lifetimes, timeline.pieces, pieces)
    return found[2]


_LIFETIME_PIECES: dict[int, tuple[object, object, I64]] = {}


def _lifetime_pieces(timeline: DeviceTimeline) -> I64:
    p, life = timeline.pieces, timeline.lifetimes
    order = np.lexsort((p.start, p.addr))
    index = np.searchsorted(p.addr[order], life.addr, "right") - 1
    when = np.maximum(life.start, -1)
    found = np.full(len(life.addr), -1, np.int64)
    todo = np.arange(len(life.addr))
    for _ in range(_MAX_WALK):
        todo = todo[index[todo] >= 0]
        if not len(todo):
            break
        piece = order[index[todo]]
        t = when[todo]
        hit = (life.addr[todo] < p.addr[piece] + p.size[piece]) & (p.start[piece] <= t) & (p.end[piece] > t)
        found[todo[hit]] = piece[hit]
        todo = todo[~hit]
        index[todo] -= 1
    return found


def pool_names(timeline: DeviceTimeline) -> list[str]:
    """The pools of the timeline's pieces as breakdown names them, in order of first appearance; "unknown" last
    for a block whose segment was not found."""
    p = timeline.pieces
    names = list(dict.fromkeys(_pool_keys(p.pool, p.small, timeline.pool_ids)))
    return [*names, UNKNOWN_SITE]


def _pool_keys(pool: npt.NDArray[np.generic], small: npt.NDArray[np.generic], ids: list[tuple[int, int]]) -> list[str]:
    out = []
    for k, s in zip(pool.tolist(), small.tolist(), strict=True):
        if k > 0 and ids[k] != DEFAULT_POOL:
            out.append(f"private {ids[k]}")
        else:
            out.append("small" if s else "large")
    return out


def sample_events(index: TotalIndex, lo: float, hi: float, bins: int) -> I64:
    """The events (-1 for before the first) that draw [lo, hi] at `bins` columns: all of them when they are few,
    else each column's lowest and highest total, in order, with the event in force at lo and the last in view."""
    total = index.total
    n = len(total)  # u = event + 1, from 0 (before the first event) to n - 1
    if n == 0:
        return np.zeros(0, np.int64)
    bins = max(int(bins), 1)
    u_start = min(max(int(np.floor(lo)) + 1, 0), n - 1)
    u_stop = max(min(int(np.ceil(hi)) + 2, n), u_start + 1)
    count = u_stop - u_start
    if count <= 2 * bins:
        return np.arange(u_start, u_stop, dtype=np.int64) - 1
    if count >= 2 * bins * CHUNK:
        # whole chunks per column: each chunk's extremes were found once, a full view reads n / CHUNK of them
        first, last = u_start // CHUNK, -(-u_stop // CHUNK)
        offsets = (np.arange(bins, dtype=np.int64) * (last - first)) // bins
        low_u, high_u = index.chunk_low[first:last], index.chunk_high[first:last]
        picks = [
            low_u[_segment_extreme(total[low_u], offsets, np.minimum)],
            high_u[_segment_extreme(total[high_u], offsets, np.maximum)],
        ]
    else:
        offsets = (np.arange(bins, dtype=np.int64) * count) // bins
        window = total[u_start:u_stop]
        picks = [
            u_start + _segment_extreme(window, offsets, np.minimum),
            u_start + _segment_extreme(window, offsets, np.maximum),
        ]
    u = np.unique(np.concatenate([*picks, [u_start, u_stop - 1]]))
    return u[(u >= 0) & (u < n)] - 1


def _segment_extreme(values: I64, offsets: I64, reducer: np.ufunc) -> I64:
    """Per segment of `values` (starting at the sorted, distinct `offsets`), the position of its first extreme."""
    extreme = reducer.reduceat(values, offsets)
    heads = np.zeros(len(values), bool)
    heads[offsets] = True
    seg = _run_index(heads)
    hits = np.flatnonzero(values == extreme[seg])
    first: I64 = hits[_run_heads(seg[hits])]
    return first


def block_mask(series: SiteSeries, state: AllocatorState, kind: str, key: object, event: int) -> npt.NDArray[np.bool_]:
    """The allocated blocks of `state` (the state right after `event`) that belong to band `key` of `kind`."""
    bands = series.groupings[kind]
    wanted = bands.band_index(key)
    blk, seg = state.blocks, state.segments
    if not len(blk):
        return np.zeros(0, bool)
    if kind == "site":
        reasons = nameless_reasons(series.snapshot, series.timeline, state, event)
        code = _band_codes(*block_sites(series.snapshot.stacks, blk.stack, reasons))
    elif kind == "category":
        code = block_categories(series.snapshot, series.timeline, state, event).astype(np.int64)
    elif kind == "stream":
        streams = np.asarray(bands.codes, np.int64)
        stream = seg.stream[blk.segment] if len(seg) else np.zeros(len(blk), np.int64)
        at = np.minimum(np.searchsorted(streams, stream), max(len(streams) - 1, 0))
        code = np.where(streams[at] == stream, at, -1) if len(streams) else np.full(len(blk), -1)
    elif kind == "pool":
        names = list(bands.codes)
        per_segment = [names.index(n) if n in names else -1 for n in _pool_keys(seg.pool, seg.is_small, state.pool_ids)]
        code = np.asarray([*per_segment, -1], np.int64)[blk.segment]
    elif kind == "metadata":
        lifetime_codes, _labels = lifetime_metadata(series.snapshot, series.timeline)
        code = block_metadata(block_lifetimes(series.timeline, state, event), lifetime_codes)
    else:
        raise ValueError(f"unknown grouping {kind!r}")
    band = np.where(code >= 0, np.append(bands.code_band, np.int32(-1))[code], -1)
    mask: npt.NDArray[np.bool_] = allocated_mask(state) & (band == wanted)
    return mask
