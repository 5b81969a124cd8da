"""Maps drawn for three examples, compared with stored pictures with a tolerance.

The picture is the map's image as the view colours it (its state codes through the palette), so the check holds
the layout, the rasterising and the colours, without depending on widget timing.
GPUMEM_GUI_REFRESH_PICTURES=1 rewrites the stored pictures (look at them before committing).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PySide6 import QtGui

from gpumem_gui.assets import example_path
from gpumem_gui.core import load_snapshot
from gpumem_gui.views.common import palette
from gpumem_gui.views.snapshot.tab import SnapshotTab

PICTURES = Path(__file__).parent / "pictures"
CASES = [("fragmented_oom", 0), ("split_blocks_oom", 2), ("kv_cache_paged", 0)]


def _to_qimage(rgb: np.ndarray) -> QtGui.QImage:
    h, w, _ = rgb.shape
    data = np.ascontiguousarray(rgb)
    return QtGui.QImage(data.data, w, h, 3 * w, QtGui.QImage.Format.Format_RGB888).copy()


def _pixels(image: QtGui.QImage) -> np.ndarray:
    image = image.convertToFormat(QtGui.QImage.Format.Format_RGB888)
    data = np.frombuffer(image.constBits(), np.uint8, image.sizeInBytes())
    rows = data.reshape(image.height(), image.bytesPerLine())[:, : image.width() * 3]
    return rows.reshape(image.height(), image.width(), 3).copy()  # the QImage's memory goes with it


@pytest.mark.parametrize(("name", "layout"), CASES)
def test_map_looks_as_stored(qtbot: Any, name: str, layout: int) -> None:
    doc = SnapshotTab(load_snapshot(example_path(name)))
    qtbot.addWidget(doc)
    doc.layout_box.setCurrentIndex(layout)
    got = palette.map_lut()[doc.map.image_data][:, :, :3]
    path = PICTURES / f"{name}_{layout}.png"
    if os.environ.get("GPUMEM_GUI_REFRESH_PICTURES"):
        _to_qimage(got).save(str(path))
    expected = _pixels(QtGui.QImage(str(path)))
    assert got.shape == expected.shape
    differing = np.mean(np.any(np.abs(got.astype(int) - expected.astype(int)) > 40, axis=2))
    assert differing < 0.01, f"{differing:.1%} of the pixels differ from {path.name}"
