"""The compare view: both maps at one byte scale, the added and removed blocks marked, a site's blocks lit up on both
maps by a click in the table, and a click on the timeline travelling both sides (B at the aligned event)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from PySide6 import QtCore

from gpumem_gui.core.analysis.diff import diff_states
from gpumem_gui.core.snapshot.loader import load_snapshot
from gpumem_gui.document.compare import CompareDocument
from gpumem_gui.document.document import SnapshotDocument
from gpumem_gui.views.compare.diff_view import DiffView
from tests.conftest import fixture_path
from tests.test_diff import SITE, _hand_made_pair


def _view(qtbot: Any, doc_a: SnapshotDocument, doc_b: SnapshotDocument, at_a: int | None, at_b: int | None) -> DiffView:
    compare = CompareDocument.open(doc_a, doc_b, at_a, at_b)
    view = DiffView(compare.diff, doc_a, doc_b)
    qtbot.addWidget(view)
    view.resize(1400, 900)
    view.show()
    qtbot.waitExposed(view)
    return view


def _highlighted(view: DiffView, side: int) -> set[int]:
    m = view.maps[side]
    assert m.state is not None and m.highlight is not None and m.spotlight
    return set(m.state.blocks.address[m.highlight].tolist())


def test_hand_made_pair_marks_added_and_removed_at_one_scale(qtbot: Any, tmp_path: Path) -> None:
    path_a, path_b, blocks = _hand_made_pair(tmp_path)
    doc_a, doc_b = SnapshotDocument(load_snapshot(path_a)), SnapshotDocument(load_snapshot(path_b))
    view = _view(qtbot, doc_a, doc_b, None, None)
    assert _highlighted(view, 0) == {blocks["a"]["y"][0], blocks["a"]["z"][0]}  # removed, on A's map
    assert _highlighted(view, 1) == {blocks["b"]["w"][0], blocks["b"]["z2"][0]}  # added, on B's map
    assert view.maps[1].highlight_pixels().any()  # drawn, not only computed
    assert "2 blocks added (in B only)" in view.maps[1].focus_caption.text()
    assert "B" in view.titles[1].text() and "b.pickle" in view.titles[1].text()
    assert "−2.0 MiB" in view.figures.text()  # allocated 10 MiB -> 8 MiB


def test_maps_share_the_byte_scale_of_the_larger_side(qtbot: Any) -> None:
    doc_a = SnapshotDocument(load_snapshot(fixture_path("cranberrii_memory_snapshot.pickle")))
    doc_b = SnapshotDocument(load_snapshot(fixture_path("magma27_memory_snapshot.pickle")))
    view = _view(qtbot, doc_a, doc_b, None, None)
    largest = [int(doc.snapshot.state.segments.total_size.max()) for doc in (doc_a, doc_b)]
    assert largest[0] < largest[1]  # the premise: A's own scale would differ
    layouts = [m.layout_info for m in view.maps]
    assert all(layout is not None and layout.mode == "segment" for layout in layouts)
    spans = [set(layout.row_span.tolist()) for layout in layouts if layout is not None]
    assert spans[0] == spans[1] == {largest[1]}  # A drawn at B's scale
    assert view.maps[0].scale.bytes_per_unit == view.maps[1].scale.bytes_per_unit == largest[1] / layouts[0].width
    for doc in (doc_a, doc_b):  # the window's documents keep their cursors: the view travels its own
        assert doc.event == doc.n_events - 1 and doc.layout == ("address", "size")


def test_a_site_clicked_lights_up_its_blocks_on_both_maps(qtbot: Any, tmp_path: Path) -> None:
    path_a, path_b, blocks = _hand_made_pair(tmp_path)
    doc_a, doc_b = SnapshotDocument(load_snapshot(path_a)), SnapshotDocument(load_snapshot(path_b))
    view = _view(qtbot, doc_a, doc_b, None, None)
    row = [s.site for s in view.compare.diff.by_site].index(SITE["attn"])
    rect = view.site_table.visualRect(view.sites.index(row, 0))
    with qtbot.waitSignal(view.site_picked) as picked:
        qtbot.mouseClick(view.site_table.viewport(), QtCore.Qt.MouseButton.LeftButton, pos=rect.center())
    assert picked.args == [SITE["attn"]]
    assert _highlighted(view, 0) == {blocks["a"]["x"][0]}
    assert _highlighted(view, 1) == {blocks["b"]["x"][0], blocks["b"]["z2"][0]}
    view.changes_button.click()
    assert _highlighted(view, 1) == {blocks["b"]["w"][0], blocks["b"]["z2"][0]}


def test_a_click_on_the_timeline_travels_both_sides(qtbot: Any) -> None:
    snapshot = load_snapshot(fixture_path("cranberrii_memory_snapshot.pickle"))
    doc = SnapshotDocument(snapshot)
    view = _view(qtbot, doc, doc, 1000, 5000)  # B's 5000 aligned with A's 1000
    vb = view.view_box
    scene = vb.mapViewToScene(QtCore.QPointF(2000, float(np.mean(vb.viewRange()[1]))))
    pos = view.plot.mapFromScene(scene)
    with qtbot.waitSignal(view.event_changed, timeout=10_000) as moved:
        qtbot.mouseClick(view.plot.viewport(), QtCore.Qt.MouseButton.LeftButton, pos=pos)
    a_event, b_event = moved.args
    assert abs(a_event - 2000) <= 20 and b_event == a_event + 4000
    oracle = diff_states(snapshot, 0, a_event, snapshot, 0, b_event)
    shown = view.compare.diff
    assert (len(shown.added), len(shown.removed), shown.delta) == (len(oracle.added), len(oracle.removed), oracle.delta)
    for m, event in zip(view.maps, (a_event, b_event), strict=True):
        assert m.state is not None and len(m.state.blocks) == len(doc.timeline().state_at(event).blocks)
    assert f"after event {b_event:,}" in view.titles[1].text()
    assert view.event_boxes[0].value() == a_event and view.event_boxes[1].value() == b_event
    with qtbot.waitSignal(view.event_changed, timeout=10_000) as moved:  # B alone: a new alignment
        view.event_boxes[1].setValue(3000)
    assert moved.args == [a_event, 3000] and view.compare.shift == a_event - 3000
