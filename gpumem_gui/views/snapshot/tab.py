"""SnapshotTab: one open snapshot's tab: the segment map, the timeline to travel through, the figures, a block's
stack. It draws the EventFrames its SnapshotDocument hands it and turns the user's choices into document calls."""

from __future__ import annotations

import collections
import functools
from collections.abc import Callable

import numpy as np
import numpy.typing as npt
from PySide6 import QtCore, QtGui, QtWidgets

from gpumem_gui.core.analysis.site_series import BandSeries
from gpumem_gui.core.analysis.timetravel import DeviceTimeline
from gpumem_gui.core.snapshot.model import AllocatorState, Snapshot
from gpumem_gui.document import EventFrame, SnapshotDocument
from gpumem_gui.document.curves import Envelope
from gpumem_gui.document.document import LAYOUTS
from gpumem_gui.document.sites import site_block_mask
from gpumem_gui.views.common.language import (
    QT_TRANSLATE_NOOP,
    add_tab,
    current_language,
    parse_size,
    site_words,
    translate,
)
from gpumem_gui.views.common.paint_pass import PaintWait
from gpumem_gui.views.common.tasks import TaskGroup
from gpumem_gui.views.common.travel_keys import travel_delta
from gpumem_gui.views.diagnosis.pages import DiagnosisPages
from gpumem_gui.views.snapshot.block_details import BlockPage
from gpumem_gui.views.snapshot.block_table import BlockTableView
from gpumem_gui.views.snapshot.curves_panel import CurvesPanel
from gpumem_gui.views.snapshot.event_inspector import EventInspector
from gpumem_gui.views.snapshot.event_list import EventListView
from gpumem_gui.views.snapshot.figures import FiguresPanel
from gpumem_gui.views.snapshot.file_notes import FileNotes
from gpumem_gui.views.snapshot.flame_page import FlamePage
from gpumem_gui.views.snapshot.map_view import MapPlot, SegmentMapView, map_plot
from gpumem_gui.views.snapshot.partial_curves import PartialCurvesView, stop_partial
from gpumem_gui.views.snapshot.pool_envelope import PoolEnvelopeView
from gpumem_gui.views.snapshot.segment_timeline import SegmentTimelineView
from gpumem_gui.views.snapshot.settings_view import SettingsView
from gpumem_gui.views.snapshot.site_timeline import SiteTimelineView, band_name
from gpumem_gui.views.snapshot.span_panel import SpanPanel
from gpumem_gui.views.snapshot.tab_controls import TabControls, frame_title
from gpumem_gui.views.snapshot.tab_scope import TabScope
from gpumem_gui.views.snapshot.tab_support import (
    MAP_OVER_CURVES,
    TURN_MS,
    UNSHOWN_MS,
    SplitterMemory,
    device_label,
    made_part,
    map_and_side,
    scroll_area,
)
from gpumem_gui.views.snapshot.timeline import TimelineView

# the map's captions when a band of the site timeline or a site of a list lights its blocks
_BAND_BLOCKS = QT_TRANSLATE_NOOP("SnapshotTab", "{label}: its blocks")
_SITE = QT_TRANSLATE_NOOP("SnapshotTab", "site {site}")


