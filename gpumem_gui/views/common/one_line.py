"""Text that never widens its window: OneLineLabel, a line elided to its width with the whole text in its tooltip,
and breakable(), a wrapped label's long paths allowed to break after their separators."""

from __future__ import annotations

import re

from PySide6 import QtCore, QtGui, QtWidgets

ZERO_WIDTH_SPACE = "\u200b"
_LONG_RUN = re.compile(r"\S{30,}")  # a path or a name longer than this may not fit a line
_SEPARATORS = re.compile(r"([/\\_.,:=-])")
# the breakable whitespace a line is folded at: a no-break space (a French size's, a French group's) is a character
# of the line, not a line break, and str.split() would make it a plain space
_BREAKS = re.compile(r"[^\S\u00a0\u2007\u202f]+")


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
        self._full = _BREAKS.sub(" ", text).strip(" ")  # one line, whatever it was given
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


def _hint_key(label: QtWidgets.QLabel, width: int, fixed_width: bool) -> tuple[int, int]:
    """What a layout reads of the label's hints, measured as little as may be (each a layout of its text): nothing
    for one line whose width its layout decides (policy Ignored, or a fixed width), one line of its font high
    whatever it says; a wrapped label's height at its (fixed) width; else its size hint."""
    text = label.text()
    one_line = not label.wordWrap() and "\n" not in text and "<br" not in text.lower()
    ignored = label.sizePolicy().horizontalPolicy() == QtWidgets.QSizePolicy.Policy.Ignored
    if one_line and (ignored or fixed_width):
        return (0, 0)
    if label.hasHeightForWidth():
        return (-1, label.heightForWidth(width))
    hint = label.sizeHint()  # a one-line label's minimum size hint is its size hint
    return (0 if ignored or fixed_width else hint.width(), hint.height())


class HeldLabel(QtWidgets.QWidget):
    """A label in a box of its own, for the layout in its place: a new text lays the window out again only where
    the label's hints change. A QLabel's setText asks its parent's layout to redo everything (a panel of labels in a
    scroll area: every wrapped label measured again) even where its size cannot change, as for a one-line value
    whose width its layout decides (policy Ignored) on each travel. A wrapped label's box has a fixed width."""

    def __init__(self, label: QtWidgets.QLabel, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        self.label = label
        label.setParent(self)
        self.setSizePolicy(label.sizePolicy())
        self._key = _hint_key(label, self.width(), False)

    def set_text(self, text: str) -> None:
        label = self.label
        if label.text() == text:
            return
        label.setText(text)  # its box has no layout: the request to lay it out stops here
        self.hints_changed()

    def hints_changed(self, font: bool = False) -> None:
        """Lay the window out again if the label's hints changed: a new text, or (`font`) a new style sheet, which
        may change a line's height."""
        key = _hint_key(self.label, self.width(), self.minimumWidth() == self.maximumWidth())
        if key != self._key or font:
            self._key = key
            self.updateGeometry()

    def setFixedWidth(self, width: int) -> None:
        """The box and its label at one fixed width."""
        self.label.setFixedWidth(width)
        super().setFixedWidth(width)
        self._key = _hint_key(self.label, width, True)

    def sizeHint(self) -> QtCore.QSize:
        return self.label.sizeHint()

    def minimumSizeHint(self) -> QtCore.QSize:
        return self.label.minimumSizeHint()

    def hasHeightForWidth(self) -> bool:
        return self.label.hasHeightForWidth()

    def heightForWidth(self, width: int) -> int:
        return self.label.heightForWidth(width)

    def resizeEvent(self, event: QtGui.QResizeEvent) -> None:
        self.label.setGeometry(self.rect())
