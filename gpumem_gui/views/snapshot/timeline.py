"""TimelineView: memory over the recorded trace; a click or drag picks the event the map shows."""

from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

from gpumem_gui.core.analysis.timetravel import DeviceTimeline
from gpumem_gui.core.snapshot.model import Action, TraceTable
from gpumem_gui.document.curves import Envelope, memory_unit, series_envelopes
from gpumem_gui.teach.quiz_demos import TimelineMark
from gpumem_gui.views.common import palette
from gpumem_gui.views.common.language import QT_TRANSLATE_NOOP, Retranslated, localized, translate, unit_word
from gpumem_gui.views.common.paint_pass import PaintWait
from gpumem_gui.views.common.rich_text import rich_text
from gpumem_gui.views.snapshot.light_plot import light_plot
from gpumem_gui.views.snapshot.span_drag import SpanDrag
from gpumem_gui.views.snapshot.step_line import StepLine

# the plot's least height: below it the curves are a smear and the axes' labels are clipped
MIN_PLOT_HEIGHT = 180
_CURVES = (
    ("reserved", QT_TRANSLATE_NOOP("TimelineView", "reserved")),
    ("allocated", QT_TRANSLATE_NOOP("TimelineView", "allocated")),
    ("requested", QT_TRANSLATE_NOOP("TimelineView", "requested")),
    ("free", QT_TRANSLATE_NOOP("TimelineView", "free (cached)")),
    ("largest_free", QT_TRANSLATE_NOOP("TimelineView", "largest free block")),
)


class ScrubViewBox(pg.ViewBox):
    """A plot's view where the left button travels: a click or a drag emits the x under the pointer (the wheel
    zooms, the middle button pans and the right button scales, as in any pyqtgraph plot)."""

    scrubbed = QtCore.Signal(float)
    span_dragged = QtCore.Signal(float, float, bool)  # a shift-drag: the x it began at, the x now, whether it ended
    context_requested = QtCore.Signal(float, QtCore.QPoint)  # a right click: the x under it, the screen position

    def mouseClickEvent(self, ev: pg.GraphicsScene.mouseEvents.MouseClickEvent) -> None:
        if ev.button() == QtCore.Qt.MouseButton.LeftButton:
            ev.accept()
            self.scrubbed.emit(self.mapSceneToView(ev.scenePos()).x())
        elif ev.button() == QtCore.Qt.MouseButton.RightButton and self.isSignalConnected(
            QtCore.QMetaMethod.fromSignal(self.context_requested)  # PySide6's receivers() takes no b"2..." signature
        ):
            ev.accept()
            self.context_requested.emit(self.mapSceneToView(ev.scenePos()).x(), ev.screenPos().toPoint())
        else:
            super().mouseClickEvent(ev)

    def mouseDragEvent(self, ev: pg.GraphicsScene.mouseEvents.MouseDragEvent, axis: int | None = None) -> None:
        if ev.button() == QtCore.Qt.MouseButton.LeftButton:
            ev.accept()
            x = self.mapSceneToView(ev.scenePos()).x()
            if ev.modifiers() & QtCore.Qt.KeyboardModifier.ShiftModifier:  # a span, not a travel
                self.span_dragged.emit(self.mapSceneToView(ev.buttonDownScenePos()).x(), x, ev.isFinish())
            else:
                self.scrubbed.emit(x)
        else:
            super().mouseDragEvent(ev, axis)


def timeline_plot() -> pg.PlotWidget:
    """The timeline's plot alone, without pyqtgraph's options menu (its widgets were a third of the plot's making)."""
    return light_plot(palette.PLOT_BACKGROUND, ScrubViewBox(enableMenu=False))


