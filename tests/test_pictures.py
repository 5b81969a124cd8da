"""Rendered maps compared with stored pictures, with a tolerance. GPUMEM_GUI_REFRESH_PICTURES=1 rewrites them."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("PySide6")
from PySide6 import QtGui

from gpumem_gui.assets import example_path
from gpumem_gui.core import load_snapshot
from gpumem_gui.views.document import DocumentView

PICTURES = Path(__file__).parent / "pictures"
CASES = [("fragmented_oom", 0), ("split_blocks_oom", 2), ("kv_cache_paged", 0)]


def _pixels(image: QtGui.QImage) -> np.ndarray:
    image = image.convertToFormat(QtGui.QImage.Format.Format_RGB888)
    data = np.frombuffer(image.constBits(), np.uint8, image.sizeInBytes())
    rows = data.reshape(image.height(), image.bytesPerLine())[:, : image.width() * 3]
    return rows.reshape(image.height(), image.width(), 3).copy()  # the QImage's memory goes with it


@pytest.mark.parametrize(("name", "layout"), CASES)
def test_map_looks_as_stored(qtbot: Any, name: str, layout: int) -> None:
    doc = DocumentView(load_snapshot(example_path(name)))
    qtbot.addWidget(doc)
    doc.layout_box.setCurrentIndex(layout)
    doc.map.plot.resize(900, 500)
    doc.map.plot.getViewBox().autoRange(padding=0)
    got = doc.map.plot.grab().toImage()
    path = PICTURES / f"{name}_{layout}.png"
    if os.environ.get("GPUMEM_GUI_REFRESH_PICTURES") or not path.exists():
        got.save(str(path))
        if not os.environ.get("GPUMEM_GUI_REFRESH_PICTURES"):
            pytest.fail(f"no stored picture: wrote {path}; look at it and commit it")
    expected = QtGui.QImage(str(path))
    a, b = _pixels(got), _pixels(expected)
    assert a.shape == b.shape
    differing = np.mean(np.any(np.abs(a.astype(int) - b.astype(int)) > 40, axis=2))
    assert differing < 0.02, f"{differing:.1%} of the pixels differ from {path.name}"
