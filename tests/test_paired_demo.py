"""A paired "Show me" (GPU quiz Q5: the contiguous and the paged KV cache) fits the window's pane: both halves whole."""

from __future__ import annotations

import pytest
import pytestqt  # noqa: F401  (a test dependency: missing, the suite fails rather than skips)
from PySide6 import QtCore, QtWidgets

from gpumem_gui.app import MainWindow
from gpumem_gui.views.snapshot.tab import SnapshotTab


@pytest.fixture
def window(qtbot):
    win = MainWindow()
    qtbot.addWidget(win)
    yield win
    if win.teach.quiz_dock is not None:  # the language is a setting: later tests expect the default one
        win.quiz_panel().set_language("en")
    win.shutdown()


def test_both_halves_of_the_kv_pair_are_whole_in_a_default_window(qtbot, window: MainWindow) -> None:
    window.resize(1400, 900)  # the window's default size
    window.show()
    panel = window.open_quiz("gpu-memory")
    quiz = panel.current_quiz
    assert quiz is not None
    question = next(q for q in quiz.questions if q.demo == "kv_cache")
    window.show_demo(question)
    area = window.wait_for_demo()
    assert isinstance(area, QtWidgets.QScrollArea)
    for _ in range(10):
        QtWidgets.QApplication.processEvents()
    views = area.widget().findChildren(SnapshotTab)
    assert len(views) == 2
    viewport = area.viewport()
    assert area.horizontalScrollBar().maximum() == 0 and area.verticalScrollBar().maximum() == 0
    for view in views:
        # the whole view and its map inside the visible pane: nothing to scroll to
        box = QtCore.QRect(view.mapTo(viewport, QtCore.QPoint(0, 0)), view.size())
        assert viewport.rect().contains(box), (box, viewport.rect())
        assert view.map.isVisible() and view.map.plot.height() >= 150
        assert view.figures.isVisible()
    top, bottom = sorted(views, key=lambda v: v.mapTo(viewport, QtCore.QPoint(0, 0)).y())
    assert "buffers" in top.map.focus_caption.text() and "pages" in bottom.map.focus_caption.text()
    panel.set_language("fr")  # the re-caption still finds both views
    assert "pages" in bottom.map.focus_caption.text() and bottom.map.focus_caption.text() != ""
