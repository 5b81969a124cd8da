"""What the window shows only after a click reads in Romanian and in French too: a block's details and its stack
popup, the event inspector on every kind of event, the curves' hover cards and context menus, and the dialogs of the
File, View, Live and Help menus (their titles, their texts; the file dialogs' titles and filters), walked as
test_translation_walk walks the window."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PySide6 import QtCore, QtGui, QtWidgets
from PySide6.QtCore import Qt

from gpumem_gui.app.window import MainWindow
from gpumem_gui.assets import example_path
from gpumem_gui.core.snapshot.model import Action, BlockState
from gpumem_gui.views.common import language
from gpumem_gui.views.snapshot.tab import SnapshotTab
from tests.test_views import _scene_pos_of_block
from tests.translation_walk import english_left, english_words, opened_window, visible_texts
from tests.translation_walk import settle as _settle
from tests.translation_walk import switch_language as _switch

# torch's name of a free block's state, as in test_translation_walk; the attach dialog's how-to quotes the probe's
# two lines of Python ("import gpumem_gui.probe")
ALLOWED = ("inactive", "import")
Texts = list[tuple[str, str]]


def _made(tab: SnapshotTab) -> None:
    assert tab.scope is not None  # the last of its parts: every page is made


@pytest.fixture(scope="module")
def window(qapp: QtWidgets.QApplication) -> Iterator[MainWindow]:
    """One window for the module, the bundled fragmented OOM open, every part of its tab made."""
    with opened_window([str(example_path("fragmented_oom"))], _made, size=(1500, 950)) as win:
        assert win.current_document() is not None
        yield win


def _send(
    viewport: QtWidgets.QWidget,
    kind: QtCore.QEvent.Type,
    at: QtCore.QPoint,
    button: Qt.MouseButton = Qt.MouseButton.LeftButton,
) -> None:
    """A real mouse event on a plot's viewport (as test_hover_stack sends them)."""
    moving = kind == QtCore.QEvent.Type.MouseMove
    held = button if kind == QtCore.QEvent.Type.MouseButtonPress else Qt.MouseButton.NoButton
    event = QtGui.QMouseEvent(
        kind,
        QtCore.QPointF(at),
        QtCore.QPointF(viewport.mapToGlobal(at)),
        Qt.MouseButton.NoButton if moving else button,
        held,
        Qt.KeyboardModifier.NoModifier,
    )
    if moving:
        QtCore.QThread.msleep(12)  # pyqtgraph drops a move within 10 ms of the last
    QtWidgets.QApplication.sendEvent(viewport, event)


def _click(viewport: QtWidgets.QWidget, at: QtCore.QPoint, button: Qt.MouseButton = Qt.MouseButton.LeftButton) -> None:
    _send(viewport, QtCore.QEvent.Type.MouseMove, at)
    _send(viewport, QtCore.QEvent.Type.MouseButtonPress, at, button)
    _send(viewport, QtCore.QEvent.Type.MouseButtonRelease, at, button)
    _settle()


# -- the map and the block page -----------------------------------------------------------------------------------


def _map_clicks(doc: SnapshotTab) -> Texts:
    """A live block and a free one hovered and clicked: the popup's card and the block page, for each."""
    state = doc.map.state
    assert state is not None
    b = state.blocks
    found: Texts = []
    live = np.flatnonzero((b.state == BlockState.ALLOCATED) & (b.stack >= 0))
    free = np.flatnonzero(b.state == BlockState.INACTIVE)
    assert len(live) and len(free)
    viewport = doc.map.plot.viewport()
    for index in (int(live[np.argmax(b.size[live])]), int(free[np.argmax(b.size[free])])):
        at = doc.map.plot.mapFromScene(_scene_pos_of_block(doc, index))
        _send(viewport, QtCore.QEvent.Type.MouseMove, at)
        assert doc.map.popup.isVisible()
        found += visible_texts(doc.map.popup)
        _click(viewport, at)
        assert doc.map.popup.pinned and doc.side_tabs.currentWidget() is doc.block_page
        found += visible_texts(doc.map.popup)
        found += visible_texts(doc.block_page)  # the category's rule included (core's template, translated)
        doc.map.popup.unpin()
    return found


# -- the event inspector -------------------------------------------------------------------------------------------


def _inspector_on_every_kind(doc: SnapshotTab) -> Texts:
    """The inspector at the first event of every action the trace holds."""
    actions = np.asarray(doc.snapshot.trace(doc.device).action)
    kinds = sorted(set(actions.tolist()))
    assert {int(Action.ALLOC), int(Action.FREE_COMPLETED), int(Action.OOM)} <= set(kinds)
    found: Texts = []
    for kind in kinds:
        doc.travel_to(int(np.flatnonzero(actions == kind)[0]))
        _settle()
        found += [(f"{where} ({Action(kind).name})", text) for where, text in visible_texts(doc.inspector)]
    doc.travel_to_end()
    return found


# -- the curves: hover cards and context menus ---------------------------------------------------------------------


