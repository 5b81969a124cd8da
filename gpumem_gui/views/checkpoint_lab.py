"""CheckpointLabPanel: measure a real layer chain under checkpointing policies off the GUI thread and plot it."""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

from gpumem_gui.core.snapshot.units import format_bytes
from gpumem_gui.teach import checkpoint_lab as lab
from gpumem_gui.views import palette
from gpumem_gui.views.segment_map import FOCUS, FOCUS_BACKGROUND

POLICY_COLOURS = {
    "none": palette.HOLE,
    "every": palette.CURVES["reserved"],
    "sqrt": palette.LARGEST_HOLE,
    "selective": palette.CURVES["allocated"],
}
FSDP_COLOURS = {
    "params": palette.CURVES["reserved"],
    "grads": palette.CURVES["allocated"],
    "optimizer": palette.PENDING,
    "total": palette.WASTE,
}
SHORT_LABELS = {"none": "none", "every": "every layer", "sqrt": "every √N layers", "selective": "selective"}
# the bar series are not policies: neutral hues, so that no bar reads as a policy's curve
SERIES_COLOURS = (palette.SITE_HUES[3][0], palette.PENDING, palette.SITE_HUES[11][0])
FOCUS_NAMES = ("saved_bytes", "sqrt", "recompute", "selective", "bf16", "fsdp")
TAB_RECOMPUTE, TAB_BF16, TAB_FSDP = 0, 1, 2
_TABLE_COLUMNS = (
    "policy",
    "held for backward",
    "via saved-tensor hooks",
    "peak fwd+bwd",
    "checkpoints",
    "extra layer forwards",
    "recomputed matmuls / pointwise",
    "extra matmul FLOPs",
    "fwd+bwd time",
)
_FSDP_ROWS = (("params", "parameters"), ("grads", "gradients"), ("optimizer", "optimizer state"), ("total", "total"))


