"""QuizPanel: the guided quiz beside the map, one question at a time, in English, Romanian or French."""

from __future__ import annotations

from functools import partial

from PySide6 import QtCore, QtGui, QtWidgets

from gpumem_gui.teach.budget import load_budget_texts
from gpumem_gui.teach.demos.wording import Figure
from gpumem_gui.teach.predict import Predictions, load_predictions
from gpumem_gui.teach.quiz import LANGUAGES, Question, Quiz
from gpumem_gui.teach.quiz_interface import Interface, load_interface
from gpumem_gui.teach.quiz_session import CHOOSER, QUESTION, Change, Progress, QuizSession
from gpumem_gui.teach.yours import FINDING_OF
from gpumem_gui.views.common.palette import CARD, INK, PAGE
from gpumem_gui.views.teach.budget_lesson import BudgetCard, BudgetLesson
from gpumem_gui.views.teach.challenge_panel import ChallengeCard
from gpumem_gui.views.teach.predict_box import PredictBox
from gpumem_gui.views.teach.quiz_markup import plain, push_button, rich, scroll_area, set_style_state, wrapped_label
from gpumem_gui.views.teach.quiz_widgets import (
    STYLE,
    ChoiceCard,
    ExplanationBox,
    ProgressDots,
    RetryMissedButton,
    ReviewCard,
)
from gpumem_gui.views.teach.try_yours import TryYoursBox

SETTINGS_ORG, SETTINGS_APP = "gpumem_gui", "gpumem-gui"


