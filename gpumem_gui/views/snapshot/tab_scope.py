"""TabScope: a snapshot tab's span, flame graph and map colouring. A span picked from the list or shift-dragged on a
timeline re-scopes every view (the map's frame, the event list, the span page, the flame graph, the shaded region of
the timelines); the span's report and the flame frames are computed on the tab's TaskGroup, off the GUI thread; a
clicked flame rectangle lights its blocks on the map and draws its band on the site timeline. Its TabPins keep the
pinned tracks, its SpanMarks the two marks that make a span from the keyboard."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt
import pyqtgraph as pg
import shiboken6
from PySide6 import QtCore

from gpumem_gui.core.analysis.breakdown import block_lifetimes
from gpumem_gui.core.analysis.flame import FlameFrame
from gpumem_gui.core.analysis.span import Span, SpanReport
from gpumem_gui.core.snapshot.model import AllocatorState
from gpumem_gui.document.curves import memory_unit, steps
from gpumem_gui.views.common import language, palette
from gpumem_gui.views.common.language import QT_TRANSLATE_NOOP, translate
from gpumem_gui.views.snapshot.flame_page import FlamePage
from gpumem_gui.views.snapshot.owned import while_alive
from gpumem_gui.views.snapshot.span_drag import SpanDrag
from gpumem_gui.views.snapshot.span_marks import SpanMarks
from gpumem_gui.views.snapshot.span_panel import SpanPanel, span_label
from gpumem_gui.views.snapshot.tab_pins import TabPins

if TYPE_CHECKING:
    from gpumem_gui.views.snapshot.tab_host import TabHost

# the map's captions: what the span left behind, lit at its end; a clicked flame rectangle's blocks
LEFT_BEHIND = QT_TRANSLATE_NOOP("SpanPanel", "{span}: allocated in the span and still alive at its end")
ITS_BLOCKS = QT_TRANSLATE_NOOP("Flame", "{name}: its blocks")
SPAN_COST = "leaked"  # what the flame graph asks first of a span: what it left behind


class TabScope(QtCore.QObject):
    """Made as the tab's last part (its curves, timelines and side panel exist)."""

    def __init__(
        self, tab: TabHost, span_panel: SpanPanel, flame_page: FlamePage, parent: QtCore.QObject | None = None
    ) -> None:
        """`span_panel`, `flame_page`: its pages, already in the tab's side panel and curves' tabs (the tab makes them
        in turns of their own)."""
        super().__init__(parent)  # the tab: the scope goes with it
        self.tab = tab
        self.document = tab.document
        self.span_panel = span_panel
        self.flame_page = flame_page
        self.flame_frame: FlameFrame | None = None  # the frame drawn
        self._flame_key: tuple[object, ...] | None = None  # what it was computed for
        self._spans_for: tuple[int, object] | None = None  # (device, timeline) whose named spans are listed
        self._report_token = self._flame_token = 0
        self._report_for: tuple[object, ...] | None = None  # the (device, timeline, span) reported
        # the map's caption this scope wrote last, what it lights ("left behind", "flame") and what words it again
        # in another language (None: the map's light, if any, is another view's)
        self._caption: tuple[str, str, Callable[[], str]] | None = None
        site = tab.site_timeline
        self.site_drag = SpanDrag(site.plot, round, lambda e: e.astype(np.float64), self.choose_events)
        self.band = pg.PlotCurveItem(pen=pg.mkPen(palette.FOCUS, width=3, style=QtCore.Qt.PenStyle.DashLine))
        self.band.setZValue(6)  # over the stacked bands, under the cursor
        site.plot.addItem(self.band, ignoreBounds=True)
        site.view_box.span_dragged.connect(self.site_drag.dragged)
        tab.timeline_view.span_selected.connect(self.choose_events)
        self.pins = TabPins(tab, parent=self)  # the pinned tracks under the curves
        self.marks = SpanMarks(tab, self.choose_events, lambda: self.choose(None), parent=self)  # M, M: a span
        self.span_panel.span_chosen.connect(self.choose)
        self.flame_page.options_changed.connect(lambda: self.refresh_flame(force=True))
        self.flame_page.picked.connect(self.light)
        tab.controls.colouring_box.currentIndexChanged.connect(
            lambda _i: tab.show_frame(self.document.set_colouring(tab.controls.colouring_box.currentData()))
        )
        language.notifier().changed.connect(self._recaption)
        tab.side_tabs.currentChanged.connect(lambda _i: self.sync())
        tab.curve_tabs.currentChanged.connect(lambda _i: self.sync())
        tab.device_box.currentIndexChanged.connect(lambda _i: self.sync())  # after the tab's: the span is gone
        for travelled in (tab.curves.event_selected, tab.curves.event_travelled, tab.curves.event_chosen):
            travelled.connect(lambda _e: self.refresh_flame())  # "live" is at the cursor
        self.sync()

    # -- the span -----------------------------------------------------------------------------------------------

    def choose_events(self, start: int, end: int) -> None:
        """A span drawn on a timeline: right after event `start` to right after event `end`."""
        self.choose(Span(start, end))

    def choose(self, span: Span | None) -> None:
        """Scope every view to `span` (None: the whole trace)."""
        doc = self.document
        if doc.pending or not doc.has_trace():
            return
        try:
            frame = doc.set_span(span)
        except ValueError as error:  # a span the trace has not: said, not raised
            self.span_panel.text.setPlainText(str(error))
            return
        if span is not None and self.flame_page.options()[0] == "live":
            self.flame_page.cost_box.blockSignals(True)
            self.flame_page.set_cost(SPAN_COST)
            self.flame_page.cost_box.blockSignals(False)
        if span is not None:  # the map at the span's end, where what it left behind is lit once the report is in
            self.tab.travel_to(span.end)
            self.tab.timeline_view.set_event(span.end, emit=False)
        else:  # the whole trace: the light on what the span left behind goes with it
            self.tab.show_frame(doc.clear_spotlight() if self._lit() == "left behind" else frame)
        self.sync()
        self.tab.side_tabs.setCurrentWidget(self.span_panel)

    def sync(self) -> None:
        """Every view of the scope as the document has it now (another device or snapshot drops the span)."""
        doc = self.document
        span = None if doc.pending else doc.span
        events = None if span is None else (span.start, span.end)
        n = 0 if doc.pending else doc.timeline().n_events
        for drag in (self.tab.timeline_view.span_drag, self.site_drag):
            drag.n_events = n
            drag.show_span(events)
        event_list = self.tab.event_list
        if event_list.filter.span != doc.span_events():
            event_list.set_filter(replace(event_list.filter, span=doc.span_events()))
        self._list_spans()
        self.marks.sync()
        self.pins.sync()
        self.refresh_report()
        self.refresh_flame()

    def spans_arrived(self) -> None:
        """The loading worker's named spans are in the document: listed now."""
        self._spans_for = None
        self._list_spans()

    def _list_spans(self) -> None:
        doc = self.document
        if doc.pending or doc.spans_coming:  # the loading worker finds them (spans_arrived lists them)
            return
        key = (doc.device, doc.timeline())
        if self._spans_for != key:
            self._spans_for = key
            self.span_panel.set_spans([], None)
            listed = while_alive(self, lambda spans: self._spans_listed(key, spans))
            self.tab.tasks.start("spans", lambda _ctx: doc.named_spans(), on_result=listed)
        else:
            self.span_panel.set_spans(self.span_panel._spans, doc.span)

    def _spans_listed(self, key: tuple[int, object], spans: list[Span]) -> None:
        if key == self._spans_for:
            self.span_panel.set_spans(spans, self.document.span)

    def refresh_report(self) -> None:
        """The span's report, computed in a task once per span (looking at another tab keeps what the map shows)."""
        doc = self.document
        key = None if doc.pending else (doc.device, doc.timeline(), doc.span)
        if key == self._report_for:
            return
        self._report_for = key
        self._report_token += 1
        if doc.span is None or doc.pending:
            self.span_panel.show_report(None)
            return
        token = self._report_token
        self.span_panel.show_report(None, waiting=True)
        reported = while_alive(self, lambda r: self._reported(token, r))
        self.tab.tasks.start("span report", lambda _ctx: doc.span_report(), on_result=reported)

    def _reported(self, token: int, report: SpanReport | None) -> None:
        if token == self._report_token and report is not None and report.span == self.document.span:
            self.span_panel.show_report(report)
            if self.document.event == report.span.end:  # still at its end: its blocks left behind lit on the map
                span = report.span
                caption = self.wrote(
                    "left behind", lambda: translate("SpanPanel", LEFT_BEHIND, {"span": span_label(span)})
                )
                self.tab.show_frame(self.document.set_spotlight(self._left_behind(report), caption))

    def wrote(self, what: str, caption: Callable[[], str]) -> str:
        """`caption()` now, for the light on `what` (also the tab's: a band, a site), kept to be worded again on a
        switch of language while the map still shows it."""
        text = caption()
        self._caption = (text, what, caption)
        return text

    def _lit(self) -> str | None:
        """What the map's light shows if this scope lit it ("left behind", "flame"), else None."""
        lit = None if self.document.pending else self.document.frame().spotlight
        ours = self._caption
        return ours[1] if ours is not None and lit is not None and lit.caption == ours[0] else None

    def _recaption(self, _lang: str) -> None:
        """Another language: the map's caption this scope wrote, if the map still shows it, worded again."""
        if not shiboken6.isValid(self.tab):  # a closed tab's scope can outlive its widgets until the collector comes
            language.notifier().changed.disconnect(self._recaption)
            return
        what = self._lit()
        if what is not None and self._caption is not None:
            self.tab.show_frame(self.document.recaption_spotlight(self.wrote(what, self._caption[2])))

    def _left_behind(self, report: SpanReport) -> Callable[[AllocatorState], npt.NDArray[np.bool_]]:
        timeline, event = self.document.timeline(), report.span.end
        kept = np.zeros(len(timeline.lifetimes.start), bool)
        kept[report.left_behind.lifetimes] = True

        def mask_of(state: AllocatorState) -> npt.NDArray[np.bool_]:
            ids = block_lifetimes(timeline, state, event)
            return np.where(ids >= 0, kept[np.maximum(ids, 0)], False)

        return mask_of

    # -- the flame graph ----------------------------------------------------------------------------------------

    def refresh_flame(self, force: bool = False) -> None:
        """The flame frame for the page's options, the span and (for "live") the cursor, computed in a task when
        the flame tab is shown and something it depends on changed."""
        doc = self.document
        if doc.pending or self.tab.curve_tabs.currentWidget() is not self.flame_page:
            return
        cost, inverted, search = self.flame_page.options()
        key = (doc.device, doc.timeline(), doc.span, cost, inverted, search, doc.event if cost == "live" else None)
        if key == self._flame_key and not force:
            return
        self._flame_key = key
        self._flame_token += 1
        token = self._flame_token
        self.flame_page.show_frame(None, waiting=True)
        self.tab.tasks.start(
            "flame graph",
            lambda _ctx: doc.flame_frame(cost, inverted=inverted, search=search),
            on_result=while_alive(self, lambda frame: self._flamed(token, frame)),
        )

    def _flamed(self, token: int, frame: FlameFrame | None) -> None:
        if token == self._flame_token:
            self.flame_frame = frame
            self.band.setData([], [])
            self.flame_page.show_frame(frame)

    def light(self, frame: FlameFrame, row: int) -> None:
        """A clicked rectangle: its blocks lit on the map, its bytes over the trace drawn on the site timeline."""
        tab = self.tab
        graph = self.flame_page.graph
        caption = self.wrote("flame", lambda: translate("Flame", ITS_BLOCKS, {"name": graph.label_of(frame, row)}))
        tab.show_frame(self.document.light_flame_frame(frame, row, caption))
        events, values = self.document.flame_band(frame, row)
        if not len(events):
            self.band.setData([], [])
            return
        end = max(self.document.timeline().n_events - 1, 0)
        # from before the first change (none of its bytes yet) to the trace's end, where its last value holds
        x = np.concatenate([[-1.0], events.astype(np.float64), [float(end)]])
        _unit, scale = memory_unit(self.document.timeline().series.peak("allocated"))  # the site timeline's axis
        y = np.concatenate([[0.0], values.astype(np.float64), values[-1:].astype(np.float64)]) / scale
        self.band.setData(*steps(x, y))
