"""QuizPanel: the guided quiz beside the map, one question at a time, in English, Romanian or French."""

from __future__ import annotations

import html
import re
import string
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from PySide6 import QtCore, QtGui, QtWidgets

from gpumem_gui.assets import RESOURCES
from gpumem_gui.teach.quiz import LANGUAGES, Question, Quiz, QuizError
from gpumem_gui.views.palette import (
    ACCENT,
    ACCENT_BACK,
    BADGE_BACK,
    CARD,
    EXPLAIN_BACK,
    INK,
    LINE,
    MUTED,
    ON_ACCENT,
    PAGE,
    RIGHT,
    RIGHT_BACK,
    WRONG,
    WRONG_BACK,
)

INTERFACE_PATH = RESOURCES / "quiz_interface.toml"
SETTINGS_ORG, SETTINGS_APP = "gpumem_gui", "gpumem-gui"

# every interface key the panel uses, with the {fields} it fills in: the file must offer exactly these
INTERFACE_FIELDS: dict[str, frozenset[str]] = {
    "language_name": frozenset(),
    "language_label": frozenset(),
    "chooser_title": frozenset(),
    "chooser_hint": frozenset(),
    "chooser_progress": frozenset({"answered", "total", "right"}),
    "start": frozenset(),
    "continue": frozenset(),
    "see_results": frozenset(),
    "question_progress": frozenset({"number", "total"}),
    "score": frozenset({"right", "answered"}),
    "hint_choose": frozenset({"count"}),
    "hint_confirm": frozenset({"number"}),
    "hint_next": frozenset(),
    "hint_last": frozenset(),
    "verdict_right": frozenset(),
    "verdict_wrong": frozenset({"number"}),
    "explanation_chosen": frozenset({"number"}),
    "explanation_right": frozenset({"number"}),
    "previous": frozenset(),
    "next": frozenset(),
    "finish": frozenset(),
    "show_me": frozenset(),
    "show_me_tip": frozenset(),
    "back": frozenset(),
    "review_title": frozenset({"title"}),
    "review_score": frozenset({"right", "total", "percent"}),
    "review_unanswered": frozenset({"count"}),
    "review_question": frozenset({"number"}),
    "review_your_answer": frozenset({"answer"}),
    "review_right_answer": frozenset({"answer"}),
    "review_not_answered": frozenset(),
    "go_to_question": frozenset(),
    "start_again": frozenset(),
    "start_again_tip": frozenset(),
}

CHOOSER, QUESTION, REVIEW = "chooser", "question", "review"
_CODE = re.compile(r"`([^`]+)`")
_LONG_TOKEN = re.compile(r"\S{20,}")
_BREAK_AFTER = re.compile(r"[._=:/,(\[]")
ZERO_WIDTH_SPACE = "\u200b"


class InterfaceError(ValueError):
    """The panel's interface file is missing, unreadable, or lacks a text in some language."""


@dataclass(frozen=True)
class Interface:
    """The panel's own words: key -> language -> template with {fields}."""

    texts: Mapping[str, Mapping[str, str]]

    def __call__(self, key: str, lang: str, **fields: object) -> str:
        return self.texts[key][lang].format(**fields)


def _fields(template: str) -> frozenset[str]:
    return frozenset(name for _, name, _, _ in string.Formatter().parse(template) if name is not None)


def load_interface(path: Path = INTERFACE_PATH) -> Interface:
    """Read the interface strings; InterfaceError names the key and language that is missing or wrong."""
    name = path.name
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise InterfaceError(f"{path}: cannot read the quiz interface texts: {exc.strerror or exc}") from exc
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise InterfaceError(f"{name}: not valid UTF-8 TOML: {exc}") from exc
    texts: dict[str, dict[str, str]] = {}
    for key in raw:
        if key not in INTERFACE_FIELDS:
            raise InterfaceError(f"{name}: unknown key {key!r} (the panel does not use it)")
    for key, expected in INTERFACE_FIELDS.items():
        entry = raw.get(key)
        if entry is None:
            raise InterfaceError(f"{name}: {key} is missing")
        if not isinstance(entry, dict):
            raise InterfaceError(f"{name}: {key} must be a table {{ en = ..., ro = ..., fr = ... }}")
        for lang in entry:
            if lang not in LANGUAGES:
                raise InterfaceError(f"{name}: {key}.{lang} is not a quiz language ({', '.join(LANGUAGES)})")
        texts[key] = {}
        for lang in LANGUAGES:
            text = entry.get(lang)
            if not isinstance(text, str) or not text.strip():
                raise InterfaceError(f"{name}: {key}.{lang} is missing or empty")
            try:
                found = _fields(text)
            except ValueError as exc:  # an unbalanced brace
                raise InterfaceError(f"{name}: {key}.{lang}: {exc}") from exc
            if found != expected:
                want = ", ".join(f"{{{f}}}" for f in sorted(expected)) or "no {fields}"
                raise InterfaceError(f"{name}: {key}.{lang} must use {want}, found {sorted(found)}")
            texts[key][lang] = text
    return Interface(texts)


