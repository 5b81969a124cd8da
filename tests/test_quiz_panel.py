"""The quiz panel, offscreen: verdicts, explanations, keys, navigation, review, languages, progress over restarts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6 import QtCore

from gpumem_gui.assets import QUIZZES
from gpumem_gui.teach.quiz import LANGUAGES, Quiz, QuizError, load_quiz, load_quizzes
from gpumem_gui.teach.quiz_interface import load_interface
from gpumem_gui.teach.quiz_session import QUESTION, REVIEW
from gpumem_gui.views.teach.quiz_panel import QuizPanel

LANG_WORD = {"en": "English", "ro": "romanian", "fr": "french"}
ANSWERS = (2, 0, 3)


def _text(what: str) -> str:
    return "{ " + ", ".join(f'{lang} = "{what} in {LANG_WORD[lang]}"' for lang in LANGUAGES) + " }"


def _quiz_toml(quiz_id: str, answers: tuple[int, ...] = ANSWERS) -> str:
    lines = [
        f'id = "{quiz_id}"',
        'source = "test"',
        f"title = {_text(f'{quiz_id} title')}",
        f"intro = {_text(f'{quiz_id} intro')}",
    ]
    for n, answer in enumerate(answers, start=1):
        lines += [
            "[[questions]]",
            f'id = "q{n}"',
            f'concept = "concept{n}"',
            'demo = "fragmented_oom"',
            f"prompt = {_text(f'prompt {n} with `a < b`')}",
            f"answer = {answer}",
            f"caption = {_text(f'caption {n}')}",
        ]
        for c in range(4):
            lines += [
                "[[questions.choices]]",
                f"text = {_text(f'choice {n}.{c}')}",
                f"explanation = {_text(f'why {n}.{c}')}",
            ]
    return "\n".join(lines) + "\n"


@pytest.fixture
def quiz(tmp_path: Path) -> Quiz:
    path = tmp_path / "small.toml"
    path.write_text(_quiz_toml("small"), encoding="utf-8")
    return load_quiz(path)


@pytest.fixture
def other_quiz(tmp_path: Path) -> Quiz:
    path = tmp_path / "other.toml"
    path.write_text(_quiz_toml("other", (1, 1)), encoding="utf-8")
    return load_quiz(path)


@pytest.fixture
def settings_path(tmp_path: Path) -> Path:
    return tmp_path / "settings.ini"


def _settings(path: Path) -> QtCore.QSettings:
    return QtCore.QSettings(str(path), QtCore.QSettings.Format.IniFormat)


def _panel(qtbot: Any, quizzes: list[Quiz], settings_path: Path) -> QuizPanel:
    panel = QuizPanel(quizzes, _settings(settings_path))
    qtbot.addWidget(panel)
    panel.resize(420, 760)
    panel.show()
    return panel


def _click(qtbot: Any, widget: Any) -> None:
    qtbot.mouseClick(widget, QtCore.Qt.MouseButton.LeftButton)


def test_a_right_answer_shows_right_and_its_explanation(qtbot: Any, quiz: Quiz, settings_path: Path) -> None:
    panel = _panel(qtbot, [quiz], settings_path)
    panel.open_quiz("small")
    question = quiz.questions[0]
    assert panel.verdict_text() == "" and panel.explanation_text() == ""
    _click(qtbot, panel.choice_cards[question.answer])
    assert panel.answers == {"q1": question.answer}
    assert panel.verdict_text() == panel.t("verdict_right")
    assert panel.verdict_text().startswith("✓")
    text = panel.explanation_text()
    assert question.choices[question.answer].explanation["en"] in text
    assert sum(c.explanation["en"] in text for c in question.choices) == 1  # no second explanation when right
    assert [c.state for c in panel.choice_cards] == ["dim", "dim", "right", "dim"]
    assert panel.score() == 1


def test_a_wrong_answer_shows_wrong_and_both_explanations(qtbot: Any, quiz: Quiz, settings_path: Path) -> None:
    panel = _panel(qtbot, [quiz], settings_path)
    panel.open_quiz("small")
    question = quiz.questions[0]
    _click(qtbot, panel.choice_cards[1])
    assert panel.verdict_text() == panel.t("verdict_wrong", number=question.answer + 1)
    assert panel.verdict_text().startswith("✗") and "3" in panel.verdict_text()
    chosen_part, right_part = panel.explanation_text().split("\n\n")
    assert question.choices[1].explanation["en"] in chosen_part
    assert question.choices[1].text["en"] in chosen_part
    assert question.choices[question.answer].explanation["en"] in right_part
    assert [c.state for c in panel.choice_cards] == ["dim", "wrong", "right", "dim"]
    # answered questions are locked: another click changes nothing
    _click(qtbot, panel.choice_cards[question.answer])
    assert panel.answers == {"q1": 1}
    assert panel.score() == 0


def test_number_keys_select_and_enter_confirms_then_goes_on(qtbot: Any, quiz: Quiz, settings_path: Path) -> None:
    panel = _panel(qtbot, [quiz], settings_path)
    panel.open_quiz("small")
    qtbot.keyClick(panel, QtCore.Qt.Key.Key_2)
    assert panel.selected == 1 and panel.answers == {}
    assert panel.choice_cards[1].state == "selected"
    assert panel.hint.text() == panel.t("hint_confirm", number=2)
    qtbot.keyClick(panel, QtCore.Qt.Key.Key_1)  # a change of mind before Enter
    assert panel.selected == 0
    qtbot.keyClick(panel, QtCore.Qt.Key.Key_Return)
    assert panel.answers == {"q1": 0}
    assert panel.verdict_text().startswith("✗")
    qtbot.keyClick(panel, QtCore.Qt.Key.Key_3)  # locked
    assert panel.answers == {"q1": 0} and panel.selected is None
    qtbot.keyClick(panel, QtCore.Qt.Key.Key_Enter)
    assert panel.current_index == 1
    # keys pressed while a button has focus reach the panel too
    qtbot.keyClick(panel.next_button, QtCore.Qt.Key.Key_1)
    qtbot.keyClick(panel.next_button, QtCore.Qt.Key.Key_Return)
    assert panel.answers == {"q1": 0, "q2": 0}
    assert panel.verdict_text() == panel.t("verdict_right")
    qtbot.keyClick(panel, QtCore.Qt.Key.Key_9)  # no such choice
    qtbot.keyClick(panel, QtCore.Qt.Key.Key_Return)
    qtbot.keyClick(panel, QtCore.Qt.Key.Key_4)
    qtbot.keyClick(panel, QtCore.Qt.Key.Key_Return)
    assert panel.answers == {"q1": 0, "q2": 0, "q3": 3}
    qtbot.keyClick(panel, QtCore.Qt.Key.Key_Return)  # after the last question: the review
    assert panel.page == REVIEW


def test_next_and_previous(qtbot: Any, quiz: Quiz, settings_path: Path) -> None:
    panel = _panel(qtbot, [quiz], settings_path)
    panel.open_quiz("small")
    assert not panel.previous_button.isEnabled()
    assert panel.progress_label.text() == "Question 1 of 3"
    _click(qtbot, panel.next_button)  # skipping is allowed
    assert panel.current_index == 1 and panel.progress_label.text() == "Question 2 of 3"
    assert panel.prompt.text().startswith("prompt 2")
    assert panel.previous_button.isEnabled()
    _click(qtbot, panel.next_button)
    assert panel.next_button.text() == panel.t("finish")
    _click(qtbot, panel.previous_button)
    assert panel.current_index == 1
    _click(qtbot, panel.next_button)
    _click(qtbot, panel.next_button)
    assert panel.page == REVIEW
    _click(qtbot, panel.review_back_button)
    assert panel.page == "chooser" and panel.current_quiz is None
    panel.open_quiz("small")
    assert panel.current_index == 2  # where it was left
    _click(qtbot, panel.back_button)
    assert panel.page == "chooser"


def test_score_and_progress(qtbot: Any, quiz: Quiz, settings_path: Path) -> None:
    panel = _panel(qtbot, [quiz], settings_path)
    panel.open_quiz("small")
    panel.answer(ANSWERS[0])
    panel.next_question()
    panel.answer((ANSWERS[1] + 1) % 4)
    panel.next_question()
    assert panel.score() == 1
    assert panel.score_label.text() == "Right answers: 1 of 2"
    assert panel.dots.states == ["right", "wrong", "todo"] and panel.dots.current == 2
    qtbot.mouseClick(panel.dots, QtCore.Qt.MouseButton.LeftButton, pos=QtCore.QPoint(10, 9))  # the first dot
    assert panel.current_index == 0 and panel.dots.current == 0
    panel.go_to(2)
    panel.answer(ANSWERS[2])
    assert panel.score() == 2
    panel.back_to_quizzes()
    assert panel.quiz_buttons["small"].text() == panel.t("see_results")
    progress = panel._quiz_labels["small"][2].text()
    assert progress == "3/3 answered, 2 right"


def test_review_lists_every_question_with_answers_and_explanations(qtbot: Any, quiz: Quiz, settings_path: Path) -> None:
    panel = _panel(qtbot, [quiz], settings_path)
    panel.open_quiz("small")
    panel.answer(ANSWERS[0])  # right
    panel.next_question()
    panel.answer(1)  # wrong
    panel.show_review()  # the third is left unanswered
    texts = panel.review_texts()
    assert len(texts) == len(quiz.questions) == 3
    for question, text in zip(quiz.questions, texts, strict=True):
        assert question.prompt["en"].replace("`", "") in text
        assert question.choices[question.answer].explanation["en"] in text
    assert "Your answer: 3. choice 1.2 in English" in texts[0]
    assert "Right answer" not in texts[0]
    assert "Your answer: 2. choice 2.1 in English" in texts[1]
    assert "why 2.1 in English" in texts[1]
    assert "Right answer: 1. choice 2.0 in English" in texts[1]
    assert "Your answer: Not answered" in texts[2]
    assert panel.review_score.text() == "Right answers: 1 of 3 (33%)"
    assert panel.review_unanswered.isVisibleTo(panel)
    # Start again forgets the answers and goes back to question 1
    _click(qtbot, panel.start_again_button)
    assert panel.page == QUESTION and panel.current_index == 0 and panel.answers == {}
    assert panel.verdict_text() == ""


def test_the_language_switch_changes_question_and_interface_texts(qtbot: Any, quiz: Quiz, settings_path: Path) -> None:
    panel = _panel(qtbot, [quiz], settings_path)
    panel.open_quiz("small")
    panel.answer(0)
    question = quiz.questions[0]
    interface = load_interface()
    for lang in ("fr", "ro", "en"):
        with qtbot.waitSignal(panel.language_changed) as signal:
            panel.language_combo.setCurrentIndex(LANGUAGES.index(lang))
        assert signal.args == [lang] and panel.language == lang
        assert panel.prompt.text() == question.prompt[lang].replace("`a < b`", "<code>a &lt; b</code>")
        assert [c.text.text() for c in panel.choice_cards] == [c.text[lang] for c in question.choices]
        assert panel.next_button.text() == interface("next", lang)
        assert panel.show_me_button.text() == interface("show_me", lang)
        assert panel.language_label.text() == interface("language_label", lang)
        assert panel.progress_label.text() == interface("question_progress", lang, number=1, total=3)
        assert panel.verdict_text() == interface("verdict_wrong", lang, number=3)
        assert question.choices[0].explanation[lang] in panel.explanation_text()
        assert question.choices[2].explanation[lang] in panel.explanation_text()
    panel.set_language("ro")
    panel.back_to_quizzes()
    assert panel.chooser_title.text() == interface("chooser_title", "ro")
    assert panel._quiz_labels["small"][0].text() == quiz.title["ro"]
    with pytest.raises(ValueError, match="unknown quiz language"):
        panel.set_language("de")


def test_progress_and_language_survive_a_restart(qtbot: Any, quiz: Quiz, other_quiz: Quiz, settings_path: Path) -> None:
    panel = _panel(qtbot, [quiz, other_quiz], settings_path)
    panel.open_quiz("other")
    panel.answer(0)
    panel.open_quiz("small")
    panel.answer(ANSWERS[0])
    panel.next_question()
    panel.answer(1)
    panel.next_question()
    panel.set_language("fr")
    panel.close()

    again = _panel(qtbot, [quiz, other_quiz], settings_path)
    assert again.language == "fr" and again.language_combo.currentData() == "fr"
    assert again.page == QUESTION and again.current_quiz is not None and again.current_quiz.id == "small"
    assert again.current_index == 2
    assert again.answers == {"q1": ANSWERS[0], "q2": 1}
    assert again.answers_of("other") == {"q1": 0}
    assert again.score() == 1
    assert again.prompt.text().startswith("prompt 3 with <code>a &lt; b</code> in french")
    again.previous_question()
    assert again.verdict_text() == again.t("verdict_wrong", number=1)

    # answers are kept by question id: a quiz file with its questions reordered keeps them
    shuffled = Quiz(id=quiz.id, title=quiz.title, intro=quiz.intro, questions=quiz.questions[::-1], path=quiz.path)
    third = _panel(qtbot, [shuffled], settings_path)
    assert third.current_quiz is shuffled and third.current_index == 1  # q2, now second from the end
    assert third.answers == {"q1": ANSWERS[0], "q2": 1}


def test_garbage_in_the_settings_is_ignored(qtbot: Any, quiz: Quiz, settings_path: Path) -> None:
    settings = _settings(settings_path)
    settings.setValue("quiz/language", "klingon")
    settings.setValue("quiz/open", "small")
    settings.setValue("quiz/small/current", "no-such-question")
    settings.setValue("quiz/small/answers/q1", "7")
    settings.setValue("quiz/small/answers/q2", "two")
    settings.setValue("quiz/small/answers/q3", 1)
    settings.setValue("quiz/small/answers/gone", 0)
    settings.sync()
    panel = _panel(qtbot, [quiz], settings_path)
    assert panel.language == "en" and panel.current_index == 0
    assert panel.answers == {"q3": 1}


def test_show_me_emits_the_question(qtbot: Any, quiz: Quiz, settings_path: Path) -> None:
    panel = _panel(qtbot, [quiz], settings_path)
    panel.open_quiz("small")
    panel.next_question()
    with qtbot.waitSignal(panel.show_demo) as signal:
        _click(qtbot, panel.show_me_button)
    assert signal.args == [quiz.questions[1]]
    assert "caption 2 in English" in panel.show_me_button.toolTip()
    panel.show_review()
    review_show = [b for b in panel.review_page.findChildren(type(panel.next_button)) if b.text() == "Show me"]
    assert len(review_show) == 3
    with qtbot.waitSignal(panel.show_demo) as signal:
        _click(qtbot, review_show[2])
    assert signal.args == [quiz.questions[2]]


def test_the_chooser_opens_quizzes(qtbot: Any, quiz: Quiz, other_quiz: Quiz, settings_path: Path) -> None:
    panel = _panel(qtbot, [quiz, other_quiz], settings_path)
    assert panel.page == "chooser"
    assert panel.quiz_buttons["other"].text() == "Start"
    assert panel._quiz_labels["other"][1].text() == "other intro in English"
    _click(qtbot, panel.quiz_buttons["other"])
    assert panel.page == QUESTION and panel.current_quiz is other_quiz
    panel.answer(1)
    panel.back_to_quizzes()
    assert panel.quiz_buttons["other"].text() == "Continue"
    assert panel._quiz_labels["other"][2].text() == "1/2 answered, 1 right"
    with pytest.raises(QuizError, match="known: small, other"):
        panel.open_quiz("nope")


def test_a_full_quiz_opens_on_its_review_from_the_chooser(qtbot: Any, quiz: Quiz, settings_path: Path) -> None:
    panel = _panel(qtbot, [quiz], settings_path)
    panel.open_quiz("small")
    for answer in ANSWERS:
        panel.answer(answer)
        panel.next_question()
    assert panel.page == REVIEW and panel.review_score.text() == "Right answers: 3 of 3 (100%)"
    assert not panel.review_unanswered.isVisibleTo(panel)
    panel.back_to_quizzes()
    _click(qtbot, panel.quiz_buttons["small"])
    assert panel.page == REVIEW


def _fits(panel: QuizPanel, width: int) -> bool:
    # long identifiers in the texts must wrap, not set the dock's minimum width
    areas = (panel.chooser_page, panel.question_scroll, panel.review_scroll)
    return all(area.widget().minimumSizeHint().width() <= width for area in areas)


def test_every_real_quiz_steps_through_in_every_language(qtbot: Any, settings_path: Path) -> None:
    quizzes = load_quizzes(QUIZZES)
    assert quizzes, f"no quizzes in {QUIZZES}"
    panel = _panel(qtbot, quizzes, settings_path)
    for lang in LANGUAGES:
        panel.set_language(lang)
        for quiz in quizzes:
            panel.open_quiz(quiz.id)
            panel.restart()
            for i, question in enumerate(quiz.questions):
                assert panel.current_question is question
                # alternate right and wrong, so both kinds of explanation are shown for every quiz
                choice = question.answer if i % 2 == 0 else (question.answer + 1) % len(question.choices)
                qtbot.keyClick(panel, QtCore.Qt.Key.Key_1 + choice)
                qtbot.keyClick(panel, QtCore.Qt.Key.Key_Return)
                expected = question.choices[choice].explanation[lang]
                assert expected in panel.explanation_text()
                if choice != question.answer:
                    assert question.choices[question.answer].explanation[lang] in panel.explanation_text()
                assert _fits(panel, 340), (lang, quiz.id, question.id)
                qtbot.keyClick(panel, QtCore.Qt.Key.Key_Return)
            assert panel.page == REVIEW
            assert _fits(panel, 340), (lang, quiz.id)
            assert len(panel.review_texts()) == len(quiz.questions)
            assert panel.score() == (len(quiz.questions) + 1) // 2


def test_the_review_offers_the_missed_question_again(qtbot: Any, quiz: Quiz, settings_path: Path) -> None:
    panel = _panel(qtbot, [quiz], settings_path)
    panel.open_quiz("small")
    panel.answer(ANSWERS[0])  # right
    panel.next_question()
    panel.answer(1)  # wrong: the one to come back
    panel.next_question()
    panel.answer(ANSWERS[2])  # right
    panel.show_review()
    assert panel.retry_button.isVisibleTo(panel)
    _click(qtbot, panel.retry_button)
    assert panel.page == QUESTION
    assert panel.session.current_question is quiz.questions[1]  # only the missed question, asked again
    assert panel.progress_label.text() == "Question 1 of 1"  # the round counts its own questions
