"""The site timeline: bands drawn from the stacked series, a click travels and picks the band under the pointer, the
legend reads each band's bytes at the cursor, the groupings switch, and a zoom re-samples the range in view."""

from __future__ import annotations

import html
from functools import cache
from typing import Any

import numpy as np
import pytest
from PySide6 import QtCore, QtGui, QtWidgets

from gpumem_gui.core import load_snapshot
from gpumem_gui.core.analysis.site_series import GROUPINGS, SiteSeries, build_site_series
from gpumem_gui.core.analysis.timetravel import DeviceTimeline, build_timeline
from gpumem_gui.core.snapshot.model import Snapshot
from gpumem_gui.core.snapshot.units import format_bytes
from gpumem_gui.views.snapshot.site_timeline import SiteTimelineView, band_colour, short_label
from tests.conftest import fixture_path

Qt = QtCore.Qt


@cache
def _cranberrii() -> tuple[Snapshot, DeviceTimeline, SiteSeries]:
    snapshot = load_snapshot(fixture_path("cranberrii_memory_snapshot.pickle"))
    timeline = build_timeline(snapshot, 0)
    return snapshot, timeline, build_site_series(snapshot, timeline)


@pytest.fixture
def view(qtbot: Any) -> SiteTimelineView:
    widget = SiteTimelineView()
    qtbot.addWidget(widget)
    widget.resize(1300, 520)
    widget.show()
    qtbot.waitExposed(widget)
    snapshot, timeline, series = _cranberrii()
    widget.set_document(snapshot, timeline, series)
    return widget


def _mouse(view: SiteTimelineView, kind: QtCore.QEvent.Type, at: QtCore.QPoint) -> None:
    press = kind == QtCore.QEvent.Type.MouseButtonPress
    viewport = view.plot.viewport()
    event = QtGui.QMouseEvent(
        kind,
        QtCore.QPointF(at),
        QtCore.QPointF(viewport.mapToGlobal(at)),
        Qt.MouseButton.LeftButton,
        Qt.MouseButton.LeftButton if press else Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
    )
    QtWidgets.QApplication.sendEvent(viewport, event)


def _click(view: SiteTimelineView, x: float, y: float) -> None:
    at = view.plot.mapFromScene(view.view_box.mapViewToScene(QtCore.QPointF(x, y)))
    _mouse(view, QtCore.QEvent.Type.MouseButtonPress, at)
    _mouse(view, QtCore.QEvent.Type.MouseButtonRelease, at)


def test_the_drawn_stack_is_the_allocated_series_at_the_drawn_events(view: SiteTimelineView, qtbot: Any) -> None:
    _snapshot, timeline, series = _cranberrii()
    bands = series.groupings["site"]
    assert len(view.curves) == len(bands.bands) == view.legend.rowCount()
    qtbot.waitUntil(lambda: len(view._drawn_events) > 0)
    events = view._drawn_events[:-1].astype(np.int64)  # the last point only holds the last value to the edge
    s = timeline.series
    allocated = np.concatenate([[int(s.initial["allocated"])], s.allocated])
    assert np.allclose(view._drawn_tops[-1, :-1] * view.unit_scale, allocated[events + 1])
    # every peak of the total is drawn, though a 10,000-event trace gets a few hundred columns
    assert view._drawn_tops[-1].max() * view.unit_scale == allocated.max()
    assert view.legend.item(0, 0).text() == short_label(bands.bands[0].label)


def test_a_click_on_a_band_travels_there_and_picks_that_band(view: SiteTimelineView, qtbot: Any) -> None:
    _snapshot, timeline, series = _cranberrii()
    bands = series.groupings["site"]
    peak = int(np.argmax(timeline.series.allocated))
    view.view_box.setXRange(peak - 60, peak + 60, padding=0)  # every event drawn: a column is several pixels
    qtbot.waitUntil(lambda: len(view._drawn_events) > 0 and view._drawn_events[0] >= peak - 61)
    at = peak - 20
    values = bands.band_at(at)
    tops = np.cumsum(values) / view.unit_scale
    picked: list[tuple[str, object, str]] = []
    travelled: list[int] = []
    view.band_selected.connect(lambda kind, key, label: picked.append((kind, key, label)))
    view.event_selected.connect(travelled.append)
    thick = [k for k in range(len(values)) if values[k] > 0.05 * tops[-1] * view.unit_scale]
    assert len(thick) >= 3
    for k in thick:
        middle = (tops[k] - values[k] / view.unit_scale / 2) if k else tops[0] / 2
        _click(view, at + 0.5, middle)
        assert picked[-1] == ("site", bands.bands[k].key, bands.bands[k].label)
        assert travelled[-1] == at or travelled[-1] == at + 1  # the click travels to the event under the pointer
        assert view.legend.currentRow() == k
    count = len(picked)
    _click(view, at + 0.5, tops[-1] * 1.02)  # above the stack: no band
    assert len(picked) == count


