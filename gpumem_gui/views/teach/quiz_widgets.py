"""The quiz's widgets (answer card, progress dots, explanation box, review card) and the style sheet that draws them."""

from __future__ import annotations

from collections.abc import Callable

from PySide6 import QtCore, QtGui, QtWidgets

from gpumem_gui.teach.quiz_interface import Interface, load_interface
from gpumem_gui.teach.quiz_session import Change, QuizSession, ReviewItem
from gpumem_gui.views.common.palette import (
    ACCENT,
    ACCENT_BACK,
    BADGE_BACK,
    CARD,
    EXPLAIN_BACK,
    INK,
    LINE,
    MUTED,
    ON_ACCENT,
    RIGHT,
    RIGHT_BACK,
    WRONG,
    WRONG_BACK,
)
from gpumem_gui.views.teach.quiz_markup import breakable, plain, push_button, rich, set_style_state, wrapped_label


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
        self.text = wrapped_label("choice_text", rich=True)
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
        set_style_state(self, "state", state)

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
        self.heading = wrapped_label("explain_heading")
        self.body = wrapped_label("explain_body", rich=True)
        box.addWidget(self.heading)
        box.addWidget(self.body)
        self.plain = ""

    def show_text(self, kind: str, heading: str, choice: str, body: str) -> None:
        set_style_state(self, "kind", kind)
        self.heading.setText(f"{heading} {breakable(plain(choice))}")  # the heading ends with its colon
        self.body.setText(rich(body))
        self.plain = f"{heading} {plain(choice)}\n{plain(body)}"
        self.show()


class ReviewCard(QtWidgets.QFrame):
    """One question on the review page: its prompt, the answer given and the right one, their explanations, and
    buttons to show its demo or go back to it; in a round, the quiz it is from (`source`, "" for the open one) and
    the concepts it brings back. The property "plain" holds all its text, "verdict" how it went."""

    def __init__(
        self,
        entry: ReviewItem,
        lang: str,
        t: Callable[..., str],
        *,
        show_demo: Callable[[], None],
        go_to: Callable[[], None],
        source: str = "",
        brings_back: str = "",
    ) -> None:
        super().__init__()
        number, question, chosen, verdict = entry.number, entry.question, entry.chosen, entry.verdict
        self.setObjectName("card")
        box = QtWidgets.QVBoxLayout(self)
        box.setContentsMargins(12, 10, 12, 10)
        box.setSpacing(5)
        head = QtWidgets.QHBoxLayout()
        title = t("review_question", number=number)
        heading = QtWidgets.QLabel(f"{title} · {source}" if source else title)
        heading.setObjectName("muted")
        heading.setWordWrap(True)
        mark = QtWidgets.QLabel({"right": "✓", "wrong": "✗", "none": "–"}[verdict])
        mark.setObjectName("review_mark")
        mark.setProperty("verdict", verdict)
        head.addWidget(heading, 1)
        head.addWidget(mark)
        box.addLayout(head)
        texts = [heading.text()] if source else []
        if brings_back:
            concepts = wrapped_label("brings_back")
            concepts.setText(brings_back)
            box.addWidget(concepts)
            texts.append(brings_back)
        prompt = wrapped_label("card_title", rich=True)
        prompt.setText(rich(question.prompt[lang]))
        box.addWidget(prompt)

        def choice_text(i: int) -> str:
            return f"{i + 1}. {question.choices[i].text[lang]}"

        your = t("review_your_answer", answer=t("review_not_answered") if chosen is None else choice_text(chosen))
        your_label = wrapped_label("review_answer", rich=True)
        your_label.setProperty("verdict", verdict)
        your_label.setText(rich(your))
        box.addWidget(your_label)
        texts += [plain(question.prompt[lang]), plain(your)]
        if verdict != "right":
            right_answer = t("review_right_answer", answer=choice_text(question.answer))
            right_label = wrapped_label(rich=True)
            right_label.setText(rich(right_answer))
            box.addWidget(right_label)
            texts.append(plain(right_answer))
        explained = [i for i in (chosen, question.answer) if i is not None]
        for i in dict.fromkeys(explained):  # the chosen one, then the right one if different
            explain = ExplanationBox()
            key = "explanation_chosen" if i == chosen else "explanation_right"
            explain.show_text(
                "right" if i == question.answer else "wrong",
                t(key, number=i + 1),
                question.choices[i].text[lang],
                question.choices[i].explanation[lang],
            )
            box.addWidget(explain)
            texts.append(explain.plain)
        buttons = QtWidgets.QHBoxLayout()
        buttons.addStretch(1)
        show = push_button(show_demo)
        show.setText(t("show_me"))
        show.setToolTip(t("show_me_tip"))
        go = push_button(go_to)
        go.setText(t("go_to_question"))
        buttons.addWidget(show)
        buttons.addWidget(go)
        box.addLayout(buttons)
        self.setProperty("plain", "\n".join(texts))
        self.setProperty("verdict", verdict)


class RetryMissedButton(QtWidgets.QPushButton):
    """The review page's "Retry 2 missed questions and 1 prediction": starts the session's round of the missed
    concepts, from every quiz, and hands its Change to `apply` (the panel's redraw). It counts what was missed in
    all the quizzes, answers and predictions apart; hidden when nothing was. `refresh(lang)` after each review
    render."""

    def __init__(
        self, session: QuizSession, apply: Callable[[Change], None], interface: Interface | None = None
    ) -> None:
        super().__init__()
        self.session = session
        self._apply = apply
        self.interface = interface if interface is not None else load_interface()
        self.setAutoDefault(False)  # Enter stays the panel's
        font = self.font()
        font.setBold(True)
        self.setFont(font)
        self.clicked.connect(lambda _checked=False: self.start())
        self.refresh(session.language)

    def refresh(self, lang: str) -> None:
        questions, predictions = self.session.missed_counts()
        if questions and predictions:
            text = self.interface("retry_missed", lang, questions=questions, predictions=predictions)
        elif predictions:
            text = self.interface("retry_missed_predictions", lang, predictions=predictions)
        else:
            text = self.interface("retry_missed_questions", lang, questions=questions)
        self.setText(text)
        concepts = self.session.missed_concepts()  # none where the missed questions name no concept
        names = self.interface.concepts(concepts, lang)
        self.setToolTip(self.interface("retry_missed_tip", lang, concepts=names) if concepts else "")
        self.setVisible(questions + predictions > 0)

    def start(self) -> None:
        self._apply(self.session.start_retry())


# the whole panel's sheet: these widgets and the labels and cards the panel lays out around them, by object name
STYLE = f"""
QLabel#heading {{ font-size: 14pt; font-weight: 600; color: {INK}; }}
QLabel#muted {{ color: {MUTED}; }}
QLabel#prompt {{ font-size: 12pt; font-weight: 600; color: {INK}; }}
QFrame#card {{ background: {CARD}; border: 1px solid {LINE}; border-radius: 8px; }}
QFrame#card QLabel {{ background: transparent; color: {INK}; }}
QFrame#card QLabel#muted {{ color: {MUTED}; }}
QLabel#brings_back, QFrame#card QLabel#brings_back {{ color: {ACCENT}; font-weight: 600; }}
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
