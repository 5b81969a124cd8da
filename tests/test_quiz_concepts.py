"""Concepts brought back across both quizzes: every question names what it teaches from one vocabulary, what the
learner misses in either quiz is remembered in the settings, and the review of either quiz asks again every question
of both quizzes that teaches a missed concept, each saying which concept it brings back."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest
from PySide6 import QtCore

from gpumem_gui import assets
from gpumem_gui.teach.quiz import CONCEPTS, LANGUAGES, QuizError, load_quiz, load_quizzes
from gpumem_gui.teach.quiz_interface import concept_key, load_interface
from gpumem_gui.teach.quiz_session import QUESTION, REVIEW
from gpumem_gui.views.teach.quiz_panel import QuizPanel
from tests.translation_walk import english_left, visible_texts

GPU, GC = "gpu-memory", "gradient-checkpointing"
# the quiz files as TOML, read apart from the loader: the oracle the session's round is held to
RAW: dict[str, dict[str, Any]] = {
    raw["id"]: raw
    for raw in (tomllib.loads(p.read_text(encoding="utf-8")) for p in sorted(assets.QUIZZES.glob("*.toml")))
}

# the hand-worked case: two GPU questions answered wrong, every other question of both quizzes answered right
MISSED = ("activation-checkpointing", "empty-cache")  # concepts: activations, checkpointing; empty-cache
# what the GC quiz's review brings back, worked out by hand from the two files' `concepts` lines: the two missed GPU
# questions, and the GC questions teaching activations or checkpointing; the concepts each is asked for
EXPECTED: dict[tuple[str, str], tuple[str, ...]] = {
    (GPU, "activation-checkpointing"): ("activations", "checkpointing"),
    (GPU, "empty-cache"): ("empty-cache",),
    (GC, "tradeoff"): ("checkpointing",),  # not recomputation: nothing about it was missed
    (GC, "saved-activations"): ("activations",),
    (GC, "sqrt-schedule"): ("checkpointing", "activations"),
    (GC, "pytorch-api"): ("checkpointing",),
    (GC, "backward-recompute"): ("checkpointing",),
}


def _raw_questions() -> list[tuple[str, dict[str, Any]]]:
    return [(quiz_id, q) for quiz_id, raw in RAW.items() for q in raw["questions"]]


def _settings(path: Path) -> QtCore.QSettings:
    return QtCore.QSettings(str(path), QtCore.QSettings.Format.IniFormat)


def _panel(qtbot: Any, settings: Path, lang: str = "en") -> QuizPanel:
    panel = QuizPanel(load_quizzes(), _settings(settings), interface=load_interface())
    qtbot.addWidget(panel)
    panel.resize(430, 800)
    panel.show()
    panel.set_language(lang)
    return panel


def _answer_all(panel: QuizPanel, quiz_id: str, wrong: tuple[str, ...] = ()) -> None:
    """Open the quiz and answer every question, the ones in `wrong` with the choice after the right one."""
    panel.open_quiz(quiz_id)
    quiz = panel.session.quiz(quiz_id)
    for i, question in enumerate(quiz.questions):
        panel.go_to(i)
        right = question.answer
        panel.answer((right + 1) % len(question.choices) if question.id in wrong else right)
    panel.show_review()


def _asked(panel: QuizPanel) -> dict[tuple[str, str], tuple[str, ...]]:
    return {(item.quiz_id, item.question.id): item.brings_back for item in panel.session.review()}


def test_every_question_names_concepts_of_the_vocabulary() -> None:
    assert set(RAW) == {GPU, GC}
    taught: set[str] = set()
    for quiz_id, question in _raw_questions():
        concepts = question.get("concepts")
        assert isinstance(concepts, list) and concepts, f"{quiz_id} {question['id']}: no concepts"
        assert len(set(concepts)) == len(concepts) and set(concepts) <= set(CONCEPTS), (quiz_id, concepts)
        taught.update(concepts)
    assert taught == set(CONCEPTS), f"concepts no question teaches: {set(CONCEPTS) - taught}"
    # the loader keeps them as written
    for quiz in load_quizzes():
        for question, raw in zip(quiz.questions, RAW[quiz.id]["questions"], strict=True):
            assert question.concepts == tuple(raw["concepts"])
    # at least one concept is taught by both quizzes, or there is nothing to bring back across them
    by_quiz = {quiz_id: {c for q in raw["questions"] for c in q["concepts"]} for quiz_id, raw in RAW.items()}
    assert by_quiz[GPU] & by_quiz[GC] == {"activations", "checkpointing"}


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('concepts = ["fragmention"]', "concepts\\[0\\] 'fragmention' is not in the concept vocabulary; did you mean "),
        ('concepts = ["fragmentation", "fragmentation"]', "concepts\\[1\\] 'fragmentation' is named twice"),
        ("concepts = []", "concepts is empty"),
        ('concepts = "fragmentation"', "concepts must be an array of strings, not a string"),
        ("concepts = [1]", "concepts\\[0\\] must be a string, not an integer"),
    ],
)
def test_the_loader_refuses_a_concept_outside_the_vocabulary(tmp_path: Path, line: str, message: str) -> None:
    source = (assets.QUIZZES / "gpu_memory.toml").read_text(encoding="utf-8")
    assert source.count('concepts = ["fragmentation"]\n') == 1
    path = tmp_path / "gpu_memory.toml"
    path.write_text(source.replace('concepts = ["fragmentation"]\n', line + "\n"), encoding="utf-8")
    with pytest.raises(QuizError, match=f"gpu_memory.toml: question 1 \\(fragmentation\\): {message}"):
        load_quiz(path)


def test_every_concept_has_a_name_in_every_language() -> None:
    interface = load_interface()
    for lang in LANGUAGES:
        names = [interface(concept_key(c), lang) for c in CONCEPTS]
        assert len(set(names)) == len(names), lang  # no two concepts read alike
    for concept in CONCEPTS:
        en, ro, fr = (interface(concept_key(concept), lang) for lang in LANGUAGES)
        assert ro != en, concept
        assert fr != en or concept == "fragmentation", concept  # the same word in French
    assert interface.concepts(["empty-cache", "checkpointing"], "fr") == (
        "ce que libère empty_cache(), checkpointing des activations"
    )


def test_the_hand_worked_case_agrees_with_the_files() -> None:
    """The oracle from the raw TOML: the missed questions' concepts, and every question sharing one."""
    concepts = {c for quiz_id, q in _raw_questions() if quiz_id == GPU and q["id"] in MISSED for c in q["concepts"]}
    assert concepts == {"activations", "checkpointing", "empty-cache"}
    sharing = {(quiz_id, q["id"]) for quiz_id, q in _raw_questions() if concepts & set(q["concepts"])}
    assert sharing == set(EXPECTED)


