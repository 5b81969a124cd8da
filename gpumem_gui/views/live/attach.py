"""AttachDialog: local GPU processes (NVML) merged with the processes that run a probe; pick one to watch live."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6 import QtCore, QtWidgets

from gpumem_gui.sources.local_jobs import LocalJob, LocalJobs
from gpumem_gui.sources.probe_client import probe_hint
from gpumem_gui.views.common import palette
from gpumem_gui.views.common.language import size
from gpumem_gui.views.common.sentences import said
from gpumem_gui.views.common.tasks import TaskGroup


def how_to_probe() -> str:
    """How to start a job with the probe, in the window's language."""
    return QtCore.QCoreApplication.translate(
        "AttachDialog",
        "To watch a job's allocator, start it with the probe:\n"
        "    python -m gpumem_gui.probe train.py [args...]\n"
        "or add two lines to it:\n"
        "    import gpumem_gui.probe\n"
        "    gpumem_gui.probe.start()\n"
        "No GPU here? Try `gpumem-gui demo-job`, a simulated job with the real probe.",
    )


class AttachDialog(QtWidgets.QDialog):
    def __init__(self, list_jobs: Callable[[], LocalJobs], parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        self.resize(760, 420)
        self.list_jobs = list_jobs
        self.jobs: list[LocalJob] = []
        self.selected: LocalJob | None = None
        self.table = QtWidgets.QTableWidget(0, 4)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.setSelectionBehavior(QtWidgets.QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QtWidgets.QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QtWidgets.QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        self.table.itemSelectionChanged.connect(self._selection_changed)
        self.table.doubleClicked.connect(lambda _i: self.accept_selected())
        self.nvml_note = QtWidgets.QLabel(wordWrap=True)
        self.hint = QtWidgets.QLabel(wordWrap=True)
        self.hint.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
        self.hint.setStyleSheet(
            f"font-family: monospace; color: {palette.TEXT}; padding: 6px; background: {palette.HINT_BACKGROUND};"
        )
        self.refresh_button = QtWidgets.QPushButton()
        self.refresh_button.clicked.connect(self.refresh)
        self.attach_button = QtWidgets.QPushButton(default=True)
        self.attach_button.setEnabled(False)  # until a job with a probe is selected
        self.attach_button.clicked.connect(self.accept_selected)
        self.cancel_button = cancel = QtWidgets.QPushButton()
        cancel.clicked.connect(self.reject)
        buttons = QtWidgets.QHBoxLayout()
        buttons.addWidget(self.refresh_button)
        buttons.addStretch(1)
        buttons.addWidget(cancel)
        buttons.addWidget(self.attach_button)
        layout = QtWidgets.QVBoxLayout(self)
        layout.addWidget(self.nvml_note)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.hint)
        layout.addLayout(buttons)
        # no Qt parent: a listing that ends after the dialog is gone still finds its group alive
        self.tasks = TaskGroup()
        self.finished.connect(lambda _result: self.tasks.cancel_all())
        self.found: LocalJobs | None = None
        self.retranslate()
        self.refresh()

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Attach to a local job"))
        self.table.setHorizontalHeaderLabels(["PID", self.tr("GPU memory"), self.tr("probe"), self.tr("command")])
        self.refresh_button.setText(self.tr("Refresh"))
        self.attach_button.setText(self.tr("Attach"))
        self.cancel_button.setText(self.tr("Cancel"))
        if self.found is not None:
            self.show_jobs(self.found)
        else:
            self.hint.setText(how_to_probe())

    def changeEvent(self, event: QtCore.QEvent) -> None:
        if event.type() == QtCore.QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def refresh(self) -> None:
        """List the jobs in a task (NVML and every probe's socket are asked: a silent one takes seconds)."""
        self.nvml_note.setText(self.tr("looking for GPU processes and probes..."))
        self.refresh_button.setEnabled(False)
        self.tasks.start_latest(
            "list local jobs", lambda _ctx: self.list_jobs(), on_result=self.show_jobs, on_error=self._not_listed
        )

    def _not_listed(self, message: str) -> None:
        self.refresh_button.setEnabled(True)
        self.nvml_note.setText(self.tr("The local jobs could not be listed: {message}").format(message=said(message)))
        self.nvml_note.setStyleSheet(f"color: {palette.WARNING_TEXT};")

    def show_jobs(self, found: LocalJobs) -> None:
        self.refresh_button.setEnabled(True)
        self.found = found
        self.jobs = list(found.jobs)
        # the sources' words: an untrusted socket folder, NVML unavailable
        note = self.tr("; ").join(said(e) for e in (found.probe_error, found.nvml_error) if e)
        self.nvml_note.setText(note or self.tr("GPU processes from NVML, and every local job that runs a probe."))
        self.nvml_note.setStyleSheet(f"color: {palette.WARNING_TEXT};" if note else "")
        self.table.setRowCount(len(self.jobs))
        for row, job in enumerate(self.jobs):
            used = size(job.gpu_bytes) if job.gpu_bytes is not None else "n/a"
            probe = self.tr("yes") if job.probe else self.tr("no")
            for col, text in enumerate((str(job.pid), used, probe, job.command)):
                item = QtWidgets.QTableWidgetItem(text)
                if col < 3:
                    item.setTextAlignment(QtCore.Qt.AlignmentFlag.AlignCenter)
                self.table.setItem(row, col, item)
        self.table.resizeColumnsToContents()
        first = next((row for row, job in enumerate(self.jobs) if job.probe), None)
        if first is not None:
            self.table.selectRow(first)
        elif not self.jobs:
            self.hint.setText(self.tr("No local GPU process and no probe found.") + "\n\n" + how_to_probe())
        self._selection_changed()

    def _selection_changed(self) -> None:
        rows = {i.row() for i in self.table.selectedIndexes()}
        job = self.jobs[rows.pop()] if rows else None
        self.selected = job
        self.attach_button.setEnabled(job is not None and job.probe is not None)
        if job is not None and job.probe is None:
            self.hint.setText(said(probe_hint(job.pid)) + ".\n\n" + how_to_probe())
        elif self.jobs:
            self.hint.setText(how_to_probe())

    def accept_selected(self) -> None:
        if self.selected is not None and self.selected.probe is not None:
            self.accept()

    def selected_probe(self) -> Path | None:
        return self.selected.probe if self.selected is not None else None
