"""StepLine draws a step curve as a two-pixel pen draws it (the oracle: the same steps as a PlotCurveItem with Qt's
two-pixel pen), as one-pixel lines."""

from __future__ import annotations

from typing import Any

import numpy as np
import pyqtgraph as pg

from gpumem_gui.document.curves import steps
from gpumem_gui.views.snapshot.step_line import StepLine
from tests.plot_pixels import plot_picture

_COLOUR = "#4c72b0"


def _painted(qtbot: Any, item: pg.PlotCurveItem) -> np.ndarray:
    """Which pixels of the plot `item` paints."""
    return (plot_picture(qtbot, lambda plot: plot.addItem(item)) != 255).any(axis=2)


def _grown(mask: np.ndarray) -> np.ndarray:
    """`mask` and every pixel next to it (diagonals too)."""
    out = mask.copy()
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            out |= np.roll(np.roll(mask, dy, axis=0), dx, axis=1)
    return out


def test_a_step_line_covers_what_a_two_pixel_pen_covers(qtbot: Any) -> None:
    rng = np.random.default_rng(5)
    x = np.concatenate([[0.0], np.sort(rng.uniform(1, 39, 40)), [40.0]])
    y = rng.uniform(3, 27, len(x))
    wide = pg.PlotCurveItem(pen=pg.mkPen(_COLOUR, width=2))
    wide.setData(*steps(x, y))
    line = StepLine(_COLOUR)
    line.setData(*steps(x, y))
    expected, drawn = _painted(qtbot, wide), _painted(qtbot, line)
    assert expected.sum() > 2 * 400  # two pixels wide across the plot, and the risers
    assert abs(int(drawn.sum()) - int(expected.sum())) < 0.1 * expected.sum()  # as thick: not a one-pixel line
    assert not (drawn & ~_grown(expected)).any()  # nothing a pixel away from the pen's picture
    assert not (expected & ~_grown(drawn)).any()  # and nothing of it missing
    # the same pixels, all but a few where a coordinate falls on a pixel's edge (0.5% here; a line drawn a pixel off
    # diagonally, or at a pixel each way, differs in 40-95%)
    assert (drawn ^ expected).sum() < 0.03 * expected.sum()


def test_a_step_line_is_repainted_where_it_lies(qtbot: Any) -> None:
    # its lines lie up to a pixel off the curve: its bounds take them in, or a partial repaint would leave them behind
    line, plain = StepLine(_COLOUR), pg.PlotCurveItem(pen=pg.mkPen(_COLOUR, width=1))
    for item in (line, plain):
        item.setData(*steps(np.array([0.0, 20.0, 40.0]), np.array([5.0, 25.0, 25.0])))
    assert line.pixelPadding() >= plain.pixelPadding() + 1
