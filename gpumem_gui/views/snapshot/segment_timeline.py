"""SegmentTimelineView: the cached segments over the trace, each a band from its creation to its release whose height
is its size (an expandable segment's grows and shrinks), stacked in order of creation, as PyTorch's "Active Cached
Segment Timeline" draws them; a table of every segment's life beside it."""

from __future__ import annotations

import html

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtWidgets

from gpumem_gui.core.analysis.segment_lives import SegmentLife, SegmentSeries, segment_series
from gpumem_gui.core.analysis.timetravel import NEVER, DeviceTimeline
from gpumem_gui.core.snapshot.model import Frame, Snapshot
from gpumem_gui.core.snapshot.units import format_bytes
from gpumem_gui.document.curves import memory_unit, steps
from gpumem_gui.views.common import palette
from gpumem_gui.views.common.band_side_panel import BandSidePanel
from gpumem_gui.views.common.hover_stack import StackPopup, host_point
from gpumem_gui.views.common.language import (
    QT_TRANSLATE_NOOP,
    Retranslated,
    filled,
    localized,
    translate,
    unit_word,
)
from gpumem_gui.views.common.rich_text import rich_text
from gpumem_gui.views.snapshot.light_plot import light_plot
from gpumem_gui.views.snapshot.site_timeline import _BandViewBox
from gpumem_gui.views.snapshot.step_bands import StepBand
from gpumem_gui.views.snapshot.timeline import MIN_PLOT_HEIGHT

_REDRAW_MS = 30
_SEAM_PIXELS = 4  # a band this tall or more is edged with a white seam
_COLUMNS = (
    QT_TRANSLATE_NOOP("SegmentTimeline", "segment"),
    QT_TRANSLATE_NOOP("SegmentTimeline", "pool"),
    QT_TRANSLATE_NOOP("SegmentTimeline", "created"),
    QT_TRANSLATE_NOOP("SegmentTimeline", "grown"),
    QT_TRANSLATE_NOOP("SegmentTimeline", "freed"),
    QT_TRANSLATE_NOOP("SegmentTimeline", "peak"),
)


def _tr(text: str) -> str:
    return translate("SegmentTimeline", text)


def _pool(life: SegmentLife) -> str:
    if life.expandable:
        return (
            translate("SegmentTimeline", "expandable, small pool")
            if life.small
            else translate("SegmentTimeline", "expandable, large pool")
        )
    return translate("SegmentTimeline", "small pool") if life.small else translate("SegmentTimeline", "large pool")


def life_words(life: SegmentLife) -> list[str]:
    """A segment's life in a few lines: what it is, when it was made, how it changed, when it went."""
    fields = {
        "created": f"{life.created:,}",
        "freed": f"{life.freed:,}",
        "grown": str(life.grown),
        "shrunk": str(life.shrunk),
        "peak": localized(format_bytes(life.peak)),
    }
    made = (
        translate("SegmentTimeline", "before the trace")
        if life.created < 0
        else translate("SegmentTimeline", "at event {created}")
    )
    if life.freed == NEVER:
        went = translate("SegmentTimeline", "still cached at the end")
    else:
        went = translate("SegmentTimeline", "freed at event {freed}")
    changes = translate("SegmentTimeline", "grown {grown} {grown:time|times}")
    if life.shrunk:
        changes += translate("SegmentTimeline", ", shrunk {shrunk} {shrunk:time|times}")
    line = translate("SegmentTimeline", "created {made}, {changes}, {went}; peak {peak}")
    head = translate("SegmentTimeline", "segment {address} ({kind}, stream {stream})")
    return [
        head.format(address=f"{life.address:#x}", kind=_pool(life), stream=life.stream),
        filled(line.format(made=made, changes=changes, went=went, peak="{peak}"), fields),
    ]


def band_colour(band: int) -> str:
    if band == 0:
        return palette.SEGMENT_BAND_OTHER
    dark, light = palette.SITE_HUES[(band - 1) % len(palette.SITE_HUES)]
    return dark if band % 2 else light


