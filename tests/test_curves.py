"""The curves' envelope keeps every column's extremes and the ends, against a plain loop over the raw points."""

from __future__ import annotations

import numpy as np

from gpumem_gui.document.curves import envelope


def test_envelope_keeps_each_columns_minimum_and_maximum() -> None:
    rng = np.random.default_rng(3)
    x = np.arange(100_000, dtype=np.float64)
    y = np.cumsum(rng.normal(size=len(x)))
    y[54_321] = 1e6  # a one-event spike must survive
    xs, ys = envelope(x, y, 0, len(x) - 1, 500)
    assert len(xs) == len(ys) == 2 * 500 + 1
    assert ys.max() == 1e6 and ys.min() == y.min()
    starts = xs[0:-1:2]
    for k in (0, 17, 250, 499):  # each column, worked out with a loop
        lo = int(starts[k])
        hi = int(starts[k + 1]) if k + 1 < len(starts) else len(x)
        assert ys[2 * k] == min(y[lo:hi]) and ys[2 * k + 1] == max(y[lo:hi])
    assert (xs[-1], ys[-1]) == (x[-1], y[-1])


def test_a_zoomed_range_is_served_whole_when_it_is_small() -> None:
    x = np.arange(10_000, dtype=np.float64)
    y = x * 2
    xs, ys = envelope(x, y, 100.5, 180.2, 400)
    assert xs[0] == 100 and xs[-1] == 181  # one point beyond each side, so the line reaches the edges
    assert np.array_equal(ys, xs * 2)
    empty_x, _ = envelope(x[:0], y[:0], 0, 10, 400)
    assert len(empty_x) == 0


def test_chunked_and_direct_columns_keep_the_same_extremes() -> None:
    from gpumem_gui.document.curves import CHUNK, Envelope  # noqa: PLC0415

    rng = np.random.default_rng(5)
    y = rng.integers(0, 1 << 40, size=300_000)
    x = np.arange(len(y), dtype=np.float64)
    curve = Envelope(y)
    wide = curve.points(x, 0, len(y), 1000)  # 300,000 >= 2 * 1,000 * CHUNK: whole chunks per column
    assert len(y) >= 2 * 1000 * CHUNK and wide[1].max() == y.max() and wide[1].min() == y.min()
    starts = wide[0][0:-1:2].astype(np.int64)
    assert np.all(starts % CHUNK == 0)  # columns begin on chunk edges
    for k in (0, 333, 999):
        hi = starts[k + 1] if k + 1 < len(starts) else len(y)
        assert wide[1][2 * k] == y[starts[k] : hi].min() and wide[1][2 * k + 1] == y[starts[k] : hi].max()
    narrow = curve.points(x, 1000.0, 60_000.0, 1000)  # fewer than 2 * bins * CHUNK events: columns of events
    inside = y[999:60_002]
    assert narrow[1].max() == inside.max() and narrow[1].min() == inside.min()
    by_time = curve.points(x * 1e-3, 1.0, 60.0, 1000)  # the same chunks serve a time axis
    assert np.array_equal(by_time[1], narrow[1])


def test_the_event_axis_needs_no_x_array() -> None:
    from gpumem_gui.document.curves import Envelope  # noqa: PLC0415

    y = np.random.default_rng(9).integers(0, 1000, size=200_000)
    x = np.arange(len(y), dtype=np.float64)
    curve = Envelope(y)
    for lo, hi, bins in ((0, len(y) - 1, 700), (1234.5, 98_765.2, 700), (10.2, 400.7, 700), (-50, 30, 10)):
        with_x, without = curve.points(x, lo, hi, bins), curve.points(None, lo, hi, bins)
        assert np.array_equal(with_x[0], without[0]) and np.array_equal(with_x[1], without[1]), (lo, hi)
