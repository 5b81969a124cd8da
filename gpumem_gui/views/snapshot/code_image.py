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
    and colours the codes itself, once per image, into a format the painter draws as it is. An indexed image is
    converted again by each paint that scales it, the whole image in Qt's thread pool: 1.6 ms of wall time for a
    1024 x 1108 map drawn 984 x 426, where converting it once (0.36 ms) and drawing the result (0.17 ms) cost a
    third, and a repaint (a hover, a rubber band) only the draw. Other images go pyqtgraph's own way."""

    def __init__(self, lut: np.ndarray) -> None:
        super().__init__(axisOrder="row-major")  # an image's rows are the map's rows, whatever pyqtgraph's default
        self.setLookupTable(lut)  # for whoever reads the item's table, and for pyqtgraph's own way
        self._colours = [QtGui.qRgba(*rgba) for rgba in lut.tolist()]
        opaque = bool((lut[:, 3] == 255).all()) if lut.shape[1] == 4 else True
        self._format = QtGui.QImage.Format.Format_RGB32 if opaque else QtGui.QImage.Format.Format_ARGB32_Premultiplied
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
        codes = fn.ndarray_to_qimage(np.ascontiguousarray(image), QtGui.QImage.Format.Format_Indexed8)
        codes.setColorTable(self._colours)
        self.qimage = codes.convertToFormat(self._format)  # a copy of its own: the codes' array may change
        self._renderRequired = False
        self._unrenderable = False
