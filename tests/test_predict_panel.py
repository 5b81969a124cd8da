"""The quiz panel's Predict step: prepare the case, click the map or pick an option, see the verdict and reveal."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

from PySide6 import QtCore

from gpumem_gui import assets
from gpumem_gui.teach.predict import Predictions, load_predictions
from gpumem_gui.teach.quiz import load_quizzes
from gpumem_gui.views.teach.quiz_panel import QuizPanel


def _panel(qtbot: Any, tmp_path: Path) -> QuizPanel:
    settings = QtCore.QSettings(str(tmp_path / "settings.ini"), QtCore.QSettings.Format.IniFormat)
    panel = QuizPanel(load_quizzes(), settings)
    qtbot.addWidget(panel)
    panel.resize(460, 900)
    panel.show()
    panel.open_quiz("gpu-memory")
    return panel


def _go(panel: QuizPanel, question_id: str) -> None:
    quiz = panel.current_quiz
    assert quiz is not None
    panel.go_to([q.id for q in quiz.questions].index(question_id))
    box = panel.predict_box
    assert box.isVisibleTo(panel) and box.start_button.isVisibleTo(panel)
    box.start()
    assert box.wait()
    assert box.case is not None


def test_click_a_hole_then_no_hole_fits(qtbot: Any, tmp_path: Path) -> None:
    panel = _panel(qtbot, tmp_path)
    _go(panel, "fragmentation")
    box = panel.predict_box
    assert box.map.isVisibleTo(panel) and box.none_button.isVisibleTo(panel)
    with open(assets.example_path("fragmented_oom"), "rb") as f:
        raw = pickle.load(f)
    hole = max((b for s in raw["segments"] for b in s["blocks"] if b["state"] == "inactive"), key=lambda b: b["size"])
    state = box.map.state
    assert state is not None
    index = int((state.blocks.address == hole["address"]).nonzero()[0][0])
    with qtbot.waitSignal(box.predicted) as signal:
        box.map.block_clicked.emit(index)  # the largest hole is still smaller than the request
    assert signal.args == ["fragmentation", False]
    assert panel.session.prediction("fragmentation") is False
    assert box.result.text().startswith("Not quite.") and "1.5 GiB" in box.reveal.text()
    # the right answer is "no hole is large enough": nothing is highlighted, so the verdict says why instead
    assert not box.case.right_blocks.any() and "highlighted" not in box.result.text()
    assert "none holds 1.5 GiB" in box.result.text()
    box.pick_none()  # a second answer does not count
    assert panel.session.prediction("fragmentation") is False
    panel.set_language("fr")
    assert box.result.text().startswith("Pas tout à fait.") and "aucun ne contient" in box.reveal.text()
    panel.grab().save(str(tmp_path / "hole.png"))


def test_pick_a_setting_graded_by_the_replays(qtbot: Any, tmp_path: Path) -> None:
    panel = _panel(qtbot, tmp_path)
    _go(panel, "expandable-segments")
    box = panel.predict_box
    assert not box.map.isVisibleTo(panel)
    assert box.option_buttons[0].text() == "expandable_segments:True"
    box.option_buttons[2].click()  # garbage_collection_threshold: the replay still runs out of memory
    assert panel.session.prediction("expandable-segments") is False
    assert [b.text()[-1] for b in box.option_buttons] == ["✓", "✓", "✗"]
    assert "still out of memory" in box.reveal.text()
    # another question hides the box or resets it; coming back shows the verdict given
    panel.go_to(0)
    assert box.case is None and box.start_button.isVisibleTo(panel)
    panel.go_to(3)
    assert box.result.text() == "Not quite."


def test_pick_the_surviving_segment(qtbot: Any, tmp_path: Path) -> None:
    panel = _panel(qtbot, tmp_path)
    _go(panel, "empty-cache")
    box = panel.predict_box
    case = box.case
    assert case is not None
    index = int(case.right_blocks.nonzero()[0][0])
    box.pick_block(index)
    assert panel.session.prediction("empty-cache") is True
    assert box.result.text().startswith("Right.")
    assert box.map.highlight_pixels().any()  # the reveal spotlights the segment that stays


def test_a_question_without_a_prediction_hides_the_box(qtbot: Any, tmp_path: Path) -> None:
    # every bundled question has a Predict step: drop one to see the box hide
    full = load_predictions()
    items = {k: v for k, v in full.items.items() if k != ("gpu-memory", "paged-attention")}
    settings = QtCore.QSettings(str(tmp_path / "settings.ini"), QtCore.QSettings.Format.IniFormat)
    panel = QuizPanel(load_quizzes(), settings, predictions=Predictions(items, full.interface))
    qtbot.addWidget(panel)
    panel.show()
    panel.open_quiz("gpu-memory")
    quiz = panel.current_quiz
    assert quiz is not None
    panel.go_to([q.id for q in quiz.questions].index("paged-attention"))
    assert not panel.predict_box.isVisibleTo(panel)


def test_the_embedded_map_scrolls_instead_of_zooming_and_forgets_the_last_block(qtbot: Any, tmp_path: Path) -> None:
    """Review bugs 1, 2 and 4: the wheel over the predict map left it zoomed to "0 B"; the block line of Q1's map
    stayed under Q7's; and a segment prediction asked for a block."""
    from PySide6 import QtGui  # noqa: PLC0415

    panel = _panel(qtbot, tmp_path)
    _go(panel, "empty-cache")
    box = panel.predict_box
    assert box.status.text() == "Click a segment on the map."  # the empty_cache prediction is about segments
    view = box.map.view
    before = view.viewRange()
    viewport = box.map.plot.viewport()
    centre = QtCore.QPointF(viewport.rect().center())
    wheel = QtGui.QWheelEvent(
        centre, QtCore.QPointF(viewport.mapToGlobal(centre.toPoint())), QtCore.QPoint(0, 0), QtCore.QPoint(0, 480),
        QtCore.Qt.MouseButton.NoButton, QtCore.Qt.KeyboardModifier.NoModifier, QtCore.Qt.ScrollPhase.NoScrollPhase,
        False,
    )  # fmt: skip
    QtCore.QCoreApplication.sendEvent(viewport, wheel)
    assert view.viewRange() == before
    box.map.caption.setText("block 3: 20.0 MiB, allocated")  # what a hover over the map wrote
    _go(panel, "reserved-vs-allocated")
    assert box.map.caption.text() == ""
    assert box.status.text() == "Click a block on the map."
    # Q8 asks for the cached blocks: the legend's "cached free" colour would answer it, so it shows after the answer
    assert not box.map.legend.isVisibleTo(panel)
    box.pick_block(int(box.case.right_blocks.nonzero()[0][0]))
    assert box.verdict is True and box.map.legend.isVisibleTo(panel)