def _breakable(text: str) -> str:
    """Let long identifiers wrap after their dots, underscores and the like.

    A word-wrapped label cannot break inside a word, so one `PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True`
    sets the minimum width of the whole dock; a zero-width space is a line-break opportunity and draws nothing.
    """

    def split(m: re.Match[str]) -> str:
        word = m.group(0)
        return _BREAK_AFTER.sub(lambda c: c.group(0) + ZERO_WIDTH_SPACE, word[:-1]) + word[-1]

    return _LONG_TOKEN.sub(split, text)


def _rich(text: str) -> str:
    # quiz texts are plain, with `code` in backticks; escape everything else so a "<" stays a "<"
    parts = _CODE.split(html.escape(_breakable(text), quote=False))
    return "".join(f"<code>{p}</code>" if i % 2 else p for i, p in enumerate(parts))


def _plain(text: str) -> str:
    return _CODE.sub(r"\1", text)


def _label(object_name: str = "", *, rich: bool = False) -> QtWidgets.QLabel:
    label = QtWidgets.QLabel()
    label.setWordWrap(True)
    label.setTextFormat(QtCore.Qt.TextFormat.RichText if rich else QtCore.Qt.TextFormat.PlainText)
    if object_name:
        label.setObjectName(object_name)
    return label


def _set_state(widget: QtWidgets.QWidget, name: str, value: str) -> None:
    """Set a style property and re-apply the style sheet to the widget and its children (Qt does not do it)."""
    if widget.property(name) == value:
        return
    widget.setProperty(name, value)
    for w in [widget, *widget.findChildren(QtWidgets.QWidget)]:
        w.style().unpolish(w)
        w.style().polish(w)
        w.update()


def _scroll(content: QtWidgets.QWidget) -> QtWidgets.QScrollArea:
    area = QtWidgets.QScrollArea()
    area.setWidgetResizable(True)
    area.setFrameShape(QtWidgets.QFrame.Shape.NoFrame)
    area.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    area.setWidget(content)
    return area


class ChoiceCard(QtWidgets.QFrame):
    """One answer: a number badge and word-wrapped text; clicking it answers. States: idle, selected, right, wrong."""

    clicked = QtCore.Signal()

    def __init__(self, number: int) -> None:
        super().__init__()
        self.setObjectName("choice")
        self.setProperty("state", "idle")
        self.setAttribute(QtCore.Qt.WidgetAttribute.WA_Hover)
        self.setCursor(QtCore.Qt.CursorShape.PointingHandCursor)
        row = QtWidgets.QHBoxLayout(self)
        row.setContentsMargins(10, 8, 10, 8)
        row.setSpacing(10)
        self.badge = QtWidgets.QLabel(str(number))
        self.badge.setObjectName("badge")
        self.badge.setAlignment(QtCore.Qt.AlignmentFlag.AlignCenter)
        self.text = _label("choice_text", rich=True)
        self.mark = QtWidgets.QLabel()
        self.mark.setObjectName("mark")
        self.mark.setMinimumWidth(22)  # room for the bolder, larger ✗ the style gives it once answered
        self.mark.setAlignment(QtCore.Qt.AlignmentFlag.AlignCenter)
        row.addWidget(self.badge, 0, QtCore.Qt.AlignmentFlag.AlignTop)
        row.addWidget(self.text, 1)
        row.addWidget(self.mark, 0, QtCore.Qt.AlignmentFlag.AlignTop)

    @property
    def state(self) -> str:
        return str(self.property("state"))

    def set_state(self, state: str) -> None:
        self.mark.setText({"right": "✓", "wrong": "✗"}.get(state, ""))
        self.setCursor(
            QtCore.Qt.CursorShape.PointingHandCursor
            if state in ("idle", "selected")
            else QtCore.Qt.CursorShape.ArrowCursor
        )
        _set_state(self, "state", state)

    def mouseReleaseEvent(self, e: QtGui.QMouseEvent) -> None:
        if e.button() == QtCore.Qt.MouseButton.LeftButton and self.rect().contains(e.position().toPoint()):
            self.clicked.emit()
        super().mouseReleaseEvent(e)