class _Menus:
    """The menus popped up meanwhile, read and closed (QMenu.popup, as the views call it)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.texts: Texts = []
        self.count = 0
        popup = QtWidgets.QMenu.popup

        def read(menu: QtWidgets.QMenu, at: QtCore.QPoint, *args: Any) -> None:
            popup(menu, at, *args)
            self.count += 1
            for action in menu.actions():
                if not action.isSeparator():
                    self.texts.append((f"context menu of {type(menu.parent()).__name__}", action.text()))
            menu.close()

        monkeypatch.setattr(QtWidgets.QMenu, "popup", read)


def _curves(doc: SnapshotTab, menus: _Menus) -> Texts:
    """Each curve page shown, hovered in its middle, right-clicked there; the hover cards and menus read."""
    found: Texts = []
    timeline = doc.timeline_view
    doc.curve_tabs.setCurrentWidget(timeline)
    _settle()
    before = menus.count
    box = timeline.plot.getViewBox()
    middle = timeline.plot.mapFromScene(box.sceneBoundingRect().center())
    _click(timeline.plot.viewport(), middle, Qt.MouseButton.RightButton)
    assert menus.count == before + 1  # the timeline's menu: explain this event, the first OOM
    for page in (doc.site_timeline, doc.segment_timeline):
        doc.curve_tabs.setCurrentWidget(page)
        _settle()
        view_box = page.view_box
        centre = page.plot.mapFromScene(view_box.sceneBoundingRect().center())
        _send(page.plot.viewport(), QtCore.QEvent.Type.MouseMove, centre)
        _settle()
        found += visible_texts(page)
        _click(page.plot.viewport(), centre, Qt.MouseButton.RightButton)
    doc.curve_tabs.setCurrentWidget(timeline)
    return found + menus.texts


# -- the menus' dialogs --------------------------------------------------------------------------------------------


def _dialog_texts(open_it: Callable[[], object]) -> Texts:
    """`open_it()` opens a modal dialog: its title and texts, read once it shows, then it is closed."""
    found: Texts = []

    def read() -> None:
        dialog = QtWidgets.QApplication.activeModalWidget()
        if dialog is None:
            QtCore.QTimer.singleShot(20, read)
            return
        _settle()
        found.append((f"{type(dialog).__name__} title", dialog.windowTitle()))
        found.extend(visible_texts(dialog))
        dialog.close() if isinstance(dialog, QtWidgets.QMessageBox) else dialog.reject()  # type: ignore[attr-defined]

    QtCore.QTimer.singleShot(20, read)
    open_it()
    _settle()
    assert found, "no dialog showed"
    return found


class _FileDialogs:
    """Qt's file dialogs (Qt's own words) answered at once; the caption and filters the window asks for are kept."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.texts: Texts = []

        def asked(name: str, result: object) -> Callable[..., object]:
            def answer(_parent: object, caption: str = "", _where: str = "", filters: str = "", *_: Any) -> object:
                self.texts += [(f"QFileDialog.{name} title", caption), (f"QFileDialog.{name} filter", filters)]
                return result

            return answer

        dialog = QtWidgets.QFileDialog
        for name, result in (
            ("getOpenFileName", ("", "")),
            ("getOpenFileNames", ([], "")),
            ("getSaveFileName", ("", "")),
            ("getExistingDirectory", ""),
        ):
            monkeypatch.setattr(dialog, name, staticmethod(asked(name, result)))


def _menu_dialogs(window: MainWindow, files: _FileDialogs) -> Texts:
    a = window._menu_actions
    found: Texts = []
    for key in ("about", "whatif", "code", "cluster", "attach", "socket", "compare"):
        found += [(f"{key}: {where}", text) for where, text in _dialog_texts(a[key].trigger)]
    for key in ("open", "folder", "image", "csv", "report"):
        a[key].trigger()
        _settle()
    return found + files.texts


def _attach_failure(window: MainWindow, tmp_path: Path) -> Texts:
    """Live > Attach to a socket nobody listens on: the message box that says why."""
    window.live.attach(tmp_path / "nobody.sock")
    deadline = QtCore.QDeadlineTimer(20_000)
    boxes: list[QtWidgets.QMessageBox] = []
    while not boxes and not deadline.hasExpired():
        _settle()
        boxes = [b for b in window.findChildren(QtWidgets.QMessageBox) if b.isVisible()]
    assert boxes, "no message said why the attach failed"
    found: Texts = []
    for box in boxes:
        found += [("attach failure title", box.windowTitle()), *visible_texts(box)]
        box.close()
    return found


@pytest.mark.parametrize("lang", ["ro", "fr"])
def test_no_english_after_a_click(
    window: MainWindow, lang: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _switch(window, lang)
    assert language.current_language() == lang
    doc = window.current_document()
    assert doc is not None
    menus, files = _Menus(monkeypatch), _FileDialogs(monkeypatch)
    texts = _map_clicks(doc) + _inspector_on_every_kind(doc) + _curves(doc, menus) + _menu_dialogs(window, files)
    texts += _attach_failure(window, tmp_path)
    assert len(texts) > 100  # the walk reads what the clicks showed
    left = english_left(texts, ALLOWED)
    assert left == [], f"{len(left)} texts in English after clicks in {lang}:\n" + "\n".join(left)


def test_the_clicks_show_english_in_english(window: MainWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    # the same clicks in English find English: the walk reads what they show
    _switch(window, "en")
    doc = window.current_document()
    assert doc is not None
    texts = _map_clicks(doc) + _inspector_on_every_kind(doc)
    texts += _dialog_texts(window._menu_actions["about"].trigger)
    assert english_left(texts, ALLOWED)
    assert any(english_words(text) for where, text in texts if where.startswith("QMessageBox title"))
