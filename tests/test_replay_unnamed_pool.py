"""A replay infers a private pool the trace does not name (torch < 2.13 writes no pool_id; a deleted MemPool's
segments are gone from the final snapshot): the H200's own recorded gpu-check traces replay without divergence, a
hand-worked trace whose pool made a segment while the default pool had a fitting free block gets the pool, and one
whose default pool really had no room gets none. Replays under other settings, and explain's remedies, carry the pool
the recorded settings' replay inferred: the program keeps the pool's memory apart under any settings."""

from __future__ import annotations

import tarfile
from pathlib import Path
from typing import Any

import pytest

from gpumem_gui.core.allocator.inferred_pools import INFERRED_POOL, with_inferred
from gpumem_gui.core.allocator.remedies import explain
from gpumem_gui.core.allocator.replay import ReplayResult, replay
from gpumem_gui.core.analysis.timetravel import build_timeline
from gpumem_gui.core.rules.allocator_constants import MiB
from gpumem_gui.core.snapshot.convert import snapshot_from_object
from gpumem_gui.core.snapshot.loader import load_snapshot
from gpumem_gui.core.snapshot.model import Action, Snapshot
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
    # under other settings a replay is meant to part from the recording: it infers nothing from where it parts, it
    # carries the pool the recorded settings' replay inferred
    other = replay(snapshot, overrides=["max_split_size_mb:64"])
    assert other.inferred_pools == [pool] and other.pools_carried


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


def _h200(tmp_path: Path, setting: str) -> Snapshot:
    with tarfile.open(_tarball()) as tar:
        tar.extractall(tmp_path, filter="data")
    (path,) = tmp_path.glob(f"*/real-{setting}.pickle")
    return load_snapshot(path)


def _pool_of_each_alloc(result: ReplayResult) -> list[tuple[Any, Any]]:
    """Per replayed alloc: the pool_id its entry names (None: the default pool's) and the pool of the replayed
    segment (or mapped range) its block lies in, read off the replayed trace's device calls."""
    ranges: list[tuple[int, int, Any]] = []  # live (start, end, pool) of segments and mapped ranges
    out = []
    for e in result.snapshot["device_traces"][result.device]:
        pool = tuple(e["pool_id"]) if e.get("pool_id") is not None else None
        if e["action"] in {"segment_alloc", "segment_map"}:
            ranges.append((e["addr"], e["addr"] + e["size"], pool))
        elif e["action"] in {"segment_free", "segment_unmap"}:
            lo, hi = e["addr"], e["addr"] + e["size"]
            kept = []
            for a, b, p in ranges:  # an unmap may give back part of a mapped range
                if b <= lo or a >= hi:
                    kept.append((a, b, p))
                else:
                    kept += [(x, y, p) for x, y in ((a, lo), (hi, b)) if x < y]
            ranges = kept
        elif e["action"] == "alloc":
            (inside,) = [p for a, b, p in ranges if a <= e["addr"] < b]
            out.append((pool, inside))
    return out


@pytest.mark.usefixtures("twin")
@pytest.mark.parametrize("override", ["expandable_segments:True", "max_split_size_mb:64"])
def test_a_what_if_on_the_h200_traces_keeps_the_pool_apart(tmp_path: Path, override: str) -> None:
    snapshot = _h200(tmp_path, "default")
    recorded = replay(snapshot)
    (pool,) = recorded.inferred_pools
    result = replay(snapshot, overrides=[override])
    assert result.inferred_pools == recorded.inferred_pools
    assert result.pools_carried and not recorded.pools_carried
    assert result.as_dict()["inferred_private_pools"] == [pool.as_dict()]
    # the recorded requests the pool's segments served, each replayed in the pool; no block of one pool lies in a
    # segment of the other
    trace = snapshot.trace(0)
    rows = with_inferred(trace, build_timeline(snapshot, 0), [pool])
    in_pool = sum(1 for i, p in enumerate(rows) if p == pool.pool_id and trace.action[i] == Action.ALLOC)
    assert in_pool > 0
    allocs = _pool_of_each_alloc(result)
    assert all(named == inside for named, inside in allocs)
    assert sum(named == pool.pool_id for named, _ in allocs) == in_pool
    # without the pool (what a what-if did before) the same requests go to the default pool
    alone = replay(snapshot, overrides=[override], pools=[])
    assert alone.inferred_pools == [] and alone.as_dict()["inferred_private_pools"] == []
    assert all(named is None for named, _ in _pool_of_each_alloc(alone))


