"""The retry round on questions that name no concept: exactly the missed questions again, in a new order, with
seeds; the review button starts it. (Concepts brought back from both quizzes: tests/test_quiz_concepts.py.)"""

from __future__ import annotations

from pathlib import Path

from PySide6 import QtCore

from gpumem_gui.teach.quiz import Choice, Question, Quiz, Text
from gpumem_gui.teach.quiz_session import QUESTION, REVIEW, Change, QuizSession
from gpumem_gui.views.teach.quiz_widgets import RetryMissedButton


def _t(s: str) -> Text:
    return Text(en=s, ro=s, fr=s)


def _choices() -> tuple[Choice, ...]:
    return tuple(Choice(_t(f"c{j}"), _t(f"e{j}")) for j in range(3))


def _quiz() -> Quiz:
    questions = tuple(
        Question(f"q{i}", f"concept{i}", "fragmented_oom", None, _t(f"Q{i}"), 0, _choices(), None) for i in range(5)
    )
    return Quiz("quiz", _t("Quiz"), _t("intro"), questions, Path("quiz.toml"))


def _answered(missed: tuple[int, ...]) -> QuizSession:
    session = QuizSession([_quiz()])
    session.open_quiz("quiz")
    for i in range(5):
        session.go_to(i)
        session.answer(1 if i in missed else 0)  # choice 0 is right
    session.show_review()
    return session


def test_two_missed_answers_come_back_and_nothing_else() -> None:
    session = _answered((1, 3))
    assert [q.id for q in session.missed()] == ["q1", "q3"]
    assert session.start_retry(seed=4) is Change.PAGE
    assert session.in_retry and session.page == QUESTION
    assert sorted(q.id for q in session.questions) == ["q1", "q3"]
    assert [q.id for q in session.questions] == ["q3", "q1"]  # a new order
    assert all(session.fresh_seed(q.id) is not None for q in session.questions)
    # answer right this time: the round's review shows the two, the first answers stay as they were
    for _ in range(2):
        session.answer(0)
        session.next_question()
    assert session.page == REVIEW
    assert [(r.number, r.verdict) for r in session.review()] == [(4, "right"), (2, "right")]
    assert session.missed() == [] and session.start_retry() is Change.NONE
    assert session.score("quiz") == 3
    session.end_retry()
    assert not session.in_retry and session.score() == 3 and len(session.review()) == 5


def test_a_wrong_prediction_counts_as_missed() -> None:
    session = _answered(())
    session.record_prediction("q2", False)
    assert [q.id for q in session.missed()] == ["q2"]


def test_review_button_starts_the_round(qtbot) -> None:  # type: ignore[no-untyped-def]
    session = _answered((0, 4))
    changes: list[Change] = []
    button = RetryMissedButton(session, changes.append)
    qtbot.addWidget(button)
    button.refresh("fr")
    assert button.text() == "Reprendre 2 questions manquées" and not button.isHidden()
    qtbot.mouseClick(button, QtCore.Qt.MouseButton.LeftButton)
    assert changes == [Change.PAGE]
    assert session.in_retry and sorted(q.id for q in session.questions) == ["q0", "q4"]
    assert session.current_question is not None and session.current_question.id in ("q0", "q4")
    clean = _answered(())
    done = RetryMissedButton(clean, changes.append)
    qtbot.addWidget(done)
    assert done.isHidden()
