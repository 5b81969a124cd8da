"""The event list's own painting against Qt's: its cells as the stock QStyledItemDelegate and the style draw them
(selected, inactive, disabled, elided, focused), its scroll bar's pixels on screen as a full repaint draws them after
travels that repaint only the handle, and its tooltips still read from the model."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from PySide6 import QtCore, QtGui, QtWidgets

from gpumem_gui.core import load_snapshot
from gpumem_gui.views.snapshot.event_list import EventCellDelegate, EventListView
from tests.conftest import fixture_path, load_raw

STYLES = ("Fusion", "Windows")  # the styles whose cells the list draws itself


@pytest.fixture(params=STYLES)
def styled(request: pytest.FixtureRequest, qtbot: Any) -> Iterator[EventListView]:
    app = QtWidgets.QApplication.instance()
    assert isinstance(app, QtWidgets.QApplication)
    before = app.style().name()
    app.setStyle(request.param)
    view = EventListView()
    qtbot.addWidget(view)
    view.resize(700, 400)
    view.set_document(load_snapshot(fixture_path("constructor_memory_snapshot.pickle")), 1)
    view.show()
    qtbot.waitExposed(view)
    yield view
    app.setStyle(before)


def _pixels(image: QtGui.QImage) -> np.ndarray:
    image = image.convertToFormat(QtGui.QImage.Format.Format_RGB32)
    rows = np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), image.bytesPerLine() // 4, 4)
    return rows[:, : image.width(), 2::-1].astype(np.int16)  # memory holds B, G, R, x: read as R, G, B


def _stock_and_own(view: EventListView, monkeypatch: pytest.MonkeyPatch) -> tuple[np.ndarray, np.ndarray, int]:
    """The viewport drawn by the list's delegate (and how many cells it left to the stock one), then by Qt's stock
    QStyledItemDelegate, the model asked every role (the oracle)."""
    stock_paint = QtWidgets.QStyledItemDelegate.paint
    handed = []

    def counted(self: QtWidgets.QStyledItemDelegate, *args: Any) -> None:
        handed.append(self)
        stock_paint(self, *args)

    table = view.view
    with monkeypatch.context() as patch:
        patch.setattr(QtWidgets.QStyledItemDelegate, "paint", counted)
        own = _pixels(table.viewport().grab().toImage())
    own_delegate = table.itemDelegate()
    assert isinstance(own_delegate, EventCellDelegate)
    table.setItemDelegate(QtWidgets.QStyledItemDelegate(table))
    try:
        stock = _pixels(table.viewport().grab().toImage())
    finally:
        table.setItemDelegate(own_delegate)
    return own, stock, len(handed)


def _assert_same(own: np.ndarray, stock: np.ndarray) -> None:
    # the same glyphs at the same places: a pixel may differ by a shade of anti-aliasing, no more, and few may
    difference = np.abs(own - stock).max(axis=2)
    assert own.shape == stock.shape
    assert int((difference > 48).sum()) == 0, f"{int((difference > 0).sum())} pixels differ"


def test_cells_look_as_the_stock_delegate_draws_them(styled: EventListView, monkeypatch: pytest.MonkeyPatch) -> None:
    view = styled
    table = view.view
    view.show_event(300)  # a selected row, in the middle of the viewport
    rows = table.viewport().height() // table.rowHeight(0)
    own, stock, handed = _stock_and_own(view, monkeypatch)
    assert handed == 0  # every cell drawn by the list's own delegate, none left to the stock one
    _assert_same(own, stock)
    selected = table.visualRect(table.currentIndex())
    highlight = table.palette().color(QtGui.QPalette.ColorGroup.Normal, QtGui.QPalette.ColorRole.Highlight)
    if table.isActiveWindow():
        # the highlight fills the selected row's cells where no text is (a hand-picked pixel: the cell's left edge)
        assert tuple(own[selected.center().y(), selected.left() + 1]) == highlight.getRgb()[:3]
    assert rows >= 5

    # narrow columns: texts elided on the right as the style elides them; right-aligned numbers stay right
    for column, width in ((0, 40), (1, 45), (2, 40), (3, 50), (4, 30), (5, 8)):
        table.setColumnWidth(column, width)
    own, stock, _ = _stock_and_own(view, monkeypatch)
    _assert_same(own, stock)


def test_focused_inactive_and_disabled_cells(styled: EventListView, monkeypatch: pytest.MonkeyPatch) -> None:
    view = styled
    table = view.view
    view.show_event(120)
    table.setFocus()  # the current cell's focus frame: left to the stock delegate, one cell
    own, stock, handed = _stock_and_own(view, monkeypatch)
    _assert_same(own, stock)
    assert handed <= 1
    # a palette whose inactive and disabled groups differ from the normal one: each state's colours are told apart
    palette = table.palette()
    for group, highlight, text in (
        (QtGui.QPalette.ColorGroup.Inactive, "#c08040", "#203060"),
        (QtGui.QPalette.ColorGroup.Disabled, "#808080", "#a0a0a0"),
        (QtGui.QPalette.ColorGroup.Active, "#2050c0", "#101010"),
    ):
        palette.setColor(group, QtGui.QPalette.ColorRole.Highlight, QtGui.QColor(highlight))
        palette.setColor(group, QtGui.QPalette.ColorRole.Text, QtGui.QColor(text))
    table.setPalette(palette)
    own, stock, _ = _stock_and_own(view, monkeypatch)
    _assert_same(own, stock)
    table.setEnabled(False)
    own, stock, _ = _stock_and_own(view, monkeypatch)
    _assert_same(own, stock)
    table.setEnabled(True)


def test_the_stock_delegate_draws_under_another_style(qtbot: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    view = EventListView()
    qtbot.addWidget(view)
    view.view.setStyleSheet("QTableView { color: #123456; }")  # a style sheet's style: not ours to imitate
    view.resize(600, 300)
    view.set_document(load_snapshot(fixture_path("constructor_memory_snapshot.pickle")), 1)
    view.show()
    qtbot.waitExposed(view)
    view.show_event(40)
    own, stock, handed = _stock_and_own(view, monkeypatch)
    assert handed > 0
    assert np.array_equal(own, stock)


def test_the_scroll_bar_on_screen_is_what_a_full_repaint_draws(styled: EventListView) -> None:
    """After each travel the bar's pixels on screen (only the handle's old and new places repainted) are what
    painting the whole bar afresh gives; the ends of the list too, where a style might mark an end."""
    view = styled
    app = QtWidgets.QApplication.instance()
    assert app is not None
    bar = view.view.verticalScrollBar()
    rows = len(view.indices)
    rng = random.Random(3)
    screen = view.screen()
    for row in [rng.randrange(rows) for _ in range(12)] + [0, rows - 1, 1, rows - 2]:
        view.show_event(int(view.indices[row]))
        app.processEvents()
        top = bar.mapTo(view.window(), QtCore.QPoint(0, 0))
        window = view.window().winId()
        shown = screen.grabWindow(window, top.x(), top.y(), bar.width(), bar.height()).toImage()
        assert np.array_equal(_pixels(shown), _pixels(bar.grab().toImage())), row


def test_tooltips_read_the_model(qtbot: Any) -> None:
    path = fixture_path("constructor_memory_snapshot.pickle")
    view = EventListView()
    qtbot.addWidget(view)
    view.resize(700, 300)
    view.set_document(load_snapshot(path), 1)
    view.show()
    qtbot.waitExposed(view)
    entries = load_raw(path)["device_traces"][1]
    row = next(i for i, e in enumerate(entries) if e["action"] == "alloc" and e["size"] > 4096)
    view.show_event(row)
    table = view.view
    rect = table.visualRect(view.model.index(row, 3))
    event = QtGui.QHelpEvent(QtCore.QEvent.Type.ToolTip, rect.center(), table.viewport().mapToGlobal(rect.center()))
    QtWidgets.QApplication.sendEvent(table.viewport(), event)
    assert f"({entries[row]['size']:,} bytes)" in QtWidgets.QToolTip.text()
    QtWidgets.QToolTip.hideText()


def test_each_state_of_a_cell_as_the_stock_delegate(styled: EventListView) -> None:
    """Every cell state (selected or not, window active or not, enabled or not), wide and narrow, drawn by the
    list's delegate and by the stock one from the same option, on a palette whose colour groups all differ."""
    table = styled.view
    palette = table.palette()
    for group, highlight, text, highlighted in (
        (QtGui.QPalette.ColorGroup.Active, "#2050c0", "#101010", "#f0f0f0"),
        (QtGui.QPalette.ColorGroup.Inactive, "#c08040", "#203060", "#e0ffe0"),
        (QtGui.QPalette.ColorGroup.Disabled, "#808080", "#a0a0a0", "#404040"),
    ):
        palette.setColor(group, QtGui.QPalette.ColorRole.Highlight, QtGui.QColor(highlight))
        palette.setColor(group, QtGui.QPalette.ColorRole.Text, QtGui.QColor(text))
        palette.setColor(group, QtGui.QPalette.ColorRole.HighlightedText, QtGui.QColor(highlighted))
    table.setPalette(palette)
    own = table.itemDelegate()
    assert isinstance(own, EventCellDelegate)
    stock = QtWidgets.QStyledItemDelegate(table)
    flag = QtWidgets.QStyle.StateFlag
    height = table.rowHeight(0)
    checked = 0
    for state in range(8):
        for column in range(7):
            for width in (table.columnWidth(column) if column < 6 else 200, 36):
                images = []
                for delegate in (own, stock):
                    option = QtWidgets.QStyleOptionViewItem()
                    option.initFrom(table)
                    option.widget = table
                    option.textElideMode = table.textElideMode()
                    option.rect = QtCore.QRect(0, 0, width, height)
                    option.state = flag.State_None
                    for bit, on in ((flag.State_Selected, 1), (flag.State_Active, 2), (flag.State_Enabled, 4)):
                        if state & on:
                            option.state |= bit
                    image = QtGui.QImage(width, height, QtGui.QImage.Format.Format_RGB32)
                    image.fill(QtGui.QColor("white"))
                    painter = QtGui.QPainter(image)
                    painter.setFont(table.font())
                    own.begin(table)  # a repaint of the table: its shared reading made
                    try:
                        delegate.paint(painter, option, styled.model.index(7, column))
                    finally:
                        own.shared = None
                        painter.end()
                    images.append(_pixels(image))
                checked += 1
    assert checked == 8 * 7 * 2
