"""The map reads on its own: segment labels, lines between segments, a byte scale, a layout to scale, search rings."""

from __future__ import annotations

import itertools
import math
import pickle
import re
from typing import Any

import numpy as np
from PySide6 import QtCore, QtWidgets

from gpumem_gui.core import load_snapshot
from gpumem_gui.core.analysis.rasterize import BACKGROUND, SITE_BASE, rasterize, site_codes
from gpumem_gui.core.snapshot.model import Snapshot
from gpumem_gui.core.snapshot.stacks import stack_site_label
from gpumem_gui.document.document import SnapshotDocument, map_layout
from gpumem_gui.views.common import palette
from gpumem_gui.views.snapshot.map_overlays import boundary_lines, segment_label
from gpumem_gui.views.snapshot.map_view import ROW_PIXELS, SegmentMapView
from tests.conftest import fixture_path, load_raw

MiB = 1 << 20
BASE = 0x7F0000000000


def _segment(address: int, size: int, blocks: list[tuple[int, str]], stream: int = 0, kind: str = "large") -> Any:
    out, offset = [], address
    for block_size, state in blocks:
        requested = 0 if state == "inactive" else block_size
        out.append({"address": offset, "size": block_size, "requested_size": requested, "state": state, "frames": []})
        offset += block_size
    assert offset == address + size
    return {"device": 0, "address": address, "total_size": size, "stream": stream, "segment_type": kind,
            "segment_pool_id": (0, 0), "is_expandable": False, "blocks": out}  # fmt: skip


def _three_segments() -> list[Any]:
    """20, 10 and 2 MiB segments (listed smallest first), with holes, a pending free, two streams."""
    return [
        _segment(BASE + 100 * MiB, 2 * MiB, [(MiB, "active_allocated"), (MiB, "inactive")], kind="small"),
        _segment(
            BASE, 20 * MiB, [(4 * MiB, "active_allocated"), (3 * MiB, "inactive"), (13 * MiB, "active_pending_free")]
        ),
        _segment(BASE + 40 * MiB, 10 * MiB, [(6 * MiB, "active_allocated"), (4 * MiB, "inactive")], stream=7),
    ]


def _human(n: int) -> str:
    """An independent reading of a byte count: one decimal in the largest binary unit it reaches."""
    units = ["B", "KiB", "MiB", "GiB", "TiB"]
    power = 0 if n < 1024 else min(int(math.log(n, 1024)), 4)
    return f"{n} B" if power == 0 else f"{n / 1024**power:.1f} {units[power]}"


def _expected_label(raw_segment: Any) -> str:
    return (
        f"{_human(raw_segment['total_size'])} @ 0x{raw_segment['address']:x} · {raw_segment['segment_type']} pool"
        f" · stream {raw_segment['stream']}"
    )


def _map(qtbot: Any, snap: Snapshot, layout: tuple[str, str], search: str = "") -> tuple[SegmentMapView, Any]:
    doc = SnapshotDocument(snap)
    doc.set_layout(*layout)  # type: ignore[arg-type]
    frame = doc.set_search(search)
    view = SegmentMapView()
    qtbot.addWidget(view)
    view.resize(1000, 650)
    view.show()
    qtbot.waitExposed(view)
    view.show_frame(frame, keep_range=False)
    QtWidgets.QApplication.processEvents()
    return view, doc


def test_labels_name_each_segment_as_the_pickle_does(qtbot: Any) -> None:
    raw = _three_segments()
    state = load_snapshot(pickle.dumps(raw)).state
    by_address = {seg["address"]: seg for seg in raw}
    for i in range(len(state.segments)):
        assert segment_label(state, i) == _expected_label(by_address[int(state.segments.address[i])])
    path = fixture_path("felix_dump_a.pickle")
    raw_real = {seg["address"]: seg for seg in load_raw(path)["segments"] if seg["device"] == 0}
    view, _ = _map(qtbot, load_snapshot(path), ("proportional", "size"))
    state = view.state
    assert state is not None and len(state.segments) == len(raw_real) == 12
    # zoomed to the whole map: 12 rows, tall enough for every label, in the rows' order, none over another
    labels, hints = view.labels.visible_labels()
    assert not hints and len(labels) == 12
    texts = [text.replace("\n", " · ") for _, text in labels]
    expected_order = sorted(raw_real.values(), key=lambda s: (-s["total_size"], s["address"]))
    assert texts == [_expected_label(seg) for seg in expected_order]
    boxes = [box for box, _ in labels]
    assert all(a.bottom() <= b.top() + 0.5 for a, b in itertools.pairwise(boxes))
    # zoomed into three rows: only their labels; zoomed out over many thin segments: none, and a hint instead
    view.view.setRange(QtCore.QRectF(0, 4, 1024, 3), padding=0)
    QtWidgets.QApplication.processEvents()
    assert len(view.labels.visible_labels()[0]) == 3
    many, _ = _map(qtbot, load_snapshot(fixture_path("muduard_dump_snapshot_a.pickle")), ("segment", "size"))
    labels, hints = many.labels.visible_labels()
    assert not labels and hints and "672 segments" in hints[0][1]


