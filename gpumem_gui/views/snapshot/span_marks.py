"""SpanMarks: two marks make a span, the keyboard's way to what a shift-drag does: M sets a mark at the cursor (the
second one makes the span from one mark to the other), Shift+M makes the span from the mark to the cursor, Escape
clears the marks and the span; the same from a right click on the curves or the site timeline, and from the View
menu. The marks are drawn on both timelines."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np
import pyqtgraph as pg
import shiboken6
from PySide6 import QtCore, QtGui, QtWidgets

from gpumem_gui.views.common import language
from gpumem_gui.views.snapshot.span_drag import SPAN_BRUSH

if TYPE_CHECKING:
    from gpumem_gui.views.snapshot.tab_host import TabHost

MARK_COLOUR = SPAN_BRUSH[:3]  # the span's own hue, opaque: a mark is where a span will begin or end


class SpanMarks(QtCore.QObject):
    """The tab's marks (events: the moments right after them, as the cursor's). `choose(start, end)` scopes the tab
    to a span, `clear_span()` to the whole trace again."""

    def __init__(
        self,
        tab: TabHost,
        choose: Callable[[int, int], None],
        clear_span: Callable[[], None],
        parent: QtCore.QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.tab = tab
        self.document = tab.document
        self.choose = choose
        self.clear_span = clear_span
        self.marks: list[int] = []  # one or two: a second makes the span; a mark after that begins anew
        self._for: tuple[int, object] | None = None  # the (device, timeline) the marks are on
        view, site = tab.timeline_view, tab.site_timeline
        self._plots: list[tuple[pg.PlotWidget, Callable[[np.ndarray], np.ndarray], list[pg.InfiniteLine]]] = [
            (view.plot, view.event_x, []),
            (site.plot, lambda e: e.astype(np.float64), []),
        ]
        for plot, _x, lines in self._plots:
            for k in range(2):
                line = pg.InfiniteLine(
                    angle=90,
                    movable=False,
                    pen=pg.mkPen(MARK_COLOUR, width=2, style=QtCore.Qt.PenStyle.DashLine),
                    label=QtCore.QCoreApplication.translate("SpanMarks", "mark {0}").format(k + 1),
                    labelOpts={"position": 0.95, "color": MARK_COLOUR, "fill": (255, 255, 255, 200)},
                )
                line.setZValue(8)  # over the bands and the span's region
                line.setVisible(False)
                plot.addItem(line, ignoreBounds=True)
                lines.append(line)
        view.more_actions.append(lambda x: self.actions_at(view.event_at(x)))
        site.view_box.context_requested.connect(self._site_menu)
        tab.axis_box.currentIndexChanged.connect(lambda _i: self._draw())
        language.notifier().changed.connect(self._redraw)  # the marks' names in the window's language
        self._keys_of: QtCore.QObject | None = None
        if isinstance(tab, QtWidgets.QWidget):
            self._keys_of = tab
            tab.installEventFilter(self)  # the keys the tab's children leave unused reach it, as Home and End do

    # -- what the user does -------------------------------------------------------------------------------------

    def set_mark(self, event: int | None = None) -> None:
        """A mark at `event` (None: the cursor); the second one makes the span between the two, in either order."""
        if not self._usable():
            return
        event = self.tab.current_event if event is None else event
        if len(self.marks) != 1:
            self.marks = [event]
        elif event != self.marks[0]:
            self.marks.append(event)
        self._draw()
        if len(self.marks) == 2:
            self.choose(min(self.marks), max(self.marks))

    def span_to(self, event: int | None = None) -> None:
        """The span from the (first) mark to `event` (None: the cursor); with no mark, the mark is set there."""
        if not self._usable():
            return
        event = self.tab.current_event if event is None else event
        if not self.marks:
            self.set_mark(event)
            return
        self.marks = [self.marks[0]]
        self.set_mark(event)

    def clear(self) -> None:
        """No marks, and the whole trace again."""
        self.marks = []
        self._draw()
        if not self.document.pending and self.document.span is not None:
            self.clear_span()

    def actions_at(self, event: int) -> list[tuple[str, Callable[[], None]]]:
        """A right click's actions at `event`."""
        if not self._usable():
            return []
        n = self.document.n_events
        event = min(max(event, -1), n - 1)
        translate = QtCore.QCoreApplication.translate
        actions: list[tuple[str, Callable[[], None]]] = [
            (translate("SpanMarks", "Set mark here"), functools.partial(self.set_mark, event))
        ]
        if self.marks:
            actions.append((translate("SpanMarks", "Span from mark to here"), functools.partial(self.span_to, event)))
        if self.marks or self.document.span is not None:
            actions.append((translate("SpanMarks", "Clear marks and span"), self.clear))
        return actions

    def eventFilter(self, watched: QtCore.QObject, event: QtCore.QEvent) -> bool:
        if watched is self._keys_of and event.type() == QtCore.QEvent.Type.KeyPress:
            assert isinstance(event, QtGui.QKeyEvent)
            key, mods = event.key(), event.modifiers() & ~QtCore.Qt.KeyboardModifier.KeypadModifier
            if key == QtCore.Qt.Key.Key_M and mods == QtCore.Qt.KeyboardModifier.NoModifier:
                self.set_mark()
                return True
            if key == QtCore.Qt.Key.Key_M and mods == QtCore.Qt.KeyboardModifier.ShiftModifier:
                self.span_to()
                return True
            if key == QtCore.Qt.Key.Key_Escape and (self.marks or self.document.span is not None):
                self.clear()
                return True
        return False

    # -- drawing ------------------------------------------------------------------------------------------------

    def sync(self) -> None:
        """Another device or snapshot shown (its marks would point at another trace's events), or another span
        chosen than the marks made: the marks go."""
        doc = self.document
        key = None if doc.pending else (doc.device, doc.timeline())
        made = len(self.marks) < 2 or (
            doc.span is not None and (doc.span.start, doc.span.end) == (min(self.marks), max(self.marks))
        )
        if key != self._for or not made:
            self._for = key
            self.marks = []
            self._draw()

    def _redraw(self, _lang: str) -> None:
        if isinstance(self.tab, QtCore.QObject) and not shiboken6.isValid(self.tab):
            # a closed tab's marks can outlive its widgets until the collector comes: nothing left to draw on
            language.notifier().changed.disconnect(self._redraw)
            return
        self._draw()

    def _usable(self) -> bool:
        return not self.document.pending and self.document.has_trace()

    def _draw(self) -> None:
        for _plot, x_of, lines in self._plots:
            for k, line in enumerate(lines):
                shown = k < len(self.marks)
                line.setVisible(shown)
                name = QtCore.QCoreApplication.translate("SpanMarks", "mark {0}").format(k + 1)
                line.label.format = name  # setFormat alone redraws only a label on screen now: a hidden tab's too
                line.label.setText(name)
                if shown:
                    event = self.marks[k]
                    x = float(x_of(np.array([max(event, 0)]))[0])
                    # the earlier mark's name left of its line, the later one's right of it: two marks close
                    # together keep their names apart
                    left = len(self.marks) == 2 and event == min(self.marks) and self.marks[0] != self.marks[1]
                    line.label.anchors = [(1.0, 0.0), (1.0, 0.0)] if left else [(0.0, 0.0), (0.0, 0.0)]
                    line.setValue(x if event >= 0 else x - 0.5)  # before the first event: where a span would begin
                    line.label.updatePosition()

    def _site_menu(self, x: float, at: QtCore.QPoint) -> None:
        menu = QtWidgets.QMenu(self.tab.site_timeline)
        for text, act in self.actions_at(round(x)):
            menu.addAction(text, act)
        if not menu.isEmpty():
            menu.popup(at)


