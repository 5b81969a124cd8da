"""LiveGrid: several attached jobs at a glance, a row of figures per job and their reserved memory on one timeline.

It draws what the jobs' LiveViews have received (each view's `updated` signal says when): it opens no connection
of its own, so watching eight ranks here costs nothing more than their eight tabs. Updates are folded in on a short
timer, so eight jobs at 2 Hz repaint the overview a few times a second, not sixteen.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import numpy as np
import pyqtgraph as pg
import shiboken6
from PySide6 import QtCore, QtGui, QtWidgets

from gpumem_gui.sources.live import MAX_SAMPLES, StatsSample
from gpumem_gui.teach.translatable import QT_TRANSLATE_NOOP
from gpumem_gui.views.common import palette
from gpumem_gui.views.common.language import num, size, unit_word
from gpumem_gui.views.live.live_view import LiveView

COLUMNS = (
    QT_TRANSLATE_NOOP("LiveGrid", "Job"),
    QT_TRANSLATE_NOOP("LiveGrid", "State"),
    QT_TRANSLATE_NOOP("LiveGrid", "Reserved"),
    QT_TRANSLATE_NOOP("LiveGrid", "Allocated"),
    QT_TRANSLATE_NOOP("LiveGrid", "Peak reserved"),
    "OOMs",
    QT_TRANSLATE_NOOP("LiveGrid", "Snapshots"),
)


def _tr(text: str) -> str:
    return QtCore.QCoreApplication.translate("LiveGrid", text)


def state_text(state: str) -> str:
    """A job's state (live, ended, detached, closed) in the window's language."""
    states = {
        "live": QtCore.QCoreApplication.translate("LiveGrid", "live"),
        "ended": QtCore.QCoreApplication.translate("LiveGrid", "ended"),
        "detached": QtCore.QCoreApplication.translate("LiveGrid", "detached"),
        "closed": QtCore.QCoreApplication.translate("LiveGrid", "closed"),
    }
    return states.get(state, state)


REFRESH_MS = 250  # updates that arrive meanwhile are folded into one repaint
GIB = float(1 << 30)


@dataclass
class JobRow:
    """One job's series and latest figures, summed over its devices (a rank usually has one)."""

    title: str
    colour: str
    view: LiveView | None  # None once its tab is closed: the row and the curve stay, greyed
    state: str = "live"
    consumed: int = 0  # how many of the samples the view received are in the series
    times: list[float] = field(default_factory=list)  # the probe's clock, one entry per stats reply
    reserved: list[int] = field(default_factory=list)
    latest: dict[int, StatsSample] = field(default_factory=dict)  # by device
    frames: int = 0
    tooltip: str = ""
    cells: list[QtWidgets.QTableWidgetItem] = field(default_factory=list)  # its row of the table, by column

    def figure(self, name: str) -> int | None:
        values = [getattr(s.figures, name) for s in self.latest.values()]
        return None if not values or any(v is None for v in values) else int(sum(values))

    @property
    def ooms(self) -> int:
        return max((s.oom_count for s in self.latest.values()), default=0)


