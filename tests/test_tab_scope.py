"""The span, the flame graph and the age colouring in a real tab (pytest-qt), on the bundled training_leak example:
a step picked from the list or shift-dragged on the timeline re-scopes the map, the event list, the span page and
the flame graph; a clicked flame rectangle lights its blocks; the map's legend turns to the age scale. Checked
against the example's raw trace walked by hand."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from PySide6 import QtCore

from gpumem_gui.assets import example_path
from gpumem_gui.core import load_snapshot
from gpumem_gui.core.analysis.block_age import AGE_BASE
from gpumem_gui.core.analysis.span import Span
from gpumem_gui.core.rules.allocator_constants import MiB
from gpumem_gui.core.snapshot.model import BlockState
from gpumem_gui.views.snapshot.age_legend import duration
from gpumem_gui.views.snapshot.tab import SnapshotTab
from gpumem_gui.views.snapshot.tab_scope import TabScope
from tests.conftest import load_raw
from tests.site_oracle import raw_site

LEAK_SITE = "model/transformer.py:160:forward"


def leak_tab(qtbot: Any) -> SnapshotTab:
    """A shown tab of the training_leak example, every part made (its scope too)."""
    widget = SnapshotTab(load_snapshot(example_path("training_leak")))
    qtbot.addWidget(widget)
    widget.resize(1400, 900)
    widget.show()
    qtbot.waitUntil(lambda: not widget.settling() and widget.scope is not None, timeout=20_000)
    return widget


@pytest.fixture
def tab(qtbot: Any) -> SnapshotTab:
    return leak_tab(qtbot)


def _scope(tab: SnapshotTab) -> TabScope:
    assert tab.scope is not None
    return tab.scope


def _steps_by_hand() -> list[tuple[int, str]]:
    raw = list(load_raw(example_path("training_leak"))["device_traces"][0])
    return [(i, raw_site(e.get("frames", [])) or "") for i, e in enumerate(raw)]


def test_a_step_picked_from_the_list_names_the_one_site_it_left_memory_behind(qtbot: Any, tab: SnapshotTab) -> None:
    scope = _scope(tab)
    panel = scope.span_panel
    qtbot.waitUntil(lambda: panel.span_named("step 3") is not None, timeout=10_000)
    listed = [panel.span_box.itemText(i) for i in range(panel.span_box.count())]
    assert listed[:2] == ["whole trace", panel._spans[0].label]
    step = panel.span_named("step 3")
    assert step is not None
    panel.span_box.setCurrentIndex(panel._spans.index(step) + 1)
    panel.span_box.activated.emit(panel._spans.index(step) + 1)  # as a pick in the list
    assert tab.document.span == step and tab.frame.span == step
    assert tab.side_tabs.currentWidget() is panel
    qtbot.waitUntil(lambda: "Left behind" in panel.text.toPlainText(), timeout=10_000)
    text = panel.text.toPlainText()
    left = text[text.index("Left behind") : text.index("Held the peak")]
    assert "Left behind: 32.0 MiB in 1 block" in left
    assert [line for line in left.splitlines() if ".py:" in line] == [LEAK_SITE]  # the only site
    # the map travelled to the step's end and lights the one block it left behind: the raw trace's last alloc at
    # the leaking line inside the step, still at its address
    assert tab.current_event == step.end
    qtbot.waitUntil(lambda: tab.frame.spotlight is not None, timeout=10_000)
    lit = tab.frame.spotlight
    assert lit is not None and int(lit.mask.sum()) == 1
    leak_allocs = [i for i, site in _steps_by_hand() if step.start < i <= step.end and site == LEAK_SITE]
    assert len(leak_allocs) == 1
    raw = list(load_raw(example_path("training_leak"))["device_traces"][0])
    assert int(tab.frame.state.blocks.address[lit.mask][0]) == raw[leak_allocs[0]]["addr"]
    # the event list holds the step's events only, in order, as the raw trace numbers them
    events = tab.event_list.indices.tolist()
    assert events == [i for i, _site in _steps_by_hand() if step.start < i <= step.end]
    # the flame graph, once its tab is looked at: the leaked cost, one leaf, the leaking line
    tab.curve_tabs.setCurrentWidget(scope.flame_page)
    qtbot.waitUntil(lambda: scope.flame_frame is not None and scope.flame_frame.span == step, timeout=10_000)
    frame = scope.flame_frame
    assert frame is not None and frame.cost == "leaked"
    assert frame.leaves() == [(LEAK_SITE, 32 * MiB)]
    assert scope.flame_page.summary.text().startswith("bytes allocated in the span and still alive at its end: 32.0")
    # the whole trace again: no span anywhere
    panel.whole_button.click()
    assert tab.document.span is None and tab.event_list.filter.span is None
    assert not tab.timeline_view.span_drag.region.isVisible()


def test_a_shift_drag_on_the_timeline_selects_a_span(qtbot: Any, tab: SnapshotTab) -> None:
    scope = _scope(tab)
    view = tab.timeline_view
    box = view.plot.getViewBox()
    n = tab.document.n_events
    a, b = n // 4, n // 2
    box.span_dragged.emit(float(a), float(a + 3), False)  # during the drag the region follows, nothing chosen
    assert view.span_drag.region.isVisible() and tab.document.span is None
    box.span_dragged.emit(float(b), float(a), True)  # dragged leftwards: the same span
    assert tab.document.span == Span(a, b)
    assert view.span_drag.region.getRegion() == pytest.approx((a, b))
    assert scope.site_drag.region.isVisible()
    assert tab.event_list.indices.tolist() == list(range(a + 1, b + 1))
    qtbot.waitUntil(lambda: f"events {a + 1:,} to {b:,}" in scope.span_panel.text.toPlainText(), timeout=10_000)
    # a drag that covers no event leaves the span as it was
    box.span_dragged.emit(float(a), float(a), True)
    assert tab.document.span == Span(a, b)


def test_a_real_shift_drag_with_the_mouse(qtbot: Any, tab: SnapshotTab) -> None:
    view = tab.timeline_view
    box = view.plot.getViewBox()
    qtbot.waitExposed(view)
    lo, hi = box.viewRange()[0]
    y = box.sceneBoundingRect().center().y()

    def at(event: float) -> QtCore.QPoint:
        scene = box.mapViewToScene(QtCore.QPointF(event, 0))
        return view.plot.mapFromScene(QtCore.QPointF(scene.x(), y))

    n = tab.document.n_events
    start, end = at(n * 0.3), at(n * 0.6)
    shift = QtCore.Qt.KeyboardModifier.ShiftModifier
    qtbot.mousePress(view.plot.viewport(), QtCore.Qt.MouseButton.LeftButton, shift, start)
    for k in range(1, 11):
        qtbot.mouseMove(view.plot.viewport(), start + (end - start) * (k / 10))
    qtbot.mouseRelease(view.plot.viewport(), QtCore.Qt.MouseButton.LeftButton, shift, end)
    span = tab.document.span
    assert span is not None and lo <= span.start < span.end <= hi
    assert abs(span.start - n * 0.3) <= n * 0.03 and abs(span.end - n * 0.6) <= n * 0.03


def test_a_clicked_flame_rectangle_lights_its_blocks_and_draws_its_band(qtbot: Any, tab: SnapshotTab) -> None:
    scope = _scope(tab)
    tab.curve_tabs.setCurrentWidget(scope.flame_page)
    scope.flame_page.set_cost("leaked")  # over the whole trace: the six steps' hidden states
    qtbot.waitUntil(lambda: scope.flame_frame is not None and scope.flame_frame.cost == "leaked", timeout=10_000)
    frame = scope.flame_frame
    assert frame is not None
    row = [frame.label(i) for i in range(len(frame))].index(LEAK_SITE)
    scope.flame_page.graph.picked.emit(row)
    lit = tab.frame.spotlight
    assert lit is not None
    blocks = tab.frame.state.blocks
    at_end = blocks.state[lit.mask]
    assert len(at_end) == 6 and set(at_end.tolist()) == {BlockState.ALLOCATED}
    assert set(blocks.size[lit.mask].tolist()) == {32 * MiB}
    # its band on the site timeline, in that timeline's unit: six steps' 32 MiB at the most; looking at another tab
    # keeps the map's light where the click put it
    tab.curve_tabs.setCurrentWidget(tab.site_timeline)
    assert tab.frame.spotlight is not None and tab.frame.spotlight.caption.startswith(LEAK_SITE)
    assert tab.site_timeline.unit == "GiB"
    _x, y = scope.band.getData()
    assert y is not None and float(np.max(y)) * tab.site_timeline.unit_scale == pytest.approx(6 * 32 * MiB)


def test_the_map_coloured_by_age_shows_its_scale(qtbot: Any, tab: SnapshotTab) -> None:
    box = tab.controls.colouring_box
    assert box.currentData() == "site"
    assert "by age" not in tab.map.legend.text()
    box.setCurrentIndex(box.findData("age"))
    assert tab.frame.colouring == "age"
    assert "allocated, by age" in tab.map.legend.text()
    assert tab.frame.age_legend[0].label in tab.map.legend.text()
    allocated = tab.frame.state.blocks.state == BlockState.ALLOCATED
    codes = set(np.unique(tab.frame.codes).tolist())
    assert allocated.any() and any(c >= AGE_BASE for c in codes)
    box.setCurrentIndex(box.findData("site"))
    assert tab.frame.colouring == "site" and "by age" not in tab.map.legend.text()


def test_the_age_scale_reads_its_times_in_a_person_s_units() -> None:
    assert [duration(s) for s in (2e-6, 4.5e-3, 12.0, 192.0, 5400.0, 9000.0)] == [
        "2 µs",
        "4.5 ms",
        "12 s",
        "3.2 min",
        "90 min",
        "2.5 h",
    ]
