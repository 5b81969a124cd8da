"""A tab's staged steps each run in a turn of the event loop of their own, apart from the paint the step before
posted: a step and that paint in one turn made one stall of both (twice as long on cores shared with other work)."""

from __future__ import annotations

import time
from typing import Any

from conftest import fixture_path
from PySide6 import QtCore, QtWidgets

from gpumem_gui.core import load_snapshot
from gpumem_gui.views.common.paint_pass import OnePaintWindow
from gpumem_gui.views.snapshot.tab import SnapshotTab


class _PaintCounter(QtCore.QObject):
    def __init__(self, log: list[str]) -> None:
        super().__init__()
        self.log = log

    def eventFilter(self, watched: QtCore.QObject, event: QtCore.QEvent) -> bool:
        if event.type() == QtCore.QEvent.Type.Paint:
            self.log.append("paint")
        return False


def test_the_next_step_waits_for_a_turn_after_the_paint_the_step_before_posted(qtbot: Any) -> None:
    window = OnePaintWindow()  # as the main window: its paints gathered into one a pass, after the pass's events
    tab = SnapshotTab(load_snapshot(fixture_path("felix_dump_a.pickle")))
    window.setCentralWidget(tab)
    qtbot.addWidget(window)
    window.resize(800, 600)
    window.show()
    qtbot.waitExposed(window)
    qtbot.waitUntil(lambda: not tab.settling())
    label = QtWidgets.QLabel("x", tab)
    label.show()
    log: list[str] = []
    counter = _PaintCounter(log)
    label.installEventFilter(counter)
    qtbot.wait(20)  # the label's first paint done
    log.clear()

    def step(name: str) -> None:
        log.append(name)
        label.setText(name)  # a paint posted, as a part made or a frame shown posts one

    for name in ("a", "b", "c"):
        tab.later(lambda name=name: step(name))
    turns: list[list[str]] = []
    deadline = time.monotonic() + 5
    while (tab.settling() or not turns or "paint" not in turns[-1]) and time.monotonic() < deadline:
        time.sleep(0.003)  # the step timer due
        QtWidgets.QApplication.processEvents()  # one turn: posted events (the paint), then the timers due
        if log:
            turns.append(list(log))
            log.clear()
    ran = [name for turn in turns for name in turn if name != "paint"]
    assert ran == ["a", "b", "c"]
    for turn in turns:
        assert not ("paint" in turn and any(name in turn for name in "bc")), turns  # b, c: apart from a, b's paint
    assert sum(turn.count("paint") for turn in turns) >= 3  # each step's paint came
