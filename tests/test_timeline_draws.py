"""A file's timeline is drawn at its final width once as the file opens: the event list's pane is laid out with it,
not two turns later (which drew and painted the curves at two widths more, in turns that stall the window)."""

from __future__ import annotations

import pytest
from pytestqt.qtbot import QtBot

from gpumem_gui.app import MainWindow
from gpumem_gui.qt_start import throwaway_settings
from gpumem_gui.views.snapshot.timeline import TimelineView
from tests.conftest import fixture_path


def test_the_curves_are_drawn_once_at_their_final_width(qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    columns: list[int] = []  # the columns of each draw that drew (a draw of the same range and width does nothing)
    draw = TimelineView._draw_curves

    def counted(view: TimelineView) -> None:
        before = view._drawn
        draw(view)
        if view._drawn != before:
            columns.append(view._drawn[2])

    monkeypatch.setattr(TimelineView, "_draw_curves", counted)
    with throwaway_settings() as kept:
        window = MainWindow(kept)
        qtbot.addWidget(window)
        window.resize(1400, 900)
        window.show()
        window.open_files([str(fixture_path("cranberrii_memory_snapshot.pickle"))])
        window.wait_for_loads(60_000)
        tab = window.current_document()
        assert tab is not None
        qtbot.waitUntil(lambda: not tab.pending and not tab.settling() and tab.event_list.isVisible(), timeout=30_000)
        qtbot.wait(200)  # the relayouts and timers the last steps posted
        final = int(tab.timeline_view.plot.getViewBox().width()) // 2
        # the first draw comes before the plot has a size (its least columns); after it, one draw, at the final width
        assert columns[-1] == final
        assert len(columns) <= 2, columns