def _pool_then_full_default_pool() -> Snapshot:
    # a MemPool's 8 MiB request gets a segment of its own although the default pool's 20 MiB segment had 12 MiB free
    # (so the replay under the recorded settings infers the pool); the default pool then fills that segment, the
    # pool's block is freed (its 20 MiB segment stays cached in the pool), and the next default request makes a
    # segment: the pool's cached memory is not the default pool's. The MemPool is deleted at the end
    rows = [
        ("segment_alloc", B, 20 * MiB),  # 0
        ("alloc", B, 8 * MiB),
        ("segment_alloc", P, 20 * MiB),  # 2 the pool's
        ("alloc", P, 8 * MiB),
        ("alloc", B + 8 * MiB, 8 * MiB),  # 4 the default pool's segment: 4 MiB free
        ("free_requested", P, 8 * MiB),
        ("free_completed", P, 8 * MiB),
        ("segment_alloc", Q, 20 * MiB),  # 7 no room in the default pool
        ("alloc", Q, 8 * MiB),
        ("segment_free", P, 20 * MiB),  # 9 the MemPool deleted
    ]
    segments = [
        _segment(B, [(8 * MiB, "active_allocated"), (8 * MiB, "active_allocated"), (4 * MiB, "inactive")]),
        _segment(Q, [(8 * MiB, "active_allocated"), (12 * MiB, "inactive")]),
    ]
    return _snapshot(rows, segments)


Q = P + 32 * MiB


@pytest.mark.usefixtures("twin")
def test_a_what_if_with_the_pool_carried_makes_the_default_pools_own_segment() -> None:
    snapshot = _pool_then_full_default_pool()
    recorded = replay(snapshot)
    assert recorded.first_divergence is None
    (pool,) = recorded.inferred_pools
    assert [(s.event, s.released) for s in pool.segments] == [(2, 9)]
    # max_split_size_mb:64 splits none of these blocks otherwise: only the pool tells the two replays apart
    carried = replay(snapshot, overrides=["max_split_size_mb:64"])
    assert carried.inferred_pools == [pool] and carried.pools_carried
    # as recorded: the pool's request gets its own 20 MiB segment, the last default request its own too (the pool's
    # free 20 MiB are not the default pool's), and the MemPool's deletion gives the pool's back
    assert carried.replayed.device_allocations == 3
    assert carried.replayed.peak_reserved_bytes == 60 * MiB
    assert carried.replayed.final_reserved_bytes == 40 * MiB
    assert carried.first_divergence is None
    # without the pool the pool's request is carved from the default segment's 12 MiB free, the next default request
    # makes the second segment, and the last one reuses the freed block: one segment fewer, 20 MiB less at the peak
    alone = replay(snapshot, overrides=["max_split_size_mb:64"], pools=[])
    assert alone.replayed.device_allocations == 2
    assert alone.replayed.peak_reserved_bytes == 40 * MiB
    assert alone.first_divergence == 2


@pytest.mark.usefixtures("twin")
def test_explain_replays_its_remedies_with_the_pool_carried(tmp_path: Path) -> None:
    snapshot = _h200(tmp_path, "default")
    found = explain(snapshot, parallel=False)
    pools = found.options["pools"]
    assert [p.pool_id for p in pools] == [(INFERRED_POOL, 1)]
    assert found.remedies
    remedy = found.replay_remedy(snapshot, 0)  # expandable_segments:True
    assert remedy.inferred_pools == pools and remedy.pools_carried
    assert all(named == inside for named, inside in _pool_of_each_alloc(remedy))
    assert any(named == pools[0].pool_id for named, _ in _pool_of_each_alloc(remedy))
    # in parallel the remedies first run without the pool, and again with it once the baseline inferred it
    both = explain(snapshot, parallel=True)
    assert both.options["pools"] == pools
    assert both.remedies == found.remedies
