"""The Explain panel on the bundled fragmented OOM: the figures of the raw pickle, the remedies' table and its
actions, the moment's link, and the job that stops between replays when cancelled."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from PySide6 import QtCore, QtGui

from gpumem_gui.assets import example_path
from gpumem_gui.core import load_snapshot
from gpumem_gui.core.allocator import remedies
from gpumem_gui.core.analysis.timetravel import build_timeline
from gpumem_gui.core.snapshot.units import format_bytes
from gpumem_gui.views.diagnosis.explain_panel import ExplainPanel, explain_job
from tests.conftest import load_raw


@pytest.fixture(scope="module")
def fragmented() -> Any:
    snapshot = load_snapshot(example_path("fragmented_oom"))
    return explain_job(snapshot, None, None, build_timeline(snapshot, 0))


def _raw_oom() -> tuple[int, int, int]:
    """The OOM's event, its request and the largest hole of its pool and stream, read from the pickle itself."""
    raw = load_raw(example_path("fragmented_oom"))
    trace = raw["device_traces"][0]
    event = next(i for i, e in enumerate(trace) if e["action"] == "oom")
    stream = trace[event]["stream"]
    holes = [
        b["size"]
        for s in raw["segments"]
        if s["segment_type"] == "large" and s["stream"] == stream
        for b in s["blocks"]
        if b["state"] == "inactive"
    ]
    return event, trace[event]["size"], max(holes)  # the OOM is the last event: the segments are the state after it


def _panel(qtbot: Any, explanation: Any) -> ExplainPanel:
    panel = ExplainPanel()
    qtbot.addWidget(panel)
    panel.resize(620, 900)
    panel.show()
    qtbot.waitExposed(panel)
    panel.show_explanation(explanation)
    return panel


def _anchor_cursor(panel: ExplainPanel, href: str) -> QtGui.QTextCursor:
    doc = panel.text.document()
    block = doc.begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            if fragment.charFormat().anchorHref() == href:
                cursor = QtGui.QTextCursor(doc)
                cursor.setPosition(fragment.position() + 1)
                return cursor
            it += 1
        block = block.next()
    raise AssertionError(f"no link {href}")


def _click(qtbot: Any, panel: ExplainPanel, href: str) -> None:
    """A real mouse click on the link's text, scrolled into view first."""
    cursor = _anchor_cursor(panel, href)
    panel.text.setTextCursor(cursor)
    panel.text.ensureCursorVisible()
    point = panel.text.cursorRect(cursor).center()
    qtbot.mouseClick(panel.text.viewport(), QtCore.Qt.MouseButton.LeftButton, pos=point)


def _row_texts(panel: ExplainPanel, href: str) -> list[str]:
    """The cells of the table row holding the link."""
    cursor = _anchor_cursor(panel, href)
    table = cursor.currentTable()
    assert table is not None
    row = table.cellAt(cursor).row()
    out = []
    for col in range(table.columns()):
        cell = table.cellAt(row, col)
        c = cell.firstCursorPosition()
        c.setPosition(cell.lastCursorPosition().position(), QtGui.QTextCursor.MoveMode.KeepAnchor)
        out.append(c.selectedText())
    return out


def test_the_panel_names_the_request_and_the_largest_hole_of_the_pickle(qtbot: Any, fragmented: Any) -> None:
    panel = _panel(qtbot, fragmented)
    event, request, hole = _raw_oom()
    text = panel.text_content()
    assert f"OOM at event {event}" in text
    assert f"{request:,} bytes" in text and f"{hole:,} bytes" in text
    assert "replay of the recorded allocations" in text  # the remedies are replays, said so


