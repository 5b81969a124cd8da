"""A block's or band's stack drawn over the view that shows it: it follows the pointer while hovering, and a click
pins it (it stays, with its stack, while the pointer moves on) until Esc or a click on nothing."""

from __future__ import annotations

import html
from collections.abc import Sequence

from PySide6 import QtCore, QtGui, QtWidgets

from gpumem_gui.core.snapshot.frame_kinds import FrameKind, frame_kind
from gpumem_gui.core.snapshot.model import Frame
from gpumem_gui.core.snapshot.stacks import filter_frames
from gpumem_gui.views.common import palette
from gpumem_gui.views.common.language import QT_TRANSLATE_NOOP, translate
from gpumem_gui.views.common.rich_text import rich_text
from gpumem_gui.views.common.stack_view import display_name, location

MAX_FRAMES = 12  # the popup's lines of stack; the side panel has all of them
_OFFSET = 16  # pixels between the pointer and the popup's corner
HOVER_HINT = QT_TRANSLATE_NOOP("StackPopup", "click to pin")
PINNED_HINT = QT_TRANSLATE_NOOP("StackPopup", "pinned: Esc or a click on nothing unpins")


def stack_lines(frames: Sequence[Frame], limit: int = MAX_FRAMES, empty: str = "no stack recorded") -> list[str]:
    """The lines the popup shows for `frames` (rich text): the frames worth showing, innermost first, the user's in
    bold, then how many more there are; `empty` where there are none."""
    shown = filter_frames(frames)
    lines = []
    for frame in shown[:limit]:
        name, place = html.escape(display_name(frame)), html.escape(location(frame))
        if frame_kind(frame) == FrameKind.USER:
            name = f'<b style="color:{palette.STACK_USER}">{name}</b>'
            place = f'<span style="color:{palette.STACK_LOCATION}">{place}</span>'
        else:
            name = f'<span style="color:{palette.STACK_OTHER}">{name}</span>'
            place = f'<span style="color:{palette.STACK_OTHER}">{place}</span>'
        lines.append(f"{name}&nbsp;&nbsp;{place}" if place else name)
    if len(shown) > limit:
        lines.append(f'<span style="color:{palette.STACK_HIDDEN}">... {len(shown) - limit} more frames</span>')
    if not frames:
        lines.append(f'<span style="color:{palette.STACK_HIDDEN}">{html.escape(empty)}</span>')
    return lines


def host_point(view: QtWidgets.QGraphicsView, host: QtWidgets.QWidget, scene_pos: QtCore.QPointF) -> QtCore.QPoint:
    """A point of a plot's scene in the coordinates of `host`, a widget that holds the plot."""
    return view.viewport().mapTo(host, view.mapFromScene(scene_pos))


class StackPopup(QtWidgets.QFrame):
    """The popup over `host`'s window (a child of it, so that it is drawn and grabbed with it); positions are given
    in `host`'s coordinates."""

    unpinned = QtCore.Signal()

    def __init__(self, host: QtWidgets.QWidget) -> None:
        super().__init__(host)
        self.host = host
        self.pinned = False
        self.key: object = None  # what it shows (a block's index, a band): the host's, to know a click on it again
        self.setObjectName("stackPopup")
        self.setStyleSheet(
            f"#stackPopup {{ background: {palette.POPUP_BACKGROUND}; border: 1px solid {palette.POPUP_BORDER}; }}"
        )
        # the pointer goes through it to the view under it, pinned or not: a block under the card is hovered and
        # clicked as any other (a click there pins that block), and the card never takes a move from the view
        self.setAttribute(QtCore.Qt.WidgetAttribute.WA_TransparentForMouseEvents, True)
        self.title = QtWidgets.QLabel()
        self.title.setTextFormat(QtCore.Qt.TextFormat.RichText)
        self.body = QtWidgets.QLabel()
        self.body.setTextFormat(QtCore.Qt.TextFormat.RichText)
        self.body.setFont(QtGui.QFontDatabase.systemFont(QtGui.QFontDatabase.SystemFont.FixedFont))
        self.hint = QtWidgets.QLabel()
        self.hint.setStyleSheet(f"color: {palette.TEXT_MUTED}")
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 4)
        layout.setSpacing(2)
        layout.addWidget(self.title)
        layout.addWidget(self.body)
        layout.addWidget(self.hint)
        self._escape = QtGui.QShortcut(QtGui.QKeySequence(QtCore.Qt.Key.Key_Escape), host)
        self._escape.setContext(QtCore.Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self._escape.activated.connect(self.unpin)
        host.installEventFilter(self)  # its host hidden (another tab picked), the card goes too, and comes back
        self.hide()

    def eventFilter(self, watched: QtCore.QObject, event: QtCore.QEvent) -> bool:
        # lifted onto the window (see _place), the card would stay over whatever replaced its host: a pinned stack
        # of one tab's map floated over the next tab's views
        # (getattr: the collector may clear a dropped card's attributes while its C++ half still hears its host)
        if watched is getattr(self, "host", None):
            if event.type() == QtCore.QEvent.Type.Hide:
                self.hide()
            elif event.type() == QtCore.QEvent.Type.Show and self.pinned:
                self.show()
        return False

    def hover(
        self, key: object, title: str, frames: Sequence[Frame], pos: QtCore.QPoint, empty: str = "no stack recorded"
    ) -> None:
        """Show `frames` by the pointer at `pos` (host coordinates), unless a pinned stack is shown."""
        if self.pinned:
            return
        self._fill(key, title, frames, empty, pinned=False)
        self._place(pos)

    def leave(self) -> None:
        """The pointer left what the popup was showing: it goes, unless pinned."""
        if not self.pinned:
            self.hide()
            self.key = None

    def pin(
        self, key: object, title: str, frames: Sequence[Frame], pos: QtCore.QPoint, empty: str = "no stack recorded"
    ) -> None:
        """Show `frames` at `pos` and keep them while the pointer moves on (a click on a block or band)."""
        self._fill(key, title, frames, empty, pinned=True)
        self._place(pos)

    def unpin(self) -> None:
        if self.pinned:
            self.pinned = False
            self.hide()
            self.key = None
            self.unpinned.emit()

    def text(self) -> str:
        """What the popup says, as plain text (for tests and the accessible name)."""
        return "\n".join(w.text() for w in (self.title, self.body))

    def _fill(self, key: object, title: str, frames: Sequence[Frame], empty: str, *, pinned: bool) -> None:
        self.key, self.pinned = key, pinned
        self.title.setText(rich_text(title))
        self.body.setText(rich_text("<br>".join(stack_lines(frames, empty=empty))))
        self.hint.setText(translate("StackPopup", PINNED_HINT if pinned else HOVER_HINT))
        self.setAccessibleName(self.text())

    def _place(self, pos: QtCore.QPoint) -> None:
        """Below and right of the pointer; left of it or above it where the window has no room there. The popup
        lies over the whole window, not only its host: a short plot under the map would cut a stack off."""
        top = self.host.window()
        if self.parentWidget() is not top:
            self.setParent(top)
        pos = self.host.mapTo(top, pos)
        self.adjustSize()
        size, room = self.size(), top.rect()
        x, y = pos.x() + _OFFSET, pos.y() + _OFFSET
        if x + size.width() > room.right():
            x = max(pos.x() - _OFFSET - size.width(), 0)
        if y + size.height() > room.bottom():
            y = max(pos.y() - _OFFSET - size.height(), 0)
        self.move(x, y)
        self.show()
        self.raise_()
