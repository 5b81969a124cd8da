"""Stack on hover with click-to-pin, on the map and the site timeline (the segment timeline's is in
test_segment_timeline.py); the settings page in the tab and in `render`; `render --pin`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PySide6 import QtCore, QtGui, QtWidgets

from gpumem_gui.core import load_snapshot
from gpumem_gui.core.snapshot.model import BlockState
from gpumem_gui.core.snapshot.stacks import filter_frames
from gpumem_gui.document.settings_page import NOT_RECORDED, settings_page
from gpumem_gui.render import render
from gpumem_gui.views.common import palette
from gpumem_gui.views.common.hover_stack import HOVER_HINT, PINNED_HINT, StackPopup
from gpumem_gui.views.common.stack_view import display_name
from gpumem_gui.views.snapshot.tab import SnapshotTab
from tests.conftest import fixture_path
from tests.test_views import _scene_pos_of_block

Qt = QtCore.Qt
CRANBERRII = "cranberrii_memory_snapshot.pickle"
CONSTRUCTOR = "constructor_memory_snapshot.pickle"


def _send(viewport: QtWidgets.QWidget, kind: QtCore.QEvent.Type, at: QtCore.QPoint) -> None:
    moving = kind == QtCore.QEvent.Type.MouseMove
    button = Qt.MouseButton.NoButton if moving else Qt.MouseButton.LeftButton
    held = Qt.MouseButton.LeftButton if kind == QtCore.QEvent.Type.MouseButtonPress else Qt.MouseButton.NoButton
    event = QtGui.QMouseEvent(
        kind, QtCore.QPointF(at), QtCore.QPointF(viewport.mapToGlobal(at)), button, held, Qt.KeyboardModifier.NoModifier
    )
    if moving:
        QtCore.QThread.msleep(12)  # pyqtgraph drops a move within 10 ms of the last (its mouseRateLimit: 100 a second)
    QtWidgets.QApplication.sendEvent(viewport, event)


def _card_pixel(popup: StackPopup) -> str:
    """The colour drawn inside the popup's left margin, in a grab of the window that holds it."""
    holder = popup.parentWidget()
    assert holder is not None
    picture = holder.grab().toImage()
    return QtGui.QColor(picture.pixel(popup.geometry().topLeft() + QtCore.QPoint(2, popup.height() // 2))).name()


@pytest.fixture
def doc(qtbot: Any) -> SnapshotTab:
    view = SnapshotTab(load_snapshot(fixture_path(CRANBERRII)))
    qtbot.addWidget(view)
    view.resize(1400, 900)
    view.show()
    qtbot.waitExposed(view)
    qtbot.waitUntil(lambda: not view.settling())
    return view


def _blocks_with_stacks(doc: SnapshotTab) -> list[int]:
    state = doc.map.state
    assert state is not None
    b = state.blocks
    live = np.flatnonzero((b.state == BlockState.ALLOCATED) & (b.stack >= 0))
    return [int(i) for i in live[np.argsort(-b.size[live])]]


def test_the_map_shows_a_block_s_stack_on_hover_and_pins_it_on_click(doc: SnapshotTab, qtbot: Any) -> None:
    state = doc.map.state
    assert state is not None
    first, second = _blocks_with_stacks(doc)[:2]
    viewport = doc.map.plot.viewport()

    def point(index: int) -> QtCore.QPoint:
        return doc.map.plot.mapFromScene(_scene_pos_of_block(doc, index))

    _send(viewport, QtCore.QEvent.Type.MouseMove, point(first))
    popup = doc.map.popup
    assert popup.isVisible() and not popup.pinned and popup.hint.text() == HOVER_HINT
    frames = doc.snapshot.stacks.stack(int(state.blocks.stack[first]))
    text = popup.text()
    assert f"{int(state.blocks.address[first]):#x}" in text
    assert display_name(filter_frames(frames)[0]) in text
    assert _card_pixel(popup) == palette.POPUP_BACKGROUND
    # the next block under the pointer replaces it while hovering
    _send(viewport, QtCore.QEvent.Type.MouseMove, point(second))
    assert f"{int(state.blocks.address[second]):#x}" in popup.text()
    # a click pins the block clicked; hovering elsewhere leaves it, and its details show in the block tab
    _send(viewport, QtCore.QEvent.Type.MouseButtonPress, point(first))
    _send(viewport, QtCore.QEvent.Type.MouseButtonRelease, point(first))
    assert popup.pinned and popup.hint.text() == PINNED_HINT
    assert popup.text() == text
    _send(viewport, QtCore.QEvent.Type.MouseMove, point(second))
    assert popup.text() == text and popup.isVisible()
    assert doc.side_tabs.currentWidget() is doc.block_page
    doc.map.setFocus()
    qtbot.keyClick(doc.map, Qt.Key.Key_Escape)  # Esc unpins it
    assert not popup.pinned and not popup.isVisible()
    _send(viewport, QtCore.QEvent.Type.MouseMove, point(second) + QtCore.QPoint(1, 0))  # a move: another point
    assert popup.isVisible() and f"{int(state.blocks.address[second]):#x}" in popup.text()


def test_a_click_on_nothing_unpins_and_hover_off_the_blocks_hides(doc: SnapshotTab) -> None:
    first = _blocks_with_stacks(doc)[0]
    viewport = doc.map.plot.viewport()
    at = doc.map.plot.mapFromScene(_scene_pos_of_block(doc, first))
    _send(viewport, QtCore.QEvent.Type.MouseButtonPress, at)
    _send(viewport, QtCore.QEvent.Type.MouseButtonRelease, at)
    assert doc.map.popup.pinned
    nowhere = QtCore.QPoint(3, viewport.height() - 3)  # the map's margin, left of the image: no block
    assert doc.map.block_at_scene(doc.map.plot.mapToScene(nowhere)) < 0
    _send(viewport, QtCore.QEvent.Type.MouseButtonPress, nowhere)
    _send(viewport, QtCore.QEvent.Type.MouseButtonRelease, nowhere)
    assert not doc.map.popup.pinned and not doc.map.popup.isVisible()
    _send(viewport, QtCore.QEvent.Type.MouseMove, at)
    assert doc.map.popup.isVisible()
    _send(viewport, QtCore.QEvent.Type.MouseMove, nowhere)
    assert not doc.map.popup.isVisible()


def test_the_site_timeline_shows_a_band_s_stack_on_hover(doc: SnapshotTab, qtbot: Any) -> None:
    doc.curve_tabs.setCurrentWidget(doc.site_timeline)
    view = doc.site_timeline
    qtbot.waitUntil(lambda: view.bands is not None and len(view._drawn_events) > 0, timeout=20_000)
    bands = view.bands
    assert bands is not None
    at = int(view._drawn_events[len(view._drawn_events) // 2])
    values = bands.band_at(at) / view.unit_scale
    tops = np.cumsum(values)
    k = next(k for k in range(len(values)) if values[k] > 0.05 * tops[-1] and bands.bands[k].stack >= 0)
    scene = view.view_box.mapViewToScene(QtCore.QPointF(at + 0.5, tops[k] - values[k] / 2))
    viewport = view.plot.viewport()
    _send(viewport, QtCore.QEvent.Type.MouseMove, view.plot.mapFromScene(scene))
    assert view.popup.isVisible()
    first = filter_frames(doc.snapshot.stacks.stack(bands.bands[k].stack))[0]
    assert display_name(first) in view.popup.text()
    assert _card_pixel(view.popup) == palette.POPUP_BACKGROUND


def test_the_settings_tab_reads_the_file_s_settings(doc: SnapshotTab, qtbot: Any) -> None:
    tabs = [doc.side_tabs.tabText(i) for i in range(doc.side_tabs.count())]
    assert "settings" in tabs
    page = doc.settings_view
    assert page.page == settings_page(None)  # cranberrii recorded none
    shown = page.plain_text()
    assert shown.startswith(str(NOT_RECORDED))
    assert "expandable_segments = not recorded; assumed: False (default: False)" in shown
    rows = {row[0]: row for row in page.row_texts()}
    assert rows["expandable_segments"][1:3] == ("not recorded; assumed: False", "False")
    doc.show_what_if(["expandable_segments:True"])  # a what-if replay of this tab ran
    rows = {row[0]: row for row in page.row_texts()}
    assert rows["expandable_segments"][4] == "True (changed)"
    assert "what if: True (changed)" in page.plain_text()


def _count(image: QtGui.QImage, colour: str, step: int = 2) -> int:
    """How many of every `step`-th pixel, across and down, are exactly `colour`."""
    wanted = QtGui.QColor(colour).rgb()
    xs, ys = range(0, image.width(), step), range(0, image.height(), step)
    return sum(image.pixel(x, y) == wanted for x in xs for y in ys)


def test_render_settings_warns_only_where_nothing_was_recorded(tmp_path: Path, qapp: Any) -> None:
    counts = {}
    for name in (CRANBERRII, CONSTRUCTOR):
        out = tmp_path / f"{name}.png"
        render(str(fixture_path(name)), str(out), view="settings", size=(1200, 600))
        counts[name] = _count(QtGui.QImage(str(out)), palette.WARNING_TEXT, step=1)
    assert counts[CRANBERRII] > 40 and counts[CONSTRUCTOR] == 0  # the note's text, in the warning colour


def test_render_pins_the_stack_of_a_block_given_by_its_address(tmp_path: Path, qapp: Any) -> None:
    snapshot = load_snapshot(fixture_path(CRANBERRII))
    path = str(fixture_path(CRANBERRII))
    plain, pinned = tmp_path / "plain.png", tmp_path / "pinned.png"
    render(path, str(plain), view="map", size=(1000, 700))
    b = snapshot.state.for_device(0).blocks
    address = int(b.address[int(np.argmax(b.size))])  # live at the peak the window opens at, and at the end
    render(path, str(pinned), view="map", size=(1000, 700), pin=str(address))
    card = _count(QtGui.QImage(str(pinned)), palette.POPUP_BACKGROUND)
    assert _count(QtGui.QImage(str(plain)), palette.POPUP_BACKGROUND) == 0 and card > 2000
    with pytest.raises(ValueError, match="no block holds address 0x10"):
        render(path, str(pinned), view="map", pin="16")
    with pytest.raises(ValueError, match="--pin"):
        render(path, str(pinned), view="timeline", pin=str(address))


def test_a_pinned_stack_leaves_with_its_tab_and_comes_back_with_it(qapp: Any) -> None:
    """The card lies over the whole window (a child of it): another tab picked, it must not float over that tab."""
    window = QtWidgets.QWidget()
    tabs = QtWidgets.QTabWidget(window)
    host, other = QtWidgets.QWidget(), QtWidgets.QWidget()
    tabs.addTab(host, "map")
    tabs.addTab(other, "what if")
    window.resize(600, 400)
    tabs.resize(600, 400)
    window.show()
    popup = StackPopup(host)
    frame = load_snapshot(fixture_path(CONSTRUCTOR)).stacks.stack(0)
    popup.pin(1, "<b>0x1000</b>", list(frame), QtCore.QPoint(20, 20))
    assert popup.isVisible() and popup.parentWidget() is window
    tabs.setCurrentWidget(other)
    assert not popup.isVisible() and popup.pinned  # gone with its tab, still pinned
    tabs.setCurrentWidget(host)
    assert popup.isVisible()  # back with it
    popup.unpin()
    tabs.setCurrentWidget(other)
    tabs.setCurrentWidget(host)
    assert not popup.isVisible()  # an unpinned card does not come back
    window.close()