def test_the_gc_review_brings_back_what_the_gpu_quiz_missed(qtbot: Any, tmp_path: Path) -> None:
    settings = tmp_path / "settings.ini"
    panel = _panel(qtbot, settings)
    _answer_all(panel, GPU, wrong=MISSED)
    _answer_all(panel, GC)  # all right: what comes back is the GPU quiz's doing
    assert panel.page == REVIEW and panel.current_quiz is not None and panel.current_quiz.id == GC
    assert panel.score(GC) == len(RAW[GC]["questions"])
    button = panel.retry_button
    assert button.isVisibleTo(panel) and button.text() == "Retry 2 missed questions"
    assert panel.missed_concepts_label.text() == (
        "To go back to, in both quizzes: what empty_cache() releases, activations saved for backward, "
        "activation checkpointing"
    )
    assert "every question of both quizzes" in button.toolTip() and "activation checkpointing" in button.toolTip()

    qtbot.mouseClick(button, QtCore.Qt.MouseButton.LeftButton)
    session = panel.session
    assert panel.page == QUESTION and session.in_retry
    assert _asked(panel) == EXPECTED  # the other quiz's questions included, each for the concepts it teaches
    assert len(session.questions) == len(EXPECTED)
    assert all(session.fresh_seed(qid, quiz_id) is not None for quiz_id, qid in EXPECTED)
    # the question shown says where it is from and what it brings back
    shown = (session.question_quiz.id if session.question_quiz else "", session.current_question.id)  # type: ignore[union-attr]
    assert panel.quiz_title.text() == session.quiz(shown[0]).title["en"]
    names = ", ".join(load_interface()(concept_key(c), "en") for c in EXPECTED[shown])
    label = "Concept" if len(EXPECTED[shown]) == 1 else "Concepts"
    assert panel.brings_back_label.isVisibleTo(panel) and panel.brings_back_label.text() == (
        f"{label} brought back: {names}"
    )

    # a new session on the same settings remembers it, and brings back the same questions from either review
    again = _panel(qtbot, settings)
    assert again.session.misses() == {GPU: dict.fromkeys(MISSED, "answer")}
    again.open_quiz(GPU)
    again.show_review()
    assert again.retry_button.text() == "Retry 2 missed questions"
    again.retry_button.click()
    assert _asked(again) == EXPECTED

    # got right in the round, the misses go, from the settings too
    for _ in range(len(EXPECTED)):
        question = again.current_question
        assert question is not None
        again.answer(question.answer)
        again.next_question()
    assert again.page == REVIEW and again.session.misses() == {} and not again.retry_button.isVisibleTo(again)
    assert not again.missed_concepts_label.isVisibleTo(again)
    assert _panel(qtbot, settings).session.misses() == {}


