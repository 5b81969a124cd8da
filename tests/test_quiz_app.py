"""The guided quiz in the window: Help > Guided Quiz, answering, and "Show me" on every question of both quizzes."""

from __future__ import annotations

import pickle
import subprocess
import sys

import numpy as np
import pytest
import pytestqt  # noqa: F401  (a test dependency: missing, the suite fails rather than skips)
from PySide6 import QtWidgets

from gpumem_gui.app import MainWindow
from gpumem_gui.assets import example_path
from gpumem_gui.core.snapshot.model import BlockState
from gpumem_gui.views.compare.whatif_view import WhatIfView
from gpumem_gui.views.snapshot.tab import SnapshotTab


@pytest.fixture
def window(qtbot):
    win = MainWindow()
    qtbot.addWidget(win)
    return win


def test_help_menu_opens_the_quiz_dock(qtbot, window: MainWindow) -> None:
    from PySide6 import QtWidgets  # noqa: PLC0415

    menus = window.menuBar().findChildren(QtWidgets.QMenu)
    actions = {a.text().replace("&", ""): a for menu in menus for a in menu.actions()}
    actions["Guided Quiz"].trigger()
    assert window.quiz_dock is not None and window.quiz_dock.isVisibleTo(window)
    panel = window.quiz_panel()
    assert panel.current_quiz is None or panel.current_quiz.id in ("gpu-memory", "gradient-checkpointing")


def test_show_me_on_every_snapshot_question_highlights_the_data(qtbot, window: MainWindow) -> None:
    panel = window.open_quiz("gpu-memory")
    quiz = panel.current_quiz
    assert quiz is not None and quiz.id == "gpu-memory"
    for question in quiz.questions:
        before = window.tabs.count()
        window.show_demo(question)
        widget = window.lab if question.demo == "checkpointing_lab" else window.wait_for_demo()
        assert widget is not None and window.tabs.currentWidget() is widget
        assert window.tabs.count() <= max(before, 1) + 1  # the previous demo tab is replaced, not piled up
        if question.demo == "checkpointing_lab":
            assert type(widget).__name__ == "CheckpointLabPanel"
            continue
        maps = (
            widget.maps if isinstance(widget, WhatIfView)
            else [d.map for d in widget.findChildren(SnapshotTab)] if not isinstance(widget, SnapshotTab)
            else [widget.map]
        )  # fmt: skip
        assert maps
        for view in maps:
            assert view.spotlight and view.highlight is not None and view.highlight.any(), question.demo
            assert view.focus_caption.isVisibleTo(view) and view.focus_caption.text()
        if question.demo == "fragmented_oom":
            assert isinstance(widget, SnapshotTab)
            state = widget.state
            assert state is not None
            holes = state.blocks.state == BlockState.INACTIVE
            assert np.array_equal(widget.map.highlight, holes)  # exactly the free blocks at the OOM
            assert widget.current_event < widget.timeline(widget.device).n_events  # travelled to the OOM
        assert window.statusBar().currentMessage() == question.caption["en"]


def test_show_me_follows_the_language(qtbot, window: MainWindow) -> None:
    panel = window.open_quiz("gpu-memory")
    panel.set_language("fr")
    question = panel.current_quiz.questions[0]
    window.show_demo(question)
    assert window.statusBar().currentMessage() == question.caption["fr"] != question.caption["en"]


def test_panel_show_me_button_reaches_the_window(qtbot, window: MainWindow) -> None:
    panel = window.open_quiz("gradient-checkpointing")
    panel.request_demo()
    assert window.lab is not None and window.tabs.currentWidget() is window.lab


def test_quiz_command_refuses_an_unknown_id() -> None:
    result = subprocess.run([sys.executable, "-m", "gpumem_gui", "quiz", "nope"], capture_output=True, text=True,
                            timeout=60, check=False)  # fmt: skip
    assert result.returncode == 2 and "known: gpu-memory, gradient-checkpointing" in result.stderr


def test_the_demo_speaks_the_learners_language_and_follows_a_switch(qtbot, window: MainWindow) -> None:
    panel = window.open_quiz("gpu-memory")
    quiz = panel.current_quiz
    assert quiz is not None
    question = next(q for q in quiz.questions if q.demo == "fragmented_oom")
    panel.set_language("fr")
    window.show_demo(question)
    widget = window.wait_for_demo()
    assert isinstance(widget, SnapshotTab)
    with open(example_path("fragmented_oom"), "rb") as f:
        raw = pickle.load(f)
    request = next(e for e in raw["device_traces"][0] if e["action"] == "oom")["size"]
    assert request == 1_610_620_928  # 1.5 GiB: written "1,5 Gio" (a no-break space) in French, "1.5 GiB" in English
    french = widget.map.focus_caption.text()
    assert "1,5\u00a0Gio" in french and "1.5 GiB" not in french
    panel.set_language("en")  # a switch re-words the shown demo without running it again
    english = widget.map.focus_caption.text()
    assert "1.5 GiB" in english and english != french


def test_the_lab_follows_the_quiz_language(qtbot, window: MainWindow) -> None:
    panel = window.open_quiz("gradient-checkpointing")
    panel.set_language("ro")
    lab = window.show_lab("recompute")
    assert lab.language == "ro"  # made in the learner's language
    panel.set_language("fr")
    assert lab.language == "fr"  # and it follows a switch
    window.shutdown()


def test_a_paired_demo_beside_the_quiz_never_widens_the_window(qtbot, window: MainWindow) -> None:
    window.resize(1400, 900)
    window.show()
    panel = window.open_quiz("gpu-memory")
    quiz = panel.current_quiz
    assert quiz is not None
    question = next(q for q in quiz.questions if q.demo == "kv_cache")  # two whole tabs side by side
    window.show_demo(question)
    window.wait_for_demo()
    for _ in range(5):
        QtWidgets.QApplication.processEvents()
    assert window.minimumSizeHint().width() <= 1400 and window.width() <= 1400
    panel.set_language("fr")  # the re-caption finds both views inside the scrolling area
