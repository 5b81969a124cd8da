"""RichTextBox: rich text at one width, laid out once per text, for a panel whose rich text changes on every travel."""

from __future__ import annotations

import math

from PySide6 import QtCore, QtGui, QtWidgets


class RichTextBox(QtWidgets.QWidget):
    """A word-wrapped rich text, as a QLabel shows it, laid out once for each text at the box's width. A rich QLabel
    lays its document out three or four times per new text (at no width while parsing it, at the width asked for its
    height, at no width again, at its own width to paint): the figures' findings, new on most travels, cost more
    than all the figures beside them. `text()` and `setText()` as a QLabel's."""

    def __init__(self, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        self._html = ""
        self._document = QtGui.QTextDocument(self)
        self._document.setDocumentMargin(0)  # as a label's: the text starts at the box's edge
        self._document.setDefaultFont(self.font())
        policy = QtWidgets.QSizePolicy(QtWidgets.QSizePolicy.Policy.Preferred, QtWidgets.QSizePolicy.Policy.Preferred)
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)

    def text(self) -> str:
        return self._html

    def setText(self, html: str) -> None:
        if html == self._html:
            return
        height = self._height()
        self._html = html
        self._document.setHtml(html)  # laid out at the width the document has: the box's
        if self._height() != height:  # only then can the layout around it change
            self.updateGeometry()
        self.update()

    def _height(self) -> int:
        return math.ceil(self._document.size().height()) if self._html else 0

    def _lay_out_at(self, width: int) -> None:
        if self._document.textWidth() != width:
            self._document.setTextWidth(width)

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        self._lay_out_at(width)  # the box is asked at the width it gets (a fixed one, in the figures)
        return self._height()

    def sizeHint(self) -> QtCore.QSize:
        return QtCore.QSize(self.width(), self.heightForWidth(self.width()))

    def minimumSizeHint(self) -> QtCore.QSize:
        return QtCore.QSize(0, self._height())

    def resizeEvent(self, event: QtGui.QResizeEvent) -> None:
        self._lay_out_at(event.size().width())

    def changeEvent(self, event: QtCore.QEvent) -> None:
        if event.type() == QtCore.QEvent.Type.FontChange:
            self._document.setDefaultFont(self.font())
            self.updateGeometry()
        super().changeEvent(event)

    def paintEvent(self, event: QtGui.QPaintEvent) -> None:
        self._lay_out_at(self.width())
        context = QtGui.QAbstractTextDocumentLayout.PaintContext()
        context.palette = self.palette()
        # a label's text is in its window text colour, a document's in its text colour
        roles = QtGui.QPalette.ColorRole
        context.palette.setColor(roles.Text, self.palette().color(roles.WindowText))
        context.clip = QtCore.QRectF(event.rect())
        painter = QtGui.QPainter(self)
        painter.setClipRect(event.rect())
        self._document.documentLayout().draw(painter, context)
        painter.end()
