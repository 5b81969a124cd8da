"""The allocator's own releases never cudaFree expandable or split blocks: hand-worked traces and a real replay."""

from __future__ import annotations

import pickle
from typing import Any

import pytest

from gpumem_gui.cli import main
from gpumem_gui.core.allocator.simulator import DeviceAllocatorSim, OutOfMemoryError
from gpumem_gui.core.rules.allocator_constants import MiB
from tests.conftest import fixture_path


def _layout(sim: DeviceAllocatorSim, base: int) -> list[tuple[int, int, list[tuple[int, str]]]]:
    """(offset from base, total size, [(block size, state)]) of every snapshot segment, in MiB."""
    return [
        (
            (seg["address"] - base) // MiB,
            seg["total_size"] // MiB,
            [(b["size"] // MiB, b["state"]) for b in seg["blocks"]],
        )
        for seg in sim.snapshot()["segments"]
    ]


def _actions(sim: DeviceAllocatorSim, base: int) -> list[tuple[str, int, int]]:
    return [(e["action"], (e.get("addr", base) - base) // MiB, e["size"] // MiB) for e in sim.trace]


def test_an_expandable_block_over_max_split_is_unmapped_by_the_full_release_not_freed() -> None:
    # capacity 100 MiB: the reservation is 9/8 of it in whole 20 MiB pages, 120 MiB
    sim = DeviceAllocatorSim(100 * MiB, "expandable_segments:True,max_split_size_mb:40")
    a = sim.malloc(60 * MiB)  # pages 0-2
    base = a.addr
    sim.malloc(20 * MiB)  # page 3
    sim.free(a)  # a free 60 MiB expandable block, over max_split
    # 30 MiB < max_split may not take the 60 MiB block (oversize rule); mapping 2 more pages would need 120 MiB
    # > 100 MiB. release_available_cached_blocks finds the 60 MiB block first (>= max(30, 40) MiB) and, as PyTorch
    # >= 2.5 does, leaves it: an expandable block is no cudaMalloc'ed segment. release_cached_blocks then unmaps
    # its 3 pages, and the retry maps 2 of them again at the reservation's start.
    c = sim.malloc(30 * MiB)
    assert c.addr == base
    assert _actions(sim, base) == [
        ("segment_map", 0, 60),
        ("alloc", 0, 60),
        ("segment_map", 60, 20),
        ("alloc", 60, 20),
        ("free_requested", 0, 60),
        ("free_completed", 0, 60),
        ("segment_unmap", 0, 60),
        ("segment_map", 0, 40),
        ("alloc", 0, 30),
    ]
    assert sim.num_alloc_retries == 1
    assert sim.reserved == 60 * MiB
    assert _layout(sim, base) == [
        (0, 40, [(30, "active_allocated"), (10, "inactive")]),
        (60, 20, [(20, "active_allocated")]),
    ]


def _segment(address: int, blocks: list[tuple[int, str]], *, expandable: bool) -> dict[str, Any]:
    out, at = [], address
    for size, state in blocks:
        out.append({"address": at, "size": size * MiB, "requested_size": size * MiB, "state": state, "frames": []})
        at += size * MiB
    total = sum(size for size, _ in blocks) * MiB
    return {
        "address": address,
        "total_size": total,
        "stream": 0,
        "segment_type": "large",
        "is_expandable": expandable,
        "frames": [],
        "blocks": out,
    }


def test_oversize_fallback_skips_the_expandable_block_and_frees_plain_ones_below_it() -> None:
    # a state PyTorch reaches when expandable_segments is switched on at run time: two plain oversize segments
    # (42 and 45 MiB, over max_split 40) and a free 100 MiB expandable run at the very end of its reservation (a
    # small segment right after it), so that the run cannot grow and the allocator cannot map its way out
    base = 0x7F00_0000_0000
    sim = DeviceAllocatorSim(200 * MiB, "expandable_segments:True,max_split_size_mb:40")
    small = _segment(base + 228 * MiB, [(2, "active_allocated")], expandable=False) | {"segment_type": "small"}
    sim.load_segments(
        [
            _segment(base, [(42, "inactive")], expandable=False),
            _segment(base + 64 * MiB, [(45, "inactive")], expandable=False),
            _segment(base + 128 * MiB, [(100, "inactive")], expandable=True),
            small,
        ]
    )
    # 50 MiB: the 100 MiB block is >= 50 + 20 MiB (too big to hand out); 3 new pages would need 249 > 200 MiB.
    # release_available_cached_blocks: the first block >= 50 MiB is the expandable one, so it falls back to the
    # oversize blocks below it, largest first: 45 then 42 MiB (87 >= 50), and the retry maps 60 MiB afresh.
    block = sim.malloc(50 * MiB)
    assert _actions(sim, base)[:2] == [("segment_free", 64, 45), ("segment_free", 0, 42)]
    assert [a for a, _, _ in _actions(sim, base)[2:]] == ["segment_map", "alloc"]
    assert sim.num_alloc_retries == 0
    assert sim.reserved == 162 * MiB
    offset = (block.addr - base) // MiB
    assert _layout(sim, base) == [
        (128, 100, [(100, "inactive")]),
        (228, 2, [(2, "active_allocated")]),
        (offset, 60, [(50, "active_allocated"), (10, "inactive")]),
    ]


def test_a_free_block_of_a_split_segment_is_never_freed_alone() -> None:
    # restored from a recording without max_split_size: a 100 MiB segment, 30 MiB live and 70 MiB free
    base = 0x7F00_0000_0000
    sim = DeviceAllocatorSim(105 * MiB, "max_split_size_mb:40")
    sim.load_segments([_segment(base, [(30, "active_allocated"), (70, "inactive")], expandable=False)])
    with pytest.raises(OutOfMemoryError):
        sim.malloc(10 * MiB)  # the 70 MiB block is oversize for it, and a new 10 MiB segment does not fit
    assert [a for a, _, _ in _actions(sim, base)] == ["oom"]
    assert _layout(sim, base) == [(0, 100, [(30, "active_allocated"), (70, "inactive")])]


def test_garbage_collection_counts_expandable_blocks_in_the_average_age_and_frees_none() -> None:
    base = 0x7F00_0000_0000
    sim = DeviceAllocatorSim(400 * MiB, "expandable_segments:True,garbage_collection_threshold:0.1")
    sim.set_memory_fraction(1.0)
    live = sim.load_segments(
        [
            _segment(base, [(30, "active_allocated")], expandable=False),
            _segment(base + 32 * MiB, [(30, "active_allocated")], expandable=False),
            _segment(base + 64 * MiB, [(100, "inactive")], expandable=True),  # cached since call 0
            # right after the run: its reservation ends there, so the run's block has no unmapped neighbour and
            # counts as unsplit (is_split: a prev or a next)
            _segment(base + 164 * MiB, [(2, "active_allocated")], expandable=False) | {"segment_type": "small"},
        ]
    )
    pool = sim.large_pool
    pool.get_free_blocks_call_count = 10  # as if ten large requests had come and gone
    sim.free(live[1])  # cached since call 10
    pool.get_free_blocks_call_count = 12
    sim.free(live[0])  # cached since call 12
    # 200 MiB fits no cached block; the lookup is call 13, so the ages are 13 (expandable), 3 and 1. PyTorch
    # averages over every unsplit free block: 17 / 3 > 5, so no plain block is old enough and the expandable one
    # is never freed by gc; reserved (162 MiB) is over the 40 MiB threshold, yet nothing goes back. The 200 MiB
    # are mapped in a new reservation (162 + 200 <= 400 MiB).
    sim.malloc(200 * MiB)
    assert [a for a, _, _ in _actions(sim, base)] == [
        "free_requested",
        "free_completed",
        "free_requested",
        "free_completed",
        "segment_map",
        "alloc",
    ]
    assert sim.reserved == 362 * MiB


def test_constructor_device_1_replays_under_max_split(tmp_path: Any) -> None:
    # the recorded trace (expandable segments) replayed with max_split_size_mb:256 used to end in a KeyError
    path = fixture_path("constructor_memory_snapshot.pickle")
    out = tmp_path / "replayed.pickle"
    assert main(["replay", str(path), "--device", "1", "--set", "max_split_size_mb:256", "-o", str(out)]) == 0
    with out.open("rb") as f:
        replayed = pickle.load(f)
    trace = replayed["device_traces"][1]
    actions = {e["action"] for e in trace}
    assert "segment_free" not in actions  # expandable memory is only ever unmapped
    # what the trace maps minus what it unmaps is what the segments hold (the replay starts from the state
    # before the recorded trace, so add those segments' size, read from the original file)
    with path.open("rb") as f:
        original = pickle.load(f)
    net = sum(e["size"] if e["action"] == "segment_map" else -e["size"] for e in trace if "segment_" in e["action"])
    held = sum(s["total_size"] for s in replayed["segments"] if s["device"] == 1)
    recorded_trace = original["device_traces"][1]
    recorded_net = sum(
        e["size"] if e["action"] == "segment_map" else -e["size"]
        for e in recorded_trace
        if e["action"] in ("segment_map", "segment_unmap")
    )
    before = sum(s["total_size"] for s in original["segments"] if s["device"] == 1) - recorded_net
    assert held == before + net
    assert all(seg["is_expandable"] for seg in replayed["segments"])
    for seg in replayed["segments"]:
        assert sum(b["size"] for b in seg["blocks"]) == seg["total_size"]
