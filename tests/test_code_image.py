"""CodeImageItem colours each code as its table says (numpy's lut[codes] is the oracle), in a format Qt draws as it
is, and leaves images that are not uint8 codes to pyqtgraph."""

from __future__ import annotations

from typing import Any

import numpy as np
from PySide6 import QtGui

from gpumem_gui.views.common import palette
from gpumem_gui.views.snapshot.code_image import CodeImageItem


def _rgb(image: QtGui.QImage) -> np.ndarray:
    image = image.convertToFormat(QtGui.QImage.Format.Format_RGB32)
    bgra = np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), image.width(), 4)
    return bgra[..., 2::-1].copy()  # B, G, R (little-endian 0xffRRGGBB) -> R, G, B


def test_each_code_is_drawn_in_its_colour(qapp: Any) -> None:
    lut = palette.map_lut()
    codes = np.random.default_rng(0).integers(0, 256, (37, 101), dtype=np.uint8)
    item = CodeImageItem(lut)
    item.setImage(codes, autoLevels=False)
    item.render()
    assert item.qimage.format() == QtGui.QImage.Format.Format_RGB32  # the map's table is opaque: drawn as it is
    assert np.array_equal(_rgb(item.qimage), lut[codes][..., :3])
    drawn = codes.copy()
    codes[:] = 0  # the item's picture is its own: the codes' array may be reused for the next frame
    assert np.array_equal(_rgb(item.qimage), lut[drawn][..., :3])


def test_a_translucent_table_keeps_its_alpha(qapp: Any) -> None:
    lut = palette.map_lut()
    lut[5] = (255, 0, 0, 128)
    item = CodeImageItem(lut)
    item.setImage(np.full((2, 3), 5, np.uint8), autoLevels=False)
    item.render()
    assert item.qimage.format() == QtGui.QImage.Format.Format_ARGB32_Premultiplied
    assert item.qimage.pixelColor(1, 1).getRgb() == (255, 0, 0, 128)


def test_other_images_go_pyqtgraphs_way(qapp: Any) -> None:
    item = CodeImageItem(palette.map_lut())
    item.setImage(np.zeros((4, 4), np.float32), autoLevels=False, levels=(0, 1))
    item.render()
    assert item.qimage is not None and item.qimage.format() != QtGui.QImage.Format.Format_RGB32
