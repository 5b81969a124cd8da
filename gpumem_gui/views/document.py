"""DocumentView: one open snapshot's tab: the segment map, the timeline to travel through, the figures, a block's
stack. It draws the EventFrames its SnapshotDocument hands it and turns the user's choices into document calls."""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt
import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

from gpumem_gui.core.analysis.categories import CATEGORY_LABELS
from gpumem_gui.core.analysis.site_series import BandSeries, SiteSeries
from gpumem_gui.core.analysis.timetravel import DeviceTimeline
from gpumem_gui.core.snapshot.model import AllocatorState, Snapshot
from gpumem_gui.core.snapshot.units import format_bytes, format_bytes_exact
from gpumem_gui.document import EventFrame, SnapshotDocument
from gpumem_gui.document.curves import Envelope
from gpumem_gui.document.document import LAYOUTS
from gpumem_gui.document.event_list import EventFilter, EventTable, prepared_table
from gpumem_gui.document.opening import moment_words
from gpumem_gui.document.sites import site_block_mask
from gpumem_gui.views import palette
from gpumem_gui.views.block_table import BlockTable
from gpumem_gui.views.diagnosis_pages import DiagnosisPages
from gpumem_gui.views.event_inspector import EventInspector
from gpumem_gui.views.event_list import EventListView
from gpumem_gui.views.figures import FiguresPanel
from gpumem_gui.views.pool_envelope import PoolEnvelopeView
from gpumem_gui.views.segment_map import SegmentMapView
from gpumem_gui.views.segment_timeline import SegmentTimelineView
from gpumem_gui.views.settings_view import SettingsView
from gpumem_gui.views.site_timeline import SiteTimelineView
from gpumem_gui.views.stack_view import StackView
from gpumem_gui.views.tasks import TaskGroup
from gpumem_gui.views.timeline import TimelineView

if TYPE_CHECKING:
    from gpumem_gui.teach.quiz_demos import DemoFocus

_POOLS = (("all pools", "all"), ("small pool", "small"), ("large pool", "large"), ("private pools", "private"))
# a trace this short is listed at once; a longer one's list is made in a task (a pass over millions of events)
_LIST_AT_ONCE = 100_000
# the delay between the parts of a staged change (a tab opening, a trace arriving): a timer rather than a queued call,
# so that the window's own events (input, painting) are served between two parts, never after both
_TURN_MS = 1
_UNSHOWN_MS = 300
READING_TRACE = "reading the trace..."
_LAYOUT_LABELS = ("by address", "by segment, largest first", "by segment, most free first", "by segment, to scale")


_warmed = False


def warm_up() -> None:
    """Make, paint (offscreen) and drop one map view, once per process, over three turns of the event loop: the first
    pyqtgraph plot costs twice the next to make and to paint (its classes' and fonts' first use), which the window
    pays while a file is read rather than in the turn that opens its tab."""
    global _warmed  # noqa: PLW0603 (once per process)
    if _warmed:
        return
    _warmed = True
    first = pg.PlotWidget()  # pyqtgraph's classes, in a turn of their own

    def then() -> None:
        first.deleteLater()
        view = SegmentMapView()
        view.resize(400, 300)

        def paint() -> None:
            view.grab()
            view.deleteLater()

        QtCore.QTimer.singleShot(_TURN_MS, paint)

    QtCore.QTimer.singleShot(_TURN_MS, then)


def scroll_area() -> QtWidgets.QScrollArea:
    area = QtWidgets.QScrollArea(widgetResizable=True)
    area.setFrameShape(QtWidgets.QFrame.Shape.NoFrame)
    return area


def device_label(snapshot: Snapshot, device: int) -> str:
    """What the device menu says of a device: its high point and its OOMs, or that it holds nothing."""
    peak, ooms = snapshot.peak_reserved(device), snapshot.oom_count(device)
    if peak <= 0 and not ooms:
        return f"GPU {device}: nothing reserved"
    text = f"GPU {device}: peak {format_bytes(peak)}"
    return text + (f", {ooms} OOM{'s' if ooms > 1 else ''}" if ooms else "")


