"""The tab's layout holds still and is remembered: splitter sizes, a fixed-width position, device labels."""

from __future__ import annotations

import pickle
from typing import Any

from PySide6 import QtCore, QtGui, QtWidgets

from gpumem_gui.app import MainWindow
from gpumem_gui.assets import example_path
from gpumem_gui.core import load_snapshot
from gpumem_gui.core.rules.allocator_constants import MiB
from gpumem_gui.document.event_list import EventFilter
from gpumem_gui.views.snapshot.tab import SnapshotTab
from tests.conftest import fixture_path, load_raw
from tests.test_default_device import _entry, _segment


def _drag_handle(splitter: QtWidgets.QSplitter, dx: int, dy: int, index: int = 1) -> None:
    """Drag a handle of `splitter` (the first) as a person would, with the mouse."""
    handle = splitter.handle(index)
    centre = handle.rect().center()
    target = centre + QtCore.QPoint(dx, dy)
    left = QtCore.Qt.MouseButton.LeftButton
    for kind, at, buttons in (
        (QtCore.QEvent.Type.MouseButtonPress, centre, left),
        (QtCore.QEvent.Type.MouseMove, target, left),
        (QtCore.QEvent.Type.MouseButtonRelease, target, QtCore.Qt.MouseButton.NoButton),
    ):
        local, screen = QtCore.QPointF(at), QtCore.QPointF(handle.mapToGlobal(at))
        event = QtGui.QMouseEvent(kind, local, screen, left, buttons, QtCore.Qt.KeyboardModifier.NoModifier)
        QtWidgets.QApplication.sendEvent(handle, event)


def test_dragged_splitters_are_remembered_for_the_next_tab(qtbot: Any) -> None:
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    window.open_files([str(example_path("fragmented_oom"))])
    window.wait_for_loads()
    first = window.current_document()
    assert first is not None
    qtbot.waitUntil(lambda: first.map.width() > 0)
    splitter = first._splitters.splitter("map_side")
    before = splitter.sizes()
    _drag_handle(splitter, -150, 0)
    moved = splitter.sizes()
    assert moved[0] < before[0] - 100  # the drag widened the side panel
    window.open_files([str(example_path("cache_reuse"))])
    window.wait_for_loads()
    second = window.current_document()
    assert second is not None and second is not first
    qtbot.waitUntil(lambda: second._splitters.splitter("map_side").sizes()[0] > 0)
    assert abs(second._splitters.splitter("map_side").sizes()[0] - moved[0]) <= 2


