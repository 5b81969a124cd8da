"""The quiz session without Qt: scoring, marking and confirming, navigation, review, languages, saved progress."""

from __future__ import annotations

from pathlib import Path

import pytest

from gpumem_gui.teach.quiz import Choice, Question, Quiz, QuizError, Text
from gpumem_gui.teach.quiz_session import CHOOSER, QUESTION, REVIEW, Change, Progress, QuizSession

ANSWERS = (2, 0, 3)


def _text(what: str) -> Text:
    return Text(en=f"{what} in English", ro=f"{what} in romanian", fr=f"{what} in french")


def _quiz(quiz_id: str, answers: tuple[int, ...] = ANSWERS, choices: int = 4) -> Quiz:
    questions = tuple(
        Question(
            id=f"q{n}",
            concept=f"concept{n}",
            demo="fragmented_oom",
            focus=None,
            prompt=_text(f"prompt {n}"),
            answer=answer,
            choices=tuple(Choice(_text(f"choice {n}.{c}"), _text(f"why {n}.{c}")) for c in range(choices)),
            caption=None,
        )
        for n, answer in enumerate(answers, start=1)
    )
    return Quiz(id=quiz_id, title=_text(f"{quiz_id} title"), intro=_text("intro"), questions=questions, path=Path())


@pytest.fixture
def quiz() -> Quiz:
    return _quiz("small")


@pytest.fixture
def other() -> Quiz:
    return _quiz("other", (1, 1))


def test_a_new_session_shows_the_chooser(quiz: Quiz) -> None:
    session = QuizSession([quiz])
    assert session.page == CHOOSER and session.current_quiz is None and session.current_question is None
    assert session.language == "en" and session.answers == {} and session.score() == 0
    assert session.dot_states() == [] and session.choice_states() == [] and session.review() == []
    # nothing to act on yet
    assert session.answer(0) is Change.NONE and session.next_question() is Change.NONE
    assert session.show_review() is Change.NONE and session.restart() is Change.NONE
    assert session.progress() == Progress(answers={"small": {}})


def test_scoring_right_and_wrong_answers(quiz: Quiz) -> None:
    session = QuizSession([quiz])
    assert session.open_quiz("small") is Change.PAGE
    assert session.answer(ANSWERS[0]) is Change.SHOWN
    assert session.chosen == ANSWERS[0] and session.score() == 1
    assert session.choice_states() == ["dim", "dim", "right", "dim"]
    session.next_question()
    assert session.answer(1) is Change.SHOWN  # wrong: the right one is 0
    assert session.choice_states() == ["right", "wrong", "dim", "dim"]
    assert session.score() == 1 and session.score("small") == 1
    assert session.dot_states() == ["right", "wrong", "todo"]
    assert session.unanswered() == 1
    assert session.percent() == 33


def test_the_percent_rounds_half_up() -> None:
    quiz = _quiz("eight", (0,) * 8)
    session = QuizSession([quiz])
    session.open_quiz("eight")
    session.answer(0)
    assert session.score() == 1 and session.percent() == 13  # 12.5 %: round() would say 12
    for _ in range(7):
        session.next_question()
        session.answer(0)
    assert session.percent() == 100


def test_an_answered_question_is_locked(quiz: Quiz) -> None:
    session = QuizSession([quiz])
    session.open_quiz("small")
    assert session.answer(7) is Change.NONE and session.answers == {}  # no such choice
    session.answer(1)
    assert session.answer(ANSWERS[0]) is Change.NONE
    assert session.select_choice(0) is Change.NONE and session.selected is None
    assert session.answers == {"q1": 1} and session.score() == 0


def test_a_marked_choice_is_answered_on_confirm(quiz: Quiz) -> None:
    session = QuizSession([quiz])
    session.open_quiz("small")
    assert session.confirm() is Change.NONE  # nothing marked
    assert session.select_choice(4) is Change.NONE  # out of range
    assert session.select_choice(1) is Change.SHOWN
    assert session.selected == 1 and session.answers == {}
    assert session.choice_states() == ["idle", "selected", "idle", "idle"]
    session.select_choice(2)  # a change of mind
    assert session.confirm() is Change.SHOWN
    assert session.answers == {"q1": 2} and session.selected is None
    # once answered, confirm goes on
    assert session.confirm() is Change.PAGE and session.current_index == 1
    # a page change forgets a marked choice
    session.select_choice(3)
    session.go_to(1)
    assert session.selected is None


def test_navigation_through_a_quiz_and_back(quiz: Quiz) -> None:
    session = QuizSession([quiz])
    session.open_quiz("small")
    assert session.previous_question() is Change.NONE  # already on the first
    assert session.go_to(3) is Change.NONE and session.go_to(-1) is Change.NONE
    assert not session.is_last
    session.next_question()  # skipping is allowed
    session.next_question()
    assert session.current_index == 2 and session.is_last
    assert session.next_question() is Change.PAGE and session.page == REVIEW
    assert session.select_choice(0) is Change.NONE and session.answer(0) is Change.NONE  # not on a question page
    assert session.previous_question() is Change.PAGE
    assert session.page == QUESTION and session.current_index == 2
    session.go_to(1)
    assert session.back_to_quizzes() is Change.PAGE
    assert session.page == CHOOSER and session.current_quiz is None
    session.open_quiz("small")
    assert session.current_index == 1  # where it was left
    with pytest.raises(QuizError, match=r"no quiz with id 'nope' \(known: small\)"):
        session.open_quiz("nope")


