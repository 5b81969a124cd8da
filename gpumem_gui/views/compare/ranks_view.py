"""RanksView: a folder of per-rank snapshots as a table and a bar chart of peak reserved (File > Open Folder)."""

from __future__ import annotations

import statistics
from collections.abc import Callable
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

from gpumem_gui.core.analysis.rank_groups import Z_THRESHOLD
from gpumem_gui.core.analysis.ranks import FileSummary, RanksTable, oom_flag
from gpumem_gui.core.snapshot.errors import printable
from gpumem_gui.sources.rank_cluster import ClusterReader, DaskMissing
from gpumem_gui.sources.rank_folder import FileDone, RankFolderJob
from gpumem_gui.sources.words import as_is, say
from gpumem_gui.teach.translatable import QT_TRANSLATE_NOOP
from gpumem_gui.views.common import palette
from gpumem_gui.views.common.language import Retranslated, count, num, pct, size, unit_word
from gpumem_gui.views.common.sentences import said
from gpumem_gui.views.common.table_model import ColumnsModel, sortable_rows
from gpumem_gui.views.common.tasks import RANKS_TASK, TaskContext, TaskGroup, one_line
from gpumem_gui.views.compare.rank_curves import RankCurves, flag_text, rank_colour
from gpumem_gui.views.compare.rank_pins import RankPins

COLUMNS = (
    QT_TRANSLATE_NOOP("RanksView", "rank"),
    QT_TRANSLATE_NOOP("RanksView", "step"),
    QT_TRANSLATE_NOOP("RanksView", "file"),
    QT_TRANSLATE_NOOP("RanksView", "device"),
    QT_TRANSLATE_NOOP("RanksView", "peak reserved"),
    QT_TRANSLATE_NOOP("RanksView", "peak allocated"),
    QT_TRANSLATE_NOOP("RanksView", "final reserved"),
    QT_TRANSLATE_NOOP("RanksView", "final allocated"),
    "OOMs",
    QT_TRANSLATE_NOOP("RanksView", "frag. at peak"),
    QT_TRANSLATE_NOOP("RanksView", "flags"),
)
FILE_COLUMN = 2
_SORT_ROLE = QtCore.Qt.ItemDataRole.UserRole
_RIGHT = QtCore.Qt.AlignmentFlag.AlignRight | QtCore.Qt.AlignmentFlag.AlignVCenter
# short, so that the file column keeps the width: the tooltip and the status line say what they mean
_FLAG_NAMES = {"peak_reserved_bytes": "high res.", "peak_allocated_bytes": "high alloc."}
MAX_ERRORS_SHOWN = 4


def _tr(text: str) -> str:
    return QtCore.QCoreApplication.translate("RanksView", text)


def outlier_words() -> str:
    return QtCore.QCoreApplication.translate(
        "RanksView", "a peak whose modified z-score among its step and stage is above {z}"
    ).format(z=num(Z_THRESHOLD, 1))


def _span(us: int | None) -> str:
    if us is None:
        return ""
    if us >= 100_000:
        return QtCore.QCoreApplication.translate("RanksView", " over {seconds} s").format(seconds=num(us / 1e6, 1))
    return QtCore.QCoreApplication.translate("RanksView", " over {ms} ms").format(ms=num(us / 1e3, 1))


def _exact(n: int) -> str:
    return QtCore.QCoreApplication.translate("RanksView", "{size} ({bytes} bytes)").format(size=size(n), bytes=num(n))


def _relative(path: str, folder: str) -> str:
    """The path below the folder, printable: a name's newline, terminal escape or bytes that are not UTF-8 show as
    backslash escapes (Qt would break the row, or silently drop the bytes and show another name)."""
    prefix = folder.rstrip("/\\") + "/"
    return printable(path[len(prefix) :] if folder and path.startswith(prefix) else path)


