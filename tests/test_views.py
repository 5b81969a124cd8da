"""The window and its views, offscreen: what the map holds, hover and click, search, time travel, errors."""

from __future__ import annotations

import json
import pickle
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PySide6 import QtCore, QtWidgets

from gpumem_gui.app import MainWindow
from gpumem_gui.assets import EXAMPLES, example_path
from gpumem_gui.core import load_snapshot
from gpumem_gui.core.allocator.examples import DEFAULT_EXAMPLE
from gpumem_gui.core.analysis.categories import RULE_TEXTS
from gpumem_gui.core.analysis.rasterize import (
    FREE,
    LARGEST_FREE,
    SITE_BASE,
    MapLayout,
    layout_by_address,
    layout_by_segment,
    rasterize,
)
from gpumem_gui.core.analysis.timetravel import build_timeline
from gpumem_gui.core.rules.allocator_constants import MiB
from gpumem_gui.core.snapshot.model import BlockState
from gpumem_gui.document.search import search_blocks
from gpumem_gui.views.common.start_page import LoadErrorPage
from gpumem_gui.views.snapshot.map_view import ROW_PIXELS
from gpumem_gui.views.snapshot.tab import SnapshotTab
from tests.conftest import FIXTURE_NAMES, fixture_path, load_raw


def _files() -> list[Path]:
    return [fixture_path(n) for n in FIXTURE_NAMES] + sorted(EXAMPLES.glob("*.pickle"))


def test_every_file_shows_its_segments_and_blocks(qtbot: Any) -> None:
    for path in _files():
        snap = load_snapshot(path)
        doc = SnapshotTab(snap)
        qtbot.addWidget(doc)
        state = doc.map.state
        assert state is not None
        device_state = snap.state.for_device(doc.device)
        assert len(state.segments) == len(device_state.segments), path.name
        assert len(state.blocks) == len(device_state.blocks), path.name
        layout = doc.map.layout_info
        assert layout is not None
        assert set(np.unique(layout.row_segment).tolist()) == set(range(len(state.segments)))
        assert doc.map.image_data.shape[0] == len(layout) * ROW_PIXELS


