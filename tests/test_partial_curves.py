"""While a trace is read, the window draws reserved and allocated memory over the events read so far: the running
curves equal the running sums of the raw events' sizes (segment_alloc/map up, segment_free/unmap down for reserved;
alloc up, free_completed down for allocated), batch after batch, and the window gets them before the load ends."""

from __future__ import annotations

import functools
import os
import pickle
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from pytestqt.qtbot import QtBot

from gpumem_gui.app import MainWindow
from gpumem_gui.app import window as window_module
from gpumem_gui.core.allocator.simulator import DeviceAllocatorSim
from gpumem_gui.core.analysis.running_curves import PartialCurves, RunningCurves
from gpumem_gui.core.rules.allocator_constants import GiB
from gpumem_gui.core.snapshot import convert
from gpumem_gui.core.snapshot.loader import load_snapshot
from gpumem_gui.core.snapshot.model import ACTION_NAMES
from gpumem_gui.qt_start import throwaway_settings
from gpumem_gui.sources.file_loader import FileLoadJob
from gpumem_gui.views.snapshot.partial_curves import PartialCurvesView

UP_RESERVED, DOWN_RESERVED = {"segment_alloc", "segment_map"}, {"segment_free", "segment_unmap"}


def _hand_made(path: Path, rounds: int = 150) -> list[dict[str, Any]]:
    """A trace of segments made and blocks allocated and freed, written as PyTorch writes it; its raw entries."""
    sim = DeviceAllocatorSim(80 * GiB)
    frames = [{"name": "forward", "filename": "model.py", "line": 7}]
    live: list[Any] = []
    for i in range(rounds):
        live.append(sim.malloc((1 + i % 5) * (3 << 20), frames=frames))  # some need a new segment
        if i % 3 == 2:
            sim.free(live.pop(0))
        if i % 40 == 39:
            sim.empty_cache()  # segments freed: reserved goes down too
    dump = sim.snapshot()
    path.write_bytes(pickle.dumps(dump, protocol=4))
    with path.open("rb") as f:
        raw: dict[str, Any] = pickle.load(f)  # the oracle reads the file with the standard unpickler
    entries: list[dict[str, Any]] = raw["device_traces"][0]
    return entries


def _running_sums(entries: list[dict[str, Any]]) -> tuple[list[int], list[int]]:
    """Reserved and allocated after each event, from 0 before the first: a plain loop over the raw entries."""
    reserved, allocated, r, a = [], [], 0, 0
    for e in entries:
        r += e["size"] if e["action"] in UP_RESERVED else -e["size"] if e["action"] in DOWN_RESERVED else 0
        a += e["size"] if e["action"] == "alloc" else -e["size"] if e["action"] == "free_completed" else 0
        reserved.append(r)
        allocated.append(a)
    return reserved, allocated


def _check(curves: PartialCurves, entries: list[dict[str, Any]]) -> None:
    """`curves` are the running sums of the first n_events entries: each column's extremes over its events."""
    reserved, allocated = _running_sums(entries[: curves.n_events])
    ends = [*curves.starts[1:].tolist(), curves.n_events]
    assert curves.starts[0] == 0 and ends[-1] == curves.n_events
    for k, (start, end) in enumerate(zip(curves.starts.tolist(), ends, strict=True)):
        assert (curves.reserved_low[k], curves.reserved_high[k]) == (min(reserved[start:end]), max(reserved[start:end]))
        assert (curves.allocated_low[k], curves.allocated_high[k]) == (
            min(allocated[start:end]),
            max(allocated[start:end]),
        )


def test_the_running_curves_equal_the_running_sums_of_the_events_read_so_far(tmp_path: Path) -> None:
    entries = _hand_made(tmp_path / "trace.pickle")
    kinds = {e["action"] for e in entries}
    assert {"segment_alloc", "segment_free", "alloc", "free_completed", "free_requested"} <= kinds
    action = np.array([int(ACTION_NAMES[e["action"]]) for e in entries], np.int32)
    size = np.array([e["size"] for e in entries], np.int64)
    curves = RunningCurves()
    read = 0
    for batch in (1, 5, 37, 64, 100, 3, len(entries)):  # batches that cut chunks anywhere
        curves.add(action[read : read + batch], size[read : read + batch])
        read = min(read + batch, len(entries))
        for columns in (2048, 3):  # every chunk a column, and chunks merged into a few
            partial = curves.partial(columns)
            assert partial.n_events == read and len(partial.starts) <= columns
            _check(partial, entries)
    assert read == len(entries)


