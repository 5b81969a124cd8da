"""Two marks make a span (pytest-qt, the bundled training_leak example): marks at events I and J, set with the M key
in either order, give the same span as a shift-drag from I to J and as `explain FILE --span I:J --json` (the same
figures, what it left behind), the map lights the blocks the raw trace says were left behind, and Escape clears."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest
from PySide6 import QtCore, QtWidgets

from gpumem_gui.app import MainWindow
from gpumem_gui.assets import example_path
from gpumem_gui.cli import main
from gpumem_gui.core.analysis.span import Span
from gpumem_gui.views.snapshot.span_marks import SpanMarks
from gpumem_gui.views.snapshot.tab import SnapshotTab
from tests.conftest import load_raw
from tests.test_tab_scope import leak_tab

Key = QtCore.Qt.Key


@pytest.fixture
def tab(qtbot: Any) -> SnapshotTab:
    return leak_tab(qtbot)


def _marks(tab: SnapshotTab) -> SpanMarks:
    assert tab.scope is not None
    return tab.scope.marks


def _cli_span(capsys: pytest.CaptureFixture[str], arg: str) -> dict[str, Any]:
    code = main(["explain", str(example_path("training_leak")), "--span", arg, "--json"])
    out = capsys.readouterr().out
    assert code == 0
    document: dict[str, Any] = json.loads(out)
    return document


def _left_behind_by_hand(start: int, end: int) -> list[int]:
    """The addresses of the blocks allocated right after events start+1..end and not freed by end, walking the raw
    trace."""
    raw = load_raw(example_path("training_leak"))["device_traces"][0]
    alive: dict[int, int] = {}  # addr -> the event that allocated it
    for i, e in enumerate(raw[: end + 1]):
        if e["action"] == "alloc":
            alive[e["addr"]] = i
        elif e["action"] in ("free_requested", "free_completed"):
            alive.pop(e["addr"], None)
    return sorted(addr for addr, at in alive.items() if at > start)


def _scoped(qtbot: Any, tab: SnapshotTab, span: Span) -> tuple[dict[str, Any], list[int]]:
    """The span page's report (as JSON) and the addresses the map lights, once the tab is scoped to `span`."""
    assert tab.scope is not None
    panel = tab.scope.span_panel
    assert tab.document.span == span
    qtbot.waitUntil(lambda: panel.report is not None and panel.report.span == span, timeout=10_000)
    qtbot.waitUntil(lambda: tab.frame.spotlight is not None, timeout=10_000)
    assert panel.report is not None and tab.frame.spotlight is not None
    assert tab.current_event == span.end
    assert tab.event_list.indices.tolist() == list(range(span.start + 1, span.end + 1))
    lit = sorted(int(a) for a in tab.frame.state.blocks.address[tab.frame.spotlight.mask])
    return panel.report.as_json(), lit


def _mark_at(qtbot: Any, tab: SnapshotTab, event: int, key: Key = Key.Key_M, shift: bool = False) -> None:
    tab.travel_to(event)
    tab.timeline_view.set_event(event, emit=False)
    mods = QtCore.Qt.KeyboardModifier.ShiftModifier if shift else QtCore.Qt.KeyboardModifier.NoModifier
    # pressed on the curves' plot: unused there, the key reaches the tab as Home and End do
    qtbot.keyClick(tab.timeline_view.plot, key, mods)