class RanksModel(ColumnsModel):
    """One row per file, in order of rank and step; flags from the finished table (none while files arrive)."""

    columns = COLUMNS

    def __init__(self) -> None:
        super().__init__()
        self.entries: list[FileSummary] = []
        self.entry_flags: list[list[str]] = []
        self.folder = ""

    def set_entries(self, entries: list[FileSummary], table: RanksTable | None, folder: str) -> None:
        self.beginResetModel()
        self.entries = list(entries)
        self.folder = folder
        self.entry_flags = []
        for e in self.entries:
            flags = [oom_flag(e)] if e.oom_events else []
            flags += [_FLAG_NAMES[m] for m in table.flags(e)] if table is not None else []
            self.entry_flags.append(flags)
        self.endResetModel()

    def row_count(self) -> int:
        return len(self.entries)

    def headerData(self, section: int, orientation: Any, role: int = 0) -> Any:
        header = super().headerData(section, orientation, role)
        return _tr(header) if isinstance(header, str) else header

    def data(self, index: QtCore.QModelIndex | QtCore.QPersistentModelIndex, role: int = 0) -> Any:
        e = self.entries[index.row()]
        flags = self.entry_flags[index.row()]
        column = index.column()
        if role == QtCore.Qt.ItemDataRole.DisplayRole:
            return (
                str(e.rank) if e.rank_from_name else f"({e.rank})",
                "" if e.step is None else str(e.step),
                _relative(e.file, self.folder),
                str(e.device),
                size(e.peak_reserved_bytes),
                size(e.peak_allocated_bytes),
                size(e.reserved_bytes),
                size(e.allocated_bytes),
                num(e.oom_events),
                pct(e.external_fragmentation, 1),
                ", ".join(map(flag_text, flags)),
            )[column]
        if role == _SORT_ROLE:
            return (
                e.rank,
                -1 if e.step is None else e.step,
                e.file,
                e.device,
                e.peak_reserved_bytes,
                e.peak_allocated_bytes,
                e.reserved_bytes,
                e.allocated_bytes,
                e.oom_events,
                e.external_fragmentation,
                len(flags),
            )[column]
        if role == QtCore.Qt.ItemDataRole.TextAlignmentRole and column not in (FILE_COLUMN, len(COLUMNS) - 1):
            return _RIGHT
        if role == QtCore.Qt.ItemDataRole.BackgroundRole and flags:
            return QtGui.QColor(palette.FINDING_BACK["alert" if e.oom_events else "warn"])
        if role == QtCore.Qt.ItemDataRole.ToolTipRole:
            if e.rank_from_name:
                rank = QtCore.QCoreApplication.translate(
                    "RanksView", "rank {rank}: from the file's name or its metadata"
                )
            else:
                rank = QtCore.QCoreApplication.translate(
                    "RanksView", "rank {rank}: the device index (nothing names it)"
                )
            at = (
                QtCore.QCoreApplication.translate("RanksView", "the start")
                if e.peak_event < 0
                else QtCore.QCoreApplication.translate("RanksView", "event {event}").format(event=num(e.peak_event))
            )
            lines = [
                printable(e.file),
                rank.format(rank=e.rank),
                QtCore.QCoreApplication.translate(
                    "RanksView", "device {device}: the one that reserved the most at its peak"
                ).format(device=e.device),
                QtCore.QCoreApplication.translate("RanksView", "peak reserved {size} (at {at} of {events})").format(
                    size=_exact(e.peak_reserved_bytes), at=at, events=num(e.trace_events)
                ),
                QtCore.QCoreApplication.translate("RanksView", "peak allocated {size}").format(
                    size=_exact(e.peak_allocated_bytes)
                ),
                QtCore.QCoreApplication.translate("RanksView", "trace: {events} {events:event|events}{span}").format(
                    events=count(e.trace_events), span=_span(e.span_us)
                ),
            ]
            if flags:
                lines.append(
                    QtCore.QCoreApplication.translate("RanksView", "flags: {flags} (high: {words})").format(
                        flags=", ".join(map(flag_text, flags)), words=outlier_words()
                    )
                )
            return "\n".join(
                [*lines, QtCore.QCoreApplication.translate("RanksView", "double-click to open it at its peak")]
            )
        return None