class SegmentTimelineView(Retranslated):
    """Stacked segment bands, a cursor that travels (event_selected), a band's stack on hover (pinned by a click)."""

    event_selected = QtCore.Signal(int)

    def __init__(self, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        self.snapshot: Snapshot | None = None
        self.timeline: DeviceTimeline | None = None
        self.series: SegmentSeries | None = None
        self.current_event = -1
        self.selected: int | None = None  # the band picked
        self._drawn_events = np.zeros(0, np.float64)
        self._drawn_tops = np.zeros((0, 0))
        self.unit, self.unit_scale = memory_unit(0)
        self.status = QtWidgets.QLabel()
        self.status.setStyleSheet(f"color: {palette.TEXT_MUTED}")
        # a long line is cut, never a reason for the tab to grow past the event list beside it
        self.status.setSizePolicy(QtWidgets.QSizePolicy.Policy.Ignored, QtWidgets.QSizePolicy.Policy.Preferred)
        self.view_box = _BandViewBox(enableMenu=False)
        self.plot = light_plot(palette.PLOT_BACKGROUND, self.view_box)  # without the options menu's widgets
        self.plot.setMinimumHeight(MIN_PLOT_HEIGHT)
        self.view_box.setMouseEnabled(x=True, y=False)
        self.view_box.enableAutoRange(y=True)
        self.view_box.setAutoVisible(y=True)
        self.plot.getAxis("left").enableAutoSIPrefix(False)
        self._label_axes()
        self.curves: list[StepBand] = []
        self.selection_fill = pg.PlotCurveItem(pen=pg.mkPen(palette.FOCUS, width=2), fillLevel="enclosed")
        self.selection_fill.setZValue(5)
        self.selection_fill.setVisible(False)
        self.plot.addItem(self.selection_fill)
        self.cursor_line = pg.InfiniteLine(angle=90, movable=True, pen=pg.mkPen(palette.CURSOR, width=1))
        self.cursor_line.setZValue(10)
        self.cursor_line.sigPositionChanged.connect(self._cursor_moved)
        self.plot.addItem(self.cursor_line)
        self._emitting = True
        self.view_box.scrubbed.connect(self.cursor_line.setValue)
        self.view_box.clicked.connect(self._clicked)
        self.plot.scene().sigMouseMoved.connect(self._hovered)
        self._redraw = QtCore.QTimer(self, singleShot=True, interval=_REDRAW_MS)
        self._redraw.timeout.connect(self._draw)
        self.view_box.sigXRangeChanged.connect(self._redraw.start)
        self.view_box.sigResized.connect(self._redraw.start)

        self.table = QtWidgets.QTableWidget(0, len(_COLUMNS))
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QtWidgets.QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QtWidgets.QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QtWidgets.QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setWordWrap(False)
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 6)
        self.table.horizontalHeader().setSectionResizeMode(QtWidgets.QHeaderView.ResizeMode.ResizeToContents)
        self.table.cellClicked.connect(lambda row, _column: self.select_life(row))
        panel = BandSidePanel(self.table, _tr(_HOVER))
        self.info, self.stack = panel.info, panel.stack
        plot_side = QtWidgets.QWidget()
        plot_layout = QtWidgets.QVBoxLayout(plot_side)
        plot_layout.setContentsMargins(0, 0, 0, 0)
        top = QtWidgets.QHBoxLayout()
        self.title = QtWidgets.QLabel()
        top.addWidget(self.title)
        top.addWidget(self.status, 1)
        plot_layout.addLayout(top)
        plot_layout.addWidget(self.plot, 1)
        self.splitter = QtWidgets.QSplitter(QtCore.Qt.Orientation.Horizontal)
        self.splitter.addWidget(plot_side)
        self.splitter.addWidget(panel)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)
        self.splitter.setSizes([1100, 360])
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.splitter)
        self.retranslate()
        self.popup = StackPopup(self)

    # -- the document ----------------------------------------------------------------------------------------------

    def set_timeline(self, snapshot: Snapshot, timeline: DeviceTimeline, event: int | None = None) -> None:
        """Show `timeline`'s segments (a few ms of numpy over its pieces); the cursor at `event` (default: the end)."""
        self.snapshot, self.timeline = snapshot, timeline
        self.series = series = segment_series(timeline)
        self.selected = None
        self.popup.unpin()
        self.unit, self.unit_scale = memory_unit(timeline.series.peak("reserved"))
        self._label_axes()
        for curve in self.curves:
            curve.remove(self.plot)
        edge = pg.mkPen(palette.SITE_BAND_EDGE, width=1)
        self.curves = [
            StepBand(self.plot, pg.mkBrush(band_colour(band)), edge, -band / series.n_bands)
            for band in range(series.n_bands)
        ]
        self._fill_table(series)
        self._say_status()
        self.view_box.setXRange(-1, max(timeline.n_events - 1, 0), padding=0.01)
        self.set_event(timeline.n_events - 1 if event is None else event, emit=False)
        self._draw()

    def retranslate(self) -> None:
        self.table.setHorizontalHeaderLabels([_tr(c) for c in _COLUMNS])
        self.title.setText(translate("SegmentTimeline", "Cached segments, stacked in order of creation"))
        self._label_axes()
        if self.series is not None:
            self._fill_table(self.series)
            self._say_status()
        if self.series is not None and self.selected is not None:
            self.select_band(self.selected)
        else:
            self.info.setText(_tr(_HOVER))

    def _label_axes(self) -> None:
        self.plot.setLabel("left", translate("SegmentTimeline", "reserved ({unit})").format(unit=unit_word(self.unit)))
        self.plot.setLabel("bottom", translate("SegmentTimeline", "trace event"))

    def _say_status(self) -> None:
        series = self.series
        assert series is not None
        lives = series.lives
        grown = sum(1 for life in lives if life.grown)
        freed = sum(1 for life in lives if life.freed != NEVER)
        small = len(lives) - len(series.drawn)
        expandable = any(life.expandable for life in lives)
        fields = {"lives": f"{len(lives):,}", "grown": f"{grown:,}", "freed": f"{freed:,}", "small": f"{small:,}"}
        text = translate("SegmentTimeline", "{lives} segment lives: {grown} grew, {freed} freed")
        if small:
            text += translate("SegmentTimeline", "; the {small} smallest share the grey band")
        if expandable:
            text += translate("SegmentTimeline", "; an expandable one is its whole virtual range")
        self.status.setText(filled(text, fields))
        self.status.setToolTip(
            translate(
                "SegmentTimeline",
                "An expandable segment is one virtual address range, mapped and unmapped page by page: one life "
                "here, while the map shows each mapped run of it as a segment.",
            )
            if expandable
            else ""
        )

    def _fill_table(self, series: SegmentSeries) -> None:
        self.table.setRowCount(len(series.lives))
        for row, life in enumerate(series.lives):
            cells = (
                f"{life.address:#x}",
                _pool(life),
                translate("SegmentTimeline", "before") if life.created < 0 else localized(f"{life.created:,}"),
                localized(f"{life.grown:,}"),
                "-" if life.freed == NEVER else localized(f"{life.freed:,}"),
                localized(format_bytes(life.peak)),
            )
            for column, text in enumerate(cells):
                item = QtWidgets.QTableWidgetItem(text)
                item.setToolTip("\n".join(life_words(life)))
                if column >= 2:
                    item.setTextAlignment(QtCore.Qt.AlignmentFlag.AlignRight | QtCore.Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(row, column, item)

    def _draw(self) -> None:
        """Re-sample the bands over the x range in view, a column every two pixels, drawn as steps."""
        series = self.series
        if series is None or not self.curves:
            return
        lo, hi = self.view_box.viewRange()[0]
        events, values = series.sample(lo, hi, max(int(self.view_box.width()) // 2, 100))
        tops = np.cumsum(values, axis=0) / self.unit_scale
        x = events.astype(np.float64)
        if len(x):
            x = np.append(x, max(hi, x[-1]))
            tops = np.concatenate([tops, tops[:, -1:]], axis=1)
        self._drawn_events, self._drawn_tops = x, tops
        # a white seam over a band of a pixel or two would hide it: those are edged in their own colour
        thickness = np.diff(tops, axis=0, prepend=0.0).max(axis=1, initial=0.0)
        pixels = thickness / max(self.view_box.viewPixelSize()[1], 1e-12)
        for band, (curve, top) in enumerate(zip(self.curves, tops, strict=True)):
            edge = palette.SITE_BAND_EDGE if pixels[band] >= _SEAM_PIXELS else band_colour(band)
            curve.setPen(pg.mkPen(edge, width=1))
            curve.set_steps(x, top, tops[band - 1] if band else None)
        self._draw_selection()

    def _draw_selection(self) -> None:
        index = self.selected
        if index is None or not len(self._drawn_events):
            self.selection_fill.setVisible(False)
            return
        x, tops = self._drawn_events, self._drawn_tops
        upper_x, upper_y = steps(x, tops[index])
        lower_x, lower_y = steps(x, tops[index - 1] if index else np.zeros(len(x)))
        self.selection_fill.setBrush(pg.mkBrush(band_colour(index)))
        self.selection_fill.setData(np.concatenate([upper_x, lower_x[::-1]]), np.concatenate([upper_y, lower_y[::-1]]))
        self.selection_fill.setVisible(True)

    # -- the cursor ------------------------------------------------------------------------------------------------

    def set_event(self, index: int, emit: bool = True) -> None:
        self._emitting = emit
        self.cursor_line.setValue(float(index))
        self._emitting = True
        self.current_event = index

    def _cursor_moved(self) -> None:
        if self.timeline is None:
            return
        index = min(max(round(self.cursor_line.value()), -1), self.timeline.n_events - 1)
        self.current_event = index
        if self._emitting:
            self.event_selected.emit(index)

    # -- bands under the pointer -------------------------------------------------------------------------------------

    def band_under(self, x: float, y: float) -> int | None:
        """The band drawn at (x, y) (y in the axis's unit); None above the stack, left of the trace or in no band."""
        at = int(np.searchsorted(self._drawn_events, x, "right")) - 1
        if at < 0 or y < 0 or not len(self._drawn_tops):
            return None
        band = int(np.searchsorted(self._drawn_tops[:, at], y, "right"))
        return band if band < len(self._drawn_tops) else None

    def band_stack(self, band: int, x: float) -> tuple[str, list[Frame]]:
        """The popup's title (the segment's life and its size where the pointer is) and its first stack."""
        assert self.series is not None and self.snapshot is not None
        at = max(int(np.searchsorted(self._drawn_events, x, "right")) - 1, 0)
        tops = self._drawn_tops[:, at]
        size = (tops[band] - (tops[band - 1] if band else 0.0)) * self.unit_scale
        life = self.series.band_life(band)
        if life is None:
            small = len(self.series.lives) - len(self.series.drawn)
            smallest = filled(translate("SegmentTimeline", "the {small} smallest segments"), {"small": f"{small:,}"})
            return f"<b>{smallest}</b> &nbsp; {localized(format_bytes(size))}", []
        head, when = (html.escape(line) for line in life_words(life))
        here = translate("SegmentTimeline", "{size} here; {when}").format(size=localized(format_bytes(size)), when=when)
        title = f"<b>{head}</b><br>{here}"
        frames = list(self.snapshot.stacks.stack(life.stack)) if life.stack >= 0 else []
        return title, frames

    def _hovered(self, scene_pos: QtCore.QPointF) -> None:
        at = self.view_box.mapSceneToView(scene_pos)
        inside = self.view_box.sceneBoundingRect().contains(scene_pos)
        band = self.band_under(at.x(), at.y()) if inside and self.series is not None else None
        if band is None:
            self.popup.leave()
            return
        self.popup.hover(
            band, *self.band_stack(band, at.x()), host_point(self.plot, self, scene_pos), empty=_tr(_EMPTY)
        )

    def leaveEvent(self, event: QtCore.QEvent) -> None:
        self.popup.leave()
        super().leaveEvent(event)

    def _clicked(self, x: float, y: float) -> None:
        band = self.band_under(x, y)
        if band is None:
            self.popup.unpin()
            return
        self.select_band(band)
        point = host_point(self.plot, self, self.view_box.mapViewToScene(QtCore.QPointF(x, y)))
        self.popup.pin(band, *self.band_stack(band, x), point, empty=_tr(_EMPTY))

    def select_life(self, row: int) -> None:
        """A row of the table: its band picked, where it has one of its own."""
        series = self.series
        if series is not None and row in series.drawn:
            self.select_band(series.drawn.index(row) + 1)

    def select_band(self, band: int) -> None:
        """Pick band `band`: outlined in place, its row selected, its life and stack beside the plot."""
        series = self.series
        if series is None or not 0 <= band < series.n_bands:
            return
        self.selected = band
        self._draw_selection()
        life = series.band_life(band)
        if life is None:
            self.info.setText(translate("SegmentTimeline", "The smallest segments, in one band: the table lists each."))
            self.stack.setVisible(False)
            return
        self.table.selectRow(series.drawn[band - 1])
        self.info.setText(rich_text("<br>".join(html.escape(line) for line in life_words(life))))
        if self.snapshot is not None:
            frames = self.snapshot.stacks.stack(life.stack) if life.stack >= 0 else []
            self.stack.set_frames(frames, translate("SegmentTimeline", "the stack that made it"))
            self.stack.setVisible(True)


_EMPTY = QT_TRANSLATE_NOOP("SegmentTimeline", "no stack recorded for its first allocation")
_HOVER = QT_TRANSLATE_NOOP("SegmentTimeline", "Hover over a segment for its stack; click to pin it.")