def test_the_proportional_layout_draws_segments_to_scale() -> None:
    state = load_snapshot(pickle.dumps(_three_segments())).state
    layout = map_layout(state, "proportional", "size", width=1000)
    image = rasterize(state, layout)
    # largest first; 20 MiB fills the 1000 columns, 10 MiB half of them, 2 MiB a tenth, the rest is background
    assert [int(a) - BASE for a in layout.row_start] == [0, 40 * MiB, 100 * MiB]
    assert [int((row != BACKGROUND).sum()) for row in image] == [1000, 500, 100]
    assert np.all(image[1, 500:] == BACKGROUND) and np.all(image[2, 100:] == BACKGROUND)
    stretched = rasterize(state, map_layout(state, "segment", "size", width=1000))
    assert [int((row != BACKGROUND).sum()) for row in stretched] == [1000, 1000, 1000]


def _block_by_hand(raw: dict[int, Any], layout: Any, row: int, x: float) -> int | None:
    """The address of the block under view point (row, x), from the raw pickle: None off every segment."""
    offset = int(x / layout.width * int(layout.row_span[row]))
    if not 0 <= x < layout.width or offset >= int(layout.row_used[row]):
        return None
    address = int(layout.row_start[row]) + offset
    segment = raw[int(layout.row_start[row])]
    found = [b["address"] for b in segment["blocks"] if b["address"] <= address < b["address"] + b["size"]]
    assert len(found) == 1
    return int(found[0])


