"""A stack trace in a side panel: the user's frames first and prominent, the allocator's plumbing on request."""

from __future__ import annotations

import functools
import html
import re
from collections.abc import Sequence

from PySide6 import QtCore, QtGui, QtWidgets

from gpumem_gui.core.snapshot.frame_kinds import (
    HIDDEN_KINDS,
    KIND_LABELS,
    PYTHON_KINDS,
    FrameKind,
    frame_kind,
    qualified_name,
)
from gpumem_gui.core.snapshot.model import Frame
from gpumem_gui.core.snapshot.stacks import filter_frames
from gpumem_gui.views.common import palette
from gpumem_gui.views.common.language import Retranslated, translate

_SEPARATORS = re.compile(r"[/\\]")
_INSTALLED = re.compile(r"[/\\](?:site|dist)-packages[/\\]")


class StackView(Retranslated):
    """Read-only, selectable list of frames, innermost first: `function  file:line` per line.

    By default it shows what `filter_frames` keeps (Python frames first, then C++ operations); the "show all
    frames" box shows every frame in the order the file recorded them, the hidden ones greyed.
    """

    show_all_changed = QtCore.Signal(bool)

    def __init__(self, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        self._frames: list[Frame] = []
        self._rows: list[Frame] = []  # the frame on each line of the text
        self.title = QtWidgets.QLabel()
        self.title.setTextFormat(QtCore.Qt.TextFormat.PlainText)
        # a long title is cut, never a reason for the side panel to grow
        self.title.setSizePolicy(QtWidgets.QSizePolicy.Policy.Ignored, QtWidgets.QSizePolicy.Policy.Preferred)
        bold = self.title.font()
        bold.setBold(True)
        self.title.setFont(bold)
        self.show_all = QtWidgets.QCheckBox()
        self.show_all.toggled.connect(self._toggled)
        self.text = QtWidgets.QPlainTextEdit()
        self.text.setReadOnly(True)
        self.text.setUndoRedoEnabled(False)
        self.text.setTextInteractionFlags(
            QtCore.Qt.TextInteractionFlag.TextSelectableByMouse | QtCore.Qt.TextInteractionFlag.TextSelectableByKeyboard
        )
        self.text.setLineWrapMode(QtWidgets.QPlainTextEdit.LineWrapMode.NoWrap)  # one frame, one line
        self.text.setFont(QtGui.QFontDatabase.systemFont(QtGui.QFontDatabase.SystemFont.FixedFont))
        self.text.viewport().installEventFilter(self)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.title)
        layout.addWidget(self.text, 1)
        layout.addWidget(self.show_all)
        self.setSizePolicy(QtWidgets.QSizePolicy.Policy.Preferred, QtWidgets.QSizePolicy.Policy.Expanding)
        self.clear()
        self.retranslate()

    def retranslate(self) -> None:
        self.show_all.setToolTip(
            translate("StackView", "Also show the allocator, dispatcher, autograd engine and CPython frames, greyed")
        )
        self.text.setPlaceholderText(translate("StackView", "no stack recorded"))
        self._say_hidden()

    def _say_hidden(self, filtered: list[Frame] | None = None) -> None:
        hidden = len(self._frames) - len(filter_frames(self._frames) if filtered is None else filtered)
        if hidden:
            self.show_all.setText(translate("StackView", "Show all frames ({hidden} hidden)").format(hidden=hidden))
        else:
            self.show_all.setText(translate("StackView", "Show all frames"))

    def set_frames(self, frames: Sequence[Frame], title: str = "") -> None:
        self._frames = list(frames)
        self.title.setText(title)
        self.title.setToolTip(title)  # the whole title where the panel cuts it
        self.title.setVisible(bool(title))
        filtered = filter_frames(self._frames)  # once for both (a travel's stack of 100 frames: 0.2 ms each)
        self._say_hidden(filtered)
        self.show_all.setEnabled(bool(self._frames))
        self._fill(filtered)

    def clear(self) -> None:
        self.set_frames([])

    def frames_shown(self) -> list[Frame]:
        """The frames on screen, top line first."""
        return list(self._rows)

    def sizeHint(self) -> QtCore.QSize:
        lines = QtGui.QFontMetrics(self.text.font()).lineSpacing()
        return QtCore.QSize(320, self._chrome() + 10 * lines)

    def minimumSizeHint(self) -> QtCore.QSize:
        lines = QtGui.QFontMetrics(self.text.font()).lineSpacing()
        return QtCore.QSize(120, self._chrome() + 3 * lines)

    def _chrome(self) -> int:
        """Height of everything but the lines of text: title, box, frame and scroll bar."""
        title = self.title.sizeHint().height() + 2 if self.title.isVisibleTo(self) else 0
        bar = self.text.horizontalScrollBar().sizeHint().height()
        return title + self.show_all.sizeHint().height() + 2 + bar + 2 * self.text.frameWidth() + 8

    def eventFilter(self, watched: QtCore.QObject, event: QtCore.QEvent) -> bool:
        if event.type() == QtCore.QEvent.Type.ToolTip and isinstance(event, QtGui.QHelpEvent):
            frame = self._frame_at(event.pos())
            if frame is None:
                QtWidgets.QToolTip.hideText()
            else:
                QtWidgets.QToolTip.showText(event.globalPos(), tooltip(frame), self.text.viewport())
            return True
        return super().eventFilter(watched, event)

    def _frame_at(self, pos: QtCore.QPoint) -> Frame | None:
        cursor = self.text.cursorForPosition(pos)
        row = cursor.blockNumber()
        if not 0 <= row < len(self._rows):
            return None
        # below the last line, the cursor still lands on it: only a point inside the line's box counts
        rect = self.text.cursorRect(cursor)
        return self._rows[row] if rect.top() <= pos.y() <= rect.bottom() else None

    def _toggled(self, checked: bool) -> None:
        self._fill()
        self.show_all_changed.emit(checked)

    def _fill(self, filtered: list[Frame] | None = None) -> None:
        if self.show_all.isChecked():
            rows = list(self._frames)
        else:
            rows = filter_frames(self._frames) if filtered is None else filtered
        if rows == self._rows and self.text.document().blockCount() == max(1, len(rows)):
            # the same lines (travel between events of one stack): the text, its layout and its scroll stay
            self.text.moveCursor(QtGui.QTextCursor.MoveOperation.Start)
            return
        self._rows = rows
        self.text.clear()
        cursor = QtGui.QTextCursor(self.text.document())
        cursor.beginEditBlock()  # the document is laid out once, at the end, not after each insert
        for i, frame in enumerate(rows):
            if i:
                cursor.insertBlock()
            name_format, place_format = _formats(frame_kind(frame))
            cursor.insertText(display_name(frame), name_format)
            place = location(frame)
            if place:
                cursor.insertText("  " + place, place_format)
        cursor.endEditBlock()
        self.text.moveCursor(QtGui.QTextCursor.MoveOperation.Start)  # the innermost frame in view