class RankBars(pg.PlotWidget):  # pyqtgraph ships no types
    """Peak reserved per file as bars in the table's order; OOM and outlier bars coloured, picked ones outlined.
    `bar_clicked(i)`: the i-th entry's bar was clicked."""

    bar_clicked = QtCore.Signal(int)

    def __init__(self) -> None:
        super().__init__(background=palette.PLOT_BACKGROUND)
        self.setMenuEnabled(False)
        self.setMouseEnabled(x=False, y=False)
        self.hideButtons()
        self.getAxis("left").enableAutoSIPrefix(False)
        for side in ("left", "bottom"):
            self.getAxis(side).setPen(palette.TEXT_MUTED)
            self.getAxis(side).setTextPen(palette.TEXT)
        self.showGrid(x=False, y=True, alpha=0.25)
        self.heights = np.zeros(0)
        self.brushes: list[str] = []
        self.item = pg.BarGraphItem(x=[], height=[], width=0.8)
        self.addItem(self.item)
        self.median_line = pg.InfiniteLine(
            angle=0,
            movable=False,
            pen=pg.mkPen(palette.REFERENCE_LINE, width=1, style=QtCore.Qt.PenStyle.DashLine),
            label=QtCore.QCoreApplication.translate("RanksView", "median"),
            labelOpts={"position": 0.02, "color": palette.TEXT_MUTED, "anchors": [(0, 1), (0, 1)]},
        )
        self.median_line.setVisible(False)
        self.addItem(self.median_line)
        self.scene().sigMouseClicked.connect(self._clicked)
        self.setMinimumHeight(140)

    def set_entries(self, entries: list[FileSummary], flags: list[list[str]], picked: set[int]) -> None:
        peaks = np.array([e.peak_reserved_bytes for e in entries], dtype=np.float64)
        top = float(peaks.max()) if len(peaks) else 0.0
        unit, name = (2**30, "GiB") if top >= 2**30 else (2**20, "MiB")
        self.heights = peaks / unit
        self.median_line.label.setFormat(QtCore.QCoreApplication.translate("RanksView", "median"))
        self.brushes = [rank_colour(f) for f in flags]
        pens = [
            pg.mkPen(palette.RANK_BAR_PICKED, width=2) if i in picked else pg.mkPen(None) for i in range(len(entries))
        ]
        # pyqtgraph's BarGraphItem fails on empty lists of pens: no bars, no lists
        self.item.setOpts(
            x=np.arange(len(entries)),
            height=self.heights,
            width=0.8,
            brushes=self.brushes or None,
            pens=pens or None,
        )
        self.getAxis("left").setLabel(
            QtCore.QCoreApplication.translate("RanksView", "peak reserved ({unit})").format(unit=unit_word(name)),
            color=palette.TEXT,
        )
        steps = len({e.step for e in entries}) > 1  # one step for all: it goes without saying on every bar
        width = max((len(_bar_label(e, steps)) for e in entries), default=1)
        every = max(1, int(np.ceil(len(entries) * (width + 1) / 160)))  # labels that do not run into each other
        labels = [(i, _bar_label(e, steps)) for i, e in enumerate(entries) if i % every == 0]
        self.getAxis("bottom").setTicks([labels, []])
        self.getAxis("bottom").setLabel(
            QtCore.QCoreApplication.translate("RanksView", "rank:step")
            if steps
            else QtCore.QCoreApplication.translate("RanksView", "rank")
        )
        if len(peaks) >= 2 and not steps:  # outliers are measured against their own step's median, not this one
            self.median_line.setPos(statistics.median(self.heights.tolist()))
            self.median_line.setVisible(True)
        else:
            self.median_line.setVisible(False)
        self.setXRange(-0.6, max(len(entries), 1) - 0.4, padding=0)
        self.setYRange(0, max(float(self.heights.max()) if len(peaks) else 1.0, 1e-9) * 1.05, padding=0)

    def bar_at(self, scene_pos: QtCore.QPointF) -> int | None:
        """The bar under a point of the scene, or None."""
        if not self.plotItem.vb.sceneBoundingRect().contains(scene_pos):
            return None
        p = self.plotItem.vb.mapSceneToView(scene_pos)
        i = round(p.x())
        if 0 <= i < len(self.heights) and abs(p.x() - i) <= 0.4 and 0 <= p.y() <= max(self.heights[i], 0):
            return i
        return None

    def _clicked(self, event: Any) -> None:
        i = self.bar_at(event.scenePos())
        if i is not None:
            self.bar_clicked.emit(i)