def test_a_hand_worked_trace() -> None:
    # segment 20 MiB, alloc 2 MiB, alloc 6 MiB, free_requested (no change), free_completed 2 MiB, segment_free:
    # reserved 20 20 20 20 20 0, allocated 0 2 8 8 6 6
    sizes = [20, 2, 6, 2, 2, 20]
    actions = ["segment_alloc", "alloc", "alloc", "free_requested", "free_completed", "segment_free"]
    curves = RunningCurves()
    curves.add(np.array([int(ACTION_NAMES[a]) for a in actions], np.int32), np.array(sizes, np.int64))
    whole = curves.partial()
    assert whole.n_events == 6 and whole.starts.tolist() == [0]
    assert (whole.reserved_low[0], whole.reserved_high[0]) == (0, 20)
    assert (whole.allocated_low[0], whole.allocated_high[0]) == (0, 8)  # 0 after the segment, 8 at the top


def test_the_reader_hands_the_trace_over_in_batches_while_it_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if os.environ.get("GPUMEM_GUI_PURE_PYTHON") or convert._columns is None:
        pytest.skip("batches come from the compiled reader only")
    path = tmp_path / "trace.pickle"
    entries = _hand_made(path)
    monkeypatch.setattr(convert, "ROWS_STEP", 25)
    batches: list[tuple[np.ndarray, np.ndarray]] = []
    snapshot = load_snapshot(path, on_rows=lambda action, size: batches.append((action.copy(), size.copy())))
    assert len(batches) >= len(entries) // 25 - 1  # every 25 rows, the newest row held back
    action = np.concatenate([a for a, _ in batches])
    size = np.concatenate([s for _, s in batches])
    assert len(action) < len(entries)  # the last rows arrive with the whole trace only
    assert action.tolist() == [int(ACTION_NAMES[e["action"]]) for e in entries[: len(action)]]
    assert size.tolist() == [e["size"] for e in entries[: len(size)]]
    assert len(snapshot.trace(0)) == len(entries)


def test_the_window_draws_the_curves_so_far_before_the_load_ends(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if os.environ.get("GPUMEM_GUI_PURE_PYTHON"):
        pytest.skip("the running curves come from the compiled reader only")
    path = tmp_path / "trace.pickle"
    entries = _hand_made(path, rounds=600)
    # each view's drawing: (its tab still reading the trace, the curves drawn); the whole snapshot is held back
    # until one is drawn (a small file's whole snapshot could come before the view is placed, two turns after the tab)
    drawn: list[tuple[bool, PartialCurves]] = []

    def recorded(view: PartialCurvesView, curves: PartialCurves) -> None:
        tab = view.parentWidget()
        while tab is not None and not hasattr(tab, "document"):
            tab = tab.parentWidget()
        drawn.append((tab is not None and tab.document.pending, curves))

    hold_whole_until_drawn(monkeypatch, recorded)
    with throwaway_settings() as settings:
        window = MainWindow(settings)
        qtbot.addWidget(window)
        window.show()
        window.open_files([str(path)])
        window.wait_for_loads(60_000)
        doc = window.current_document()
        assert doc is not None and not doc.pending
        drawn_while_pending = [curves for pending, curves in drawn if pending]
        assert drawn_while_pending, "no curves drawn while the trace was read"
        for curves in drawn_while_pending:
            assert 0 < curves.n_events < len(entries)
            _check(curves, entries)
        assert doc.findChild(PartialCurvesView) is None or not doc.findChild(PartialCurvesView).isVisible()
        window.shutdown()


def hold_whole_until_drawn(
    monkeypatch: pytest.MonkeyPatch, on_drawn: Callable[[PartialCurvesView, PartialCurves], None] | None = None
) -> threading.Event:
    """The window's loads send every batch of 50 rows at once (a small file's curves arrive in several steps) and
    hold their whole snapshot back until a view of the curves so far has drawn (20 s at most): set then, the event
    returned. `on_drawn`: told of each drawing, after it."""
    drawn = threading.Event()
    show_curves = PartialCurvesView.show_curves

    def recorded(view: PartialCurvesView, curves: PartialCurves) -> None:
        show_curves(view, curves)
        if on_drawn is not None:
            on_drawn(view, curves)
        drawn.set()

    class HeldBack(FileLoadJob):
        def _finish(self) -> Any:
            drawn.wait(20)
            return super()._finish()

    monkeypatch.setattr(PartialCurvesView, "show_curves", recorded)
    monkeypatch.setattr(window_module, "FileLoadJob", functools.partial(HeldBack, curves_every=0.0, rows_step=50))
    return drawn
