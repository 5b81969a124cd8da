"""The main window paints once per pass of the event loop: two plots changed in one turn are painted by one paint of
the window (QGraphicsScene has Qt paint the window once per scene that changed, one after the other); a staged step
waits for a turn without one."""

from __future__ import annotations

from typing import Any

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6 import QtCore, QtWidgets

from gpumem_gui.views.common.paint_pass import OnePaintWindow, PaintWait


class _Syncs(QtCore.QObject):
    """Counts the window's update requests that painted something (each a sync of its backing store)."""

    def __init__(self, window: QtWidgets.QMainWindow, viewports: list[QtWidgets.QWidget]) -> None:
        super().__init__()
        self.requests = 0
        self.painted_in: list[int] = []  # for each viewport paint: the request it came in
        window.installEventFilter(self)
        for viewport in viewports:
            viewport.installEventFilter(self)

    def eventFilter(self, watched: QtCore.QObject, event: QtCore.QEvent) -> bool:
        if event.type() == QtCore.QEvent.Type.UpdateRequest:
            self.requests += 1
        elif event.type() == QtCore.QEvent.Type.Paint:
            self.painted_in.append(self.requests)
        return False


def _two_plots(qtbot: Any, window: QtWidgets.QMainWindow) -> tuple[list[pg.PlotCurveItem], _Syncs]:
    central = QtWidgets.QWidget()
    layout = QtWidgets.QVBoxLayout(central)
    plots = [pg.PlotWidget(), pg.PlotWidget()]
    curves = []
    for plot in plots:
        layout.addWidget(plot)
        curves.append(plot.plot(np.arange(10.0), np.arange(10.0)))
    window.setCentralWidget(central)
    qtbot.addWidget(window)
    window.resize(400, 400)
    window.show()
    qtbot.waitExposed(window)
    qtbot.wait(100)  # the first paints done
    return curves, _Syncs(window, [plot.viewport() for plot in plots])


def _change_both(qtbot: Any, curves: list[pg.PlotCurveItem], syncs: _Syncs) -> list[int]:
    syncs.painted_in.clear()
    for k, curve in enumerate(curves):
        curve.setData(np.arange(10.0), np.arange(10.0)[::-1] * (k + 2))  # both scenes changed in one turn
    qtbot.waitUntil(lambda: len(syncs.painted_in) >= 2, timeout=5000)
    qtbot.wait(50)
    return syncs.painted_in


def test_two_plots_changed_in_one_turn_are_painted_in_one_paint_of_the_window(qtbot: Any) -> None:
    plain = QtWidgets.QMainWindow()
    curves, syncs = _two_plots(qtbot, plain)
    stock = _change_both(qtbot, curves, syncs)
    if stock[0] == stock[1]:
        pytest.skip("this Qt paints the two scenes' changes in one paint of the window already")
    window = OnePaintWindow()
    curves, syncs = _two_plots(qtbot, window)
    ours = _change_both(qtbot, curves, syncs)
    assert ours[0] == ours[1], (stock, ours)  # the change's first paint of the window painted both plots


def test_work_waits_for_a_turn_without_a_paint_of_its_window(qtbot: Any) -> None:
    window = OnePaintWindow()
    label = QtWidgets.QLabel("a")
    window.setCentralWidget(label)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    qtbot.wait(50)
    wait = PaintWait(label)
    assert wait.wait()  # the first ask waits a turn
    assert not wait.wait()  # nothing painted since: go ahead
    assert wait.wait()  # afresh
    label.setText("b")  # a paint asked for
    QtWidgets.QApplication.processEvents()  # Qt's request taken: the window's own paint posted
    assert window.paint_posted
    assert wait.wait()  # posted: wait
    QtWidgets.QApplication.processEvents()  # painted
    assert not window.paint_posted
    assert wait.wait()  # painted since the last ask: wait a turn more
    assert not wait.wait()
    waits = 0  # a window painted in every turn: the work goes ahead after four turns at most
    while wait.wait():
        waits += 1
        label.setText(label.text() + "x")
        QtWidgets.QApplication.processEvents()
        QtWidgets.QApplication.processEvents()
    assert waits == 4