def test_answers_and_predictions_are_counted_apart(qtbot: Any, tmp_path: Path) -> None:
    panel = _panel(qtbot, tmp_path / "settings.ini", "fr")
    panel.open_quiz(GC)
    quiz = panel.session.quiz(GC)
    overhead = next(i for i, q in enumerate(quiz.questions) if q.id == "overhead")
    panel.go_to(overhead)
    panel._predicted("overhead", False)  # what the predict box reports for a wrong prediction
    panel.show_review()
    assert panel.retry_button.text() == "Reprendre 1 prédiction manquée"
    _answer_all(panel, GPU, wrong=("fragmentation", "expandable-segments"))
    label = {"en": "Retry 2 missed questions and 1 prediction", "fr": "Reprendre 2 questions et 1 prédiction manquées"}
    label["ro"] = "Reluați 2 întrebări și 1 predicție ratate"
    for lang in LANGUAGES:
        panel.set_language(lang)
        assert panel.retry_button.text() == label[lang]
    # recomputation (the prediction's) and fragmentation, expandable segments, max_split_size_mb (the answers'):
    # by hand from the files, no GC question but the recompute ones, no GPU question but the three allocator ones
    panel.retry_button.click()
    assert set(_asked(panel)) == {
        (GC, "tradeoff"),
        (GC, "overhead"),
        (GC, "backward-recompute"),
        (GC, "selective"),
        (GPU, "fragmentation"),
        (GPU, "oom-reserved"),
        (GPU, "expandable-segments"),
    }


def _new_widget_texts(panel: QuizPanel) -> list[tuple[str, str]]:
    """What the round added to the panel: the review's button, its tip and list of concepts, and on each card of a
    round's review the quiz it is from and the concepts it brings back; the question page's line."""
    texts = visible_texts(panel.retry_button) + visible_texts(panel.missed_concepts_label)
    texts += visible_texts(panel.brings_back_label)
    for card in panel._review_items:
        texts += [(where, text) for where, text in visible_texts(card) if "QLabel" in where and "·" in text]
        texts += [(where, text) for where, text in visible_texts(card) if "brings_back" in where]
    return texts


@pytest.mark.parametrize("lang", ["en", "ro", "fr"])
def test_the_new_review_widgets_leave_no_english(qtbot: Any, tmp_path: Path, lang: str) -> None:
    panel = _panel(qtbot, tmp_path / "settings.ini", lang)
    _answer_all(panel, GPU, wrong=MISSED)
    panel.open_quiz(GC)
    panel._predicted(panel.session.quiz(GC).questions[0].id, False)
    _answer_all(panel, GC)
    seen = _new_widget_texts(panel)
    panel.retry_button.click()
    seen += _new_widget_texts(panel)
    panel.show_review()  # the round's review: cards from both quizzes
    seen += _new_widget_texts(panel)
    assert len(seen) >= 3 + 2 * len(EXPECTED) + 1  # button, tip, concepts; each card's source or concepts; the line
    for where, text in seen:
        assert text.strip(), where
    if lang == "en":
        assert english_left(seen)  # the premise: in English, the walk finds English
        return
    assert english_left(seen) == []
    if lang == "fr":  # French puts a narrow no-break space before its colons
        colons = [text for _, text in seen if ":" in text]
        assert colons and all(" :" not in text and "\u202f:" in text for text in colons)
