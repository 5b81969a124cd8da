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
