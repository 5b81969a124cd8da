"""CodeImageItem: the map's image of state codes, coloured by a table made once rather than on every new image."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from pyqtgraph import functions as fn
from PySide6 import QtGui


class CodeImageItem(pg.ImageItem):
    """An ImageItem for a uint8 image of codes and a fixed RGBA table (256 entries): each code's colour. pyqtgraph
    makes a QImage's colour table from the lookup table again for every image set (a Python list of 256 colours, and
    the table combined with the levels first: a few tenths of a ms per travel); this item keeps the list it made once
    and hands Qt the codes as they are (an indexed image, no copy). Other images go pyqtgraph's own way."""

    def __init__(self, lut: np.ndarray) -> None:
        super().__init__()
        self.setLookupTable(lut)  # for whoever reads the item's table, and for pyqtgraph's own way
        self._colours = [QtGui.qRgba(*rgba) for rgba in lut.tolist()]
        # what this render writes are pyqtgraph's own attributes (0.13 and 0.14 name them so): else its own way
        self._own_render = all(hasattr(self, name) for name in ("_renderRequired", "_unrenderable", "qimage"))

    def render(self) -> None:
        image = self.image
        if (
            not self._own_render
            or image is None
            or image.dtype != np.uint8
            or image.ndim != 2
            or not image.size
            or self.axisOrder != "row-major"
            or self.autoDownsample
            or self.levels is not None
        ):
            super().render()
            return
        qimage = fn.ndarray_to_qimage(np.ascontiguousarray(image), QtGui.QImage.Format.Format_Indexed8)
        qimage.setColorTable(self._colours)
        self.qimage = qimage
        self._renderRequired = False
        self._unrenderable = False