def test_expandable_segments_fits_and_its_action_opens_the_comparison_at_the_oom(qtbot: Any, fragmented: Any) -> None:
    panel = _panel(qtbot, fragmented)
    event, _request, _hole = _raw_oom()
    rows = {k: _row_texts(panel, f"remedy:{k}") for k in range(len(fragmented.remedies))}  # every row has "Show"
    chosen = [k for k, cells in rows.items() if cells[0] == "expandable_segments:True"]
    assert len(chosen) == 1
    assert rows[chosen[0]][2] == "yes" and rows[chosen[0]][3] == "0"
    with qtbot.waitSignal(panel.remedy_chosen, timeout=2000) as signal:
        _click(qtbot, panel, f"remedy:{chosen[0]}")
    assert signal.args == [fragmented, chosen[0], event]


def test_each_program_remedy_shows_what_it_frees_and_its_assumption_on_hover(qtbot: Any, fragmented: Any) -> None:
    panel = _panel(qtbot, fragmented)
    program = [k for k, r in enumerate(fragmented.remedies) if r.kind == "program"]
    assert len(program) >= 3
    for k in program:
        r = fragmented.remedies[k]
        cells = _row_texts(panel, f"remedy:{k}")
        assert cells[0] == r.change and cells[-1] == "Show"
        if r.frees_bytes is not None:
            assert cells[1] == format_bytes(r.frees_bytes)
        cursor = _anchor_cursor(panel, f"remedy:{k}")
        assert cursor.charFormat().toolTip() == r.assumes  # the changed trace's assumption, on hover


def test_clicking_the_moment_travels_there(qtbot: Any, fragmented: Any) -> None:
    panel = _panel(qtbot, fragmented)
    event, _request, _hole = _raw_oom()
    with qtbot.waitSignal(panel.travel_requested, timeout=2000) as signal:
        _click(qtbot, panel, f"event:{event}")
    assert signal.args == [event]


def test_the_panel_says_it_is_explaining_while_the_job_runs(qtbot: Any) -> None:
    panel = ExplainPanel()
    qtbot.addWidget(panel)
    panel.show_running("the OOM at event 203")
    assert "explaining the OOM at event 203..." in panel.text_content()


class _Stop(Exception):
    pass


def test_a_cancelled_job_stops_between_replays(monkeypatch: pytest.MonkeyPatch) -> None:
    snapshot = load_snapshot(example_path("fragmented_oom"))
    replays: list[Any] = []
    real = remedies.replay_outcome

    def counted(*args: Any, **kwargs: Any) -> Any:
        replays.append(kwargs.get("overrides"))
        return real(*args, **kwargs)

    monkeypatch.setattr(remedies, "replay_outcome", counted)
    checks = []

    def check() -> None:
        checks.append(len(replays))
        if len(replays) >= 2:  # cancelled once two replays are done
            raise _Stop

    with pytest.raises(_Stop):
        explain_job(snapshot, None, None, None, check)
    assert len(replays) == 2 and checks == [0, 1, 2]
    replays.clear()
    found = explain_job(snapshot, None, None, None, None)  # uncancelled: the baseline and every candidate
    # but a change that leaves the recorded trace and settings as they are (empty_cache() where the trace ends at
    # its OOM), whose verdict is the baseline's
    as_recorded = [p for p in found.plans if p.changed is not None and p.changed.trace is snapshot.trace(0)]
    assert len(as_recorded) == 1 and not as_recorded[0].overrides
    assert len(replays) == len(found.remedies) + 1 - len(as_recorded)


def test_without_an_oom_the_moment_is_the_peak_of_allocated(qtbot: Any) -> None:
    trace = load_raw(example_path("training_steady"))["device_traces"][0]
    assert all(e["action"] != "oom" for e in trace)
    # the oracle: the running sum of allocations less completed frees peaks first at this event
    delta = [
        e["size"] if e["action"] == "alloc" else -e["size"] if e["action"] == "free_completed" else 0 for e in trace
    ]
    peak = int(np.argmax(np.cumsum(delta)))
    snapshot = load_snapshot(example_path("training_steady"))
    panel = _panel(qtbot, explain_job(snapshot, None, None, None))
    assert f"peak of allocated at event {peak}" in panel.text_content()
    with qtbot.waitSignal(panel.travel_requested, timeout=2000) as signal:
        _click(qtbot, panel, f"event:{peak}")
    assert signal.args == [peak]
