"""Each cached segment's life (created, grown, freed) from the timeline's pieces, checked against the raw trace."""

from __future__ import annotations

import pickle
from collections import defaultdict
from pathlib import Path

import numpy as np

from gpumem_gui.core import load_snapshot
from gpumem_gui.core.allocator.simulator import DeviceAllocatorSim
from gpumem_gui.core.analysis.segment_lives import segment_lives, segment_series
from gpumem_gui.core.analysis.timetravel import NEVER, build_timeline
from tests.conftest import fixture_path, load_raw

MiB = 1 << 20


def _lives(dump: dict[str, object]) -> list[tuple[int, list[int], list[int]]]:
    snapshot = load_snapshot(pickle.dumps(dump))
    lives = segment_lives(build_timeline(snapshot, 0).pieces)
    return [(life.address, life.events.tolist(), life.sizes.tolist()) for life in lives]


def test_plain_segments_live_from_their_cudamalloc_to_their_cudafree() -> None:
    sim = DeviceAllocatorSim(8 << 30)
    a = sim.malloc(30 * MiB)  # 0 segment_alloc (30 MiB: >= 10 MiB, rounded to 2 MiB), 1 alloc
    sim.malloc(1000)  # 2 segment_alloc of a small 2 MiB segment, 3 alloc
    sim.free(a)  # 4 free_requested, 5 free_completed
    sim.empty_cache()  # 6 segment_free of the 30 MiB segment (the small one holds a block)
    sim.malloc(30 * MiB)  # 7 segment_alloc: a new segment, 8 alloc
    dump = sim.snapshot()
    trace = dump["device_traces"][0]
    assert [e["action"] for e in trace] == [
        "segment_alloc", "alloc", "segment_alloc", "alloc", "free_requested", "free_completed", "segment_free",
        "segment_alloc", "alloc",
    ]  # fmt: skip
    first, small, again = trace[0]["addr"], trace[2]["addr"], trace[7]["addr"]
    assert _lives(dump) == [
        (first, [0, 6], [30 * MiB, 0]),
        (small, [2], [2 * MiB]),
        (again, [7], [30 * MiB]),  # a new life, even where cudaMalloc gives the same address back
    ]


def test_an_expandable_segment_grows_with_each_map_and_ends_when_all_is_unmapped() -> None:
    sim = DeviceAllocatorSim(8 << 30, "expandable_segments:True")
    a = sim.malloc(30 * MiB)  # 0 segment_map of two 20 MiB pages, 1 alloc
    b = sim.malloc(30 * MiB)  # 2 segment_map of one more page: the range grows to 60 MiB, 3 alloc
    sim.free(a)
    sim.free(b)  # 4 to 7: the frees
    sim.empty_cache()  # 8 segment_unmap of all 60 MiB: the life ends
    sim.malloc(5 * MiB)  # 9 segment_map of a page elsewhere, 10 alloc
    dump = sim.snapshot()
    trace = dump["device_traces"][0]
    assert [(e["action"], e["size"]) for e in trace if e["action"].startswith("segment")] == [
        ("segment_map", 40 * MiB), ("segment_map", 20 * MiB), ("segment_unmap", 60 * MiB), ("segment_map", 20 * MiB),
    ]  # fmt: skip
    lives = segment_lives(build_timeline(load_snapshot(pickle.dumps(dump)), 0).pieces)
    assert [(life.address, life.events.tolist(), life.sizes.tolist()) for life in lives] == [
        (trace[0]["addr"], [0, 2, 8], [40 * MiB, 60 * MiB, 0]),
        (trace[9]["addr"], [9], [20 * MiB]),
    ]
    grown, later = lives
    assert (grown.created, grown.grown, grown.freed, grown.peak, grown.expandable) == (0, 1, 8, 60 * MiB, True)
    assert (later.freed, later.grown, later.created, later.peak) == (NEVER, 0, 9, 20 * MiB)


def test_the_stacked_lives_add_up_to_the_reserved_series(real_snapshot_path: Path) -> None:
    """The reserved series is counted by the replay from its own counters: the stack's top must meet it at every
    event, whether every life has a band or the small ones share one."""
    snapshot = load_snapshot(real_snapshot_path)
    for device in snapshot.devices():
        timeline = build_timeline(snapshot, device)
        reserved = np.concatenate([[timeline.series.initial["reserved"]], timeline.series.reserved])
        events = np.arange(-1, timeline.n_events)
        for max_bands in (1000, 5):
            series = segment_series(timeline, max_bands)
            assert np.array_equal(series.at(events).sum(axis=0), reserved), (real_snapshot_path.name, device)


def test_constructor_segments_grow_once_per_recorded_map() -> None:
    """Expandable segments: every segment_map event of the raw trace is a life's creation or one of its growths."""
    path = fixture_path("constructor_memory_snapshot.pickle")
    raw = load_raw(path)["device_traces"]
    snapshot = load_snapshot(path)
    for device in snapshot.devices():
        maps = [i for i, e in enumerate(raw[device]) if e["action"] == "segment_map"]
        lives = segment_lives(build_timeline(snapshot, device).pieces)
        assert all(life.expandable for life in lives)
        made = sum(1 for life in lives if life.created >= 0)
        assert made + sum(life.grown for life in lives) == len(maps), device
        changes: dict[int, int] = defaultdict(int)
        for life in lives:
            for event in life.events[np.diff(life.sizes, prepend=0) > 0].tolist():
                changes[event] += 1
        assert sorted(changes) == maps
