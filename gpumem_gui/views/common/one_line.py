"""Text that never widens its window: OneLineLabel, a line elided to its width with the whole text in its tooltip,
and breakable(), a wrapped label's long paths allowed to break after their separators."""

from __future__ import annotations

import re

from PySide6 import QtCore, QtGui, QtWidgets

ZERO_WIDTH_SPACE = "\u200b"
_LONG_RUN = re.compile(r"\S{30,}")  # a path or a name longer than this may not fit a line
_SEPARATORS = re.compile(r"([/\\_.,:=-])")


def breakable(text: str) -> str:
    """`text` with a zero-width space after each separator of its long runs (paths, dotted names): a word-wrapped
    QLabel breaks only at spaces, so one long path set its minimum width, and a box of fixed width cut the line."""
    return _LONG_RUN.sub(lambda m: _SEPARATORS.sub(rf"\1{ZERO_WIDTH_SPACE}", m.group(0)), text)


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