def _unit(max_bytes: float) -> tuple[float, str]:
    """A byte unit that keeps the axis numbers readable."""
    for divisor, name in ((1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")):
        if max_bytes >= 2 * divisor:
            return float(divisor), name
    return 1.0, "B"


def _marks(plot: pg.PlotWidget, size: int) -> pg.PlotDataItem:
    """Rings around measured points: a symbol-only item, so that it follows the plot's log mode."""
    return plot.plot([], [], pen=None, symbol="o", symbolSize=size, symbolPen=pg.mkPen(FOCUS, width=3),
                     symbolBrush=(0, 0, 0, 0))  # fmt: skip


def _policy_axis(plot: pg.PlotItem) -> None:
    ticks = [(i, SHORT_LABELS[p]) for i, p in enumerate(lab.POLICIES)]
    plot.getAxis("bottom").setTicks([ticks])
    plot.setXRange(-0.6, len(lab.POLICIES) - 0.4, padding=0)


class LabTask:
    """Runs one measurement in a plain thread; the GUI polls `done()` and reads `result` or `error` in its own."""

    def __init__(self, kind: str, work: Callable[[Callable[[float], None]], Any]) -> None:
        self.kind = kind
        self.work = work
        self.result: Any = None
        self.error: str | None = None
        self.progress = 0.0
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def done(self) -> bool:
        return not self.thread.is_alive()

    def _set_progress(self, fraction: float) -> None:
        self.progress = fraction

    def _run(self) -> None:
        try:
            self.result = self.work(self._set_progress)
        except Exception as e:  # whatever torch raises, the panel shows it instead of losing it
            self.error = f"{type(e).__name__}: {e}"


class CheckpointLabPanel(QtWidgets.QWidget):
    """The lab: saved bytes against N per policy, the recompute cost, bf16, and an FSDP sharding calculator."""

    def __init__(self, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        self.sweep: lab.LabSweep | None = None
        self.fsdp: lab.FsdpBreakdown | None = None
        self.task: LabTask | None = None
        self.pending: dict[str, Callable[[Callable[[float], None]], Any]] = {}
        self.focus: str | None = None
        # the measured (x, y) points the focus marks: bytes on byte plots, percent on the recompute plot
        self.focus_points = np.zeros((0, 2))
        self._saved_divisor = 1.0
        self._fsdp_divisor = 1.0
        self._bar_scale: dict[pg.PlotWidget, float] = {}  # bytes per plot unit of the byte-valued bar plots
        self.n_values: tuple[int, ...] = lab.DEFAULT_N_VALUES  # the chain lengths of the saved-bytes curves
        self.poll_timer = QtCore.QTimer(self, interval=30)
        self.poll_timer.timeout.connect(self._poll)

        self.n_spin = QtWidgets.QSpinBox(minimum=1, maximum=128, value=lab.DEFAULT_N)
        self.n_spin.setToolTip("layers in the chain; the sweep also measures N = 4, 9, ..., 64")
        self.width_spin = QtWidgets.QSpinBox(minimum=16, maximum=512, singleStep=16, value=lab.DEFAULT_WIDTH)
        self.width_spin.setToolTip("features of each Linear layer")
        self.tokens_spin = QtWidgets.QSpinBox(minimum=8, maximum=1024, singleStep=8, value=lab.DEFAULT_TOKENS)
        self.tokens_spin.setToolTip("rows of the input (batch x sequence): one activation is tokens x width")
        self.dtype_combo = QtWidgets.QComboBox()
        self.dtype_combo.addItems(list(lab.DTYPES))
        self.dtype_combo.setToolTip("dtype of the model and its activations for the sweep (bf16: a bf16 model)")
        self.log_axes = QtWidgets.QCheckBox("log axes")
        self.log_axes.setToolTip("log-log: N grows as a line of slope 1, sqrt(N) as a line of slope 1/2")
        self.log_axes.toggled.connect(self._set_log_axes)
        self.run_button = QtWidgets.QPushButton("Run")
        self.run_button.clicked.connect(self.run)
        self.progress = QtWidgets.QProgressBar(maximum=100, textVisible=False)
        self.progress.setMaximumWidth(120)
        self.progress.hide()
        self.status = QtWidgets.QLabel()
        self.status.setObjectName("muted")
        # a long status must not widen the window: it elides to the space there is, whole in its tooltip
        self.status.setSizePolicy(QtWidgets.QSizePolicy.Policy.Ignored, QtWidgets.QSizePolicy.Policy.Preferred)
        controls = QtWidgets.QHBoxLayout()
        for text, widget in (
            ("layers N", self.n_spin),
            ("width", self.width_spin),
            ("tokens", self.tokens_spin),
            ("dtype", self.dtype_combo),
        ):
            controls.addWidget(QtWidgets.QLabel(text))
            controls.addWidget(widget)
        controls.addWidget(self.log_axes)
        controls.addWidget(self.run_button)
        controls.addWidget(self.progress)
        controls.addWidget(self.status, 1)

        self.caption = QtWidgets.QLabel()
        self.caption.setObjectName("lab_caption")
        self.caption.setTextFormat(QtCore.Qt.TextFormat.PlainText)
        self.caption.setStyleSheet(f"QLabel#lab_caption {{ color: {FOCUS}; font-weight: bold; }}")
        self.caption.hide()

        self.saved_plot = self._saved_plot()
        self.tabs = QtWidgets.QTabWidget()
        self.recompute_plot = self._bar_plot("recomputed in backward")
        self.bf16_plot = self._bar_plot("held for backward, fp32 and bf16")
        self.tabs.insertTab(TAB_RECOMPUTE, self.recompute_plot, "recompute")
        self.tabs.insertTab(TAB_BF16, self.bf16_plot, "bf16")
        self.tabs.insertTab(TAB_FSDP, self._fsdp_page(), "FSDP")
        split = QtWidgets.QSplitter()
        split.addWidget(self.saved_plot)
        split.addWidget(self.tabs)
        split.setSizes([600, 500])
        self.table = QtWidgets.QTableWidget(len(lab.POLICIES), len(_TABLE_COLUMNS))
        self.table.setHorizontalHeaderLabels(list(_TABLE_COLUMNS))
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QtWidgets.QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setSectionResizeMode(QtWidgets.QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        rows_height = self.table.verticalHeader().defaultSectionSize() * len(lab.POLICIES)
        self.table.setFixedHeight(rows_height + self.table.horizontalHeader().sizeHint().height() + 4)
        self.note = QtWidgets.QLabel(
            "Measured on this CPU with PyTorch, not computed: bytes are the storages created in the forward and still "
            "alive when it returns (parameters excluded), checked against the tensors packed through "
            "saved_tensors_hooks (selective checkpointing keeps its matmul outputs in its own cache, which those "
            "hooks do not see). Recompute counts the ops run in backward under grad mode, as checkpoint does. "
            "Layers this small take microseconds, so the times show checkpointing's Python overhead more than FLOPs."
        )
        self.note.setWordWrap(True)
        self.note.setObjectName("muted")
        lab_page = QtWidgets.QWidget()
        lab_layout = QtWidgets.QVBoxLayout(lab_page)
        lab_layout.setContentsMargins(0, 0, 0, 0)
        lab_layout.addWidget(split, 1)
        lab_layout.addWidget(self.table)
        lab_layout.addWidget(self.note)

        self.missing = QtWidgets.QLabel()
        self.missing.setAlignment(QtCore.Qt.AlignmentFlag.AlignCenter)
        self.missing.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
        self.missing.setWordWrap(True)
        self.stack = QtWidgets.QStackedWidget()
        self.stack.addWidget(lab_page)
        self.stack.addWidget(self.missing)

        layout = QtWidgets.QVBoxLayout(self)
        layout.addLayout(controls)
        layout.addWidget(self.caption)
        layout.addWidget(self.stack, 1)
        self.check_torch()

    def _set_status(self, text: str) -> None:
        self.status.setText(text)
        self.status.setToolTip(text)

    # building

    def _saved_plot(self) -> pg.PlotWidget:
        plot = pg.PlotWidget(background="w")
        plot.setTitle("held for backward against N")
        plot.setLabel("bottom", "layers N")
        plot.showGrid(x=True, y=True, alpha=0.2)
        plot.getAxis("left").enableAutoSIPrefix(False)  # the unit is in the label already: no "(x0.001)"
        plot.addLegend(offset=(10, 10), brush=(255, 255, 255, 210))
        self.curves: dict[str, pg.PlotDataItem] = {}
        for policy in lab.POLICIES:
            colour = POLICY_COLOURS[policy]
            self.curves[policy] = plot.plot(
                [], [], pen=pg.mkPen(colour, width=2), symbol="o", symbolSize=6, symbolBrush=colour,
                symbolPen=colour, name=lab.POLICY_LABELS[policy],
            )  # fmt: skip
        self.sqrt_reference = plot.plot(
            [], [], pen=pg.mkPen(POLICY_COLOURS["sqrt"], width=1, style=QtCore.Qt.PenStyle.DashLine),
            name="c·√N fitted to the sqrt points",
        )  # fmt: skip
        self.n_line = pg.InfiniteLine(angle=90, pen=pg.mkPen("#888", style=QtCore.Qt.PenStyle.DotLine))
        plot.addItem(self.n_line)
        self.saved_marks = _marks(plot, 16)
        self.saved_label = pg.TextItem(color=FOCUS, anchor=(0, 1))
        plot.addItem(self.saved_label)
        return plot

    def _bar_plot(self, title: str) -> pg.PlotWidget:
        plot = pg.PlotWidget(background="w")
        plot.setTitle(title)
        plot.setMouseEnabled(x=False, y=False)
        plot.getAxis("left").enableAutoSIPrefix(False)
        plot.addLegend(offset=(10, 10), brush=(255, 255, 255, 210))
        _policy_axis(plot.getPlotItem())
        return plot

    def _fsdp_page(self) -> QtWidgets.QWidget:
        page = QtWidgets.QWidget()
        self.world_spin = QtWidgets.QSpinBox(minimum=1, maximum=1024, value=8)
        self.fsdp_dtype = QtWidgets.QComboBox()
        self.fsdp_dtype.addItems(list(lab.DTYPES))
        self.fsdp_optimizer = QtWidgets.QComboBox()
        self.fsdp_optimizer.addItems(list(lab.OPTIMIZERS))
        for signal in (
            self.world_spin.valueChanged,
            self.fsdp_dtype.currentIndexChanged,
            self.fsdp_optimizer.currentIndexChanged,
        ):
            signal.connect(lambda *_: self._queue_fsdp())
        row = QtWidgets.QHBoxLayout()
        for text, widget in (
            ("world size", self.world_spin),
            ("dtype", self.fsdp_dtype),
            ("optimizer", self.fsdp_optimizer),
        ):
            row.addWidget(QtWidgets.QLabel(text))
            row.addWidget(widget)
        row.addStretch(1)
        self.fsdp_plot = pg.PlotWidget(background="w")
        self.fsdp_plot.setTitle("per GPU against world size (FULL_SHARD)")
        self.fsdp_plot.setLabel("bottom", "GPUs")
        self.fsdp_plot.setLogMode(x=True, y=False)
        self.fsdp_plot.showGrid(x=True, y=True, alpha=0.2)
        self.fsdp_plot.getAxis("left").enableAutoSIPrefix(False)
        self.fsdp_plot.addLegend(offset=(-10, 10), brush=(255, 255, 255, 210))
        self.fsdp_curves = {
            key: self.fsdp_plot.plot(
                [],
                [],
                pen=pg.mkPen(FSDP_COLOURS[key], width=2),
                symbol="o",
                symbolSize=5,
                symbolBrush=FSDP_COLOURS[key],
                symbolPen=FSDP_COLOURS[key],
                name=name,
            )
            for key, name in _FSDP_ROWS
        }
        self.fsdp_marks = _marks(self.fsdp_plot, 14)
        self.fsdp_table = QtWidgets.QTableWidget(len(_FSDP_ROWS), 3)
        self.fsdp_table.setHorizontalHeaderLabels(["one GPU (unsharded)", "per GPU", "sum over ranks"])
        self.fsdp_table.setVerticalHeaderLabels([name for _, name in _FSDP_ROWS])
        self.fsdp_table.setEditTriggers(QtWidgets.QAbstractItemView.EditTrigger.NoEditTriggers)
        self.fsdp_table.horizontalHeader().setSectionResizeMode(QtWidgets.QHeaderView.ResizeMode.Stretch)
        self.fsdp_table.setMaximumHeight(self.fsdp_table.verticalHeader().defaultSectionSize() * 5 + 4)
        self.fsdp_note = QtWidgets.QLabel()
        self.fsdp_note.setWordWrap(True)
        self.fsdp_note.setObjectName("muted")
        layout = QtWidgets.QVBoxLayout(page)
        layout.addLayout(row)
        layout.addWidget(self.fsdp_plot, 1)
        layout.addWidget(self.fsdp_table)
        layout.addWidget(self.fsdp_note)
        return page

    # running

    def check_torch(self) -> bool:
        """Show the lab, or the line that says how to install torch; True when the lab can run."""
        message = lab.torch_available()
        self.missing.setText(message or "")
        self.stack.setCurrentIndex(0 if message is None else 1)
        for w in (self.run_button, self.n_spin, self.width_spin, self.tokens_spin, self.dtype_combo):
            w.setEnabled(message is None)
        if message is not None:
            self._set_status(message)
        return message is None

    def run(self) -> None:
        """Measure the sweep at the chosen settings, then the FSDP calculator, both in a worker thread."""
        if not self.check_torch():
            return
        n, width, tokens = self.n_spin.value(), self.width_spin.value(), self.tokens_spin.value()
        dtype, n_values = self.dtype_combo.currentText(), self.n_values
        self.pending["lab"] = lambda progress: lab.run_sweep(
            n, width=width, tokens=tokens, dtype=dtype, n_values=n_values, progress=progress
        )
        self._queue_fsdp()

    def _queue_fsdp(self) -> None:
        if lab.torch_available() is not None:
            return
        n, width, world = self.n_spin.value(), self.width_spin.value(), self.world_spin.value()
        dtype, optimizer = self.fsdp_dtype.currentText(), self.fsdp_optimizer.currentText()
        sizes = {*range(1, 9), world, *(1 << k for k in range(world.bit_length()))}
        self.pending["fsdp"] = lambda _: lab.measure_fsdp(
            n, width=width, dtype=dtype, optimizer=optimizer, world_sizes=sorted(sizes)
        )
        self._start_next()

    def busy(self) -> bool:
        return self.task is not None or bool(self.pending)

    def _start_next(self) -> None:
        # one measurement at a time, so that two never share the CPU and spoil each other's timings; requests
        # made meanwhile collapse into the latest one of each kind
        if self.task is not None or not self.pending:
            return
        kind = "lab" if "lab" in self.pending else next(iter(self.pending))
        self.task = LabTask(kind, self.pending.pop(kind))
        if kind == "lab":
            self.progress.setValue(0)
            self.progress.show()
            self._set_status("measuring (the first run also imports torch)...")
        self.poll_timer.start()

    def _poll(self) -> None:
        task = self.task
        if task is None:
            self.poll_timer.stop()
            return
        if task.kind == "lab":
            self.progress.setValue(round(task.progress * 100))
        if not task.done():
            return
        self.task = None
        if task.error is not None:
            self._set_status(f"measurement failed: {task.error}")
        elif task.kind == "lab":
            self.show_sweep(task.result)
        else:
            self.show_fsdp(task.result)
        if task.kind == "lab":
            self.progress.hide()
        self._start_next()
        if self.task is None:
            self.poll_timer.stop()

    # drawing

    def show_sweep(self, sweep: lab.LabSweep) -> None:
        self.sweep = sweep
        self._set_status(
            f"{len(sweep.points) + len(sweep.at_n)} forward + backward passes measured in {sweep.seconds:.1f} s "
            f"(+{sweep.warmup_seconds:.1f} s warm-up) with torch {sweep.torch_version}: {sweep.width} wide, "
            f"{sweep.tokens} tokens, {sweep.dtype}; one activation = {format_bytes(sweep.at('none').activation_bytes)}"
        )
        top = max(m.saved_bytes for m in sweep.points)
        divisor, unit = _unit(top)
        self.saved_plot.setLabel("left", f"held for backward ({unit})")
        for policy, curve in self.curves.items():
            ns, saved = sweep.curve(policy)
            curve.setData(ns, saved / divisor)
        dense = np.linspace(min(sweep.n_values), max(sweep.n_values), 200)
        self.sqrt_reference.setData(dense, sweep.sqrt_reference(dense) / divisor)
        self._saved_divisor = divisor
        self.n_line.setValue(self._saved_pos(sweep.n_layers, 1)[0])
        self._draw_recompute(sweep)
        self._draw_bf16(sweep)
        self._fill_table(sweep)
        self._apply_focus()

    def _bars(
        self, plot: pg.PlotWidget, series: list[tuple[str, str, list[float]]], fmt: Callable[[float], str]
    ) -> None:
        """Grouped bars, one group per policy, the value written above each bar."""
        item = plot.getPlotItem()
        for old in [i for i in item.items if isinstance(i, pg.BarGraphItem | pg.TextItem)]:
            item.removeItem(old)
        if item.legend is not None:
            item.legend.clear()
        width = 0.8 / len(series)
        for j, (name, colour, values) in enumerate(series):
            x = np.arange(len(values)) + (j - (len(series) - 1) / 2) * width
            bars = pg.BarGraphItem(x=x, height=values, width=width * 0.9, brush=colour, pen=pg.mkPen(colour), name=name)
            bars.setObjectName(name)
            plot.addItem(bars)
            for xi, v in zip(x, values, strict=True):
                text = pg.TextItem(fmt(v), color="#333", anchor=(0.5, 1))
                text.setPos(float(xi), float(v))
                plot.addItem(text)
        top = max((v for _, _, values in series for v in values), default=1.0)
        plot.setYRange(0, max(top, 1e-9) * 1.25, padding=0)

    def bar_items(self, plot: pg.PlotWidget) -> list[pg.BarGraphItem]:
        return [i for i in plot.getPlotItem().items if isinstance(i, pg.BarGraphItem)]

    def _draw_recompute(self, sweep: lab.LabSweep) -> None:
        rows = [sweep.at(p) for p in lab.POLICIES]
        series = [
            ("matmul FLOPs", SERIES_COLOURS[0], [100 * m.extra_flops_fraction for m in rows]),
            (
                "pointwise ops",
                SERIES_COLOURS[1],
                [100 * m.recomputed_pointwise / max(1, m.forward_pointwise) for m in rows],
            ),
        ]
        base = rows[0].seconds
        if base and all(m.seconds is not None for m in rows):
            series.append(
                ("extra fwd+bwd time", SERIES_COLOURS[2], [100 * ((m.seconds or 0) / base - 1) for m in rows])
            )
        self._bars(self.recompute_plot, series, lambda v: f"{v:.0f}%")
        self.recompute_plot.setTitle(f"recomputed in backward at N={sweep.n_layers}")
        self.recompute_plot.setLabel("left", "% of one forward (time: % over none)")

    def _draw_bf16(self, sweep: lab.LabSweep) -> None:
        fp32 = [sweep.at(p, "fp32").saved_bytes for p in lab.POLICIES]
        bf16 = [sweep.at(p, "bf16").saved_bytes for p in lab.POLICIES]
        divisor, unit = _unit(max(fp32))
        self._bar_scale[self.bf16_plot] = divisor
        self._bars(
            self.bf16_plot,
            [
                ("fp32", SERIES_COLOURS[0], [b / divisor for b in fp32]),
                ("bf16", palette.CURVES["requested"], [b / divisor for b in bf16]),
            ],
            lambda v: f"{v:.0f}" if v >= 10 else f"{v:.1f}",
        )
        self.bf16_plot.setLabel("left", f"held for backward ({unit})")
        self.bf16_plot.setTitle(f"held for backward at N={sweep.n_layers}, fp32 and bf16")

    def _fill_table(self, sweep: lab.LabSweep) -> None:
        for row, policy in enumerate(lab.POLICIES):
            m = sweep.at(policy)
            peak = "" if m.peak_bytes is None else format_bytes(m.peak_bytes)
            seconds = "" if m.seconds is None else f"{m.seconds * 1e3:.1f} ms"
            cells = (
                lab.POLICY_LABELS[policy],
                f"{format_bytes(m.saved_bytes)} ({m.saved_bytes / m.activation_bytes:.0f} act.)",
                format_bytes(m.hooked_bytes),
                peak,
                str(m.checkpoints),
                str(m.extra_forwards),
                f"{m.recomputed_matmuls} / {m.recomputed_pointwise}",
                f"{m.extra_flops / 1e6:.1f} M ({m.extra_flops_fraction:.0%})",
                seconds,
            )
            for col, text in enumerate(cells):
                item = QtWidgets.QTableWidgetItem(text)
                item.setToolTip(self._cell_tip(col))
                self.table.setItem(row, col, item)

    @staticmethod
    def _cell_tip(col: int) -> str:
        return {
            1: "storages created in the forward and still alive when it returns; parameters excluded",
            2: "distinct storages packed through the outer saved_tensors_hooks during the forward",
            3: "live activation bytes at their highest over forward and backward (parameter gradients excluded)",
            5: "layer forwards started again during backward",
            6: "ops run during backward under grad mode: checkpoint recomputation",
            7: "matmul FLOPs recomputed, and their share of the forward's",
            8: "best of three plain (uninstrumented) forward + backward passes, after one to warm up",
        }.get(col, "")

    def show_fsdp(self, fsdp: lab.FsdpBreakdown) -> None:
        self.fsdp = fsdp
        sizes = np.array([s.world_size for s in fsdp.shards], float)
        values = {
            "params": [s.param_bytes for s in fsdp.shards],
            "grads": [s.grad_bytes for s in fsdp.shards],
            "optimizer": [s.optimizer_bytes for s in fsdp.shards],
            "total": [s.total_bytes for s in fsdp.shards],
        }
        divisor, unit = _unit(max(values["total"]))
        self.fsdp_plot.setLabel("left", f"per GPU ({unit})")
        for key, curve in self.fsdp_curves.items():
            curve.setData(sizes, np.array(values[key], float) / divisor)
        self._fsdp_divisor = divisor
        self._fill_fsdp_table()
        self._apply_focus()

    def _fill_fsdp_table(self) -> None:
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
        self.fsdp_table.setHorizontalHeaderLabels(["one GPU (unsharded)", f"per GPU of {world}", "sum over ranks"])
        for row in range(len(_FSDP_ROWS)):
            for col, value in enumerate((unsharded[row], per_gpu[row], summed[row])):
                self.fsdp_table.setItem(row, col, QtWidgets.QTableWidgetItem(format_bytes(value)))
        state = ", ".join(f"{name} {format_bytes(b)}" for name, b in fsdp.optimizer_state)
        self.fsdp_note.setText(
            f"Measured after one real {fsdp.optimizer} step on the {fsdp.n_layers}-layer chain ({fsdp.n_params:,} "
            f"{fsdp.dtype} parameters; optimizer state: {state}). {fsdp.strategy}: one flat parameter per layer, "
            f"padded to a multiple of {world} ({shard.padding_elements} elements of padding) and split evenly; "
            f"each rank keeps its slice of parameters, gradients and optimizer state, and all-gathers one layer "
            f"({format_bytes(shard.gathered_unit_bytes)}) at a time for its forward and backward."
        )

    # focus

    def set_focus(self, name: str) -> None:
        """Bring one part of the lab to the front, mark its measured figures and say them in one line."""
        if name not in FOCUS_NAMES:
            raise ValueError(f"unknown focus {name!r}; one of {', '.join(FOCUS_NAMES)}")
        self.focus = name
        if name in ("recompute", "selective"):
            self.tabs.setCurrentIndex(TAB_RECOMPUTE)
        elif name == "bf16":
            self.tabs.setCurrentIndex(TAB_BF16)
        elif name == "fsdp":
            self.tabs.setCurrentIndex(TAB_FSDP)
        if self.sweep is None and not self.busy() and self.check_torch():
            self.run()
        self._apply_focus()

    def _apply_focus(self) -> None:
        name = self.focus
        self._clear_highlights()
        if name is None:
            return
        self.caption.show()
        sweep = self.sweep
        if lab.torch_available() is not None:
            self.caption.setText(lab.TORCH_MISSING)
            return
        if sweep is None or (name == "fsdp" and self.fsdp is None):
            self.caption.setText("measuring the chain: the figures appear when the run ends")
            return
        n = sweep.n_layers
        at = {p: sweep.at(p) for p in lab.POLICIES}
        if name == "saved_bytes":
            self._mark_saved(list(lab.POLICIES))
            self._highlight_rows(list(lab.POLICIES), 1)
            self.caption.setText(
                f"Held for backward at N={n}: "
                + ", ".join(f"{lab.POLICY_LABELS[p]} {format_bytes(at[p].saved_bytes)}" for p in lab.POLICIES)
                + f" (one activation is {format_bytes(at['none'].activation_bytes)})"
            )
        elif name == "sqrt":
            self._thicken("sqrt")
            self.sqrt_reference.setPen(pg.mkPen(POLICY_COLOURS["sqrt"], width=3, style=QtCore.Qt.PenStyle.DashLine))
            self._mark_saved(["sqrt"])
            self._zoom_saved("sqrt")
            self._highlight_rows(["sqrt"], 1)
            m = at["sqrt"]
            self.caption.setText(
                f"sqrt(N): {m.checkpoints} checkpoints of {lab.sqrt_segment(n)} layers keep "
                f"{format_bytes(m.saved_bytes)} at N={n}, {at['none'].saved_bytes / m.saved_bytes:.1f}x less than "
                f"none; measured growth N^{sweep.exponent('sqrt'):.2f} (none: N^{sweep.exponent('none'):.2f})"
            )
        elif name == "recompute":
            worst = max(lab.POLICIES, key=lambda p: at[p].extra_flops)
            self._mark_bars(self.recompute_plot, [worst])
            self._highlight_rows(["every", "sqrt"], 7)
            e, s, none = at["every"], at["sqrt"], at["none"]
            time_part = ""
            if e.seconds and none.seconds:
                time_part = f"; fwd+bwd {none.seconds * 1e3:.1f} ms -> {e.seconds * 1e3:.1f} ms"
            self.caption.setText(
                f"Recompute at N={n}: every layer re-runs {e.extra_forwards} layer forwards, {e.recomputed_matmuls} "
                f"matmuls = {e.extra_flops_fraction:.0%} of the forward's FLOPs (early stop skips each layer's last "
                f"matmul); sqrt(N) {s.extra_flops_fraction:.0%}" + time_part
            )
        elif name == "selective":
            self._thicken("selective")
            self._mark_saved(["selective"])
            self._mark_bars(self.recompute_plot, ["selective"])
            self._highlight_rows(["selective"], 6)
            m, e, none = at["selective"], at["every"], at["none"]
            self.caption.setText(
                f"Selective keeps matmul outputs: {format_bytes(m.saved_bytes)} held at N={n} (none "
                f"{format_bytes(none.saved_bytes)}, every layer {format_bytes(e.saved_bytes)}); it recomputes "
                f"{m.recomputed_pointwise} pointwise ops and {m.recomputed_matmuls} matmuls (every layer: "
                f"{e.recomputed_matmuls} matmuls)"
            )
        elif name == "bf16":
            self._mark_bars(self.bf16_plot, list(lab.POLICIES), series="bf16")
            fp32, bf16 = sweep.at("none", "fp32"), sweep.at("none", "bf16")
            peak = ""
            if fp32.peak_bytes and bf16.peak_bytes:
                peak = f", peak {format_bytes(fp32.peak_bytes)} -> {format_bytes(bf16.peak_bytes)}"
            self.caption.setText(
                f"bf16 activations at N={n}: {format_bytes(bf16.saved_bytes)} held without checkpointing vs "
                f"{format_bytes(fp32.saved_bytes)} in fp32 (x{bf16.saved_bytes / fp32.saved_bytes:.2f}){peak}"
            )
        elif name == "fsdp":
            self._mark_fsdp()

    def _clear_highlights(self) -> None:
        self.focus_points = np.zeros((0, 2))
        self._zoom_saved(None)
        for policy, curve in self.curves.items():
            curve.setPen(pg.mkPen(POLICY_COLOURS[policy], width=2))
        self.sqrt_reference.setPen(pg.mkPen(POLICY_COLOURS["sqrt"], width=1, style=QtCore.Qt.PenStyle.DashLine))
        self.saved_marks.setData([], [])
        self.saved_label.setText("")
        self.fsdp_marks.setData([], [])
        for plot in (self.recompute_plot, self.bf16_plot):
            for bars in self.bar_items(plot):
                bars.setOpts(pens=None, pen=pg.mkPen(bars.opts["brush"]))
        for table in (self.table, self.fsdp_table):
            for r in range(table.rowCount()):
                for c in range(table.columnCount()):
                    item = table.item(r, c)
                    if item is not None:
                        item.setBackground(QtGui.QBrush())

    def _saved_pos(self, x: float, y: float) -> tuple[float, float]:
        """Where a point goes for items that do not follow the plot's log mode (lines, text)."""
        if self.log_axes.isChecked():
            return math.log10(max(x, 1e-12)), math.log10(max(y, 1e-12))
        return float(x), float(y)

    def _set_log_axes(self, on: bool) -> None:
        self.saved_plot.setLogMode(x=on, y=on)
        if self.sweep is not None:
            self.n_line.setValue(self._saved_pos(self.sweep.n_layers, 1)[0])
        self._apply_focus()

    def _zoom_saved(self, policy: str | None) -> None:
        """Fit the y axis to one policy's curve (the others run off the top), or to all of them."""
        plot = self.saved_plot.getPlotItem()
        if policy is None or self.sweep is None or self.log_axes.isChecked():
            plot.enableAutoRange()
            return
        _, saved = self.sweep.curve(policy)
        plot.setYRange(0, 2.5 * float(saved.max()) / self._saved_divisor, padding=0)

    def _thicken(self, policy: str) -> None:
        self.curves[policy].setPen(pg.mkPen(POLICY_COLOURS[policy], width=5))

    def _mark_saved(self, policies: list[str]) -> None:
        """Ring the measured points at the chosen N and write the value beside the first."""
        sweep = self.sweep
        assert sweep is not None
        points = np.array([(sweep.n_layers, sweep.at(p).saved_bytes) for p in policies], float)
        self.focus_points = points
        self.saved_marks.setData(points[:, 0], points[:, 1] / self._saved_divisor)
        top = int(points[:, 1].argmax())
        self.saved_label.setText(f"  {format_bytes(points[top, 1])}")
        self.saved_label.setPos(*self._saved_pos(points[top, 0], points[top, 1] / self._saved_divisor))

    def _mark_bars(self, plot: pg.PlotWidget, policies: list[str], series: str | None = None) -> None:
        """A thick outline on the bars of these policies (in one series, or all of them)."""
        indices = [lab.POLICIES.index(p) for p in policies]
        points = []
        for bars in self.bar_items(plot):
            if series is not None and bars.objectName() != series:
                continue
            heights = bars.opts["height"]
            pens = [
                pg.mkPen(FOCUS, width=3) if i in indices else pg.mkPen(bars.opts["brush"]) for i in range(len(heights))
            ]
            bars.setOpts(pens=pens)
            scale = self._bar_scale.get(plot, 1.0)
            points += [(float(bars.opts["x"][i]), float(heights[i]) * scale) for i in indices]
        self.focus_points = np.array(points, float).reshape(-1, 2)

    def _highlight_rows(self, policies: list[str], column: int) -> None:
        brush = QtGui.QBrush(QtGui.QColor(FOCUS_BACKGROUND))
        for p in policies:
            for c in (0, column):
                item = self.table.item(lab.POLICIES.index(p), c)
                if item is not None:
                    item.setBackground(brush)

    def _mark_fsdp(self) -> None:
        fsdp = self.fsdp
        assert fsdp is not None
        world = self.world_spin.value()
        try:
            shard = fsdp.at(world)
        except KeyError:
            self.caption.setText(f"measuring FSDP on {world} GPUs...")
            return
        divisor = self._fsdp_divisor
        values = (shard.param_bytes, shard.grad_bytes, shard.optimizer_bytes, shard.total_bytes)
        self.focus_points = np.array([(world, v) for v in values], float)
        self.fsdp_marks.setData([world] * len(values), [v / divisor for v in values])
        brush = QtGui.QBrush(QtGui.QColor(FOCUS_BACKGROUND))
        for r in range(self.fsdp_table.rowCount()):
            item = self.fsdp_table.item(r, 1)
            if item is not None:
                item.setBackground(brush)
        self.caption.setText(
            f"FSDP {fsdp.strategy} on {world} GPUs ({fsdp.dtype}, {fsdp.optimizer}): per GPU "
            f"{format_bytes(shard.param_bytes)} params + {format_bytes(shard.grad_bytes)} grads + "
            f"{format_bytes(shard.optimizer_bytes)} optimizer state = {format_bytes(shard.total_bytes)}, vs "
            f"{format_bytes(fsdp.total_bytes)} on one GPU (1/{fsdp.total_bytes / shard.total_bytes:.2f})"
        )