def _scene_pos_of_block(doc: SnapshotTab, index: int) -> QtCore.QPointF:
    state, layout = doc.map.state, doc.map.layout_info
    assert state is not None and layout is not None
    seg = int(state.blocks.segment[index])
    middle = int(state.blocks.address[index] + state.blocks.size[index] // 2)
    rows = np.flatnonzero(layout.row_segment == seg)
    row = int(rows[np.searchsorted(layout.row_start[rows], middle, "right") - 1])
    x = (middle - int(layout.row_start[row])) / int(layout.row_span[row]) * layout.width
    # half a pixel in: a block whose middle starts a row would sit on the row's left edge, where rounding falls off
    return doc.map.view.mapViewToScene(QtCore.QPointF(x + 0.5, row + 0.4))


def shown_tab(qtbot: Any, path: Path, width: int = 1200, height: int = 800) -> SnapshotTab:
    """A tab of the snapshot at `path`, shown at width x height (exposed: laid out and painted)."""
    doc = SnapshotTab(load_snapshot(path))
    qtbot.addWidget(doc)
    doc.resize(width, height)
    doc.show()
    qtbot.waitExposed(doc)
    return doc


def test_hover_and_click_find_the_block(qtbot: Any) -> None:
    doc = shown_tab(qtbot, example_path("split_blocks_oom"))
    state = doc.map.state
    assert state is not None
    big = int(np.argmax(state.blocks.size))
    scene_pos = _scene_pos_of_block(doc, big)
    assert doc.map.block_at_scene(scene_pos) == big
    # real mouse events on the map's viewport: the scene's hover and click handlers must find the block themselves
    viewport = doc.map.plot.viewport()
    point = doc.map.plot.mapFromScene(scene_pos)
    with qtbot.waitSignal(doc.map.block_hovered, timeout=5000) as hovered:
        qtbot.mouseMove(viewport, point)
    assert hovered.args == [big]
    assert doc.map.caption.text() == doc.map.describe(big)
    with qtbot.waitSignal(doc.map.block_clicked, timeout=5000) as clicked:
        qtbot.mouseClick(viewport, QtCore.Qt.MouseButton.LeftButton, pos=point)
    assert clicked.args == [big]
    details = doc.details.toPlainText()  # the click shows the block's details
    assert f"{int(state.blocks.address[big]):#x}" in details and "segment" in details
    # with its category and the rule that chose it (categories.RULE_TEXTS)
    assert "category" in details and any(rule in details for rule in RULE_TEXTS)


def test_search_finds_a_known_frame() -> None:
    snap = load_snapshot(example_path("fragmented_oom"))
    state = snap.state
    mask = search_blocks(state, snap.stacks, "lm_head")
    assert mask is not None and mask.any()
    assert np.all(state.blocks.state[mask] != BlockState.INACTIVE)
    addr = int(state.blocks.address[5]) + 10
    by_address = search_blocks(state, snap.stacks, f"{addr:#x}")
    assert by_address is not None and np.flatnonzero(by_address).tolist() == [5]
    sizes = search_blocks(state, snap.stacks, "100MiB-1GiB")
    assert sizes is not None and np.all(state.blocks.size[sizes] >= 100 << 20)


def test_time_travel_shows_state_at(qtbot: Any) -> None:
    snap = load_snapshot(fixture_path("cranberrii_memory_snapshot.pickle"))
    doc = SnapshotTab(snap)
    qtbot.addWidget(doc)
    timeline = build_timeline(snap, 0)
    for i in (0, 1234, 5000, timeline.n_events - 1):
        doc.travel_to(i)
        expected = timeline.state_at(i)
        assert doc.map.state is not None
        assert np.array_equal(doc.map.state.blocks.address, expected.blocks.address)
        assert np.array_equal(doc.map.state.blocks.state, expected.blocks.state)
    doc.travel_to(10)
    doc.step(1)
    assert doc.current_event == 11
    doc.timeline_view.cursor_line.setValue(42)  # dragging the cursor travels too
    assert doc.current_event == 42


def test_a_bad_file_gets_a_tab_saying_why_while_the_good_ones_open(
    qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shown: list[str] = []  # no dialog may come up: it would hold the other loads behind it
    monkeypatch.setattr(QtWidgets.QMessageBox, "warning", lambda _parent, _title, text: shown.append(text))
    bad = tmp_path / "broken.pickle"
    bad.write_bytes(b"\x80\x04garbage")
    window = MainWindow()
    qtbot.addWidget(window)
    assert window.pages.currentWidget() is window.start_page  # nothing open: the window says what to do
    window.open_files([str(example_path("cache_reuse")), str(bad), str(example_path("fragmented_oom"))])
    window.wait_for_loads()
    assert not shown and window.pages.currentWidget() is window.tabs
    pages = [window.tabs.widget(i) for i in range(window.tabs.count())]
    errors = [p for p in pages if isinstance(p, LoadErrorPage)]
    assert len(errors) == 1 and "corrupt" in errors[0].reason.text() and "\n" not in errors[0].message
    assert sum(isinstance(p, SnapshotTab) for p in pages) == 2  # both good files opened
    errors[0].close_requested.emit()
    assert window.tabs.count() == 2
    for _ in range(2):
        window.close_tab(0)
    assert window.pages.currentWidget() is window.start_page


def test_the_start_page_opens_an_example_and_then_lists_it_as_recent(qtbot: Any) -> None:
    window = MainWindow()
    qtbot.addWidget(window)
    qtbot.mouseClick(window.start_page.buttons["Open an example"], QtCore.Qt.MouseButton.LeftButton)
    window.wait_for_loads()
    doc = window.current_document()
    assert doc is not None and doc.snapshot.devices() and window.pages.currentWidget() is window.tabs
    window.close_tab(0)
    assert window.pages.currentWidget() is window.start_page
    example = str(example_path(DEFAULT_EXAMPLE))
    assert f'href="{example}"' in window.start_page.recent.text()
    window.start_page.recent.linkActivated.emit(example)  # a click on the link
    window.wait_for_loads()
    assert window.tabs.count() == 1 and window.tabs.tabToolTip(0) == example


def _one_segment_with_holes() -> bytes:
    """A 20 MiB segment: allocated blocks around a 512-byte hole (far below a pixel), a 3 MiB hole across the
    2 MiB row boundary, and a 1 MiB hole at the end."""
    blocks, offset = [], SEGMENT_ADDRESS
    for size, state in ((1 * MiB, "active_allocated"), (512, "inactive"), (3 * MiB - 512, "active_allocated"),
                        (3 * MiB, "inactive"), (12 * MiB, "active_allocated"), (1 * MiB, "inactive")):  # fmt: skip
        blocks.append({"address": offset, "size": size, "requested_size": size if state != "inactive" else 0,
                       "state": state, "frames": []})  # fmt: skip
        offset += size
    segment = {"device": 0, "address": SEGMENT_ADDRESS, "total_size": 20 * MiB, "stream": 0, "segment_type": "large",
               "segment_pool_id": (0, 0), "is_expandable": False, "blocks": blocks}  # fmt: skip
    return pickle.dumps([segment])


SEGMENT_ADDRESS = 0x7F0000000000


def _pixel(layout: MapLayout, address: int) -> tuple[int, int]:
    """(row, column) of the pixel that shows byte `address`."""
    starts, spans = layout.row_start, layout.row_span
    row = next(r for r in range(len(layout)) if starts[r] <= address < starts[r] + spans[r])
    return row, (address - int(layout.row_start[row])) * layout.width // int(layout.row_span[row])


def test_layouts_and_rasterized_holes() -> None:
    state = load_snapshot(_one_segment_with_holes()).state
    tiny, large, tail = (SEGMENT_ADDRESS + offset for offset in (1 * MiB, 4 * MiB, 19 * MiB))
    for layout in (layout_by_address(state, width=1024), layout_by_segment(state, width=1024)):
        image = rasterize(state, layout)
        assert int(layout.row_used.sum()) == 20 * MiB  # every byte of the segment has its place, once
        # 512 bytes of a 20 KiB (segment) or 2 KiB (address) pixel: the hole still marks its pixel, over allocated
        assert image[_pixel(layout, tiny)] == FREE, layout.mode
        # the largest hole is marked as such, on each row it crosses, from its first byte to its last
        for address in (large, large + 2 * MiB, large + 3 * MiB - 1):
            assert image[_pixel(layout, address)] == LARGEST_FREE, (layout.mode, hex(address))
        assert image[_pixel(layout, tail)] == image[_pixel(layout, tail + MiB - 1)] == FREE, layout.mode
        # where no hole is, no free pixel: the allocated bytes between the holes show their site
        allocated = image[_pixel(layout, tiny + 1 * MiB)], image[_pixel(layout, large + 6 * MiB)]
        assert min(allocated) >= SITE_BASE, layout.mode
        holes = np.isin(image, (FREE, LARGEST_FREE))
        expected_bytes = 512 + 3 * MiB + 1 * MiB
        per_pixel = int(layout.row_span[0]) / layout.width
        assert expected_bytes / per_pixel <= holes.sum() <= expected_bytes / per_pixel + 4, layout.mode
    assert len(layout_by_address(state)) == 10  # 20 MiB in rows of 2 MiB


def test_blocks_csv_and_report_export(qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import csv  # noqa: PLC0415

    window = MainWindow()
    qtbot.addWidget(window)
    snap = load_snapshot(example_path("fragmented_oom"))
    window.add_document(snap, "fragmented_oom.pickle")
    target = tmp_path / "blocks.csv"
    monkeypatch.setattr(QtWidgets.QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    window.actions_on_tab.export_csv()
    rows = list(csv.DictReader(target.read_text().splitlines()))
    raw = load_raw(example_path("fragmented_oom"))  # the file as the standard unpickler reads it
    in_file = {b["address"]: (b["size"], b["state"]) for s in raw["segments"] for b in s["blocks"]}
    assert {int(r["address"], 16): (int(r["size"]), r["state"]) for r in rows} == in_file
    assert len(rows) == len(in_file)  # one row per block, none twice
    report = tmp_path / "report.json"
    monkeypatch.setattr(QtWidgets.QFileDialog, "getSaveFileName", lambda *a, **k: (str(report), ""))
    window.actions_on_tab.save_report()
    assert window.tasks.wait(20_000)  # written in a task
    [device] = json.loads(report.read_text())["devices"]
    assert device["oom_events"] == sum(e["action"] == "oom" for e in raw["device_traces"][0]) == 1
    assert device["reserved_bytes"] == sum(s["total_size"] for s in raw["segments"])
    image = tmp_path / "window.png"
    monkeypatch.setattr(QtWidgets.QFileDialog, "getSaveFileName", lambda *a, **k: (str(image), ""))
    window.actions_on_tab.export_image()
    assert image.read_bytes()[:4] == b"\x89PNG"


def test_what_if_opens_a_comparison(qtbot: Any) -> None:
    window = MainWindow()
    qtbot.addWidget(window)
    doc = window.add_document(load_snapshot(example_path("fragmented_oom")), "fragmented_oom.pickle")
    task = window.actions_on_tab.start_what_if(doc, ["expandable_segments:True"], None)
    qtbot.waitUntil(lambda: not window.replays, timeout=60_000)
    assert window.tabs.count() == 2
    compare = window.tabs.currentWidget()
    assert "expandable_segments:True" in compare.summary.text()
    assert "OOMs 1 &rarr; 0" in compare.summary.text()  # expandable segments avoid the OOM
    assert all(view.state is not None for view in compare.maps)
    compare.travel_to(50)
    del task


def test_what_if_dialog_overrides(qtbot: Any) -> None:
    from gpumem_gui.views.compare.whatif_view import WhatIfDialog  # noqa: PLC0415

    dialog = WhatIfDialog()
    qtbot.addWidget(dialog)
    dialog.expandable.setCurrentIndex(1)
    dialog.max_split.setText("256")
    dialog.capacity.setText("40GiB")
    assert dialog.overrides() == ["expandable_segments:True", "max_split_size_mb:256"]
    assert dialog.capacity_bytes() == 40 << 30


def test_block_table_sorts_filters_and_selects(qtbot: Any) -> None:
    snap = load_snapshot(example_path("fragmented_oom"))
    doc = SnapshotTab(snap)
    qtbot.addWidget(doc)
    model = doc.table.table_model
    assert model.rowCount() == 0  # filled only while shown
    doc.side_tabs.setCurrentWidget(doc.table)
    assert model.rowCount() == len(snap.state.blocks)
    model.sort(1, QtCore.Qt.SortOrder.DescendingOrder)
    assert doc.state is not None
    sizes = doc.state.blocks.size[model.rows]
    assert np.all(sizes[:-1] >= sizes[1:])
    doc.search.setText("lm_head")
    doc.apply_search()
    assert 0 < model.rowCount() < len(snap.state.blocks)
    first = int(model.rows[0])
    doc.select_block(first)
    assert doc.map.highlight is not None and doc.map.highlight[first]
    assert f"{int(doc.state.blocks.address[first]):#x}" in doc.details.toPlainText()
    doc.pool_box.setCurrentIndex(1)  # small pool only
    assert doc.state is not None and np.all(doc.state.segments.is_small)


def test_timeline_by_time_travels_to_the_same_events(qtbot: Any) -> None:
    doc = SnapshotTab(load_snapshot(fixture_path("magma27_memory_snapshot.pickle")))
    qtbot.addWidget(doc)
    doc.travel_to(1000)
    doc.timeline_view.set_event(1000, emit=False)
    doc.axis_box.setCurrentIndex(1)
    view = doc.timeline_view
    assert view.by_time()
    assert view.event_at(float(view.event_x(np.array([1000]))[0])) == 1000
    x = float(view.event_x(np.array([2500]))[0])
    view.cursor_line.setValue(x)
    assert doc.current_event == 2500


def test_the_window_remembers_the_layout_but_a_render_does_not(qtbot: Any) -> None:
    window = MainWindow()
    qtbot.addWidget(window)
    snap = load_snapshot(example_path("split_blocks_oom"))
    window.settings.setValue("map_layout", 0)
    doc = window.add_document(snap, "a.pickle")
    doc.layout_box.setCurrentIndex(2)
    assert int(window.settings.value("map_layout")) == 2
    assert window.add_document(snap, "b.pickle").layout_box.currentIndex() == 2
    rendered = window.add_document(snap, "c.pickle", layout=1)
    rendered.layout_box.setCurrentIndex(0)
    assert int(window.settings.value("map_layout")) == 2


def test_the_readout_under_the_map_never_moves_the_map(qtbot: Any) -> None:
    """Hover and click must name the same block at every pixel: the readout that a hover fills in under the map
    must not take room from it (a two-line readout used to shrink the map and shift its rows under the pointer)."""
    doc = SnapshotTab(load_snapshot(fixture_path("cranberrii_memory_snapshot.pickle")))
    qtbot.addWidget(doc)
    doc.resize(1200, 800)
    doc.show()
    qtbot.waitExposed(doc)
    for _ in range(3):  # the tab's first layout settles (the timeline and the event list take their room)
        QtWidgets.QApplication.processEvents()
    before = doc.map.plot.geometry()
    state = doc.map.state
    assert state is not None
    with_frames = [i for i in range(len(state.blocks)) if "<br>" in doc.map.describe(i)]
    assert with_frames  # readouts of two lines or more: the case that moved the map
    for text in [doc.map.describe(i) for i in with_frames[:5]] + ["", doc.map.describe(0) + "<br>" + "x " * 400]:
        doc.map.caption.setText(text)
        for _ in range(3):
            QtWidgets.QApplication.processEvents()
        assert doc.map.plot.geometry() == before


def test_the_status_line_names_the_load_and_its_stage(qtbot: Any) -> None:
    window = MainWindow()
    qtbot.addWidget(window)
    window.open_files([str(example_path("cache_reuse"))])
    assert window.statusBar().currentMessage() == "cache_reuse.pickle: reading..."
    window.wait_for_loads()
    assert window.statusBar().currentMessage() == "" and window.tabs.count() == 1
