"""BudgetLesson: the quiz's first lesson, the memory budget of one training step, predicted by the learner and then
measured by torch on the CPU (teach/budget.py), with the part each technique removes."""

from __future__ import annotations

import html

from PySide6 import QtCore, QtGui, QtWidgets

from gpumem_gui.teach.budget import (
    EXAMPLE,
    GPU_ONLY_PARTS,
    MEASURED_PARTS,
    TECHNIQUES,
    BudgetExample,
    BudgetMeasurement,
    BudgetTexts,
    hand_count,
    is_close,
    load_budget_texts,
    measure_budget,
)
from gpumem_gui.teach.demos.wording import NARROW_NBSP, Figure, localize
from gpumem_gui.teach.lab import torch_available
from gpumem_gui.views.common.rich_text import rich_text
from gpumem_gui.views.common.tasks import TaskContext, TaskGroup
from gpumem_gui.views.teach.quiz_markup import push_button, scroll_area, set_style_state, wrapped_label

MAX_KIB = 100_000_000


def kib(n: int) -> Figure:
    """Bytes as KiB with one decimal, the unit the learner types."""
    return Figure(f"{n / 1024:,.1f} KiB")


class _KiBBox(QtWidgets.QSpinBox):
    """The learner's KiB: the mouse wheel scrolls the lesson, never changes a prediction under the pointer."""

    def wheelEvent(self, e: QtGui.QWheelEvent) -> None:
        e.ignore()


class _Part:
    """One part of the budget: its name, what to think of, the learner's KiB, and the verdict once measured; one
    row each, so that the narrow dock never clips the number box."""

    def __init__(self, box: QtWidgets.QVBoxLayout, measured: bool) -> None:
        self.name = wrapped_label("card_title")
        self.prompt = wrapped_label("muted")
        self.spin: QtWidgets.QSpinBox | None = None
        self.result = wrapped_label("verdict")
        self.result.hide()
        box.addWidget(self.name)
        box.addWidget(self.prompt)
        if measured:
            self.spin = _KiBBox()
            self.spin.setRange(0, MAX_KIB)
            self.spin.setGroupSeparatorShown(True)
            self.spin.setMinimumWidth(160)
            box.addWidget(self.spin, 0, QtCore.Qt.AlignmentFlag.AlignLeft)
        box.addWidget(self.result)


