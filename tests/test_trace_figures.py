"""A report's trace figures (peaks, OOMs, warnings) come from a replay that keeps no per-event column: they equal
the timeline's, on a hand-worked trace, a broken one, the real fixtures and synthetic traces, in both twins."""

from __future__ import annotations

import pickle
from typing import Any

import pytest

from gpumem_gui.core import load_snapshot
from gpumem_gui.core.allocator.synthetic import synthetic_snapshot
from gpumem_gui.core.analysis.report import build_report
from gpumem_gui.core.analysis.timetravel import build_timeline, compiled_replay_available, trace_figures
from gpumem_gui.core.snapshot.model import Snapshot
from tests.conftest import FIXTURE_NAMES, fixture_path, trace_entry

MB = 1 << 20
A = 0x7F00_0000_0000
B = A + 64 * MB  # a second segment, far from the first


def _hand_worked() -> dict[str, Any]:
    """Two 20 MB segments come and go; 8 MB and 4 MB live together in the first (a large-pool split: the rest is
    over 1 MB), then 6 MB in the second while the 4 MB block lives on: reserved peaks at 40 MB, allocated at 12 MB
    (8 + 4, more than 4 + 6). An OOM asks for 30 MB. Nothing is left at the end: the final snapshot is empty."""
    oom = trace_entry("oom", 0, 30 * MB, 4) | {"device_free": 3 * MB}
    events = [
        trace_entry("segment_alloc", A, 20 * MB, 1),
        trace_entry("alloc", A, 8 * MB, 2),
        trace_entry("alloc", A + 8 * MB, 4 * MB, 3),
        oom,
        trace_entry("free_requested", A, 8 * MB, 5),
        trace_entry("free_completed", A, 8 * MB, 6),
        trace_entry("segment_alloc", B, 20 * MB, 7),
        trace_entry("alloc", B, 6 * MB, 8),
        trace_entry("free_requested", B, 6 * MB, 9),
        trace_entry("free_completed", B, 6 * MB, 10),
        trace_entry("free_requested", A + 8 * MB, 4 * MB, 11),
        trace_entry("free_completed", A + 8 * MB, 4 * MB, 12),
        trace_entry("segment_free", B, 20 * MB, 13),
        trace_entry("segment_free", A, 20 * MB, 14),
    ]
    return {"segments": [], "device_traces": [events]}


def _broken() -> dict[str, Any]:
    """The hand-worked trace with a free of a block that never lived and a second allocation of a live address:
    the replay skips both and says so; the figures must carry the same words."""
    dump = _hand_worked()
    events = dump["device_traces"][0]
    events.insert(3, trace_entry("free_completed", A + 19 * MB, MB, 3))
    events.insert(3, trace_entry("alloc", A, 2 * MB, 3))
    return dump


def _snapshots() -> list[tuple[str, Snapshot]]:
    found = [(name, load_snapshot(fixture_path(name))) for name in FIXTURE_NAMES]
    found += [
        ("hand-worked", load_snapshot(pickle.dumps(_hand_worked()))),
        ("broken", load_snapshot(pickle.dumps(_broken()))),
    ]
    for seed in range(2):
        dump = synthetic_snapshot(5000, seed=seed, streams=2, devices=2, pending_fraction=0.2)
        found.append((f"synthetic-{seed}", load_snapshot(pickle.dumps(dump))))
    return found


def test_hand_worked_peaks_and_oom(twin: str) -> None:
    snap = load_snapshot(pickle.dumps(_hand_worked()))
    figures = trace_figures(snap, 0)
    assert (figures.n_events, figures.peak_reserved, figures.peak_allocated) == (14, 40 * MB, 12 * MB)
    assert [(o.index, o.requested_bytes, o.device_free_bytes) for o in figures.ooms] == [(3, 30 * MB, 3 * MB)]
    assert figures.warnings == []


def test_broken_trace_warns_as_the_timeline_does(twin: str) -> None:
    snap = load_snapshot(pickle.dumps(_broken()))
    figures = trace_figures(snap, 0)
    assert figures.warnings  # the broken events are named, not passed over
    assert figures == build_timeline(snap, 0).figures()


@pytest.mark.skipif(not compiled_replay_available(), reason="compiled kernels not built")
def test_figures_equal_both_timelines() -> None:
    for name, snap in _snapshots():
        for device in snap.devices():
            expected = build_timeline(snap, device, compiled=False).figures()
            assert build_timeline(snap, device, compiled=True).figures() == expected, name
            assert trace_figures(snap, device, compiled=True) == expected, name
            assert trace_figures(snap, device, compiled=False) == expected, name


def test_report_at_the_last_event_equals_the_report_at_the_snapshot(twin: str) -> None:
    """With --at the figures come from the timeline, without it from the replay without columns: the same."""
    for name, snap in _snapshots()[-3:]:
        for device in snap.devices():
            last = len(snap.trace(device)) - 1
            at_end, at_snapshot = build_report(snap, device, at=last)[0], build_report(snap, device)[0]
            assert at_end.trace == at_snapshot.trace, name
            assert at_end.as_dict() | {"at_event": None} == at_snapshot.as_dict(), name
