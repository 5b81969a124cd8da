"""The cached-segment timeline: bands of segment lives stacked to the reserved series, read from the picture; a
segment's stack on hover, pinned by a click; the tab beside the site timeline; `render --view segments`."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PySide6 import QtCore, QtGui, QtWidgets

from gpumem_gui.core import load_snapshot
from gpumem_gui.core.analysis.timetravel import DeviceTimeline, build_timeline
from gpumem_gui.core.snapshot.model import Snapshot
from gpumem_gui.core.snapshot.stacks import filter_frames
from gpumem_gui.render import render
from gpumem_gui.views.common import palette
from gpumem_gui.views.common.hover_stack import PINNED_HINT
from gpumem_gui.views.common.stack_view import display_name
from gpumem_gui.views.snapshot.segment_timeline import SegmentTimelineView, band_colour
from gpumem_gui.views.snapshot.tab import SnapshotTab
from tests.conftest import fixture_path

Qt = QtCore.Qt


@cache
def _cranberrii() -> tuple[Snapshot, DeviceTimeline]:
    snapshot = load_snapshot(fixture_path("cranberrii_memory_snapshot.pickle"))
    return snapshot, build_timeline(snapshot, 0)


@pytest.fixture
def view(qtbot: Any) -> SegmentTimelineView:
    widget = SegmentTimelineView()
    qtbot.addWidget(widget)
    widget.resize(1300, 520)
    widget.show()
    qtbot.waitExposed(widget)
    widget.set_timeline(*_cranberrii())
    return widget


def _send(view: SegmentTimelineView, kind: QtCore.QEvent.Type, x: float, y: float) -> None:
    at = view.plot.mapFromScene(view.view_box.mapViewToScene(QtCore.QPointF(x, y)))
    viewport = view.plot.viewport()
    moving = kind == QtCore.QEvent.Type.MouseMove
    button = Qt.MouseButton.NoButton if moving else Qt.MouseButton.LeftButton
    held = Qt.MouseButton.LeftButton if kind == QtCore.QEvent.Type.MouseButtonPress else Qt.MouseButton.NoButton
    event = QtGui.QMouseEvent(
        kind, QtCore.QPointF(at), QtCore.QPointF(viewport.mapToGlobal(at)), button, held, Qt.KeyboardModifier.NoModifier
    )
    if moving:
        QtCore.QThread.msleep(12)  # pyqtgraph drops a move within 10 ms of the last (its mouseRateLimit: 100 a second)
    QtWidgets.QApplication.sendEvent(viewport, event)


def _click(view: SegmentTimelineView, x: float, y: float) -> None:
    _send(view, QtCore.QEvent.Type.MouseButtonPress, x, y)
    _send(view, QtCore.QEvent.Type.MouseButtonRelease, x, y)


def _thick_bands(view: SegmentTimelineView, at: int) -> tuple[list[int], np.ndarray, np.ndarray]:
    """The bands at least 2 % of the stack thick right after event `at`, their values and tops (axis units)."""
    assert view.series is not None
    values = view.series.at([at])[:, 0] / view.unit_scale
    tops = np.cumsum(values)
    return [k for k in range(len(values)) if values[k] > 0.02 * tops[-1]], values, tops


def test_the_drawn_stack_is_the_reserved_series_and_each_band_its_colour(view: SegmentTimelineView, qtbot: Any) -> None:
    _snapshot, timeline = _cranberrii()
    qtbot.waitUntil(lambda: len(view._drawn_events) > 0)
    events = view._drawn_events[:-1].astype(np.int64)
    s = timeline.series
    reserved = np.concatenate([[int(s.initial["reserved"])], s.reserved])
    assert np.allclose(view._drawn_tops[-1, :-1] * view.unit_scale, reserved[events + 1])
    assert view.table.rowCount() == len(view.series.lives) == 215  # one row per segment life
    at = timeline.n_events - 100
    thick, values, tops = _thick_bands(view, at)
    assert len(thick) >= 3
    picture = view.plot.grab().toImage()
    for k in thick:
        point = view.plot.mapFromScene(view.view_box.mapViewToScene(QtCore.QPointF(at, tops[k] - values[k] / 2)))
        assert QtGui.QColor(picture.pixel(point)).name() == band_colour(k), k


def test_hover_shows_a_segment_s_stack_and_a_click_pins_it(view: SegmentTimelineView, qtbot: Any) -> None:
    snapshot, timeline = _cranberrii()
    series = view.series
    assert series is not None
    qtbot.waitUntil(lambda: len(view._drawn_events) > 0)
    at = timeline.n_events - 100
    thick, values, tops = _thick_bands(view, at)
    # a segment made during the trace: its segment_alloc recorded a stack
    made = [k for k in thick if k and series.band_life(k).created >= 0 and series.band_life(k).stack >= 0]
    other = [k for k in thick if k not in made]
    assert made and other
    k = made[0]
    life = series.band_life(k)
    _send(view, QtCore.QEvent.Type.MouseMove, at, tops[k] - values[k] / 2)
    assert view.popup.isVisible() and not view.popup.pinned
    text = view.popup.text()
    assert f"{life.address:#x}" in text and f"event {life.created:,}" in text
    first = filter_frames(snapshot.stacks.stack(life.stack))[0]
    assert display_name(first) in text
    # the popup is drawn with the view: its card's colour where it lies
    picture = view.grab().toImage()
    corner = view.popup.geometry().topLeft() + QtCore.QPoint(2, view.popup.height() // 2)
    assert QtGui.QColor(picture.pixel(corner)).name() == palette.POPUP_BACKGROUND
    # a click pins it: another band under the pointer does not replace it
    _click(view, at, tops[k] - values[k] / 2)
    assert view.popup.pinned and view.popup.hint.text() == PINNED_HINT and view.selected == k
    assert view.table.currentRow() == series.drawn[k - 1]
    j = other[0]
    _send(view, QtCore.QEvent.Type.MouseMove, at, tops[j] - values[j] / 2)
    assert view.popup.text() == text and view.popup.isVisible()
    _click(view, at, tops[-1] * 1.05)  # above the stack: nothing there, the popup goes
    assert not view.popup.pinned and not view.popup.isVisible()


def test_the_tab_shows_the_segments_of_the_device_and_follows_the_cursor(qtbot: Any) -> None:
    snapshot, _timeline = _cranberrii()
    doc = SnapshotTab(snapshot)
    qtbot.addWidget(doc)
    doc.show()
    qtbot.waitUntil(lambda: not doc.settling())
    tabs = [doc.curve_tabs.tabText(i) for i in range(doc.curve_tabs.count())]
    assert tabs == ["memory", "allocated by site", "cached segments", "by pool", "flame"]
    doc.show_segments()
    segments = doc.segment_timeline
    assert segments.series is not None and len(segments.series.lives) == 215
    doc.travel_to(500)
    assert segments.current_event == 500 and segments.cursor_line.value() == 500


def test_render_draws_the_segments_view(tmp_path: Path, qapp: Any) -> None:
    out = tmp_path / "segments.png"
    render(str(fixture_path("constructor_memory_snapshot.pickle")), str(out), view="segments", size=(1000, 500))
    image = QtGui.QImage(str(out))
    assert (image.width(), image.height()) == (1000, 500)
    # the expandable large segment, grown to 78 GiB, is the first band: a large share of the plot in its colour
    wanted = QtGui.QColor(band_colour(1)).rgb()
    hits = sum(image.pixel(x, y) == wanted for x in range(0, 1000, 4) for y in range(0, 500, 4))
    assert hits > 0.1 * (250 * 125)
