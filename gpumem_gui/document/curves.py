"""Curves decimated for drawing: the min and max of each pixel column's worth of events, over the range in view.

A million-event curve handed to the plot whole costs a tenth of a second per paint; an envelope of two points per
column draws the same picture (every peak and trough stays) and costs nothing to paint. Each curve keeps the
extremes of every CHUNK events once, so that a view over millions of events reads thousands of chunks, not every
event."""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from gpumem_gui.core.analysis.timeline_digest import CHUNK, CURVES, TimelineDigest

F64 = npt.NDArray[np.float64]


class Values(Protocol):
    """A curve's values, one per event, read by ranges and single events: a numpy array, or a SeriesColumn."""

    def __len__(self) -> int: ...
    def __getitem__(self, key: Any) -> Any: ...


class SeriesColumn:
    """A derived series of a timeline (free, fragmentation) read by ranges: each range is made of those events
    alone, so that a view of a few thousand events never makes millions."""

    def __init__(self, series: Any, name: str) -> None:
        self.series, self.name = series, name

    def __len__(self) -> int:
        return len(self.series)

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, slice):
            start, stop, step = key.indices(len(self))
            return self.series.part(self.name, start, max(start, stop))[::step]
        i = range(len(self))[key]  # an IndexError outside, as an array's
        return self.series.part(self.name, i, i + 1)[0]


class Envelope:
    """A curve's values, one per event, with each chunk's extremes; `points` draws it against any sorted x (event
    indices or times), so the chunks serve both axes. The extremes are found here unless given (the loading worker's,
    TimelineDigest): then the values are read only where a view shows few enough events."""

    def __init__(
        self, y: Values, lows: npt.NDArray[np.generic] | None = None, highs: npt.NDArray[np.generic] | None = None
    ) -> None:
        self.y = y
        self.starts = np.arange(0, len(y), CHUNK, dtype=np.int64)
        if lows is None or highs is None:
            values = np.asarray(y[:])
            lows = np.minimum.reduceat(values, self.starts) if len(values) else values[:0]
            highs = np.maximum.reduceat(values, self.starts) if len(values) else values[:0]
        if len(lows) != len(self.starts) or len(highs) != len(self.starts):
            raise ValueError(f"{len(lows)} and {len(highs)} extremes for {len(self.starts)} chunks")
        self.lows, self.highs = lows, highs

    def points(self, x: F64 | None, lo: float, hi: float, bins: int) -> tuple[F64, F64]:
        """The points that draw the curve over `x` (None: the event index) between lo and hi at `bins` columns:
        all of them when they are few, else each column's minimum and maximum, and the range's last point (the
        curve ends where it ends)."""
        y = self.y
        if x is None:  # x = index: no array of millions of floats to make for the common axis
            start = min(max(int(np.ceil(lo)) - 1, 0), len(y))
            stop = max(min(int(np.floor(hi)) + 2, len(y)), start)
        else:
            start = max(int(np.searchsorted(x, lo, "left")) - 1, 0)
            stop = min(int(np.searchsorted(x, hi, "right")) + 1, len(x))

        def at(indices: npt.NDArray[np.int64]) -> F64:
            return indices.astype(np.float64) if x is None else x[indices]

        n = stop - start
        if n <= 2 * bins:
            return at(np.arange(start, stop, dtype=np.int64)), np.asarray(y[start:stop]).astype(np.float64)
        if n >= 2 * bins * CHUNK:
            # whole chunks per column: the range grows to chunk edges, which a column's width hides
            first, last = start // CHUNK, -(-stop // CHUNK)
            offsets = (np.arange(bins, dtype=np.int64) * (last - first)) // bins
            lows = np.minimum.reduceat(self.lows[first:last], offsets)
            highs = np.maximum.reduceat(self.highs[first:last], offsets)
            column_starts = self.starts[first + offsets]
            end = min(last * CHUNK, len(y)) - 1
        else:
            offsets = (np.arange(bins, dtype=np.int64) * n) // bins
            window = np.asarray(y[start:stop])
            lows = np.minimum.reduceat(window, offsets)
            highs = np.maximum.reduceat(window, offsets)
            column_starts = start + offsets
            end = stop - 1
        xs = np.repeat(at(column_starts), 2)
        ys = np.empty(2 * bins, np.float64)
        ys[0::2] = lows
        ys[1::2] = highs
        return np.append(xs, at(np.array([end], np.int64))), np.append(ys, float(y[end]))

    def step_points(self, x: F64 | None, lo: float, hi: float, bins: int) -> tuple[F64, F64]:
        """`points` drawn as a step function: memory changes at events and holds in between, so each value
        stays until the next point's x (a line between samples would show a slope that never happened)."""
        return steps(*self.points(x, lo, hi, bins))


def steps(xs: F64, ys: F64) -> tuple[F64, F64]:
    """The polyline of a step function through (xs, ys): (x0, y0), (x1, y0), (x1, y1), (x2, y1), ..."""
    n = len(xs)
    if n < 2:
        return xs, ys
    sx = np.empty(2 * n - 1, np.float64)
    sy = np.empty(2 * n - 1, np.float64)
    sx[0::2], sx[1::2] = xs, xs[1:]
    sy[0::2], sy[1::2] = ys, ys[:-1]
    return sx, sy


MiB, GiB = float(1 << 20), float(1 << 30)


def memory_unit(peak_bytes: float) -> tuple[str, float]:
    """The unit a memory axis reads in, chosen by the file's peak: GiB from 1 GiB up, else MiB (so that a small
    file reads 0-300 MiB, not 0-0.3 GiB, and an empty device has an axis in a unit at all)."""
    return ("GiB", GiB) if peak_bytes >= GiB else ("MiB", MiB)


def envelope(x: F64, y: npt.NDArray[np.generic], lo: float, hi: float, bins: int) -> tuple[F64, F64]:
    """The points of (x, y) that draw its picture between lo and hi at `bins` columns (see Envelope.points)."""
    return Envelope(y).points(x, lo, hi, bins)


SERIES = CURVES


def series_envelopes(series: Any, digest: TimelineDigest | None = None) -> dict[str, Envelope]:
    """An Envelope of each curve the timeline draws (a timeline's Series), made once per device and kept; with the
    loading worker's `digest`, of its extremes (the window then reads no event for a whole view), the derived
    curves read by ranges."""
    if digest is None:
        return {name: Envelope(getattr(series, name)) for name in SERIES}
    return {
        name: Envelope(
            SeriesColumn(series, name) if name in ("free", "external_fragmentation") else getattr(series, name),
            digest.lows[name],
            digest.highs[name],
        )
        for name in SERIES
    }