def test_travelling_does_not_move_the_widgets_of_the_bar(qtbot: Any) -> None:
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    window.open_files([str(example_path("fragmented_oom"))])
    window.wait_for_loads()
    doc = window.current_document()
    assert isinstance(doc, SnapshotTab) and doc.document.n_events > 20
    qtbot.waitUntil(lambda: doc.position.width() > 0)
    places = []
    for event in (-1, 5, doc.document.n_events // 2, doc.document.n_events - 1):
        doc.travel_to(event)
        QtWidgets.QApplication.processEvents()
        places.append((doc.play_button.geometry(), doc.position.geometry(), doc.map.width()))
    assert all(p == places[0] for p in places), places


def test_the_device_menu_says_what_each_gpu_holds(qtbot: Any) -> None:
    churn = [_entry(kind, 1 << 30, 2 * MiB) for _ in range(20) for kind in ("segment_alloc", "segment_free")]
    oom = [_entry("alloc", 1 << 32, 40 * MiB), _entry("oom", 0, 64 * MiB, device_free=MiB)]
    dump = {"segments": [_segment(1, 1 << 32, 40 * MiB)], "device_traces": [churn, oom, []]}
    view = SnapshotTab(load_snapshot(pickle.dumps(dump)))
    qtbot.addWidget(view)
    labels = [view.device_box.itemText(i) for i in range(view.device_box.count())]
    # GPU 0 held 2 MiB at its high point and has nothing now; GPU 1 holds 40 MiB and had an OOM
    assert labels == ["GPU 0: peak 2.0 MiB", "GPU 1: peak 40.0 MiB, 1 OOM"]
    assert view.device_box.toolTip() == "GPU 1: peak 40.0 MiB, 1 OOM"  # whole, where the narrow menu cuts it
    assert view.device == 1


def test_the_search_says_how_many_blocks_match(qtbot: Any) -> None:
    path = example_path("fragmented_oom")
    with open(path, "rb") as f:
        raw = pickle.load(f)
    expected = sum(
        1
        for seg in raw["segments"]
        for block in seg["blocks"]
        if block["state"] != "inactive" and any("lm_head" in fr["name"] for fr in block.get("frames", []))
    )
    assert expected > 1
    view = SnapshotTab(load_snapshot(path))
    qtbot.addWidget(view)
    assert view.search_count.text() == ""
    qtbot.keyClicks(view.search, "lm_head")
    qtbot.keyClick(view.search, QtCore.Qt.Key.Key_Return)
    assert view.search_count.text() == f"{expected:,} matches"


def test_a_click_and_a_drag_on_the_document_timeline_travel(qtbot: Any) -> None:
    view = SnapshotTab(load_snapshot(example_path("fragmented_oom")))
    qtbot.addWidget(view)
    view.resize(1200, 800)
    view.show()
    timeline = view.timeline_view
    qtbot.waitUntil(lambda: timeline.isVisible() and timeline.plot.viewport().height() > 0)
    box = timeline.plot.getViewBox()
    viewport = timeline.plot.viewport()

    def at(event: int) -> QtCore.QPoint:
        bottom, top = box.viewRange()[1]
        return timeline.plot.mapFromScene(box.mapViewToScene(QtCore.QPointF(event, (bottom + top) / 2)))

    def mouse(kind: QtCore.QEvent.Type, point: QtCore.QPoint, buttons: QtCore.Qt.MouseButton) -> None:
        left = QtCore.Qt.MouseButton.LeftButton
        button = QtCore.Qt.MouseButton.NoButton if kind == QtCore.QEvent.Type.MouseMove else left
        local, screen = QtCore.QPointF(point), QtCore.QPointF(viewport.mapToGlobal(point))
        event = QtGui.QMouseEvent(kind, local, screen, button, buttons, QtCore.Qt.KeyboardModifier.NoModifier)
        QtWidgets.QApplication.sendEvent(viewport, event)

    left, none = QtCore.Qt.MouseButton.LeftButton, QtCore.Qt.MouseButton.NoButton
    mouse(QtCore.QEvent.Type.MouseButtonPress, at(50), left)
    mouse(QtCore.QEvent.Type.MouseButtonRelease, at(50), none)
    assert abs(view.current_event - 50) <= 1
    x_range = box.viewRange()[0]
    mouse(QtCore.QEvent.Type.MouseButtonPress, at(80), left)
    for event in (90, 110, 150):
        mouse(QtCore.QEvent.Type.MouseMove, at(event), left)
    mouse(QtCore.QEvent.Type.MouseButtonRelease, at(150), none)
    assert abs(view.current_event - 150) <= 1 and box.viewRange()[0] == x_range  # travelled, did not pan


def test_the_event_list_and_the_inspector_follow_travel_both_ways(qtbot: Any) -> None:
    path = fixture_path("cranberrii_memory_snapshot.pickle")
    raw = load_raw(path)
    entries = raw["device_traces"][0]
    view = SnapshotTab(load_snapshot(path))
    qtbot.addWidget(view)
    view.event_list.set_filter(EventFilter("segments"))  # cudaMalloc / cudaFree only
    expected = [i for i, e in enumerate(entries) if e["action"] in ("segment_alloc", "segment_free")]
    assert view.event_list.indices.tolist() == expected and len(expected) > 3
    # picking the third row travels the map there and the inspector reads that event
    table = view.event_list.view
    table.selectRow(2)
    assert view.current_event == expected[2] and view.side_tabs.currentIndex() == 0  # the inspector shows it
    assert table.isColumnHidden(1) == (not any(e.get("time_us") for e in entries))  # no times: no time column
    assert view.details.toPlainText() == ""  # a block picked before belonged to another moment
    assert f"{entries[expected[2]]['addr']:#x}" in view.inspector.text()
    # travelling elsewhere selects the last listed event at or before it
    view.travel_to(expected[3] + 1 if expected[3] + 1 < expected[4] else expected[3])
    assert table.currentIndex().row() == 3