class QuizPanel(QtWidgets.QWidget):
    """Choose a quiz, answer its questions (mouse or keys 1-n and Enter), see why, review; progress is remembered.

    Meant for a dock beside the map. `show_demo` hands the main window the question whose demo it should stage;
    `language_changed` tells it the language the user picked. The quiz itself (state, scoring, navigation) is a
    Qt-free `QuizSession`; the panel draws it, feeds it clicks and keys, and keeps its progress in QSettings.
    """

    show_demo = QtCore.Signal(object)
    challenge_requested = QtCore.Signal()  # the chooser's debugging-challenge card was opened
    try_yours = QtCore.Signal(str)  # a finding (teach/yours.py) to light on the learner's own snapshot
    language_changed = QtCore.Signal(str)

    def __init__(
        self,
        quizzes: list[Quiz],
        settings: QtCore.QSettings | None = None,
        parent: QtWidgets.QWidget | None = None,
        *,
        interface: Interface | None = None,
        predictions: Predictions | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("quiz_panel")
        self.quizzes = list(quizzes)
        self.settings = settings if settings is not None else QtCore.QSettings(SETTINGS_ORG, SETTINGS_APP)
        self.interface = interface if interface is not None else load_interface()
        self.predictions = predictions if predictions is not None else load_predictions()
        self.session = QuizSession(self.quizzes, self._read_progress())
        self._stored = self.session.progress()  # what the settings hold: each save writes only what changed

        self.setFocusPolicy(QtCore.Qt.FocusPolicy.StrongFocus)
        self.setMinimumWidth(320)
        self.setStyleSheet(STYLE)
        # the cards are white whatever the desktop theme, so the page and its text are fixed light colours too
        palette = self.palette()
        for role, colour in (
            (QtGui.QPalette.ColorRole.Window, PAGE),
            (QtGui.QPalette.ColorRole.WindowText, INK),
            (QtGui.QPalette.ColorRole.Base, CARD),
            (QtGui.QPalette.ColorRole.Text, INK),
        ):
            palette.setColor(role, QtGui.QColor(colour))
        self.setPalette(palette)
        self.setAutoFillBackground(True)
        outer = QtWidgets.QVBoxLayout(self)
        outer.setContentsMargins(10, 10, 10, 10)
        outer.setSpacing(8)
        top = QtWidgets.QHBoxLayout()
        self.language_label = QtWidgets.QLabel()
        self.language_label.setObjectName("muted")
        self.language_combo = QtWidgets.QComboBox()
        for lang in LANGUAGES:
            self.language_combo.addItem(self.interface("language_name", lang), lang)
        self.language_combo.setCurrentIndex(LANGUAGES.index(self.session.language))
        self.language_combo.currentIndexChanged.connect(lambda i: self.set_language(LANGUAGES[i]))
        top.addStretch(1)
        top.addWidget(self.language_label)
        top.addWidget(self.language_combo)
        outer.addLayout(top)
        self.stack = QtWidgets.QStackedWidget()
        outer.addWidget(self.stack, 1)
        self._build_chooser()
        self._build_question()
        self._build_review()
        # the first lesson, opened from the chooser's first card
        self.budget_lesson = BudgetLesson(self.budget_card.texts)
        self.budget_lesson.back.connect(lambda: self.stack.setCurrentWidget(self.chooser_page))
        self.budget_card.open_lesson.connect(self.open_budget_lesson)
        self.stack.addWidget(self.budget_lesson)
        # the session came back where the user left (the quiz that was open, at its question): show that page
        self._apply(Change.PAGE)

    # -- public accessors ----------------------------------------------------------------------------------------

    @property
    def language(self) -> str:
        return self.session.language

    @property
    def page(self) -> str:
        """Which page shows: CHOOSER, QUESTION or REVIEW."""
        return self.session.page

    @property
    def current_quiz(self) -> Quiz | None:
        return self.session.current_quiz

    @property
    def current_index(self) -> int:
        return self.session.current_index

    @property
    def current_question(self) -> Question | None:
        return self.session.current_question

    @property
    def answers(self) -> dict[str, int]:
        """Question id -> chosen choice index, for the open quiz."""
        return self.session.answers

    @property
    def selected(self) -> int | None:
        """The choice picked with a number key and not yet confirmed with Enter."""
        return self.session.selected

    def answers_of(self, quiz_id: str) -> dict[str, int]:
        return self.session.answers_of(quiz_id)

    def score(self, quiz_id: str | None = None) -> int:
        """Right answers in the given (default: the open) quiz."""
        return self.session.score(quiz_id)

    def verdict_text(self) -> str:
        """The verdict line of the question shown ("" before it is answered)."""
        return self.verdict.text() if self.verdict.isVisibleTo(self) else ""

    def explanation_text(self) -> str:
        """The explanations shown: the chosen choice's, then (when it was wrong) the right one's."""
        boxes = (self.chosen_box, self.right_box)
        return "\n\n".join(b.plain for b in boxes if b.isVisibleTo(self))

    def review_texts(self) -> list[str]:
        """One plain text per question on the review page."""
        return [str(item.property("plain")) for item in self._review_items]

    def t(self, key: str, **fields: object) -> str:
        """An interface text in the current language."""
        return self.interface(key, self.session.language, **fields)

    # -- actions: the session decides, the panel saves and redraws what changed ----------------------------------

    def set_language(self, lang: str) -> None:
        if self.session.set_language(lang) is Change.NONE:
            return
        self._store()
        if self.language_combo.currentIndex() != LANGUAGES.index(lang):
            self.language_combo.setCurrentIndex(LANGUAGES.index(lang))
        self._render()
        self.language_changed.emit(lang)

    def open_quiz(self, quiz_id: str) -> None:
        """Show the quiz at the question the user was on (the first, the first time)."""
        self._apply(self.session.open_quiz(quiz_id))

    def go_to(self, index: int) -> None:
        self._apply(self.session.go_to(index))

    def next_question(self) -> None:
        """The next question; after the last, the review page."""
        self._apply(self.session.next_question())

    def previous_question(self) -> None:
        self._apply(self.session.previous_question())

    def select_choice(self, index: int) -> None:
        """Mark a choice (keys 1-n); Enter confirms it. Answered questions stay as they are."""
        self._apply(self.session.select_choice(index))

    def answer(self, index: int) -> None:
        """Answer the shown question with choice `index` (a click does this); an answered question is locked."""
        self._apply(self.session.answer(index))

    def confirm(self) -> None:
        """Enter: answer with the selected choice, or, once answered, go on."""
        self._apply(self.session.confirm())

    def show_review(self) -> None:
        self._apply(self.session.show_review())

    def restart(self) -> None:
        """Forget the open quiz's answers and start it again from the first question."""
        self._apply(self.session.restart())

    def back_to_quizzes(self) -> None:
        self._apply(self.session.back_to_quizzes())

    def open_budget_lesson(self) -> None:
        self.budget_lesson.set_language(self.session.language)
        self.stack.setCurrentWidget(self.budget_lesson)

    def request_demo(self, question: Question | None = None) -> None:
        question = question if question is not None else self.current_question
        if question is not None:
            self.show_demo.emit(question)

    def _predicted(self, question_id: str, right: bool) -> None:
        quiz = self.session.question_quiz
        self._apply(self.session.record_prediction(question_id, right, quiz.id if quiz is not None else None))

    def _open_from_chooser(self, quiz_id: str) -> None:
        self._apply(self.session.resume(quiz_id))

    def _apply(self, change: Change) -> None:
        if change is Change.NONE:
            return
        self._store()
        self._render()
        if change is Change.PAGE:
            for area in (self.question_scroll, self.review_scroll):
                area.verticalScrollBar().setValue(0)
            if self.session.page == QUESTION:
                self.setFocus()  # so 1-n and Enter reach the panel after a click elsewhere

    # -- persistence ---------------------------------------------------------------------------------------------

    def _read_progress(self) -> Progress:
        settings = self.settings
        current: dict[str, str] = {}
        answers: dict[str, dict[str, object]] = {}
        misses: dict[str, dict[str, object]] = {}
        for quiz in self.quizzes:
            saved = settings.value(f"quiz/{quiz.id}/current")
            if saved is not None:
                current[quiz.id] = str(saved)
            for group, values in (("answers", answers), ("missed", misses)):
                settings.beginGroup(f"quiz/{quiz.id}/{group}")
                values[quiz.id] = {key: settings.value(key) for key in settings.childKeys()}
                settings.endGroup()
        return Progress(
            language=str(settings.value("quiz/language", "en")),
            open_quiz=str(settings.value("quiz/open", "")),
            current=current,
            answers=answers,
            misses=misses,
        )

    def _store(self) -> None:
        """Write what the session's progress changed since the last save, and flush it to disk."""
        new, old = self.session.progress(), self._stored
        settings = self.settings
        if new.language != old.language:
            settings.setValue("quiz/language", new.language)
        if new.open_quiz != old.open_quiz:
            settings.setValue("quiz/open", new.open_quiz)
        for quiz_id, question_id in new.current.items():
            if old.current.get(quiz_id) != question_id:
                settings.setValue(f"quiz/{quiz_id}/current", question_id)
        for quiz_id, answers in new.answers.items():
            before = old.answers.get(quiz_id, {})
            if answers == before:
                continue
            if not before.items() <= answers.items():  # some were forgotten (Start again): the group goes
                settings.remove(f"quiz/{quiz_id}/answers")
                before = {}
            for question_id, index in answers.items():
                if before.get(question_id) != index:
                    settings.setValue(f"quiz/{quiz_id}/answers/{question_id}", index)
        # what was missed in every quiz: a miss got right since goes, a new or changed one is written
        for quiz_id in {*new.misses, *old.misses}:
            now, before = new.misses.get(quiz_id, {}), old.misses.get(quiz_id, {})
            for question_id in before.keys() - now.keys():
                settings.remove(f"quiz/{quiz_id}/missed/{question_id}")
            for question_id, kind in now.items():
                if before.get(question_id) != kind:
                    settings.setValue(f"quiz/{quiz_id}/missed/{question_id}", kind)
        settings.sync()
        self._stored = new

    # -- keys ------------------------------------------------------------------------------------------------------

    def keyPressEvent(self, e: QtGui.QKeyEvent) -> None:
        key = e.key()
        question = self.current_question
        if self.session.page == QUESTION and question is not None:
            if QtCore.Qt.Key.Key_1 <= key <= QtCore.Qt.Key.Key_9:
                index = key - QtCore.Qt.Key.Key_1
                if index < len(question.choices):
                    self.select_choice(index)
                    return
            if key in (QtCore.Qt.Key.Key_Return, QtCore.Qt.Key.Key_Enter):
                self.confirm()
                return
        super().keyPressEvent(e)

    # -- building ------------------------------------------------------------------------------------------------

    def _build_chooser(self) -> None:
        content = QtWidgets.QWidget()
        box = QtWidgets.QVBoxLayout(content)
        box.setContentsMargins(0, 0, 4, 0)
        box.setSpacing(10)
        self.chooser_title = wrapped_label("heading")
        self.chooser_hint = wrapped_label("muted")
        box.addWidget(self.chooser_title)
        box.addWidget(self.chooser_hint)
        self.budget_card = BudgetCard(load_budget_texts())
        box.addWidget(self.budget_card)
        self.quiz_cards: dict[str, QtWidgets.QFrame] = {}
        self.quiz_buttons: dict[str, QtWidgets.QPushButton] = {}
        self._quiz_labels: dict[str, tuple[QtWidgets.QLabel, QtWidgets.QLabel, QtWidgets.QLabel]] = {}
        for quiz in self.quizzes:
            card = QtWidgets.QFrame()
            card.setObjectName("card")
            inner = QtWidgets.QVBoxLayout(card)
            inner.setContentsMargins(12, 10, 12, 10)
            inner.setSpacing(6)
            title, intro, progress = wrapped_label("card_title"), wrapped_label(rich=True), wrapped_label("muted")
            button = push_button(partial(self._open_from_chooser, quiz.id), primary=True)
            row = QtWidgets.QHBoxLayout()
            row.addWidget(progress, 1)
            row.addWidget(button)
            for w in (title, intro):
                inner.addWidget(w)
            inner.addLayout(row)
            box.addWidget(card)
            self.quiz_cards[quiz.id] = card
            self.quiz_buttons[quiz.id] = button
            self._quiz_labels[quiz.id] = (title, intro, progress)
        self.challenge_card = ChallengeCard(self.challenge_requested.emit)
        box.addWidget(self.challenge_card)
        box.addStretch(1)
        self.chooser_page = scroll_area(content)
        self.stack.addWidget(self.chooser_page)

    def _build_question(self) -> None:
        page = QtWidgets.QWidget()
        outer = QtWidgets.QVBoxLayout(page)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(6)
        self.quiz_title = wrapped_label("muted")
        head = QtWidgets.QHBoxLayout()
        self.progress_label = QtWidgets.QLabel()
        self.progress_label.setObjectName("card_title")
        self.score_label = QtWidgets.QLabel()
        self.score_label.setObjectName("muted")
        head.addWidget(self.progress_label, 1)
        head.addWidget(self.score_label)
        self.dots = ProgressDots()
        self.dots.jump.connect(self.go_to)
        self.brings_back_label = wrapped_label("brings_back")  # in a round: why this question is asked again
        outer.addWidget(self.quiz_title)
        outer.addWidget(self.brings_back_label)
        outer.addLayout(head)
        outer.addWidget(self.dots)

        content = QtWidgets.QWidget()
        box = QtWidgets.QVBoxLayout(content)
        box.setContentsMargins(0, 4, 4, 4)
        box.setSpacing(8)
        self.prompt = wrapped_label("prompt", rich=True)
        box.addWidget(self.prompt)
        # predict first: the learner acts on the demo's data before the choices and "Show me" reveal it
        self.predict_box = PredictBox(self.predictions)
        self.predict_box.predicted.connect(self._predicted)
        box.addWidget(self.predict_box)
        box.addSpacing(2)
        self.choice_box = QtWidgets.QVBoxLayout()
        self.choice_box.setSpacing(6)
        box.addLayout(self.choice_box)
        self.choice_cards: list[ChoiceCard] = []
        self.hint = wrapped_label("muted")
        self.verdict = wrapped_label("verdict")
        self.chosen_box = ExplanationBox()
        self.right_box = ExplanationBox()
        self.try_yours_box = TryYoursBox()  # after the reveal: record your own program, see the concept on it
        self.try_yours_box.open_yours.connect(self.try_yours.emit)
        # the hint comes last: below the choices before answering, below the explanations after
        for w in (self.verdict, self.chosen_box, self.right_box, self.try_yours_box, self.hint):
            box.addWidget(w)
        box.addStretch(1)
        self.question_scroll = scroll_area(content)
        outer.addWidget(self.question_scroll, 1)

        nav = QtWidgets.QHBoxLayout()
        self.previous_button = push_button(self.previous_question)
        self.show_me_button = push_button(self.request_demo)
        self.next_button = push_button(self.next_question, primary=True)
        nav.addWidget(self.previous_button)
        nav.addStretch(1)
        nav.addWidget(self.show_me_button)
        nav.addWidget(self.next_button)
        outer.addLayout(nav)
        self.back_button = push_button(self.back_to_quizzes)
        self.back_button.setFlat(True)
        back_row = QtWidgets.QHBoxLayout()
        back_row.addWidget(self.back_button)
        back_row.addStretch(1)
        outer.addLayout(back_row)
        self.question_page = page
        self.stack.addWidget(page)

    def _build_review(self) -> None:
        page = QtWidgets.QWidget()
        outer = QtWidgets.QVBoxLayout(page)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(6)
        self.review_title = wrapped_label("heading")
        self.review_score = wrapped_label("prompt")
        self.review_unanswered = wrapped_label("muted")
        for w in (self.review_title, self.review_score, self.review_unanswered):
            outer.addWidget(w)
        content = QtWidgets.QWidget()
        self.review_box = QtWidgets.QVBoxLayout(content)
        self.review_box.setContentsMargins(0, 4, 4, 4)
        self.review_box.setSpacing(10)
        self.review_box.addStretch(1)
        self._review_items: list[QtWidgets.QFrame] = []
        self.review_scroll = scroll_area(content)
        outer.addWidget(self.review_scroll, 1)
        row = QtWidgets.QHBoxLayout()
        self.review_back_button = push_button(self.back_to_quizzes)
        self.start_again_button = push_button(self.restart, primary=True)
        # what was missed in every quiz: its concepts, and the round that brings them back, with fresh cases
        self.missed_concepts_label = wrapped_label("muted")
        outer.addWidget(self.missed_concepts_label)
        self.retry_button = RetryMissedButton(self.session, self._apply, self.interface)
        row.addWidget(self.review_back_button)
        row.addStretch(1)
        row.addWidget(self.retry_button)
        row.addWidget(self.start_again_button)
        outer.addLayout(row)
        self.review_page = page
        self.stack.addWidget(page)

    # -- rendering -----------------------------------------------------------------------------------------------

    def _render(self) -> None:
        self.language_label.setText(self.t("language_label"))
        page = self.session.page
        self.budget_card.set_language(self.session.language)
        if page == CHOOSER and self.stack.currentWidget() is self.budget_lesson:
            self.budget_lesson.set_language(self.session.language)  # the lesson stays open in the new language
        elif page == CHOOSER:
            self._render_chooser()
            self.stack.setCurrentWidget(self.chooser_page)
        elif page == QUESTION:
            self._render_question()
            self.stack.setCurrentWidget(self.question_page)
        else:
            self._render_review()
            self.stack.setCurrentWidget(self.review_page)

    def _render_chooser(self) -> None:
        lang = self.session.language
        self.chooser_title.setText(self.t("chooser_title"))
        self.chooser_hint.setText(self.t("chooser_hint"))
        self.challenge_card.refresh(lang)
        for quiz in self.quizzes:
            title, intro, progress = self._quiz_labels[quiz.id]
            answered, total = len(self.session.answers_of(quiz.id)), len(quiz.questions)
            title.setText(quiz.title[lang])
            intro.setText(rich(quiz.intro[lang]))
            progress.setText(self.t("chooser_progress", answered=answered, total=total, right=self.score(quiz.id)))
            self.quiz_buttons[quiz.id].setText(self.t(self.session.chooser_action(quiz.id)))

    def _render_question(self) -> None:
        session = self.session
        quiz, question = session.question_quiz, session.current_question  # in a round, maybe the other quiz's
        assert quiz is not None and question is not None
        lang = session.language
        index, selected, chosen = session.current_index, session.selected, session.chosen
        self.quiz_title.setText(quiz.title[lang])
        self.brings_back_label.setText(self._brings_back(session.brings_back))
        self.brings_back_label.setVisible(bool(session.brings_back))
        self.progress_label.setText(self.t("question_progress", number=index + 1, total=len(session.questions)))
        self.score_label.setText(self.t("score", right=session.score(), answered=len(session.answers)))
        self.dots.set_states(session.dot_states(), index)
        self.prompt.setText(rich(question.prompt[lang]))
        prediction = self.predictions.find(quiz.id, question.id)
        self.predict_box.set_prediction(
            prediction,
            lang,
            session.prediction(question.id),  # the shown question's, in a round the round's
            session.fresh_seed(question.id, quiz.id),
        )

        while len(self.choice_cards) < len(question.choices):
            number = len(self.choice_cards)
            card = ChoiceCard(number + 1)
            card.clicked.connect(lambda i=number: self._clicked(i))
            self.choice_box.addWidget(card)
            self.choice_cards.append(card)
        states = session.choice_states()
        for i, card in enumerate(self.choice_cards):
            if i >= len(question.choices):
                card.hide()
                continue
            card.show()
            card.text.setText(rich(question.choices[i].text[lang]))
            card.set_state(states[i])
            card.setAccessibleName(f"{i + 1}. {plain(question.choices[i].text[lang])}")

        last = session.is_last
        self.try_yours_box.show_for(FINDING_OF.get((quiz.id, question.id)) if chosen is not None else None, lang)
        if chosen is None:
            self.verdict.hide()
            self.chosen_box.hide()
            self.right_box.hide()
            if selected is None:
                self.hint.setText(self.t("hint_choose", count=len(question.choices)))
            else:
                self.hint.setText(self.t("hint_confirm", number=selected + 1))
        else:
            self.hint.setText(self.t("hint_last" if last else "hint_next"))
            right = chosen == question.answer
            set_style_state(self.verdict, "verdict", "right" if right else "wrong")
            self.verdict.setText(
                self.t("verdict_right") if right else self.t("verdict_wrong", number=question.answer + 1)
            )
            self.verdict.show()
            self.chosen_box.show_text(
                "right" if right else "wrong",
                self.t("explanation_chosen", number=chosen + 1),
                question.choices[chosen].text[lang],
                question.choices[chosen].explanation[lang],
            )
            if right:
                self.right_box.hide()
            else:
                self.right_box.show_text(
                    "right",
                    self.t("explanation_right", number=question.answer + 1),
                    question.choices[question.answer].text[lang],
                    question.choices[question.answer].explanation[lang],
                )

        self.previous_button.setText(self.t("previous"))
        self.previous_button.setEnabled(index > 0)
        self.next_button.setText(self.t("finish" if last else "next"))
        self.show_me_button.setText(self.t("show_me"))
        tip = self.t("show_me_tip")
        if question.caption is not None:
            tip += "\n\n" + plain(question.caption[lang])
        self.show_me_button.setToolTip(tip)
        self.back_button.setText(self.t("back"))

    def _source(self, quiz_id: str) -> str:
        """The quiz a round's question is from, named where it is not the open one; "" where it is."""
        quiz = self.session.current_quiz
        if quiz is None or quiz_id in ("", quiz.id):
            return ""
        return self.session.quiz(quiz_id).title[self.session.language]

    def _brings_back(self, concepts: tuple[str, ...]) -> str:
        """The line naming the missed concepts a round's question brings back; "" for none."""
        if not concepts:
            return ""
        names = self.interface.concepts(concepts, self.session.language)
        return self.t("brings_back", count=len(concepts), concepts=names)

    def _clicked(self, index: int) -> None:
        self.answer(index)
        self.setFocus()

    def _render_review(self) -> None:
        session = self.session
        quiz = session.current_quiz
        assert quiz is not None
        total = len(session.questions)
        self.review_title.setText(self.t("review_title", title=quiz.title[session.language]))
        self.review_score.setText(
            self.t("review_score", right=session.score(), total=total, percent=Figure(f"{session.percent()}%"))
        )
        missing = session.unanswered()
        self.review_unanswered.setText(self.t("review_unanswered", count=missing))
        self.review_unanswered.setVisible(missing > 0)
        self.review_back_button.setText(self.t("back"))
        self.start_again_button.setText(self.t("start_again"))
        self.start_again_button.setToolTip(self.t("start_again_tip"))
        self.retry_button.refresh(session.language)
        missed = session.missed_concepts()
        self.missed_concepts_label.setText(
            self.t("missed_concepts", concepts=self.interface.concepts(missed, session.language))
        )
        self.missed_concepts_label.setVisible(bool(missed))

        for item in self._review_items:
            self.review_box.removeWidget(item)
            item.hide()  # at once: deleteLater waits for the event loop, and the old card would overlap the new
            item.deleteLater()
        self._review_items = []
        for entry in session.review():
            item = ReviewCard(
                entry,
                self.session.language,
                self.t,
                show_demo=partial(self.request_demo, entry.question),
                go_to=partial(self.go_to, entry.position),
                source=self._source(entry.quiz_id),
                brings_back=self._brings_back(entry.brings_back),
            )
            self.review_box.insertWidget(self.review_box.count() - 1, item)
            self._review_items.append(item)
