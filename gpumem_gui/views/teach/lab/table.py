"""The lab's table: one row per policy with every measured figure at the chosen N."""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

from gpumem_gui.teach import lab
from gpumem_gui.views.common.language import count, num, pct, size
from gpumem_gui.views.teach.lab.common import clear_backgrounds, focus_brush


class PolicyTable(QtWidgets.QTableWidget):
    """The measured figures of each policy at N, and of the mm-only selective trap in a last row; the focus shades
    a policy's name and the figure it is about."""

    def __init__(self) -> None:
        super().__init__(len(lab.POLICIES) + 1, 8)
        self.sweep: lab.LabSweep | None = None
        self.verticalHeader().hide()
        self.setEditTriggers(QtWidgets.QAbstractItemView.EditTrigger.NoEditTriggers)
        self.horizontalHeader().setSectionResizeMode(QtWidgets.QHeaderView.ResizeMode.ResizeToContents)
        self.horizontalHeader().setStretchLastSection(True)
        self.retranslate()
        rows_height = self.verticalHeader().defaultSectionSize() * self.rowCount()
        # room for a horizontal scroll bar too: the columns' words are longer in some languages, and a scroll bar
        # taken from the rows' height would hide the last row
        scroll_bar = self.horizontalScrollBar().sizeHint().height()
        self.setFixedHeight(rows_height + self.horizontalHeader().sizeHint().height() + scroll_bar + 4)

    def retranslate(self) -> None:
        """Headers and cells in the window's language: the lab's panel calls it on a language switch."""
        self.setHorizontalHeaderLabels(
            [
                self.tr("policy"),
                self.tr("held for backward"),
                self.tr("via saved_tensors_hooks"),
                self.tr("peak fwd+bwd"),
                self.tr("checkpoints"),
                self.tr("extra layer forwards"),
                self.tr("recomputed matmuls / pointwise"),
                self.tr("extra matmul FLOPs"),
            ]
        )
        if self.sweep is not None:
            self.fill(self.sweep)

    def column_tip(self, column: int) -> str:
        tips = {
            1: self.tr("storages created in the forward and still alive when it returns; parameters excluded"),
            2: self.tr("distinct storages packed through the outer saved_tensors_hooks during the forward"),
            3: self.tr(
                "live activation bytes at their highest over forward and backward (parameter gradients excluded)"
            ),
            5: self.tr("layer forwards started again during backward"),
            6: self.tr("ops run during backward under grad mode (checkpoint recomputation), of the forward's matmuls"),
            7: self.tr("matmul FLOPs recomputed, and their share of the forward's"),
        }
        return tips.get(column, "")

    def fill(self, sweep: lab.LabSweep) -> None:
        self.sweep = sweep
        trap_tip = self.tr(
            "the same selective checkpointing with a policy that names only torch.ops.aten.mm.default: nn.Linear "
            "with a bias runs aten.addmm, so nothing from a Linear is saved and every matmul before early stop is "
            "recomputed"
        )
        rows = [(lab.POLICY_LABELS[p], sweep.at(p)) for p in lab.POLICIES] + [(lab.TRAP_LABEL, sweep.trap)]
        for row, (label, m) in enumerate(rows):
            peak = "" if m.peak_bytes is None else size(m.peak_bytes)
            cells = (
                QtCore.QCoreApplication.translate("lab", label),
                self.tr("{size} ({n} act.)").format(
                    size=size(m.saved_bytes), n=num(m.saved_bytes / m.activation_bytes)
                ),
                size(m.hooked_bytes),
                peak,
                num(m.checkpoints),
                num(m.extra_forwards),
                self.tr("{recomputed} of {matmuls} / {pointwise}").format(
                    recomputed=count(m.recomputed_matmuls),
                    matmuls=count(m.forward_matmuls),
                    pointwise=count(m.recomputed_pointwise),
                ),
                self.tr("{mflops} M ({share})").format(
                    mflops=num(m.extra_flops / 1e6, 1), share=pct(m.extra_flops_fraction)
                ),
            )
            for col, text in enumerate(cells):
                item = QtWidgets.QTableWidgetItem(text)
                item.setToolTip(trap_tip if m.policy == lab.TRAP_POLICY else self.column_tip(col))
                self.setItem(row, col, item)

    def highlight(self, policies: list[str], column: int) -> None:
        brush = focus_brush()
        for p in policies:
            for c in (0, column):
                item = self.item(lab.POLICIES.index(p), c)
                if item is not None:
                    item.setBackground(brush)

    def clear_highlights(self) -> None:
        clear_backgrounds(self)
