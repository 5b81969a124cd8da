"""CurvesPanel: what a tab shows under its map once the trace is read: the memory curves, the allocated memory by site,
the cached segments and the memory by pool (one tab each), beside the list of the trace's events."""

from __future__ import annotations

from typing import TypeVar

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtWidgets

from gpumem_gui.core.analysis.site_series import BandSeries, SiteSeries
from gpumem_gui.core.analysis.timetravel import DeviceTimeline
from gpumem_gui.document import SnapshotDocument
from gpumem_gui.document.event_list import EventFilter, EventTable, prepared_table
from gpumem_gui.views.common.language import QT_TRANSLATE_NOOP, add_tab
from gpumem_gui.views.common.tasks import TaskGroup
from gpumem_gui.views.snapshot.event_list import EventListView
from gpumem_gui.views.snapshot.pool_envelope import PoolEnvelopeView
from gpumem_gui.views.snapshot.segment_timeline import SegmentTimelineView
from gpumem_gui.views.snapshot.site_timeline import SiteTimelineView, site_plot
from gpumem_gui.views.snapshot.timeline import TimelineView, timeline_plot

# the titles of the tabs whose views are made when first looked at
_SEGMENTS = QT_TRANSLATE_NOOP("Tabs", "cached segments")
_POOLS = QT_TRANSLATE_NOOP("Tabs", "by pool")
_Made = TypeVar("_Made", SegmentTimelineView, PoolEnvelopeView)
# a trace this short is listed at once; a longer one's list is made in a task (a pass over millions of events)
LIST_AT_ONCE = 100_000


