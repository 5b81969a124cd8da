"""TabHost: what a tab's helpers (its scope, its pinned tracks) may use of the tab, so that none imports it back."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from PySide6 import QtWidgets

if TYPE_CHECKING:
    from gpumem_gui.document import EventFrame, SnapshotDocument
    from gpumem_gui.views.common.tasks import TaskGroup
    from gpumem_gui.views.snapshot.curves_panel import CurvesPanel
    from gpumem_gui.views.snapshot.event_list import EventListView
    from gpumem_gui.views.snapshot.site_timeline import SiteTimelineView
    from gpumem_gui.views.snapshot.tab_controls import TabControls
    from gpumem_gui.views.snapshot.timeline import TimelineView


class TabHost(Protocol):
    """A SnapshotTab as its helpers see it: its document, tasks, controls, side tabs and curves, and how it draws."""

    document: SnapshotDocument
    tasks: TaskGroup
    controls: TabControls
    side_tabs: QtWidgets.QTabWidget
    device_box: QtWidgets.QComboBox
    axis_box: QtWidgets.QComboBox

    @property
    def current_event(self) -> int: ...

    @property
    def curves(self) -> CurvesPanel: ...

    @property
    def curve_tabs(self) -> QtWidgets.QTabWidget: ...

    @property
    def site_timeline(self) -> SiteTimelineView: ...

    @property
    def timeline_view(self) -> TimelineView: ...

    @property
    def event_list(self) -> EventListView: ...

    def show_frame(
        self, frame: EventFrame, *, keep_range: bool = True, table: bool = True, inspector: bool = True
    ) -> None: ...

    def travel_to(self, index: int) -> None: ...
