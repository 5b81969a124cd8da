"""The window's menu actions on the current tab: what-if replays, explanations, and saving what is shown."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6 import QtWidgets

from gpumem_gui.core.allocator.remedies import Explanation
from gpumem_gui.core.analysis.export import blocks_csv
from gpumem_gui.core.analysis.report import build_report, report_json, report_text
from gpumem_gui.document.staging import WhatIfRun, remedy_document, replay_document
from gpumem_gui.views.common import language
from gpumem_gui.views.common.language import QT_TRANSLATE_NOOP, translate
from gpumem_gui.views.common.tasks import Task, TaskContext
from gpumem_gui.views.compare.whatif_view import WhatIfDialog, WhatIfView

if TYPE_CHECKING:
    from gpumem_gui.app.host import WindowHost
    from gpumem_gui.views.snapshot.tab import SnapshotTab


class TabActions:
    """View > What if..., the explanations and File > Export / Save Report, for one main window."""

    def __init__(self, host: WindowHost) -> None:
        self.host = host
        self.parent = host.host_widget()  # the dialogs' parent

    def what_if(self) -> None:
        doc = self.host.current_document()
        if doc is None or doc.pending or not doc.document.has_trace():
            QtWidgets.QMessageBox.information(
                self.parent,
                translate("TabActions", "What if"),
                translate("TabActions", "Open a snapshot with a trace first."),
            )
            return
        dialog = WhatIfDialog(self.parent)
        if dialog.exec() != QtWidgets.QDialog.DialogCode.Accepted:
            return
        try:
            capacity = dialog.capacity_bytes()
        except ValueError as e:
            QtWidgets.QMessageBox.warning(self.parent, translate("TabActions", "What if"), str(e))
            return
        self.start_what_if(doc, dialog.overrides(), capacity)

    def start_what_if(
        self, doc: SnapshotTab, overrides: list[str], capacity: int | None, at: int | None = None
    ) -> Task:
        """Replay `doc`'s trace under `overrides` off the GUI thread; a comparison tab opens when it is done (at
        event `at`, or the end)."""
        group = self.host.tab_tasks.get(doc, self.host.tasks)  # closing the recorded run's tab cancels its replay
        task = group.start(
            "what if",
            lambda ctx: replay_document(doc.document, overrides, capacity, ctx.check),
            on_result=functools.partial(self._what_if_done, at=at, doc=doc, overrides=overrides),
            on_error=lambda message: QtWidgets.QMessageBox.warning(
                self.parent, translate("TabActions", "What if"), message
            ),
        )
        task.finished.connect(lambda: self.host.job_done(task))
        self.host.replays.append(task)
        self.host.show_progress()
        return task

    def _what_if_done(
        self,
        run: WhatIfRun,
        at: int | None = None,
        doc: SnapshotTab | None = None,
        overrides: list[str] | None = None,
    ) -> None:
        if doc is not None and overrides is not None:
            doc.show_what_if(overrides)  # the recorded tab's settings page says what the replay changed
        view = WhatIfView(run)
        index = self.host.tabs.addTab(view, "")
        change = run.change or run.result.settings
        if change:
            language.tab_title(self.host.tabs, view, QT_TRANSLATE_NOOP("Tabs", "what if: {change}"), change=change)
        else:
            language.tab_title(self.host.tabs, view, QT_TRANSLATE_NOOP("Tabs", "what if: recorded"))
        self.host.tabs.setCurrentIndex(index)
        if at is not None:
            view.travel_to(at)

    def open_remedy(self, doc: SnapshotTab, explanation: Explanation, index: int, event: int) -> Task:
        """A remedy's "Show" in the explanation: its replay (the settings, or the program's changed trace) beside the
        recorded run, off the GUI thread, opened at the explained moment (the same request on both sides)."""
        group = self.host.tab_tasks.get(doc, self.host.tasks)
        task = group.start(
            "what if",
            lambda ctx: remedy_document(doc.document, explanation, index, ctx.check),
            on_result=functools.partial(self._what_if_done, at=event),
            on_error=lambda message: QtWidgets.QMessageBox.warning(
                self.parent, translate("TabActions", "What if"), message
            ),
        )
        task.finished.connect(lambda: self.host.job_done(task))
        self.host.replays.append(task)
        self.host.show_progress()
        return task

    def explain_current(self, at_cursor: bool = False) -> None:
        """View > Explain: the current tab's first OOM (else its peak), or the event at the cursor."""
        doc = self.host.current_document()
        if doc is None or doc.pending or not doc.document.has_trace():
            self.host.statusBar().showMessage(
                translate("TabActions", "Explain needs a snapshot with a trace, fully loaded."), 10_000
            )
            return
        doc.explain(doc.current_event if at_cursor else None)

    def export_csv(self) -> None:
        doc = self.host.current_document()
        if doc is None or doc.state is None:
            return
        path, _ = QtWidgets.QFileDialog.getSaveFileName(
            self.parent, translate("TabActions", "Export blocks"), "blocks.csv", "CSV (*.csv)"
        )
        if path:
            reasons = doc.document.nameless_reasons(doc.state)
            Path(path).write_text(blocks_csv(doc.state, doc.snapshot.stacks, reasons), encoding="utf-8")

    def save_report(self) -> None:
        doc = self.host.current_document()
        if doc is None:
            return
        path, _ = QtWidgets.QFileDialog.getSaveFileName(
            self.parent,
            translate("TabActions", "Save report"),
            "report.txt",
            translate("TabActions", "Text (*.txt);;JSON (*.json)"),
        )
        if path:
            self.write_report(doc, Path(path))

    def write_report(self, doc: SnapshotTab, path: Path) -> Task:
        """The report of what `doc` shows (its device, at its cursor) written to `path` (.json: as JSON) in a task,
        with the timeline the tab has already; a failure is one line in the status bar, as every task's."""
        snapshot, device, at = doc.snapshot, doc.device, doc.current_event
        timelines = dict(doc.document.timelines)  # built already, or by the report in the task

        def write(_ctx: TaskContext) -> Path:
            reports = build_report(snapshot, device=device, at=at, timelines=timelines)
            if path.suffix == ".json":
                text = json.dumps(report_json(snapshot, reports), indent=2)
            else:
                text = report_text(snapshot, reports)
            path.write_text(text, encoding="utf-8")
            return path

        return self.host.tasks.start(
            "save report",
            write,
            on_result=lambda p: self.host.statusBar().showMessage(
                translate("TabActions", "saved {path}").format(path=p), 10_000
            ),
        )

    def export_image(self) -> None:
        path, _ = QtWidgets.QFileDialog.getSaveFileName(
            self.parent, translate("TabActions", "Export image"), "gpumem.png", "PNG (*.png)"
        )
        if path:
            self.parent.grab().save(path)
