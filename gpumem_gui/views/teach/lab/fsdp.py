"""The lab's FSDP tab: what one GPU holds under FULL_SHARD against the world size, for a dtype and an optimizer."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtWidgets

from gpumem_gui.core.snapshot.units import format_bytes
from gpumem_gui.teach import lab
from gpumem_gui.teach.translatable import QT_TRANSLATE_NOOP
from gpumem_gui.views.common import palette
from gpumem_gui.views.common.language import count, num, size
from gpumem_gui.views.teach.lab.common import byte_unit, clear_backgrounds, focus_brush, focus_rings, relabel_legend

FSDP_COLOURS = {
    "params": palette.CURVES["reserved"],
    "grads": palette.CURVES["allocated"],
    "optimizer": palette.PENDING,
    "total": palette.WASTE,
}
ROWS = (
    ("params", QT_TRANSLATE_NOOP("FsdpPage", "parameters")),
    ("grads", QT_TRANSLATE_NOOP("FsdpPage", "gradients")),
    ("optimizer", QT_TRANSLATE_NOOP("FsdpPage", "optimizer state")),
    ("total", QT_TRANSLATE_NOOP("FsdpPage", "total")),
)


class FsdpPage(QtWidgets.QWidget):
    """World size, dtype and optimizer; per-GPU bytes against the world size, and a table at the chosen one.

    `changed` fires when a setting changes: the panel measures again, since every figure here is measured.
    """

    changed = QtCore.Signal()

    def __init__(self, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        self.fsdp: lab.FsdpBreakdown | None = None
        self.divisor = 1.0
        self.world_spin = QtWidgets.QSpinBox(minimum=1, maximum=1024, value=8)
        self.dtype_combo = QtWidgets.QComboBox()
        self.dtype_combo.addItems(list(lab.DTYPES))
        self.optimizer_combo = QtWidgets.QComboBox()
        self.optimizer_combo.addItems(list(lab.OPTIMIZERS))
        for signal in (
            self.world_spin.valueChanged,
            self.dtype_combo.currentIndexChanged,
            self.optimizer_combo.currentIndexChanged,
        ):
            signal.connect(lambda *_: self.changed.emit())
        row = QtWidgets.QHBoxLayout()
        self.labels: list[QtWidgets.QLabel] = []
        for widget in (self.world_spin, self.dtype_combo, self.optimizer_combo):
            self.labels.append(QtWidgets.QLabel())
            row.addWidget(self.labels[-1])
            row.addWidget(widget)
        row.addStretch(1)
        self.plot = pg.PlotWidget(background=palette.PLOT_BACKGROUND)
        self.plot.setLogMode(x=True, y=False)
        self.plot.showGrid(x=True, y=True, alpha=0.2)
        self.plot.getAxis("left").enableAutoSIPrefix(False)
        self.plot.addLegend(offset=(-10, 10), brush=palette.LEGEND_FILL)
        self.curves = {
            key: self.plot.plot(
                [],
                [],
                pen=pg.mkPen(FSDP_COLOURS[key], width=2),
                symbol="o",
                symbolSize=5,
                symbolBrush=FSDP_COLOURS[key],
                symbolPen=FSDP_COLOURS[key],
                name=name,
            )
            for key, name in ROWS
        }
        self.marks = focus_rings(self.plot, 14)
        self.table = QtWidgets.QTableWidget(len(ROWS), 3)
        self.table.setEditTriggers(QtWidgets.QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setSectionResizeMode(QtWidgets.QHeaderView.ResizeMode.Stretch)
        self.table.setMaximumHeight(self.table.verticalHeader().defaultSectionSize() * 5 + 4)
        self.note = QtWidgets.QLabel()
        self.note.setWordWrap(True)
        self.note.setObjectName("muted")
        layout = QtWidgets.QVBoxLayout(self)
        layout.addLayout(row)
        layout.addWidget(self.plot, 1)
        layout.addWidget(self.table)
        layout.addWidget(self.note)
        self.unit = "B"
        self.retranslate()

    def retranslate(self) -> None:
        """Every text of the page in the window's language: the lab's panel calls it on a language switch."""
        for label, text in zip(
            self.labels, (self.tr("world size"), self.tr("dtype"), self.tr("optimizer")), strict=True
        ):
            label.setText(text)
        self.plot.setTitle(self.tr("per GPU against world size (FULL_SHARD)"))
        self.plot.setLabel("bottom", self.tr("GPUs"))
        self.plot.setLabel("left", self.tr("per GPU ({unit})").format(unit=self.unit))
        relabel_legend(self.plot, [(self.curves[key], self.tr(name)) for key, name in ROWS])
        self.table.setHorizontalHeaderLabels([self.tr("one GPU (unsharded)"), self.tr("per GPU"),
                                              self.tr("sum over ranks")])  # fmt: skip
        self.table.setVerticalHeaderLabels([self.tr(name) for _, name in ROWS])
        self.fill_table()

    def world_sizes(self) -> list[int]:
        """What to measure: 1 to 8 GPUs, the chosen world size, and the powers of two up to it."""
        world = self.world_spin.value()
        return sorted({*range(1, 9), world, *(1 << k for k in range(world.bit_length()))})

    def show_fsdp(self, fsdp: lab.FsdpBreakdown) -> None:
        self.fsdp = fsdp
        sizes = np.array([s.world_size for s in fsdp.shards], float)
        values = {
            "params": [s.param_bytes for s in fsdp.shards],
            "grads": [s.grad_bytes for s in fsdp.shards],
            "optimizer": [s.optimizer_bytes for s in fsdp.shards],
            "total": [s.total_bytes for s in fsdp.shards],
        }
        divisor, self.unit = byte_unit(max(values["total"]))
        self.plot.setLabel("left", self.tr("per GPU ({unit})").format(unit=self.unit))
        for key, curve in self.curves.items():
            curve.setData(sizes, np.array(values[key], float) / divisor)
        self.divisor = divisor
        self.fill_table()

    def fill_table(self) -> None:
        fsdp = self.fsdp
        if fsdp is None:
            return
        world = self.world_spin.value()
        try:
            shard = fsdp.at(world)
        except KeyError:
            return  # a newer world size is being measured; its figures arrive with it
        unsharded = (fsdp.param_bytes, fsdp.grad_bytes, fsdp.optimizer_bytes, fsdp.total_bytes)
        per_gpu = (shard.param_bytes, shard.grad_bytes, shard.optimizer_bytes, shard.total_bytes)
        summed = (shard.ranks_param_bytes, shard.ranks_grad_bytes, shard.ranks_optimizer_bytes, shard.ranks_total_bytes)
        self.table.setHorizontalHeaderLabels([self.tr("one GPU (unsharded)"), self.tr("per GPU of {world}").format(
            world=num(world)), self.tr("sum over ranks")])  # fmt: skip
        for row in range(len(ROWS)):
            for col, value in enumerate((unsharded[row], per_gpu[row], summed[row])):
                self.table.setItem(row, col, QtWidgets.QTableWidgetItem(size(value)))
        state = ", ".join(f"{name} {size(b)}" for name, b in fsdp.optimizer_state)  # torch's state names
        self.note.setText(
            self.tr(
                "Measured after one real {optimizer} step on the {layers}-layer chain ({params} {dtype} "
                "{params:parameter|parameters}; optimizer state: {state}). {strategy}: one flat parameter per layer, "
                "padded to a multiple of {world} ({padding} {padding:element|elements} of padding) and split "
                "evenly; each rank keeps its slice of parameters, gradients and optimizer state, and all-gathers "
                "one layer ({unit}) at a time for its forward and backward, holding that layer's unsharded gradient "
                "too until reduce-scatter (prefetching can hold two layers). This is FSDP1's flat parameter; "
                "FSDP2's fully_shard splits each parameter on dim 0 instead. The optimizer state includes AdamW's "
                "step counters, which on a GPU stay CPU tensors unless the optimizer is fused or capturable."
            ).format(
                optimizer=fsdp.optimizer,
                layers=num(fsdp.n_layers),
                params=count(fsdp.n_params),
                dtype=fsdp.dtype,
                state=state,
                strategy=fsdp.strategy,
                world=num(world),
                padding=count(shard.padding_elements),
                unit=size(shard.gathered_unit_bytes),
            )
        )

    def clear_highlights(self) -> None:
        self.marks.setData([], [])
        clear_backgrounds(self.table)

    def mark(self) -> tuple[np.ndarray, str]:
        """Ring the chosen world size's figures and shade its column: the (GPUs, bytes) marked and the caption."""
        fsdp = self.fsdp
        assert fsdp is not None
        world = self.world_spin.value()
        try:
            shard = fsdp.at(world)
        except KeyError:
            return np.zeros((0, 2)), f"measuring FSDP on {world} GPUs..."
        values = (shard.param_bytes, shard.grad_bytes, shard.optimizer_bytes, shard.total_bytes)
        self.marks.setData([world] * len(values), [v / self.divisor for v in values])
        brush = focus_brush()
        for r in range(self.table.rowCount()):
            item = self.table.item(r, 1)
            if item is not None:
                item.setBackground(brush)
        caption = (
            f"FSDP {fsdp.strategy} on {world} GPUs ({fsdp.dtype}, {fsdp.optimizer}): per GPU "
            f"{format_bytes(shard.param_bytes)} params + {format_bytes(shard.grad_bytes)} grads + "
            f"{format_bytes(shard.optimizer_bytes)} optimizer state = {format_bytes(shard.total_bytes)}, vs "
            f"{format_bytes(fsdp.total_bytes)} on one GPU (1/{fsdp.total_bytes / shard.total_bytes:.2f})"
        )
        return np.array([(world, v) for v in values], float), caption
