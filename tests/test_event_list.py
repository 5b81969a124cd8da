"""The event list: its filter against a plain walk over the raw pickle's trace entries, its lazy cells, and the
widget (clicks and keys choose trace events, show_event follows without emitting, a 3M-event list stays virtual)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PySide6 import QtCore, QtWidgets

from benchmarks.bench_budgets import tiled
from gpumem_gui import assets
from gpumem_gui.core import Snapshot, load_snapshot
from gpumem_gui.core.analysis.timetravel import build_timeline
from gpumem_gui.document.event_list import KINDS, EventFilter, EventTable, RowRange, row_of
from gpumem_gui.document.events import format_elapsed
from gpumem_gui.views.common.language import set_language
from gpumem_gui.views.snapshot.event_list import EventListView
from tests.conftest import FIXTURE_NAMES, fixture_path, load_raw

EXAMPLES = sorted(assets.EXAMPLES.glob("*.pickle"))
# the kinds by the trace's own action names (written out here, not read from the code under test)
RAW_KINDS: dict[str, set[str] | None] = {
    "all": None,
    "allocations": {"alloc"},
    "frees": {"free_requested", "free_completed"},
    "segments": {"segment_alloc", "segment_free"},
    "maps": {"segment_map", "segment_unmap"},
    "ooms": {"oom"},
    "markers": {"snapshot", "user_defined", "annotate"},
}
MiB = 1 << 20


def _paths() -> list[Path]:
    return [fixture_path(name) for name in FIXTURE_NAMES] + EXAMPLES


def _oracle(entries: list[dict[str, Any]], kind: str, min_size: int, stream: int | None) -> list[int]:
    actions = RAW_KINDS[kind]
    return [
        i
        for i, e in enumerate(entries)
        if (actions is None or e["action"] in actions)
        and e.get("size", 0) >= min_size
        and (stream is None or e.get("stream", 0) == stream)
    ]


def test_the_kinds_cover_the_same_actions_as_the_oracle() -> None:
    assert set(KINDS) == set(RAW_KINDS)


def test_the_filter_keeps_what_a_walk_over_the_raw_trace_keeps() -> None:
    checked = 0
    for path in _paths():
        raw = load_raw(path)
        if not isinstance(raw, dict):
            continue
        snapshot = load_snapshot(path)
        for device, entries in enumerate(raw.get("device_traces", [])):
            if not entries:
                continue
            table = EventTable(snapshot, device)
            assert len(table) == len(entries)
            streams = sorted({e.get("stream", 0) for e in entries})
            assert table.streams() == streams
            for kind in RAW_KINDS:
                for min_size in (0, 1, MiB, 64 * MiB):
                    for stream in (None, streams[-1]):
                        flt = EventFilter(kind, min_size, stream)  # type: ignore[arg-type]
                        got = table.filter(flt)
                        expected = _oracle(entries, kind, min_size, stream)
                        # every event in order: a range, no array (24 MB at 3M events)
                        assert isinstance(got, RowRange) == (kind == "all" and min_size == 0 and stream is None)
                        assert np.asarray(got).dtype == np.int64
                        assert got.tolist() == np.asarray(got).tolist() == expected, (path.name, kind, min_size)
                        # a span of it: the rows of the span, whichever the representation
                        n = len(entries)
                        for first, last in ((0, n - 1), (n // 3, 2 * n // 3), (n // 2, n // 2), (5, 4), (-3, n + 9)):
                            spanned = table.filter(replace(flt, span=(first, last)))
                            assert isinstance(spanned, RowRange) == isinstance(got, RowRange)
                            assert spanned.tolist() == [i for i in expected if first <= i <= last]
                        checked += 1
    assert checked > 500


def test_the_row_range_reads_as_the_array_it_stands_for() -> None:
    for start, stop in ((0, 0), (0, 1), (0, 10), (3, 10), (7, 7)):
        rows, array = RowRange(start, stop), np.arange(start, stop, dtype=np.int64)
        assert len(rows) == len(array) and rows.tolist() == array.tolist()
        assert np.array_equal(np.asarray(rows), array) and np.asarray(rows).dtype == np.int64
        for i in range(-len(array), len(array)):
            assert rows[i] == array[i]
        for i in (len(array), -len(array) - 1):
            with pytest.raises(IndexError):
                rows[i]
        for key in (slice(None), slice(2, 5), slice(-3, None), slice(None, None, 2), slice(8, 2, -1), slice(20, 30)):
            assert np.array_equal(rows[key], array[key])
        for event in range(-2, stop + 3):
            assert row_of(rows, event) == row_of(array, event), (start, stop, event)
        for first, last in ((0, 100), (4, 6), (6, 4), (-5, 2), (stop, stop + 5)):
            kept = array[(array >= first) & (array <= last)]
            assert rows.within(first, last).tolist() == kept.tolist()


def test_cells_read_the_raw_entry() -> None:
    path = fixture_path("constructor_memory_snapshot.pickle")
    entries = load_raw(path)["device_traces"][1]
    table = EventTable(load_snapshot(path), 1)
    words = {"alloc": "allocation", "free_requested": "free requested", "free_completed": "free completed"}
    words |= {"segment_map": "segment map", "segment_unmap": "segment unmap", "oom": "OOM"}
    t0 = entries[0]["time_us"]
    for i in range(0, len(entries), 37):
        e = entries[i]
        number, when, action, _size, address, stream, _top = table.cells(i)
        assert number == f"{i:,}" and action == words[e["action"]] and stream == str(e["stream"])
        assert address == ("" if e["action"] == "oom" else hex(e["addr"]))
        assert when == format_elapsed(e["time_us"] - t0)
    # the top frame is the innermost frame of the user's Python in the raw stack: after the allocator's C++
    # frames and torch's own Python (torch/nn/functional.py's relu here)
    i = next(i for i, e in enumerate(entries) if e["action"] == "oom")
    python = [f for f in entries[i]["frames"] if f["filename"].endswith(".py")]
    top = next(f for f in python if "/torch/" not in f["filename"])
    assert "/torch/" in python[0]["filename"]
    assert table.cells(i)[6] == f"{top['name']} ({Path(top['filename']).name}:{top['line']})"


def test_times_read_as_people_write_them() -> None:
    assert format_elapsed(0) == "+0 µs"
    assert format_elapsed(850) == "+850 µs"
    assert format_elapsed(12_345) == "+12.345 ms"
    assert format_elapsed(3_210_000) == "+3.210 s"
    assert format_elapsed(125_000_000) == "+2 min 05.000 s"
    assert format_elapsed(3_725_500_000) == "+1 h 02 min 05.500 s"


def test_row_of_is_the_event_or_the_last_before_it() -> None:
    rows = np.array([3, 7, 20], np.int64)
    assert [row_of(rows, e) for e in (-1, 2, 3, 4, 7, 19, 20, 99)] == [-1, -1, 0, 0, 1, 1, 2, 2]


def big_snapshot(n: int = 3_000_000) -> Snapshot:
    """A real file's device-1 trace tiled to `n` events (times made increasing), as columns."""
    return tiled(load_snapshot(fixture_path("constructor_memory_snapshot.pickle")), 1, n)