def add_marks_menu(menu: QtWidgets.QMenu, current: Callable[[], SpanMarks | None]) -> Callable[[], None]:
    """View > Span Marks: the current tab's marks from the window's menu (the keys named are the tab's own: the
    text after a tab character is shown as a shortcut, none is registered that would take M from a text field).
    Returns what sets the menu's texts in the window's language (called now, and again on a switch)."""
    translate = QtCore.QCoreApplication.translate

    def on_marks(act: Callable[[SpanMarks], None]) -> None:
        marks = current()
        if marks is not None:
            act(marks)

    marks_menu = menu.addMenu("")
    set_mark = marks_menu.addAction("", lambda: on_marks(SpanMarks.set_mark))
    span_to = marks_menu.addAction("", lambda: on_marks(SpanMarks.span_to))
    clear = marks_menu.addAction("", lambda: on_marks(SpanMarks.clear))

    def retranslate() -> None:
        marks_menu.setTitle(translate("SpanMarks", "Span Mar&ks"))
        set_mark.setText(translate("SpanMarks", "Set Mark at Cursor\tM"))
        span_to.setText(translate("SpanMarks", "Span From Mark to Cursor\tShift+M"))
        clear.setText(translate("SpanMarks", "Clear Marks and Span\tEsc"))

    retranslate()
    return retranslate