class ProgressDots(QtWidgets.QWidget):
    """One dot per question: grey to do, green right, red wrong; the current one ringed. A click jumps there."""

    jump = QtCore.Signal(int)

    def __init__(self) -> None:
        super().__init__()
        self.states: list[str] = []
        self.current = -1
        self.setFixedHeight(18)
        self.setCursor(QtCore.Qt.CursorShape.PointingHandCursor)

    def set_states(self, states: list[str], current: int) -> None:
        self.states, self.current = states, current
        self.update()

    def _step(self) -> float:
        return min(20.0, self.width() / max(1, len(self.states)))

    def paintEvent(self, e: QtGui.QPaintEvent) -> None:
        p = QtGui.QPainter(self)
        p.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing)
        step = self._step()
        radius = min(5.0, step / 2 - 2)
        fill = {"right": RIGHT, "wrong": WRONG}
        for i, state in enumerate(self.states):
            centre = QtCore.QPointF(step * i + step / 2, self.height() / 2)
            p.setPen(QtCore.Qt.PenStyle.NoPen)
            p.setBrush(QtGui.QColor(fill.get(state, LINE)))
            p.drawEllipse(centre, radius, radius)
            if i == self.current:
                p.setPen(QtGui.QPen(QtGui.QColor(ACCENT), 2))
                p.setBrush(QtCore.Qt.BrushStyle.NoBrush)
                p.drawEllipse(centre, radius + 3, radius + 3)
        p.end()

    def mouseReleaseEvent(self, e: QtGui.QMouseEvent) -> None:
        i = int(e.position().x() // self._step())
        if 0 <= i < len(self.states):
            self.jump.emit(i)


class ExplanationBox(QtWidgets.QFrame):
    """A heading and a paragraph, with a coloured rule on the left: green for the right choice, red for a wrong one."""

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("explain")
        self.setProperty("kind", "right")
        box = QtWidgets.QVBoxLayout(self)
        box.setContentsMargins(12, 8, 10, 8)
        box.setSpacing(4)
        self.heading = _label("explain_heading")
        self.body = _label("explain_body", rich=True)
        box.addWidget(self.heading)
        box.addWidget(self.body)
        self.plain = ""

    def show_text(self, kind: str, heading: str, choice: str, body: str) -> None:
        _set_state(self, "kind", kind)
        self.heading.setText(f"{heading}: {_breakable(_plain(choice))}")
        self.body.setText(_rich(body))
        self.plain = f"{heading}: {_plain(choice)}\n{_plain(body)}"
        self.show()


STYLE = f"""
QLabel#heading {{ font-size: 14pt; font-weight: 600; color: {INK}; }}
QLabel#muted {{ color: {MUTED}; }}
QLabel#prompt {{ font-size: 12pt; font-weight: 600; color: {INK}; }}
QFrame#card {{ background: {CARD}; border: 1px solid {LINE}; border-radius: 8px; }}
QFrame#card QLabel {{ background: transparent; color: {INK}; }}
QFrame#card QLabel#muted {{ color: {MUTED}; }}
QLabel#card_title {{ font-size: 11pt; font-weight: 600; color: {INK}; }}
QFrame#choice {{ background: {CARD}; border: 2px solid {LINE}; border-radius: 8px; }}
QFrame#choice:hover[state="idle"] {{ border-color: {ACCENT}; }}
QFrame#choice[state="selected"] {{ border-color: {ACCENT}; background: {ACCENT_BACK}; }}
QFrame#choice[state="right"] {{ border-color: {RIGHT}; background: {RIGHT_BACK}; }}
QFrame#choice[state="wrong"] {{ border-color: {WRONG}; background: {WRONG_BACK}; }}
QFrame#choice[state="dim"] QLabel#choice_text {{ color: {MUTED}; }}
QFrame#choice QLabel {{ background: transparent; color: {INK}; }}
QLabel#badge {{ background: {BADGE_BACK}; color: {INK}; border-radius: 11px; font-weight: 600;
    min-width: 22px; max-width: 22px; min-height: 22px; max-height: 22px; }}
QFrame#choice[state="selected"] QLabel#badge {{ background: {ACCENT}; color: {ON_ACCENT}; }}
QFrame#choice[state="right"] QLabel#badge {{ background: {RIGHT}; color: {ON_ACCENT}; }}
QFrame#choice[state="wrong"] QLabel#badge {{ background: {WRONG}; color: {ON_ACCENT}; }}
QFrame#choice[state="right"] QLabel#mark {{ color: {RIGHT}; font-size: 13pt; font-weight: 700; }}
QFrame#choice[state="wrong"] QLabel#mark {{ color: {WRONG}; font-size: 13pt; font-weight: 700; }}
QLabel#verdict {{ border-radius: 6px; padding: 6px 10px; font-size: 11pt; font-weight: 700; }}
QLabel#verdict[verdict="right"] {{ color: {RIGHT}; background: {RIGHT_BACK}; }}
QLabel#verdict[verdict="wrong"] {{ color: {WRONG}; background: {WRONG_BACK}; }}
QFrame#explain {{ background: {EXPLAIN_BACK}; border: none; border-left: 4px solid {RIGHT}; border-radius: 2px; }}
QFrame#explain[kind="wrong"] {{ border-left-color: {WRONG}; }}
QFrame#explain QLabel {{ background: transparent; color: {INK}; }}
QLabel#explain_heading {{ font-weight: 600; }}
QLabel#review_mark[verdict="right"], QLabel#review_answer[verdict="right"] {{ color: {RIGHT}; font-weight: 600; }}
QLabel#review_mark[verdict="wrong"], QLabel#review_answer[verdict="wrong"] {{ color: {WRONG}; font-weight: 600; }}
QLabel#review_mark[verdict="none"], QLabel#review_answer[verdict="none"] {{ color: {MUTED}; font-style: italic; }}
"""


class QuizPanel(QtWidgets.QWidget):
    """Choose a quiz, answer its questions (mouse or keys 1-n and Enter), see why, review; progress is remembered.

    Meant for a dock beside the map. `show_demo` hands the main window the question whose demo it should stage;
    `language_changed` tells it the language the user picked.
    """

    show_demo = QtCore.Signal(object)
    language_changed = QtCore.Signal(str)

    def __init__(
        self,
        quizzes: list[Quiz],
        settings: QtCore.QSettings | None = None,
        parent: QtWidgets.QWidget | None = None,
        *,
        interface: Interface | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("quiz_panel")
        self.quizzes = list(quizzes)
        self._by_id = {q.id: q for q in self.quizzes}
        self.settings = settings if settings is not None else QtCore.QSettings(SETTINGS_ORG, SETTINGS_APP)
        self.interface = interface if interface is not None else load_interface()
        self._quiz: Quiz | None = None
        self._index = 0
        self._selected: int | None = None
        self._page = CHOOSER
        self._answers: dict[str, dict[str, int]] = {q.id: self._saved_answers(q) for q in self.quizzes}
        saved_language = str(self.settings.value("quiz/language", "en"))
        self._language = saved_language if saved_language in LANGUAGES else "en"

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
        self.language_combo.setCurrentIndex(LANGUAGES.index(self._language))
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

        # come back where the user left: the quiz that was open, at its question
        last = str(self.settings.value("quiz/open", ""))
        if last in self._by_id:
            self.open_quiz(last)
        else:
            self._render()

    # -- public accessors ----------------------------------------------------------------------------------------

    @property
    def language(self) -> str:
        return self._language

    @property
    def page(self) -> str:
        """Which page shows: CHOOSER, QUESTION or REVIEW."""
        return self._page

    @property
    def current_quiz(self) -> Quiz | None:
        return self._quiz

    @property
    def current_index(self) -> int:
        return self._index

    @property
    def current_question(self) -> Question | None:
        return self._quiz.questions[self._index] if self._quiz is not None else None

    @property
    def answers(self) -> dict[str, int]:
        """Question id -> chosen choice index, for the open quiz."""
        return dict(self._answers[self._quiz.id]) if self._quiz is not None else {}

    @property
    def selected(self) -> int | None:
        """The choice picked with a number key and not yet confirmed with Enter."""
        return self._selected

    def answers_of(self, quiz_id: str) -> dict[str, int]:
        return dict(self._answers[quiz_id])

    def score(self, quiz_id: str | None = None) -> int:
        """Right answers in the given (default: the open) quiz."""
        quiz = self._by_id[quiz_id] if quiz_id is not None else self._quiz
        if quiz is None:
            return 0
        answers = self._answers[quiz.id]
        return sum(1 for q in quiz.questions if answers.get(q.id) == q.answer)

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
        return self.interface(key, self._language, **fields)

    # -- actions -------------------------------------------------------------------------------------------------

    def set_language(self, lang: str) -> None:
        if lang not in LANGUAGES:
            raise ValueError(f"unknown quiz language {lang!r}; known: {', '.join(LANGUAGES)}")
        if lang == self._language:
            return
        self._language = lang
        self.settings.setValue("quiz/language", lang)
        self.settings.sync()
        if self.language_combo.currentIndex() != LANGUAGES.index(lang):
            self.language_combo.setCurrentIndex(LANGUAGES.index(lang))
        self._render()
        self.language_changed.emit(lang)

    def open_quiz(self, quiz_id: str) -> None:
        """Show the quiz at the question the user was on (the first, the first time)."""
        quiz = self._by_id.get(quiz_id)
        if quiz is None:
            known = ", ".join(self._by_id) or "none"
            raise QuizError(f"no quiz with id {quiz_id!r} (known: {known})")
        self._quiz = quiz
        saved = str(self.settings.value(f"quiz/{quiz.id}/current", ""))
        ids = [q.id for q in quiz.questions]
        self._index = ids.index(saved) if saved in ids else 0
        self.settings.setValue("quiz/open", quiz.id)
        self._go(QUESTION)

    def go_to(self, index: int) -> None:
        if self._quiz is None or not 0 <= index < len(self._quiz.questions):
            return
        self._index = index
        self._go(QUESTION)

    def next_question(self) -> None:
        """The next question; after the last, the review page."""
        if self._quiz is None:
            return
        if self._index + 1 < len(self._quiz.questions):
            self.go_to(self._index + 1)
        else:
            self.show_review()

    def previous_question(self) -> None:
        if self._page == REVIEW and self._quiz is not None:
            self.go_to(len(self._quiz.questions) - 1)
        else:
            self.go_to(self._index - 1)

    def select_choice(self, index: int) -> None:
        """Mark a choice (keys 1-n); Enter confirms it. Answered questions stay as they are."""
        question = self.current_question
        if self._page != QUESTION or question is None or question.id in self.answers:
            return
        if 0 <= index < len(question.choices):
            self._selected = index
            self._render()

    def answer(self, index: int) -> None:
        """Answer the shown question with choice `index` (a click does this); an answered question is locked."""
        question = self.current_question
        if self._page != QUESTION or question is None or self._quiz is None:
            return
        answers = self._answers[self._quiz.id]
        if question.id in answers or not 0 <= index < len(question.choices):
            return
        answers[question.id] = index
        self.settings.setValue(f"quiz/{self._quiz.id}/answers/{question.id}", index)
        self.settings.sync()
        self._selected = None
        self._render()

    def confirm(self) -> None:
        """Enter: answer with the selected choice, or, once answered, go on."""
        question = self.current_question
        if self._page != QUESTION or question is None:
            return
        if question.id in self.answers:
            self.next_question()
        elif self._selected is not None:
            self.answer(self._selected)

    def show_review(self) -> None:
        if self._quiz is not None:
            self._go(REVIEW)

    def restart(self) -> None:
        """Forget the open quiz's answers and start it again from the first question."""
        if self._quiz is None:
            return
        self._answers[self._quiz.id] = {}
        self.settings.remove(f"quiz/{self._quiz.id}/answers")
        self._index = 0
        self._go(QUESTION)

    def back_to_quizzes(self) -> None:
        self.settings.setValue("quiz/open", "")
        self._quiz = None
        self._go(CHOOSER)

    def request_demo(self, question: Question | None = None) -> None:
        question = question if question is not None else self.current_question
        if question is not None:
            self.show_demo.emit(question)

    # -- persistence ---------------------------------------------------------------------------------------------

    def _saved_answers(self, quiz: Quiz) -> dict[str, int]:
        # answers are kept by question id, so editing the file (reordering, adding) keeps what still applies
        group = f"quiz/{quiz.id}/answers"
        self.settings.beginGroup(group)
        raw = {key: self.settings.value(key) for key in self.settings.childKeys()}
        self.settings.endGroup()
        answers: dict[str, int] = {}
        for question in quiz.questions:
            try:
                index = int(str(raw[question.id]))
            except (KeyError, ValueError):
                continue
            if 0 <= index < len(question.choices):
                answers[question.id] = index
        return answers

    # -- keys ------------------------------------------------------------------------------------------------------

    def keyPressEvent(self, e: QtGui.QKeyEvent) -> None:
        key = e.key()
        question = self.current_question
        if self._page == QUESTION and question is not None:
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

    @staticmethod
    def _button(slot: Callable[[], None], primary: bool = False) -> QtWidgets.QPushButton:
        button = QtWidgets.QPushButton()
        button.setAutoDefault(False)
        button.clicked.connect(lambda _checked=False: slot())  # clicked(bool) would fill a slot's first default
        if primary:
            font = button.font()
            font.setBold(True)
            button.setFont(font)
        return button

    def _build_chooser(self) -> None:
        content = QtWidgets.QWidget()
        box = QtWidgets.QVBoxLayout(content)
        box.setContentsMargins(0, 0, 4, 0)
        box.setSpacing(10)
        self.chooser_title = _label("heading")
        self.chooser_hint = _label("muted")
        box.addWidget(self.chooser_title)
        box.addWidget(self.chooser_hint)
        self.quiz_cards: dict[str, QtWidgets.QFrame] = {}
        self.quiz_buttons: dict[str, QtWidgets.QPushButton] = {}
        self._quiz_labels: dict[str, tuple[QtWidgets.QLabel, QtWidgets.QLabel, QtWidgets.QLabel]] = {}
        for quiz in self.quizzes:
            card = QtWidgets.QFrame()
            card.setObjectName("card")
            inner = QtWidgets.QVBoxLayout(card)
            inner.setContentsMargins(12, 10, 12, 10)
            inner.setSpacing(6)
            title, intro, progress = _label("card_title"), _label(rich=True), _label("muted")
            button = self._button(lambda q=quiz.id: self._open_from_chooser(q), primary=True)
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
        box.addStretch(1)
        self.chooser_page = _scroll(content)
        self.stack.addWidget(self.chooser_page)

    def _build_question(self) -> None:
        page = QtWidgets.QWidget()
        outer = QtWidgets.QVBoxLayout(page)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(6)
        self.quiz_title = _label("muted")
        head = QtWidgets.QHBoxLayout()
        self.progress_label = QtWidgets.QLabel()
        self.progress_label.setObjectName("card_title")
        self.score_label = QtWidgets.QLabel()
        self.score_label.setObjectName("muted")
        head.addWidget(self.progress_label, 1)
        head.addWidget(self.score_label)
        self.dots = ProgressDots()
        self.dots.jump.connect(self.go_to)
        outer.addWidget(self.quiz_title)
        outer.addLayout(head)
        outer.addWidget(self.dots)

        content = QtWidgets.QWidget()
        box = QtWidgets.QVBoxLayout(content)
        box.setContentsMargins(0, 4, 4, 4)
        box.setSpacing(8)
        self.prompt = _label("prompt", rich=True)
        box.addWidget(self.prompt)
        box.addSpacing(2)
        self.choice_box = QtWidgets.QVBoxLayout()
        self.choice_box.setSpacing(6)
        box.addLayout(self.choice_box)
        self.choice_cards: list[ChoiceCard] = []
        self.hint = _label("muted")
        self.verdict = _label("verdict")
        self.chosen_box = ExplanationBox()
        self.right_box = ExplanationBox()
        # the hint comes last: below the choices before answering, below the explanations after
        for w in (self.verdict, self.chosen_box, self.right_box, self.hint):
            box.addWidget(w)
        box.addStretch(1)
        self.question_scroll = _scroll(content)
        outer.addWidget(self.question_scroll, 1)

        nav = QtWidgets.QHBoxLayout()
        self.previous_button = self._button(self.previous_question)
        self.show_me_button = self._button(self.request_demo)
        self.next_button = self._button(self.next_question, primary=True)
        nav.addWidget(self.previous_button)
        nav.addStretch(1)
        nav.addWidget(self.show_me_button)
        nav.addWidget(self.next_button)
        outer.addLayout(nav)
        self.back_button = self._button(self.back_to_quizzes)
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
        self.review_title = _label("heading")
        self.review_score = _label("prompt")
        self.review_unanswered = _label("muted")
        for w in (self.review_title, self.review_score, self.review_unanswered):
            outer.addWidget(w)
        content = QtWidgets.QWidget()
        self.review_box = QtWidgets.QVBoxLayout(content)
        self.review_box.setContentsMargins(0, 4, 4, 4)
        self.review_box.setSpacing(10)
        self.review_box.addStretch(1)
        self._review_items: list[QtWidgets.QFrame] = []
        self.review_scroll = _scroll(content)
        outer.addWidget(self.review_scroll, 1)
        row = QtWidgets.QHBoxLayout()
        self.review_back_button = self._button(self.back_to_quizzes)
        self.start_again_button = self._button(self.restart, primary=True)
        row.addWidget(self.review_back_button)
        row.addStretch(1)
        row.addWidget(self.start_again_button)
        outer.addLayout(row)
        self.review_page = page
        self.stack.addWidget(page)

    # -- rendering -----------------------------------------------------------------------------------------------

    def _go(self, page: str) -> None:
        self._page = page
        self._selected = None
        if self._quiz is not None and page == QUESTION:
            self.settings.setValue(f"quiz/{self._quiz.id}/current", self._quiz.questions[self._index].id)
        self.settings.sync()
        self._render()
        for area in (self.question_scroll, self.review_scroll):
            area.verticalScrollBar().setValue(0)
        if page == QUESTION:
            self.setFocus()  # so 1-n and Enter reach the panel after a click elsewhere

    def _render(self) -> None:
        self.language_label.setText(self.t("language_label"))
        if self._page == CHOOSER:
            self._render_chooser()
            self.stack.setCurrentWidget(self.chooser_page)
        elif self._page == QUESTION:
            self._render_question()
            self.stack.setCurrentWidget(self.question_page)
        else:
            self._render_review()
            self.stack.setCurrentWidget(self.review_page)

    def _open_from_chooser(self, quiz_id: str) -> None:
        self.open_quiz(quiz_id)
        quiz = self._by_id[quiz_id]
        if len(self._answers[quiz_id]) == len(quiz.questions):
            self.show_review()

    def _render_chooser(self) -> None:
        lang = self._language
        self.chooser_title.setText(self.t("chooser_title"))
        self.chooser_hint.setText(self.t("chooser_hint"))
        for quiz in self.quizzes:
            title, intro, progress = self._quiz_labels[quiz.id]
            answered, total = len(self._answers[quiz.id]), len(quiz.questions)
            title.setText(quiz.title[lang])
            intro.setText(_rich(quiz.intro[lang]))
            progress.setText(self.t("chooser_progress", answered=answered, total=total, right=self.score(quiz.id)))
            key = "start" if answered == 0 else "see_results" if answered == total else "continue"
            self.quiz_buttons[quiz.id].setText(self.t(key))

    def _render_question(self) -> None:
        quiz, question = self._quiz, self.current_question
        assert quiz is not None and question is not None
        lang = self._language
        answers = self._answers[quiz.id]
        total = len(quiz.questions)
        chosen = answers.get(question.id)
        self.quiz_title.setText(quiz.title[lang])
        self.progress_label.setText(self.t("question_progress", number=self._index + 1, total=total))
        self.score_label.setText(self.t("score", right=self.score(), answered=len(answers)))
        self.dots.set_states(
            [
                "todo" if q.id not in answers else "right" if answers[q.id] == q.answer else "wrong"
                for q in quiz.questions
            ],
            self._index,
        )
        self.prompt.setText(_rich(question.prompt[lang]))

        while len(self.choice_cards) < len(question.choices):
            number = len(self.choice_cards)
            card = ChoiceCard(number + 1)
            card.clicked.connect(lambda i=number: self._clicked(i))
            self.choice_box.addWidget(card)
            self.choice_cards.append(card)
        for i, card in enumerate(self.choice_cards):
            if i >= len(question.choices):
                card.hide()
                continue
            card.show()
            card.text.setText(_rich(question.choices[i].text[lang]))
            if chosen is None:
                card.set_state("selected" if i == self._selected else "idle")
            elif i == question.answer:
                card.set_state("right")
            else:
                card.set_state("wrong" if i == chosen else "dim")
            card.setAccessibleName(f"{i + 1}. {_plain(question.choices[i].text[lang])}")

        last = self._index + 1 == total
        if chosen is None:
            self.verdict.hide()
            self.chosen_box.hide()
            self.right_box.hide()
            if self._selected is None:
                self.hint.setText(self.t("hint_choose", count=len(question.choices)))
            else:
                self.hint.setText(self.t("hint_confirm", number=self._selected + 1))
        else:
            self.hint.setText(self.t("hint_last" if last else "hint_next"))
            right = chosen == question.answer
            _set_state(self.verdict, "verdict", "right" if right else "wrong")
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
        self.previous_button.setEnabled(self._index > 0)
        self.next_button.setText(self.t("finish" if last else "next"))
        self.show_me_button.setText(self.t("show_me"))
        tip = self.t("show_me_tip")
        if question.caption is not None:
            tip += "\n\n" + _plain(question.caption[lang])
        self.show_me_button.setToolTip(tip)
        self.back_button.setText(self.t("back"))

    def _clicked(self, index: int) -> None:
        self.answer(index)
        self.setFocus()

    def _render_review(self) -> None:
        quiz = self._quiz
        assert quiz is not None
        lang = self._language
        answers = self._answers[quiz.id]
        total = len(quiz.questions)
        right = self.score()
        self.review_title.setText(self.t("review_title", title=quiz.title[lang]))
        percent = (200 * right + total) // (2 * total)  # rounded half up: 1 of 8 is 13 %, not round()'s 12
        self.review_score.setText(self.t("review_score", right=right, total=total, percent=percent))
        missing = total - len(answers)
        self.review_unanswered.setText(self.t("review_unanswered", count=missing))
        self.review_unanswered.setVisible(missing > 0)
        self.review_back_button.setText(self.t("back"))
        self.start_again_button.setText(self.t("start_again"))
        self.start_again_button.setToolTip(self.t("start_again_tip"))

        for item in self._review_items:
            self.review_box.removeWidget(item)
            item.hide()  # at once: deleteLater waits for the event loop, and the old card would overlap the new
            item.deleteLater()
        self._review_items = []
        for number, question in enumerate(quiz.questions, start=1):
            item = self._review_item(number, question, answers.get(question.id))
            self.review_box.insertWidget(self.review_box.count() - 1, item)
            self._review_items.append(item)

    def _review_item(self, number: int, question: Question, chosen: int | None) -> QtWidgets.QFrame:
        lang = self._language
        verdict = "none" if chosen is None else "right" if chosen == question.answer else "wrong"
        card = QtWidgets.QFrame()
        card.setObjectName("card")
        box = QtWidgets.QVBoxLayout(card)
        box.setContentsMargins(12, 10, 12, 10)
        box.setSpacing(5)
        head = QtWidgets.QHBoxLayout()
        heading = QtWidgets.QLabel(self.t("review_question", number=number))
        heading.setObjectName("muted")
        mark = QtWidgets.QLabel({"right": "✓", "wrong": "✗", "none": "–"}[verdict])
        mark.setObjectName("review_mark")
        mark.setProperty("verdict", verdict)
        head.addWidget(heading, 1)
        head.addWidget(mark)
        box.addLayout(head)
        prompt = _label("card_title", rich=True)
        prompt.setText(_rich(question.prompt[lang]))
        box.addWidget(prompt)

        def choice_text(i: int) -> str:
            return f"{i + 1}. {question.choices[i].text[lang]}"

        your = self.t(
            "review_your_answer", answer=self.t("review_not_answered") if chosen is None else choice_text(chosen)
        )
        your_label = _label("review_answer", rich=True)
        your_label.setProperty("verdict", verdict)
        your_label.setText(_rich(your))
        box.addWidget(your_label)
        texts = [_plain(question.prompt[lang]), _plain(your)]
        if verdict != "right":
            right_answer = self.t("review_right_answer", answer=choice_text(question.answer))
            right_label = _label(rich=True)
            right_label.setText(_rich(right_answer))
            box.addWidget(right_label)
            texts.append(_plain(right_answer))
        explained = [i for i in (chosen, question.answer) if i is not None]
        for i in dict.fromkeys(explained):  # the chosen one, then the right one if different
            explain = ExplanationBox()
            key = "explanation_chosen" if i == chosen else "explanation_right"
            explain.show_text(
                "right" if i == question.answer else "wrong",
                self.t(key, number=i + 1),
                question.choices[i].text[lang],
                question.choices[i].explanation[lang],
            )
            box.addWidget(explain)
            texts.append(explain.plain)
        buttons = QtWidgets.QHBoxLayout()
        buttons.addStretch(1)
        show = self._button(lambda q=question: self.request_demo(q))
        show.setText(self.t("show_me"))
        show.setToolTip(self.t("show_me_tip"))
        go = self._button(lambda i=number - 1: self.go_to(i))
        go.setText(self.t("go_to_question"))
        buttons.addWidget(show)
        buttons.addWidget(go)
        box.addLayout(buttons)
        card.setProperty("plain", "\n".join(texts))
        card.setProperty("verdict", verdict)
        return card