def test_filtering_many_events_makes_no_cells() -> None:
    # its speed at 3M events: benchmarks/bench_budgets.py (filter)
    snapshot = big_snapshot(300_000)
    t = snapshot.trace(0)
    table = EventTable(snapshot, 0)
    for flt in (EventFilter("allocations", 64 * MiB), EventFilter("frees", 0, 0), EventFilter("ooms")):
        rows = table.filter(flt)
        kept = np.isin(t.action, [int(a) for a in KINDS[flt.kind][1]]) & (t.size >= flt.min_size)
        if flt.stream is not None:
            kept &= t.stream == flt.stream
        assert np.array_equal(rows, np.flatnonzero(kept)), flt
    assert not table._cells
    assert table.cells(299_999)[0] == "299,999" and len(table._cells) == 1


# -- the widget ----------------------------------------------------------------------------------------------------


@pytest.fixture
def listed(qtbot: Any) -> tuple[EventListView, list[dict[str, Any]]]:
    path = fixture_path("constructor_memory_snapshot.pickle")
    snapshot = load_snapshot(path)
    view = EventListView()
    qtbot.addWidget(view)
    view.resize(900, 400)
    view.set_document(snapshot, 1, build_timeline(snapshot, 1))
    view.show()
    qtbot.waitExposed(view)
    return view, load_raw(path)["device_traces"][1]