class TimelineView(Retranslated):
    """Memory curves (in MiB or GiB, by the file's peak) as steps by event index, external fragmentation in % on
    its own axis, OOMs marked."""

    event_selected = QtCore.Signal(int)
    explain_requested = QtCore.Signal(int)  # an event to explain; -1: the device's first OOM, else its peak
    span_selected = QtCore.Signal(int, int)  # a shift-drag's span: right after event I to right after event J

    def __init__(self, parent: QtWidgets.QWidget | None = None, *, plot: pg.PlotWidget | None = None) -> None:
        """`plot`: its plot made in an earlier turn of the event loop (`timeline_plot`; a tab is made over several)."""
        super().__init__(parent)
        self.timeline: DeviceTimeline | None = None
        self.trace: TraceTable | None = None
        self.annotation_ranges: list[tuple[int, int, str]] = []
        self.use_time = False
        self.plot = plot if plot is not None else timeline_plot()
        self.plot.setMinimumHeight(MIN_PLOT_HEIGHT)
        self.unit, self.unit_scale = memory_unit(0)
        # a million events are a million points per curve: the curves get the envelope of the range in view,
        # two points per pixel column, recomputed (once per burst of changes) when the range moves
        self._full: dict[str, tuple[Envelope, float]] = {}
        self._x: np.ndarray | None = None
        self._envelopes: dict[str, Envelope] | None = None
        self.ticks: pg.ScatterPlotItem | None = None
        self._ticks_x = np.zeros(0)
        self._refresh = QtCore.QTimer(self, singleShot=True, interval=0)
        self._refresh.timeout.connect(self._draw_curves)
        self._paint_wait = PaintWait(self, most=2)  # a turn or two: a zoom's curves follow it closely
        # the range and columns the curves were last drawn for (_draw_curves); None: set_timeline gave new curves
        self._drawn: tuple[float, float, int] | None = None
        # horizontal grid lines at the left axis's ticks, one item in the view: pyqtgraph's own grid is drawn by
        # the axis across the whole plot and costs about 10 ms a paint, a quarter of the window's budget
        self.grid = pg.PlotCurveItem(pen=pg.mkPen(palette.GRID, width=1), connect="pairs")
        self.grid.setZValue(-10)
        self.plot.addItem(self.grid, ignoreBounds=True)
        self.plot.getViewBox().sigRangeChanged.connect(lambda *_: self._draw_grid())
        # an axis replays its tick labels as text on every paint (about 10 ms each); cached as a pixmap, a paint
        # that only moves the cursor costs nothing there, and a change of range redraws it once
        for side in ("left", "bottom", "right"):
            self.plot.getAxis(side).setCacheMode(QtWidgets.QGraphicsItem.CacheMode.DeviceCoordinateCache)
        for side in ("left", "right"):  # the unit is in the label: no "(x0.001)" from pyqtgraph's SI prefixes
            self.plot.getAxis(side).enableAutoSIPrefix(False)
        self._label_axes()
        # bare curves (the envelopes are drawn as they are): a PlotDataItem's own curve, without its making
        self.curves = {key: StepLine(palette.CURVES[key]) for key, _ in _CURVES}  # two pixels wide
        for curve in self.curves.values():
            self.plot.addItem(curve)
        self.legend = QtWidgets.QLabel()  # below the plot, where it hides no curve; wrapped, never clipped
        self.legend.setWordWrap(True)
        self._fill_legend(ooms=True, marks=True, ranges=True)
        self.empty_text = pg.TextItem(
            translate("TimelineView", "no events on this device"), color=palette.TEXT_MUTED, anchor=(0.5, 0.5)
        )
        self.empty_text.setVisible(False)
        self.plot.addItem(self.empty_text, ignoreBounds=True)
        # fragmentation on a right-hand axis, 0-100 %
        self.frag_view = pg.ViewBox(enableMenu=False)  # no menus: their widgets cost a stall to make
        self.plot.showAxis("right")
        self.plot.getAxis("right").setLabel(
            translate("TimelineView", "fragmentation (%)"), color=palette.CURVES["external_fragmentation"]
        )
        self.plot.scene().addItem(self.frag_view)
        self.plot.getAxis("right").linkToView(self.frag_view)
        self.frag_view.setXLink(self.plot.getViewBox())
        self.frag_view.setYRange(0, 100, padding=0.05)  # "100" whole at the top
        self.frag_curve = pg.PlotCurveItem(
            pen=pg.mkPen(palette.CURVES["external_fragmentation"], width=1, style=QtCore.Qt.PenStyle.DashLine)
        )
        self.frag_view.addItem(self.frag_curve)
        self.plot.getViewBox().sigResized.connect(self._sync_views)
        self.plot.getViewBox().sigResized.connect(self._refresh.start)
        self.plot.getViewBox().sigXRangeChanged.connect(self._refresh.start)
        self.cursor_line = pg.InfiniteLine(angle=90, movable=True, pen=pg.mkPen(palette.CURSOR, width=1))
        self.cursor_line.sigPositionChanged.connect(self._cursor_moved)
        self.plot.addItem(self.cursor_line)
        self.marks: list[pg.GraphicsObject] = []
        self.focus_marks: tuple[TimelineMark, ...] = ()  # a demo's events and spans, kept across axis changes
        self.focus_items: list[pg.GraphicsObject] = []
        # more of a right click's actions (the span marks'): each gives (text, what it does) for the x clicked
        self.more_actions: list[Callable[[float], list[tuple[str, Callable[[], None]]]]] = []
        # a click or a left-drag anywhere on the plot travels there (the wheel zooms, the middle button pans)
        self.plot.getViewBox().scrubbed.connect(self.cursor_line.setValue)
        self.plot.getViewBox().context_requested.connect(self._context_menu)
        self.span_drag = SpanDrag(self.plot, self.event_at, self.event_x, self.span_selected.emit)
        self.plot.getViewBox().span_dragged.connect(self.span_drag.dragged)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.plot)
        layout.addWidget(self.legend)
        self._emitting = True

    def resizeEvent(self, event: QtGui.QResizeEvent) -> None:
        # a wrapped label's lines are not part of the layout's least height: asked for, so that a squeezed view
        # keeps the whole legend under the plot instead of drawing it over the curves
        self.legend.setMinimumHeight(self.legend.heightForWidth(max(event.size().width(), 1)))
        super().resizeEvent(event)

    def _draw_curves(self) -> None:
        """Each curve's envelope over the x range in view, as many columns as the plot has pixels."""
        if not self._full:
            return
        if self._paint_wait.wait():
            self._refresh.start()  # after the window's paint (its axes sized to new labels change the plot's width)
            return
        lo, hi = self.plot.getViewBox().viewRange()[0]
        # a column every two pixels: the lines are two pixels wide, so finer columns would draw the same picture
        bins = max(int(self.plot.getViewBox().width()) // 2, 300)
        drawn = (lo, hi, bins)
        if drawn == self._drawn:
            return  # the same columns (a resize that kept the width, a range that did not move): nothing to redo
        self._drawn = drawn
        for key, (curve, scale) in self._full.items():
            item = self.frag_curve if key == "external_fragmentation" else self.curves[key]
            xs, ys = curve.step_points(self._x, lo, hi, bins)
            item.setData(xs, ys * scale)
        if self.ticks is not None:
            # a tick per pixel column at most: thousands of cudaMallocs would otherwise cost a stall per paint
            shown = self._ticks_x[(self._ticks_x >= lo) & (self._ticks_x <= hi)]
            if len(shown) > bins and hi > lo:
                _, first = np.unique(((shown - lo) / (hi - lo) * bins).astype(np.int64), return_index=True)
                shown = shown[first]
            self.ticks.setData(x=shown, y=np.zeros(len(shown)))

    def _draw_grid(self) -> None:
        (lo, hi), (bottom, top) = self.plot.getViewBox().viewRange()
        axis = self.plot.getAxis("left")
        levels = axis.tickValues(bottom, top, max(axis.height(), 1.0))
        values = np.asarray(levels[0][1] if levels else [], np.float64)
        xs = np.tile([lo, hi], len(values))
        self.grid.setData(xs, np.repeat(values, 2))

    def _sync_views(self) -> None:
        self.frag_view.setGeometry(self.plot.getViewBox().sceneBoundingRect())

    def retranslate(self) -> None:
        self._label_axes()
        self._fill_legend(**self._legend_flags)
        self.empty_text.setText(translate("TimelineView", "no events on this device"))
        self.plot.getAxis("right").setLabel(
            translate("TimelineView", "fragmentation (%)"), color=palette.CURVES["external_fragmentation"]
        )

    def _label_axes(self) -> None:
        by_time = self.timeline is not None and self.by_time()
        seconds = translate("TimelineView", "seconds since the first event")
        # a label set again with the same text is not laid out again (light_plot.CachedLabelAxis)
        self.plot.setLabel("left", translate("TimelineView", "memory ({unit})").format(unit=unit_word(self.unit)))
        self.plot.setLabel("bottom", seconds if by_time else translate("TimelineView", "trace event"))

    def _fill_legend(self, *, ooms: bool, marks: bool, ranges: bool) -> None:
        """The curves, and the marks only where this timeline has them (an OOM entry on a file without OOMs only
        sends the eye looking for one)."""
        self._legend_flags = {"ooms": ooms, "marks": marks, "ranges": ranges}
        items = [(translate("TimelineView", label), palette.CURVES[key]) for key, label in _CURVES]
        fragmentation = translate("TimelineView", "external fragmentation (right axis)")
        items.append((fragmentation, palette.CURVES["external_fragmentation"]))
        items += [("OOM", palette.HOLE)] if ooms else []
        items += [("&#9650; cudaMalloc / map", palette.CURVES["reserved"])] if marks else []
        items += [(translate("TimelineView", "record_function range"), palette.ANNOTATION)] if ranges else []
        self.legend.setText(
            " &nbsp;".join(
                f'<span style="white-space:nowrap"><span style="color:{c}">&#9644;</span> {rich_text(name)}</span>'
                for name, c in items
            )
        )

    def set_timeline(
        self,
        timeline: DeviceTimeline,
        trace: TraceTable | None = None,
        annotation_ranges: list[tuple[int, int, str]] | None = None,
        envelopes: dict[str, Envelope] | None = None,
        ticks: np.ndarray | None = None,
    ) -> None:
        """Curves of `timeline` (from `envelopes` where its document keeps them); with `trace`, segment allocations
        marked (the events of `ticks` where the loader found them, else a pass over the trace); annotation ranges as
        shaded spans."""
        self.timeline = timeline
        self.trace = trace
        self.annotation_ranges = annotation_ranges or []
        s = timeline.series
        ends = self.event_x(np.array([0, max(len(s) - 1, 0)])) if len(s) else np.zeros(0)
        # scaled after decimation: dividing a million values on the GUI thread is a stall of its own
        if envelopes is None:
            envelopes = series_envelopes(s)
        self._envelopes = envelopes
        # by event the x of each point is its index (nothing to make); by time, each event's seconds
        self._x = self.event_x(np.arange(len(s))) if self.by_time() else None
        self.unit, self.unit_scale = memory_unit(s.peak("reserved"))
        self._full = {key: (envelopes[key], 1 / self.unit_scale) for key, _label in _CURVES}
        self._full["external_fragmentation"] = (envelopes["external_fragmentation"], 100.0)
        self._drawn = None
        for item in self.marks:
            self.plot.removeItem(item)
        self.marks = []
        self.ticks = None
        self._ticks_x = np.zeros(0)
        timeline_trace = self.trace
        if timeline_trace is not None and len(timeline_trace):
            # segment allocations (cudaMalloc or a mapped range) as ticks along the bottom
            if ticks is None:
                action = timeline_trace.action
                ticks = np.flatnonzero((action == Action.SEGMENT_ALLOC) | (action == Action.SEGMENT_MAP))
            grows = ticks
            if len(grows):
                self._ticks_x = self.event_x(grows)
                self.ticks = pg.ScatterPlotItem(
                    symbol="t1", size=7, pen=None, brush=pg.mkBrush(palette.CURVES["reserved"])
                )
                self.plot.addItem(self.ticks)
                self.marks.append(self.ticks)
            for start, end, name in self.annotation_ranges:
                span = (float(self.event_x(np.array([start]))[0]), float(self.event_x(np.array([end]))[0]))
                region = pg.LinearRegionItem(span, movable=False, brush=pg.mkBrush(*palette.ANNOTATION_SPAN))
                region.setToolTip(name)
                self.plot.addItem(region)
                self.marks.append(region)
        # the legend names the marks just drawn (the ticks are the trace's one pass over its actions)
        self._fill_legend(ooms=bool(timeline.ooms), marks=self.ticks is not None, ranges=bool(self.annotation_ranges))
        for oom in timeline.ooms:
            at = float(self.event_x(np.array([oom.index]))[0])
            line = pg.InfiniteLine(pos=at, angle=90, pen=pg.mkPen(palette.HOLE, width=2))
            label = pg.TextItem("OOM", color=palette.HOLE, anchor=(1.05, 0))
            label.setPos(at, float(s.reserved.max()) / self.unit_scale if len(s) else 0)
            for item in (line, label):
                self.plot.addItem(item)
                self.marks.append(item)
        self.plot.setXRange(float(ends[0]) if len(s) else 0, float(ends[-1]) if len(s) > 1 else 1, padding=0.01)
        if len(s) and s.peak("reserved") > 0:
            self.plot.getViewBox().enableAutoRange(y=True)
        else:  # nothing to fit: an axis of 0 to 1 MiB, not pyqtgraph's -0.5 to 0.5 of nothing
            self.plot.setYRange(0, 1, padding=0.05)  # the top tick's label whole, not cut at the edge
        self.empty_text.setVisible(len(s) == 0)
        self.empty_text.setPos(0.5, 0.5)
        self._refresh.start()  # the envelopes, in the next turn of the event loop (once, whatever moved)
        self._label_axes()
        self._draw_focus_marks()
        self.span_drag.limit(timeline.n_events)
        self.set_event(len(s) - 1, emit=False)

    def set_focus_marks(self, marks: tuple[TimelineMark, ...] | list[TimelineMark]) -> None:
        """Mark a demo's events (a line) and spans (a shaded region), each with its label; () removes them."""
        self.focus_marks = tuple(marks)
        self._draw_focus_marks()

    def clear_focus_marks(self) -> None:
        self.set_focus_marks(())

    def _draw_focus_marks(self) -> None:
        for old in self.focus_items:
            self.plot.removeItem(old)
        self.focus_items = []
        if self.timeline is None or not self.focus_marks:
            return
        s = self.timeline.series
        top = s.peak("reserved") / self.unit_scale if len(s) else 1.0
        pen = pg.mkPen(palette.FOCUS, width=2)
        first, last = (float(v) for v in self.event_x(np.array([0, max(self.timeline.n_events - 1, 0)])))
        for k, mark in enumerate(self.focus_marks):
            start, end = (float(v) for v in self.event_x(np.array([mark.start, mark.end])))
            if mark.end > mark.start:
                item: pg.GraphicsObject = pg.LinearRegionItem(
                    (start, end), movable=False, brush=pg.mkBrush(*palette.FOCUS_SPAN), pen=pen
                )
            else:
                item = pg.InfiniteLine(pos=start, angle=90, pen=pg.mkPen(palette.FOCUS, width=3))
            item.setToolTip(mark.label)
            item.setZValue(-5)  # under the curves, which stay readable through the shading
            self.plot.addItem(item)
            self.focus_items.append(item)
            if mark.label:
                # labels stacked from the top, so that marks close together do not print over each other
                # a span's label reads from its start into it, an event's away from the nearer end; near the
                # right end both turn left, so that the label stays in view
                room = (start - first) / (last - first) if last > first else 0.0
                right_side = room > (0.8 if mark.end > mark.start else 0.5)
                anchor = (1, 0) if right_side else (0, 0)
                label = pg.TextItem(
                    mark.label, color=palette.FOCUS, anchor=anchor, fill=pg.mkBrush(*palette.LABEL_FILL)
                )
                label.setPos(end if right_side else start, top * (1.0 - 0.12 * (k % 4)))
                self.plot.addItem(label)
                self.focus_items.append(label)

    def by_time(self) -> bool:
        t = self.timeline.series.time_us if self.timeline is not None else None
        return self.use_time and t is not None and len(t) > 0

    def event_x(self, indices: np.ndarray) -> np.ndarray:
        """Where events sit on the x axis: their index, or seconds since the first event."""
        if not self.by_time():
            return indices.astype(np.float64)
        assert self.timeline is not None and self.timeline.series.time_us is not None
        t = self.timeline.series.time_us
        seconds: np.ndarray = (t[np.clip(indices, 0, len(t) - 1)] - t[0]) / 1e6
        return seconds

    def event_at(self, x: float) -> int:
        if not self.by_time():
            return round(x)
        assert self.timeline is not None and self.timeline.series.time_us is not None
        t = self.timeline.series.time_us
        return int(np.searchsorted(t, t[0] + x * 1e6, "right")) - 1

    def set_time_axis(self, use_time: bool) -> None:
        self.use_time = use_time
        if self.timeline is not None:
            current = self.event_at(self.cursor_line.value())
            self.set_timeline(self.timeline, self.trace, self.annotation_ranges, self._envelopes)
            self.set_event(current, emit=False)

    def set_event(self, index: int, emit: bool = True) -> None:
        self._emitting = emit
        self.cursor_line.setValue(float(self.event_x(np.array([index]))[0]) if index >= 0 else -1)
        self._emitting = True

    def explain_actions(self, x: float) -> list[tuple[str, int]]:
        """What a right click at `x` offers: the OOM marked near it, the event under it, the OOM or peak."""
        if self.timeline is None or self.timeline.n_events == 0:
            return []
        index = min(max(self.event_at(x), 0), self.timeline.n_events - 1)
        actions: list[tuple[str, int]] = []
        near = (self.plot.getViewBox().viewRange()[0][1] - self.plot.getViewBox().viewRange()[0][0]) / 100
        ooms = [o.index for o in self.timeline.ooms]
        if ooms:
            x_of = self.event_x(np.array(ooms))
            closest = int(np.argmin(np.abs(x_of - x)))
            if abs(float(x_of[closest]) - x) <= near:
                at = localized(f"{ooms[closest]:,}")
                actions.append(
                    (translate("TimelineView", "Explain the OOM at event {event}").format(event=at), ooms[closest])
                )
        actions.append(
            (translate("TimelineView", "Explain event {event}").format(event=localized(f"{index:,}")), index)
        )
        first = (
            translate("TimelineView", "Explain the first OOM")
            if ooms
            else translate("TimelineView", "Explain the peak")
        )
        actions.append((first, -1))
        return actions

    def _context_menu(self, x: float, at: QtCore.QPoint) -> None:
        menu = QtWidgets.QMenu(self)
        for text, event in self.explain_actions(x):
            menu.addAction(text, functools.partial(self.explain_requested.emit, event))
        for more in self.more_actions:
            menu.addSeparator()
            for text, act in more(x):
                menu.addAction(text, act)
        if not menu.isEmpty():
            menu.popup(at)

    def _cursor_moved(self) -> None:
        if self.timeline is None or not self._emitting:
            return
        index = self.event_at(self.cursor_line.value())
        index = min(max(index, -1), self.timeline.n_events - 1)
        self.event_selected.emit(index)
