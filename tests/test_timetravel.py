"""Time travel: the state after any event, rebuilt from the final snapshot, checked against ground truth."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from gpumem_gui.core import AllocatorState, BlockState, load_snapshot
from gpumem_gui.core.allocator.synthetic import synthetic_run, synthetic_snapshot
from gpumem_gui.core.analysis import replay_warnings
from gpumem_gui.core.analysis.metrics import compute_metrics
from gpumem_gui.core.analysis.timetravel import (
    KEYFRAME_INTERVAL,
    DeviceTimeline,
    build_timeline,
    compiled_replay_available,
)
from gpumem_gui.core.rules.allocator_rules import AllocatorConfig
from gpumem_gui.core.snapshot.model import Action, Snapshot
from tests.conftest import fixture_path, load_raw


def _layout(state: AllocatorState) -> list[tuple[Any, ...]]:
    """Segments and blocks as comparable tuples (requested sizes of free blocks are stale in real files)."""
    seg, blk = state.segments, state.blocks
    rows = []
    for i in range(len(seg)):
        start, count = int(seg.block_start[i]), int(seg.block_count[i])
        blocks = tuple(
            (
                int(blk.address[j]),
                int(blk.size[j]),
                int(blk.state[j]),
                int(blk.requested_size[j]) if blk.state[j] != BlockState.INACTIVE else 0,
            )
            for j in range(start, start + count)
        )
        rows.append((int(seg.address[i]), int(seg.total_size[i]), int(seg.stream[i]), bool(seg.is_small[i]), blocks))
    return rows


def _check_consistent(state: AllocatorState) -> None:
    seg, blk = state.segments, state.blocks
    assert np.all(blk.size > 0)
    assert np.all(seg.total_size > 0)
    for i in range(len(seg)):
        start, count = int(seg.block_start[i]), int(seg.block_count[i])
        sizes = blk.size[start : start + count]
        addrs = blk.address[start : start + count]
        assert int(sizes.sum()) == int(seg.total_size[i])
        assert addrs[0] == seg.address[i]
        assert np.array_equal(addrs[1:], addrs[:-1] + sizes[:-1])  # contiguous
    if len(seg) > 1:
        ends = seg.address[:-1] + seg.total_size[:-1]
        assert np.all(ends <= seg.address[1:])  # no overlap


def _timelines(snap: Snapshot) -> list[DeviceTimeline]:
    return [build_timeline(snap, d) for d in snap.devices()]


def test_real_traces_replay_onto_the_final_snapshot(real_snapshot_path: Path) -> None:
    snap = load_snapshot(real_snapshot_path)
    for tl in _timelines(snap):
        assert tl.warnings == []
        assert tl.rule_mismatches == 0  # the split rule predicted every live block's size
        if tl.n_events == 0:
            assert tl.state_at(-1) is tl.final
            continue
        # forwards from the state before the first event, the replay lands exactly on the final snapshot
        assert _layout(tl.derive_state(tl.n_events - 1)) == _layout(tl.final)
        before = tl.state_at(-1)
        _check_consistent(before)
        for i in np.linspace(0, tl.n_events - 1, 25).astype(int):
            _check_consistent(tl.state_at(int(i)))


def test_series_agree_with_the_state_at_each_event(real_snapshot_path: Path) -> None:
    snap = load_snapshot(real_snapshot_path)
    config = AllocatorConfig.from_snapshot_settings(snap.allocator_settings)
    for tl in _timelines(snap):
        s = tl.series
        points = [-1, *np.linspace(0, tl.n_events - 1, 15).astype(int).tolist()] if tl.n_events else [-1]
        for i in points:
            m = compute_metrics(tl.state_at(i), config)
            values = s.initial if i < 0 else {name: getattr(s, name)[i] for name in s.initial}
            assert values["reserved"] == m.reserved_bytes
            assert values["allocated"] == m.allocated_bytes
            assert values["requested"] == m.requested_bytes
            assert values["active"] == m.active_bytes
            assert values["free"] == m.free_bytes
            assert values["largest_free"] == m.largest_free_block_bytes
            assert values["segments"] == m.segments
            assert values["external_fragmentation"] == pytest.approx(m.external_fragmentation)


def test_expandable_segments_map_and_unmap() -> None:
    path = fixture_path("constructor_memory_snapshot.pickle")
    raw = load_raw(path)["device_traces"][1]  # the trace as the standard unpickler reads it
    snap = load_snapshot(path)
    tl = build_timeline(snap, 1)
    t = snap.traces[1]
    unmaps = np.flatnonzero(t.action == Action.SEGMENT_UNMAP)
    assert unmaps.tolist() == [i for i, e in enumerate(raw) if e["action"] == "segment_unmap"] and len(unmaps)
    i = int(unmaps[0])
    before, after = tl.state_at(i - 1), tl.state_at(i)
    assert int(before.segments.total_size.sum()) - int(after.segments.total_size.sum()) == int(t.size[i])
    assert np.all(after.segments.is_expandable)
    [oom] = tl.ooms
    assert raw[oom.index]["action"] == "oom"
    assert (oom.device_free_bytes, oom.requested_bytes) == (raw[oom.index]["device_free"], raw[oom.index]["size"])


@pytest.mark.parametrize(
    "options",
    [
        {"seed": 1},
        {"seed": 2, "streams": 3, "pending_fraction": 0.3},
        {"seed": 3, "devices": 2, "streams": 2},
    ],
)
def test_generated_traces_match_the_generators_own_states(options: dict[str, Any]) -> None:
    events = 3 * KEYFRAME_INTERVAL + 123  # several keyframes
    dump, truth = synthetic_run(events, capture_every=997, **options)
    snap = load_snapshot(pickle.dumps(dump))
    for device, captured in truth.items():
        tl = build_timeline(snap, device)
        assert tl.warnings == []
        assert tl.n_events == events
        assert len(captured) >= 10
        for index, segments in captured.items():
            expected = load_snapshot(pickle.dumps({"segments": segments})).state
            assert _layout(tl.state_at(index)) == _layout(expected), index
        # before the first event: blocks allocated before recording began are there, and all is consistent
        start = tl.state_at(-1)
        _check_consistent(start)
        assert np.any(start.blocks.state == BlockState.ALLOCATED)


def test_ring_buffer_cut_between_free_requested_and_completed() -> None:
    dump, _ = synthetic_run(2000, seed=5, pending_fraction=0.5)
    trace = dump["device_traces"][0]
    # cut where a pending free's request is dropped but its completion kept
    cut = next(
        i for i, e in enumerate(trace) if e["action"] == "free_requested" and trace[i + 1]["action"] != "free_completed"
    )
    dump["device_traces"][0] = trace[cut + 1 :]
    snap = load_snapshot(pickle.dumps(dump))
    tl = build_timeline(snap, 0)
    assert tl.warnings == []
    start = tl.state_at(-1)
    _check_consistent(start)
    assert np.any(start.blocks.state == BlockState.PENDING_FREE)
    assert _layout(tl.derive_state(tl.n_events - 1)) == _layout(tl.final)


def test_jumps_use_keyframes_and_reject_out_of_range() -> None:
    dump, _ = synthetic_run(2 * KEYFRAME_INTERVAL + 10, seed=9)
    snap = load_snapshot(pickle.dumps(dump))
    tl = build_timeline(snap, 0)
    assert len(tl.keyframes) == 3
    with pytest.raises(IndexError):
        tl.state_at(tl.n_events)
    with pytest.raises(IndexError):
        tl.state_at(-2)
    # consecutive states differ by at most the one event between them
    for i in (KEYFRAME_INTERVAL - 1, KEYFRAME_INTERVAL, KEYFRAME_INTERVAL + 1):
        a, b = tl.state_at(i - 1), tl.state_at(i)
        changed = set(_layout(a)) ^ set(_layout(b))
        assert len(changed) <= 4


def test_annotation_ranges_of_the_constructor_fixture() -> None:
    from gpumem_gui.core.snapshot.annotations import annotation_ranges  # noqa: PLC0415

    snap = load_snapshot(fixture_path("constructor_memory_snapshot.pickle"))
    ranges = annotation_ranges(snap, 0)
    assert ranges and all(0 <= a <= b < len(snap.trace(0)) for a, b, _ in ranges)
    names = {name for _, _, name in ranges}
    assert names == {
        "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__",
        "Optimizer.zero_grad#AdamW.zero_grad",
    }


def test_both_replay_twins_word_their_warnings_from_the_one_table() -> None:
    dump = synthetic_snapshot(300, seed=3)
    trace = dump["device_traces"][0]
    n, stray, time_us = len(trace), 1 << 60, trace[-1]["time_us"]
    # a block far past every segment: the backward pass finds its events well paired, only the replay trips on it
    for k, action in enumerate(("alloc", "free_requested", "free_completed")):
        trace.append({"action": action, "addr": stray, "size": 512, "stream": 0, "time_us": time_us + k, "frames": []})
    snap = load_snapshot(pickle.dumps(dump))
    expected = [
        f"event {n}: alloc of {stray:#x} outside every segment",
        f"event {n + 1}: free_requested of {stray:#x}, which is not live",
        f"event {n + 2}: free_completed of {stray:#x}, which is not live",
    ]
    assert build_timeline(snap, 0, compiled=False).warnings == expected
    if compiled_replay_available():
        assert build_timeline(snap, 0, compiled=True).warnings == expected


def test_the_warning_table_words_every_code_once() -> None:
    codes = {name: code for name, code in vars(replay_warnings).items() if name.startswith("W_")}
    assert len(set(codes.values())) == len(codes)  # no two warnings share a code
    assert set(codes.values()) == set(replay_warnings.WARNING_TEXTS)
    for code in codes.values():
        assert f"{0xABC00:#x}" in replay_warnings.warning_text(code, 7, 0xABC00)
