"""Breakdown at any event: its sums are metrics' allocated bytes, its sites the raw pickle's blocks."""

from __future__ import annotations

import pickle
from collections import Counter

import numpy as np
import pytest

from benchmarks.bench_budgets import many_blocks_snapshot
from gpumem_gui.core import load_snapshot
from gpumem_gui.core.allocator.simulator import DeviceAllocatorSim
from gpumem_gui.core.analysis.breakdown import BEFORE_RECORDING_SITE, block_categories, breakdown_at
from gpumem_gui.core.analysis.categories import CATEGORIES
from gpumem_gui.core.analysis.metrics import compute_metrics
from gpumem_gui.core.analysis.timetravel import build_timeline
from gpumem_gui.core.rules.allocator_constants import MiB
from tests.conftest import FIXTURE_NAMES, fixture_path, load_raw
from tests.site_oracle import raw_site


@pytest.mark.parametrize("name", FIXTURE_NAMES)
def test_sums_equal_metrics_at_several_events(name: str) -> None:
    snap = load_snapshot(fixture_path(name))
    for device in snap.devices():
        tl = build_timeline(snap, device)
        n = tl.n_events
        events = {n - 1, -1, n // 3, (2 * n) // 3, int(np.argmax(tl.series.allocated)) if n else -1}
        events |= {o.index for o in tl.ooms}
        for event in sorted(e for e in events if -1 <= e < n or e == -1):
            got = breakdown_at(snap, tl, event)
            allocated = compute_metrics(tl.state_at(event)).allocated_bytes
            assert got.event == event
            assert got.allocated_bytes == allocated, (device, event)
            assert list(got.by_category) == list(CATEGORIES)
            assert sum(got.by_category.values()) == allocated
            assert sum(s.bytes for s in got.by_site) == allocated
            assert sum(got.by_stream.values()) == allocated
            assert sum(got.by_pool.values()) == allocated
            assert [s.bytes for s in got.by_site] == sorted((s.bytes for s in got.by_site), reverse=True)


@pytest.mark.parametrize("name", ["magma27_memory_snapshot.pickle", "lfie_my_snapshot.pickle"])
def test_sites_at_the_snapshot_match_the_raw_blocks(name: str) -> None:
    # files with Python frames only: a block's site is read from its raw frames (tests/site_oracle.py)
    raw = load_raw(fixture_path(name))
    want: Counter[str] = Counter()
    count: Counter[str] = Counter()
    for seg in raw["segments"]:
        for block in seg["blocks"]:
            if block["state"] != "active_allocated":
                continue
            # no alloc event in the trace for a block without frames: allocated before recording began (these
            # files' traces show no frees of such blocks before the end)
            site = raw_site(block.get("frames", [])) or BEFORE_RECORDING_SITE
            want[site] += block["size"]
            count[site] += 1
    snap = load_snapshot(fixture_path(name))
    tl = build_timeline(snap, 0)
    got = breakdown_at(snap, tl, tl.n_events - 1)
    assert {s.site: s.bytes for s in got.by_site} == dict(want)
    assert {s.site: s.blocks for s in got.by_site} == dict(count)
    for s in got.by_site:
        assert (s.site == BEFORE_RECORDING_SITE) == (not s.frames)
        head = s.site.split(" via ")[0]
        assert s.site == BEFORE_RECORDING_SITE or head in s.frames


def test_streams_pools_and_pending_frees() -> None:
    sim = DeviceAllocatorSim(8 << 30)
    frames = [{"name": "forward", "filename": "model/net.py", "line": 3}]
    a = sim.malloc(3 * MiB, stream=0, frames=frames)
    sim.malloc(5 * MiB, stream=7, frames=frames)
    sim.malloc(4096, stream=0, frames=frames)  # small pool
    sim.record_stream(a, 9)
    sim.free(a)  # pending free until stream 9's event completes: not allocated any more
    snap = load_snapshot(pickle.dumps(sim.snapshot()))
    tl = build_timeline(snap, 0)
    got = breakdown_at(snap, tl, tl.n_events - 1)
    assert got.allocated_bytes == 5 * MiB + 4096 == compute_metrics(tl.final).allocated_bytes
    assert got.by_stream == {7: 5 * MiB, 0: 4096}
    assert got.by_pool == {"large": 5 * MiB, "small": 4096}
    assert got.by_site[0].site == "model/net.py:3:forward" and got.by_site[0].blocks == 2
    codes = block_categories(snap, tl, tl.final, tl.n_events - 1)
    assert len(codes) == len(tl.final.blocks)


def test_a_file_without_trace_is_all_before_recording() -> None:
    snap = load_snapshot(fixture_path("felix_dump_a.pickle"))
    tl = build_timeline(snap, 0)
    got = breakdown_at(snap, tl, -1)
    assert got.by_category["before_recording"] == got.allocated_bytes > 0


def test_many_blocks_add_up_to_the_allocated_bytes() -> None:
    # its speed at 100k blocks: benchmarks/bench_budgets.py (breakdown)
    snap = many_blocks_snapshot(10_000)
    tl = build_timeline(snap, 0)
    assert len(tl.final.blocks) >= 10_000
    breakdown_at(snap, tl, tl.n_events - 1)  # the per-timeline categories, computed once
    for event in (tl.n_events - 1, tl.n_events - 2):
        state = tl.state_at(event)
        block_categories(snap, tl, state, event)
        got = breakdown_at(snap, tl, event)
        assert got.allocated_bytes == compute_metrics(state).allocated_bytes
