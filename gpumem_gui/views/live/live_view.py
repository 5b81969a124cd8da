"""LiveView: an attached job's maps, refreshed from its probe, with the reconciling memory bar and a stats strip."""

from __future__ import annotations

import html
import time
from collections import deque
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

from gpumem_gui.core.analysis.reconcile import MemoryReconciliation
from gpumem_gui.sources.live import MAX_SAMPLES, LiveFrame, LiveSession, LiveUpdate, StatsSample
from gpumem_gui.sources.probe_client import ProbeClient
from gpumem_gui.sources.words import as_is, say
from gpumem_gui.teach.translatable import QT_TRANSLATE_NOOP
from gpumem_gui.views.common import palette
from gpumem_gui.views.common.language import Retranslated, num, size, unit_word
from gpumem_gui.views.common.one_line import OneLineLabel
from gpumem_gui.views.common.sentences import said
from gpumem_gui.views.common.tasks import EVENTS_TASK, MARK_TASK, SESSION_TASK, Task, TaskContext, TaskGroup
from gpumem_gui.views.live.live_ooms import OomCapture, OomList
from gpumem_gui.views.snapshot.tab import SnapshotTab

BAR_PARTS = (  # (name, colour, what it is), translated where shown
    (
        QT_TRANSLATE_NOOP("LiveView", "requested"),
        palette.CURVES["requested"],
        QT_TRANSLATE_NOOP("LiveView", "what the program asked for (requested_bytes)"),
    ),
    (
        QT_TRANSLATE_NOOP("LiveView", "rounding"),
        palette.CURVES["allocated"],
        QT_TRANSLATE_NOOP("LiveView", "allocated - requested: the allocator's rounding of each request"),
    ),
    (
        QT_TRANSLATE_NOOP("LiveView", "cached free"),
        palette.HOLE,
        QT_TRANSLATE_NOOP("LiveView", "reserved - allocated: cached by PyTorch, free for it, unusable by others"),
    ),
    (
        QT_TRANSLATE_NOOP("LiveView", "outside PyTorch"),
        palette.OUTSIDE_PYTORCH,
        QT_TRANSLATE_NOOP("LiveView", "NVML's used - reserved: CUDA context, cuBLAS/NCCL workspaces, other libraries"),
    ),
)
OUTSIDE = BAR_PARTS[3][0]


def _tr(text: str) -> str:
    return QtCore.QCoreApplication.translate("LiveView", text)


def _capitalized(text: str) -> str:
    return text[:1].upper() + text[1:]


def _exact(n: int) -> str:
    return QtCore.QCoreApplication.translate("LiveView", "{size} ({bytes} bytes)").format(size=size(n), bytes=num(n))


