"""Curves decimated for drawing: the min and max of each pixel's worth of events, over the range in view.

A million-event curve handed to the plot whole costs a tenth of a second per paint; an envelope of two points per
pixel column draws the same picture (every peak and trough stays) and costs nothing to paint."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

F64 = npt.NDArray[np.float64]


def envelope(x: F64, y: npt.NDArray[np.generic], lo: float, hi: float, bins: int) -> tuple[F64, F64]:
    """The points of (x, y) that draw its picture between x = lo and x = hi at `bins` columns: all of them when
    they are few, else each column's minimum and maximum (x sorted, as event indices and times are)."""
    start = max(int(np.searchsorted(x, lo, "left")) - 1, 0)
    stop = min(int(np.searchsorted(x, hi, "right")) + 1, len(x))
    n = stop - start
    if n <= 2 * bins:
        return x[start:stop], y[start:stop].astype(np.float64)
    offsets = (np.arange(bins, dtype=np.int64) * n) // bins
    window = y[start:stop]
    lows = np.minimum.reduceat(window, offsets)
    highs = np.maximum.reduceat(window, offsets)
    xs = np.repeat(x[start + offsets], 2)
    ys = np.empty(2 * bins, np.float64)
    ys[0::2] = lows
    ys[1::2] = highs
    # the last point of the range keeps the curve's end where it is, not at its column's start
    return np.append(xs, x[stop - 1]), np.append(ys, float(y[stop - 1]))
