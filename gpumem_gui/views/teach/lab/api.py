"""The lab's API page: what use_reentrant=True and False each support, measured, and a selective policy to edit."""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

from gpumem_gui.teach.lab import api
from gpumem_gui.views.common import palette
from gpumem_gui.views.common.language import count, size

OUTCOME_COLOURS = {"works": palette.FINDING_BACK["info"], "wrong": palette.FINDING_BACK["warn"],
                   "error": palette.FINDING_BACK["alert"]}  # fmt: skip


def _tr(text: str) -> str:
    return QtCore.QCoreApplication.translate("lab", text)


class ApiPage(QtWidgets.QWidget):
    """Top: one row per case, the outcome of each variant (its detail in the tooltip). Bottom: checkboxes naming the
    ops a selective policy saves; `selection_changed` carries the names when the learner asks for a run."""

    selection_changed = QtCore.Signal(tuple)

    def __init__(self, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        self.table_result: api.ApiTable | None = None
        self.selection: api.SelectionMeasurement | None = None
        self.waiting = False  # queued behind another measurement, not measuring yet
        self.table = QtWidgets.QTableWidget(len(api.API_CASES), 3)
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QtWidgets.QAbstractItemView.EditTrigger.NoEditTriggers)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QtWidgets.QHeaderView.ResizeMode.Stretch)
        for c in (1, 2):
            header.setSectionResizeMode(c, QtWidgets.QHeaderView.ResizeMode.ResizeToContents)
        self.boxes: dict[str, QtWidgets.QCheckBox] = {}
        row = QtWidgets.QHBoxLayout()
        self.saves_label = QtWidgets.QLabel()
        row.addWidget(self.saves_label)
        for name, _ in api.SELECTABLE_OPS:
            box = QtWidgets.QCheckBox(f"aten.{name.split('.')[0]}")
            box.setChecked(name == "mm.default")  # the trap first: the learner sees it save nothing, then fixes it
            self.boxes[name] = box
            row.addWidget(box)
        self.rerun = QtWidgets.QPushButton()
        self.rerun.clicked.connect(self.ask)
        row.addWidget(self.rerun)
        row.addStretch(1)
        self.result = QtWidgets.QLabel()
        self.result.setWordWrap(True)
        self.result.setSizePolicy(QtWidgets.QSizePolicy.Policy.Ignored, QtWidgets.QSizePolicy.Policy.Minimum)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.table, 1)
        layout.addLayout(row)
        layout.addWidget(self.result)
        self.retranslate()

    def retranslate(self) -> None:
        """Every text of the page in the window's language: the lab's panel calls it on a language switch."""
        self.table.setHorizontalHeaderLabels([self.tr("what the block is given"), "use_reentrant=True",
                                              "use_reentrant=False"])  # fmt: skip
        for r, (_, label) in enumerate(api.API_CASES):
            item = QtWidgets.QTableWidgetItem(_tr(label))
            item.setToolTip(_tr(label))
            self.table.setItem(r, 0, item)
        self.saves_label.setText(self.tr("selective policy saves:"))
        for name, tip in api.SELECTABLE_OPS:
            self.boxes[name].setToolTip(_tr(tip))
        self.rerun.setText(self.tr("Rerun policy"))
        if self.table_result is not None:
            self.show_table(self.table_result)
        self._show_result()

    def selected_ops(self) -> tuple[str, ...]:
        return tuple(name for name, box in self.boxes.items() if box.isChecked())

    def ask(self) -> None:
        self.selection = None
        self.waiting = False
        self._show_result()
        self.selection_changed.emit(self.selected_ops())

    def set_waiting(self, waiting: bool) -> None:
        """Queued behind another measurement (True) or measuring now (False): the line under the table says which."""
        self.waiting = waiting
        self._show_result()

    def outcome_text(self, row: api.ApiOutcome) -> tuple[str, str]:
        """A cell's text and tooltip; torch's own words are quoted as torch wrote them."""
        text = {"works": self.tr("works"), "wrong": self.tr("runs, wrong gradients"), "error": self.tr("error")}
        if row.outcome == "error":
            return text["error"], self.tr("torch raised: “{error}”").format(error=row.torch_said)
        tip = _tr(row.reason).format(names=row.names) if row.reason else row.detail
        if row.torch_said:
            tip += self.tr(" (torch warned: “{warning}”)").format(warning=row.torch_said)
        return text[row.outcome], tip

    def show_table(self, table: api.ApiTable) -> None:
        self.table_result = table
        for r, (case, _) in enumerate(api.API_CASES):
            for c, reentrant in ((1, True), (2, False)):
                row = table.outcome(case, reentrant)
                text, tip = self.outcome_text(row)
                item = QtWidgets.QTableWidgetItem(text)
                item.setToolTip(tip)
                item.setBackground(QtGui.QBrush(QtGui.QColor(OUTCOME_COLOURS[row.outcome])))
                self.table.setItem(r, c, item)

    def show_selection(self, m: api.SelectionMeasurement) -> None:
        self.selection = m
        self._show_result()

    def _show_result(self) -> None:
        m = self.selection
        if m is None:
            waiting = self.tr("waiting for the running measurement to finish, then measuring...")
            self.result.setText(waiting if self.waiting else self.tr("measuring..."))
            return
        names = ", ".join(f"aten.{n}" for n in m.names) or self.tr("nothing")
        self.result.setText(
            self.tr(
                "Saving {names} over {layers} checkpointed Linear-GELU-Linear {layers:layer|layers}: {outputs} op "
                "{outputs:output|outputs} saved, {held} held for backward (one activation is {activation}), "
                "{recomputed} of {matmuls} matmuls recomputed."
            ).format(
                names=names,
                layers=count(m.n_layers),
                outputs=count(m.saved_outputs),
                held=size(m.saved_bytes),
                activation=size(m.activation_bytes),
                recomputed=count(m.recomputed_matmuls),
                matmuls=count(m.forward_matmuls),
            )
        )
