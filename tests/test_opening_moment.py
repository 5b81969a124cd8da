"""A file opens at its device's first OOM, else at its peak of allocated memory, not at the end of its trace (issue 26:
after the OOM, or after an empty_cache() that gave back a peak 20x higher), with one line saying so; End shows the
final state. The moment is read from the raw pickle: the first 'oom' action of the device, else the first event at
the highest running sum of allocations less completed frees."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PySide6 import QtCore
from pytestqt.qtbot import QtBot

from gpumem_gui.app import MainWindow
from gpumem_gui.assets import example_path
from gpumem_gui.core import load_snapshot
from gpumem_gui.document import SnapshotDocument
from gpumem_gui.qt_start import throwaway_settings
from gpumem_gui.render import render
from gpumem_gui.views.snapshot.tab import SnapshotTab
from tests.conftest import fixture_path, load_raw


def _raw_moment(path: Path, device: int) -> tuple[str, int, int]:
    """(kind, event, events) of a device, by the raw trace: its first OOM, else the first event at its peak."""
    trace = load_raw(path)["device_traces"][device]
    ooms = [i for i, e in enumerate(trace) if e["action"] == "oom"]
    if ooms:
        return "oom", ooms[0], len(trace)
    sign = {"alloc": 1, "free_completed": -1}
    change = [sign.get(e["action"], 0) * e["size"] for e in trace]
    return "peak", int(np.argmax(np.cumsum(change))), len(trace)  # what was allocated before adds the same to all


def _window(qtbot: QtBot, settings: QtCore.QSettings) -> MainWindow:
    window = MainWindow(settings)
    qtbot.addWidget(window)
    window.resize(1300, 850)
    window.show()
    return window


def _cursor_of(doc: SnapshotTab) -> int:
    return doc.timeline_view.event_at(doc.timeline_view.cursor_line.value())


@contextmanager
def _opened(qtbot: QtBot, path: Path) -> Iterator[tuple[SnapshotTab, str, int, int]]:
    """`path` opened in a window's tab, with its device's moment read from the raw trace."""
    with throwaway_settings() as settings:
        window = _window(qtbot, settings)
        doc = window.add_document(load_snapshot(path), str(path))
        window.wait_for_loads(30_000)
        yield (doc, *_raw_moment(path, doc.device))
        window.shutdown()


def test_a_file_with_an_oom_opens_at_it_with_a_line_and_end_shows_the_final_state(qtbot: QtBot) -> None:
    path = fixture_path("constructor_memory_snapshot.pickle")
    with _opened(qtbot, path) as (doc, kind, oom, n):
        assert doc.device == doc.snapshot.default_device() == 1 and (kind, oom, n) == ("oom", 421, 596)
        assert doc.current_event == oom and _cursor_of(doc) == oom
        assert doc.event_list.view.currentIndex().row() == oom  # every event listed: its row is its index
        assert doc.position.text() == f"after event {oom:,} of {n:,}"
        line = doc.opened_line
        assert line.isVisibleTo(doc)
        end = '<a href="end">End</a> shows the final state.'
        assert line.text() == f"Opened at the OOM (event {oom:,} of {n:,}); {end}"
        qtbot.keyClick(doc, QtCore.Qt.Key.Key_End)
        assert doc.current_event == n - 1 and _cursor_of(doc) == n - 1 and doc.position.text() == "at the snapshot"
        doc.travel_to(10)
        line.linkActivated.emit("end")  # the link in the line does the same
        assert doc.current_event == n - 1


def test_a_file_that_ends_after_empty_cache_opens_at_its_peak(qtbot: QtBot) -> None:
    with _opened(qtbot, example_path("empty_cache_live_tensor")) as (doc, kind, peak, n):
        assert kind == "peak" and peak < n - 1
        series = doc.timeline(doc.device).series
        # the end is after empty_cache(): what the peak held is given back, its reserved 20x less
        assert series.allocated[peak] > 100 * series.allocated[-1] and series.reserved[peak] > 20 * series.reserved[-1]
        assert doc.current_event == peak and _cursor_of(doc) == peak
        assert f"Opened at the peak of allocated memory, 1.5 GiB (event {peak:,} of {n:,})" in doc.opened_line.text()


def test_another_device_opens_at_its_own_moment_and_a_live_document_at_its_end() -> None:
    path = fixture_path("constructor_memory_snapshot.pickle")
    snapshot = load_snapshot(path)
    doc = SnapshotDocument(snapshot, at_moment=True)
    for device in (0, 2, 1):
        kind, event, _n = _raw_moment(path, device)
        frame = doc.set_device(device)
        assert frame.event == event and doc.opened_at is not None and doc.opened_at.kind == kind
    live = SnapshotDocument(snapshot)  # not a file the user opened (a live job, a comparison): its newest state
    assert live.event == len(snapshot.trace(live.device)) - 1 and live.opened_at is None


def test_the_trace_arriving_in_stages_moves_the_cursor_once_and_a_user_s_move_stays(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The loader hands over the final state, then the trace, then the site bands: the cursor goes to the OOM when
    the trace arrives, and a user who moves it then is not thrown back by what arrives after."""
    path = fixture_path("constructor_memory_snapshot.pickle")
    seen: list[tuple[bool, int, bool]] = []
    arrived = SnapshotTab._timelines_arrived

    def on_timelines(doc: SnapshotTab, *args: Any) -> None:
        # the final state, no words on where it opens (the line held blank at its height: the map does not move)
        seen.append((doc.pending, doc.current_event, bool(doc.opened_line.text().strip())))
        arrived(doc, *args)
        seen.append((doc.pending, doc.document.event, False))  # the document moved; the view draws it next
        doc.travel_to(7)  # the user moves at once, while the rest of the tab is still being shown

    monkeypatch.setattr(SnapshotTab, "_timelines_arrived", on_timelines)
    with throwaway_settings() as settings:
        window = _window(qtbot, settings)
        window.open_files([str(path)])
        window.wait_for_loads(60_000)
        doc = window.current_document()
        assert doc is not None and not doc.pending
        qtbot.waitUntil(lambda: not window.jobs and not doc.tasks.tasks, timeout=30_000)  # the site bands too
        doc.curve_tabs.setCurrentWidget(doc.site_timeline)
        qtbot.waitUntil(doc.site_timeline.is_ready, timeout=30_000)
        _kind, oom, _n = _raw_moment(path, doc.device)
        assert seen == [(True, -1, False), (False, oom, False)]
        assert doc.current_event == 7 and _cursor_of(doc) == 7 and doc.site_timeline.current_event == 7
        assert doc.opened_line.isVisibleTo(doc) and f"OOM (event {oom:,} of" in doc.opened_line.text()
        window.shutdown()


def test_render_without_at_draws_the_window_where_it_opens(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = fixture_path("constructor_memory_snapshot.pickle")
    shown: list[SnapshotDocument] = []
    add = MainWindow.add_document

    def keep(window: MainWindow, *args: Any, **kwargs: Any) -> SnapshotTab:
        doc = add(window, *args, **kwargs)
        shown.append(doc.document)
        return doc

    monkeypatch.setattr(MainWindow, "add_document", keep)
    render(str(path), str(tmp_path / "w.png"), size=(900, 600))
    render(str(path), str(tmp_path / "d0.png"), device=0, size=(900, 600))
    render(str(path), str(tmp_path / "at.png"), at=30, size=(900, 600))
    assert [(d.device, d.event) for d in shown] == [
        (1, _raw_moment(path, 1)[1]),
        (0, _raw_moment(path, 0)[1]),
        (1, 30),
    ]
