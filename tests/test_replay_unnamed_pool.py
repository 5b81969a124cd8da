"""A replay infers a private pool the trace does not name (torch < 2.13 writes no pool_id; a deleted MemPool's
segments are gone from the final snapshot): the H200's own recorded gpu-check traces replay without divergence, a
hand-worked trace whose pool made a segment while the default pool had a fitting free block gets the pool, and one
whose default pool really had no room gets none."""

from __future__ import annotations

import tarfile
from pathlib import Path
from typing import Any

import pytest

from gpumem_gui.core.allocator.inferred_pools import INFERRED_POOL
from gpumem_gui.core.allocator.replay import replay
from gpumem_gui.core.rules.allocator_constants import MiB
from gpumem_gui.core.snapshot.convert import snapshot_from_object
from gpumem_gui.core.snapshot.loader import load_snapshot
from gpumem_gui.core.snapshot.model import Snapshot
from tests.conftest import trace_entry

B = 0x7F00_0000_0000
P = B + 32 * MiB


def _tarball() -> Path:
    return Path(__file__).parent.parent / "benchmarks/gpu_check/measured/2026-12-04-h200-stop44/gpu-check.tar.gz"


# per setting: the recorded events that made the MemPool's segments (the sequence's pool_begin .. pool_end, read off
# the device's trace: every segment made between them, and the one the default pool's request did not make)
H200_POOL_SEGMENTS = {
    "default": [196, 199, 201, 203],
    "expandable_segments-True": [193, 196, 199, 201],  # the small reservation, and the large one's three maps
    "max_split_size_mb-64": [197, 202, 200, 204],
}


@pytest.mark.usefixtures("twin")
def test_the_h200_traces_replay_with_the_pool_they_do_not_name(tmp_path: Path) -> None:
    with tarfile.open(_tarball()) as tar:
        tar.extractall(tmp_path, filter="data")
    for setting, events in H200_POOL_SEGMENTS.items():
        (path,) = tmp_path.glob(f"*/real-{setting}.pickle")
        result = replay(load_snapshot(path))
        assert result.first_divergence is None, setting
        (pool,) = result.inferred_pools
        assert pool.pool_id == (INFERRED_POOL, 1)
        assert [s.event for s in pool.segments] == events, setting
        assert all(s.released is not None for s in pool.segments)  # the MemPool's deletion gave them all back
        document = result.as_dict()["inferred_private_pools"]
        assert [s["event"] for s in document[0]["segments"]] == events


def _segment(address: int, blocks: list[tuple[int, str]]) -> dict[str, Any]:
    out, at = [], address
    for size, state in blocks:
        out.append({"address": at, "size": size, "requested_size": size, "state": state, "frames": []})
        at += size
    used = sum(s for s, st in blocks if st == "active_allocated")
    return {
        "device": 0,
        "address": address,
        "total_size": at - address,
        "allocated_size": used,
        "active_size": used,
        "requested_size": used,
        "stream": 0,
        "segment_type": "large",
        "segment_pool_id": (0, 0),
        "is_expandable": False,
        "frames": [],
        "blocks": out,
    }


def _snapshot(rows: list[tuple[str, int, int]], segments: list[dict[str, Any]]) -> Snapshot:
    trace = [trace_entry(action, addr, size, 1_000 + t) for t, (action, addr, size) in enumerate(rows)]
    raw = {"segments": segments, "device_traces": [trace], "allocator_settings": {}}
    return snapshot_from_object(raw, "unnamed-pool.pickle", "dump")


@pytest.mark.usefixtures("twin")
def test_a_segment_made_beside_a_fitting_free_block_is_a_pools() -> None:
    # an 8 MiB request (< 10 MiB) gets a 20 MiB segment; freed, it stays cached in the default pool. The next 8 MiB
    # request fits it, yet the device made a new segment: the request went to a pool the trace does not name (a
    # MemPool), deleted at the end (its segment freed, gone from the final snapshot)
    rows = [
        ("segment_alloc", B, 20 * MiB),  # 0
        ("alloc", B, 8 * MiB),
        ("free_requested", B, 8 * MiB),
        ("free_completed", B, 8 * MiB),
        ("segment_alloc", P, 20 * MiB),  # 4 the pool's
        ("alloc", P, 8 * MiB),
        ("free_requested", P, 8 * MiB),
        ("free_completed", P, 8 * MiB),
        ("segment_free", P, 20 * MiB),  # 8 the MemPool deleted: its own segment goes, the default's stays
    ]
    snapshot = _snapshot(rows, [_segment(B, [(20 * MiB, "inactive")])])
    result = replay(snapshot)
    assert result.first_divergence is None
    (pool,) = result.inferred_pools
    assert [(s.event, s.address, s.size, s.released) for s in pool.segments] == [(4, P, 20 * MiB, 8)]
    assert result.replayed.device_allocations == 2
    assert result.replayed.final_reserved_bytes == 20 * MiB
    # under other settings a replay is meant to part from the recording: nothing is inferred from it
    assert replay(snapshot, overrides=["max_split_size_mb:64"]).inferred_pools == []


@pytest.mark.usefixtures("twin")
def test_a_default_pool_without_room_makes_its_segment_and_no_pool_is_inferred() -> None:
    # a 16 MiB request (>= 10 MiB) fills a 16 MiB segment and stays: the next request has nowhere to go but a new
    # segment, in the default pool (the final snapshot holds it there)
    rows = [
        ("segment_alloc", B, 16 * MiB),
        ("alloc", B, 16 * MiB),
        ("segment_alloc", P, 20 * MiB),
        ("alloc", P, 8 * MiB),
    ]
    segments = [
        _segment(B, [(16 * MiB, "active_allocated")]),
        _segment(P, [(8 * MiB, "active_allocated"), (12 * MiB, "inactive")]),
    ]
    result = replay(_snapshot(rows, segments))
    assert result.first_divergence is None
    assert result.inferred_pools == []
    assert result.as_dict()["inferred_private_pools"] == []