def test_the_legend_reads_each_band_at_the_cursor_and_the_details_at_its_peak(view: SiteTimelineView) -> None:
    _snapshot, _timeline, series = _cranberrii()
    bands = series.groupings["site"]
    seen: list[int] = []
    view.event_selected.connect(seen.append)
    view.set_event(2000, emit=False)
    assert seen == []
    assert [view.legend.item(r, 1).text() for r in range(len(bands.bands))] == [
        format_bytes(int(v)) for v in bands.band_at(2000)
    ]
    view.select_band(1)
    band = bands.bands[1]
    text = view.info.text()
    assert html.escape(short_label(band.label)) in text and format_bytes(band.peak_bytes) in text
    assert f"right after event {band.peak_event:,}" in text
    assert format_bytes(int(bands.band_at(2000)[1])) in text
    assert view.stack.isVisibleTo(view) and view.stack.frames_shown()
    view.set_event(band.peak_event, emit=False)  # the details follow the cursor
    assert f"<b>{format_bytes(band.peak_bytes)}</b> right after event {band.peak_event:,}" in view.info.text()


def test_the_groupings_switch_and_a_zoom_resamples_the_range_in_view(view: SiteTimelineView, qtbot: Any) -> None:
    _snapshot, _timeline, series = _cranberrii()
    for kind in GROUPINGS:
        view.kind_box.setCurrentIndex(GROUPINGS.index(kind))
        assert view.kind == kind
        labels = [view.legend.item(r, 0).text() for r in range(view.legend.rowCount())]
        named = [f"{b.label} pool" if kind == "pool" else short_label(b.label) for b in series.groupings[kind].bands]
        assert labels == named  # a pool band as the breakdown names it: "large pool"
        assert len(view.curves) == len(labels)
    view.set_kind("category")
    assert "before recording" in [view.legend.item(r, 0).text() for r in range(view.legend.rowCount())]
    view.view_box.setXRange(5000, 5400, padding=0)
    qtbot.waitUntil(lambda: len(view._drawn_events) > 0 and view._drawn_events[0] >= 4999)
    events = view._drawn_events[:-1]
    assert events[0] <= 5000 and events[-1] >= 5400 and len(events) <= 402
    with pytest.raises(ValueError, match="unknown grouping"):
        view.set_kind("colour")


def test_the_bands_are_computed_off_the_gui_thread_when_not_given(qtbot: Any) -> None:
    snapshot = load_snapshot(fixture_path("magma27_memory_snapshot.pickle"))
    timeline = build_timeline(snapshot, 0)
    widget = SiteTimelineView()
    qtbot.addWidget(widget)
    widget.set_document(snapshot, timeline)
    qtbot.waitUntil(lambda: all(k in widget.groupings for k in GROUPINGS), timeout=10_000)
    assert widget.is_ready() and len(widget.curves) == len(widget.groupings["site"].bands)
    expected = build_site_series(snapshot, timeline)
    for kind in GROUPINGS:
        assert [b.key for b in widget.groupings[kind].bands] == [b.key for b in expected.groupings[kind].bands]


def test_a_file_without_a_trace_draws_its_live_blocks(qtbot: Any) -> None:
    snapshot = load_snapshot(fixture_path("felix_dump_a.pickle"))
    timeline = build_timeline(snapshot, 0)
    widget = SiteTimelineView()
    qtbot.addWidget(widget)
    widget.resize(900, 400)
    widget.show()
    widget.set_document(snapshot, timeline, build_site_series(snapshot, timeline))
    qtbot.waitUntil(lambda: len(widget._drawn_events) > 0)
    assert widget._drawn_tops[-1, 0] * widget.unit_scale == timeline.series.initial["allocated"]
    assert widget.legend.item(0, 1).text() == format_bytes(int(timeline.series.initial["allocated"]))


