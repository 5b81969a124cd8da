"""Opening a file shows it in stages: the map of the final state (a snapshot without its trace, a notice where the
timeline will be), then the timeline of the whole snapshot, then the event list; the final document holds every
trace event of the file (counted from the raw pickle)."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

import pytest
from conftest import fixture_path
from pytestqt.qtbot import QtBot

from gpumem_gui.app import MainWindow
from gpumem_gui.core.allocator.synthetic import synthetic_snapshot
from gpumem_gui.qt_start import throwaway_settings
from gpumem_gui.views.snapshot.curves_panel import CurvesPanel
from gpumem_gui.views.snapshot.tab import SnapshotTab
from gpumem_gui.views.snapshot.tab_support import READING_TRACE
from tests.test_load_stalls import opened_window


def _open_in_stages(qtbot: QtBot, monkeypatch: pytest.MonkeyPatch, path: Path) -> tuple[SnapshotTab, list[Any]]:
    """Open `path` and record each stage as it reaches the window, with what the tab showed then."""
    stages: list[Any] = []
    arrived, timelines_arrived = MainWindow._snapshot_arrived, SnapshotTab._timelines_arrived
    set_table = CurvesPanel._events_listed

    def on_state(window: MainWindow, *args: Any, **kwargs: Any) -> None:
        arrived(window, *args, **kwargs)
        doc = window.current_document()
        assert doc is not None
        image = doc.grab()  # the state-only snapshot draws: the map, and the notice where the timeline will be
        stages.append(("map", doc.pending, doc.snapshot.has_traces, doc.reading.isVisibleTo(doc), image.isNull()))

    def on_timelines(doc: SnapshotTab, *args: Any) -> None:
        timelines_arrived(doc, *args)
        stages.append(("timeline", doc.pending, doc.snapshot.has_traces, doc.event_list.model.row_count()))

    def on_events(curves: CurvesPanel, *args: Any) -> None:
        set_table(curves, *args)
        stages.append(("event list", curves.event_list.model.row_count()))

    monkeypatch.setattr(MainWindow, "_snapshot_arrived", on_state)
    monkeypatch.setattr(SnapshotTab, "_timelines_arrived", on_timelines)
    monkeypatch.setattr(CurvesPanel, "_events_listed", on_events)
    with throwaway_settings() as settings:
        window, doc = opened_window(qtbot, path, settings)
        qtbot.waitUntil(lambda: not doc.tasks.tasks, timeout=30_000)
        doc.curve_tabs.setCurrentWidget(doc.site_timeline)  # its bands are computed once looked at
        qtbot.waitUntil(doc.site_timeline.is_ready, timeout=30_000)
        doc.grab()
        window.shutdown()
    return doc, stages


def _raw_counts(path: Path) -> tuple[int, list[int]]:
    with path.open("rb") as f:
        raw = pickle.load(f)  # the oracle: the file as PyTorch wrote it, read by the standard unpickler
    return len(raw["segments"]), [len(t) for t in raw.get("device_traces", [])]


def _check_whole(doc: SnapshotTab, path: Path) -> None:
    segments, traces = _raw_counts(path)
    assert len(doc.snapshot.state.segments) == segments
    assert [len(doc.snapshot.trace(d)) for d in range(len(traces))] == traces
    assert doc.timeline(doc.device).n_events == traces[doc.device]


def test_a_real_file_arrives_state_first_then_its_whole_trace(qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    path = fixture_path("constructor_memory_snapshot.pickle")
    doc, stages = _open_in_stages(qtbot, monkeypatch, path)
    # the map came first, pending, from a snapshot without its trace, with the notice in the timeline's place
    assert stages[0] == ("map", True, False, True, False)
    assert stages[1][:3] == ("timeline", False, True)
    assert doc.reading.isHidden() and doc.reading.text() == READING_TRACE
    _check_whole(doc, path)


def test_a_long_trace_lists_its_events_after_the_timeline(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "long.pickle"
    path.write_bytes(pickle.dumps(synthetic_snapshot(200_000, seed=3, streams=2), protocol=4))
    doc, stages = _open_in_stages(qtbot, monkeypatch, path)
    assert [s[0] for s in stages] == ["map", "timeline", "event list"]
    assert stages[0][1:] == (True, False, True, False)
    # the timeline showed before the list had a row: the list of 200,000 events was made in a task
    assert stages[1][1:] == (False, True, 0)
    _, traces = _raw_counts(path)
    assert stages[2] == ("event list", traces[doc.device])
    assert doc.event_list.count.text() == f"{traces[doc.device]:,} of {traces[doc.device]:,} events"
    _check_whole(doc, path)