def test_two_marks_make_the_span_a_shift_drag_and_the_command_line_make(
    qtbot: Any, tab: SnapshotTab, capsys: pytest.CaptureFixture[str]
) -> None:
    step = _cli_span(capsys, "step:4")["span"]  # a step that leaves its hidden state behind
    i, j = step["start"] + 5, step["end"]  # not a listed span: made by the marks alone
    marks = _marks(tab)
    _mark_at(qtbot, tab, i)
    assert marks.marks == [i] and tab.document.span is None  # one mark: no span yet, the mark drawn
    curves_line, site_line = marks._plots[0][2][0], marks._plots[1][2][0]
    assert curves_line.isVisible() and site_line.isVisible()
    assert curves_line.value() == pytest.approx(i) and site_line.value() == pytest.approx(i)
    _mark_at(qtbot, tab, j)
    by_marks, lit = _scoped(qtbot, tab, Span(i, j))
    assert [line.value() for line in (marks._plots[0][2][1], marks._plots[1][2][1])] == pytest.approx([j, j])

    cli = {k: v for k, v in _cli_span(capsys, f"{i}:{j}").items() if k not in ("file", "schema_version")}
    assert by_marks == cli  # the same figures, the same blocks left behind, the same peak
    assert cli["left_behind"]["bytes"] > 0
    assert lit == _left_behind_by_hand(i, j)
    assert len(lit) == cli["left_behind"]["blocks"]

    qtbot.keyClick(tab.timeline_view.plot, Key.Key_Escape)  # cleared: no marks, the whole trace
    assert marks.marks == [] and tab.document.span is None and tab.frame.spotlight is None  # the light goes too
    assert not any(line.isVisible() for _p, _x, lines in marks._plots for line in lines)

    _mark_at(qtbot, tab, j)  # the other order: the same span
    _mark_at(qtbot, tab, i)
    assert _scoped(qtbot, tab, Span(i, j)) == (by_marks, lit)

    tab.scope.choose(None) if tab.scope else None
    box = tab.timeline_view.plot.getViewBox()  # a shift-drag from I to J: the same again
    box.span_dragged.emit(float(i), float(j), True)
    assert _scoped(qtbot, tab, Span(i, j)) == (by_marks, lit)
    assert marks.marks == []  # a span the marks did not make: they are gone


def test_span_from_the_mark_to_the_cursor_and_the_right_click(qtbot: Any, tab: SnapshotTab) -> None:
    marks = _marks(tab)
    n = tab.document.n_events
    a, b, c = n // 5, n // 3, n // 2
    _mark_at(qtbot, tab, b)
    _mark_at(qtbot, tab, c, shift=True)  # Shift+M: from the mark to the cursor
    assert tab.document.span == Span(b, c)
    _mark_at(qtbot, tab, a, shift=True)  # again from the first mark, to a cursor before it
    assert tab.document.span == Span(a, b) and sorted(marks.marks) == [a, b]
    # a right click offers the same at the event under it
    texts = [text for text, _act in marks.actions_at(c)]
    assert texts == ["Set mark here", "Span from mark to here", "Clear marks and span"]
    dict(marks.actions_at(c))["Span from mark to here"]()
    assert tab.document.span == Span(b, c)
    more = tab.timeline_view.more_actions
    assert [t for t, _ in more[0](float(c))] == texts
    # Escape on the site timeline clears too
    tab.activateWindow()  # shortcuts are those of an active window
    qtbot.waitUntil(lambda: QtWidgets.QApplication.activeWindow() is tab.window(), timeout=5_000)
    tab.site_timeline.plot.setFocus()
    qtbot.keyClick(tab.site_timeline.plot, Key.Key_Escape)
    assert tab.document.span is None and marks.marks == []
    marks.span_to(c)  # no mark yet: the mark is set
    assert marks.marks == [c] and tab.document.span is None
    dict(marks.actions_at(c))["Clear marks and span"]()
    assert tab.document.span is None and marks.marks == []
    assert [t for t, _ in marks.actions_at(c)] == ["Set mark here"]
    # a mark twice at one event makes no empty span
    _mark_at(qtbot, tab, a)
    _mark_at(qtbot, tab, a)
    assert marks.marks == [a] and tab.document.span is None
    assert np.count_nonzero([line.isVisible() for line in marks._plots[1][2]]) == 1


def test_the_view_menu_s_span_marks(qtbot: Any) -> None:
    window = MainWindow()
    qtbot.addWidget(window)
    window.open_files([str(example_path("training_leak"))])
    window.wait_for_loads()
    tab = window.current_document()
    assert tab is not None
    qtbot.waitUntil(lambda: not tab.settling() and tab.scope is not None, timeout=20_000)
    view_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&View")
    marks_menu = next(a.menu() for a in view_menu.actions() if a.text() == "Span Mar&ks")
    actions = {a.text().split("\t")[0]: a for a in marks_menu.actions()}
    assert [a.text().split("\t")[1] for a in marks_menu.actions()] == ["M", "Shift+M", "Esc"]  # the tab's keys
    tab.travel_to(100)
    actions["Set Mark at Cursor"].trigger()
    tab.travel_to(300)
    actions["Span From Mark to Cursor"].trigger()
    assert tab.document.span == Span(100, 300)
    actions["Clear Marks and Span"].trigger()
    assert tab.document.span is None and _marks(tab).marks == []
