"""OneLineLabel: a line of plain text that never widens its window: too long for its width, it is elided, and
the whole text is its tooltip."""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets


class OneLineLabel(QtWidgets.QLabel):
    """A status line: as wide as its layout gives it (not as its text), one line high, the rest elided with "…"."""

    def __init__(self, text: str = "", parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        self._full = ""
        self.setTextFormat(QtCore.Qt.TextFormat.PlainText)
        self.setSizePolicy(QtWidgets.QSizePolicy.Policy.Ignored, QtWidgets.QSizePolicy.Policy.Fixed)
        self.setMinimumWidth(0)
        self.setText(text)

    def setText(self, text: str) -> None:
        self._full = " ".join(text.split())  # one line, whatever it was given
        self.setToolTip(self._full)
        self._elide()

    def text(self) -> str:
        """The whole line (what is shown may be elided)."""
        return self._full

    def shown_text(self) -> str:
        return super().text()

    def minimumSizeHint(self) -> QtCore.QSize:
        return QtCore.QSize(0, super().minimumSizeHint().height())

    def resizeEvent(self, event: QtGui.QResizeEvent) -> None:
        super().resizeEvent(event)
        self._elide()

    def _elide(self) -> None:
        width = max(0, self.contentsRect().width())
        shown = self.fontMetrics().elidedText(self._full, QtCore.Qt.TextElideMode.ElideRight, width)
        super().setText(shown)