class ReconcileBar(QtWidgets.QWidget):
    """One stacked bar: NVML used = outside PyTorch + reserved; reserved = cached free + allocated; and so on."""

    def __init__(self, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        self.figures: MemoryReconciliation | None = None
        self.setMinimumHeight(64)
        self.setSizePolicy(QtWidgets.QSizePolicy.Policy.Expanding, QtWidgets.QSizePolicy.Policy.Fixed)

    def sizeHint(self) -> QtCore.QSize:
        return QtCore.QSize(600, 64)

    def set_figures(self, figures: MemoryReconciliation) -> None:
        self.figures = figures
        self.setToolTip(self.describe())
        self.update()

    def parts(self) -> list[tuple[str, int, str, str]]:
        f = self.figures
        if f is None:
            return []
        requested = f.requested if f.requested is not None else f.allocated
        sizes = (requested, f.rounding or 0, f.cached_free, f.outside_pytorch or 0)
        return [(name, n, colour, tip) for (name, colour, tip), n in zip(BAR_PARTS, sizes, strict=True)]

    def describe(self) -> str:
        f = self.figures
        if f is None:
            return QtCore.QCoreApplication.translate("LiveView", "waiting for the first figures")
        used = (
            _exact(f.nvml_used)
            if f.nvml_used is not None
            else QtCore.QCoreApplication.translate("LiveView", "n/a (no NVML)")
        )
        lines = [QtCore.QCoreApplication.translate("LiveView", "NVML used by the process: {size}").format(size=used)]
        if f.outside_pytorch is not None:
            line = QtCore.QCoreApplication.translate(
                "LiveView", "  of which outside PyTorch (context, libraries): {size}"
            )
            lines.append(line.format(size=_exact(f.outside_pytorch)))
        lines.append(
            QtCore.QCoreApplication.translate("LiveView", "  PyTorch reserved: {size}").format(size=_exact(f.reserved))
        )
        lines.append(
            QtCore.QCoreApplication.translate("LiveView", "    of which allocated: {size}").format(
                size=_exact(f.allocated)
            )
        )
        if f.requested is not None:
            lines.append(
                QtCore.QCoreApplication.translate("LiveView", "      of which requested: {size}").format(
                    size=_exact(f.requested)
                )
            )
        if f.peak_allocated is not None:
            lines.append(
                QtCore.QCoreApplication.translate("LiveView", "peak allocated (allocator counter): {size}").format(
                    size=_exact(f.peak_allocated)
                )
            )
        if f.device_used is not None and f.device_total:
            line = QtCore.QCoreApplication.translate("LiveView", "device: {used} used of {total} (all processes)")
            lines.append(line.format(used=size(f.device_used), total=size(f.device_total)))
        return "\n".join(lines)

    def changeEvent(self, event: QtCore.QEvent) -> None:
        if event.type() == QtCore.QEvent.Type.LanguageChange:
            self.setToolTip(self.describe() if self.figures is not None else "")
            self.update()
        super().changeEvent(event)

    def paintEvent(self, _event: QtGui.QPaintEvent) -> None:
        painter = QtGui.QPainter(self)
        painter.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing)
        rect = self.rect().adjusted(4, 4, -4, -28)
        painter.fillRect(rect, QtGui.QColor(palette.BACKGROUND))
        parts = self.parts()
        f = self.figures
        if f is None:
            painter.drawText(
                self.rect(),
                QtCore.Qt.AlignmentFlag.AlignCenter,
                QtCore.QCoreApplication.translate("LiveView", "waiting for the first figures..."),
            )
            return
        scale_total = max(sum(n_bytes for _n, n_bytes, _c, _t in parts), f.peak_reserved or 0, 1)
        x = float(rect.left())
        for _name, n_bytes, colour, _tip in parts:
            w = rect.width() * n_bytes / scale_total
            painter.fillRect(QtCore.QRectF(x, rect.top(), w, rect.height()), QtGui.QColor(colour))
            x += w
        if f.peak_allocated:  # the allocator's own peak: a short spike between refreshes still shows here
            px = rect.left() + rect.width() * min(f.peak_allocated / scale_total, 1.0)
            painter.setPen(QtGui.QPen(QtGui.QColor(palette.WASTE), 2, QtCore.Qt.PenStyle.DashLine))
            painter.drawLine(QtCore.QPointF(px, rect.top() - 2), QtCore.QPointF(px, rect.bottom() + 2))
        painter.setPen(QtGui.QColor(palette.TEXT_STRONG))
        legend_y = rect.bottom() + 18
        x = rect.left()
        metrics = painter.fontMetrics()
        for name, n_bytes, colour, _tip in parts:
            if name == OUTSIDE and f.nvml_used is None:
                text = QtCore.QCoreApplication.translate("LiveView", "{name}: n/a").format(name=_tr(name))
            else:
                text = QtCore.QCoreApplication.translate("LiveView", "{name}: {size}").format(
                    name=_tr(name), size=size(n_bytes)
                )
            painter.fillRect(QtCore.QRectF(x, legend_y - 10, 10, 10), QtGui.QColor(colour))
            painter.drawText(QtCore.QPointF(x + 14, legend_y), text)
            x += 14 + metrics.horizontalAdvance(text) + 18
        if f.peak_allocated:
            text = QtCore.QCoreApplication.translate("LiveView", "- - peak allocated {size}").format(
                size=size(f.peak_allocated)
            )
            painter.drawText(QtCore.QPointF(x, legend_y), text)