class SnapshotTab(QtWidgets.QWidget):
    """Shows a SnapshotDocument; `current_event` is the trace event whose state the map shows (-1: before the first)."""

    splitters_moved = QtCore.Signal()  # the user dragged a splitter: the window saves splitter_states()
    remedy_chosen = QtCore.Signal(object, int, int)  # the Explanation, a remedy's index, the event to compare at

    def __init__(
        self,
        snapshot: Snapshot | SnapshotDocument,
        parent: QtWidgets.QWidget | None = None,
        timelines: dict[int, DeviceTimeline] | None = None,
        pending: bool = False,
        *,
        map_view: SegmentMapView | None = None,
        figures: FiguresPanel | None = None,
        controls: TabControls | None = None,
    ) -> None:
        """`map_view`, `figures`, `controls`: its map, figures and controls made in earlier turns of the event loop
        (a file's tab is made over several, see TabAhead)."""
        super().__init__(parent)
        if isinstance(snapshot, SnapshotDocument):
            self.document = snapshot
        else:
            self.document = SnapshotDocument(snapshot, timelines, pending=pending)
        self.frame: EventFrame = self.document.frame()
        self.tasks = TaskGroup(self)  # the tab's own slow work (the event list of a long trace)
        self.device_picked = False  # the user chose a device while the trace was read: the whole one keeps it

        self.map = map_view if map_view is not None else SegmentMapView()
        self.figures = figures if figures is not None else FiguresPanel()
        self.side_tabs = QtWidgets.QTabWidget()  # its pages are parts made after the first frame (see _make)
        # the rest of the tab is made in later turns of the event loop, one part a turn (see _build): the map and
        # the figures show at once, and no turn of the GUI thread is long; a part asked for sooner is made then
        self._inspector: EventInspector | None = None
        self._inspector_page: QtWidgets.QWidget | None = None  # its page in the side panel
        self._block_page: BlockPage | None = None
        self._table: BlockTableView | None = None
        self._diagnosis: DiagnosisPages | None = None
        self._curves: CurvesPanel | None = None  # under the map: the curves, the timelines, the event list
        # the parts, by name, in the order they are made (a property asks for the parts up to the one it needs);
        # each a turn's work: a plot, then its view around it, then the view placed
        self._parts: dict[str, Callable[[], None]] = {
            "inspector": self._make_inspector,
            "block pages": self._make_block_pages,
            "diagnosis": self._make_diagnosis,
            "curves": self._make_curves,
            "timeline plot": lambda: self.curves.make_timeline_plot(),  # noqa: PLW0108 (the curves: a part above)
            "timeline view": lambda: self.curves.make_plot(),  # noqa: PLW0108
            "timeline": self._make_timeline,
            "site plot": lambda: self.curves.make_site_plot(),  # noqa: PLW0108 (its plot, then the view)
            "site timeline": lambda: self.curves.make_site_timeline(),  # noqa: PLW0108
            "settings": self._make_settings,
            "segment timeline": lambda: self.curves.make_segment_timeline(),  # noqa: PLW0108
            "pool envelope": lambda: self.curves.make_pool_envelope(),  # noqa: PLW0108
            "span panel": self._make_span_panel,
            "flame page": self._make_flame_page,
            "scope": self._make_scope,
        }
        self._settings_view: SettingsView | None = None
        self.scope: TabScope | None = None  # the span, the flame graph, the colouring: the last part made
        self._span_panel: SpanPanel | None = None  # its pages, made in the parts before it
        self._flame_page: FlamePage | None = None
        self._made = 0  # how many of _parts are made
        # steps waiting for a later turn (later), run one a turn by one timer: two chains of steps (the parts made,
        # a frame shown in turns) on timers of their own ran in the same turn whenever both were due
        self._steps: collections.deque[Callable[[], None]] = collections.deque()
        self._step_timer = QtCore.QTimer(self, singleShot=True, interval=TURN_MS)
        self._step_timer.timeout.connect(self._next_step)
        self._step_wait = PaintWait(self)  # a step runs in a turn without a paint of the window (_next_step)
        self._shown_token = 0  # _device_shown's count: a staged part of an earlier one is not shown
        self.side_tabs.currentChanged.connect(lambda _i: self._refresh_table())
        self.side_tabs.currentChanged.connect(lambda _i: self._inspector_if_shown())  # catches up when picked
        self.controls = controls if controls is not None else TabControls(LAYOUTS.index(self.document.layout))
        c = self.controls  # its widgets, by the names the window and the tests use
        self.device_box, self.pool_box, self.stream_box = c.device_box, c.pool_box, c.stream_box
        self.layout_box, self.search, self.search_count, self.position = (
            c.layout_box,
            c.search,
            c.search_count,
            c.position,
        )
        self.axis_box, self.play_button = c.axis_box, c.play_button
        self.pool_box.currentIndexChanged.connect(
            lambda _i: self.show_frame(self.document.set_pool(self.pool_box.currentData()))
        )
        self.stream_box.currentIndexChanged.connect(
            lambda _i: self.show_frame(self.document.set_stream(self.stream_box.currentData()))
        )
        self.device_box.currentIndexChanged.connect(lambda _i: self.set_device(self.device_box.currentData()))
        self.layout_box.currentIndexChanged.connect(self._layout_changed)
        self.search.returnPressed.connect(self.apply_search)
        self.notes = FileNotes()  # what is odd about the file, and where the tab opened
        self.notes.end_requested.connect(self.travel_to_end)
        self.notice, self.opened_line = self.notes.notice, self.notes.opened_line
        self.axis_box.currentIndexChanged.connect(lambda i: self.timeline_view.set_time_axis(i == 1))
        self.play_button.toggled.connect(self._play_toggled)
        self.play_timer = QtCore.QTimer(self, interval=40)
        self.play_timer.timeout.connect(self._play_step)

        # splitters the user can drag; the window remembers their sizes (splitter_states / restore_splitters)
        top, side, self._main, self.reading = map_and_side(self.map, self.figures, self.side_tabs)
        self._splitters = SplitterMemory(self.splitters_moved.emit)
        self._bottom_settled = False  # the map's and the curves' sizes set, once the curves are shown (_bottom_shown)
        for name, splitter in (("map_side", top), ("figures_tabs", side), ("map_timeline", self._main)):
            self._add_splitter(name, splitter)
        layout = QtWidgets.QVBoxLayout(self)
        layout.addWidget(self.controls)
        layout.addWidget(self.notes)
        layout.addWidget(self._main, 1)

        self.map.block_clicked.connect(self.show_block)
        self.map.block_clicked.connect(lambda _i: self.side_tabs.setCurrentWidget(self.block_page))
        self._fill_devices()
        self._staged = False
        if self.document.pending:
            # a file being loaded: the tab is made in this turn of the event loop, shown in another, its map drawn in
            # the next, the rest of its parts one a turn after that (each turn of the GUI thread stays short); a tab
            # not shown soon (another file's is) is drawn all the same
            self.reading.setVisible(True)
            self.notes.hold_opened_line()
            QtCore.QTimer.singleShot(UNSHOWN_MS, self, self._stage)
        else:
            self._device_shown()
            self.later(self._make_next)

    def later(self, step: Callable[[], None]) -> None:
        """`step` in a later turn of the event loop, one step a turn in the order asked, after a timer rather than as
        a queued call: the window's own events (input, painting) are served between two steps, never after both."""
        self._steps.append(step)
        if not self._step_timer.isActive():
            self._step_timer.start()

    def _next_step(self) -> None:
        if self._step_wait.wait():
            self._step_timer.start()  # the step before posted a paint: the next step waits for a turn of its own
            return
        if self._steps:
            step = self._steps.popleft()
            if self._steps:
                self._step_timer.start()  # before the step: one that asks for more keeps the order
            step()

    def settling(self) -> bool:
        """Whether some of the tab's staged steps are still to come (see later)."""
        return bool(self._steps)

    def showEvent(self, event: QtGui.QShowEvent) -> None:
        super().showEvent(event)
        if self.document.pending:
            self._stage()

    def _stage(self) -> None:
        if not self._staged:
            self._staged = True
            self.later(self._first_frame)

    def _first_frame(self) -> None:
        self._device_shown(staged=True)  # the notes and the map, then the inspector, each in a turn of its own
        self.later(self._make_next)

    # -- the tab's parts, made one a turn ----------------------------------------------------------------------

    def _make_next(self) -> None:
        if self._made < len(self._parts):
            self._make(self._made + 1)
        if self._made < len(self._parts):
            self.later(self._make_next)

    def _through(self, name: str) -> int:
        """How many parts are made once part `name` is."""
        return list(self._parts).index(name) + 1

    def _make(self, parts: int) -> None:
        """Make the first `parts` parts of the tab (in order: the side panel's pages keep their places)."""
        if self._made >= parts:
            return  # made: every property asks (made_part), and a travel asks for the curves several times
        makers = list(self._parts.values())
        while self._made < parts:
            part = makers[self._made]
            self._made += 1
            part()
        partial = self.findChild(PartialCurvesView)
        if partial is not None and not self._bottom_settled and partial.height() < self._curves_least():
            # the curves so far came before this part of the curves, which needs more height: given it now, while
            # the trace is read, rather than when the curves take their place
            self._settle_under_map(partial)

    def _make_inspector(self) -> None:
        # what the event the map is right after is; travelling shows it, the list below travels
        self._inspector = EventInspector()
        area = scroll_area()
        area.setWidget(self._inspector)  # scrolls rather than taking the figures' room in a short window
        self._inspector_page = area
        add_tab(self.side_tabs, area, QT_TRANSLATE_NOOP("Tabs", "event"), 0)
        self.side_tabs.setCurrentIndex(0)
        self._inspector.show_event(self.frame.event_info, self.frame.pending)

    def _make_block_pages(self) -> None:
        self._block_page = page = BlockPage()
        self._table = BlockTableView()
        self._table.block_selected.connect(self.select_block)
        add_tab(self.side_tabs, page, QT_TRANSLATE_NOOP("Tabs", "block"))
        add_tab(self.side_tabs, self._table, QT_TRANSLATE_NOOP("Tabs", "blocks"))

    def _make_diagnosis(self) -> None:
        # in the side panel: the explanation of an OOM or a peak, what holds memory at the cursor by site
        pages = DiagnosisPages(self.side_tabs)
        pages.set_document(self.document)
        pages.explain_panel.travel_requested.connect(self._event_chosen)
        pages.site_chosen.connect(self.spotlight_site)
        pages.remedy_chosen.connect(self.remedy_chosen)
        self._diagnosis = pages

    def _make_curves(self) -> None:
        curves = CurvesPanel(self.document, self.tasks)
        curves.shown_event = self.current_event  # where its list and timelines start
        curves.event_chosen.connect(self._event_chosen)
        curves.event_selected.connect(self.travel_to)
        curves.event_travelled.connect(self._event_travelled)
        curves.explain_requested.connect(lambda event: self.explain(None if event < 0 else event))
        curves.band_selected.connect(self._band_selected)
        self._curves = curves

    def _make_timeline(self) -> None:
        self.curves.place_plot()
        self._add_splitter("timeline_events", self.curves)
        self._main.addWidget(self.curves)
        # by its own index: the curves so far's view may still stand between the reading line and it (at index 2, it
        # took the stretch, and the curves, then without, all the height the map left at its least)
        self._main.setStretchFactor(self._main.indexOf(self.curves), 1)

    def _make_settings(self) -> None:
        view = SettingsView()  # the allocator settings the file recorded, in words
        view.set_settings(self.snapshot.allocator_settings)
        self._settings_view = view
        add_tab(self.side_tabs, view, QT_TRANSLATE_NOOP("Tabs", "settings"))

    def _make_span_panel(self) -> None:
        # the scope's pages, each a part of its own: made with the scope in one turn, they were the tab's longest
        self._span_panel = SpanPanel()
        add_tab(self.side_tabs, self._span_panel, QT_TRANSLATE_NOOP("Tabs", "span"))

    def _make_flame_page(self) -> None:
        self._flame_page = FlamePage()
        add_tab(self.curve_tabs, self._flame_page, QT_TRANSLATE_NOOP("Tabs", "flame"))

    def _make_scope(self) -> None:
        assert self._span_panel is not None and self._flame_page is not None  # the parts before
        self.scope = TabScope(self, self._span_panel, self._flame_page, self)

    def show_settings(self) -> None:
        """Bring the allocator settings page to the front of the side panel."""
        self.side_tabs.setCurrentWidget(self.settings_view)

    def show_segments(self) -> None:
        """Bring the cached-segment timeline to the front (and fill it)."""
        self.curve_tabs.setCurrentWidget(self.segment_timeline)
        self.curves.segment_timeline_if_shown()

    def show_pools(self) -> None:
        """Bring the memory by pool to the front (and fill it)."""
        self.curve_tabs.setCurrentWidget(self.pool_envelope)
        self.curves.pool_envelope_if_shown()

    def show_what_if(self, overrides: list[str]) -> None:
        """A what-if replay of this tab ran under `overrides`: the settings page shows what it changed."""
        self.settings_view.set_what_if(overrides)

    @property
    def settings_view(self) -> SettingsView:
        return made_part(self._make, self._through("settings"), lambda: self._settings_view)

    @property
    def segment_timeline(self) -> SegmentTimelineView:
        """Made when first asked for or looked at (its tab holds a page standing in for it until then)."""
        return made_part(self._make, self._through("segment timeline"), lambda: self.curves.segment_timeline)

    @property
    def pool_envelope(self) -> PoolEnvelopeView:
        """Made when first asked for or looked at, as the segment timeline."""
        return made_part(self._make, self._through("pool envelope"), lambda: self.curves.pool_envelope)

    @property
    def inspector(self) -> EventInspector:
        """Made when asked for, at the event shown (while its page is hidden it does not follow each travel)."""
        inspector = made_part(self._make, self._through("inspector"), lambda: self._inspector)
        self._inspector_if_shown(hidden_too=True)
        return inspector

    @property
    def details(self) -> QtWidgets.QTextEdit:
        return self.block_page.details

    @property
    def block_page(self) -> BlockPage:
        return made_part(self._make, self._through("block pages"), lambda: self._block_page)

    @property
    def table(self) -> BlockTableView:
        return made_part(self._make, self._through("block pages"), lambda: self._table)

    @property
    def diagnosis(self) -> DiagnosisPages:
        return made_part(self._make, self._through("diagnosis"), lambda: self._diagnosis)

    @property
    def curves(self) -> CurvesPanel:
        """What is under the map: the curves and timelines (placed once the trace is read) beside the event list."""
        return made_part(self._make, self._through("curves"), lambda: self._curves)

    @property
    def event_list(self) -> EventListView:
        return self.curves.event_list

    @property
    def timeline_view(self) -> TimelineView:
        """The timeline under the map (with the event list beside it, hidden while the trace is read)."""
        return made_part(self._make, self._through("timeline"), lambda: self.curves.timeline_view)

    @property
    def curve_tabs(self) -> QtWidgets.QTabWidget:
        """The timeline's tabs: the memory curves, the allocated memory by site, the cached segments."""
        return made_part(self._make, self._through("timeline"), lambda: self.curves.curve_tabs)

    @property
    def site_timeline(self) -> SiteTimelineView:
        return made_part(self._make, self._through("site timeline"), lambda: self.curves.site_timeline)

    def _curves_placed(self) -> bool:
        return self._curves is not None and self._curves.timeline_view is not None

    # -- what the rest of the app reads -----------------------------------------------------------------------

    def _add_splitter(self, name: str, splitter: QtWidgets.QSplitter) -> None:
        self._splitters.add(name, splitter)

    def splitter_states(self) -> dict[str, QtCore.QByteArray]:
        """The sizes of the tab's splitters, for the window to remember."""
        return self._splitters.states()

    def restore_splitters(self, states: dict[str, object]) -> None:
        """Sizes remembered from an earlier tab (see SplitterMemory.restore)."""
        self._splitters.restore(states)

    @property
    def snapshot(self) -> Snapshot:
        return self.document.snapshot

    @property
    def device(self) -> int:
        return self.document.device

    @property
    def current_event(self) -> int:
        return self.frame.event

    @property
    def state(self) -> AllocatorState:
        """The (filtered) state shown."""
        return self.frame.state

    @property
    def pending(self) -> bool:
        return self.document.pending

    @property
    def timelines(self) -> dict[int, DeviceTimeline]:
        return self.document.timelines

    def timeline(self, device: int) -> DeviceTimeline:
        return self.document.timeline(device)

    # -- drawing a frame -----------------------------------------------------------------------------------------

    def show_frame(
        self, frame: EventFrame, *, keep_range: bool = True, table: bool = True, inspector: bool = True
    ) -> None:
        if (frame.device, frame.event) != (self.frame.device, self.frame.event):
            self._clear_block()  # the block shown belonged to the state left behind
        self.frame = frame
        self.map.show_frame(frame, keep_range=keep_range)
        if table:
            self._refresh_table()
        self.figures.set_metrics(frame.metrics, lambda: frame_title(frame), frame.findings)  # a title to retranslate
        if inspector:  # else it shows the frame's event once made (or once its page is picked)
            self._inspector_if_shown()
        if self._curves is not None:
            self._curves.shown_event = frame.event  # where a list or a timeline made later starts
        if self._curves_placed():
            self.curves.follow(frame.event)
            if self._diagnosis is not None:  # made, it follows; made later, it starts where the cursor is
                self._diagnosis.follow()
        self.controls.show_position(frame)
        self.controls.show_matches(-1 if frame.search_mask is None else int(np.count_nonzero(frame.search_mask)))

    def _refresh_table(self) -> None:
        # a table of 100,000 rows costs more than the map to refresh: only while it is shown
        if self._table is not None and self.side_tabs.currentWidget() is self._table:
            self.table.table_model.set_rows(self.frame.state, self.frame.stacks, self.frame.table_rows)

    def _fill_devices(self) -> None:
        labelled = lambda: [(d, device_label(self.snapshot, d)) for d in self.document.devices()]  # noqa: E731
        self.controls.set_devices(labelled, self.device)  # asked again after a switch of language

    def _device_shown(self, staged: bool = False) -> None:
        """The device's timeline, its streams and its last frame (or the final state while the trace is indexed), then
        its event list and site timeline; `staged`: each of the three in its own turn of the event loop."""
        self._shown_token += 1
        doc = self.document
        if doc.pending and self.findChild(PartialCurvesView) is None:
            self.reading.setVisible(True)  # hidden with the curves' first showing (_bottom_shown)
        if doc.pending:
            if self._curves_placed():
                self.curves.setVisible(False)
        else:
            self.timeline_view  # noqa: B018 (made now, where it is not yet)
            self.curves.draw_timeline()  # at the document's event: its OOM or peak, or its end
            self.axis_box.setEnabled(doc.timeline().series.time_us is not None)
        steps = [self._bottom_shown, self._frame_shown, self._notes_shown, self._inspector_if_shown, self._lists_shown]
        if not staged:
            for step in steps:
                step()
            return
        self._in_turns(steps, self._shown_token)

    def _bottom_shown(self) -> None:
        """The timeline and the event list under the map (their first layout and paint) once there is a trace."""
        doc = self.document
        if not doc.pending:
            partial = self.findChild(PartialCurvesView)
            kept: list[int] | None = None
            if partial is not None and self._main.indexOf(self.curves) >= 0:
                # the curves take the place of the curves so far, at the height they had, the user's drag kept, in
                # one change of the layout (the map keeps its size: not laid out and painted again, nor seen to jump)
                away = self._main.indexOf(self.curves)
                kept = [n for i, n in enumerate(self._main.sizes()) if i != away]  # the sizes, the curves moved
                stop_partial(self)
                self.curves.setParent(None)  # hidden: the layout is the same without it
                self._main.replaceWidget(self._main.indexOf(partial), self.curves)
                partial.deleteLater()
                self._bottom_settled = True
            self.reading.setVisible(False)
            # a device without events keeps its (empty) timeline where another device has a trace: the layout holds
            self.curves.setVisible(any(len(doc.snapshot.trace(d)) for d in doc.devices()))
            # the event list's pane in the same layout, its rows later (_lists_shown): the timeline is laid out at
            # its final width once, not drawn and painted again when the list comes two turns on
            self.curves.event_list.setVisible(True)
            if kept is not None:
                self._main.setSizes(kept)  # as they were to the pixel (Qt's own share gave the curves one more)
            if not self._bottom_settled:  # once: a device switched to later keeps the sizes the user sees
                self._bottom_settled = True
                self._settle_under_map(self.curves)

    def curves_sized(self) -> bool:
        """Whether the parts that set the curves' least height are made (up to the site timeline: the curves so far
        are placed at that height once they are, so that the map keeps its size when more parts come)."""
        return self._made >= self._through("site timeline")

    def _curves_least(self) -> int:
        """The curves' least height as made so far, their event list's counted (hidden while the trace is read)."""
        curves = self._curves
        if curves is None:
            return 0
        return max(curves.minimumSizeHint().height(), curves.event_list.minimumSizeHint().height())

    def under_map(self, view: QtWidgets.QWidget) -> None:
        """`view` (the curves so far, while the trace is read) where the curves will be, at their height: its title
        says that the trace is being read, in place of the reading line."""
        main = self._main
        main.insertWidget(main.indexOf(self.reading) + 1, view)
        self.reading.setVisible(False)
        self._settle_under_map(view)

    def _settle_under_map(self, bottom: QtWidgets.QWidget) -> None:
        """The map over `bottom` at the sizes remembered, else at MAP_OVER_CURVES (the map's pane first, whatever
        else still stands between the two at none)."""
        main, (over, under) = self._main, MAP_OVER_CURVES
        total = sum(main.sizes())
        if total:
            # in pixels: as weights, Qt gave a bottom whose size hint is tall (the curves so far's) all but the map's
            # least; a tab not laid out yet (made before it shows) gets the weights, shared out once it has a size
            under = max(total * under // (over + under), self._curves_least())
            over = total - under
        sizes = [over if i == 0 else under if main.widget(i) is bottom else 0 for i in range(main.count())]
        self._splitters.settle("map_timeline", sizes)

    def _inspector_if_shown(self, hidden_too: bool = False) -> None:
        """The inspector at the frame's event where its page is the side panel's one picked (`hidden_too`: even
        where not): behind another page (the block, the explanation) it waits, a few ms of each travel saved, and
        catches up when its page is picked or it is read."""
        inspector = self._inspector
        if inspector is None or (inspector.info is self.frame.event_info and inspector.pending == self.frame.pending):
            return
        if hidden_too or self.side_tabs.currentWidget() is self._inspector_page:
            inspector.show_event(self.frame.event_info, self.frame.pending)

    def _in_turns(self, steps: list[Callable[[], None]], token: int) -> None:
        """Each of `steps` in a turn of its own (the rest dropped once another _device_shown has begun)."""

        def run() -> None:
            if token == self._shown_token:
                steps[0]()
                if len(steps) > 1:
                    self._in_turns(steps[1:], token)

        self.later(run)

    def _lists_shown(self) -> None:
        # while the trace is read there are no lists to show: the curves are not made for them here (with the parts
        # before them, in this one turn: a stall of hundreds of ms), they start at the event shown once made
        if self._curves is None:
            return
        self.curves.shown_event = self.current_event
        self.curves.show_lists()

    def _frame_shown(self) -> None:
        # the map and the figures; the notes and the streams in the next turn (_notes_shown): with the plots' paints
        # and the curves drawn for their width, all of them in one turn made a stall
        self.show_frame(self.document.frame(), inspector=False)  # the inspector's stack: in a turn of its own

    def _notes_shown(self) -> None:
        doc = self.document
        self.notes.show_notes(doc)
        self.controls.set_streams(doc.streams(), doc.filters.stream)
        self.notes.show_opened_at(doc)

    # -- navigation ------------------------------------------------------------------------------------------------

    def set_timelines(
        self,
        timelines: dict[int, DeviceTimeline],
        envelopes: dict[int, dict[str, Envelope]] | None = None,
        snapshot: Snapshot | None = None,
        default_device: int | None = None,
        *,
        site_bands_for: int | None = None,
        segment_ticks: dict[int, np.ndarray] | None = None,
    ) -> None:
        """The loader's timelines have arrived (with the whole `snapshot`, replacing the state-only one, and its
        default device): the trace can be travelled now. The plot is made in this turn, the document moved in the
        next, the timeline drawn in the one after: no turn stalls the window for long. `site_bands_for` and
        `segment_ticks`: what the loader is making or found for the curves (CurvesPanel.expect)."""
        self.timeline_view  # noqa: B018 (made now, drawn in a later turn)
        self.curves.expect(timelines, segment_ticks or {}, site_bands_for)
        self.later(lambda: self._timelines_arrived(timelines, envelopes, snapshot, default_device))

    def site_bands_arrived(self, bands: tuple[int, dict[str, BandSeries]] | None, more: bool = False) -> None:
        """The loader's site bands of one device's timeline (None: it has none; the site timeline computes them);
        `more`: the loader is making the other groupings still, they follow."""
        self.curves.shown_event = self.current_event
        self.curves.site_bands_arrived(bands, more)

    def _timelines_arrived(
        self,
        timelines: dict[int, DeviceTimeline],
        envelopes: dict[int, dict[str, Envelope]] | None,
        snapshot: Snapshot | None,
        default_device: int | None = None,
    ) -> None:
        # the state alone may have named another default device (the OOMs and the peak are in the trace)
        device = None
        if snapshot is not None and not self.device_picked:
            device = snapshot.default_device() if default_device is None else default_device
        self.document.set_timelines(timelines, envelopes, snapshot=snapshot, device=device)
        if snapshot is not None:
            if self._diagnosis is not None:
                self._diagnosis.forget()  # what it read was of the state-only snapshot
            if self._settings_view is not None:
                self._settings_view.set_settings(snapshot.allocator_settings)
            self._fill_devices()
        # the steps of a frame shown before (the first frame's, in turns) stop here: theirs would list the events too
        self._shown_token += 1
        self.later(lambda: self._device_shown(staged=True))  # in the next turns

    def set_snapshot(self, snapshot: Snapshot, timelines: dict[int, DeviceTimeline]) -> None:
        """A newer snapshot of the same job (live mode): the choices and the map's zoom stay, its last state shows."""
        self.document.replace_snapshot(snapshot, timelines)
        if self._diagnosis is not None:
            self._diagnosis.forget()  # the same event of a newer snapshot holds other blocks
        self._fill_devices()
        self._device_shown()

    def set_device(self, device: int) -> None:
        self.device_picked = True
        self.document.set_device(device)
        self._fill_devices()
        self._device_shown()

    def travel_to(self, index: int) -> None:
        """Show the allocator state right after trace event `index`."""
        self.show_frame(self.document.travel(index))

    def travel_to_end(self) -> None:
        """The final state: the trace's last event (End, or the link in the line that says where the file opened)."""
        self.travel_to(self.document.n_events - 1)
        self.timeline_view.set_event(self.current_event, emit=False)

    def step(self, delta: int) -> None:
        self.travel_to(self.current_event + delta)
        self.timeline_view.set_event(self.current_event, emit=False)

    def _layout_changed(self, _index: int) -> None:
        self.show_frame(self.document.set_layout(*self.layout_box.currentData()), keep_range=False)

    def _play_toggled(self, on: bool) -> None:
        self.play_button.setText("Pause" if on else "Play")
        if on and self.current_event >= self.document.n_events - 1:
            self.travel_to(-1)
        self.play_timer.start() if on else self.play_timer.stop()

    def _play_step(self) -> None:
        """Through the trace in about ten seconds, whatever its length."""
        n = self.document.n_events
        if self.current_event >= n - 1:
            self.play_button.setChecked(False)
            return
        self.step(max(1, n // 250))

    def keyPressEvent(self, event: QtGui.QKeyEvent) -> None:
        delta = travel_delta(event.key(), self.current_event, self.document.n_events)  # the what-if view's keys too
        if delta is None:
            super().keyPressEvent(event)
        else:
            self.step(delta)

    # -- details, search, focus ----------------------------------------------------------------------------------

    def select_block(self, index: int) -> None:
        """Show block `index` (of the shown state): its details, and a highlight on the map."""
        self.show_frame(self.document.select_block(index), table=False)  # the table keeps its rows and selection
        self.show_block(index)

    def _clear_block(self) -> None:
        if self._block_page is not None:  # else nothing was shown there yet
            self._block_page.clear()

    def show_block(self, index: int) -> None:
        shown, state = self.map.describe(index), self.map.state

        def describe() -> str:  # worded again after a language switch while the map shows the same state
            return self.map.describe(index) if self.map.state is state else shown

        self.block_page.show_block(describe, self.document.block_details(index))

    def _event_chosen(self, index: int) -> None:
        """An event picked in the list: travel there (the list keeps its selection)."""
        self.travel_to(index)
        self.timeline_view.set_event(index, emit=False)
        self.side_tabs.setCurrentIndex(0)  # the inspector reads the event picked

    def _event_travelled(self, index: int) -> None:
        """Travel from the stacked timeline: the curves' cursor follows."""
        self.travel_to(index)
        self.timeline_view.set_event(index, emit=False)

    def _band_selected(self, kind: str, key: object, label: str) -> None:
        # the label stays the band's key; the caption says it in the window's language, again after a switch
        caption = self._caption(
            "band", lambda: translate("SnapshotTab", _BAND_BLOCKS, {"label": band_name(kind, label)})
        )
        self.show_frame(self.document.set_spotlight(self.site_timeline.mask_of(kind, key), caption))

    def _caption(self, what: str, caption: Callable[[], str]) -> str:
        """The map's caption `caption()` now, worded again on a switch of language while the map shows it."""
        return self.scope.wrote(what, caption) if self.scope is not None else caption()

    def spotlight_site(self, site: str) -> None:
        """Light up the blocks of one allocation site on the map (picked in the breakdown or the explanation)."""
        snapshot, document = self.snapshot, self.document

        def of_site(state: AllocatorState) -> npt.NDArray[np.bool_]:
            return site_block_mask(snapshot, state, site, document.nameless_reasons(state))

        caption = self._caption("site", lambda: translate("SnapshotTab", _SITE, {"site": site_words(site)}))
        self.show_frame(document.set_spotlight(of_site, caption))

    def explain(self, at: int | None = None) -> None:
        """Explain the device's OOM or peak (`at`: that event) in the panel beside the timeline."""
        if self._curves_placed():
            self.diagnosis.explain(at)

    def apply_search(self) -> None:
        # its size ranges read as the language writes them when typed ("1,5 Gio-2 Gio"), a switch after or not
        frame = self.document.set_search(self.search.text(), functools.partial(parse_size, lang=current_language()))
        self.show_frame(frame)
        if frame.search_mask is not None:
            self.side_tabs.setCurrentWidget(self.table)
            self._refresh_table()

    def shutdown(self) -> None:
        """The tab is closing: stop playing and explaining (the document goes with the widget)."""
        self.play_timer.stop()
        if self._diagnosis is not None:
            self._diagnosis.shutdown()
        self.tasks.cancel_all()
        if self._curves is not None:
            self._curves.shutdown()


class TabAhead:
    """The parts of a loading file's tab made before it, one a turn of the event loop (each some ms of the GUI
    thread: made with the tab, in one turn, they were its longest turn as a file opened): the map, the figures, the
    controls; then the tab (SnapshotTab) takes them."""

    def __init__(self, document: SnapshotDocument) -> None:
        self.document = document
        self.map_plot: MapPlot | None = None  # the map's plot, made a turn before the map
        self.map_view: SegmentMapView | None = None
        self.figures: FiguresPanel | None = None
        self.controls: TabControls | None = None

    def make_next(self) -> bool:
        """Make the next part; False once all are made."""
        if self.map_plot is None:
            self.map_plot = map_plot()
        elif self.map_view is None:
            self.map_view = SegmentMapView(plot=self.map_plot)
        elif self.figures is None:
            self.figures = FiguresPanel()
        elif self.controls is None:
            self.controls = TabControls(LAYOUTS.index(self.document.layout))
        else:
            return False
        return True

    def tab(self) -> SnapshotTab:
        """The tab, with the parts made (those not made yet, made with it)."""
        if self.map_view is None and self.map_plot is not None:
            self.map_view = SegmentMapView(plot=self.map_plot)
        return SnapshotTab(self.document, map_view=self.map_view, figures=self.figures, controls=self.controls)

    def discard(self) -> None:
        plot = self.map_plot.plot if self.map_plot is not None and self.map_view is None else None
        for widget in (plot, self.map_view, self.figures, self.controls):
            if widget is not None:
                widget.deleteLater()