def _click_row(qtbot: Any, view: EventListView, row: int) -> None:
    at = view.model.index(row, 2)
    view.view.scrollTo(at)
    rect = view.view.visualRect(at)
    qtbot.mouseClick(view.view.viewport(), QtCore.Qt.MouseButton.LeftButton, pos=rect.center())


def test_clicking_a_row_chooses_its_trace_event(qtbot: Any, listed: tuple[EventListView, Any]) -> None:
    view, entries = listed
    view.set_filter(EventFilter("allocations"))
    allocs = [i for i, e in enumerate(entries) if e["action"] == "alloc"]
    with qtbot.waitSignal(view.event_chosen) as chosen:
        _click_row(qtbot, view, 5)
    assert chosen.args == [allocs[5]]
    with qtbot.waitSignal(view.event_chosen) as chosen:
        qtbot.keyClick(view.view, QtCore.Qt.Key.Key_Down)
    assert chosen.args == [allocs[6]]


def test_show_event_selects_its_row_or_the_one_before_without_emitting(
    qtbot: Any, listed: tuple[EventListView, Any]
) -> None:
    view, entries = listed
    view.set_filter(EventFilter("allocations"))
    allocs = [i for i, e in enumerate(entries) if e["action"] == "alloc"]
    oom = next(i for i, e in enumerate(entries) if e["action"] == "oom")
    with qtbot.assertNotEmitted(view.event_chosen):
        view.show_event(allocs[40])
        assert view.view.currentIndex().row() == 40
        view.show_event(oom)  # filtered out: the last allocation before it
        before = max(i for i in allocs if i < oom)
        assert int(view.indices[view.view.currentIndex().row()]) == before
        assert view.view.visualRect(view.view.currentIndex()).intersects(view.view.viewport().rect())
    # clicking that row (already current) still travels to it
    with qtbot.waitSignal(view.event_chosen) as chosen:
        _click_row(qtbot, view, view.view.currentIndex().row())
    assert chosen.args == [before]
    with qtbot.assertNotEmitted(view.event_chosen):
        view.show_event(-1)
    assert not view.view.selectionModel().hasSelection()


def test_the_filter_bar_narrows_the_rows(qtbot: Any, listed: tuple[EventListView, Any]) -> None:
    view, entries = listed
    assert view.model.rowCount() == len(entries)
    view.kind_box.setCurrentIndex(view.kind_box.findData("allocations"))
    view.size_edit.setText("1.5 GiB")
    qtbot.keyClick(view.size_edit, QtCore.Qt.Key.Key_Return)
    expected = _oracle(entries, "allocations", int(1.5 * (1 << 30)), None)
    assert 0 < len(expected) < len(entries)
    assert view.indices.tolist() == expected
    assert view.count.text() == f"{len(expected):,} of {len(entries):,} events"
    view.size_edit.setText("lots")
    qtbot.keyClick(view.size_edit, QtCore.Qt.Key.Key_Return)
    assert view.indices.tolist() == expected and "size?" in view.count.text()  # a bad size keeps the last filter


