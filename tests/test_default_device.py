"""Which device a file opens on: the one with an OOM, else the one that held the most memory (hand-made dumps)."""

from __future__ import annotations

import pickle
from typing import Any

from gpumem_gui.core import load_snapshot
from gpumem_gui.core.rules.allocator_constants import MiB
from gpumem_gui.document import SnapshotDocument


def _segment(device: int, address: int, size: int) -> dict[str, Any]:
    block = {"address": address, "size": size, "requested_size": size, "state": "active_allocated", "frames": []}
    return {
        "device": device,
        "address": address,
        "total_size": size,
        "allocated_size": size,
        "active_size": size,
        "requested_size": size,
        "stream": 0,
        "segment_type": "large",
        "segment_pool_id": (0, 0),
        "is_expandable": False,
        "frames": [],
        "blocks": [block],
    }


def _entry(action: str, address: int, size: int, **extra: Any) -> dict[str, Any]:
    return {"action": action, "addr": address, "size": size, "stream": 0, "frames": [], **extra}


def _dump(segments: list[dict[str, Any]], traces: list[list[dict[str, Any]]]) -> Any:
    return load_snapshot(pickle.dumps({"segments": segments, "device_traces": traces}))


def test_a_file_opens_on_the_gpu_that_holds_the_segments_not_the_longest_trace() -> None:
    # GPU 0 made and returned a 2 MiB segment 50 times (a long trace, nothing left); GPU 1 holds 40 MiB
    churn = [
        e
        for _ in range(50)
        for e in (_entry("segment_alloc", 1 << 30, 2 * MiB), _entry("segment_free", 1 << 30, 2 * MiB))
    ]
    snap = _dump([_segment(1, 1 << 32, 40 * MiB)], [churn, [_entry("alloc", 1 << 32, 40 * MiB)]])
    assert len(snap.trace(0)) > len(snap.trace(1))
    assert snap.default_device() == 1
    assert SnapshotDocument(snap).device == 1


def test_the_high_point_of_the_trace_counts_not_only_what_is_left() -> None:
    # GPU 0 ends with 10 MiB but held 10 + 100 MiB mid-trace; GPU 1 ends with 40 MiB and never more
    peak = [_entry("segment_alloc", 1 << 31, 100 * MiB), _entry("segment_free", 1 << 31, 100 * MiB)]
    snap = _dump([_segment(0, 1 << 30, 10 * MiB), _segment(1, 1 << 32, 40 * MiB)], [peak, []])
    assert snap.peak_reserved(0) == 110 * MiB and snap.peak_reserved(1) == 40 * MiB
    assert snap.default_device() == 0


def test_a_gpu_with_an_oom_wins_over_a_bigger_one() -> None:
    oom = [_entry("oom", 0, 64 * MiB, device_free=1 * MiB)]
    snap = _dump([_segment(0, 1 << 30, 400 * MiB), _segment(1, 1 << 32, 8 * MiB)], [[], oom])
    assert snap.oom_count(1) == 1
    assert snap.default_device() == 1


def test_ties_go_to_the_lower_index() -> None:
    snap = _dump([_segment(0, 1 << 30, 8 * MiB), _segment(1, 1 << 32, 8 * MiB)], [])
    assert snap.default_device() == 0
