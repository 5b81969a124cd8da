"""PartialCurvesView: reserved and allocated memory over the trace events read so far, drawn under a tab's map while
the loading worker still reads the trace; the whole timeline's curves replace it."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtWidgets

from gpumem_gui.core.analysis.running_curves import PartialCurves
from gpumem_gui.document.curves import memory_unit
from gpumem_gui.views.common import palette
from gpumem_gui.views.common.language import num

MIN_HEIGHT = 160


class PartialCurvesView(QtWidgets.QWidget):
    """The curves so far: each column's lowest and highest value since the trace's first event."""

    def __init__(self) -> None:
        super().__init__()
        self.title = QtWidgets.QLabel()
        self.plot = pg.PlotWidget(enableMenu=False)  # a picture while the trace is read: nothing to set
        self.plot.setMouseEnabled(x=False, y=False)
        self.plot.hideButtons()
        self.plot.setMinimumHeight(MIN_HEIGHT)
        self.curves = {
            # one-pixel pens: Qt strokes a wider line of thousands of points several times slower
            key: self.plot.plot([], [], pen=pg.mkPen(palette.CURVES[key], width=1))
            for key in ("reserved", "allocated")
        }
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


def show_partial(tab: QtWidgets.QWidget | None, device: int, curves: PartialCurves) -> None:
    """Draw the curves so far under `tab`'s map (a SnapshotTab still reading its trace on `device`), made the first
    time; nothing once the trace is read, or for another device than the one shown."""
    document = getattr(tab, "document", None)
    reading = getattr(tab, "reading", None)
    if tab is None or document is None or not document.pending or document.device != device or reading is None:
        return
    view = tab.findChild(PartialCurvesView)
    if view is None:
        splitter = reading.parentWidget()
        if not isinstance(splitter, QtWidgets.QSplitter):
            return
        view = PartialCurvesView()
        splitter.insertWidget(splitter.indexOf(reading) + 1, view)
    view.show_curves(curves)


def drop_partial(tab: QtWidgets.QWidget | None) -> None:
    """The whole timeline has arrived: the curves so far go (before the tab places the whole curves)."""
    view = tab.findChild(PartialCurvesView) if tab is not None else None
    if view is not None:
        view.hide()
        view.setParent(None)
        view.deleteLater()
