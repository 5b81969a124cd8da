"""FileNotes: the lines over a tab's map: what is odd about the file (a note per oddity, all in the tooltip), and
where the tab opened (its OOM or peak, not the end of its trace) with a link to the end."""

from __future__ import annotations

import html

from PySide6 import QtCore, QtWidgets

from gpumem_gui.core.snapshot.units import format_bytes
from gpumem_gui.document import SnapshotDocument
from gpumem_gui.views.common import palette
from gpumem_gui.views.common.language import Retranslated, filled, localized, translate
from gpumem_gui.views.common.sentences import said


def moment_words(doc: SnapshotDocument) -> str:
    """Where the tab opened (document.opening.moment_words) in the window's language."""
    moment, timeline = doc.opened_at, doc.timeline()
    assert moment is not None and moment.event is not None
    fields = {"event": f"{moment.event:,}", "events": f"{timeline.n_events:,}", "count": f"{len(timeline.ooms):,}"}
    if moment.kind == "oom" and len(timeline.ooms) == 1:
        return filled(translate("FileNotes", "the OOM (event {event} of {events})"), fields)
    if moment.kind == "oom":
        return filled(translate("FileNotes", "the first of {count} OOMs (event {event} of {events})"), fields)
    fields["peak"] = localized(format_bytes(int(timeline.series.allocated[moment.event])))
    return filled(translate("FileNotes", "the peak of allocated memory, {peak} (event {event} of {events})"), fields)


class FileNotes(Retranslated):
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
        self._doc: SnapshotDocument | None = None

    def retranslate(self) -> None:
        if self._doc is not None:
            self.show_notes(self._doc)
            self.show_opened_at(self._doc)

    def show_notes(self, doc: SnapshotDocument) -> None:
        """The document's warnings, after a line saying so where the device shown holds nothing."""
        self._doc = doc
        notes = [said(note) for note in doc.warnings()]  # the core's sentences, in the window's language
        snapshot = doc.snapshot
        if snapshot.peak_reserved(doc.device) <= 0:
            others = [d for d in doc.devices() if snapshot.peak_reserved(d) > 0]
            gpus = ", ".join(f"GPU {d}" for d in others)
            if others:
                empty = translate("FileNotes", "GPU {device} holds nothing in this file; memory is on {gpus}")
            else:
                empty = translate("FileNotes", "GPU {device} holds nothing in this file")
            notes = [empty.format(device=doc.device, gpus=gpus), *notes]
        self.notice.setVisible(bool(notes))
        if notes:
            fields = {"n": str(len(notes)), "first": notes[0]}
            if len(notes) > 1:
                line = translate("FileNotes", "{n} notes on this file: {first} (all of them in the tooltip)")
            else:
                line = translate("FileNotes", "1 note on this file: {first}")
            self.notice.setText(filled(line, fields))
            self.notice.setToolTip("\n".join(notes))

    def hold_opened_line(self) -> None:
        """While the trace is read: the line of where the tab opens (its OOM or peak, known once the trace is read)
        blank at its height, so that its words do not push the map down when they come."""
        self.opened_line.setText("\u00a0")  # a space that keeps its line
        self.opened_line.setVisible(True)

    def show_opened_at(self, doc: SnapshotDocument) -> None:
        """One line on where the device was first shown, where that was its OOM or peak rather than its end."""
        moment = doc.opened_at
        if moment is None and doc.pending:
            return  # not known yet: the line stays as it is (held blank, see hold_opened_line)
        self.opened_line.setVisible(moment is not None)
        if moment is None:
            return
        where = html.escape(moment_words(doc), quote=False)  # "l'OOM" stays an apostrophe in a label
        if moment.event == doc.n_events - 1:
            self.opened_line.setText(translate("FileNotes", "Opened at {where}, the final state.").format(where=where))
        else:
            line = translate("FileNotes", "Opened at {where}; {end} shows the final state.")
            self.opened_line.setText(
                line.format(where=where, end='<a href="end">{}</a>'.format(translate("FileNotes", "End")))
            )
