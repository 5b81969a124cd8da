"""SiteTimelineView: allocated memory over the trace, stacked by allocation site (or category, stream, pool)."""

from __future__ import annotations

import html
import threading
from collections.abc import Callable, Mapping, Sequence

import numpy as np
import numpy.typing as npt
import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

from gpumem_gui.core.analysis.site_series import (
    GROUPINGS,
    OTHER_SITES,
    Band,
    BandSeries,
    SiteSeries,
    build_bands,
    total_index,
)
from gpumem_gui.core.analysis.timetravel import DeviceTimeline
from gpumem_gui.core.snapshot.model import AllocatorState, Frame, Snapshot
from gpumem_gui.core.snapshot.stacks import NAMELESS_SITES, short_site
from gpumem_gui.core.snapshot.units import format_bytes
from gpumem_gui.document.curves import memory_unit, steps
from gpumem_gui.views.common import palette
from gpumem_gui.views.common.band_side_panel import BandSidePanel
from gpumem_gui.views.common.hover_stack import StackPopup, host_point
from gpumem_gui.views.common.language import (
    QT_TRANSLATE_NOOP,
    Retranslated,
    category_word,
    filled,
    localized,
    site_words,
    translate,
    unit_word,
)
from gpumem_gui.views.common.paint_pass import PaintWait
from gpumem_gui.views.common.rich_text import rich_text
from gpumem_gui.views.common.tasks import TaskContext, TaskGroup
from gpumem_gui.views.diagnosis.breakdown_view import pool_word
from gpumem_gui.views.snapshot.light_plot import light_plot
from gpumem_gui.views.snapshot.step_bands import StepBand
from gpumem_gui.views.snapshot.timeline import MIN_PLOT_HEIGHT, ScrubViewBox

_KIND_LABELS = {
    "site": QT_TRANSLATE_NOOP("SiteTimeline", "by allocation site"),
    "category": QT_TRANSLATE_NOOP("SiteTimeline", "by category"),
    "stream": QT_TRANSLATE_NOOP("SiteTimeline", "by stream"),
    "pool": QT_TRANSLATE_NOOP("SiteTimeline", "by pool"),
    "metadata": QT_TRANSLATE_NOOP("SiteTimeline", "by metadata"),
}
_CLICK = QT_TRANSLATE_NOOP("SiteTimeline", "Click a band for its site, its stack and its bytes.")
_REDRAW_MS = 30  # a burst of range changes (a wheel turn, a drag) is re-sampled once, this long after it stops


class _BandViewBox(ScrubViewBox):
    """ScrubViewBox (a left click or drag travels) that also says where a left click landed, to pick a band."""

    clicked = QtCore.Signal(float, float)

    def mouseClickEvent(self, ev: pg.GraphicsScene.mouseEvents.MouseClickEvent) -> None:
        at = self.mapSceneToView(ev.scenePos())
        super().mouseClickEvent(ev)  # travel first: a band's spotlight is for the moment travelled to
        if ev.button() == QtCore.Qt.MouseButton.LeftButton:
            self.clicked.emit(at.x(), at.y())


def band_colour(band: Band, index: int) -> str:
    """The other sites and the blocks without frames in greys; every other band a site hue, dark and light in turn,
    so that two neighbours never share a shade."""
    if band.key == OTHER_SITES:
        return palette.SITE_BAND_OTHER
    if band.key in NAMELESS_SITES:  # unknown, before recording, backward without frames: no site's hue
        return palette.SITE_BAND_UNKNOWN
    dark, light = palette.SITE_HUES[index % len(palette.SITE_HUES)]
    return dark if index % 2 == 0 else light


def short_label(label: str) -> str:
    """A site without the folders of the user's files (`model.py:12:forward via einops/_backends.py:288:einsum`);
    the legend's tooltip has the whole path."""
    return short_site(label)


