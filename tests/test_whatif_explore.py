"""The what-if comparison travels both runs together by click, drag and keys; it draws both runs' curves apart."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest
from PySide6 import QtCore, QtGui, QtWidgets

from gpumem_gui.assets import example_path
from gpumem_gui.core.analysis.timetravel import build_timeline
from gpumem_gui.core.snapshot.loader import load_snapshot
from gpumem_gui.document.document import SnapshotDocument
from gpumem_gui.document.staging import WhatIfRun, replay_document
from gpumem_gui.views.compare.whatif_view import WhatIfDialog, WhatIfView

Qt = QtCore.Qt


@pytest.fixture(scope="module")
def run() -> WhatIfRun:
    document = SnapshotDocument(load_snapshot(example_path("fragmented_oom")))
    return replay_document(document, ["expandable_segments:True"], None, lambda: None)


@pytest.fixture
def compare(qtbot: Any, run: WhatIfRun) -> WhatIfView:
    view = WhatIfView(run)
    qtbot.addWidget(view)
    view.resize(1200, 800)
    view.show()
    qtbot.waitExposed(view)
    return view


def _shows(view: WhatIfView, run: WhatIfRun, index: int) -> None:
    """Both maps show their run's state right after `index` (the replayed one after the replayed event of the same
    request; from timelines built anew), the titles name it."""
    assert view.current_event == index
    for snapshot, shown, title, at in zip(
        (run.original.snapshot, run.replayed.snapshot),
        view.maps,
        view.titles,
        (index, view.replayed_at(index)),
        strict=True,
    ):
        expected = build_timeline(snapshot, 0).state_at(at)
        assert shown.state is not None
        assert np.array_equal(shown.state.blocks.address, expected.blocks.address)
        assert np.array_equal(shown.state.blocks.state, expected.blocks.state)
        assert (f"after event {at:,} of" if at >= 0 else "before the first event") in title.text()


def _viewport_point(view: WhatIfView, event: float) -> QtCore.QPoint:
    """The viewport pixel of the timeline at x = `event`, half way up."""
    (_lo, _hi), (bottom, top) = view.view_box.viewRange()
    scene = view.view_box.mapViewToScene(QtCore.QPointF(event, (bottom + top) / 2))
    return view.plot.mapFromScene(scene)


def _mouse(view: WhatIfView, kind: QtCore.QEvent.Type, at: QtCore.QPoint, buttons: Qt.MouseButton) -> None:
    button = Qt.MouseButton.NoButton if kind == QtCore.QEvent.Type.MouseMove else Qt.MouseButton.LeftButton
    viewport = view.plot.viewport()
    global_at = viewport.mapToGlobal(at)
    event = QtGui.QMouseEvent(
        kind, QtCore.QPointF(at), QtCore.QPointF(global_at), button, buttons, Qt.KeyboardModifier.NoModifier
    )
    QtWidgets.QApplication.sendEvent(viewport, event)


def test_a_click_on_the_timeline_travels_both_runs(compare: WhatIfView, run: WhatIfRun) -> None:
    at = _viewport_point(compare, 50)
    _mouse(compare, QtCore.QEvent.Type.MouseButtonPress, at, Qt.MouseButton.LeftButton)
    _mouse(compare, QtCore.QEvent.Type.MouseButtonRelease, at, Qt.MouseButton.NoButton)
    _shows(compare, run, 50)
    assert round(compare.cursor_line.value()) == 50


def test_a_drag_on_the_timeline_travels_and_does_not_pan(qtbot: Any, compare: WhatIfView, run: WhatIfRun) -> None:
    x_range = compare.view_box.viewRange()[0]
    seen: list[int] = []
    compare.event_changed.connect(seen.append)
    start = _viewport_point(compare, 20)
    _mouse(compare, QtCore.QEvent.Type.MouseButtonPress, start, Qt.MouseButton.LeftButton)
    for event in (30, 45, 60, 80, 120):
        _mouse(compare, QtCore.QEvent.Type.MouseMove, _viewport_point(compare, event), Qt.MouseButton.LeftButton)
        qtbot.wait(1)
    end = _viewport_point(compare, 120)
    _mouse(compare, QtCore.QEvent.Type.MouseButtonRelease, end, Qt.MouseButton.NoButton)
    _shows(compare, run, 120)
    assert len(seen) >= 3 and seen[-1] == 120  # it travelled on the way, not only at the release
    assert compare.view_box.viewRange()[0] == pytest.approx(x_range)  # the left button travels, it does not pan


def test_keys_travel_both_runs(compare: WhatIfView, run: WhatIfRun) -> None:
    n = run.original.n_events  # the cursor counts the recorded events (the replayed map shows the paired one)
    page = max(10, n // 100)

    def press(key: Qt.Key, to: QtWidgets.QWidget) -> None:
        QtWidgets.QApplication.sendEvent(
            to, QtGui.QKeyEvent(QtCore.QEvent.Type.KeyPress, key, Qt.KeyboardModifier.NoModifier)
        )

    press(Qt.Key.Key_Home, compare)
    _shows(compare, run, 0)
    press(Qt.Key.Key_Right, compare.plot)  # the plot has the focus after a click: its keys travel too
    press(Qt.Key.Key_Right, compare.maps[1].plot)
    _shows(compare, run, 2)
    press(Qt.Key.Key_PageDown, compare.plot)
    _shows(compare, run, 2 + page)
    press(Qt.Key.Key_Left, compare)
    press(Qt.Key.Key_PageUp, compare)
    _shows(compare, run, 1)
    press(Qt.Key.Key_End, compare.plot)
    assert compare.current_event == n - 1
    assert abs(compare.cursor_line.value() - (n - 1)) < 0.5


def test_both_runs_reserved_and_allocated_are_drawn_as_steps(compare: WhatIfView, run: WhatIfRun) -> None:
    """Each curve, between two events, holds the value the run's series has after the first of them."""
    items = compare.plot.getPlotItem().listDataItems()
    assert len(items) == 4
    gib = float(1 << 30)  # this file's peak is 15.5 GiB
    assert compare.plot.getAxis("left").labelText == "memory (GiB)"
    compare.plot.setXRange(0, 150, padding=0)
    compare._draw_curves()
    series = [build_timeline(d.snapshot, 0).series for d in (run.original, run.replayed)]
    expected = [getattr(s, kind) for s in series for kind in ("reserved", "allocated")]
    for item, values in zip(items, expected, strict=True):
        xs, ys = item.getData()
        for i in (3, 57, 101, 140):
            k = int(np.searchsorted(xs, i + 0.5))
            assert ys[k - 1] == ys[k] == pytest.approx(values[i] / gib), i
    widths = [item.opts["pen"].widthF() for item in items]
    assert widths[0] > widths[2] and widths[1] > widths[3]  # the recorded run is wider, around the replayed one
    styles = [item.opts["pen"].style() for item in items]
    assert styles == [Qt.PenStyle.SolidLine, Qt.PenStyle.DashLine] * 2


def test_the_legend_names_every_colour_drawn(compare: WhatIfView) -> None:
    text = compare.legend.text()
    legend_colours = {QtGui.QColor(c).name() for c in re.findall(r"color:(#[0-9a-fA-F]{3,6})\b", text)}
    for item in compare.plot.getPlotItem().listDataItems():
        colour = item.opts["pen"].color()
        alpha = colour.alphaF()
        # the colour as it shows over the white plot, worked out here from the pen's own RGBA
        shown = "#" + "".join(f"{round(c * alpha + 255 * (1 - alpha)):02x}" for c in colour.getRgb()[:3])
        assert shown in legend_colours
    assert compare.cursor_line.pen.color().name() in legend_colours
    assert compare.legend.wordWrap()
    assert compare.legend.geometry().bottom() <= compare.height()  # under the plot, whole


def test_the_dialog_shows_each_hint_whole(qtbot: Any) -> None:
    dialog = WhatIfDialog()
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    for field in (dialog.max_split, dialog.divisions, dialog.gc, dialog.fraction, dialog.capacity):
        hint = field.placeholderText()
        assert field.width() > field.fontMetrics().horizontalAdvance(hint), hint