def test_the_chooser_resumes_and_a_finished_quiz_opens_on_its_review(quiz: Quiz, other: Quiz) -> None:
    session = QuizSession([quiz, other])
    assert session.chooser_action("small") == "start"
    assert session.resume("small") is Change.PAGE and session.page == QUESTION
    session.answer(0)
    assert session.chooser_action("small") == "continue"
    for _ in ANSWERS[1:]:
        session.next_question()
        session.answer(0)
    assert session.chooser_action("small") == "see_results"
    session.back_to_quizzes()
    session.resume("small")
    assert session.page == REVIEW and session.current_quiz is quiz
    session.resume("other")
    assert session.page == QUESTION and session.current_quiz is other


def test_the_review_lists_every_question_with_its_verdict(quiz: Quiz) -> None:
    session = QuizSession([quiz])
    session.open_quiz("small")
    session.answer(ANSWERS[0])
    session.next_question()
    session.answer(1)
    session.show_review()
    items = session.review()
    assert [i.number for i in items] == [1, 2, 3]
    assert [i.question for i in items] == list(quiz.questions)
    assert [i.chosen for i in items] == [ANSWERS[0], 1, None]
    assert [i.verdict for i in items] == ["right", "wrong", "none"]


def test_start_again_forgets_the_answers(quiz: Quiz, other: Quiz) -> None:
    session = QuizSession([quiz, other])
    session.open_quiz("other")
    session.answer(1)
    session.open_quiz("small")
    session.answer(ANSWERS[0])
    session.next_question()
    assert session.restart() is Change.PAGE
    assert session.page == QUESTION and session.current_index == 0 and session.answers == {}
    assert session.answers_of("other") == {"q1": 1}  # another quiz keeps its own


def test_languages(quiz: Quiz) -> None:
    session = QuizSession([quiz])
    assert session.set_language("en") is Change.NONE
    assert session.set_language("fr") is Change.SHOWN and session.language == "fr"
    with pytest.raises(ValueError, match="unknown quiz language 'de'"):
        session.set_language("de")
    assert session.language == "fr"


def test_progress_comes_back_in_a_new_session(quiz: Quiz, other: Quiz) -> None:
    session = QuizSession([quiz, other])
    session.open_quiz("other")
    session.answer(0)
    session.open_quiz("small")
    session.answer(ANSWERS[0])
    session.next_question()
    session.answer(1)
    session.next_question()
    session.set_language("ro")
    progress = session.progress()
    assert progress == Progress(
        language="ro",
        open_quiz="small",
        current={"other": "q1", "small": "q3"},
        answers={"small": {"q1": ANSWERS[0], "q2": 1}, "other": {"q1": 0}},
        misses={"small": {"q2": "answer"}, "other": {"q1": "answer"}},  # the two wrong answers, kept for a round
    )

    again = QuizSession([quiz, other], progress)
    assert again.language == "ro" and again.page == QUESTION
    assert again.current_quiz is quiz and again.current_index == 2
    assert again.answers == {"q1": ANSWERS[0], "q2": 1} and again.answers_of("other") == {"q1": 0}
    assert again.score() == 1 and again.progress() == progress

    # answers are kept by question id: a quiz file with its questions reordered keeps them
    shuffled = Quiz(id=quiz.id, title=quiz.title, intro=quiz.intro, questions=quiz.questions[::-1], path=quiz.path)
    third = QuizSession([shuffled], progress)
    assert third.current_quiz is shuffled and third.current_index == 0  # q3, now first
    assert third.answers == {"q1": ANSWERS[0], "q2": 1}

    # on the chooser, nothing is open
    again.back_to_quizzes()
    assert again.progress().open_quiz == "" and QuizSession([quiz, other], again.progress()).page == CHOOSER


def test_restored_values_that_no_longer_fit_are_dropped(quiz: Quiz) -> None:
    # as a settings store hands them back: strings, and whatever a hand edit left
    garbage = Progress(
        language="klingon",
        open_quiz="small",
        current={"small": "no-such-question", "gone-quiz": "q1"},
        answers={"small": {"q1": "7", "q2": "two", "q3": "1", "gone": 0}, "gone-quiz": {"q1": 0}},
    )
    session = QuizSession([quiz], garbage)
    assert session.language == "en" and session.page == QUESTION and session.current_index == 0
    assert session.answers == {"q3": 1}
    assert session.progress() == Progress(open_quiz="small", current={"small": "q1"}, answers={"small": {"q3": 1}})
    assert QuizSession([quiz], Progress(open_quiz="gone-quiz")).page == CHOOSER
