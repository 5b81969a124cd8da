"""The lab's table: one row per policy with every measured figure at the chosen N."""

from __future__ import annotations

from PySide6 import QtWidgets

from gpumem_gui.core.snapshot.units import format_bytes
from gpumem_gui.teach import lab
from gpumem_gui.views.teach.lab.common import clear_backgrounds, focus_brush

COLUMNS = (
    "policy",
    "held for backward",
    "via saved-tensor hooks",
    "peak fwd+bwd",
    "checkpoints",
    "extra layer forwards",
    "recomputed matmuls / pointwise",
    "extra matmul FLOPs",
)
COLUMN_TIPS = {
    1: "storages created in the forward and still alive when it returns; parameters excluded",
    2: "distinct storages packed through the outer saved_tensors_hooks during the forward",
    3: "live activation bytes at their highest over forward and backward (parameter gradients excluded)",
    5: "layer forwards started again during backward",
    6: "ops run during backward under grad mode (checkpoint recomputation), of the forward's matmuls",
    7: "matmul FLOPs recomputed, and their share of the forward's",
}
TRAP_TIP = (
    "the same selective checkpointing with a policy that names only torch.ops.aten.mm.default: nn.Linear with a "
    "bias runs aten.addmm, so nothing from a Linear is saved and every matmul before early stop is recomputed"
)


class PolicyTable(QtWidgets.QTableWidget):
    """The measured figures of each policy at N, and of the mm-only selective trap in a last row; the focus shades
    a policy's name and the figure it is about."""

    def __init__(self) -> None:
        super().__init__(len(lab.POLICIES) + 1, len(COLUMNS))
        self.setHorizontalHeaderLabels(list(COLUMNS))
        self.verticalHeader().hide()
        self.setEditTriggers(QtWidgets.QAbstractItemView.EditTrigger.NoEditTriggers)
        self.horizontalHeader().setSectionResizeMode(QtWidgets.QHeaderView.ResizeMode.ResizeToContents)
        self.horizontalHeader().setStretchLastSection(True)
        rows_height = self.verticalHeader().defaultSectionSize() * self.rowCount()
        self.setFixedHeight(rows_height + self.horizontalHeader().sizeHint().height() + 4)

    def fill(self, sweep: lab.LabSweep) -> None:
        rows = [(lab.POLICY_LABELS[p], sweep.at(p)) for p in lab.POLICIES] + [(lab.TRAP_LABEL, sweep.trap)]
        for row, (label, m) in enumerate(rows):
            peak = "" if m.peak_bytes is None else format_bytes(m.peak_bytes)
            cells = (
                label,
                f"{format_bytes(m.saved_bytes)} ({m.saved_bytes / m.activation_bytes:.0f} act.)",
                format_bytes(m.hooked_bytes),
                peak,
                str(m.checkpoints),
                str(m.extra_forwards),
                f"{m.recomputed_matmuls} of {m.forward_matmuls} / {m.recomputed_pointwise}",
                f"{m.extra_flops / 1e6:.1f} M ({m.extra_flops_fraction:.0%})",
            )
            for col, text in enumerate(cells):
                item = QtWidgets.QTableWidgetItem(text)
                item.setToolTip(TRAP_TIP if m.policy == lab.TRAP_POLICY else COLUMN_TIPS.get(col, ""))
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