def display_name(frame: Frame) -> str:
    """A Python function as it is; a C++ symbol without its return type and arguments (the tooltip has them)."""
    return frame.name if frame_kind(frame) in PYTHON_KINDS else qualified_name(frame.name)


def location(frame: Frame) -> str:
    """`package/module.py:line`: the path below site-packages, else its last two parts; nothing where unknown."""
    if frame.filename in ("", "??"):
        return ""
    short = _short_path(frame.filename)
    return f"{short}:{frame.line}" if frame.line > 0 else short


@functools.lru_cache(maxsize=4096)  # a stack's files recur from event to event: two regex splits per frame, each travel
def _short_path(filename: str) -> str:
    installed = _INSTALLED.split(filename)
    parts = _SEPARATORS.split(installed[-1]) if len(installed) > 1 else _SEPARATORS.split(filename)[-2:]
    return "/".join(p for p in parts if p)


def tooltip(frame: Frame) -> str:
    where = f"{frame.filename}:{frame.line}" if frame.line > 0 else frame.filename
    lines = [frame.name, where, KIND_LABELS[frame_kind(frame)]]
    # rich text, so that a C++ template's <...> is shown, not parsed, and a long signature wraps
    return "<qt>" + "<br>".join(html.escape(line) for line in lines if line) + "</qt>"


@functools.cache  # a handful of kinds; insertText copies the format it is given
def _formats(kind: FrameKind) -> tuple[QtGui.QTextCharFormat, QtGui.QTextCharFormat]:
    name, place = QtGui.QTextCharFormat(), QtGui.QTextCharFormat()
    if kind == FrameKind.USER:
        name.setForeground(QtGui.QColor(palette.STACK_USER))
        name.setFontWeight(QtGui.QFont.Weight.Bold)
        place.setForeground(QtGui.QColor(palette.STACK_LOCATION))
    elif kind in HIDDEN_KINDS:
        name.setForeground(QtGui.QColor(palette.STACK_HIDDEN))
        place.setForeground(QtGui.QColor(palette.STACK_HIDDEN))
    else:
        name.setForeground(QtGui.QColor(palette.STACK_OTHER))
        place.setForeground(QtGui.QColor(palette.STACK_OTHER))
    return name, place
