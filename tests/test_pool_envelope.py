"""Memory by pool: each pool's reserved and allocated bytes over the trace (hand-worked on a CUDA-graph-like trace,
summing to the timeline's series on real fixtures), the frame the view draws read back pixel by pixel, the window's
"by pool" tab, and `render --view pools`."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PySide6 import QtCore, QtGui

from gpumem_gui.core import load_snapshot
from gpumem_gui.core.analysis.pool_envelope import pool_envelope
from gpumem_gui.core.analysis.timetravel import build_timeline
from gpumem_gui.core.rules.allocator_constants import MiB
from gpumem_gui.render import render
from gpumem_gui.views.snapshot.pool_envelope import ENVELOPE, PoolEnvelopeView, pool_colour
from gpumem_gui.views.snapshot.tab import SnapshotTab
from tests.conftest import fixture_path
from tests.test_replay_private_pools import GRAPH_ALIVE, POOL, ROWS, WEIGHTS, WHILE_ALIVE, _snapshot


def _graph_timeline(pool_ids: bool = True) -> Any:
    return build_timeline(_snapshot(len(ROWS), [WEIGHTS], pool_ids=pool_ids), 0)


def test_each_pool_s_reserved_and_allocated_bytes_over_the_graph_trace() -> None:
    env = pool_envelope(_graph_timeline())
    assert env.pools == ((0, 0), POOL) and env.private
    # columns: before the first event, then right after each row (see ROWS)
    assert (env.reserved[0] // MiB).tolist() == [0] + [40] * 11 + [60] * 4 + [40] * 8
    assert (env.reserved[1] // MiB).tolist() == [0, 0, 0] + [12] * 2 + [32] * 17 + [20, 0]
    pooled = [0] * 4 + [12, 12, 20, 8, 8, 12, 4, 4] + [4] * 5 + [20, 4, 4, 0] + [0] * 3
    assert (env.allocated[1] // MiB).tolist() == pooled
    assert env.at(11) == [("default pool", 60 * MiB, 40 * MiB), (f"private pool {POOL}", 32 * MiB, 4 * MiB)]


@pytest.mark.parametrize("name", ["cranberrii_memory_snapshot.pickle", "constructor_memory_snapshot.pickle"])
def test_the_pools_sum_to_the_device_s_series(name: str) -> None:
    snapshot = load_snapshot(fixture_path(name))
    timeline = build_timeline(snapshot, snapshot.default_device())
    env = pool_envelope(timeline)
    s = timeline.series
    assert env.pools == ((0, 0),)  # these runs used no private pool
    assert np.array_equal(env.reserved.sum(axis=0), np.concatenate([[s.initial["reserved"]], s.reserved]))
    assert np.array_equal(env.allocated.sum(axis=0), np.concatenate([[s.initial["allocated"]], s.allocated]))


def _column(view: PoolEnvelopeView, x: float) -> dict[int, int]:
    """How many pixels of each colour the plot shows in the column at trace position x."""
    image = view.plot.grab().toImage()
    at = view.plot.mapFromScene(view.view_box.mapViewToScene(QtCore.QPointF(x, 0)))
    counts: dict[int, int] = {}
    for y in range(image.height()):
        rgb = image.pixel(at.x(), y)
        counts[rgb] = counts.get(rgb, 0) + 1
    return counts


def test_the_drawn_frame_stacks_each_pool_s_allocated_inside_its_envelope(qtbot: Any) -> None:
    view = PoolEnvelopeView()
    qtbot.addWidget(view)
    view.resize(1200, 600)
    view.show()
    qtbot.waitExposed(view)
    view.set_timeline(_graph_timeline())
    qtbot.waitUntil(lambda: len(view._drawn_events) > 0)
    default, pooled, grey = (QtGui.QColor(c).rgb() for c in (pool_colour(0), pool_colour(1), ENVELOPE))
    # right after row 8: the weights (40 MiB, the default pool's all), the pool's 12 MiB allocated (b and c) in its
    # 32 MiB envelope: 20 MiB of grey above the pool's fill
    column = _column(view, 8.5)
    assert column.get(pooled, 0) == pytest.approx(column[default] * 12 / 40, abs=2)
    assert column.get(grey, 0) == pytest.approx(column[default] * 20 / 40, abs=2)
    # right after row 1: the default pool alone
    column = _column(view, 1.5)
    assert column.get(pooled, 0) == 0 and column.get(grey, 0) == 0 and column[default] > 0
    view.set_event(11)
    assert "private pool (1, 0): 32.0 MiB reserved, 4.0 MiB allocated" in view.figures.text()


def test_the_window_has_a_by_pool_tab_that_follows_the_cursor(qtbot: Any) -> None:
    doc = SnapshotTab(_snapshot(GRAPH_ALIVE, WHILE_ALIVE, pool_ids=False))
    qtbot.addWidget(doc)
    doc.show()
    qtbot.waitUntil(lambda: not doc.settling())
    assert "by pool" in [doc.curve_tabs.tabText(i) for i in range(doc.curve_tabs.count())]
    doc.show_pools()
    pools = doc.pool_envelope
    assert pools.envelope is not None and pools.envelope.pools == ((0, 0), POOL)  # from the final segments
    doc.travel_to(5)
    assert pools.current_event == 5 and "32.0 MiB reserved, 20.0 MiB allocated" in pools.figures.text()


def test_the_pool_and_segment_views_are_made_when_their_tab_is_first_picked(qtbot: Any) -> None:
    from gpumem_gui.views.snapshot.pool_envelope import PoolEnvelopeView  # noqa: PLC0415
    from gpumem_gui.views.snapshot.segment_timeline import SegmentTimelineView  # noqa: PLC0415

    doc = SnapshotTab(_snapshot(GRAPH_ALIVE, WHILE_ALIVE, pool_ids=False))
    qtbot.addWidget(doc)
    doc.show()
    qtbot.waitUntil(lambda: not doc.settling())
    doc.travel_to(5)
    tabs = doc.curve_tabs
    titles = [tabs.tabText(i) for i in range(tabs.count())]
    # the whole tab is made, yet neither view is: their tabs hold pages standing in for them
    assert not doc.findChildren(PoolEnvelopeView) and not doc.findChildren(SegmentTimelineView)
    seen: list[int] = []
    tabs.currentChanged.connect(seen.append)
    tabs.setCurrentIndex(titles.index("by pool"))  # as a click on the tab
    (pools,) = doc.findChildren(PoolEnvelopeView)
    assert tabs.currentWidget() is pools and pools.isVisible()
    assert [tabs.tabText(i) for i in range(tabs.count())] == titles  # in the same place, under the same title
    assert seen == [titles.index("by pool")]  # one change of tab, the view's making none
    assert pools.envelope is not None and pools.current_event == 5  # filled, at the event shown
    assert "32.0 MiB reserved, 20.0 MiB allocated" in pools.figures.text()
    assert doc.pool_envelope is pools
    tabs.setCurrentIndex(titles.index("cached segments"))
    (segments,) = doc.findChildren(SegmentTimelineView)
    assert tabs.currentWidget() is segments and segments.series is not None and segments.current_event == 5
    doc.travel_to(7)  # the one shown follows the cursor
    assert segments.current_event == 7


def test_render_draws_the_pools_view(tmp_path: Path, qapp: Any) -> None:
    source = tmp_path / "graph.pickle"
    snapshot = {
        "segments": [WEIGHTS],
        "device_traces": [
            [
                {"action": a, "addr": addr, "size": size, "stream": 0, "time_us": 1000 + t}
                | ({"pool_id": POOL} if pooled else {})
                for t, (a, addr, size, pooled) in enumerate(ROWS)
            ]
        ],
    }
    source.write_bytes(pickle.dumps(snapshot))
    out = tmp_path / "pools.png"
    render(str(source), str(out), view="pools", size=(1000, 500))
    image = QtGui.QImage(str(out))
    assert (image.width(), image.height()) == (1000, 500)
    colours = {image.pixel(x, y) for x in range(0, 1000, 3) for y in range(0, 500, 3)}
    assert {QtGui.QColor(c).rgb() for c in (pool_colour(0), pool_colour(1), ENVELOPE)} <= colours


def test_view_memory_by_pool_brings_the_tab_forward(qtbot: Any) -> None:
    from gpumem_gui.app import MainWindow  # noqa: PLC0415
    from gpumem_gui.assets import example_path  # noqa: PLC0415

    window = MainWindow()
    qtbot.addWidget(window)
    window.open_files([str(example_path("graph_pool_order"))])
    window.wait_for_loads()
    doc = window.current_document()
    assert doc is not None
    (view_menu,) = [a.menu() for a in window.menuBar().actions() if a.text() == "&View"]
    (action,) = [a for a in view_menu.actions() if a.text() == "Memory by &Pool"]
    action.trigger()
    assert doc.curve_tabs.currentWidget() is doc.pool_envelope
    envelope = doc.pool_envelope.envelope
    assert envelope is not None and envelope.pools == ((0, 0), POOL)
    # at the OOM: the weights' 64 MiB in the default pool, the graph pool's 224 MiB (eight 16s, three 32s)
    assert [(name, reserved // MiB) for name, reserved, _ in envelope.at(envelope.reserved.shape[1] - 2)] == [
        ("default pool", 64),
        (f"private pool {POOL}", 224),
    ]