class LiveGrid(QtWidgets.QWidget):
    """A table of the attached jobs above a timeline of their reserved memory; double-click a row for its tab."""

    job_activated = QtCore.Signal(object)  # the LiveView of the row double-clicked

    def __init__(self, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        self.jobs: list[JobRow] = []
        self._curves: list[pg.PlotDataItem] = []
        self._dirty: set[int] = set()
        self.t0: float | None = None
        self.table = QtWidgets.QTableWidget(0, len(COLUMNS))
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QtWidgets.QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QtWidgets.QAbstractItemView.SelectionBehavior.SelectRows)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QtWidgets.QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(0, QtWidgets.QHeaderView.ResizeMode.Stretch)
        self.table.cellDoubleClicked.connect(self._activate)
        self.plot = pg.PlotWidget()
        self.plot.setBackground(palette.PLOT_BACKGROUND)
        item = self.plot.getPlotItem()
        item.showGrid(x=True, y=True, alpha=0.2)
        item.setClipToView(True)
        item.setDownsampling(auto=True, mode="peak")  # hours of 2 Hz figures per job: peaks must survive
        self.legend = item.addLegend(offset=(5, 5), labelTextColor=palette.TEXT, brush=pg.mkBrush(*palette.LEGEND_FILL))
        self.hint = QtWidgets.QLabel(wordWrap=True)
        self.hint.setStyleSheet(f"color:{palette.TEXT_MUTED};")
        self.splitter = QtWidgets.QSplitter(QtCore.Qt.Orientation.Vertical)
        self.splitter.addWidget(self.table)
        self.splitter.addWidget(self.plot)
        self.splitter.setStretchFactor(0, 0)
        self.splitter.setStretchFactor(1, 1)
        layout = QtWidgets.QVBoxLayout(self)
        layout.addWidget(self.hint)
        layout.addWidget(self.splitter, 1)
        self._timer = QtCore.QTimer(self, singleShot=True, interval=REFRESH_MS)
        self._timer.timeout.connect(self.refresh)
        self.retranslate()

    def retranslate(self) -> None:
        """Headers, axes, the hint and every row in the window's language."""
        self.table.setHorizontalHeaderLabels([_tr(c) for c in COLUMNS])
        item = self.plot.getPlotItem()
        item.setLabel("left", self.tr("reserved ({unit})").format(unit=unit_word("GiB")))
        item.setLabel("bottom", self.tr("seconds since the first figures"))
        if self.jobs:
            self.hint.setText(
                self.tr(
                    "Double-click a job to go to its tab. Reserved, allocated and OOMs are the allocator's own "
                    "figures, summed over each job's GPUs."
                )
            )
        else:
            self.hint.setText(self.tr("No job yet: attach to the jobs (Live > Attach...) and they are listed here."))
        for index in range(len(self.jobs)):
            self._draw(index)

    def changeEvent(self, event: QtCore.QEvent) -> None:
        if event.type() == QtCore.QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    # -- jobs ------------------------------------------------------------------------------------------------

    def add_view(self, view: LiveView) -> bool:
        """List a job (a live tab); False when it is listed already."""
        if view in self.views():
            return False
        index = len(self.jobs)
        colour = palette.JOB_LINES[index % len(palette.JOB_LINES)]
        job = JobRow(view.title, colour, view, tooltip=str(view.session.path))
        self.jobs.append(job)
        self._curves.append(self.plot.plot(pen=pg.mkPen(colour, width=2), name=view.title))
        self.table.insertRow(index)
        for column in range(len(COLUMNS)):
            cell = QtWidgets.QTableWidgetItem()
            if column >= 2:
                cell.setTextAlignment(QtCore.Qt.AlignmentFlag.AlignRight | QtCore.Qt.AlignmentFlag.AlignVCenter)
            self.table.setItem(index, column, cell)
            job.cells.append(cell)
        # bound methods, not partials: Qt drops these connections itself when this overview is deleted first
        view.updated.connect(self._view_updated)
        view.destroyed.connect(self._view_destroyed)
        self.retranslate()
        self._dirty.add(index)
        self.refresh()
        self._fit_table()
        return True

    def _fit_table(self) -> None:
        """The table as tall as its rows, up to half the overview; the timeline takes the rest."""
        table = self.table
        rows = sum(table.rowHeight(r) for r in range(table.rowCount())) or table.verticalHeader().defaultSectionSize()
        wanted = table.horizontalHeader().height() + rows + 2 * table.frameWidth() + 2
        total = max(sum(self.splitter.sizes()), self.splitter.height(), 2 * wanted)
        height = min(wanted, total // 2)
        self.splitter.setSizes([height, total - height])

    def views(self) -> list[LiveView]:
        return [job.view for job in self.jobs if job.view is not None]

    def _index_of(self, view: object) -> int | None:
        return next((i for i, job in enumerate(self.jobs) if job.view is view), None)

    @QtCore.Slot()
    def _view_updated(self) -> None:
        index = self._index_of(self.sender())
        if index is not None:
            self._changed(index)

    @QtCore.Slot(QtCore.QObject)
    def _view_destroyed(self, view: QtCore.QObject | None = None) -> None:
        for index, job in enumerate(self.jobs):
            # the wrapper handed over while the view is destroyed may be a new one: a deleted view is one whose
            # C++ side is gone
            if job.view is not None and (job.view is view or not shiboken6.isValid(job.view)):
                job.view = None
                if job.state == "live":
                    job.state = "closed"
                self._changed(index)

    def _changed(self, index: int) -> None:
        self._dirty.add(index)
        if not self._timer.isActive():
            self._timer.start()

    def _activate(self, row: int, _column: int) -> None:
        view = self.jobs[row].view if 0 <= row < len(self.jobs) else None
        if view is not None:
            self.job_activated.emit(view)

    # -- drawing ---------------------------------------------------------------------------------------------

    def refresh(self) -> None:
        """Fold in what the changed jobs' views received, and redraw their rows and curves."""
        dirty, self._dirty = self._dirty, set()
        for index in dirty:
            self._take(self.jobs[index])
        starts = [job.times[0] for job in self.jobs if job.times]
        t0 = min(starts) if starts else None
        if t0 != self.t0:  # a job with older figures arrived: every curve moves
            self.t0, dirty = t0, set(range(len(self.jobs)))
        for index in sorted(dirty):
            self._draw(index)

    def _take(self, job: JobRow) -> None:
        view = job.view
        if view is None:
            return
        new = min(view.samples_received - job.consumed, len(view.samples))  # those it has not seen, still kept
        fresh = list(itertools.islice(view.samples, len(view.samples) - new, None)) if new > 0 else []
        job.consumed = view.samples_received
        for sample in fresh:
            job.latest[sample.device] = sample
            # the devices of one stats reply share its time: their reserved add up into one point
            if job.times and sample.time == job.times[-1]:
                job.reserved[-1] += sample.figures.reserved
            else:
                job.times.append(sample.time)
                job.reserved.append(sample.figures.reserved)
        if len(job.times) > MAX_SAMPLES:  # bounded as the view's samples are: the oldest go
            del job.times[:-MAX_SAMPLES], job.reserved[:-MAX_SAMPLES]
        job.frames = view.frames
        job.state = view.state

    def _draw(self, index: int) -> None:
        job = self.jobs[index]
        if job.times and self.t0 is not None:
            t = np.asarray(job.times, dtype=np.float64) - self.t0
            self._curves[index].setData(t, np.asarray(job.reserved, dtype=np.float64) / GIB)
        reserved, allocated = job.figure("reserved"), job.figure("allocated")
        peak = job.figure("peak_reserved")
        devices = ", ".join(str(d) for d in sorted(job.latest)) or "?"
        if job.view is not None:
            job.title = job.view.title  # worded in the window's language by the view
        remote = job.view is not None and not job.view.local
        where = job.tooltip + (self.tr(" (forwarded: a job on another machine)") if remote else "")
        texts = [
            job.title,
            state_text(job.state),
            _size(reserved),
            _size(allocated),
            _size(peak),
            num(job.ooms) if job.latest else "",
            num(job.frames),
        ]
        tips = [
            f"{where}\nGPU {devices}",
            "",
            _exact(reserved),
            _exact(allocated),
            self.tr("the allocator's own peak counter: a peak between two refreshes shows here"),
            self.tr("out-of-memory errors in the job, since it started"),
            self.tr("snapshots received"),
        ]
        muted = job.state != "live"
        for column, (text, tip) in enumerate(zip(texts, tips, strict=True)):
            cell = job.cells[column]
            cell.setText(text)
            cell.setToolTip(tip)
            colour = palette.TEXT_MUTED if muted else palette.TEXT_STRONG
            if column == 5 and job.ooms:
                colour = palette.FINDING["alert"]
            cell.setForeground(QtGui.QColor(colour))
        job.cells[0].setData(QtCore.Qt.ItemDataRole.DecorationRole, QtGui.QColor(job.colour))

    def row_texts(self, row: int) -> list[str]:
        return [cell.text() for cell in self.jobs[row].cells]

    def stop(self) -> None:
        """Closing the overview's tab: it stops listening; the jobs' own tabs go on."""
        self._timer.stop()
        for view in self.views():
            view.updated.disconnect(self._view_updated)
            view.destroyed.disconnect(self._view_destroyed)


def _size(value: int | None) -> str:
    return "" if value is None else size(value)


def _exact(value: int | None) -> str:
    return (
        ""
        if value is None
        else QtCore.QCoreApplication.translate("LiveGrid", "{size} ({bytes} bytes)").format(
            size=size(value), bytes=num(value)
        )
    )
