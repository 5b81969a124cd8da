"""The allocator simulator, rule by rule on small hand-checked cases, and its snapshots read by torch's tools."""

from __future__ import annotations

import contextlib
import pickle
from collections import Counter
from typing import Any

import numpy as np
import pytest
from torch.cuda import _memory_viz as memory_viz

from gpumem_gui.core import BlockState, load_snapshot
from gpumem_gui.core.allocator.simulator import DeviceAllocatorSim, OutOfMemoryError, format_size
from gpumem_gui.core.analysis.metrics import compute_metrics
from gpumem_gui.core.analysis.timetravel import build_timeline
from gpumem_gui.core.rules.alloc_conf import AllocConfError
from gpumem_gui.core.rules.allocator_constants import GiB, MiB
from tests.conftest import segsum_totals


def _segments(sim: DeviceAllocatorSim) -> list[tuple[int, list[tuple[int, str]]]]:
    """(segment size, [(block size, state)]) in address order."""
    return [(s["total_size"], [(b["size"], b["state"]) for b in s["blocks"]]) for s in sim.snapshot()["segments"]]


def _actions(sim: DeviceAllocatorSim) -> list[str]:
    return [e["action"] for e in sim.trace]


def test_rounding_and_pools() -> None:
    sim = DeviceAllocatorSim(8 * GiB)
    tiny = sim.malloc(1)
    assert tiny.size == 512 and tiny.small
    sim.malloc(1 * MiB)  # still small: packed into the same 2 MiB segment
    big = sim.malloc(1 * MiB + 1)  # large: a 20 MiB segment, split
    assert big.size == 1 * MiB + 512 and not big.small
    assert _segments(sim) == [
        (2 * MiB, [(512, "active_allocated"), (1 * MiB, "active_allocated"), (1 * MiB - 512, "inactive")]),
        (20 * MiB, [(1 * MiB + 512, "active_allocated"), (19 * MiB - 512, "inactive")]),
    ]
    fresh = DeviceAllocatorSim(8 * GiB)
    odd = fresh.malloc(11 * MiB)  # >= 10 MiB: a segment rounded to 2 MiB (12 MiB); 1 MiB left is not > 1 MiB
    assert odd.size == 12 * MiB and odd.requested == 11 * MiB
    assert _segments(fresh) == [(12 * MiB, [(12 * MiB, "active_allocated")])]


def test_best_fit_front_split_and_merge() -> None:
    sim = DeviceAllocatorSim(8 * GiB)
    a, b, c = sim.malloc(4 * MiB), sim.malloc(4 * MiB), sim.malloc(4 * MiB)
    sim.free(a)
    sim.free(c)  # merges with the free tail of the segment
    assert _segments(sim) == [
        (20 * MiB, [(4 * MiB, "inactive"), (4 * MiB, "active_allocated"), (12 * MiB, "inactive")])
    ]
    d = sim.malloc(3 * MiB)  # best fit: the 4 MiB hole, not the 12 MiB one; 1 MiB left over is not split off
    assert d.addr == a.addr and d.size == 4 * MiB
    sim.free(b)
    sim.free(d)  # merges with both neighbours: the whole segment is one free block again
    assert _segments(sim) == [(20 * MiB, [(20 * MiB, "inactive")])]


def test_streams_do_not_share_free_blocks() -> None:
    sim = DeviceAllocatorSim(8 * GiB)
    sim.free(sim.malloc(4 * MiB, stream=0))
    other = sim.malloc(4 * MiB, stream=7)
    assert _actions(sim).count("segment_alloc") == 2 and other.stream == 7


def test_max_split_size_and_oversize_rules() -> None:
    sim = DeviceAllocatorSim(8 * GiB, "max_split_size_mb:100")
    big = sim.malloc(300 * MiB)
    sim.free(big)
    small = sim.malloc(50 * MiB)  # below max_split: the 300 MiB oversize block is not handed out
    assert small.segment_head != big.segment_head
    near = sim.malloc(290 * MiB)  # oversize, within max_non_split_rounding (20 MiB): reuses it unsplit
    assert near.addr == big.addr and near.size == 300 * MiB
    sim.free(near)
    far = sim.malloc(200 * MiB)  # 100 MiB larger than needed: not reused
    assert far.addr != big.addr


