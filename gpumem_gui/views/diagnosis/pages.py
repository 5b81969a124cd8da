"""The tab's diagnosis pages in the side panel: the explanation of an OOM or a peak, and what holds the memory at
the cursor; their slow work runs on the task mechanism, the newest request winning."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6 import QtCore, QtWidgets

from gpumem_gui.core.analysis.breakdown import breakdown_at
from gpumem_gui.core.analysis.growth import find_growth
from gpumem_gui.core.analysis.site_tree import site_tree
from gpumem_gui.views.common.language import QT_TRANSLATE_NOOP, add_tab, filled, translate
from gpumem_gui.views.common.tasks import TaskGroup
from gpumem_gui.views.diagnosis.breakdown_view import BreakdownView
from gpumem_gui.views.diagnosis.explain_panel import ExplainPanel, explain_job
from gpumem_gui.views.diagnosis.growth_view import GrowthView

if TYPE_CHECKING:
    from gpumem_gui.document import SnapshotDocument


class DiagnosisPages(QtCore.QObject):
    """The Explain and "what holds memory" pages of one SnapshotDocument, added to the side panel's `tabs` (tall
    enough to read an explanation). `site_chosen` asks the map to spotlight a site."""

    site_chosen = QtCore.Signal(str)
    remedy_chosen = QtCore.Signal(object, int, int)  # the Explanation, a remedy's index, the event to compare at

    def __init__(self, tabs: QtWidgets.QTabWidget) -> None:
        super().__init__(tabs)
        self.tasks = TaskGroup(self)
        self.tabs = tabs
        self.explain_panel = ExplainPanel()
        self.breakdown = BreakdownView()
        self.growth = GrowthView()
        add_tab(tabs, self.explain_panel, QT_TRANSLATE_NOOP("Tabs", "explain"))
        add_tab(tabs, self.breakdown, QT_TRANSLATE_NOOP("Tabs", "by site"))
        add_tab(tabs, self.growth, QT_TRANSLATE_NOOP("Tabs", "grows"))
        self.explain_panel.remedy_chosen.connect(self.remedy_chosen)
        self.explain_panel.site_selected.connect(self.site_chosen)
        self.breakdown.site_selected.connect(self.site_chosen)
        self.growth.site_selected.connect(self.site_chosen)
        tabs.currentChanged.connect(lambda _i: self._breakdown_if_shown())
        tabs.currentChanged.connect(lambda _i: self._growth_if_shown())
        self._growth_for: int | None = None  # the device whose growth is shown or being found
        self.document: SnapshotDocument | None = None
        self._breakdown_for: tuple[int, int] | None = None  # (device, event) shown or being computed

    def set_document(self, document: SnapshotDocument) -> None:
        self.document = document

    # -- explain ---------------------------------------------------------------------------------------------------

    def explain(self, at: int | None = None) -> None:
        """Explain the device's first OOM (else its peak) or event `at`, off the GUI thread; a newer request
        cancels an older one."""
        doc = self.document
        if doc is None or doc.pending:
            return
        snapshot, device, timeline = doc.snapshot, doc.device, doc.timeline()
        self.tabs.setCurrentWidget(self.explain_panel)
        self.explain_panel.show_running(
            "" if at is None else filled(translate("ExplainPanel", "event {event}"), {"event": f"{at:,}"})
        )
        self.tasks.start_latest(
            "explain",
            lambda ctx: explain_job(snapshot, device, at, timeline, ctx.check),
            on_result=self.explain_panel.show_explanation,
            on_error=self.explain_panel.show_error,
        )

    # -- what holds memory at the cursor ---------------------------------------------------------------------------

    def _breakdown_if_shown(self) -> None:
        doc = self.document
        if doc is None or doc.pending or self.tabs.currentWidget() is not self.breakdown:
            return
        wanted = (doc.device, doc.event)
        if wanted == self._breakdown_for:
            return
        self._breakdown_for = wanted
        snapshot, timeline, event = doc.snapshot, doc.timeline(), doc.event
        self.tasks.start_latest(
            "what holds memory",
            lambda _ctx: (site_tree(snapshot, timeline, event), breakdown_at(snapshot, timeline, event)),
            on_result=lambda found: self.breakdown.show_breakdown(*found),
            on_error=self.breakdown.show_error,
        )

    # -- what grows step after step ------------------------------------------------------------------------------

    def _growth_if_shown(self) -> None:
        """Steps found and sites measured once per device (0.4 s on 3M events: off the GUI thread)."""
        doc = self.document
        if doc is None or doc.pending or self.tabs.currentWidget() is not self.growth or self._growth_for == doc.device:
            return
        self._growth_for = doc.device
        snapshot, timeline = doc.snapshot, doc.timeline()
        self.growth.set_growth(None)
        self.tasks.start_latest(
            "what grows",
            lambda _ctx: find_growth(snapshot, timeline),
            on_result=self.growth.set_growth,
            on_error=self.growth.show_error,
        )

    def follow(self) -> None:
        """The cursor or the device moved: the pages shown follow (the breakdown the cursor, growth the device)."""
        self._breakdown_if_shown()
        self._growth_if_shown()

    def forget(self) -> None:
        """The document's snapshot was replaced (live): what the pages show is of the old one."""
        self._breakdown_for = None
        self._growth_for = None
        self.follow()

    def shutdown(self) -> None:
        self.tasks.cancel_all()
