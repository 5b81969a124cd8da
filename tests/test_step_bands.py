"""StepBand draws a stacked band as pyqtgraph's filled step curves drew it (the oracle: the same bands as
PlotCurveItems filled down to zero, each behind the one under it), at a fraction of the paint."""

from __future__ import annotations

from typing import Any

import numpy as np
import pyqtgraph as pg

from gpumem_gui.document.curves import steps
from gpumem_gui.views.snapshot.step_bands import StepBand
from tests.plot_pixels import plot_picture

_COLOURS = ("#4c72b0", "#dd8452", "#55a868")


def test_stacked_step_bands_look_as_pyqtgraphs_filled_step_curves(qtbot: Any) -> None:
    rng = np.random.default_rng(3)
    x = np.concatenate([[0.0], np.sort(rng.uniform(1, 39, 25)), [40.0]])
    values = rng.uniform(0, 3.5, (3, len(x)))
    values[1, 5:9] = 0.0  # a band absent for a while
    tops = np.cumsum(values, axis=0)
    tops[:, -1] = tops[:, -2]  # the last value holds to the right edge, as the views draw it

    def curves(plot: pg.PlotWidget) -> None:
        for i, top in enumerate(tops):
            curve = pg.PlotCurveItem(pen=pg.mkPen(_COLOURS[i]), brush=pg.mkBrush(_COLOURS[i]), fillLevel=0)
            curve.setZValue(-i)
            curve.setData(*steps(x, top))
            plot.addItem(curve)

    def bands(plot: pg.PlotWidget) -> None:
        for i, top in enumerate(tops):
            StepBand(plot, pg.mkBrush(_COLOURS[i]), pg.mkPen(_COLOURS[i])).set_steps(x, top, tops[i - 1] if i else None)

    expected, drawn = plot_picture(qtbot, curves), plot_picture(qtbot, bands)
    differ = np.abs(expected.astype(int) - drawn.astype(int)).max(axis=2) > 40
    assert differ.mean() < 0.005, differ.mean()  # the edges of a pixel at most
    filled = (expected != 255).any(axis=2)
    assert 0.1 < filled.mean() < 0.9  # the picture compared is the bands, not an empty plot


def test_a_band_thinner_than_a_pixel_still_shows_its_edge(qtbot: Any) -> None:
    x = np.array([0.0, 20.0, 40.0])
    top = np.array([10.0, 10.0, 10.0])

    def band(plot: pg.PlotWidget) -> None:
        StepBand(plot, pg.mkBrush(_COLOURS[0]), pg.mkPen(_COLOURS[0])).set_steps(x, top, top - 0.001)

    picture = plot_picture(qtbot, band)
    assert (picture != 255).any(axis=2).sum() >= 300  # a line across the plot, 400 px wide