def test_oom_ladder_frees_cached_segments_then_raises() -> None:
    sim = DeviceAllocatorSim(100 * MiB)
    sim.free(sim.malloc(60 * MiB))
    fits = sim.malloc(80 * MiB)  # cudaMalloc fails, cached segments are released, the retry succeeds
    assert _actions(sim)[-3:] == ["segment_free", "segment_alloc", "alloc"] and fits.size == 80 * MiB
    with pytest.raises(OutOfMemoryError) as e:
        sim.malloc(30 * MiB)
    assert str(e.value).startswith("CUDA out of memory. Tried to allocate 30.00 MiB. GPU 0 has a total capacity")
    assert "of which 20.00 MiB is free" in str(e.value)
    oom = sim.trace[-1]
    assert oom["action"] == "oom" and oom["device_free"] == 20 * MiB and oom["size"] == 30 * MiB
    assert sim.num_ooms == 1


def test_record_stream_keeps_the_free_pending() -> None:
    sim = DeviceAllocatorSim(8 * GiB)
    a = sim.malloc(4 * MiB, stream=0)
    sim.record_stream(a, 5)
    sim.free(a)
    assert _segments(sim)[0][1][0] == (4 * MiB, "active_pending_free")
    assert _actions(sim)[-1] == "free_requested"
    b = sim.malloc(4 * MiB)  # the pending block is not reusable yet
    assert b.addr != a.addr
    sim.synchronize(5)
    assert _actions(sim)[-1] == "free_completed" and _segments(sim)[0][1][0] == (4 * MiB, "inactive")


def test_empty_cache_keeps_segments_with_live_blocks() -> None:
    sim = DeviceAllocatorSim(8 * GiB)
    live = sim.malloc(4 * MiB)
    sim.free(sim.malloc(30 * MiB))
    sim.empty_cache()
    assert _segments(sim) == [(20 * MiB, [(4 * MiB, "active_allocated"), (16 * MiB, "inactive")])]
    assert sim.reserved == 20 * MiB and live.allocated


def test_garbage_collection_under_a_memory_fraction() -> None:
    sim = DeviceAllocatorSim(1 * GiB, "garbage_collection_threshold:0.5")
    sim.set_memory_fraction(0.5)  # 512 MiB allowed, collection above 256 MiB reserved
    for stream in range(3):
        sim.free(sim.malloc(100 * MiB, stream=stream))  # a new stream each: nothing is reused
    assert sim.reserved == 300 * MiB and "segment_free" not in _actions(sim)
    # above the threshold: blocks at least as old as the average (counted in free-block searches) are released
    sim.malloc(100 * MiB, stream=3)
    assert _actions(sim).count("segment_free") == 2 and sim.reserved == 200 * MiB


