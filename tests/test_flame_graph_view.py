"""The flame graph widget, driven with pytest-qt: the training_leak example's leaked step drawn, searched, clicked
(lighting its blocks on the map through the document), turned into a flame and zoomed."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6 import QtCore, QtGui

from gpumem_gui.assets import example_path
from gpumem_gui.core import load_snapshot
from gpumem_gui.core.snapshot.model import BlockState
from gpumem_gui.document.document import SnapshotDocument
from gpumem_gui.views.common import palette
from gpumem_gui.views.snapshot.flame_graph import ROW_HEIGHT, FlameGraph

LEAK_SITE = "model/transformer.py:160:forward"


@pytest.fixture
def doc() -> SnapshotDocument:
    document = SnapshotDocument(load_snapshot(example_path("training_leak")))
    step = document.named_spans()[2]
    document.set_span(step)
    document.travel(step.end)
    return document


def _colour(widget: FlameGraph, x: float, y: float) -> str:
    image: QtGui.QImage = widget.grab().toImage()
    ratio = image.devicePixelRatio()
    return str(image.pixelColor(int(x * ratio), int(y * ratio)).name())


def test_the_leaked_step_drawn_searched_and_clicked(qtbot: Any, doc: SnapshotDocument) -> None:
    frame = doc.flame_frame("leaked", search="transformer.py:160")
    assert frame is not None
    widget = FlameGraph()
    qtbot.addWidget(widget)
    widget.resize(800, 8 * ROW_HEIGHT)
    widget.set_frame(frame)
    widget.show()
    qtbot.waitExposed(widget)
    assert widget.summary() == (
        "bytes allocated in the span and still alive at its end: 32.0 MiB; "
        "'transformer.py:160' matches 100.0% of the cost"
    )
    leaf = [frame.label(i) for i in range(len(frame))].index(LEAK_SITE)
    depth = int(frame.depth[leaf])
    y = depth * ROW_HEIGHT + ROW_HEIGHT / 2  # an icicle: the root on the first row
    assert _colour(widget, 400, depth * ROW_HEIGHT + 1) == palette.FLAME_MATCH  # the match is lit (above its text)
    assert _colour(widget, 400, 1) in palette.FLAME_HUES  # the root is not
    assert LEAK_SITE in widget.tooltip_of(widget.row_at(400, y))
    with qtbot.waitSignal(widget.picked) as picked:
        qtbot.mouseClick(widget, QtCore.Qt.MouseButton.LeftButton, pos=QtCore.QPoint(400, int(y)))
    assert picked.args == [leaf]
    # the document lights the clicked frame's blocks: the hidden states kept by steps 1 to 3
    lit = doc.light_flame_frame(frame, leaf)
    assert lit.spotlight is not None
    blocks = lit.state.blocks
    assert lit.spotlight.mask.sum() == 3 and set(blocks.state[lit.spotlight.mask].tolist()) == {BlockState.ALLOCATED}
    assert set(blocks.size[lit.spotlight.mask].tolist()) == {32 << 20}


def test_a_flame_has_its_root_at_the_bottom_and_a_double_click_zooms(qtbot: Any, doc: SnapshotDocument) -> None:
    frame = doc.flame_frame("live", inverted=True)
    assert frame is not None
    widget = FlameGraph()
    qtbot.addWidget(widget)
    widget.resize(600, 10 * ROW_HEIGHT)
    widget.set_frame(frame)
    widget.set_icicle(False)
    widget.show()
    qtbot.waitExposed(widget)
    bottom = 9 * ROW_HEIGHT + 1  # above the labels' text
    assert _colour(widget, 5, bottom) in palette.FLAME_HUES  # the root spans the whole bottom row
    assert _colour(widget, 5, 1) == palette.PLOT_BACKGROUND
    # the narrowest rectangle of the first level, double-clicked, fills the width
    first = [i for i in range(len(frame)) if frame.depth[i] == 1]
    narrow = min(first, key=lambda i: int(frame.width[i]))
    left, right, top = widget._place()
    x = (left[narrow] + right[narrow]) / 2
    qtbot.mouseDClick(widget, QtCore.Qt.MouseButton.LeftButton, pos=QtCore.QPoint(int(x), int(top[narrow] + 5)))
    left, right, _top = widget._place()
    assert left[narrow] == pytest.approx(0.0) and right[narrow] == pytest.approx(600.0)
    widget.zoom_to(0)
    assert widget._place()[1][0] == pytest.approx(600.0)