def test_a_click_travels_before_it_picks_and_the_band_s_mask_is_its_blocks_there(view: SiteTimelineView) -> None:
    _snapshot, timeline, series = _cranberrii()
    bands = series.groupings["site"]
    order: list[str] = []
    view.event_selected.connect(lambda _i: order.append("travel"))
    view.band_selected.connect(lambda *_a: order.append("band"))
    at = int(np.argmax(timeline.series.allocated))
    _click(view, at + 0.5, float(bands.band_at(at)[0]) / view.unit_scale / 2)
    assert order == ["travel", "band"]  # the window's spotlight is set for the moment travelled to
    state = timeline.state_at(view.current_event)
    mask = view.mask_of("site", bands.bands[0].key)(state)
    assert int(state.blocks.size[mask].sum()) == int(bands.band_at(view.current_event)[0]) > 0


def _selected_in_view(view: SiteTimelineView, qtbot: Any, k: int) -> int:
    """Band `k` picked over a stretch around the peak where every event is several pixels wide; the event at its
    middle (a step held for several pixels either side of it)."""
    _snapshot, timeline, _series = _cranberrii()
    peak = int(np.argmax(timeline.series.allocated))
    view.view_box.setXRange(peak - 60, peak + 60, padding=0)
    qtbot.waitUntil(lambda: len(view._drawn_events) > 0 and view._drawn_events[0] >= peak - 61)
    view.select_band(k)
    QtWidgets.QApplication.processEvents()
    return peak - 20


def test_a_picked_band_is_drawn_in_place_and_the_bands_under_it_stay_seen(view: SiteTimelineView, qtbot: Any) -> None:
    """Issue 26: a picked band was filled down to zero over the others (a 12.7 GiB site read as 25-38 GiB). Read
    from the picture: in the middle of each band under the picked one its own colour shows, and the picked one's
    colour shows in its own stretch of the stack."""
    _snapshot, _timeline, series = _cranberrii()
    bands = series.groupings["site"]
    k = 3
    at = _selected_in_view(view, qtbot, k)
    values = bands.band_at(at) / view.unit_scale
    tops = np.cumsum(values)
    assert all(values[: k + 1] > 0.05 * tops[-1])  # the picked band and each under it thick enough to read
    picture = view.plot.grab().toImage()

    def colour_at(y: float) -> str:
        point = view.plot.mapFromScene(view.view_box.mapViewToScene(QtCore.QPointF(at + 0.5, y)))
        return QtGui.QColor(picture.pixel(point)).name()

    for under in range(k):
        assert colour_at(tops[under] - values[under] / 2) == band_colour(bands.bands[under], under)
    assert colour_at(tops[k] - values[k] / 2) == band_colour(bands.bands[k], k)


def test_the_picked_band_s_outline_spans_its_own_lower_to_upper_edge(view: SiteTimelineView, qtbot: Any) -> None:
    """The picked band's drawn outline, against the band series: its upper edge is the sum of the bands up to it,
    its lower edge the sum of those under it, at every drawn event, not zero."""
    _snapshot, _timeline, series = _cranberrii()
    bands = series.groupings["site"]
    k = 3
    _selected_in_view(view, qtbot, k)
    assert view.selection_fill.isVisible()
    x, y = (np.asarray(a) for a in view.selection_fill.getData())
    n = len(view._drawn_events)
    upper_x, upper_y = x[: 2 * n - 1][0::2], y[: 2 * n - 1][0::2]
    lower_x, lower_y = x[2 * n - 1 :][::-1][0::2], y[2 * n - 1 :][::-1][0::2]
    assert np.array_equal(upper_x, view._drawn_events) and np.array_equal(lower_x, view._drawn_events)
    events = view._drawn_events[:-1].astype(np.int64)  # the last point holds the last value to the view's edge
    by_event = bands.at(events)
    assert np.allclose(upper_y[:-1] * view.unit_scale, by_event[: k + 1].sum(axis=0))
    assert np.allclose(lower_y[:-1] * view.unit_scale, by_event[:k].sum(axis=0))
    assert lower_y.min() > 0  # around the peak the bands under it hold memory: no fill from zero
    view.set_kind("category")  # another grouping: nothing is picked
    assert not view.selection_fill.isVisible()