class DocumentView(QtWidgets.QWidget):
    """Shows a SnapshotDocument; `current_event` is the trace event whose state the map shows (-1: before the first)."""

    splitters_moved = QtCore.Signal()  # the user dragged a splitter: the window saves splitter_states()
    remedy_chosen = QtCore.Signal(object, int, int)  # the Explanation, a remedy's index, the event to compare at

    def __init__(
        self,
        snapshot: Snapshot | SnapshotDocument,
        parent: QtWidgets.QWidget | None = None,
        timelines: dict[int, DeviceTimeline] | None = None,
        pending: bool = False,
    ) -> None:
        super().__init__(parent)
        if isinstance(snapshot, SnapshotDocument):
            self.document = snapshot
        else:
            self.document = SnapshotDocument(snapshot, timelines, pending=pending)
        self.frame: EventFrame = self.document.frame()
        self.tasks = TaskGroup(self)  # the tab's own slow work (the event list of a long trace)
        self._list_token = 0
        self.device_picked = False  # the user chose a device while the trace was read: the whole one keeps it

        self.map = SegmentMapView()
        self._timeline_view: TimelineView | None = None  # made when the trace can be shown: a plot costs a stall
        self.figures = FiguresPanel()
        self.side_tabs = QtWidgets.QTabWidget()  # its pages are parts made after the first frame (see _make)
        # the rest of the tab is made in later turns of the event loop, one part a turn (see _build): the map and
        # the figures show at once, and no turn of the GUI thread is long; a part asked for sooner is made then
        self._inspector: EventInspector | None = None
        self._details: QtWidgets.QTextEdit | None = None
        self._block_stack: StackView | None = None
        self._block_page: QtWidgets.QSplitter | None = None
        self._table: BlockTable | None = None
        self._diagnosis: DiagnosisPages | None = None
        self._event_list: EventListView | None = None
        self._curve_tabs: QtWidgets.QTabWidget | None = None
        self._site_timeline: SiteTimelineView | None = None
        self._site_timeline_for: tuple[int, object] | None = None  # (device, timeline) it shows
        # the loader's site bands of one device's timeline (device, groupings), for the site timeline
        self._site_bands: tuple[int, dict[str, BandSeries]] | None = None
        self._site_bands_for: int | None = None  # the loader is making this device's: the site timeline waits
        self._parts = (
            self._make_inspector,
            self._make_block_pages,
            self._make_diagnosis,
            self._make_event_list,
            self._make_timeline_plot,
            self._make_timeline,
            self._make_site_timeline,
            self._make_settings,
            self._make_segment_timeline,
            self._make_pool_envelope,
        )
        self._settings_view: SettingsView | None = None
        self._segment_timeline: SegmentTimelineView | None = None
        self._segment_timeline_for: tuple[int, object] | None = None  # (device, timeline) it shows
        self._pool_envelope: PoolEnvelopeView | None = None
        self._pool_envelope_for: tuple[int, object] | None = None  # (device, timeline) it shows
        self._timeline_plot: TimelineView  # made by a part, placed by the next
        self._made = 0  # how many of _parts are made
        self._queued = 0  # steps waiting for a later turn (_later)
        self._shown_token = 0  # _device_shown's count: a staged part of an earlier one is not shown
        # the loader's segment allocations (the timeline's ticks) per device, of the timeline they were found for
        self._segment_ticks: dict[int, np.ndarray] = {}
        self._ticks_of: dict[int, DeviceTimeline] = {}
        self.side_tabs.currentChanged.connect(lambda _i: self._refresh_table())
        self.pool_box = QtWidgets.QComboBox()
        for label, data in _POOLS:
            self.pool_box.addItem(label, data)
        self.stream_box = QtWidgets.QComboBox()
        self.pool_box.currentIndexChanged.connect(
            lambda _i: self._show(self.document.set_pool(self.pool_box.currentData()))
        )
        self.stream_box.currentIndexChanged.connect(
            lambda _i: self._show(self.document.set_stream(self.stream_box.currentData()))
        )
        self.device_box = QtWidgets.QComboBox()
        self.device_box.currentIndexChanged.connect(lambda _i: self.set_device(self.device_box.currentData()))
        self.layout_box = QtWidgets.QComboBox()
        for layout_label, layout_data in zip(_LAYOUT_LABELS, LAYOUTS, strict=True):
            self.layout_box.addItem(layout_label, layout_data)
        self.layout_box.setCurrentIndex(LAYOUTS.index(self.document.layout))
        self.layout_box.currentIndexChanged.connect(self._layout_changed)
        self.search = QtWidgets.QLineEdit(
            placeholderText="search: stack text, 0x or decimal address, or size range like 1MiB-20MiB"
        )
        self.search.returnPressed.connect(self.apply_search)
        self.search_count = QtWidgets.QLabel()  # how many blocks the search matches at the event shown
        self.search_count.setFixedWidth(self.search_count.fontMetrics().horizontalAdvance("100,000 matches"))
        self.position = QtWidgets.QLabel()
        # what is odd about the file (a layout the allocator could not quite have, trace events that do not fit):
        # one line over the map, every note in its tooltip
        self.notice = QtWidgets.QLabel()
        self.notice.setWordWrap(True)
        self.notice.setStyleSheet(
            f"background: {palette.NOTICE_BACKGROUND}; color: {palette.NOTICE_TEXT}; padding: 3px 6px;"
        )
        self.notice.setVisible(False)
        # where a file opened: its OOM or peak, not the end of its trace; the line says so, and how to get to the end
        self.opened_line = QtWidgets.QLabel()
        self.opened_line.setStyleSheet(f"color: {palette.TEXT_MUTED}; padding: 0px 6px;")
        self.opened_line.linkActivated.connect(lambda _link: self.travel_to_end())
        self.opened_line.setVisible(False)
        self.axis_box = QtWidgets.QComboBox()
        self.axis_box.addItems(["by event", "by time"])
        self.axis_box.currentIndexChanged.connect(lambda i: self.timeline_view.set_time_axis(i == 1))
        self.axis_box.setEnabled(False)
        self.play_button = QtWidgets.QPushButton("Play")
        self.play_button.setCheckable(True)
        self.play_button.toggled.connect(self._play_toggled)
        self.play_timer = QtCore.QTimer(self, interval=40)
        self.play_timer.timeout.connect(self._play_step)

        bar = QtWidgets.QHBoxLayout()
        for w in (self.device_box, self.pool_box, self.stream_box, self.layout_box):
            # sized by a few characters, not their longest entry: a tab must fit beside the quiz dock, and two of
            # them side by side in a demo, without pushing the window past the screen (full texts in the popup)
            w.setSizeAdjustPolicy(QtWidgets.QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            w.setMinimumContentsLength(9)
            bar.addWidget(w)
        bar.addWidget(self.search, 1)
        bar.addWidget(self.search_count)
        bar.addWidget(self.axis_box)
        bar.addWidget(self.play_button)
        bar.addWidget(self.position)

        # the position's text changes width on every step: a fixed width keeps the bar's widgets where they are
        self.position.setFixedWidth(
            self.position.fontMetrics().horizontalAdvance("after event 10,000,000 of 10,000,000")
        )
        self.position.setAlignment(QtCore.Qt.AlignmentFlag.AlignRight | QtCore.Qt.AlignmentFlag.AlignVCenter)

        # splitters the user can drag; the window remembers their sizes (splitter_states / restore_splitters)
        side = QtWidgets.QSplitter(QtCore.Qt.Orientation.Vertical)
        # the figures and their findings scroll when the splitter leaves them less room than they need (squeezed,
        # their rows were drawn over each other)
        figures_area = scroll_area()
        figures_area.setWidget(self.figures)
        figures_area.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        side.addWidget(figures_area)
        side.addWidget(self.side_tabs)
        side.setMinimumWidth(280)
        side.setSizes([max(self.figures.sizeHint().height(), 300), 320])  # the figures and findings whole at first
        top = QtWidgets.QSplitter(QtCore.Qt.Orientation.Horizontal)
        top.addWidget(self.map)
        top.addWidget(side)
        top.setStretchFactor(0, 1)
        top.setStretchFactor(1, 0)
        top.setSizes([1000, 400])  # the side panel wide enough for a full address and a stack line
        self._main = QtWidgets.QSplitter(QtCore.Qt.Orientation.Vertical)
        self._main.addWidget(top)
        self._main.setStretchFactor(0, 3)
        self._splitters: dict[str, QtWidgets.QSplitter] = {}
        self._remembered: dict[str, object] = {}
        self._bottom: QtWidgets.QSplitter  # the timeline beside the event list, made with the timeline
        # where the timeline will be, while the trace is read: a label costs nothing to make, a plot a stall
        self.reading = QtWidgets.QLabel(READING_TRACE, alignment=QtCore.Qt.AlignmentFlag.AlignCenter)
        self.reading.setStyleSheet(f"color: {palette.TEXT_MUTED}")
        self.reading.setMinimumHeight(60)
        self.reading.setVisible(False)
        self._main.addWidget(self.reading)
        for name, splitter in (("map_side", top), ("figures_tabs", side), ("map_timeline", self._main)):
            self._add_splitter(name, splitter)
        layout = QtWidgets.QVBoxLayout(self)
        layout.addLayout(bar)
        layout.addWidget(self.notice)
        layout.addWidget(self.opened_line)
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
            QtCore.QTimer.singleShot(_UNSHOWN_MS, self, self._stage)
        else:
            self._device_shown()
            self._later(self._make_next)

    def _later(self, step: Callable[[], None]) -> None:
        """`step` in a later turn of the event loop, after a timer rather than as a queued call: the window's own events
        (input, painting) are served between two steps, never after both."""
        self._queued += 1

        def run() -> None:
            self._queued -= 1
            step()

        QtCore.QTimer.singleShot(_TURN_MS, self, run)

    def settling(self) -> bool:
        """Whether some of the tab's staged steps are still to come (see _later)."""
        return self._queued > 0

    def showEvent(self, event: QtGui.QShowEvent) -> None:
        super().showEvent(event)
        if self.document.pending:
            self._stage()

    def _stage(self) -> None:
        if not self._staged:
            self._staged = True
            self._later(self._first_frame)

    def _first_frame(self) -> None:
        self._device_shown()
        self._later(self._make_next)

    # -- the tab's parts, made one a turn ----------------------------------------------------------------------

    def _make_next(self) -> None:
        if self._made < len(self._parts):
            self._make(self._made + 1)
        if self._made < len(self._parts):
            self._later(self._make_next)

    def _make(self, parts: int) -> None:
        """Make the first `parts` parts of the tab (in order: the side panel's pages keep their places)."""
        while self._made < parts:
            part = self._parts[self._made]
            self._made += 1
            part()

    def _make_inspector(self) -> None:
        # what the event the map is right after is; travelling shows it, the list below travels
        self._inspector = EventInspector()
        area = scroll_area()
        area.setWidget(self._inspector)  # scrolls rather than taking the figures' room in a short window
        self.side_tabs.insertTab(0, area, "event")
        self.side_tabs.setCurrentIndex(0)
        self._inspector.show_event(self.frame.event_info, self.frame.pending)

    def _make_block_pages(self) -> None:
        self._details = QtWidgets.QTextEdit(readOnly=True)
        self._details.setPlaceholderText("Click a block for details.")
        self._block_stack = StackView()  # the picked block's stack: the user's frames first, all on request
        page = QtWidgets.QSplitter(QtCore.Qt.Orientation.Vertical)
        page.addWidget(self._details)
        page.addWidget(self._block_stack)
        page.setSizes([140, 300])
        self._block_page = page
        self._table = BlockTable()
        self._table.block_selected.connect(self.select_block)
        self.side_tabs.addTab(page, "block")
        self.side_tabs.addTab(self._table, "blocks")

    def _make_diagnosis(self) -> None:
        # in the side panel: the explanation of an OOM or a peak, what holds memory at the cursor by site
        pages = DiagnosisPages(self.side_tabs)
        pages.set_document(self.document)
        pages.explain_panel.travel_requested.connect(self._event_chosen)
        pages.site_chosen.connect(self.spotlight_site)
        pages.remedy_chosen.connect(self.remedy_chosen)
        self._diagnosis = pages

    def _make_event_list(self) -> None:
        self._event_list = EventListView()
        self._event_list.event_chosen.connect(self._event_chosen)

    def _make_timeline_plot(self) -> None:
        self._timeline_plot = TimelineView()  # its plot alone, a turn's worth of work; placed in the next part

    def _make_timeline(self) -> None:
        view = self._timeline_plot
        view.event_selected.connect(self.travel_to)
        view.explain_requested.connect(lambda event: self.explain(None if event < 0 else event))
        # the trace's events beside its curves: pick one to travel there
        bottom = QtWidgets.QSplitter(QtCore.Qt.Orientation.Horizontal)
        # the memory curves, or the allocated memory stacked by site, category, stream or pool
        tabs = QtWidgets.QTabWidget(documentMode=True)
        tabs.addTab(view, "memory")
        tabs.currentChanged.connect(lambda _i: self._site_timeline_if_shown())
        self._curve_tabs = tabs
        bottom.addWidget(tabs)
        bottom.addWidget(self.event_list)
        bottom.setStretchFactor(0, 1)
        bottom.setStretchFactor(1, 0)
        bottom.setSizes([900, 480])
        bottom.setVisible(False)
        self.event_list.setVisible(False)  # painted first with its rows (_lists_shown), a turn after the curves
        self._add_splitter("timeline_events", bottom)
        self._main.addWidget(bottom)
        self._main.setStretchFactor(2, 1)
        self._timeline_view = view
        self._bottom = bottom

    def _make_site_timeline(self) -> None:
        view = SiteTimelineView()  # filled when first shown
        view.event_selected.connect(self._event_travelled)
        view.band_selected.connect(self._band_selected)
        self._site_timeline = view
        self.curve_tabs.addTab(view, "allocated by site")

    def _make_settings(self) -> None:
        view = SettingsView()  # the allocator settings the file recorded, in words
        view.set_settings(self.snapshot.allocator_settings)
        self._settings_view = view
        self.side_tabs.addTab(view, "settings")

    def _make_segment_timeline(self) -> None:
        view = SegmentTimelineView()  # filled when first shown
        view.event_selected.connect(self._event_travelled)
        self._segment_timeline = view
        self.curve_tabs.addTab(view, "cached segments")
        self.curve_tabs.currentChanged.connect(lambda _i: self._segment_timeline_if_shown())

    def _segment_timeline_if_shown(self) -> None:
        """The segments' lives of the device shown, computed when their tab is first looked at."""
        doc = self.document
        if doc.pending or self._segment_timeline is None:
            return
        tl = doc.timeline()
        if self._segment_timeline_for != (doc.device, tl) and self.curve_tabs.currentWidget() is self.segment_timeline:
            self._segment_timeline_for = (doc.device, tl)
            self.segment_timeline.set_timeline(doc.snapshot, tl, event=self.current_event)

    def _make_pool_envelope(self) -> None:
        view = PoolEnvelopeView()  # filled when first shown
        view.event_selected.connect(self._event_travelled)
        self._pool_envelope = view
        self.curve_tabs.addTab(view, "by pool")
        self.curve_tabs.currentChanged.connect(lambda _i: self._pool_envelope_if_shown())

    def _pool_envelope_if_shown(self) -> None:
        """The pools' envelopes of the device shown, computed when their tab is first looked at."""
        doc = self.document
        if doc.pending or self._pool_envelope is None:
            return
        tl = doc.timeline()
        if self._pool_envelope_for != (doc.device, tl) and self.curve_tabs.currentWidget() is self.pool_envelope:
            self._pool_envelope_for = (doc.device, tl)
            self.pool_envelope.set_timeline(tl, event=self.current_event)

    def show_pools(self) -> None:
        """Bring the by-pool view to the front (and fill it)."""
        self.curve_tabs.setCurrentWidget(self.pool_envelope)
        self._pool_envelope_if_shown()

    def show_settings(self) -> None:
        """Bring the allocator settings page to the front of the side panel."""
        self.side_tabs.setCurrentWidget(self.settings_view)

    def show_segments(self) -> None:
        """Bring the cached-segment timeline to the front (and fill it)."""
        self.curve_tabs.setCurrentWidget(self.segment_timeline)
        self._segment_timeline_if_shown()

    def show_what_if(self, overrides: list[str]) -> None:
        """A what-if replay of this tab ran under `overrides`: the settings page shows what it changed."""
        self.settings_view.set_what_if(overrides)

    @property
    def settings_view(self) -> SettingsView:
        self._make(8)
        assert self._settings_view is not None
        return self._settings_view

    @property
    def segment_timeline(self) -> SegmentTimelineView:
        self._make(9)
        assert self._segment_timeline is not None
        return self._segment_timeline

    @property
    def pool_envelope(self) -> PoolEnvelopeView:
        self._make(10)
        assert self._pool_envelope is not None
        return self._pool_envelope

    @property
    def inspector(self) -> EventInspector:
        self._make(1)
        assert self._inspector is not None
        return self._inspector

    @property
    def details(self) -> QtWidgets.QTextEdit:
        self._make(2)
        assert self._details is not None
        return self._details

    @property
    def block_stack(self) -> StackView:
        self._make(2)
        assert self._block_stack is not None
        return self._block_stack

    @property
    def block_page(self) -> QtWidgets.QSplitter:
        self._make(2)
        assert self._block_page is not None
        return self._block_page

    @property
    def table(self) -> BlockTable:
        self._make(2)
        assert self._table is not None
        return self._table

    @property
    def diagnosis(self) -> DiagnosisPages:
        self._make(3)
        assert self._diagnosis is not None
        return self._diagnosis

    @property
    def event_list(self) -> EventListView:
        self._make(4)
        assert self._event_list is not None
        return self._event_list

    @property
    def timeline_view(self) -> TimelineView:
        """The timeline under the map (with the event list beside it, hidden while the trace is read)."""
        self._make(6)
        assert self._timeline_view is not None
        return self._timeline_view

    @property
    def curve_tabs(self) -> QtWidgets.QTabWidget:
        """The timeline's tabs: the memory curves, the allocated memory by site."""
        self._make(6)
        assert self._curve_tabs is not None
        return self._curve_tabs

    @property
    def site_timeline(self) -> SiteTimelineView:
        self._make(7)
        assert self._site_timeline is not None
        return self._site_timeline

    # -- what the rest of the app reads -----------------------------------------------------------------------

    def _add_splitter(self, name: str, splitter: QtWidgets.QSplitter) -> None:
        splitter.setChildrenCollapsible(False)
        splitter.splitterMoved.connect(lambda _pos, _index: self.splitters_moved.emit())
        self._splitters[name] = splitter
        state = self._remembered.get(name)
        if isinstance(state, QtCore.QByteArray):
            splitter.restoreState(state)

    def splitter_states(self) -> dict[str, QtCore.QByteArray]:
        """The sizes of the tab's splitters, for the window to remember."""
        return {name: splitter.saveState() for name, splitter in self._splitters.items()}

    def restore_splitters(self, states: dict[str, object]) -> None:
        """Sizes remembered from an earlier tab (missing or unreadable ones are left as they are; the timeline's
        splitter, made when the trace arrives, takes its size then)."""
        self._remembered = dict(states)
        for name, state in states.items():
            splitter = self._splitters.get(name)
            if splitter is not None and isinstance(state, QtCore.QByteArray):
                splitter.restoreState(state)

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

    def _show(self, frame: EventFrame, *, keep_range: bool = True, table: bool = True, inspector: bool = True) -> None:
        if (frame.device, frame.event) != (self.frame.device, self.frame.event):
            self._clear_block()  # the block shown belonged to the state left behind
        self.frame = frame
        self.map.show_frame(frame, keep_range=keep_range)
        if table:
            self._refresh_table()
        self.figures.set_metrics(frame.metrics, frame.title, frame.findings)
        if inspector and self._inspector is not None:  # else it shows the frame's event once made
            self._inspector.show_event(frame.event_info, frame.pending)
        if self._timeline_view is not None:
            self.event_list.show_event(frame.event)
            if self._diagnosis is not None:  # made, it follows; made later, it starts where the cursor is
                self._diagnosis.follow()
            if self._site_timeline_for is not None:
                self.site_timeline.set_event(frame.event, emit=False)
            if self._segment_timeline_for is not None:
                self.segment_timeline.set_event(frame.event, emit=False)
            if self._pool_envelope_for is not None:
                self.pool_envelope.set_event(frame.event, emit=False)
        self.position.setText(frame.position)
        matches = -1 if frame.search_mask is None else int(np.count_nonzero(frame.search_mask))
        self.search_count.setText("" if matches < 0 else f"{matches:,} match{'es' if matches != 1 else ''}")

    def _refresh_table(self) -> None:
        # a table of 100,000 rows costs more than the map to refresh: only while it is shown
        if self._table is not None and self.side_tabs.currentWidget() is self._table:
            self.table.table_model.set_rows(self.frame.state, self.frame.stacks, self.frame.table_rows)

    def _fill_devices(self) -> None:
        devices = self.document.devices()
        if [self.device_box.itemData(i) for i in range(self.device_box.count())] != devices:
            self.device_box.blockSignals(True)
            self.device_box.clear()
            for d in devices:
                self.device_box.addItem(f"GPU {d}", d)
            self.device_box.blockSignals(False)
        for i, d in enumerate(devices):
            self.device_box.setItemText(i, device_label(self.snapshot, d))
        self.device_box.blockSignals(True)
        self.device_box.setCurrentIndex(max(self.device_box.findData(self.device), 0))
        self.device_box.blockSignals(False)
        self.device_box.setToolTip(self.device_box.currentText())  # the menu shows a few characters of it

    def _device_shown(self, staged: bool = False) -> None:
        """The device's timeline, its streams and its last frame (or the final state while the trace is indexed), then
        its event list and site timeline; `staged`: each of the three in its own turn of the event loop."""
        self._shown_token += 1
        doc = self.document
        self.reading.setVisible(doc.pending)
        if doc.pending:
            if self._timeline_view is not None:
                self._bottom.setVisible(False)
        else:
            tl = doc.timeline()
            self.timeline_view.set_timeline(
                tl,
                doc.snapshot.trace(doc.device),
                doc.annotation_ranges(),
                doc.curve_envelopes(),
                ticks=self._segment_ticks.get(doc.device) if tl is self._ticks_of.get(doc.device) else None,
            )
            self.timeline_view.set_event(doc.event, emit=False)  # where the document is: its OOM or peak, or its end
            self.axis_box.setEnabled(tl.series.time_us is not None)
        steps = [self._bottom_shown, self._frame_shown, self._inspector_shown, self._lists_shown]
        if not staged:
            for step in steps:
                step()
            return
        self._in_turns(steps, self._shown_token)

    def _bottom_shown(self) -> None:
        """The timeline and the event list under the map (their first layout and paint) once there is a trace."""
        doc = self.document
        if not doc.pending:
            # a device without events keeps its (empty) timeline where another device has a trace: the layout holds
            self._bottom.setVisible(any(len(doc.snapshot.trace(d)) for d in doc.devices()))

    def _inspector_shown(self) -> None:
        if self._inspector is not None:
            self._inspector.show_event(self.frame.event_info, self.frame.pending)

    def _in_turns(self, steps: list[Callable[[], None]], token: int) -> None:
        """Each of `steps` in a turn of its own (the rest dropped once another _device_shown has begun)."""

        def run() -> None:
            if token == self._shown_token:
                steps[0]()
                if len(steps) > 1:
                    self._in_turns(steps[1:], token)

        self._later(run)

    def _lists_shown(self) -> None:
        if not self.document.pending:
            self.event_list.setVisible(True)
            self._list_events(self.document.timeline())
            self._site_timeline_if_shown()
            self._segment_timeline_if_shown()
            self._pool_envelope_if_shown()

    def _frame_shown(self) -> None:
        doc = self.document
        self._show_warnings()
        streams = doc.streams()
        self.stream_box.blockSignals(True)
        self.stream_box.clear()
        self.stream_box.addItem("all streams", None)
        for stream in streams:
            self.stream_box.addItem(f"stream {stream}", stream)
        self.stream_box.setCurrentIndex(max(self.stream_box.findData(doc.filters.stream), 0))
        self.stream_box.setVisible(len(streams) > 1)
        self.stream_box.blockSignals(False)
        self._show(doc.frame(), inspector=False)  # the inspector's stack: in a turn of its own
        self._show_opened_at()

    def _show_opened_at(self) -> None:
        """One line on where the device was first shown, where that was its OOM or peak rather than its end."""
        doc = self.document
        moment = doc.opened_at
        self.opened_line.setVisible(moment is not None)
        if moment is None:
            return
        where = html.escape(moment_words(moment, doc.timeline()))
        if moment.event == doc.n_events - 1:
            self.opened_line.setText(f"Opened at {where}, the final state.")
        else:
            self.opened_line.setText(f'Opened at {where}; <a href="end">End</a> shows the final state.')

    def _list_events(self, timeline: DeviceTimeline) -> None:
        """The event list of the device shown: at once for a short trace, else made in a task and handed over."""
        doc = self.document
        self._list_token += 1
        if len(doc.snapshot.trace(doc.device)) <= _LIST_AT_ONCE:
            self.event_list.set_document(doc.snapshot, doc.device, timeline)
            self.event_list.show_event(self.current_event)  # the row of the event shown: the OOM a file opens at
            return
        self.event_list.clear("listing the events...")
        token, snapshot, device, flt = self._list_token, doc.snapshot, doc.device, self.event_list.filter
        self.tasks.start(
            "event list",
            lambda _ctx: prepared_table(snapshot, device, timeline, flt),
            on_result=lambda made: self._events_listed(token, flt, made),
        )

    def _events_listed(self, token: int, flt: EventFilter, made: tuple[EventTable, np.ndarray]) -> None:
        if token != self._list_token:
            return  # another device or snapshot is shown now
        table, indices = made
        self.event_list.set_table(table, indices if flt == self.event_list.filter else None)
        self.event_list.show_event(self.current_event)

    def _show_warnings(self) -> None:
        notes = self.document.warnings()
        if self.snapshot.peak_reserved(self.device) <= 0:
            others = [d for d in self.document.devices() if self.snapshot.peak_reserved(d) > 0]
            where = f"; memory is on {', '.join(f'GPU {d}' for d in others)}" if others else ""
            notes = [f"GPU {self.device} holds nothing in this file{where}", *notes]
        self.notice.setVisible(bool(notes))
        if notes:
            plural = "s" if len(notes) > 1 else ""
            more = " (all of them in the tooltip)" if len(notes) > 1 else ""
            self.notice.setText(f"{len(notes)} note{plural} on this file: {notes[0]}{more}")
            self.notice.setToolTip("\n".join(notes))

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
        """The loader's timelines have arrived (with `snapshot`, the whole snapshot replacing the state-only one, and
        its default_device() where the loader made it): the trace can be travelled now. The timeline's plot is made
        (where it is not yet) in this turn of the event loop, the document moved to the end of the trace in the
        next, and the timeline drawn in the one after, so that no turn stalls the window for long.
        `site_bands_for`: the device whose site bands the loader is making (site_bands_arrived hands them over):
        its site timeline waits for them rather than computing them in a thread of its own. `segment_ticks`: each
        device's segment allocations (their events), found by the loader (else the timeline finds them)."""
        self.timeline_view  # noqa: B018 (made now, drawn in a later turn)
        self._segment_ticks = dict(segment_ticks or {})
        self._ticks_of = {d: timelines[d] for d in self._segment_ticks if d in timelines}
        self._site_bands, self._site_bands_for = None, site_bands_for
        self._later(lambda: self._timelines_arrived(timelines, envelopes, snapshot, default_device))

    def site_bands_arrived(self, bands: tuple[int, dict[str, BandSeries]] | None) -> None:
        """The loader's site bands of one device's timeline (None: it has none; the site timeline computes them)."""
        self._site_bands_for = None
        self._site_bands = bands  # the trace may still be on its way to the view: matched to a timeline when shown
        self._site_timeline_for = None  # shown waiting for these: shown again, with them
        self._site_timeline_if_shown()

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
        self._later(lambda: self._device_shown(staged=True))  # in the next turns

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
        self._show(self.document.travel(index))

    def travel_to_end(self) -> None:
        """The final state: the trace's last event (End, or the link in the line that says where the file opened)."""
        self.travel_to(self.document.n_events - 1)
        self.timeline_view.set_event(self.current_event, emit=False)

    def step(self, delta: int) -> None:
        self.travel_to(self.current_event + delta)
        self.timeline_view.set_event(self.current_event, emit=False)

    def _layout_changed(self, _index: int) -> None:
        self._show(self.document.set_layout(*self.layout_box.currentData()), keep_range=False)

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
        key = event.key()
        if key == QtCore.Qt.Key.Key_Left:
            self.step(-1)
        elif key == QtCore.Qt.Key.Key_Right:
            self.step(1)
        elif key == QtCore.Qt.Key.Key_End:
            self.travel_to_end()
        else:
            super().keyPressEvent(event)

    # -- details, search, focus ----------------------------------------------------------------------------------

    def select_block(self, index: int) -> None:
        """Show block `index` (of the shown state): its details, and a highlight on the map."""
        self._show(self.document.select_block(index), table=False)  # the table keeps its rows and selection
        self.show_block(index)

    def _clear_block(self) -> None:
        if self._details is not None and self._block_stack is not None:  # else nothing was shown there yet
            self._details.clear()
            self._block_stack.clear()

    def show_block(self, index: int) -> None:
        d = self.document.block_details(index)
        self.block_stack.set_frames(d.recorded_frames, "stack" if d.recorded_frames else "no stack recorded")
        lines = [
            self.map.describe(index),
            "",
            f"<b>segment</b> {d.segment_address:#x}: {format_bytes_exact(d.segment_size)}, {d.segment_blocks} blocks,",
            f"free {format_bytes_exact(d.segment_free)}, largest hole {format_bytes_exact(d.segment_largest_free)}",
        ]
        if d.category:  # known once the trace is indexed
            label = html.escape(CATEGORY_LABELS.get(d.category, d.category))
            lines[1:1] = [f"<b>category</b> {label}: {html.escape(d.category_rule)}"]
        if d.no_frames_cause:
            lines[1:1] = [f"<b>no stack</b>: {html.escape(d.no_frames_cause)}"]
        if d.user_metadata or d.annotations:
            tags = [f"<b>user metadata</b> {html.escape(d.user_metadata)}"] if d.user_metadata else []
            tags += [f"<b>annotation</b> {html.escape(a)}" for a in d.annotations]
            lines[1:1] = tags
        self.details.setHtml("<br>".join(lines))

    def _event_chosen(self, index: int) -> None:
        """An event picked in the list: travel there (the list keeps its selection)."""
        self.travel_to(index)
        self.timeline_view.set_event(index, emit=False)
        self.side_tabs.setCurrentIndex(0)  # the inspector reads the event picked

    def _site_timeline_if_shown(self) -> None:
        """The stacked bands are computed when first looked at, per device (a few hundred ms at 3M events)."""
        doc = self.document
        if doc.pending:
            return
        tl = doc.timeline()
        if self._site_timeline_for == (doc.device, tl):
            return
        self._site_timeline_for = None  # what it shows is of another device or snapshot: it follows no cursor
        if self.curve_tabs.currentWidget() is self.site_timeline:
            self._site_timeline_for = (doc.device, tl)
            series = None
            if self._site_bands is not None and self._site_bands[0] == doc.device:
                groupings = self._site_bands[1]
                if all(b.n_events == tl.n_events for b in groupings.values()):
                    series = SiteSeries(doc.snapshot, tl, groupings)
            # the loader is making this device's bands: computed here too, both would want the GIL at once
            wait = series is None and self._site_bands_for == doc.device
            self.site_timeline.set_document(doc.snapshot, tl, series, event=self.current_event, compute=not wait)

    def _event_travelled(self, index: int) -> None:
        """Travel from the stacked timeline: the curves' cursor follows."""
        self.travel_to(index)
        self.timeline_view.set_event(index, emit=False)

    def _band_selected(self, kind: str, key: object, label: str) -> None:
        self._show(self.document.set_spotlight(self.site_timeline.mask_of(kind, key), f"{label}: its blocks"))

    def spotlight_site(self, site: str) -> None:
        """Light up the blocks of one allocation site on the map (picked in the breakdown or the explanation)."""
        snapshot, document = self.snapshot, self.document

        def of_site(state: AllocatorState) -> npt.NDArray[np.bool_]:
            return site_block_mask(snapshot, state, site, document.nameless_reasons(state))

        self._show(document.set_spotlight(of_site, f"site {site}"))

    def explain(self, at: int | None = None) -> None:
        """Explain the device's OOM or peak (`at`: that event) in the panel beside the timeline."""
        if self._timeline_view is not None:
            self.diagnosis.explain(at)

    def apply_search(self) -> None:
        frame = self.document.set_search(self.search.text())
        self._show(frame)
        if frame.search_mask is not None:
            self.side_tabs.setCurrentWidget(self.table)
            self._refresh_table()

    def show_focus(self, focus: DemoFocus) -> None:
        """A quiz demo's focus: its device and event with every pool and stream, its blocks in the spotlight, its
        marks on the timeline, its bracket over the figures."""
        if self.pending:
            raise RuntimeError("the trace is still being indexed: show the focus once the timelines have arrived")
        if self.device != focus.device:
            self.set_device(focus.device)
        for box in (self.pool_box, self.stream_box):  # the focus's mask is over all pools and streams of its device
            box.blockSignals(True)
            box.setCurrentIndex(0)
            box.blockSignals(False)
        self._show(self.document.focus_at(focus.event, focus.mask_for, focus.caption))
        self.timeline_view.set_event(focus.event, emit=False)
        self.timeline_view.set_focus_marks(focus.timeline_marks)
        if focus.bracket is not None:
            self.figures.set_bracket(focus.bracket.reserved_bytes, focus.bracket.allocated_bytes, focus.bracket.label)

    def clear_focus(self) -> None:
        """Take a focus off (the state shown stays)."""
        self._show(self.document.clear_spotlight())
        self.timeline_view.clear_focus_marks()
        self.figures.clear_bracket()

    def shutdown(self) -> None:
        """The tab is closing: stop playing and explaining (the document goes with the widget)."""
        self.play_timer.stop()
        if self._diagnosis is not None:
            self._diagnosis.shutdown()
        self.tasks.cancel_all()
        if self._site_timeline is not None:
            self._site_timeline.tasks.cancel_all()
