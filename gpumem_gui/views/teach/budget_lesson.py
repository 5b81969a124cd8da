"""BudgetLesson: the quiz's first lesson, the memory budget of one training step, predicted by the learner and then
measured by torch on the CPU (teach/budget.py), with the part each technique removes."""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

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
from gpumem_gui.views.common.tasks import TaskContext, TaskGroup
from gpumem_gui.views.teach.quiz_markup import push_button, scroll_area, set_style_state, wrapped_label

MAX_KIB = 100_000_000


def kib(n: int) -> Figure:
    """Bytes as KiB with one decimal, the unit the learner types."""
    return Figure(f"{n / 1024:,.1f} KiB")


class _Part:
    """One row of the budget: its name, what to think of, the learner's KiB, and the verdict once measured."""

    def __init__(self, grid: QtWidgets.QGridLayout, row: int, measured: bool) -> None:
        self.name = wrapped_label("card_title")
        self.prompt = wrapped_label("muted")
        self.spin: QtWidgets.QSpinBox | None = None
        self.result = wrapped_label("verdict")
        self.result.hide()
        grid.addWidget(self.name, row, 0, 1, 2)
        grid.addWidget(self.prompt, row + 1, 0)
        if measured:
            self.spin = QtWidgets.QSpinBox()
            self.spin.setRange(0, MAX_KIB)
            self.spin.setGroupSeparatorShown(True)
            grid.addWidget(self.spin, row + 1, 1, QtCore.Qt.AlignmentFlag.AlignTop)
        grid.addWidget(self.result, row + 2, 0, 1, 2)


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
        grid = QtWidgets.QGridLayout()
        grid.setColumnStretch(0, 1)
        self.parts = {}
        for i, part in enumerate((*MEASURED_PARTS, *GPU_ONLY_PARTS)):
            self.parts[part] = _Part(grid, 3 * i, part in MEASURED_PARTS)
        box.addLayout(grid)
        self.measure_button = push_button(self.measure, primary=True)
        self.status = wrapped_label("muted")
        self.total = wrapped_label()
        self.rule = wrapped_label()
        self.techniques_title = wrapped_label("card_title")
        self.table = QtWidgets.QTableWidget(len(TECHNIQUES) + 1, len(MEASURED_PARTS) + 1)
        self.table.setEditTriggers(QtWidgets.QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        self.table.setMinimumHeight(200)
        self.removes = wrapped_label()
        for w in (self.measure_button, self.status, self.total, self.rule, self.techniques_title, self.table):
            box.addWidget(w)
        box.addWidget(self.removes)
        box.addStretch(1)
        outer.addWidget(scroll_area(content), 1)
        self.back_button = push_button(self.back.emit)
        self.back_button.setFlat(True)
        outer.addWidget(self.back_button, 0, QtCore.Qt.AlignmentFlag.AlignLeft)
        for w in (self.total, self.rule, self.techniques_title, self.table, self.removes):
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
            if row.spin is not None:
                row.spin.setSuffix(self.t("unit"))
            if measured is None or part not in measured:
                row.result.hide()
                continue
            right = is_close(predicted[part], measured[part])
            set_style_state(row.result, "verdict", "right" if right else "wrong")
            row.result.setText(
                " ".join(
                    (
                        self.t("right" if right else "wrong"),
                        self.t("predicted", predicted=kib(predicted[part])) + ",",
                        self.t("measured", measured=kib(measured[part]), hand=kib(hand[part])) + ".",
                        self.t(f"{part}_why", **shape),
                    )
                )
            )
            row.result.show()
        self._render_techniques()

    def _render_techniques(self) -> None:
        m = self.measurement
        for w in (self.total, self.rule, self.techniques_title, self.table, self.removes):
            w.setVisible(m is not None)
        if m is None:
            return
        state = sum(m.parts[p] for p in ("params", "grads", "adam"))
        self.total.setText(self.t("total", total=kib(m.total()), state=kib(state)))
        self.rule.setText(self.t("rule", params=m.example.params, rule_bytes=kib(16 * m.example.params)))
        self.techniques_title.setText(self.t("techniques"))
        names = [self.t(f"{part}_name") for part in MEASURED_PARTS]
        self.table.setHorizontalHeaderLabels([self.t("technique_header"), *names])
        rows = [("", m.parts), *((t, m.techniques[t]) for t in TECHNIQUES)]
        for r, (technique, parts) in enumerate(rows):
            name = self.t(f"{technique}_name", world=m.world_size) if technique else self.t("baseline")
            self.table.setItem(r, 0, QtWidgets.QTableWidgetItem(name))
            for c, part in enumerate(MEASURED_PARTS, start=1):
                item = QtWidgets.QTableWidgetItem(localize(kib(parts[part]).text, self.lang))
                item.setTextAlignment(QtCore.Qt.AlignmentFlag.AlignRight | QtCore.Qt.AlignmentFlag.AlignVCenter)
                if parts[part] < m.parts[part]:
                    font = item.font()
                    font.setBold(True)
                    item.setFont(font)
                self.table.setItem(r, c, item)
        self.table.resizeColumnsToContents()
        colon = f"{NARROW_NBSP}:" if self.lang == "fr" else ":"
        self.removes.setText(
            "\n\n".join(
                f"{self.t(f'{t}_name', world=m.world_size)}{colon} {self.t(f'{t}_removes', world=m.world_size)}"
                for t in TECHNIQUES
            )
        )


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