def test_the_size_filter_reads_a_french_size(qtbot: Any, listed: tuple[EventListView, Any]) -> None:
    """A French user types the size as the window writes it to them ("1,5 Gio"), which the hint suggests."""
    view, entries = listed
    set_language("fr")
    view.kind_box.setCurrentIndex(view.kind_box.findData("allocations"))
    view.size_edit.setText("1,5\u00a0Gio")
    qtbot.keyClick(view.size_edit, QtCore.Qt.Key.Key_Return)
    expected = _oracle(entries, "allocations", 1_610_612_736, None)  # 1.5 x 2**30, by hand
    assert 0 < len(expected) < len(entries)
    assert view.indices.tolist() == expected


def test_three_million_events_stay_virtual(qtbot: Any) -> None:
    view = EventListView()
    qtbot.addWidget(view)
    view.resize(900, 400)
    view.show()
    qtbot.waitExposed(view)
    snapshot = big_snapshot()
    view.set_document(snapshot, 0)
    assert view.model.rowCount() == 3_000_000
    assert isinstance(view.indices, RowRange)  # the unfiltered list holds no row index
    view.show_event(2_500_000)
    qtbot.wait(10)
    table = view.table
    assert table is not None and len(table._cells) < 100  # only the rows drawn were made
    view.set_filter(EventFilter("allocations", 64 * MiB))  # its speed: benchmarks/bench_budgets.py (filter_view)
    expected = int(np.count_nonzero((snapshot.trace(0).action == 0) & (snapshot.trace(0).size >= 64 * MiB)))
    assert view.model.rowCount() == expected
    assert int(view.indices[view.view.currentIndex().row()]) <= 2_500_000


def test_the_painted_cells_say_what_the_raw_entry_says(qtbot: Any, listed: tuple[EventListView, Any]) -> None:
    """What the view paints (the delegate's own reading of a cell, its rows worded once and kept) is the raw entry."""
    view, entries = listed
    view.set_filter(EventFilter("allocations"))
    allocs = [i for i, e in enumerate(entries) if e["action"] == "alloc"]
    delegate = view.view.itemDelegate()
    assert isinstance(delegate, QtWidgets.QStyledItemDelegate)
    right = int(QtCore.Qt.AlignmentFlag.AlignRight | QtCore.Qt.AlignmentFlag.AlignVCenter)
    left = int(QtCore.Qt.AlignmentFlag.AlignLeft | QtCore.Qt.AlignmentFlag.AlignVCenter)
    for row in (0, 7, len(allocs) - 1, 7):  # row 7 again: from the kept words
        e = entries[allocs[row]]
        painted = []
        for column in range(7):
            option = QtWidgets.QStyleOptionViewItem()
            delegate.initStyleOption(option, view.model.index(row, column))  # Qt's own reading: every role
            painted.append(option.text)
            assert int(option.displayAlignment) == (right if column in (0, 1, 3, 5) else left)
        assert painted[0] == f"{allocs[row]:,}" and painted[2] == "allocation"
        assert painted[4] == hex(e["addr"]) and painted[5] == str(e["stream"])
        assert painted[1] == format_elapsed(e["time_us"] - entries[0]["time_us"])


def test_a_language_switch_words_the_kept_rows_again(qtbot: Any, listed: tuple[EventListView, Any]) -> None:
    """The worded rows are kept between paints: after a switch the same rows read in the new language."""
    view, entries = listed
    display = QtCore.Qt.ItemDataRole.DisplayRole
    alloc = next(i for i, e in enumerate(entries) if e["action"] == "alloc")
    sizes = [view.model.data(view.model.index(i, 3), display) for i in range(len(entries))]
    at = next(i for i, text in enumerate(sizes) if "." in text)  # a size with a decimal mark ("1.5 MiB")
    view.show_event(at)
    view.view.viewport().repaint()  # the rows worded in English and kept
    size, action = view.model.index(at, 3), view.model.index(alloc, 2)
    assert view.model.data(action, display) == "allocation"
    set_language("ro")
    tied = sizes[at].replace(".", ",").replace(" ", "\u00a0")  # a decimal comma, the unit kept on the line
    assert view.model.data(size, display) == tied
    assert view.model.data(action, display) == "alocare"