def _bar_label(e: FileSummary, steps: bool) -> str:
    rank = f"{e.rank}" if e.rank_from_name else f"({e.rank})"  # (n): the device index, the name has no rank
    return f"{rank}:{'-' if e.step is None else e.step}" if steps else rank


class RanksView(Retranslated):
    """A folder of rank files: read off the GUI thread (rows arrive as files finish), then flagged.

    Double-click a row or click a bar: `open_requested(path, device, peak_event)`; select two rows and press Compare:
    `compare_requested(path_a, device_a, peak_event_a, path_b, device_b, peak_event_b)`: each rank at its peak of
    reserved (its end state may hide the difference: both ranks free down to the same figures).
    """

    open_requested = QtCore.Signal(str, int, int)
    compare_requested = QtCore.Signal(str, int, int, str, int, int)
    loaded = QtCore.Signal(object)  # the RanksTable once every file is read

    def __init__(self, parent: QtWidgets.QWidget | None = None, settings: QtCore.QSettings | None = None) -> None:
        super().__init__(parent)
        self.folder = ""
        self.scheduler: str | None = None  # where the folder was read (a pin added reads it there again)
        self.result: RanksTable | None = None
        self._arrived: list[FileSummary] = []
        self._errors: list[str] = []
        self.curves: dict[str, dict[str, Any]] = {}  # each file's summary curves by its path (the small multiples)
        self._curves_for: list[FileSummary] | None = None  # the model's entries the small multiples show
        self.pinned: dict[str, dict[str, Any]] = {}  # each file's pinned series (rank_summary's `pinned`) by its path
        self.rank_pins = RankPins(settings)  # the folder's pins, above the small multiples
        self.rank_pins.added.connect(self._pin_added)
        self.rank_pins.removed.connect(self._pins_redrawn)
        self.tasks = TaskGroup(self)
        self.status = QtWidgets.QLabel(wordWrap=True)
        self.status_text: Callable[[], str] = lambda: self.tr("Open a folder of per-rank snapshots.")
        self.status.setTextFormat(QtCore.Qt.TextFormat.PlainText)  # a folder's name is never markup
        self.status.setStyleSheet(f"color:{palette.TEXT_STRONG};")
        self.progress = QtWidgets.QProgressBar()
        self.progress.setVisible(False)
        self.bars = RankBars()
        self.bars.bar_clicked.connect(self._bar_clicked)
        self.model = RanksModel()
        self.table, self.proxy = sortable_rows(
            self,
            self.model,
            _SORT_ROLE,
            sort=(0, QtCore.Qt.SortOrder.AscendingOrder),
            selection=QtWidgets.QAbstractItemView.SelectionMode.ExtendedSelection,
            elide=QtCore.Qt.TextElideMode.ElideMiddle,  # a long path keeps its folder and name
        )
        header = self.table.horizontalHeader()
        # every column as wide as its figures and flags; the file's name takes what is left (elided in its middle)
        header.setSectionResizeMode(QtWidgets.QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(FILE_COLUMN, QtWidgets.QHeaderView.ResizeMode.Stretch)
        self.table.doubleClicked.connect(self._double_clicked)
        self.table.selectionModel().selectionChanged.connect(self._selection_changed)
        self.errors = QtWidgets.QLabel(wordWrap=True)
        self.errors.setTextFormat(QtCore.Qt.TextFormat.PlainText)
        self.errors.setStyleSheet(f"color:{palette.WARNING_TEXT};")
        self.errors.setVisible(False)
        self.open_button = QtWidgets.QPushButton()
        self.open_button.clicked.connect(self._open_selected)
        self.compare_button = QtWidgets.QPushButton()
        self.compare_button.clicked.connect(self._compare_selected)
        buttons = QtWidgets.QHBoxLayout()
        buttons.addWidget(self.errors, 1)
        buttons.addStretch(0)
        buttons.addWidget(self.open_button)
        buttons.addWidget(self.compare_button)
        self.rank_curves = RankCurves()
        curves_column = self.rank_curves.layout()
        assert isinstance(curves_column, QtWidgets.QVBoxLayout)
        curves_column.insertWidget(0, self.rank_pins)
        self.charts = QtWidgets.QTabWidget()
        self.charts.addTab(self.bars, "")
        self.charts.addTab(self.rank_curves, "")
        self.charts.currentChanged.connect(self._chart_shown)  # a method, not a lambda: the closed tab is freed
        splitter = QtWidgets.QSplitter(QtCore.Qt.Orientation.Vertical)
        splitter.addWidget(self.charts)
        splitter.addWidget(self.table)
        splitter.setStretchFactor(0, 2)
        splitter.setStretchFactor(1, 3)
        splitter.setChildrenCollapsible(False)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.status)
        layout.addWidget(self.progress)
        layout.addWidget(splitter, 1)
        layout.addLayout(buttons)
        self._selection_changed()
        self.retranslate()

    def retranslate(self) -> None:
        """Every text of the ranks tab in the window's language: the rows, bars and small plots worded again."""
        self.progress.setFormat(self.tr("%v of %m files"))  # n of N: rows fill in as each file's summary arrives
        self.open_button.setText(self.tr("Open"))
        self.open_button.setToolTip(self.tr("Open the selected file (or double-click its row, or click its bar)"))
        self.compare_button.setText(self.tr("Compare"))
        self.compare_button.setToolTip(
            self.tr("Compare the two selected files block by block, each at its peak of reserved")
        )
        self.charts.setTabText(0, self.tr("Peaks"))
        self.charts.setTabText(1, self.tr("Curves"))
        self.charts.setTabToolTip(1, self.tr("Every rank's reserved memory over its events, small plots on one scale"))
        self.status.setText(self.status_text())
        self.model.headerDataChanged.emit(QtCore.Qt.Orientation.Horizontal, 0, len(COLUMNS) - 1)
        self.model.dataChanged.emit(
            self.model.index(0, 0), self.model.index(self.model.rowCount() - 1, len(COLUMNS) - 1)
        )
        self._show_errors(self._errors if self.result is None else self.result.errors)
        self._curves_for = None
        self._redraw()

    def _set_status(self, text: Callable[[], str]) -> None:
        """The status line `text()` words, worded again after a language switch."""
        self.status_text = text
        self.status.setText(text())

    # -- loading -----------------------------------------------------------------------------------------------

    def load_folder(self, folder: str, scheduler: str | None = None) -> None:
        """Read every snapshot in `folder` in worker processes, or on the Dask cluster whose scheduler is at
        `scheduler` (tcp://HOST:PORT); rows appear as files finish."""
        self.tasks.cancel_all()
        self.folder, self.scheduler = folder, scheduler
        if self.rank_pins.folder != folder:
            self.rank_pins.set_folder(folder)
        pins = self.rank_pins.keys()
        self.result = None
        self._arrived, self._errors = [], []
        curves: dict[str, dict[str, Any]] = {}  # filled in the task's thread, each before its file's FileDone is sent
        pinned: dict[str, dict[str, Any]] = {}
        sites: dict[str, int] = {}  # the sites the summaries name at their peaks: how many ranks name each
        self.curves, self.pinned = curves, pinned
        self._show(None)
        self._set_status(lambda: self.tr("Reading the snapshots in {folder} ...").format(folder=printable(folder)))
        self.progress.setRange(0, 0)
        self.progress.setVisible(True)

        def keep_curves(path: str, _relative: str, result: dict[str, Any] | str) -> None:
            if isinstance(result, dict) and "curves" in result:
                file = str(result.get("file", path))  # a merged summary file's rank file, as the table names it
                curves[file] = result["curves"]
                pinned[file] = result.get("pinned") or {}
                for site in result.get("top_sites") or []:
                    sites[site["site"]] = sites.get(site["site"], 0) + 1

        def work(ctx: TaskContext) -> RanksTable | str:
            cluster = connect_cluster(scheduler) if scheduler is not None else None
            if isinstance(cluster, str):
                return cluster  # why not, in one line
            try:
                job = RankFolderJob(folder, cluster=cluster, pins=pins)
                ctx.on_cancel(job.cancel)
                ctx.check()
                ctx.progress(FileDone(0, job.total, None, None))
                return job.run(ctx.progress, keep_curves)
            finally:
                if cluster is not None:
                    cluster.close()

        def done(result: RanksTable | str) -> None:
            if isinstance(result, str):
                self._failed(result)
            else:
                self.rank_pins.offer_sites(sorted(sites, key=lambda site: (-sites[site], site)))
                self.set_table(result)

        self.tasks.start(
            say(RANKS_TASK, folder=as_is(folder)),
            work,
            on_result=done,
            on_progress=self._file_done,
            on_error=self._failed,
        )

    def cancel(self) -> None:
        self.tasks.cancel_all()
        self.progress.setVisible(False)

    def shutdown(self) -> None:
        """The window closes this tab: the workers still reading are killed."""
        self.cancel()

    def _file_done(self, done: FileDone) -> None:
        self.progress.setRange(0, max(done.total, 1))
        self.progress.setValue(done.done)
        if done.summary is not None:
            self._arrived.append(done.summary)
        if done.error is not None:
            self._errors.append(done.error)
        self._set_status(
            lambda: self.tr("Reading {folder}: {done} of {total} files ...").format(
                folder=printable(self.folder), done=num(done.done), total=num(done.total)
            )
        )
        if done.summary is not None:
            order = sorted(self._arrived, key=lambda e: (e.rank, -1 if e.step is None else e.step, e.file))
            self.model.set_entries(order, None, self.folder)
            self._redraw()
        self._show_errors(self._errors)

    def _failed(self, message: str) -> None:
        self.progress.setVisible(False)
        self._set_status(lambda: self.tr("Could not read the folder: {message}").format(message=said(message)))

    def set_table(self, table: RanksTable, folder: str | None = None) -> None:
        """Show a finished table (what load_folder ends with; tests and scripts may hand one directly)."""
        if folder is not None:
            self.folder = folder
        self.result = table
        self.progress.setVisible(False)
        self._show(table)
        self.loaded.emit(table)

    def _show(self, table: RanksTable | None) -> None:
        self.model.set_entries(table.entries if table is not None else [], table, self.folder)
        self._redraw()
        self._show_errors(table.errors if table is not None else [])
        if table is not None:
            self._set_status(lambda: _summary(table, self.folder))

    def _show_errors(self, errors: list[str]) -> None:
        self.errors.setVisible(bool(errors))
        # the reader's own words quoted as they are (the command line prints the same)
        lines = [self.tr("unreadable: “{error}”").format(error=printable(said(e))) for e in errors]
        shown = lines[:MAX_ERRORS_SHOWN]
        if len(errors) > MAX_ERRORS_SHOWN:
            shown.append(self.tr("and {n} more (see the tooltip)").format(n=num(len(errors) - MAX_ERRORS_SHOWN)))
        self.errors.setText("\n".join(shown))
        self.errors.setToolTip("\n".join(lines))

    # -- the chart and the selection -------------------------------------------------------------------------

    def _picked_rows(self) -> list[int]:
        """Model rows of the selected table rows, in the table's order."""
        rows = sorted(self.table.selectionModel().selectedRows(), key=lambda i: i.row())
        return [self.proxy.mapToSource(i).row() for i in rows]

    def _redraw(self) -> None:
        self.bars.set_entries(self.model.entries, self.model.entry_flags, set(self._picked_rows()))
        # drawn when shown, once per new set of rows (not at each click): a plot per rank is slower than the bars
        if self.charts.currentWidget() is self.rank_curves and self._curves_for is not self.model.entries:
            self._curves_for = self.model.entries
            self.rank_curves.set_entries(
                self.model.entries, self.model.entry_flags, self.curves, self.pinned, self.rank_pins.pins
            )

    def _chart_shown(self, _index: int) -> None:
        self._redraw()

    def _pin_added(self, _pin: object) -> None:
        """A pin the summaries have not: they are made again with its series, in the background (the cached
        summaries that have every pin's series answer at once)."""
        if self.folder:
            self.load_folder(self.folder, self.scheduler)

    def _pins_redrawn(self, _pin: object = None) -> None:
        self._curves_for = None
        self._redraw()

    def _selection_changed(self, *_args: object) -> None:
        picked = self._picked_rows()
        self.open_button.setEnabled(len(picked) == 1)
        self.compare_button.setEnabled(len(picked) == 2)
        self._redraw()

    def _bar_clicked(self, row: int) -> None:
        self.table.selectRow(self.proxy.mapFromSource(self.model.index(row, 0)).row())
        self._open(self.model.entries[row])

    def _double_clicked(self, index: QtCore.QModelIndex) -> None:
        self._open(self.model.entries[self.proxy.mapToSource(index).row()])

    def _open_selected(self) -> None:
        picked = self._picked_rows()
        if len(picked) == 1:
            self._open(self.model.entries[picked[0]])

    def _open(self, e: FileSummary) -> None:
        self.rank_pins.carry_to(e.file)  # its tab pins what the folder pins
        self.open_requested.emit(e.file, e.device, e.peak_event)

    def _compare_selected(self) -> None:
        picked = self._picked_rows()
        if len(picked) == 2:
            a, b = (self.model.entries[r] for r in picked)
            self.compare_requested.emit(a.file, a.device, a.peak_event, b.file, b.device, b.peak_event)


