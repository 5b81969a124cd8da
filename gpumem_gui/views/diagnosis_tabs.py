"""The tab's diagnosis panels beside the timeline: the event list, the explanation of an OOM or a peak, and what
holds the memory at the cursor; their slow work runs on the task mechanism, the newest request winning."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6 import QtCore, QtWidgets

from gpumem_gui.core.analysis.breakdown import breakdown_at
from gpumem_gui.core.analysis.site_tree import site_tree
from gpumem_gui.views.breakdown_view import BreakdownView
from gpumem_gui.views.event_list import EventListView
from gpumem_gui.views.explain_panel import ExplainPanel, explain_job
from gpumem_gui.views.tasks import Task, TaskGroup

if TYPE_CHECKING:
    from gpumem_gui.document import SnapshotDocument


class DiagnosisTabs(QtWidgets.QTabWidget):
    """Events, Explain and Breakdown, for one SnapshotDocument. `site_chosen` asks the map to spotlight a site."""

    site_chosen = QtCore.Signal(str)
    remedy_chosen = QtCore.Signal(str, int)  # a remedy's settings, and the event to compare the runs at

    def __init__(self, event_list: EventListView, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        self.tasks = TaskGroup(self)
        self.events = event_list
        self.explain_panel = ExplainPanel()
        self.breakdown = BreakdownView()
        self.addTab(self.events, "events")
        self.addTab(self.explain_panel, "explain")
        self.addTab(self.breakdown, "what holds memory")
        self.explain_panel.remedy_chosen.connect(self.remedy_chosen)
        self.explain_panel.site_selected.connect(self.site_chosen)
        self.breakdown.site_selected.connect(self.site_chosen)
        self.currentChanged.connect(lambda _i: self._breakdown_if_shown())
        self.document: SnapshotDocument | None = None
        self._breakdown_busy = False
        self._breakdown_for: tuple[int, int] | None = None  # (device, event) shown or being computed
        self._explaining: Task | None = None

    def set_document(self, document: SnapshotDocument) -> None:
        self.document = document

    # -- explain ---------------------------------------------------------------------------------------------------

    def explain(self, at: int | None = None) -> None:
        """Explain the device's first OOM (else its peak) or event `at`, off the GUI thread; a newer request
        cancels an older one."""
        doc = self.document
        if doc is None or doc.pending:
            return
        if self._explaining is not None:
            self._explaining.cancel()
        snapshot, device, timeline = doc.snapshot, doc.device, doc.timeline()
        self.setCurrentWidget(self.explain_panel)
        self.explain_panel.show_running("" if at is None else f"event {at:,}")
        self._explaining = self.tasks.start(
            "explain",
            lambda ctx: explain_job(snapshot, device, at, timeline, ctx.check),
            on_result=self.explain_panel.show_explanation,
            on_error=self.explain_panel.show_error,
        )

    # -- what holds memory at the cursor ---------------------------------------------------------------------------

    def follow(self) -> None:
        """The cursor moved: the breakdown follows it while it is shown (one computation at a time, the latest)."""
        self._breakdown_if_shown()

    def _breakdown_if_shown(self) -> None:
        doc = self.document
        if doc is None or doc.pending or self.currentWidget() is not self.breakdown or self._breakdown_busy:
            return
        wanted = (doc.device, doc.event)
        if wanted == self._breakdown_for:
            return
        self._breakdown_for = wanted
        self._breakdown_busy = True
        snapshot, timeline, event = doc.snapshot, doc.timeline(), doc.event
        self.tasks.start(
            "what holds memory",
            lambda _ctx: (site_tree(snapshot, timeline, event), breakdown_at(snapshot, timeline, event)),
            on_result=lambda found: self.breakdown.show_breakdown(*found),
            on_finished=self._breakdown_done,
        )

    def _breakdown_done(self) -> None:
        self._breakdown_busy = False
        self._breakdown_if_shown()  # the cursor moved meanwhile: once more, for where it is now

    def forget(self) -> None:
        """The document's snapshot was replaced (live): the breakdown shown is of the old one."""
        self._breakdown_for = None
        self._breakdown_if_shown()

    def shutdown(self) -> None:
        self.tasks.cancel_all()