def test_expandable_segments_map_pages_and_report_runs() -> None:
    sim = DeviceAllocatorSim(4 * GiB, "expandable_segments:True")
    a = sim.malloc(3 * MiB)
    b = sim.malloc(30 * MiB)
    sim.malloc(1 * MiB)  # small pool: its own reservation with 2 MiB pages
    assert [(e["action"], e["size"] // MiB) for e in sim.trace if e["action"] == "segment_map"] == [
        ("segment_map", 20),
        ("segment_map", 20),
        ("segment_map", 2),
    ]
    segs = sim.snapshot()["segments"]
    assert [s["total_size"] // MiB for s in segs] == [40, 2] and all(s["is_expandable"] for s in segs)
    assert b.addr == a.addr + 3 * MiB
    sim.free(b)
    sim.empty_cache()  # the page [20, 40) MiB is wholly free: unmapped; the rest stays mapped
    unmaps = [(e["addr"] - a.addr, e["size"]) for e in sim.trace if e["action"] == "segment_unmap"]
    assert unmaps == [(20 * MiB, 20 * MiB)]  # b and the free tail after it: [3, 40) MiB, of which one whole page
    assert [s["total_size"] // MiB for s in sim.snapshot()["segments"]] == [20, 2]


def test_bad_settings_are_refused_with_pytorchs_message() -> None:
    with pytest.raises(AllocConfError, match="max_split_size_mb too small, must be >= 20"):
        DeviceAllocatorSim(GiB, "max_split_size_mb:10")


def test_format_size_matches_pytorch() -> None:
    assert format_size(1000) == "1000 bytes"
    assert format_size(20 * MiB) == "20.00 MiB"
    assert format_size(3 * GiB // 2) == "1.50 GiB"


def _busy_sim(settings: str) -> DeviceAllocatorSim:
    sim = DeviceAllocatorSim(2 * GiB, settings)
    frames = [
        {"name": "forward", "filename": "model.py", "line": 12},
        {"name": "<module>", "filename": "t.py", "line": 1},
    ]
    live: list[Any] = []
    for i in range(400):
        with contextlib.suppress(OutOfMemoryError):  # a failed request is part of the workload
            live.append(sim.malloc((i * 7919) % (48 * MiB) + 1000, stream=i % 2, frames=frames))
        if len(live) > 20:
            sim.free(live.pop((i * 31) % len(live)))
        if i % 97 == 0:
            sim.empty_cache()
    for stream in (5, 6):  # fresh streams, so fresh segments: requests that fill a free block exactly
        sim.malloc(1 * MiB, stream=stream, frames=frames)  # half of a new 2 MiB small segment (split)
        sim.malloc(1 * MiB, stream=stream, frames=frames)  # the other half, exactly: nothing is left to split off
        sim.malloc(20 * MiB, stream=stream, frames=frames)  # a new 20 MiB segment (or mapped page), exactly
    return sim


@pytest.mark.parametrize("settings", ["", "expandable_segments:True", "max_split_size_mb:64"])
def test_snapshots_load_and_replay_exactly(settings: str) -> None:
    sim = _busy_sim(settings)
    snap = load_snapshot(pickle.dumps(sim.snapshot()))
    m = compute_metrics(snap.state)
    assert m.reserved_bytes == sim.reserved and m.allocated_bytes == sim.allocated
    tl = build_timeline(snap, 0)
    assert tl.warnings == [] and tl.rule_mismatches == 0
    assert int(tl.series.reserved[-1]) == sim.reserved
    # the workload ends with exact fits (a split there would leave a block of zero bytes): they are in the file,
    # each an allocated block as large as its segment or its half of one, and no block anywhere has zero bytes
    blocks, segments = snap.state.blocks, snap.state.segments
    whole = blocks.size == segments.total_size[blocks.segment]
    on_fresh = np.isin(segments.stream[blocks.segment], (5, 6)) & (blocks.state == BlockState.ALLOCATED)
    assert sorted(blocks.size[on_fresh & whole].tolist()) == [20 * MiB, 20 * MiB]
    assert sorted(blocks.size[on_fresh & ~whole].tolist()) == [1 * MiB] * 4
    assert int(blocks.size.min()) > 0


@pytest.mark.parametrize("settings", ["", "expandable_segments:True"])
def test_torch_memory_viz_reads_the_snapshot(settings: str, monkeypatch: pytest.MonkeyPatch) -> None:
    sim = _busy_sim(settings)
    data = sim.snapshot()
    totals = segsum_totals(data, monkeypatch)  # segsum also asserts its own accounting
    m = compute_metrics(load_snapshot(pickle.dumps(data)).state)
    # PyTorch's reading of the simulator's snapshot, figure by figure: the simulator's own counters and our metrics
    assert totals["segments"] == len(data["segments"])
    assert totals["total_reserved"] == sim.reserved == m.reserved_bytes
    assert totals["total_allocated"] + totals["internal"] == sim.allocated == m.allocated_bytes
    assert totals["total_allocated"] == m.requested_bytes
    assert totals["internal"] == m.internal_waste_bytes
    assert totals["external"] == m.free_bytes + m.pending_free_bytes
    # trace() replays the events: one line per entry, cudaMalloc for segment_alloc (not for an expandable map)
    lines = memory_viz.trace(data).splitlines()
    actions = Counter(e["action"] for e in sim.trace)
    assert lines[0] == "Device 0 ----------------" and lines[1] == f"{len(sim.trace)} entries"
    assert len(lines) == 3 + len(sim.trace) and lines[-1].startswith("TOTAL MEM: ")
    assert sum(" = cudaMalloc(" in line for line in lines) == actions["segment_alloc"]
    assert sum(line.startswith("cudaFree(") for line in lines) == actions["segment_free"]
    assert sum(line.startswith("raise OutOfMemoryError") for line in lines) == actions["oom"]
    assert (actions["segment_alloc"] > 0) == (settings == "") and (actions["segment_map"] > 0) == (settings != "")
