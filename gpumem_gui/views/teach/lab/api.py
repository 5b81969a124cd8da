"""The lab's API page: what use_reentrant=True and False each support, measured, and a selective policy to edit."""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

from gpumem_gui.core.snapshot.units import format_bytes
from gpumem_gui.teach.lab import api
from gpumem_gui.views.common import palette

OUTCOME_TEXT = {"works": "works", "wrong": "runs, wrong gradients", "error": "error"}
OUTCOME_COLOURS = {"works": palette.FINDING_BACK["info"], "wrong": palette.FINDING_BACK["warn"],
                   "error": palette.FINDING_BACK["alert"]}  # fmt: skip


class ApiPage(QtWidgets.QWidget):
    """Top: one row per case, the outcome of each variant (its detail in the tooltip). Bottom: checkboxes naming the
    ops a selective policy saves; `selection_changed` carries the names when the learner asks for a run."""

    selection_changed = QtCore.Signal(tuple)

    def __init__(self, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        self.table_result: api.ApiTable | None = None
        self.selection: api.SelectionMeasurement | None = None
        self.table = QtWidgets.QTableWidget(len(api.API_CASES), 3)
        self.table.setHorizontalHeaderLabels(["what the block is given", "use_reentrant=True", "use_reentrant=False"])
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QtWidgets.QAbstractItemView.EditTrigger.NoEditTriggers)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QtWidgets.QHeaderView.ResizeMode.Stretch)
        for c in (1, 2):
            header.setSectionResizeMode(c, QtWidgets.QHeaderView.ResizeMode.ResizeToContents)
        for r, (_, label) in enumerate(api.API_CASES):
            item = QtWidgets.QTableWidgetItem(label)
            item.setToolTip(label)
            self.table.setItem(r, 0, item)
        self.boxes: dict[str, QtWidgets.QCheckBox] = {}
        row = QtWidgets.QHBoxLayout()
        row.addWidget(QtWidgets.QLabel("selective policy saves:"))
        for name, tip in api.SELECTABLE_OPS:
            box = QtWidgets.QCheckBox(f"aten.{name.split('.')[0]}")
            box.setToolTip(tip)
            box.setChecked(name == "mm.default")  # the trap first: the learner sees it save nothing, then fixes it
            self.boxes[name] = box
            row.addWidget(box)
        self.rerun = QtWidgets.QPushButton("Rerun policy")
        self.rerun.clicked.connect(self.ask)
        row.addWidget(self.rerun)
        row.addStretch(1)
        self.result = QtWidgets.QLabel("measuring...")
        self.result.setWordWrap(True)
        self.result.setSizePolicy(QtWidgets.QSizePolicy.Policy.Ignored, QtWidgets.QSizePolicy.Policy.Minimum)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.table, 1)
        layout.addLayout(row)
        layout.addWidget(self.result)

    def selected_ops(self) -> tuple[str, ...]:
        return tuple(name for name, box in self.boxes.items() if box.isChecked())

    def ask(self) -> None:
        self.result.setText("measuring...")
        self.selection_changed.emit(self.selected_ops())

    def show_table(self, table: api.ApiTable) -> None:
        self.table_result = table
        for r, (case, _) in enumerate(api.API_CASES):
            for c, reentrant in ((1, True), (2, False)):
                row = table.outcome(case, reentrant)
                item = QtWidgets.QTableWidgetItem(OUTCOME_TEXT[row.outcome])
                item.setToolTip(row.detail)
                item.setBackground(QtGui.QBrush(QtGui.QColor(OUTCOME_COLOURS[row.outcome])))
                self.table.setItem(r, c, item)

    def show_selection(self, m: api.SelectionMeasurement) -> None:
        self.selection = m
        names = ", ".join(f"aten.{n}" for n in m.names) or "nothing"
        self.result.setText(
            f"Saving {names} over {m.n_layers} checkpointed Linear-GELU-Linear layers: {m.saved_outputs} op outputs "
            f"saved, {format_bytes(m.saved_bytes)} held for backward (one activation is "
            f"{format_bytes(m.activation_bytes)}), {m.recomputed_matmuls} of {m.forward_matmuls} matmuls recomputed."
        )
