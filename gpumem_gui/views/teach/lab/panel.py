"""CheckpointLabPanel: measure a real layer chain under checkpointing policies off the GUI thread and plot it."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np
from PySide6 import QtCore, QtGui, QtWidgets

from gpumem_gui.teach import lab
from gpumem_gui.teach.lab import api
from gpumem_gui.teach.quiz import LANGUAGES
from gpumem_gui.views.common import palette
from gpumem_gui.views.common.language import count, current_language, num, size
from gpumem_gui.views.common.tasks import Task, TaskContext, TaskGroup
from gpumem_gui.views.teach.lab import captions
from gpumem_gui.views.teach.lab.api import ApiPage
from gpumem_gui.views.teach.lab.bars import Bf16Plot, RecomputePlot
from gpumem_gui.views.teach.lab.captions import note_text, stage_text, timing_text
from gpumem_gui.views.teach.lab.fsdp import FsdpPage
from gpumem_gui.views.teach.lab.saved import SavedBytesPlot
from gpumem_gui.views.teach.lab.table import PolicyTable

TAB_RECOMPUTE, TAB_BF16, TAB_FSDP, TAB_API = 0, 1, 2, 3
# the tab a focus brings to the front; the other focuses are on the saved-bytes plot, always in view
FOCUS_TABS = {
    "recompute": TAB_RECOMPUTE,
    "selective": TAB_RECOMPUTE,
    "bf16": TAB_BF16,
    "fsdp": TAB_FSDP,
    "api": TAB_API,
}


class CheckpointLabPanel(QtWidgets.QWidget):
    """The lab: saved bytes against N per policy, the recompute cost, bf16, and an FSDP sharding calculator.

    Measurements run as tasks of the panel's own TaskGroup, one at a time; `shutdown()` cancels them.
    """

    def __init__(self, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        self.sweep: lab.LabSweep | None = None
        self.focus: str | None = None
        self.language = "en"  # the learner's: the caption is kept in every quiz language and shown in this one
        self.captions: dict[str, str] = {}
        # the measured (x, y) points the focus marks: bytes on byte plots, percent on the recompute plot
        self.focus_points = np.zeros((0, 2))
        self.n_values: tuple[int, ...] = lab.DEFAULT_N_VALUES  # the chain lengths of the saved-bytes curves
        # not a Qt child of the panel: a task that ends after the panel is deleted still reports to a live group, and
        # deleting the panel (closing its tab) cancels what it started
        self.tasks = TaskGroup()
        self.destroyed.connect(self.tasks.cancel_all)
        self.running: Task | None = None
        self.pending: dict[str, Callable[[TaskContext], Any]] = {}
        self.running_kind: str | None = None  # what `running` measures, and its function (to queue it again)
        self.running_fn: Callable[[TaskContext], Any] | None = None
        self.yielding = False  # the running sweep was cancelled to go back in the queue: the next starts at its end
        self.api_queued = False  # the API table is measured once, from a focus or from its tab
        self.run_started: float | None = None  # perf_counter when the latest sweep was asked for
        self.first_figures_seconds: float | None = None  # from then to its first figures on screen
        self.auto_run = True  # measure when first shown
        self.status_text: Callable[[], str] = str  # the status line, worded again in a new language
        self.stage: tuple[str, tuple[int, ...]] | None = None  # what the running sweep measures now
        # a cold start waits seconds on torch's import: the status counts them, so the wait is never silent
        self.clock = QtCore.QTimer(self, interval=1000)
        self.clock.timeout.connect(self._show_status)
        self.timing = True  # time one step per policy at the end of the sweep (at a size where matmuls dominate)

        self.n_spin = QtWidgets.QSpinBox(minimum=1, maximum=128, value=lab.DEFAULT_N)
        self.width_spin = QtWidgets.QSpinBox(minimum=16, maximum=512, singleStep=16, value=lab.DEFAULT_WIDTH)
        self.tokens_spin = QtWidgets.QSpinBox(minimum=8, maximum=1024, singleStep=8, value=lab.DEFAULT_TOKENS)
        self.dtype_combo = QtWidgets.QComboBox()
        for key in lab.PRECISIONS:
            self.dtype_combo.addItem(key, key)  # fp32, bf16, autocast: code names, shown as they are
        self.log_axes = QtWidgets.QCheckBox()
        self.log_axes.toggled.connect(self._set_log_axes)
        self.run_button = QtWidgets.QPushButton()
        self.run_button.clicked.connect(self.run)
        self.progress = QtWidgets.QProgressBar(maximum=100, textVisible=False)
        self.progress.setMaximumWidth(120)
        self.progress.hide()
        self.status = QtWidgets.QLabel()
        self.status.setObjectName("muted")
        # a long status must not widen the window: it elides to the space there is, whole in its tooltip
        self.status.setSizePolicy(QtWidgets.QSizePolicy.Policy.Ignored, QtWidgets.QSizePolicy.Policy.Preferred)
        controls = QtWidgets.QHBoxLayout()
        self.control_labels: list[QtWidgets.QLabel] = []
        for widget in (self.n_spin, self.width_spin, self.tokens_spin, self.dtype_combo):
            self.control_labels.append(QtWidgets.QLabel())
            controls.addWidget(self.control_labels[-1])
            controls.addWidget(widget)
        controls.addWidget(self.log_axes)
        controls.addWidget(self.run_button)
        controls.addWidget(self.progress)
        controls.addWidget(self.status, 1)

        self.caption = QtWidgets.QLabel()
        self.caption.setObjectName("lab_caption")
        self.caption.setTextFormat(QtCore.Qt.TextFormat.PlainText)
        # a caption wraps in a band of three lines rather than widening or heightening the window to its length;
        # what a narrow window clips is whole in the tooltip
        self.caption.setWordWrap(True)
        self.caption.setAlignment(QtCore.Qt.AlignmentFlag.AlignTop | QtCore.Qt.AlignmentFlag.AlignLeft)
        self.caption.setSizePolicy(QtWidgets.QSizePolicy.Policy.Ignored, QtWidgets.QSizePolicy.Policy.Fixed)
        self.caption.setStyleSheet(f"QLabel#lab_caption {{ color: {palette.FOCUS}; font-weight: bold; }}")
        bold = QtGui.QFont(self.caption.font())
        bold.setBold(True)
        self.caption.setFixedHeight(3 * QtGui.QFontMetrics(bold).lineSpacing() + 4)
        self.caption.hide()

        self.saved_plot = SavedBytesPlot()
        self.recompute_plot = RecomputePlot()
        self.bf16_plot = Bf16Plot()
        self.fsdp_page = FsdpPage()
        self.fsdp_page.changed.connect(self._queue_fsdp)
        self.api_page = ApiPage()
        self.api_page.selection_changed.connect(self._queue_selection)
        self.tabs = QtWidgets.QTabWidget()
        self.timing_note = QtWidgets.QLabel()
        self.timing_note.setObjectName("muted")
        self.timing_note.setWordWrap(True)
        self.timing_note.setSizePolicy(QtWidgets.QSizePolicy.Policy.Ignored, QtWidgets.QSizePolicy.Policy.Minimum)
        recompute_page = QtWidgets.QWidget()
        recompute_layout = QtWidgets.QVBoxLayout(recompute_page)
        recompute_layout.setContentsMargins(0, 0, 0, 0)
        recompute_layout.addWidget(self.recompute_plot.plot, 1)
        recompute_layout.addWidget(self.timing_note)
        self.tabs.insertTab(TAB_RECOMPUTE, recompute_page, "")
        self.tabs.insertTab(TAB_BF16, self.bf16_plot.plot, "")
        self.tabs.insertTab(TAB_FSDP, self.fsdp_page, "FSDP")
        self.tabs.insertTab(TAB_API, self.api_page, "")
        split = QtWidgets.QSplitter()
        split.addWidget(self.saved_plot.plot)
        split.addWidget(self.tabs)
        self.tabs.currentChanged.connect(self._tab_opened)
        split.setSizes([600, 500])
        self.table = PolicyTable()
        self.note = QtWidgets.QLabel()
        self.note.setWordWrap(True)
        self.note.setObjectName("muted")
        self.note.setSizePolicy(QtWidgets.QSizePolicy.Policy.Ignored, QtWidgets.QSizePolicy.Policy.Minimum)
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
        self.retranslate()
        self.check_torch()

    def retranslate(self) -> None:
        """Every text of the lab in the language of the installed translators; measured figures are worded again."""
        self.n_spin.setToolTip(self.tr("layers in the chain; the sweep also measures N = 4, 9, ..., 64"))
        self.width_spin.setToolTip(self.tr("features of each Linear layer"))
        self.tokens_spin.setToolTip(self.tr("rows of the input (batch x sequence): one activation is tokens x width"))
        for i, key in enumerate(lab.PRECISIONS):
            tip = QtCore.QCoreApplication.translate("lab", lab.PRECISION_LABELS[key])
            self.dtype_combo.setItemData(i, tip, QtCore.Qt.ItemDataRole.ToolTipRole)
        self.dtype_combo.setToolTip(
            self.tr(
                "precision of the sweep against N: fp32, pure bf16 (a bf16 model), or autocast (an fp32 model under "
                "torch.autocast to bf16: mixed precision); all three are measured at N for the bf16 tab"
            )
        )
        self.log_axes.setText(self.tr("log axes"))
        self.log_axes.setToolTip(self.tr("log-log: N grows as a line of slope 1, sqrt(N) as a line of slope 1/2"))
        self.run_button.setText(self.tr("Run"))
        words = (self.tr("layers N"), self.tr("width"), self.tr("tokens"), self.tr("dtype"))
        for label, word in zip(self.control_labels, words, strict=True):
            label.setText(word)
        self.tabs.setTabText(TAB_RECOMPUTE, self.tr("recompute"))
        self.tabs.setTabText(TAB_BF16, self.tr("bf16 / autocast"))
        self.tabs.setTabText(TAB_API, self.tr("checkpoint API"))
        self.note.setText(note_text())
        for part in (self.saved_plot, self.recompute_plot, self.bf16_plot, self.table, self.fsdp_page, self.api_page):
            part.retranslate()
        if self.sweep is not None:
            self.show_sweep(self.sweep)  # its status and timing line, and the focus's marks the redrawn items lost
        else:
            self.timing_note.setText(timing_text(None))
            self._apply_focus()
        if self.missing.text():
            self.check_torch()
        self._show_status()

    def changeEvent(self, event: QtCore.QEvent) -> None:
        if event.type() == QtCore.QEvent.Type.LanguageChange:
            if current_language() in LANGUAGES:  # the window's language is the learner's: the caption follows it too
                self.language = current_language()
            self.retranslate()
            if self.captions:
                self._caption(self.captions)
        super().changeEvent(event)

    @property
    def fsdp(self) -> lab.FsdpBreakdown | None:
        return self.fsdp_page.fsdp

    def _set_status(self, text: Callable[[], str]) -> None:
        """Show the status line `text()` words; it is worded again after a language switch."""
        self.status_text = text
        self._show_status()

    def _show_status(self) -> None:
        text = self.status_text()
        if self.stage is not None and self.run_started is not None:
            name, ns = self.stage
            elapsed = self.tr("{seconds} s").format(seconds=num(time.perf_counter() - self.run_started))
            now = self.tr("{stage} ({elapsed})").format(stage=stage_text(name, ns), elapsed=elapsed)
            text = self.tr("{now}; {before}").format(now=now, before=text) if text else now
            self.saved_plot.set_waiting(stage_text(name, ns))  # until the first figures, the plot says it too
        self.status.setText(text)
        self.status.setToolTip(text)

    # running

    def check_torch(self) -> bool:
        """Show the lab, or the line that says how to install torch; True when the lab can run."""
        message = lab.torch_available()
        translated = "" if message is None else QtCore.QCoreApplication.translate("lab", message)
        self.missing.setText(translated)
        self.stack.setCurrentIndex(0 if message is None else 1)
        for w in (self.run_button, self.n_spin, self.width_spin, self.tokens_spin, self.dtype_combo):
            w.setEnabled(message is None)
        if message is not None:
            self._set_status(lambda: translated)
        return message is None

    def run(self) -> None:
        """Measure the sweep at the chosen settings, then the FSDP calculator, both off the GUI thread."""
        if not self.check_torch():
            return
        n, width, tokens = self.n_spin.value(), self.width_spin.value(), self.tokens_spin.value()
        dtype, n_values = str(self.dtype_combo.currentData()), self.n_values

        def sweep(ctx: TaskContext) -> lab.LabSweep:
            def progress(fraction: float) -> None:
                ctx.check()  # between two measurements: a cancelled sweep stops there
                ctx.progress(fraction)

            def partial(figures: lab.LabSweep) -> None:
                ctx.check()
                ctx.progress(figures)  # the quick figures reach the view while the sweep refines them

            def stage(name: str, ns: tuple[int, ...]) -> None:
                ctx.check()
                ctx.progress((name, ns))  # what is measured now: the status says it

            # the timed steps are a measurement of their own, queued after: the api page, when in view, goes first
            return lab.run_sweep(
                n, width=width, tokens=tokens, dtype=dtype, n_values=n_values, timing=False, progress=progress,
                partial=partial, stage=stage,
            )  # fmt: skip

        self.run_started = time.perf_counter()
        self.first_figures_seconds = None
        self.pending.pop("timing", None)  # the previous sweep's: this one is timed once measured
        self.pending["lab"] = sweep
        self._queue_fsdp()

    def _queue_fsdp(self) -> None:
        if lab.torch_available() is not None:
            return
        n, width, sizes = self.n_spin.value(), self.width_spin.value(), self.fsdp_page.world_sizes()
        dtype, optimizer = self.fsdp_page.dtype_combo.currentText(), self.fsdp_page.optimizer_combo.currentText()
        self.pending["fsdp"] = lambda ctx: lab.measure_fsdp(
            n, width=width, dtype=dtype, optimizer=optimizer, world_sizes=sizes, check=ctx.check
        )
        self._start_next()

    def queue_api(self) -> None:
        """Try the checkpoint API's cases under both variants, and the selective policy the page names."""
        if lab.torch_available() is not None:
            return
        self.api_queued = True
        self.pending["api"] = lambda ctx: api.measure_api(check=ctx.check)
        self._put_back_early_sweep()
        self._queue_selection(self.api_page.selected_ops())

    def _put_back_early_sweep(self) -> None:
        """A sweep that has drawn nothing yet goes back in the queue behind the api table, which takes seconds: the
        lab shown and focused on the api at once (Show me) would otherwise wait for the whole sweep."""
        running = self.running
        if running is None or self.running_kind != "lab" or self.sweep is not None or self.running_fn is None:
            return
        self.pending["lab"] = self.running_fn
        # it stops at its next check, between two measurements, and stays `running` until its thread has ended:
        # the next task must not import torch while this one is still importing it
        self.yielding = True
        running.cancel()

    def _queue_selection(self, names: tuple[str, ...]) -> None:
        if lab.torch_available() is not None:
            return
        self.pending["selection"] = lambda ctx: api.measure_selection(names)
        self._start_next()
        self.api_page.set_waiting(self.running is not None and "selection" in self.pending)

    def busy(self) -> bool:
        return self.running is not None or bool(self.pending)

    def _start_next(self) -> None:
        # one measurement at a time, so that two never share the CPU and spoil each other's timings; requests
        # made meanwhile collapse into the latest one of each kind
        if self.running is not None or not self.pending:
            return
        # the focus's own figures first: an api focus does not wait for the sweep
        # the api focus's, or the api tab's when it is open: the page in view does not wait behind the others
        api_first = self.focus == "api" or self.tabs.currentIndex() == TAB_API
        first = ("api", "selection", "lab") if api_first else ("lab",)
        kind = next((k for k in first if k in self.pending), next(iter(self.pending)))
        fn = self.pending.pop(kind)
        self.running_kind, self.running_fn = kind, fn
        self.api_page.set_waiting(any(k in self.pending for k in ("api", "selection")))
        if kind == "lab":
            self.progress.setRange(0, 0)  # busy, with no fraction to show until torch is imported and warm
            self.progress.show()
            self.stage = ("warm_up", ())
            self.clock.start()
            self._set_status(str)
            task = self.tasks.start(
                "checkpointing lab", fn, on_result=self._swept, on_error=self._failed, on_progress=self._progressed,
            )  # fmt: skip
        elif kind == "timing":
            self.progress.setRange(0, 0)
            self.progress.show()
            self.stage = ("timing", (lab.TIMING_SIZE["n_layers"],))
            self.clock.start()
            self._show_status()
            task = self.tasks.start("checkpointing lab timing", fn, on_result=self.show_sweep, on_error=self._failed)
        elif kind in ("api", "selection"):
            shown = self.show_api if kind == "api" else self.show_selection
            task = self.tasks.start(f"checkpoint {kind}", fn, on_result=shown, on_error=self._failed)
        else:
            task = self.tasks.start("FSDP calculator", fn, on_result=self.show_fsdp, on_error=self._failed)
        task.finished.connect(lambda: self._finished(task))
        self.running = task

    def _swept(self, sweep: lab.LabSweep) -> None:
        """The whole sweep: drawn, and its steps timed next when the lab times them."""
        self.show_sweep(sweep)
        if self.timing and sweep.timings is None:
            self.pending["timing"] = lambda ctx: lab.time_sweep(sweep, check=ctx.check)

    def _progressed(self, value: object) -> None:
        if isinstance(value, lab.LabSweep):
            self.show_sweep(value)
        elif isinstance(value, tuple):
            self.stage = value
            self._show_status()
        elif isinstance(value, float | int):
            self.progress.setRange(0, 100)
            self.progress.setValue(round(value * 100))

    def showEvent(self, event: QtGui.QShowEvent) -> None:
        super().showEvent(event)
        # the lab measures as soon as it is on screen: its quick figures come within seconds
        if self.auto_run and self.sweep is None and not self.busy() and lab.torch_available() is None:
            self.run()

    def _failed(self, message: str) -> None:
        self._end_stage()
        self._set_status(lambda: self.tr("measurement failed: {message}").format(message=message))

    def _finished(self, task: Task) -> None:
        if task is not self.running or (task.cancelled and not self.yielding):
            return  # cancelled by shutdown() or with the panel, whose widgets may be gone
        self.yielding = False
        self.running = None
        self.progress.hide()
        self._end_stage()
        self._start_next()

    def _end_stage(self) -> None:
        self.stage = None
        self.clock.stop()
        self.saved_plot.set_waiting("")
        self._show_status()

    def shutdown(self) -> None:
        """Cancel the running measurement and drop the queued ones: call it when the lab's tab closes."""
        self.yielding = False
        self.pending.clear()
        self.tasks.cancel_all()
        self.running = None
        self.progress.hide()
        self.stage = None
        self.clock.stop()

    def closeEvent(self, event: QtGui.QCloseEvent) -> None:
        self.shutdown()
        super().closeEvent(event)

    # drawing

    def show_sweep(self, sweep: lab.LabSweep) -> None:
        self.sweep = sweep
        if self.first_figures_seconds is None and self.run_started is not None:
            self.first_figures_seconds = time.perf_counter() - self.run_started
        self._set_status(lambda: self._sweep_status(sweep))
        self.saved_plot.show_sweep(sweep)
        self.recompute_plot.show_sweep(sweep)
        self.bf16_plot.show_sweep(sweep)
        self.table.fill(sweep)
        self.timing_note.setText(timing_text(sweep))
        self._apply_focus()

    def _sweep_status(self, sweep: lab.LabSweep) -> str:
        passes = len(sweep.points) + sum(m.dtype != sweep.dtype for m in sweep.at_n) + 1
        took = self.first_figures_seconds
        first = "" if took is None else self.tr("first figures after {seconds} s; ").format(seconds=num(took, 1))
        if sweep.complete:
            state = self.tr("{passes} forward + backward {passes:pass|passes} measured")
        else:
            state = self.tr(
                "{passes} forward + backward {passes:pass|passes} measured so far, refining (longer chains, bf16, "
                "timing)"
            )
        rest = self.tr(
            ": {seconds} s (+{warmup} s warm-up) with torch {version}, {width} wide, {tokens} tokens, {precision}; "
            "one activation = {activation}"
        )
        return (
            first
            + state.format(passes=count(passes))
            + rest.format(
                seconds=num(sweep.seconds, 1),
                warmup=num(sweep.warmup_seconds, 1),
                version=sweep.torch_version,
                width=count(sweep.width),
                tokens=count(sweep.tokens),
                precision=QtCore.QCoreApplication.translate("lab", lab.PRECISION_LABELS[sweep.dtype]),
                activation=size(sweep.at("none").activation_bytes),
            )
        )

    def show_api(self, table: api.ApiTable) -> None:
        self.api_page.show_table(table)
        self._apply_focus()

    def show_selection(self, m: api.SelectionMeasurement) -> None:
        self.api_page.show_selection(m)
        self._apply_focus()

    def show_fsdp(self, fsdp: lab.FsdpBreakdown) -> None:
        self.fsdp_page.show_fsdp(fsdp)
        self._apply_focus()

    def _set_log_axes(self, on: bool) -> None:
        self.saved_plot.set_log(on)
        self._apply_focus()

    def _tab_opened(self, index: int) -> None:
        """The checkpoint API table is measured on its own: opened by hand, it starts as it does from a focus."""
        if index == TAB_API and self.api_page.table_result is None and not self.api_queued and self.check_torch():
            self.queue_api()

    # focus

    def set_focus(self, name: str) -> None:
        """Bring one part of the lab to the front, mark its measured figures and say them in one line."""
        if name not in lab.FOCUSES:
            raise ValueError(f"unknown focus {name!r}; one of {', '.join(lab.FOCUSES)}")
        self.focus = name
        # asked before the tab changes: opening the api tab queues the api table, and the sweep must still start
        needs_sweep = self.sweep is None and not self.busy() and self.check_torch()
        if name in FOCUS_TABS:
            self.tabs.setCurrentIndex(FOCUS_TABS[name])
        if name == "api" and self.api_page.table_result is None and not self.api_queued:
            self.queue_api()  # first: the api page does not wait for the sweep
        if needs_sweep:
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
            self._caption(captions.waiting("no_torch"))
            return
        if name == "api":  # its figures are the api page's, measured apart from the sweep
            self._show_api(sweep)
            return
        if sweep is None or (name == "fsdp" and self.fsdp is None):
            self._caption(captions.waiting("measuring"))
            return
        shows: dict[str, Callable[[lab.LabSweep], None]] = {
            "saved_bytes": self._show_saved_bytes,
            "sqrt": self._show_sqrt,
            "recompute": self._show_recompute,
            "selective": self._show_selective,
            "bf16": self._show_bf16,
            "fsdp": self._show_fsdp,
        }
        shows[name](sweep)
        fill = captions.SWEEP_CAPTIONS.get(name)
        if fill is not None:
            self._caption(fill(sweep))
        else:  # the FSDP calculator's figures, at the world size its page shows
            assert self.fsdp is not None
            self._caption(captions.fsdp(self.fsdp, self.fsdp_page.world_spin.value()))

    def _caption(self, localized: dict[str, str]) -> None:
        self.captions = localized
        text = localized[self.language]
        self.caption.setText(text)
        self.caption.setToolTip(text)

    def set_language(self, lang: str) -> None:
        """Word the caption in `lang` (en, ro or fr) from the figures already measured: nothing runs again."""
        if lang not in LANGUAGES:
            raise ValueError(f"unknown language {lang!r}; one of {', '.join(LANGUAGES)}")
        self.language = lang
        if self.captions:
            self._caption(self.captions)

    def _clear_highlights(self) -> None:
        self.focus_points = np.zeros((0, 2))
        self.saved_plot.clear_highlights()
        self.fsdp_page.clear_highlights()
        self.recompute_plot.clear_highlights()
        self.bf16_plot.clear_highlights()
        self.table.clear_highlights()

    # each focus marks its figures; its caption, in every language, comes from views/teach/lab/captions.py

    def _show_saved_bytes(self, sweep: lab.LabSweep) -> None:
        self.focus_points = self.saved_plot.mark(list(lab.POLICIES))
        self.table.highlight(list(lab.POLICIES), 1)

    def _show_sqrt(self, sweep: lab.LabSweep) -> None:
        self.saved_plot.thicken("sqrt")
        self.saved_plot.thicken_reference()
        self.focus_points = self.saved_plot.mark(["sqrt"])
        self.saved_plot.zoom("sqrt")
        self.table.highlight(["sqrt"], 1)

    def _show_recompute(self, sweep: lab.LabSweep) -> None:
        worst = max(lab.POLICIES, key=lambda p: sweep.at(p).extra_flops)
        self.focus_points = self.recompute_plot.mark([worst])
        self.table.highlight(["every", "sqrt"], 7)

    def _show_selective(self, sweep: lab.LabSweep) -> None:
        self.saved_plot.thicken("selective")
        self.saved_plot.mark(["selective"])
        self.focus_points = self.recompute_plot.mark(["selective"])
        self.table.highlight(["selective"], 6)

    def _show_bf16(self, sweep: lab.LabSweep) -> None:
        if all(sweep.has(d) for d in lab.PRECISIONS):
            self.focus_points = self.bf16_plot.mark(list(lab.POLICIES), series=lab.PRECISION_LABELS["bf16"])

    def _show_api(self, sweep: lab.LabSweep | None) -> None:
        if sweep is not None:  # the policy the learner edits is the sweep's selective one, kept per layer
            self.saved_plot.thicken("selective")
            self.focus_points = self.saved_plot.mark(["selective"])
        table = self.api_page.table_result
        self._caption(captions.api_waiting() if table is None else captions.api_caption(table, self.api_page.selection))

    def _show_fsdp(self, sweep: lab.LabSweep) -> None:
        self.focus_points, _ = self.fsdp_page.mark()  # its English caption: the localized one is ours