class CurvesPanel(QtWidgets.QSplitter):
    """Made in parts by its tab (a plot costs a turn of the event loop): the event list first, then the curves' plot,
    then their tabs, then the site timeline and the tabs of the segment timeline and the memory by pool. Those two are
    made when their tab is first looked at (or asked for), each a plot of some 30 ms that most looks at a file never
    need; the site, segment and pool timelines are computed when their tab is first looked at, per device and
    timeline."""

    event_chosen = QtCore.Signal(int)  # a row of the event list
    event_selected = QtCore.Signal(int)  # the memory curves' cursor
    event_travelled = QtCore.Signal(int)  # the site or the segment timeline's cursor
    explain_requested = QtCore.Signal(int)  # -1: the OOM or the peak
    band_selected = QtCore.Signal(str, object, str)  # a band of the site timeline: its kind, key and label

    def __init__(self, document: SnapshotDocument, tasks: TaskGroup) -> None:
        super().__init__(QtCore.Qt.Orientation.Horizontal)
        self.document = document
        self.tasks = tasks
        self.shown_event = -1  # the event the tab shows: where a list or a timeline made later starts
        self.event_list = EventListView()
        self.event_list.event_chosen.connect(self.event_chosen)
        self._plot: TimelineView | None = None  # made in one part, placed in the next
        self._timeline_plot: pg.PlotWidget | None = None  # the timeline's, made a part before it (None: with it)
        self._site_plot: pg.PlotWidget | None = None  # the site timeline's, made a part before it (None: with it)
        self.timeline_view: TimelineView | None = None
        self.curve_tabs: QtWidgets.QTabWidget | None = None
        self.site_timeline: SiteTimelineView | None = None
        self._segment_timeline: SegmentTimelineView | None = None
        self._pool_envelope: PoolEnvelopeView | None = None
        # the pages that stand in the two tabs' places until their views are made (see _made_in_place)
        self._segment_page: QtWidgets.QWidget | None = None
        self._pool_page: QtWidgets.QWidget | None = None
        self.site_timeline_for: tuple[int, DeviceTimeline] | None = None  # (device, timeline) it shows
        self._segment_timeline_for: tuple[int, object] | None = None
        self._pool_envelope_for: tuple[int, object] | None = None
        # the loader's site bands of one device's timeline (device, groupings), for the site timeline
        self._site_bands: tuple[int, dict[str, BandSeries]] | None = None
        self._site_bands_for: int | None = None  # the loader is making this device's: the site timeline waits
        # the loader's segment allocations (the timeline's ticks) per device, of the timeline they were found for
        self._segment_ticks: dict[int, np.ndarray] = {}
        self._ticks_of: dict[int, DeviceTimeline] = {}
        self.setVisible(False)

    # -- its parts ------------------------------------------------------------------------------------------------

    def make_timeline_plot(self) -> None:
        self._timeline_plot = timeline_plot()  # a turn's worth of work; the timeline is made around it next

    def make_plot(self) -> None:
        self._plot = TimelineView(plot=self._timeline_plot)  # a turn's worth of work; placed by place_plot

    def place_plot(self) -> None:
        view = self._plot
        assert view is not None
        view.event_selected.connect(self.event_selected)
        view.explain_requested.connect(self.explain_requested)
        # the memory curves, or the allocated memory stacked by site, category, stream or pool
        tabs = QtWidgets.QTabWidget(documentMode=True)
        add_tab(tabs, view, QT_TRANSLATE_NOOP("Tabs", "memory"))
        tabs.currentChanged.connect(lambda _i: self.site_timeline_if_shown())
        self.curve_tabs = tabs
        self.addWidget(tabs)
        self.addWidget(self.event_list)
        self.setStretchFactor(0, 1)
        self.setStretchFactor(1, 0)
        self.setSizes([900, 480])
        self.event_list.setVisible(False)  # painted first with its rows (show_lists), a turn after the curves
        self.timeline_view = view

    def make_site_plot(self) -> None:
        self._site_plot = site_plot()  # a turn's worth of work; the site timeline is made around it by the next part

    def make_site_timeline(self) -> None:
        assert self.curve_tabs is not None
        view = SiteTimelineView(plot=self._site_plot)  # filled when first shown
        view.event_selected.connect(self.event_travelled)
        view.band_selected.connect(self.band_selected)
        self.site_timeline = view
        add_tab(self.curve_tabs, view, QT_TRANSLATE_NOOP("Tabs", "allocated by site"))

    def make_segment_timeline(self) -> None:
        """The cached segments' tab, its view made when the tab is first looked at (segment_timeline)."""
        assert self.curve_tabs is not None
        self._segment_page = QtWidgets.QWidget()
        add_tab(self.curve_tabs, self._segment_page, _SEGMENTS)
        self.curve_tabs.currentChanged.connect(lambda _i: self.segment_timeline_if_shown())

    def make_pool_envelope(self) -> None:
        """The memory by pool's tab, its view made when the tab is first looked at (pool_envelope)."""
        assert self.curve_tabs is not None
        self._pool_page = QtWidgets.QWidget()
        add_tab(self.curve_tabs, self._pool_page, _POOLS)
        self.curve_tabs.currentChanged.connect(lambda _i: self.pool_envelope_if_shown())

    @property
    def segment_timeline(self) -> SegmentTimelineView | None:
        """The segment timeline (made now where its tab is placed and it is not yet); None before its tab is."""
        if self._segment_timeline is None and self._segment_page is not None:
            self._segment_timeline = self._made_in_place(self._segment_page, SegmentTimelineView(), _SEGMENTS)
        return self._segment_timeline

    @property
    def pool_envelope(self) -> PoolEnvelopeView | None:
        """The memory by pool (made now where its tab is placed and it is not yet); None before its tab is."""
        if self._pool_envelope is None and self._pool_page is not None:
            self._pool_envelope = self._made_in_place(self._pool_page, PoolEnvelopeView(), _POOLS)
        return self._pool_envelope

    def _made_in_place(self, page: QtWidgets.QWidget, view: _Made, title: str) -> _Made:
        """`view` (filled when first shown) takes the place of the page that stood in its tab, picked if that page
        was: the tabs' own signal is held meanwhile (a view being made is no tab change; whoever made it goes on
        with it shown). Its picked events travel the tab."""
        view.event_selected.connect(self.event_travelled)
        tabs = self.curve_tabs
        assert tabs is not None
        index = tabs.indexOf(page)
        picked = tabs.currentWidget() is page
        held = tabs.blockSignals(True)
        try:
            add_tab(tabs, view, title, index)
            if picked:
                tabs.setCurrentIndex(index)
            tabs.removeTab(tabs.indexOf(page))
        finally:
            tabs.blockSignals(held)
        page.deleteLater()
        return view

    def _shown(self, page: QtWidgets.QWidget | None) -> bool:
        """Whether `page` (a view, or the page standing in for one) is the tab picked."""
        return page is not None and self.curve_tabs is not None and self.curve_tabs.currentWidget() is page

    # -- what arrives from the loader -----------------------------------------------------------------------------

    def expect(self, timelines: dict[int, DeviceTimeline], ticks: dict[int, np.ndarray], bands_for: int | None) -> None:
        """The loader's timelines are on their way: each device's segment allocations found by the loader (for the
        timeline's ticks), and the device whose site bands it is making (site_bands_arrived hands them over)."""
        self._segment_ticks = dict(ticks)
        self._ticks_of = {d: timelines[d] for d in self._segment_ticks if d in timelines}
        self._site_bands, self._site_bands_for = None, bands_for

    def site_bands_arrived(self, bands: tuple[int, dict[str, BandSeries]] | None, more: bool = False) -> None:
        """The loader's site bands of one device's timeline (None: it has none; the site timeline computes them);
        `more`: some of its groupings, the loader making the others (the site timeline computes none meanwhile)."""
        waited_for, self._site_bands_for = self._site_bands_for, bands[0] if more and bands is not None else None
        self._site_bands = bands  # the trace may still be on its way to the view: matched to a timeline when shown
        shown = self.site_timeline_for
        if (
            bands is not None
            and shown is not None
            and waited_for == bands[0] == shown[0]
            and self.site_timeline is not None
            and self.site_timeline.add_groupings(shown[1], bands[1])
        ):
            return  # the rest of the groupings the view shows the first of: added, the shown bands kept as drawn
        self.site_timeline_for = None  # shown waiting for these: shown again, with them
        self.site_timeline_if_shown()

    # -- drawing the device shown ---------------------------------------------------------------------------------

    def draw_timeline(self) -> None:
        """The device's curves, at the document's event (its OOM or peak, or its end)."""
        doc = self.document
        assert self.timeline_view is not None
        tl = doc.timeline()
        self.timeline_view.set_timeline(
            tl,
            doc.snapshot.trace(doc.device),
            doc.annotation_ranges(),
            doc.curve_envelopes(),
            ticks=self._segment_ticks.get(doc.device) if tl is self._ticks_of.get(doc.device) else None,
        )
        self.timeline_view.set_event(doc.event, emit=False)

    def show_lists(self) -> None:
        """The event list and the timelines looked at, once the trace is read."""
        if not self.document.pending:
            self.event_list.setVisible(True)
            self.list_events(self.document.timeline())
            self.site_timeline_if_shown()
            self.segment_timeline_if_shown()
            self.pool_envelope_if_shown()

    def follow(self, event: int) -> None:
        """The tab travelled to `event`: the list's row and the timelines' cursors follow (not the curves': the tab
        moves them where the travel did not come from them)."""
        self.shown_event = event
        self.event_list.show_event(event)
        # only the timeline in the tab shown: the others' cursors (and the site legend's figures, a few ms a step)
        # move to the event when their tab is picked (the *_if_shown below)
        if self.site_timeline_for is not None:
            self._cursor_if_shown(self.site_timeline)
        if self._segment_timeline_for is not None:
            self._cursor_if_shown(self._segment_timeline)
        if self._pool_envelope_for is not None:
            self._cursor_if_shown(self._pool_envelope)

    def _cursor_if_shown(self, view: SiteTimelineView | SegmentTimelineView | PoolEnvelopeView | None) -> None:
        """`view`'s cursor at the event shown, where its tab is the one picked (and it is not there yet)."""
        if view is not None and self._shown(view) and view.current_event != self.shown_event:
            view.set_event(self.shown_event, emit=False)

    def list_events(self, timeline: DeviceTimeline) -> None:
        """The event list of the device shown: at once for a short trace, else made in a task and handed over (the
        newest request winning: a list of another device or snapshot never arrives late)."""
        doc = self.document
        if len(doc.snapshot.trace(doc.device)) <= LIST_AT_ONCE:
            self.tasks.cancel_latest("event list")
            self.event_list.set_document(doc.snapshot, doc.device, timeline)
            self.event_list.show_event(self.shown_event)  # the row of the event shown: the OOM a file opens at
            return
        self.event_list.clear("listing the events...")
        snapshot, device, flt = doc.snapshot, doc.device, self.event_list.filter
        self.tasks.start_latest(
            "event list",
            lambda _ctx: prepared_table(snapshot, device, timeline, flt),
            on_result=lambda made: self._events_listed(flt, made),
            on_error=lambda message: self.event_list.clear(f"The events could not be listed: {message}"),
        )

    def _events_listed(self, flt: EventFilter, made: tuple[EventTable, np.ndarray]) -> None:
        table, indices = made
        self.event_list.set_table(table, indices if flt == self.event_list.filter else None)
        self.event_list.show_event(self.shown_event)

    def site_timeline_if_shown(self) -> None:
        """The stacked bands are computed when first looked at, per device (a few hundred ms at 3M events)."""
        doc = self.document
        if doc.pending or self.site_timeline is None or self.curve_tabs is None:
            return
        tl = doc.timeline()
        if self.site_timeline_for == (doc.device, tl):
            self._cursor_if_shown(self.site_timeline)
            return
        self.site_timeline_for = None  # what it shows is of another device or snapshot: it follows no cursor
        if self.curve_tabs.currentWidget() is self.site_timeline:
            self.site_timeline_for = (doc.device, tl)
            series = None
            if self._site_bands is not None and self._site_bands[0] == doc.device:
                groupings = self._site_bands[1]
                if all(b.n_events == tl.n_events for b in groupings.values()):
                    series = SiteSeries(doc.snapshot, tl, groupings)
            # the loader is making this device's bands (or the rest of them): computed here too, both would want
            # the GIL at once
            wait = self._site_bands_for == doc.device
            self.site_timeline.set_document(doc.snapshot, tl, series, event=self.shown_event, compute=not wait)

    def segment_timeline_if_shown(self) -> None:
        """The segments' lives of the device shown, computed when their tab is first looked at."""
        doc = self.document
        if doc.pending or self.curve_tabs is None:
            return
        tl = doc.timeline()
        shown = self._shown(self._segment_page) or self._shown(self._segment_timeline)
        if self._segment_timeline_for != (doc.device, tl) and shown:
            view = self.segment_timeline  # made now if its tab is looked at for the first time
            assert view is not None
            self._segment_timeline_for = (doc.device, tl)
            view.set_timeline(doc.snapshot, tl, event=self.shown_event)
        elif self._segment_timeline_for == (doc.device, tl):
            self._cursor_if_shown(self._segment_timeline)

    def pool_envelope_if_shown(self) -> None:
        """The pools' envelopes of the device shown, computed when their tab is first looked at."""
        doc = self.document
        if doc.pending or self.curve_tabs is None:
            return
        tl = doc.timeline()
        shown = self._shown(self._pool_page) or self._shown(self._pool_envelope)
        if self._pool_envelope_for != (doc.device, tl) and shown:
            view = self.pool_envelope  # made now if its tab is looked at for the first time
            assert view is not None
            self._pool_envelope_for = (doc.device, tl)
            view.set_timeline(tl, event=self.shown_event)
        elif self._pool_envelope_for == (doc.device, tl):
            self._cursor_if_shown(self._pool_envelope)

    def shutdown(self) -> None:
        if self.site_timeline is not None:
            self.site_timeline.tasks.cancel_all()