def connect_cluster(scheduler: str) -> ClusterReader | str:
    """A client of the Dask scheduler at `scheduler`, or the one line why not (Dask missing, nothing answering)."""
    try:
        return ClusterReader.connect(scheduler)
    except DaskMissing:
        return QtCore.QCoreApplication.translate(
            "RanksView",
            "reading on a cluster needs Dask: pip install 'gpumem-gui[cluster]' (or: pip install 'dask[distributed]')",
        )
    except (OSError, TimeoutError, ValueError) as e:  # refused, timed out, an address Dask cannot parse
        return QtCore.QCoreApplication.translate(
            "RanksView", "cannot reach the Dask scheduler {scheduler}: {error}"
        ).format(scheduler=printable(scheduler), error=one_line(e))


def _summary(table: RanksTable, folder: str) -> str:
    folder = printable(folder)
    n = len(table.entries)
    if not n and not table.errors:
        return QtCore.QCoreApplication.translate("RanksView", "No snapshot files in {folder}.").format(folder=folder)
    ranks = len({e.rank for e in table.entries})
    text = QtCore.QCoreApplication.translate(
        "RanksView", "{folder}: {files} {files:file|files}, {ranks} {ranks:rank|ranks}."
    ).format(folder=folder, files=count(n), ranks=count(ranks))
    if table.oom_ranks:
        text += " " + QtCore.QCoreApplication.translate("RanksView", "Out of memory on rank {ranks} (red).").format(
            ranks=", ".join(map(str, table.oom_ranks))
        )
    outliers = sorted({o.rank for o in table.outliers})
    if outliers:
        text += " " + QtCore.QCoreApplication.translate(
            "RanksView", "Outliers ({words}): rank {ranks} (orange)."
        ).format(words=outlier_words(), ranks=", ".join(map(str, outliers)))
    for imbalance in table.imbalance:
        text += f" {imbalance.text}."  # core's sentence, in English: the command line prints the same
    if table.errors:
        text += " " + QtCore.QCoreApplication.translate(
            "RanksView", "{files} {files:file|files} could not be read."
        ).format(files=count(len(table.errors)))
    return text
