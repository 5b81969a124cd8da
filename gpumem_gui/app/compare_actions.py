"""The window's comparisons: two tabs, a tab and a file, two marked moments, or a folder of rank files."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6 import QtWidgets

from gpumem_gui.document import SnapshotDocument
from gpumem_gui.document.compare import CompareDocument
from gpumem_gui.sources.file_loader import load_in_worker
from gpumem_gui.views.common import language
from gpumem_gui.views.common.language import QT_TRANSLATE_NOOP, localized, translate
from gpumem_gui.views.common.sentences import said
from gpumem_gui.views.common.tasks import Task, TaskContext
from gpumem_gui.views.compare.cluster_dialog import ClusterFolderDialog
from gpumem_gui.views.compare.diff_view import DiffView
from gpumem_gui.views.compare.ranks_view import RanksView
from gpumem_gui.views.snapshot.tab import SnapshotTab

if TYPE_CHECKING:
    from gpumem_gui.app.host import WindowHost

SNAPSHOT_FILTER = "Snapshots (*.pickle *.pkl *.json *.gz);;All files (*)"


class CompareActions:
    """File > Compare..., File > Open Folder..., File > Open Cluster Folder..., View > Mark This Moment as A and
    Compare With Moment A."""

    def __init__(self, host: WindowHost) -> None:
        self.host = host
        self.parent = host.host_widget()  # the dialogs' parent
        self.marked: tuple[SnapshotTab, int] | None = None  # moment A: a tab and its event

    def closed(self, widget: QtWidgets.QWidget) -> None:
        """A tab was closed: a moment marked in it goes (it would keep the closed tab's snapshot alive)."""
        if self.marked is not None and self.marked[0] is widget:
            self.marked = None

    def _loaded_tabs(self) -> list[SnapshotTab]:
        tabs = self.host.tabs
        found = [tabs.widget(i) for i in range(tabs.count())]
        return [w for w in found if isinstance(w, SnapshotTab) and not w.pending]

    def _say(self, text: str) -> None:
        self.host.statusBar().showMessage(text, 10_000)

    def _compare_failed(self, message: str) -> None:
        """A comparison that could not be made (a file B that is no snapshot): why, in the window's language."""
        template = QT_TRANSLATE_NOOP("CompareActions", "Compare: {message}")
        self._say(translate("CompareActions", template, {"message": said(message)}))

    def compare_dialog(self) -> None:
        """This tab (A, at its cursor) against another tab (at its cursor) or a file (at its snapshot)."""
        a = self.host.current_document()
        if a is None or a.pending:
            self._say(translate("CompareActions", "Compare: open a snapshot (fully loaded) first."))
            return
        others = [w for w in self._loaded_tabs() if w is not a]
        names = [self.host.tabs.tabText(self.host.tabs.indexOf(w)) for w in others]
        choice, ok = QtWidgets.QInputDialog.getItem(
            self.parent,
            translate("CompareActions", "Compare"),
            translate("CompareActions", "Compare this tab (A, at its cursor) with B:"),
            [*names, translate("CompareActions", "A file...")],
            0,
            False,
        )
        if not ok:
            return
        if choice in names:
            b = others[names.index(choice)]
            self.open_compare(a.document, b.document, a.current_event, b.current_event)
            return
        path, _ = QtWidgets.QFileDialog.getOpenFileName(
            self.parent, translate("CompareActions", "Compare with"), "", SNAPSHOT_FILTER
        )
        if path:
            self.open_compare(a.document, path, a.current_event, None)

    def mark_moment(self) -> None:
        doc = self.host.current_document()
        if doc is None or doc.pending:
            self._say(translate("CompareActions", "Mark: open a snapshot (fully loaded) first."))
            return
        self.marked = (doc, doc.current_event)
        self._say(
            translate(
                "CompareActions",
                "moment A: event {event}; go to B (another moment or tab), then View > Compare With Moment A",
            ).format(event=localized(f"{doc.current_event:,}"))
        )

    def compare_with_mark(self) -> None:
        doc = self.host.current_document()
        if self.marked is None or self.host.tabs.indexOf(self.marked[0]) < 0:
            self._say(translate("CompareActions", "Mark a moment first (View > Mark This Moment as A)."))
            return
        if doc is None or doc.pending:
            self._say(translate("CompareActions", "Compare: show a snapshot (fully loaded) as B."))
            return
        a, event_a = self.marked
        self.open_compare(a.document, doc.document, event_a, doc.current_event)

    def open_compare(
        self, a: SnapshotDocument, b: SnapshotDocument | str, event_a: int | None, event_b: int | None
    ) -> Task:
        """The comparison computed off the GUI thread (B read there when it is a file), then a tab for it."""

        def run(_ctx: TaskContext) -> tuple[Any, SnapshotDocument]:
            other = b if isinstance(b, SnapshotDocument) else SnapshotDocument(*load_in_worker(b))
            return CompareDocument.open(a, other, event_a, event_b).diff, other

        def done(result: tuple[Any, SnapshotDocument]) -> None:
            diff, other = result
            title = f"compare: {Path(diff.a.file).name} @{diff.a.event} / {Path(diff.b.file).name} @{diff.b.event}"
            index = self.host.tabs.addTab(DiffView(diff, a, other), title)
            self.host.tabs.setCurrentIndex(index)

        return self.host.tasks.start(
            "compare",
            run,
            on_result=done,
            on_error=self._compare_failed,
        )

    def compare_files(  # noqa: PLR0917 (each side's file, device and event, as the ranks table gives them)
        self, path_a: str, device_a: int, event_a: int | None, path_b: str, device_b: int, event_b: int | None
    ) -> Task:
        """Two files (two ranks picked in a folder's table) on the given devices, each right after its event (a rank's
        peak; None: its snapshot's own end state)."""

        def run(_ctx: TaskContext) -> tuple[Any, SnapshotDocument, SnapshotDocument]:
            a = SnapshotDocument(*load_in_worker(path_a), device=device_a)
            b = SnapshotDocument(*load_in_worker(path_b), device=device_b)
            return CompareDocument.open(a, b, event_a, event_b).diff, a, b

        def done(result: tuple[Any, SnapshotDocument, SnapshotDocument]) -> None:
            diff, a, b = result
            title = f"compare: {Path(path_a).name} @{diff.a.event} / {Path(path_b).name} @{diff.b.event}"
            index = self.host.tabs.addTab(DiffView(diff, a, b), title)
            self.host.tabs.setCurrentIndex(index)

        return self.host.tasks.start("compare", run, on_result=done, on_error=self._compare_failed)

    # -- a folder of rank files -----------------------------------------------------------------------------------

    def open_folder_dialog(self) -> None:
        folder = QtWidgets.QFileDialog.getExistingDirectory(
            self.parent, translate("CompareActions", "Open a folder of rank snapshots")
        )
        if folder:
            self.open_folder(folder)

    def open_cluster_dialog(self) -> None:
        """File > Open Cluster Folder...: the folder and the scheduler (remembered), read on the cluster's workers."""
        dialog = ClusterFolderDialog(self.host.settings, self.parent)
        if dialog.exec() == QtWidgets.QDialog.DialogCode.Accepted:
            self.open_folder(dialog.folder(), dialog.scheduler())

    def open_folder(self, folder: str, scheduler: str | None = None) -> RanksView:
        """A tab summarising every snapshot in `folder` (read in worker processes, or on the Dask cluster whose
        scheduler is at `scheduler`): open a rank, compare two."""
        view = RanksView()
        view.open_requested.connect(self.host.open_file_at_device)
        view.compare_requested.connect(self.compare_files)
        tabs = self.host.tabs
        tabs.setCurrentIndex(tabs.addTab(view, ""))
        if scheduler:
            title = QT_TRANSLATE_NOOP("Tabs", "ranks: {folder} on {scheduler}")
            language.tab_title(tabs, view, title, folder=Path(folder).name, scheduler=scheduler)
        else:
            language.tab_title(tabs, view, QT_TRANSLATE_NOOP("Tabs", "ranks: {folder}"), folder=Path(folder).name)
        view.load_folder(folder, scheduler)
        return view