def test_hover_and_click_agree_at_every_pixel_of_the_proportional_layout(qtbot: Any) -> None:
    path = fixture_path("felix_dump_a.pickle")
    raw = {seg["address"]: seg for seg in load_raw(path)["segments"] if seg["device"] == 0}
    view, _ = _map(qtbot, load_snapshot(path), ("proportional", "size"))
    state, layout = view.state, view.layout_info
    assert state is not None and layout is not None
    viewport = view.plot.viewport()
    left = view.plot.mapFromScene(view.view.mapViewToScene(QtCore.QPointF(0, 0))).x()
    right = view.plot.mapFromScene(view.view.mapViewToScene(QtCore.QPointF(layout.width, 0))).x()
    probes = []
    for row in range(len(layout)):
        y = view.plot.mapFromScene(view.view.mapViewToScene(QtCore.QPointF(0, row + 0.4))).y()
        for px in range(left - 2, right + 2):  # every screen pixel across the row, and a little past its ends
            scene = view.plot.mapToScene(QtCore.QPoint(px, y))
            found = view.block_at_scene(scene)
            point = view.view.mapSceneToView(scene)
            expected = _block_by_hand(raw, layout, int(np.floor(point.y())), point.x())
            assert (found < 0) == (expected is None), (row, px)
            if found >= 0:
                assert int(state.blocks.address[found]) == expected, (row, px)
                probes.append((px, y, found))
    # real mouse events at blocks' edges and middles: what the hover names is what the click picks
    edges = [i for i in range(1, len(probes) - 1) if probes[i - 1][2] != probes[i][2]]
    picks = sorted(set([probes[i] for i in edges[:12]] + probes[:: max(len(probes) // 8, 1)]))
    assert len(picks) >= 10  # all apart: a move to where the mouse already is would signal nothing
    # real mouse events on the map's viewport, a move then a click at each pixel; pyqtgraph drops moves that come
    # faster than a screen refreshes, so each move waits until the scene takes one
    scene = view.plot.scene()
    for px, y, block in picks:
        point = QtCore.QPoint(px, y)
        qtbot.waitUntil(scene._moveEventIsAllowed, timeout=5000)
        with qtbot.waitSignal(view.block_hovered, timeout=5000) as hovered:
            qtbot.mouseMove(viewport, point)
        with qtbot.waitSignal(view.block_clicked, timeout=5000) as clicked:
            qtbot.mouseClick(viewport, QtCore.Qt.MouseButton.LeftButton, pos=point)
        assert hovered.args == clicked.args == [block], (px, y)


def test_lines_between_segments_in_the_address_layout(qtbot: Any) -> None:
    raw = _three_segments()
    state = load_snapshot(pickle.dumps(raw)).state
    layout = map_layout(state, "address", "size")
    row_bytes = int(layout.row_span[0])
    rows = [-(-seg["total_size"] // row_bytes) for seg in sorted(raw, key=lambda s: s["address"])]
    starts = np.cumsum(rows)[:-1]  # the first row of every segment but the first
    xs, ys = boundary_lines(layout, ROW_PIXELS)
    assert len(xs) == len(ys) == 2 * (len(raw) - 1)
    assert np.allclose(ys[::2], starts - 0.5 / ROW_PIXELS) and np.all(xs[1::2] == layout.width)
    # on screen, a real file: one line per pair of neighbours while rows are tall enough; none in other layouts
    view, _ = _map(qtbot, load_snapshot(fixture_path("felix_dump_a.pickle")), ("address", "size"))
    assert view.state is not None and view.boundaries.xData is not None
    assert len(view.boundaries.xData) == 2 * (len(view.state.segments) - 1)
    view.show_frame(SnapshotDocument(load_snapshot(fixture_path("felix_dump_a.pickle"))).set_layout("segment"))
    assert view.boundaries.xData is None or len(view.boundaries.xData) == 0


def test_the_byte_scale_follows_the_zoom(qtbot: Any) -> None:
    view, _ = _map(qtbot, load_snapshot(pickle.dumps(_three_segments())), ("address", "size"))
    layout = view.layout_info
    assert layout is not None and view.scale.bytes_per_unit == int(layout.row_span[0]) / layout.width
    whole = view.scale.tickSpacing(0, layout.width, 800)[0][0] * view.scale.bytes_per_unit
    zoomed = view.scale.tickSpacing(0, layout.width / 16, 800)[0][0] * view.scale.bytes_per_unit
    assert zoomed < whole and all(math.log2(s) == int(math.log2(s)) for s in (whole, zoomed))
    assert view.scale.tickStrings([layout.width / 2], 1.0, 1.0) == [f"{int(layout.row_span[0]) // 2 // MiB} MiB"]
    stretched, _ = _map(qtbot, load_snapshot(pickle.dumps(_three_segments())), ("segment", "size"))
    assert stretched.scale.bytes_per_unit is None  # rows of different bytes: a share of each segment, not bytes
    assert stretched.scale.tickStrings([256.0], 1.0, 1.0) == ["25%"]


def test_search_rings_the_matches_and_leaves_their_colours(qtbot: Any) -> None:
    snap = load_snapshot(pickle.dumps(_three_segments()))
    view, doc = _map(qtbot, snap, ("proportional", "size"))
    before = view.image_data.copy()
    pending = BASE + 7 * MiB  # the pending free: it must stay purple, not turn into a hole-like wash
    view.show_frame(doc.set_search(f"{pending:#x}"))
    assert np.array_equal(view.image_data, before)
    assert view.overlay.image is None or not np.any(view.overlay.image[..., 3])
    # one rectangle around the 13 MiB block of the 20 MiB row 0: columns 7/20 to 20/20 of 1024, rows 0 to 0.75
    xs, ys = view.search_rings.ring.xData, view.search_rings.ring.yData
    x0, x1 = 7 * 1024 // 20, 1024
    assert set(np.round(ys, 3)) == {0.0, 0.75} and set(xs) == {x0, x1}
    assert view.selection_rings.ring.xData is None or len(view.selection_rings.ring.xData) == 0
    # the block picked in the table gets a ring of its own colour, the search's stays
    state = view.state
    assert state is not None
    picked = int(np.flatnonzero(state.blocks.address == BASE + 40 * MiB)[0])
    view.show_frame(doc.select_block(picked))
    assert np.array_equal(view.image_data, before)
    assert len(view.search_rings.ring.xData) > 0 and len(view.selection_rings.ring.xData) > 0
    assert set(np.round(view.selection_rings.ring.yData, 3)) == {1.0, 1.75}
    assert view.selection_rings.ring.opts["pen"].color() != view.search_rings.ring.opts["pen"].color()


def test_blocks_from_one_site_share_a_hue_whatever_the_cpp_path() -> None:
    # a site: the user's line and the library line below it (README, "Who holds the memory")
    snap = load_snapshot(fixture_path("cranberrii_memory_snapshot.pickle"))
    state = snap.state
    hue = (site_codes(state, snap.stacks).astype(int) - SITE_BASE) // 2
    by_site: dict[object, set[int]] = {}
    distinct_stacks: dict[object, set[int]] = {}
    for i, stack in enumerate(state.blocks.stack.tolist()):
        if stack < 0:
            continue
        key = stack_site_label(snap.stacks.stack(stack))
        by_site.setdefault(key, set()).add(int(hue[i]))
        distinct_stacks.setdefault(key, set()).add(stack)
    assert all(len(hues) == 1 for hues in by_site.values())
    assert any(len(stacks) > 1 for stacks in distinct_stacks.values())  # several C++ paths to one site: the case


def test_the_legend_shows_a_swatch_of_every_site_hue_the_map_draws(qtbot: Any) -> None:

    view = SegmentMapView()
    qtbot.addWidget(view)
    frame = SnapshotDocument(load_snapshot(fixture_path("cranberrii_memory_snapshot.pickle"))).frame()
    view.show_frame(frame)
    drawn = {int(c) for c in np.unique(frame.codes) if c >= SITE_BASE}
    hues = {palette.SITE_HUES[(c - SITE_BASE) // 2][0].lower() for c in drawn}
    assert len(hues) > 3
    swatches = {c.lower() for c in re.findall(r"color:(#[0-9a-fA-F]{6})", view.legend.text())}
    assert hues <= swatches
