"""FileNotes: the lines over a tab's map: what is odd about the file (a note per oddity, all in the tooltip), and
where the tab opened (its OOM or peak, not the end of its trace) with a link to the end."""

from __future__ import annotations

import html

from PySide6 import QtCore, QtWidgets

from gpumem_gui.document import SnapshotDocument
from gpumem_gui.document.opening import moment_words
from gpumem_gui.views.common import palette


class FileNotes(QtWidgets.QWidget):
    end_requested = QtCore.Signal()  # the link to the final state

    def __init__(self, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
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
        self.opened_line.linkActivated.connect(lambda _link: self.end_requested.emit())
        self.opened_line.setVisible(False)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.notice)
        layout.addWidget(self.opened_line)

    def show_notes(self, doc: SnapshotDocument) -> None:
        """The document's warnings, after a line saying so where the device shown holds nothing."""
        notes = doc.warnings()
        snapshot = doc.snapshot
        if snapshot.peak_reserved(doc.device) <= 0:
            others = [d for d in doc.devices() if snapshot.peak_reserved(d) > 0]
            where = f"; memory is on {', '.join(f'GPU {d}' for d in others)}" if others else ""
            notes = [f"GPU {doc.device} holds nothing in this file{where}", *notes]
        self.notice.setVisible(bool(notes))
        if notes:
            plural = "s" if len(notes) > 1 else ""
            more = " (all of them in the tooltip)" if len(notes) > 1 else ""
            self.notice.setText(f"{len(notes)} note{plural} on this file: {notes[0]}{more}")
            self.notice.setToolTip("\n".join(notes))

    def show_opened_at(self, doc: SnapshotDocument) -> None:
        """One line on where the device was first shown, where that was its OOM or peak rather than its end."""
        moment = doc.opened_at
        self.opened_line.setVisible(moment is not None)
        if moment is None:
            return
        where = html.escape(moment_words(moment, doc.timeline()))
        if moment.event == doc.n_events - 1:
            self.opened_line.setText(f"Opened at {where}, the final state.")
        else:
            self.opened_line.setText(f'Opened at {where}; <a href="end">End</a> shows the final state.')