def band_name(kind: str, label: str, short: bool = False) -> str:
    """A band's label as the window shows it, in its language: a category's name, a site's core words (the code it
    names as it is; `short`: without the folders of the user's files). The label itself stays the band's key."""
    if kind == "category":
        return category_word(label)
    if kind == "site":
        return site_words(short_label(label) if short else label)
    if kind == "pool":  # site_series.pool_names: breakdown's names ("large", "private (1, 2)", "unknown")
        return translate("Breakdown", "{pool} pool").format(pool=pool_word(label))
    return label  # a stream ("stream 7" in every language) or the file's own metadata


def site_plot() -> pg.PlotWidget:
    """The site timeline's plot alone, without the options menu's widgets (nor its view box's: they cost a stall to
    make); about half of the view's making."""
    return light_plot(palette.PLOT_BACKGROUND, _BandViewBox(enableMenu=False))


class SiteTimelineView(Retranslated):
    """Bands of live bytes, stacked, over the trace's events; a legend with each band's bytes at the cursor and at
    its own peak; a click travels there and picks the band under the pointer (its site, stack and bytes shown)."""

    event_selected = QtCore.Signal(int)
    band_selected = QtCore.Signal(str, object, str)  # grouping, band key, band label

    def __init__(self, parent: QtWidgets.QWidget | None = None, *, plot: pg.PlotWidget | None = None) -> None:
        """`plot`: its plot made in an earlier turn of the event loop (`site_plot`; a tab is made over several)."""
        super().__init__(parent)
        self.snapshot: Snapshot | None = None
        self.timeline: DeviceTimeline | None = None
        self.groupings: dict[str, BandSeries] = {}
        self.kind = "site"
        self.current_event = -1
        self.selected: int | None = None  # the band picked, an index into the shown grouping's bands
        self._gate = threading.Event()  # set while the task may compute: see _compute
        self.tasks = TaskGroup(self)  # the groupings are computed on the one task mechanism
        self._drawn_events = np.zeros(0, np.float64)  # x of the drawn points: events, then the right edge
        self._drawn_tops = np.zeros((0, 0))  # the stacked tops of the bands at the drawn events, in axis units
        self._seams = True
        self._drawn_for: tuple[float, float, int] | None = None  # the x range and columns last drawn (_draw)
        self.unit, self.unit_scale = memory_unit(0)

        self.kind_box = QtWidgets.QComboBox()
        for kind in GROUPINGS:
            self.kind_box.addItem(_KIND_LABELS[kind], kind)
        self.kind_box.currentIndexChanged.connect(lambda _i: self.set_kind(self.kind_box.currentData()))
        self.status = QtWidgets.QLabel()
        self.status.setStyleSheet(f"color: {palette.TEXT_MUTED}")

        self.plot = plot if plot is not None else site_plot()
        self.view_box: _BandViewBox = self.plot.getViewBox()
        self.plot.setMinimumHeight(MIN_PLOT_HEIGHT)
        self.view_box.setMouseEnabled(x=True, y=False)  # the wheel zooms in time; the height follows the view
        self.view_box.enableAutoRange(y=True)
        self.view_box.setAutoVisible(y=True)
        for side in ("left", "bottom"):
            self.plot.getAxis(side).setCacheMode(QtWidgets.QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self.plot.getAxis("left").enableAutoSIPrefix(False)
        self.plot.setLabel("left", translate("SiteTimeline", "allocated ({unit})").format(unit=unit_word(self.unit)))
        self.plot.setLabel("bottom", translate("SiteTimeline", "trace event"))
        self.curves: list[StepBand] = []
        # the picked band, outlined and filled over the stack between its own lower and upper edges: raising its
        # curve (filled down to zero) would hide every band under it and read as a band from zero to its top
        self.selection_fill = pg.PlotCurveItem(pen=pg.mkPen(palette.FOCUS, width=2), fillLevel="enclosed")
        self.selection_fill.setZValue(5)  # over the bands, under the cursor
        self.selection_fill.setVisible(False)
        self.plot.addItem(self.selection_fill)
        self.cursor_line = pg.InfiniteLine(angle=90, movable=True, pen=pg.mkPen(palette.CURSOR, width=1))
        self.cursor_line.setZValue(10)
        self.cursor_line.sigPositionChanged.connect(self._cursor_moved)
        self.plot.addItem(self.cursor_line)
        self.view_box.scrubbed.connect(self.cursor_line.setValue)
        self.view_box.clicked.connect(self._clicked)
        self.plot.scene().sigMouseMoved.connect(self._hovered)
        self.popup = StackPopup(self)  # the stack of the band under the pointer; a click pins it
        self._emitting = True
        self._redraw = QtCore.QTimer(self, singleShot=True, interval=_REDRAW_MS)
        self._redraw.timeout.connect(self._draw)
        # a grouping's bands drawn in a turn of their own, not that of the window's paint (one stall of both)
        self._first_draw = QtCore.QTimer(self, singleShot=True, interval=0)
        self._first_draw.timeout.connect(self._draw_after_paint)
        self._paint_wait = PaintWait(self)
        self.view_box.sigXRangeChanged.connect(self._redraw.start)
        self.view_box.sigResized.connect(self._redraw.start)

        self.legend = QtWidgets.QTableWidget(0, 3)

        self.legend.verticalHeader().setVisible(False)
        self.legend.setEditTriggers(QtWidgets.QAbstractItemView.EditTrigger.NoEditTriggers)
        self.legend.setSelectionBehavior(QtWidgets.QAbstractItemView.SelectionBehavior.SelectRows)
        self.legend.setSelectionMode(QtWidgets.QAbstractItemView.SelectionMode.SingleSelection)
        self.legend.setWordWrap(False)
        self.legend.setTextElideMode(QtCore.Qt.TextElideMode.ElideMiddle)
        self.legend.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 6)
        header = self.legend.horizontalHeader()
        header.setSectionResizeMode(0, QtWidgets.QHeaderView.ResizeMode.Stretch)
        for column in (1, 2):
            header.setSectionResizeMode(column, QtWidgets.QHeaderView.ResizeMode.ResizeToContents)
        self.legend.cellClicked.connect(lambda row, _column: self.select_band(row))
        panel = BandSidePanel(self.legend, translate("SiteTimeline", _CLICK))
        self.info, self.stack = panel.info, panel.stack

        plot_side = QtWidgets.QWidget()
        plot_layout = QtWidgets.QVBoxLayout(plot_side)
        plot_layout.setContentsMargins(0, 0, 0, 0)
        top = QtWidgets.QHBoxLayout()
        self.title = QtWidgets.QLabel()
        top.addWidget(self.title)
        top.addWidget(self.kind_box)
        top.addWidget(self.status, 1)
        plot_layout.addLayout(top)
        plot_layout.addWidget(self.plot, 1)
        self.splitter = QtWidgets.QSplitter(QtCore.Qt.Orientation.Horizontal)
        self.splitter.addWidget(plot_side)
        self.splitter.addWidget(panel)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)
        self.splitter.setSizes([900, 480])
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.splitter)
        self.retranslate()

    def retranslate(self) -> None:
        self.legend.setHorizontalHeaderLabels(
            [
                translate("SiteTimeline", "band"),
                translate("SiteTimeline", "at cursor"),
                translate("SiteTimeline", "own peak"),
            ]
        )
        self.title.setText(translate("SiteTimeline", "Allocated memory"))
        for i in range(self.kind_box.count()):
            self.kind_box.setItemText(i, translate("SiteTimeline", _KIND_LABELS[self.kind_box.itemData(i)]))
        self.plot.setLabel("left", translate("SiteTimeline", "allocated ({unit})").format(unit=unit_word(self.unit)))
        self.plot.setLabel("bottom", translate("SiteTimeline", "trace event"))
        if self.bands is not None and self.timeline is not None:  # the status line and the legend's figures
            bands = self.bands
            fields = {"bands": str(len(bands.bands)), "events": f"{self.timeline.n_events:,}"}
            line = translate("SiteTimeline", "{bands} {bands:band|bands} over {events} {events:event|events}")
            self.status.setText(filled(line, fields))
            self._fill_legend(bands)
            self.set_event(self.current_event, emit=False)
        if self.selected is not None:
            self._show_details()
        else:  # the hint, also on a page not shown yet (its document comes when it is first shown)
            self.info.setText(translate("SiteTimeline", _CLICK))

    # -- the document ----------------------------------------------------------------------------------------------

    def set_document(
        self,
        snapshot: Snapshot,
        timeline: DeviceTimeline,
        series: SiteSeries | None = None,
        event: int | None = None,
        *,
        compute: bool = True,
    ) -> None:
        """Show `timeline`'s bands: those of `series` where given, else computed on a worker thread (the grouping
        shown first), drawn as each arrives; with `compute` False, none are computed (another process is making them:
        set_document hands them over). The cursor goes to `event` (default: the last event)."""
        self.snapshot, self.timeline = snapshot, timeline
        self.groupings = dict(series.groupings) if series is not None else {}
        self.selected = None
        self.current_event = timeline.n_events - 1 if event is None else event
        self.unit, self.unit_scale = memory_unit(timeline.series.peak("allocated"))
        self.plot.setLabel("left", translate("SiteTimeline", "allocated ({unit})").format(unit=unit_word(self.unit)))
        self._clear_details()
        self.set_event(self.current_event, emit=False)
        missing = [k for k in (self.kind, *GROUPINGS) if k not in self.groupings]
        # another document (or device) replaces this one: the work of the older is wasted, and none of it arrives
        self.tasks.cancel_latest("timeline by site")
        if missing and compute:
            self._gate = threading.Event()
            gate, kinds = self._gate, list(dict.fromkeys(missing))
            self.tasks.start_latest(
                "timeline by site",
                lambda ctx: self._compute(ctx, gate, snapshot, timeline, kinds),
                on_progress=self._arrived,
                on_error=self._failed,
            )
        self._show_kind(fit=True)

    def _compute(
        self,
        ctx: TaskContext,
        gate: threading.Event,
        snapshot: Snapshot,
        timeline: DeviceTimeline,
        kinds: Sequence[str],
    ) -> None:
        """A task: each grouping in turn, handed to the GUI thread as progress. The task waits while the GUI thread
        draws what it handed over: both wanting the GIL at once, every Qt call of the GUI thread would wait for it,
        and a 10 ms drawing would become a stall of 50."""
        ctx.on_cancel(gate.set)  # a cancelled task waits for no drawing
        index = total_index(timeline)
        for kind in kinds:
            ctx.check()
            bands = build_bands(snapshot, timeline, kind, index=index)
            gate.clear()
            ctx.progress(bands)
            gate.wait(timeout=1.0)

    def _failed(self, message: str) -> None:
        self.status.setText(
            translate("SiteTimeline", "The bands could not be computed: {message}").format(message=message)
        )

    def _arrived(self, bands: BandSeries) -> None:
        self.groupings[bands.kind] = bands
        if bands.kind == self.kind:
            self._show_kind(fit=False)
        # the worker goes on once these bands are painted (the paint is queued behind this call)
        QtCore.QTimer.singleShot(_REDRAW_MS, self._gate.set)

    def add_groupings(self, timeline: DeviceTimeline, groupings: Mapping[str, BandSeries]) -> bool:
        """More groupings of the timeline shown, made elsewhere (the loader's, after its first): kept, the grouping
        shown drawn if it is one of them, nothing else redone. False where another timeline is shown."""
        if timeline is not self.timeline:
            return False
        new = {kind: bands for kind, bands in groupings.items() if kind not in self.groupings}
        self.groupings.update(new)
        if self.kind in new:
            self._show_kind(fit=False)
        return True

    def is_ready(self) -> bool:
        """Whether the grouping chosen is drawn (its bands have been computed)."""
        return self.kind in self.groupings

    def mask_of(self, kind: str, key: object) -> Callable[[AllocatorState], npt.NDArray[np.bool_]]:
        """For the document's spotlight: the allocated blocks of band `key` in the state at the cursor."""
        assert self.snapshot is not None and self.timeline is not None
        series = SiteSeries(self.snapshot, self.timeline, {kind: self.groupings[kind]})
        return series.mask_of(kind, key, self.current_event)

    @property
    def bands(self) -> BandSeries | None:
        return self.groupings.get(self.kind)

    # -- the grouping and the bands ----------------------------------------------------------------------------------

    def set_kind(self, kind: str) -> None:
        """Group by "site", "category", "stream" or "pool"."""
        if kind not in GROUPINGS:
            raise ValueError(f"unknown grouping {kind!r}")
        self.kind = kind
        self.kind_box.blockSignals(True)
        self.kind_box.setCurrentIndex(GROUPINGS.index(kind))
        self.kind_box.blockSignals(False)
        self.selected = None
        self._clear_details()
        self._show_kind(fit=False)

    def _show_kind(self, fit: bool) -> None:
        """Make one filled curve per band of the grouping shown (or say that it is being computed)."""
        for curve in self.curves:
            curve.remove(self.plot)
        self.curves = []
        self._drawn_events = np.zeros(0, np.float64)
        self._drawn_for = None
        self._draw_selection()  # nothing drawn until the bands are (in the next turn)
        bands = self.bands
        if self.timeline is None:
            return
        if fit:
            n = self.timeline.n_events
            self.view_box.setXRange(-1, max(n - 1, 0), padding=0.01)
        if bands is None:
            self.status.setText(translate("SiteTimeline", "computing the bands…"))
            self.legend.setRowCount(0)
            return
        fields = {"bands": str(len(bands.bands)), "events": f"{self.timeline.n_events:,}"}
        line = translate("SiteTimeline", "{bands} {bands:band|bands} over {events} {events:event|events}")
        self.status.setText(filled(line, fields))
        for i, band in enumerate(bands.bands):
            z = -i / len(bands.bands)  # a band over the ones above it, as each filled down to zero behind those below
            self.curves.append(StepBand(self.plot, pg.mkBrush(band_colour(band, i)), self._pen(i), z))
        self._fill_legend(bands)
        self._first_draw.start()  # in a later turn: each turn of the GUI thread stays short

    def _draw_after_paint(self) -> None:
        if self._paint_wait.wait():
            self._first_draw.start()
            return
        self._draw()

    def _draw(self) -> None:
        """Re-sample the bands over the x range in view, a column every two pixels, and draw them as steps."""
        bands = self.bands
        if bands is None or not self.curves:
            return
        lo, hi = self.view_box.viewRange()[0]
        bins = max(int(self.view_box.width()) // 2, 100)
        drawn = self._drawn_for
        if drawn is not None and drawn[:2] == (lo, hi) and abs(bins - drawn[2]) <= drawn[2] // 10:
            # the same range a few pixels wider or narrower (the axis sized to its labels as it first paints): the
            # columns drawn stretch with the plot, a new sampling would draw the same picture
            return
        self._drawn_for = (lo, hi, bins)
        events, values = bands.sample(lo, hi, bins)
        tops = np.cumsum(values, axis=0) / self.unit_scale
        x = events.astype(np.float64)
        if len(x):  # the last value holds to the right edge of the view
            x = np.append(x, max(hi, x[-1]))
            tops = np.concatenate([tops, tops[:, -1:]], axis=1)
        self._drawn_events, self._drawn_tops = x, tops
        # a white seam between bands reads well where every event is drawn; over decimated columns it would
        # stripe the picture with the seams of thousands of steps
        in_view = min(int(np.ceil(hi)), bands.n_events - 1) - max(int(np.floor(lo)), -1) + 1
        self._seams = in_view <= 2 * bins  # as sample_events: every event drawn
        for i, (curve, top) in enumerate(zip(self.curves, tops, strict=True)):
            curve.setPen(self._pen(i))
            curve.set_steps(x, top, tops[i - 1] if i else None)
        self._draw_selection()

    def _draw_selection(self) -> None:
        """The picked band where it lies in the stack: its upper edge left to right, then its lower edge (the top of
        the band under it, or zero) back, one closed outline."""
        tops, index = self._drawn_tops, self.selected
        bands = self.bands
        if index is None or bands is None or not len(self._drawn_events) or len(tops) != len(bands.bands):
            self.selection_fill.setVisible(False)
            return
        x = self._drawn_events
        upper_x, upper_y = steps(x, tops[index])
        lower_x, lower_y = steps(x, tops[index - 1] if index else np.zeros(len(x)))
        self.selection_fill.setBrush(pg.mkBrush(band_colour(bands.bands[index], index)))
        self.selection_fill.setData(np.concatenate([upper_x, lower_x[::-1]]), np.concatenate([upper_y, lower_y[::-1]]))
        self.selection_fill.setVisible(True)

    def _pen(self, i: int) -> QtGui.QPen:
        if i == self.selected:
            return pg.mkPen(palette.FOCUS, width=2)
        bands = self.bands
        if self._seams or bands is None:
            return pg.mkPen(palette.SITE_BAND_EDGE, width=1)
        return pg.mkPen(band_colour(bands.bands[i], i), width=1)

    def _fill_legend(self, bands: BandSeries) -> None:
        self.legend.setRowCount(len(bands.bands))
        for row, band in enumerate(bands.bands):
            swatch = QtGui.QPixmap(12, 12)
            swatch.fill(QtGui.QColor(band_colour(band, row)))
            name = QtWidgets.QTableWidgetItem(QtGui.QIcon(swatch), band_name(bands.kind, band.label, short=True))
            name.setToolTip(band_name(bands.kind, band.label))
            self.legend.setItem(row, 0, name)
            peak = QtWidgets.QTableWidgetItem(localized(format_bytes(band.peak_bytes)))
            fields = {"bytes": f"{band.peak_bytes:,}", "event": f"{band.peak_event:,}"}
            peak.setToolTip(filled(translate("SiteTimeline", "{bytes} bytes, right after event {event}"), fields))
            peak.setTextAlignment(QtCore.Qt.AlignmentFlag.AlignRight | QtCore.Qt.AlignmentFlag.AlignVCenter)
            self.legend.setItem(row, 2, peak)
        self._legend_values()

    def _legend_values(self) -> None:
        bands = self.bands
        if bands is None or self.legend.rowCount() != len(bands.bands):
            return
        values = bands.band_at(self.current_event)
        for row, value in enumerate(values.tolist()):
            item = QtWidgets.QTableWidgetItem(localized(format_bytes(value)))
            fields = {"bytes": f"{value:,}", "event": f"{self.current_event:,}"}
            item.setToolTip(filled(translate("SiteTimeline", "{bytes} bytes right after event {event}"), fields))
            item.setTextAlignment(QtCore.Qt.AlignmentFlag.AlignRight | QtCore.Qt.AlignmentFlag.AlignVCenter)
            self.legend.setItem(row, 1, item)
        if self.selected is not None:
            self._show_details()

    # -- the cursor ------------------------------------------------------------------------------------------------

    def set_event(self, index: int, emit: bool = True) -> None:
        """Move the cursor to right after event `index` (emits event_selected only when `emit`)."""
        self._emitting = emit
        self.cursor_line.setValue(float(index))
        self._emitting = True
        self._at_event(index)

    def _cursor_moved(self) -> None:
        if self.timeline is None:
            return
        index = min(max(round(self.cursor_line.value()), -1), self.timeline.n_events - 1)
        self._at_event(index)
        if self._emitting:
            self.event_selected.emit(index)

    def _at_event(self, index: int) -> None:
        if index != self.current_event or self.legend.item(0, 1) is None:
            self.current_event = index
            self._legend_values()

    # -- picking a band ----------------------------------------------------------------------------------------------

    def band_under(self, x: float, y: float) -> int | None:
        """The band drawn at (x, y) of the plot (y in the axis's unit): the step in force at x, the band whose
        stretch of the stack holds y; None above the stack or left of the trace."""
        at = int(np.searchsorted(self._drawn_events, x, "right")) - 1
        if at < 0 or y < 0 or not len(self._drawn_tops):
            return None
        tops = self._drawn_tops[:, at]
        band = int(np.searchsorted(tops, y, "right"))
        # bands of no bytes there have no height: the first band whose top lies above y holds it
        return band if band < len(tops) else None

    def _clicked(self, x: float, y: float) -> None:
        band = self.band_under(x, y)
        if band is not None:
            self.select_band(band)
            self.popup.pin(band, *self.band_stack(band, x), self._point(x, y), empty=self._no_stack(band))
        else:
            self.popup.unpin()

    def _point(self, x: float, y: float) -> QtCore.QPoint:
        return host_point(self.plot, self, self.view_box.mapViewToScene(QtCore.QPointF(x, y)))

    def _hovered(self, scene_pos: QtCore.QPointF) -> None:
        at = self.view_box.mapSceneToView(scene_pos)
        band = self.band_under(at.x(), at.y()) if self.view_box.sceneBoundingRect().contains(scene_pos) else None
        if band is None:
            self.popup.leave()
            return
        title, frames = self.band_stack(band, at.x())
        self.popup.hover(band, title, frames, host_point(self.plot, self, scene_pos), empty=self._no_stack(band))

    def leaveEvent(self, event: QtCore.QEvent) -> None:
        self.popup.leave()
        super().leaveEvent(event)

    def band_stack(self, index: int, x: float) -> tuple[str, list[Frame]]:
        """The popup's title for band `index` (its label and its bytes where the pointer is) and the frames of the
        stack holding most of its bytes (none for a band of many stacks)."""
        bands = self.bands
        assert bands is not None and self.snapshot is not None
        band = bands.bands[index]
        at = max(int(np.searchsorted(self._drawn_events, x, "right")) - 1, 0)
        tops = self._drawn_tops[:, at] if len(self._drawn_tops) else np.zeros(len(bands.bands))
        held = (tops[index] - (tops[index - 1] if index else 0.0)) * self.unit_scale
        name = html.escape(band_name(bands.kind, band.label, short=True))
        title = f"<b>{name}</b> &nbsp; {localized(format_bytes(held))}"
        frames = list(self.snapshot.stacks.stack(band.stack)) if band.stack >= 0 else []
        return title, frames

    def _no_stack(self, index: int) -> str:
        bands = self.bands
        many = bands is None or bands.bands[index].stack < 0
        if many:
            return translate("SiteTimeline", "blocks of many stacks: click for the band's details")
        return translate("SiteTimeline", "no stack recorded")

    def select_band(self, index: int) -> None:
        """Pick band `index` of the grouping shown: its details beside the plot, its row in the legend, and
        band_selected(kind, key, label) for the window to light its blocks on the map."""
        bands = self.bands
        if bands is None or not 0 <= index < len(bands.bands):
            return
        self.selected = index
        band = bands.bands[index]
        for i, curve in enumerate(self.curves):
            curve.setPen(self._pen(i))
        self._draw_selection()  # the picked band outlined in place, over the others
        self.legend.selectRow(index)
        self._show_details()
        self.band_selected.emit(self.kind, band.key, band.label)

    def _show_details(self) -> None:
        bands = self.bands
        if bands is None or self.selected is None or self.snapshot is None:
            return
        band = bands.bands[self.selected]
        now = int(bands.band_at(self.current_event)[self.selected])
        kind_name = {
            "site": translate("SiteTimeline", "site"),
            "category": translate("SiteTimeline", "category"),
            "stream": translate("SiteTimeline", "stream"),
            "pool": translate("SiteTimeline", "pool"),
        }[self.kind]
        label = band_name(self.kind, band.label)
        fields = {
            "now": localized(format_bytes(now)),
            "event": f"{self.current_event:,}",
            "bytes": f"{now:,}",
            "peak": localized(format_bytes(band.peak_bytes)),
            "peak_event": f"{band.peak_event:,}",
        }
        details = translate(
            "SiteTimeline",
            "<b>{now}</b> right after event {event} ({bytes} bytes)<br>its peak: <b>{peak}</b> right after event "
            "{peak_event}",
        )
        self.info.setText(rich_text(f"<b>{kind_name}:</b> {html.escape(label)}<br>" + filled(details, fields)))
        if self.kind == "site" and band.stack >= 0:
            holding = translate("SiteTimeline", "the stack holding most of its bytes")
            self.stack.set_frames(self.snapshot.stacks.stack(band.stack), holding)
            self.stack.setVisible(True)
        else:
            self.stack.clear()
            self.stack.setVisible(False)

    def _clear_details(self) -> None:
        self.info.setText(translate("SiteTimeline", _CLICK))
        self.stack.clear()
        self.stack.setVisible(False)
        self.legend.clearSelection()
