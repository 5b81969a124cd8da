"""The timeline reads: a unit chosen by the file's peak, steps between events, an axis for an empty device, room."""

from __future__ import annotations

import pickle
from typing import Any

import numpy as np
import pytest

from gpumem_gui.assets import example_path
from gpumem_gui.core.analysis.timetravel import build_timeline
from gpumem_gui.core.snapshot.loader import load_snapshot
from gpumem_gui.document.curves import CHUNK, Envelope, memory_unit
from gpumem_gui.views.snapshot.timeline import TimelineView
from tests.conftest import fixture_path, load_raw

MiB, GiB = 1 << 20, 1 << 30
A = 0x7F0000000000


def _event(action: str, addr: int, size: int) -> dict[str, Any]:
    return {"action": action, "addr": addr, "size": size, "stream": 0, "time_us": 0, "frames": []}


# a 200 MiB segment; 150 MiB and 30 MiB allocated in it, then both freed (the segment stays, cached)
SMALL_TRACE = [
    _event("segment_alloc", A, 200 * MiB),
    _event("alloc", A, 150 * MiB),
    _event("alloc", A + 150 * MiB, 30 * MiB),
    _event("free_requested", A, 150 * MiB),
    _event("free_completed", A, 150 * MiB),
    _event("free_requested", A + 150 * MiB, 30 * MiB),
    _event("free_completed", A + 150 * MiB, 30 * MiB),
]
SMALL_ALLOCATED = [0, 150, 180, 30, 30, 0, 0]  # MiB after each event, worked out by hand
SMALL = {
    "segments": [
        {
            "device": 0, "address": A, "total_size": 200 * MiB, "allocated_size": 0, "active_size": 0,
            "requested_size": 0, "stream": 0, "segment_type": "large",
            "blocks": [{"address": A, "size": 200 * MiB, "requested_size": 0, "state": "inactive", "frames": []}],
        }
    ],
    "device_traces": [SMALL_TRACE],
}  # fmt: skip


def _view(qtbot: Any) -> TimelineView:
    view = TimelineView()
    qtbot.addWidget(view)
    view.resize(1000, 320)
    view.show()
    qtbot.waitExposed(view)
    return view


def _raw_peak_reserved(raw: dict[str, Any], device: int) -> int:
    """The most memory reserved at any point of the trace, from the pickle's own dicts: the final segments' total,
    walked back through the trace's segment events."""
    grow = {"segment_alloc": 1, "segment_map": 1, "segment_free": -1, "segment_unmap": -1}
    deltas = [grow.get(e["action"], 0) * e["size"] for e in raw["device_traces"][device]]
    final = sum(s["total_size"] for s in raw["segments"] if s["device"] == device)
    start = final - sum(deltas)
    return max([start, *(start + np.cumsum(deltas)).tolist()])


def test_the_unit_follows_the_peak() -> None:
    assert memory_unit(0) == ("MiB", MiB)
    assert memory_unit(GiB - 1) == ("MiB", MiB)
    assert memory_unit(GiB) == ("GiB", GiB)


@pytest.mark.parametrize("case", ["small", "cranberrii"])
def test_the_axis_reads_in_the_files_unit(qtbot: Any, case: str) -> None:
    raw = SMALL if case == "small" else load_raw(fixture_path("cranberrii_memory_snapshot.pickle"))
    peak = _raw_peak_reserved(raw, 0)
    unit, scale = ("GiB", GiB) if peak >= GiB else ("MiB", MiB)
    assert (case == "small") == (unit == "MiB")  # one case of each
    timeline = build_timeline(load_snapshot(pickle.dumps(raw)), 0)
    view = _view(qtbot)
    view.set_timeline(timeline)
    qtbot.wait(20)
    axis = view.plot.getAxis("left")
    assert axis.labelText == f"memory ({unit})"
    assert axis.autoSIPrefixScale == 1.0  # no "(x0.001)" under the label
    _bottom, top = view.plot.getViewBox().viewRange()[1]
    assert peak / scale <= top <= 1.2 * peak / scale  # the curves fill the axis: its top is the peak, in the unit
    assert view.plot.getAxis("right").labelText == "fragmentation (%)"