class BudgetLesson(QtWidgets.QWidget):
    """The lesson's page: every part predicted (KiB), then measured; `back` when the learner leaves it."""

    back = QtCore.Signal()

    def __init__(self, texts: BudgetTexts | None = None, example: BudgetExample = EXAMPLE) -> None:
        super().__init__()
        self.texts = texts if texts is not None else load_budget_texts()
        self.example = example
        self.lang = "en"
        self.measurement: BudgetMeasurement | None = None
        self.failure = ""
        self.tasks = TaskGroup(self)
        outer = QtWidgets.QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        content = QtWidgets.QWidget()
        box = QtWidgets.QVBoxLayout(content)
        box.setContentsMargins(0, 0, 4, 0)
        box.setSpacing(8)
        self.title = wrapped_label("heading")
        self.intro = wrapped_label()
        box.addWidget(self.title)
        box.addWidget(self.intro)
        self.parts = {part: _Part(box, part in MEASURED_PARTS) for part in (*MEASURED_PARTS, *GPU_ONLY_PARTS)}
        self.measure_button = push_button(self.measure, primary=True)
        self.status = wrapped_label("muted")
        self.total = wrapped_label()
        self.rule = wrapped_label()
        self.techniques_title = wrapped_label("card_title")
        # one paragraph per technique, its parts before -> after: a table of five sizes is wider than the dock
        self.removes = wrapped_label(rich=True)
        for w in (self.measure_button, self.status, self.total, self.rule, self.techniques_title, self.removes):
            box.addWidget(w)
        box.addStretch(1)
        outer.addWidget(scroll_area(content), 1)
        self.back_button = push_button(self.back.emit)
        self.back_button.setFlat(True)
        outer.addWidget(self.back_button, 0, QtCore.Qt.AlignmentFlag.AlignLeft)
        for w in (self.total, self.rule, self.techniques_title, self.removes):
            w.hide()
        self.redraw()

    def t(self, key: str, **fields: object) -> str:
        return self.texts(key, self.lang, **fields)

    def set_language(self, lang: str) -> None:
        self.lang = lang
        self.redraw()

    def predictions(self) -> dict[str, int]:
        """The learner's predictions in bytes."""
        spins = {part: row.spin for part, row in self.parts.items() if row.spin is not None}
        return {part: spin.value() * 1024 for part, spin in spins.items()}

    # -- measuring ---------------------------------------------------------------------------------------------

    def measure(self) -> None:
        """Run the example's training step with torch off the GUI thread; the hand counts where torch is missing."""
        missing = torch_available()
        if missing is not None:
            self.failure = self.t("no_torch")
            self.redraw()
            return
        self.measure_button.setEnabled(False)
        self.status.setText(self.t("measuring"))
        example = self.example
        self.tasks.start_latest(
            "budget",
            lambda ctx: self._measure(example, ctx),
            on_result=self._measured,
            on_error=self._failed,
            on_finished=lambda: self.measure_button.setEnabled(True),
        )

    @staticmethod
    def _measure(example: BudgetExample, ctx: TaskContext) -> BudgetMeasurement:
        return measure_budget(example, ctx.check)

    def _measured(self, measurement: BudgetMeasurement) -> None:
        self.measurement, self.failure = measurement, ""
        self.redraw()

    def _failed(self, message: str) -> None:
        self.failure = message
        self.redraw()

    def wait(self, timeout_ms: int = 120_000) -> bool:
        """Run the event loop until the measurement has arrived (for scripts and tests)."""
        return self.tasks.wait(timeout_ms)

    # -- drawing -----------------------------------------------------------------------------------------------

    def redraw(self) -> None:
        example, hand = self.example, hand_count(self.example)
        shape = {"layers": example.n_layers, "width": example.width, "tokens": example.tokens}
        self.title.setText(self.t("title"))
        self.intro.setText(self.t("intro", params=example.params, **shape))
        self.measure_button.setText(self.t("measure"))
        self.back_button.setText(self.t("back"))
        self.status.setText(self.failure)
        measured = self.measurement.parts if self.measurement is not None else None
        predicted = self.predictions()
        for part, row in self.parts.items():
            row.name.setText(self.t(f"{part}_name"))
            row.prompt.setText(self.t(f"{part}_prompt", params=example.params))
            if row.spin is not None:  # grouped as the learner's language groups thousands
                row.spin.setLocale(QtCore.QLocale(self.lang))
                row.spin.setSuffix(self.t("unit"))
            if measured is None or part not in measured:
                row.result.hide()
                continue
            right = is_close(predicted[part], measured[part])
            # a part left at 0 was not predicted: its figures without a verdict
            verdict = "none" if not predicted[part] else "right" if right else "wrong"
            set_style_state(row.result, "verdict", verdict)
            said = [] if verdict == "none" else [self.t("predicted", predicted=kib(predicted[part])) + "."]
            row.result.setText(
                " ".join(
                    (
                        self.t("not_predicted") if verdict == "none" else self.t(verdict),
                        *said,
                        self.t("measured", measured=kib(measured[part]), hand=kib(hand[part])) + ".",
                        self.t(f"{part}_why", **shape),
                    )
                )
            )
            row.result.show()
        self._render_techniques()

    def _render_techniques(self) -> None:
        m = self.measurement
        for w in (self.total, self.rule, self.techniques_title, self.removes):
            w.setVisible(m is not None)
        if m is None:
            return
        state = sum(m.parts[p] for p in ("params", "grads", "adam"))
        self.total.setText(self.t("total", total=kib(m.total()), state=kib(state)))
        self.rule.setText(self.t("rule", params=m.example.params, rule_bytes=kib(16 * m.example.params)))
        self.techniques_title.setText(self.t("techniques"))
        self.removes.setText(rich_text("<br><br>".join(self.technique_text(m, t) for t in TECHNIQUES)))

    def technique_text(self, m: BudgetMeasurement, technique: str) -> str:
        """One technique as rich text: its name in bold, each part it changes from before to after (a smaller one
        in bold), the parts it leaves as they are, and what it removes."""
        colon = f"{NARROW_NBSP}:" if self.lang == "fr" else ":"
        after = m.techniques[technique]
        changed, same = [], []
        for part in MEASURED_PARTS:
            name = self.t(f"{part}_name")
            if after[part] == m.parts[part]:
                same.append(name)
                continue
            name = html.escape(name, quote=False)
            before, now = (localize(kib(v).text, self.lang) for v in (m.parts[part], after[part]))
            figure = f"{before} → {now}"
            changed.append(f"{name} {figure if after[part] > m.parts[part] else f'<b>{figure}</b>'}")
        title = html.escape(self.t(f"{technique}_name", world=m.world_size), quote=False)
        lines = [f"<b>{title}</b>{colon} " + "; ".join(changed)]
        if same:
            lines.append(html.escape(self.t("unchanged", parts=", ".join(same)), quote=False))
        lines.append(html.escape(self.t(f"{technique}_removes", world=m.world_size), quote=False))
        return "<br>".join(lines)


class BudgetCard(QtWidgets.QFrame):
    """The chooser's first card: what the lesson is, and a button that opens it (`open_lesson`)."""

    open_lesson = QtCore.Signal()

    def __init__(self, texts: BudgetTexts) -> None:
        super().__init__()
        self.setObjectName("card")
        self.texts = texts
        inner = QtWidgets.QVBoxLayout(self)
        inner.setContentsMargins(12, 10, 12, 10)
        inner.setSpacing(6)
        self.title, self.text = wrapped_label("card_title"), wrapped_label()
        self.button = push_button(self.open_lesson.emit, primary=True)
        inner.addWidget(self.title)
        inner.addWidget(self.text)
        inner.addWidget(self.button, 0, QtCore.Qt.AlignmentFlag.AlignRight)

    def set_language(self, lang: str) -> None:
        self.title.setText(self.texts("chooser_title", lang))
        self.text.setText(self.texts("chooser_text", lang))
        self.button.setText(self.texts("open", lang))
