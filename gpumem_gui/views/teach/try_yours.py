"""TryYoursBox: after each answer, the four lines that record the learner's own program and a button that opens
that snapshot with the question's concept lit (teach/yours.py)."""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

from gpumem_gui.teach.yours import RECORDING_SNIPPET, ui_text
from gpumem_gui.views.teach.quiz_markup import push_button, wrapped_label


class TryYoursBox(QtWidgets.QFrame):
    """`open_yours(finding)` when the learner asks to open their snapshot with the finding lit."""

    open_yours = QtCore.Signal(str)

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("card")
        self.finding = ""
        box = QtWidgets.QVBoxLayout(self)
        box.setContentsMargins(12, 10, 12, 10)
        box.setSpacing(6)
        self.heading = wrapped_label("card_title")
        self.text = wrapped_label("muted")
        self.snippet = QtWidgets.QPlainTextEdit(RECORDING_SNIPPET)
        self.snippet.setReadOnly(True)  # selectable, to copy into the learner's own script
        self.snippet.setLineWrapMode(QtWidgets.QPlainTextEdit.LineWrapMode.NoWrap)
        self.snippet.setFont(QtGui.QFontDatabase.systemFont(QtGui.QFontDatabase.SystemFont.FixedFont))
        lines = RECORDING_SNIPPET.count("\n") + 1
        self.snippet.setFixedHeight(self.snippet.fontMetrics().lineSpacing() * (lines + 1) + 16)
        self.button = push_button(lambda: self.open_yours.emit(self.finding))
        for w in (self.heading, self.text, self.snippet):
            box.addWidget(w)
        box.addWidget(self.button, 0, QtCore.Qt.AlignmentFlag.AlignRight)

    def show_for(self, finding: str | None, lang: str) -> None:
        """Shown for a question answered whose concept has a finding; hidden otherwise."""
        self.setVisible(bool(finding))
        self.finding = finding or ""
        self.heading.setText(ui_text("heading", lang))
        self.text.setText(ui_text("snippet", lang))
        self.button.setText(ui_text("open", lang))
        self.button.setToolTip(ui_text("open_tip", lang))