def test_memory_holds_between_events(qtbot: Any) -> None:
    """At any x between two events the curves show the value right after the first one (a step, not a slope)."""
    timeline = build_timeline(load_snapshot(pickle.dumps(SMALL)), 0)
    assert (timeline.series.allocated // MiB).tolist() == SMALL_ALLOCATED
    view = _view(qtbot)
    view.set_timeline(timeline)
    view._draw_curves()
    xs, ys = view.curves["allocated"].getData()
    for i in range(len(SMALL_TRACE) - 1):
        for x in (i + 0.01, i + 0.5, i + 0.99):
            k = int(np.searchsorted(xs, x))
            assert ys[k - 1] == ys[k] == SMALL_ALLOCATED[i], x  # in MiB: this file's peak is 200 MiB


def test_steps_keep_the_envelope_small_on_millions_of_events() -> None:
    y = np.random.default_rng(1).integers(0, 1 << 34, size=3_000_000)
    curve = Envelope(y)
    xs, ys = curve.step_points(None, 0, len(y) - 1, 800)
    assert len(xs) <= 4 * 800 + 1  # as few points as the plain envelope, doubled: no event-sized array
    assert ys.max() == y.max() and ys.min() == y.min()
    assert np.all(np.diff(xs) >= 0)
    near = curve.step_points(None, 1000.2, 1400.7, 800)  # few events in view: every event, as steps
    k = int(np.searchsorted(near[0], 1234.5))
    assert near[1][k - 1] == near[1][k] == y[1234]
    assert CHUNK == 64  # the chunks the envelope keeps are still what makes a 3M-event view cheap


def test_an_empty_device_has_a_sensible_axis(qtbot: Any) -> None:
    path = fixture_path("muduard_dump_snapshot_a.pickle")
    raw = load_raw(path)
    assert raw["device_traces"][1] == [] and all(s["device"] != 1 for s in raw["segments"])
    timeline = build_timeline(load_snapshot(path), 1)
    view = _view(qtbot)
    view.set_timeline(timeline)
    qtbot.wait(20)
    assert view.plot.getAxis("left").labelText == "memory (MiB)"
    bottom, top = view.plot.getViewBox().viewRange()[1]
    assert bottom == pytest.approx(0, abs=0.1) and top == pytest.approx(1, abs=0.1)
    assert view.empty_text.isVisible() and view.empty_text.toPlainText() == "no events on this device"
    view.set_timeline(build_timeline(load_snapshot(pickle.dumps(SMALL)), 0))
    assert not view.empty_text.isVisible()


def test_the_plot_has_room_and_the_legend_fits(qtbot: Any) -> None:
    view = _view(qtbot)
    view.set_timeline(build_timeline(load_snapshot(pickle.dumps(SMALL)), 0))
    view.resize(560, 100)  # squeezed, as a splitter would: the plot keeps its least height
    qtbot.wait(20)
    assert view.plot.height() >= 180 and view.minimumSizeHint().height() >= 180
    legend = view.legend
    assert legend.wordWrap() and legend.width() <= view.width()  # wrapped to the width, not clipped at the right
    assert legend.height() >= legend.heightForWidth(legend.width())  # all of its lines shown
    assert legend.geometry().top() >= view.plot.geometry().bottom()  # under the plot: over no curve


def test_the_legend_lists_the_marks_this_timeline_has(qtbot: Any) -> None:
    for name, has_oom in (("fragmented_oom", True), ("cache_reuse", False)):
        path = example_path(name)
        raw_trace = load_raw(path)["device_traces"][0]
        assert any(e["action"] == "oom" for e in raw_trace) == has_oom  # the oracle: the raw pickle
        snap = load_snapshot(path)
        view = TimelineView()
        qtbot.addWidget(view)
        view.set_timeline(build_timeline(snap, 0), snap.trace(0))
        assert ("OOM</span>" in view.legend.text()) == has_oom
        assert "record_function range" not in view.legend.text()  # neither example records any
