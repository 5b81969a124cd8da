"""StepLine: a step curve two pixels wide, drawn as one-pixel lines (Qt's fast path) rather than with a wide pen."""

from __future__ import annotations

from typing import Any

import pyqtgraph as pg
from PySide6 import QtGui

# where the four one-pixel lines lie, in device pixels from the curve: together they cover what a two-pixel pen
# centred on it covers (a row above and below a horizontal step, a column each side of a vertical one)
OFFSETS = ((-0.5, -0.5), (0.5, -0.5), (-0.5, 0.5), (0.5, 0.5))


class StepLine(pg.PlotCurveItem):
    """A curve of horizontal and vertical steps (document.curves.steps) two pixels wide. Qt strokes a pen wider than
    a pixel as a polygon per segment (pyqtgraph hands it the curve as separate lines), where a one-pixel line takes
    its fast path: the timeline's curves of a few thousand steps cost 8 ms of every paint of the plot with a
    two-pixel pen, 2.6 ms as four one-pixel lines half a pixel off each way, which draw the same picture for steps
    (not for slopes, which would come out jagged)."""

    def __init__(self, colour: Any, **kwargs: Any) -> None:
        super().__init__(pen=pg.mkPen(colour, width=1), **kwargs)

    def pixelPadding(self) -> float:
        return float(super().pixelPadding()) + 1.0  # the lines lie up to a pixel off the curve: repainted with it

    def paint(self, p: QtGui.QPainter, opt: Any, widget: Any) -> None:
        transform = p.worldTransform()
        for dx, dy in OFFSETS:
            p.setWorldTransform(transform * QtGui.QTransform.fromTranslate(dx, dy))  # after the item's: device px
            super().paint(p, opt, widget)
        p.setWorldTransform(transform)
