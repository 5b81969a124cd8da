"""A bare pyqtgraph plot rendered to pixels, for tests that compare two ways of drawing the same items."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6 import QtGui


def plot_picture(qtbot: Any, draw: Callable[[pg.PlotWidget], None]) -> np.ndarray:
    """The RGB pixels of a 400 x 300 plot on white, axes hidden, x 0-40 and y 0-30, with what `draw` adds to it."""
    plot = pg.PlotWidget(background="w")
    qtbot.addWidget(plot)
    plot.resize(400, 300)
    plot.hideAxis("left")
    plot.hideAxis("bottom")
    plot.setXRange(0, 40, padding=0)
    plot.setYRange(0, 30, padding=0)
    draw(plot)
    plot.show()
    qtbot.waitExposed(plot)
    image = plot.grab().toImage().convertToFormat(QtGui.QImage.Format.Format_RGB32)
    array = np.frombuffer(image.constBits(), np.uint8, image.sizeInBytes()).reshape(image.height(), -1, 4)
    return array[:, : image.width(), :3].copy()
