"""OnePaintWindow: a top-level window painted once per pass of the event loop, however many of its plots changed."""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

# Each plot is a QGraphicsView on a scene of its own, and a scene that processes its changed items has Qt paint the
# whole window at once (QGraphicsScene hands the window its pending update request there and then): a turn that
# changed the map, the timeline and the site timeline painted the window three times in a row, before any input or
# timer was served (16-20 ms of CPU in one gap as a file opened). This window takes the update requests Qt sends it
# and paints once, in the next pass of the event loop, everything that changed in this one.
_PAINT = QtCore.QEvent.Type(QtCore.QEvent.registerEventType())


class OnePaintWindow(QtWidgets.QMainWindow):
    """A QMainWindow whose paints are gathered: one per pass of the event loop (a child's `repaint()` is painted in
    the next pass too; `paint_now` paints at once)."""

    # as class attributes: an event may come while QMainWindow's own constructor runs
    paint_posted = False  # a paint is asked for, in the next pass
    paints = 0  # how many it made (staged work waits for a turn without one: PaintWait)
    _painting = False

    def event(self, event: QtCore.QEvent) -> bool:
        kind = event.type()
        if kind == QtCore.QEvent.Type.UpdateRequest and not self._painting:
            if not self.paint_posted:
                self.paint_posted = True
                QtCore.QCoreApplication.postEvent(
                    self, QtCore.QEvent(_PAINT), QtCore.Qt.EventPriority.LowEventPriority.value
                )
            return True  # Qt posts no other request until it has painted, so the paint posted covers all
        if kind == _PAINT:
            self.paint_now()
            return True
        return super().event(event)

    def paint_now(self) -> None:
        """Paint what changed, now."""
        self.paint_posted = False
        self.paints += 1
        self._painting = True
        try:
            super().event(QtCore.QEvent(QtCore.QEvent.Type.UpdateRequest))
        finally:
            self._painting = False


def paints_of(widget: QtWidgets.QWidget) -> tuple[int, bool] | None:
    """(paints made, a paint posted) of the OnePaintWindow that holds `widget`; None in any other window."""
    window = widget.window()
    if isinstance(window, OnePaintWindow):
        return window.paints, window.paint_posted
    return None


class PaintWait:
    """Work due in a turn of the event loop waits for a turn in which its OnePaintWindow neither painted nor has a
    paint coming: a staged step or a redraw in the turn of the window's paint made one stall of both (twice as long
    on busy cores), and a redraw before it drew at a width the paint was about to change (axes are sized to their
    labels as they are painted). In any other window it never waits (its paints are Qt's, in the same turn)."""

    def __init__(self, widget: QtWidgets.QWidget, most: int = 4) -> None:
        self._widget = widget
        self._most = most  # turns at most (a window painted in every turn still gets the work done)
        self._seen: tuple[int, bool] | None = None
        self._waits = 0

    def wait(self) -> bool:
        """True: wait for the next turn (and ask again then); False: go ahead (the next ask starts afresh)."""
        now = paints_of(self._widget)
        if now is None:
            return False
        if (self._seen is None or now != self._seen or now[1]) and self._waits < self._most:
            self._seen = now
            self._waits += 1
            return True
        self._seen = None
        self._waits = 0
        return False
