"""PartialCurvesView: reserved and allocated memory over the trace events read so far, drawn under a tab's map while
the loading worker still reads the trace; the whole timeline's curves replace it."""

from __future__ import annotations

import weakref
from collections.abc import Callable

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtWidgets

from gpumem_gui.core.analysis.running_curves import PartialCurves
from gpumem_gui.document.curves import memory_unit
from gpumem_gui.views.common import palette
from gpumem_gui.views.common.language import num
from gpumem_gui.views.snapshot.light_plot import light_plot

MIN_HEIGHT = 160


class PartialCurvesView(QtWidgets.QWidget):
    """The curves so far: each column's lowest and highest value since the trace's first event."""

    def __init__(self) -> None:
        super().__init__()
        self.title = QtWidgets.QLabel()
        self.plot = light_plot()  # a picture while the trace is read: nothing to set, no menus
        self.plot.setMouseEnabled(x=False, y=False)
        self.plot.hideButtons()
        self.plot.setMinimumHeight(MIN_HEIGHT)
        self.curves = {
            # one-pixel pens: Qt strokes a wider line of thousands of points several times slower
            key: pg.PlotCurveItem(pen=pg.mkPen(palette.CURVES[key], width=1))
            for key in ("reserved", "allocated")
        }
        for curve in self.curves.values():
            self.plot.addItem(curve)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(4, 0, 4, 0)
        layout.addWidget(self.title)
        layout.addWidget(self.plot)
        self.n_events = 0

    def show_curves(self, curves: PartialCurves) -> None:
        """Draw `curves` (a later call brings more of the trace)."""
        self.n_events = curves.n_events
        peak = max(int(curves.reserved_high.max(initial=0)), int(curves.allocated_high.max(initial=0)))
        unit, scale = memory_unit(peak)
        ends = np.append(curves.starts[1:], curves.n_events).astype(np.float64)
        for key, low, high in (
            ("reserved", curves.reserved_low, curves.reserved_high),
            ("allocated", curves.allocated_low, curves.allocated_high),
        ):
            xs = np.empty(2 * len(low), np.float64)
            ys = np.empty(2 * len(low), np.float64)
            xs[0::2], xs[1::2] = curves.starts, ends  # each column's low where it starts, its high where it ends
            ys[0::2], ys[1::2] = low / scale, high / scale
            self.curves[key].setData(xs, ys)
        self.plot.setLabel("left", QtCore.QCoreApplication.translate("PartialCurvesView", "change ({0})").format(unit))
        self.title.setText(
            QtCore.QCoreApplication.translate(
                "PartialCurvesView",
                "Reading the trace: reserved and allocated memory over the first {0} events, as the change since "
                "the first event (what was held before it is known once the whole trace is read)",
            ).format(num(curves.n_events))
        )


# the tabs whose view of the curves so far is being made (see show_partial), each with the latest curves to draw
_coming: weakref.WeakKeyDictionary[QtWidgets.QWidget, tuple[int, PartialCurves]] = weakref.WeakKeyDictionary()


def show_partial(tab: QtWidgets.QWidget | None, device: int, curves: PartialCurves) -> None:
    """Draw the curves so far under `tab`'s map (a SnapshotTab still reading its trace on `device`); nothing once the
    trace is read, or for another device than the one shown. The first time, the view is made in a later turn of the
    event loop and placed (drawing the latest curves) in the one after: its plot costs some 30 ms to make, which in
    the turn that shows the tab, or with the tab's relayout, made a stall."""
    document = getattr(tab, "document", None)
    reading = getattr(tab, "reading", None)
    if tab is None or document is None or not document.pending or document.device != device or reading is None:
        return
    view = tab.findChild(PartialCurvesView)
    if view is not None:
        view.show_curves(curves)
        return
    staged = tab in _coming
    _coming[tab] = (device, curves)
    if not staged:
        _later(tab, lambda: _make(tab))


def _later(tab: QtWidgets.QWidget, step: Callable[[], None]) -> None:
    """`step` in a turn of its own: among the tab's own staged steps where it has them (SnapshotTab.later)."""
    later = getattr(tab, "later", None)
    if callable(later):
        later(step)
    else:
        QtCore.QTimer.singleShot(1, tab, step)


def _make(tab: QtWidgets.QWidget) -> None:
    if tab not in _coming:
        return  # dropped meanwhile: the whole curves are there
    view = PartialCurvesView()
    _later(tab, lambda: _place(tab, view))


def _place(tab: QtWidgets.QWidget, view: PartialCurvesView) -> None:
    sized = getattr(tab, "curves_sized", None)
    if callable(sized) and not sized() and tab in _coming:
        _later(tab, lambda: _place(tab, view))  # after the parts that set the height it is placed at
        return
    arrived = _coming.pop(tab, None)
    reading = getattr(tab, "reading", None)
    splitter = reading.parentWidget() if isinstance(reading, QtWidgets.QWidget) else None
    if arrived is None or reading is None or not isinstance(splitter, QtWidgets.QSplitter):
        view.deleteLater()
        return
    if tab.findChild(PartialCurvesView) is not None:
        view.deleteLater()
        show_partial(tab, *arrived)  # one placed meanwhile draws them
        return
    under_map = getattr(tab, "under_map", None)
    if callable(under_map):
        under_map(view)  # where the tab's curves will be, at their height: the map keeps its size when they come
    else:
        splitter.insertWidget(splitter.indexOf(reading) + 1, view)
    show_partial(tab, *arrived)  # still pending, on the device shown: drawn


def stop_partial(tab: QtWidgets.QWidget | None) -> None:
    """The whole timeline has arrived: a view of the curves so far being made is not placed; one placed stays until
    the tab shows the whole curves in its place (drop_partial)."""
    if tab is not None:
        _coming.pop(tab, None)


def drop_partial(tab: QtWidgets.QWidget | None) -> None:
    """The curves so far go (the whole curves take their place), and a view of them being made is not placed."""
    stop_partial(tab)
    view = tab.findChild(PartialCurvesView) if tab is not None else None
    if view is not None:
        view.hide()
        view.setParent(None)
        view.deleteLater()