class LiveStatsPlot(pg.PlotWidget):  # pyqtgraph ships no types
    """Reserved, allocated and the allocator's peak counter over the wall clock of the session."""

    def __init__(self, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        self.setBackground(palette.PLOT_BACKGROUND)
        self.setMinimumHeight(110)
        self.getPlotItem().addLegend(
            offset=(5, 5), labelTextColor=palette.TEXT, brush=pg.mkBrush(*palette.LEGEND_FILL)
        )  # readable over the curves it sits on
        self.getPlotItem().showGrid(x=True, y=True, alpha=0.2)
        self.curves = {
            "reserved": self.plot(pen=pg.mkPen(palette.CURVES["reserved"], width=2), name="reserved"),
            "allocated": self.plot(pen=pg.mkPen(palette.CURVES["allocated"], width=2), name="allocated"),
            "peak": self.plot(
                pen=pg.mkPen(palette.WASTE, width=1, style=QtCore.Qt.PenStyle.DashLine),
                name="peak allocated (counter)",
                stepMode=None,
            ),
        }
        self.t0: float | None = None
        self.retranslate()

    def retranslate(self) -> None:
        item = self.getPlotItem()
        item.setLabel("left", unit_word("GiB"))
        item.setLabel("bottom", QtCore.QCoreApplication.translate("LiveView", "seconds since attach"))
        names = {
            "reserved": QtCore.QCoreApplication.translate("LiveView", "reserved"),
            "allocated": QtCore.QCoreApplication.translate("LiveView", "allocated"),
            "peak": QtCore.QCoreApplication.translate("LiveView", "peak allocated (counter)"),
        }
        if item.legend is not None:
            item.legend.clear()
            for key, curve in self.curves.items():
                curve.opts["name"] = names[key]
                item.legend.addItem(curve, names[key])

    def changeEvent(self, event: QtCore.QEvent) -> None:
        if event.type() == QtCore.QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def set_samples(self, samples: Iterable[StatsSample], device: int) -> None:
        rows = [s for s in samples if s.device == device]
        if not rows:
            return
        if self.t0 is None:
            self.t0 = rows[0].time
        t = [s.time - self.t0 for s in rows]
        gib = float(1 << 30)
        self.curves["reserved"].setData(t, [s.figures.reserved / gib for s in rows])
        self.curves["allocated"].setData(t, [s.figures.allocated / gib for s in rows])
        self.curves["peak"].setData(t, [(s.figures.peak_allocated or 0) / gib for s in rows])


class LiveView(Retranslated):
    """What an attached job shows: the file view's maps and figures, refreshed, with the live controls above.

    The session's loop and its event listener run as two long tasks of `self.tasks`; their progress values (the
    updates, the probe's events) arrive here in the GUI thread, which only swaps references and repaints."""

    # the path of an OOM snapshot the user chose to open from the list: an OOM itself opens nothing, so a job
    # that fails in a loop neither floods the window with tabs nor takes the focus away from what the user does
    open_requested = QtCore.Signal(str)
    detached = QtCore.Signal()
    # after each update is shown (new stats, a new snapshot, the job's end): what an overview of several jobs
    # listens to; it reads `samples`, `frames` and `state` then
    updated = QtCore.Signal()

    def __init__(self, session: LiveSession, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.document: SnapshotTab | None = None
        self.frames = 0
        # the newest stats (four hours at 2 Hz, as the session keeps): a job watched for days stays bounded
        self.samples: deque[StatsSample] = deque(maxlen=MAX_SAMPLES)
        self.samples_received = 0  # ever: an overview takes what came after the count it has seen
        self.state = "live"  # then "ended" (the job exited or the session failed) or "detached"
        # a probe behind a forwarded socket (SSH from a GPU server) is another machine's process: this machine's
        # NVML must not be asked about it (it could name a local process)
        self.local, self.rank = session.local, session.rank
        if not self.local:
            session.nvml_used = None
        self.title = ""
        self.header = QtWidgets.QLabel()
        self.status_text: Callable[[], str] = lambda: self.tr("waiting for the first snapshot...")
        self.notice_text: Callable[[], str] = str
        self.notice = QtWidgets.QLabel(wordWrap=True)
        self.notice.setVisible(False)
        self.notice.setStyleSheet(
            f"background:{palette.NOTICE_BACKGROUND}; color:{palette.NOTICE_TEXT}; padding:6px; border-radius:4px;"
        )
        problem = session.hello.get("problem")
        if problem:
            self._show_notice(lambda: str(problem))  # the probe's own words
        self.pause_button = QtWidgets.QPushButton()
        self.pause_button.setCheckable(True)
        self.pause_button.toggled.connect(self._pause_toggled)
        self.refresh_button = QtWidgets.QPushButton()
        self.refresh_button.clicked.connect(session.snapshot_now)
        self.save_button = QtWidgets.QPushButton()
        self.save_button.clicked.connect(self._save_dialog)
        self.mark_button = QtWidgets.QPushButton()
        self.mark_button.clicked.connect(self._mark_dialog)
        self.record_button = QtWidgets.QPushButton()
        self.record_button.setCheckable(True)
        self.record_button.toggled.connect(self._record_toggled)
        self.detach_button = QtWidgets.QPushButton()
        self.detach_button.clicked.connect(self.detach)
        self.status = OneLineLabel("")  # a long path or error never widens the window
        self.bar = ReconcileBar()
        self.plot = LiveStatsPlot()
        self.ooms = OomList()
        self.ooms.open_requested.connect(self.open_requested)
        self.ooms.setVisible(False)  # until the first OOM
        self.placeholder = QtWidgets.QLabel(alignment=QtCore.Qt.AlignmentFlag.AlignCenter)

        controls = QtWidgets.QHBoxLayout()
        controls.addWidget(self.header, 1)
        for w in (self.pause_button, self.refresh_button, self.save_button, self.mark_button, self.record_button,
                  self.detach_button):  # fmt: skip
            controls.addWidget(w)
        top = QtWidgets.QWidget()
        top_layout = QtWidgets.QVBoxLayout(top)
        top_layout.setContentsMargins(0, 0, 0, 0)
        top_layout.addLayout(controls)
        top_layout.addWidget(self.notice)
        top_layout.addWidget(self.bar)
        top_layout.addWidget(self.status)
        self.splitter = QtWidgets.QSplitter(QtCore.Qt.Orientation.Vertical)
        self.splitter.addWidget(self.placeholder)
        self.bottom = QtWidgets.QSplitter(QtCore.Qt.Orientation.Horizontal)
        self.bottom.addWidget(self.plot)
        self.bottom.addWidget(self.ooms)
        self.bottom.setStretchFactor(0, 3)
        self.bottom.setStretchFactor(1, 2)
        self.splitter.addWidget(self.bottom)
        self.splitter.setStretchFactor(0, 6)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([640, 220])
        layout = QtWidgets.QVBoxLayout(self)
        layout.addWidget(top)
        layout.addWidget(self.splitter, 1)
        self.retranslate()

        # no Qt parent: a task that ends after this widget is deleted still finds its group alive (the task
        # holds it), where a child group would be deleted with the widget under the task's last signal
        self.tasks = TaskGroup()
        self.session_task: Task = self.tasks.start(
            say(SESSION_TASK, pid=as_is(session.pid)),
            _session_loop(session),
            on_progress=self.apply,
            on_result=self._session_ended,
            on_error=self._session_failed,
        )
        self.events_task: Task = self.tasks.start(
            say(EVENTS_TASK, pid=as_is(session.pid)),
            _event_loop(session),
            on_progress=self._on_event,
            on_error=self._session_failed,
        )

    def retranslate(self) -> None:
        """The header, buttons, status and notice in the window's language."""
        hello = self.session.hello
        what = self.tr("simulated job") if hello.get("simulated") else f"torch {hello.get('torch') or '?'}"
        if self.rank is not None:
            self.title = self.tr("rank {rank} pid {pid}").format(rank=self.rank, pid=self.session.pid)
        else:
            self.title = self.tr("pid {pid}").format(pid=self.session.pid)
        where = "" if self.local else self.tr(" on another machine, via {path}").format(path=self.session.path)
        self.header.setText(
            f"<b>{self.title}</b>{where} &nbsp; {what} &nbsp; <code style='color:{palette.TEXT_MUTED}'>"
            f"{html.escape(' '.join(hello.get('argv') or [])[:120])}</code>"  # the job's command line, as it is
        )
        self.pause_button.setText(self.tr("Resume") if self.pause_button.isChecked() else self.tr("Pause"))
        self.refresh_button.setText(self.tr("Snapshot now"))
        ended = self.state != "live"
        self.save_button.setText(self.tr("Save last snapshot...") if ended else self.tr("Save snapshot now..."))
        self.mark_button.setText(self.tr("Mark..."))
        self.mark_button.setToolTip(self.tr("Put a named mark in the job's trace (shown on the timeline)"))
        recording = self.record_button.isChecked()
        self.record_button.setText(self.tr("Stop recording") if recording else self.tr("Record..."))
        self.record_button.setToolTip(self.tr("Write every snapshot and stats sample of this session to a folder"))
        self.detach_button.setText(self.tr("Detach"))
        if self.document is None:
            self.placeholder.setText(self.tr("waiting for the first snapshot..."))
        self._set_status(self.status_text)
        if self.notice.isVisibleTo(self):
            self._show_notice(self.notice_text)

    def _set_status(self, text: Callable[[], str]) -> None:
        """The status line `text()` words, worded again after a language switch."""
        self.status_text = text
        self.status.setText(text())

    # -- updates ---------------------------------------------------------------------------------------------

    def apply(self, update: LiveUpdate) -> None:
        """Show one update of the session; then the session may deliver the next (what merged meanwhile)."""
        try:
            if update.samples:
                self.samples.extend(update.samples)
                self.samples_received += len(update.samples)
                device = self.document.device if self.document is not None else update.samples[-1].device
                mine = [s for s in update.samples if s.device == device] or update.samples
                self.bar.set_figures(mine[-1].figures)
                self.plot.set_samples(self.samples, device)
            if update.frame is not None:
                self.show_frame(update.frame)
            for event in update.events:
                self._on_event(event)
            if update.messages:
                latest = update.messages[-1]
                self._set_status(lambda: said(latest))  # the session's own words
            if update.ended is not None:
                ended = update.ended
                self._finish(lambda: _capitalized(said(ended)))
        finally:
            self.session.delivered()
        if update.samples or update.frame is not None or update.ended is not None:
            self.updated.emit()

    def show_frame(self, frame: LiveFrame) -> None:
        self.frames += 1
        if self.document is None:
            self.document = SnapshotTab(frame.snapshot, timelines=frame.timelines)
            self.splitter.replaceWidget(0, self.document)
            self.placeholder.deleteLater()
        else:
            self.document.set_snapshot(frame.snapshot, frame.timelines)
        events = sum(len(frame.snapshot.trace(d)) for d in frame.snapshot.devices())
        number, at = self.frames, time.strftime("%H:%M:%S", time.localtime(frame.taken_at))
        self._set_status(
            lambda: self.tr(
                "snapshot {number} at {time}: {size}, {events} trace events, fetched and indexed in {ms} ms"
            ).format(
                number=number,
                time=at,
                size=size(frame.size),
                events=num(events),
                ms=num(frame.seconds_to_fetch * 1000),
            )
        )

    def _on_event(self, event: dict[str, Any]) -> None:
        if event.get("event") != "oom":
            return
        capture = OomCapture.from_event(event, fallback_ordinal=self.ooms.received + 1)
        self.ooms.add(capture)
        if not self.ooms.isVisibleTo(self):
            self.ooms.setVisible(True)
            # hidden when the splitter was laid out: share the width now, or the list gets only its narrow hint
            width = max(self.bottom.width(), 2)
            self.bottom.setSizes([width * 11 // 20, width - width * 11 // 20])
        when = time.strftime("%H:%M:%S", time.localtime(capture.time))

        def notice() -> str:
            listed = self.tr("; its snapshot is in the list below (double-click to open)") if capture.path else ""
            return (
                self.tr(
                    "Out of memory in the job at {time} (OOM #{ordinal}): a request of {size} on GPU {device} failed"
                ).format(time=when, ordinal=capture.ordinal, size=size(capture.requested), device=capture.device)
                + listed
            )

        self._show_notice(notice)

    def _session_ended(self, ended: str | None) -> None:
        update = self.session.take()  # what arrived after the last update was handed over
        update.ended = update.ended or ended
        self.apply(update)

    def _session_failed(self, message: str) -> None:
        # the task mechanism has logged the traceback; the user reads one line, and the last state stays
        self.tasks.cancel_all()
        self.apply(self.session.take())
        self._finish(lambda: self.tr("The live session stopped: {message}").format(message=said(message)))
        self.updated.emit()

    def _finish(self, why: Callable[[], str]) -> None:
        if self.state == "live":
            self.state = "ended"
        self._show_notice(
            lambda: self.tr("{why}. The last state stays on screen; Save snapshot now writes it to a file.").format(
                why=why()
            )
        )
        for w in (self.pause_button, self.refresh_button, self.mark_button, self.record_button):
            w.setEnabled(False)
        self.save_button.setText(self.tr("Save last snapshot..."))
        self.ooms.refresh_files()  # the list stays: rows whose file went with the job say so

    def _show_notice(self, text: Callable[[], str]) -> None:
        """The notice `text()` words, worded again after a language switch."""
        self.notice_text = text
        self.notice.setText(text())
        self.notice.setVisible(True)

    # -- controls --------------------------------------------------------------------------------------------

    def _pause_toggled(self, paused: bool) -> None:
        self.session.set_paused(paused)
        self.pause_button.setText(self.tr("Resume") if paused else self.tr("Pause"))

    def _save_dialog(self) -> None:
        path, _ = QtWidgets.QFileDialog.getSaveFileName(
            self, self.tr("Save snapshot"), f"snapshot-pid{self.session.pid}.pickle", self.tr("Snapshots (*.pickle)")
        )
        if path:
            self.save_now(Path(path))

    def save_now(self, path: Path) -> None:
        message = self.session.save_now(path)
        if message is not None:
            self._set_status(lambda: said(message))

    def _mark_dialog(self) -> None:
        name, ok = QtWidgets.QInputDialog.getText(self, self.tr("Mark"), self.tr("Name of the mark:"))
        if ok and name:
            self.mark(name)

    def mark(self, name: str) -> None:
        path = self.session.path

        def send(_ctx: TaskContext) -> None:
            # a connection of its own, so it never waits behind a snapshot transfer
            with ProbeClient(path) as client:
                client.mark(name)

        self.tasks.start(
            say(MARK_TASK, name=as_is(repr(name))),
            send,
            on_result=lambda _r: self._set_status(lambda: self.tr("marked {name}").format(name=repr(name))),
            on_error=lambda message: self._set_status(lambda: said(message)),
        )

    def _record_toggled(self, on: bool) -> None:
        if not on:
            self.session.record_to(None)
            self.record_button.setText(self.tr("Record..."))
            return
        folder = QtWidgets.QFileDialog.getExistingDirectory(self, self.tr("Record the session into"))
        if not folder:
            self.record_button.setChecked(False)
            return
        self.record_into(Path(folder))

    def record_into(self, folder: Path) -> None:
        self.session.record_to(folder)
        self.record_button.blockSignals(True)
        self.record_button.setChecked(True)
        self.record_button.blockSignals(False)
        self.record_button.setText(self.tr("Stop recording"))
        self._set_status(lambda: self.tr("recording into {folder}").format(folder=folder))

    # -- ending ----------------------------------------------------------------------------------------------

    def cancel_tasks(self) -> None:
        """Stop the session's loops and any mark on its way, without waiting: their sockets are shut at once, so
        the threads end within moments (`self.tasks.wait()` waits for that)."""
        self.tasks.cancel_all()
        self.session.stop()

    def detach(self) -> None:
        self.cancel_tasks()
        if self.state == "live":
            self.state = "detached"
        self.detached.emit()
        self.updated.emit()

    def close_session(self) -> None:
        self.cancel_tasks()


def _session_loop(session: LiveSession) -> Callable[[TaskContext], str | None]:
    def run(ctx: TaskContext) -> str | None:
        ctx.on_cancel(session.stop)
        return session.run(ctx.progress, lambda: ctx.cancelled)

    return run


def _event_loop(session: LiveSession) -> Callable[[TaskContext], None]:
    def listen(ctx: TaskContext) -> None:
        ctx.on_cancel(session.stop)
        session.listen(ctx.progress, lambda: ctx.cancelled)

    return listen
