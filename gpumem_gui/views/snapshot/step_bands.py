"""StepBand: one band of a stacked step chart (the site, segment and pool timelines), its fill drawn as rectangles."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import pyqtgraph as pg
from PySide6 import QtGui

from gpumem_gui.document.curves import steps

F64 = npt.NDArray[np.float64]
_NONE = np.zeros(0, np.float64)


class StepBand:
    """A band between its floor and its top, both step functions over the same columns: the fill is one rectangle per
    column, painted in one batched drawRects (BarGraphItem); the top edge is a line, so that a band thinner than a
    pixel still shows. pyqtgraph fills a step curve down to a level as a list of 50-point paths: with a dozen bands
    of a thousand steps that was 6 ms of every repaint of the plot, the rectangles and lines take 2."""

    def __init__(self, plot: pg.PlotWidget, brush: QtGui.QBrush, pen: QtGui.QPen, z: float = 0.0) -> None:
        self.fill = pg.BarGraphItem(x0=_NONE, x1=_NONE, y0=_NONE, y1=_NONE, brush=brush, pen=pg.mkPen(None))
        self.edge = pg.PlotCurveItem(pen=pen, skipFiniteCheck=True)
        # `z` in (-1, 0], the band's place in the stack (over those of lower z): the edges over every fill (the
        # band above starts where this one ends), and over each other in the same order, so that where a band is
        # empty its edge lies under that of the band beneath, as a step curve filled down to zero hid it
        self.fill.setZValue(z)
        self.edge.setZValue(z + 2)
        plot.addItem(self.fill)
        plot.addItem(self.edge)

    def set_steps(self, x: F64, top: F64, floor: F64 | None = None) -> None:
        """Column i spans x[i] to x[i + 1] at height floor[i] to top[i] (floor: zero); the last value of `top` and
        `floor` is the right edge's and ends the edge line there."""
        low = np.zeros(len(top)) if floor is None else floor
        self.fill.setOpts(x0=x[:-1], x1=x[1:], y0=low[:-1], y1=top[:-1])
        self.edge.setData(*steps(x, top))

    def setPen(self, pen: Any) -> None:
        """The top edge's pen."""
        self.edge.setPen(pen)

    def remove(self, plot: pg.PlotWidget) -> None:
        plot.removeItem(self.fill)
        plot.removeItem(self.edge)
