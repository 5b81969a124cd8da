"""Releases: an explicit empty_cache() is told apart from the allocator's own release, and only the first is copied."""

from __future__ import annotations

import pickle
from typing import Any

import pytest

from gpumem_gui.cli import main
from gpumem_gui.core import load_snapshot
from gpumem_gui.core.allocator.releases import release_runs
from gpumem_gui.core.allocator.replay import replay
from gpumem_gui.core.allocator.simulator import DeviceAllocatorSim, OutOfMemoryError
from gpumem_gui.core.allocator.synthetic import synthetic_snapshot
from gpumem_gui.core.analysis.timetravel import build_timeline
from gpumem_gui.core.rules.allocator_constants import GiB, MiB
from gpumem_gui.core.snapshot.model import Snapshot


def _at(name: str, line: int) -> list[dict[str, Any]]:
    return [{"name": name, "filename": "train.py", "line": line}]


EMPTY_CACHE = [{"name": "empty_cache", "filename": "torch/cuda/memory.py", "line": 192}, *_at("step", 9)]


def _hand_made(*, stacks: bool = True, with_oom: bool = True) -> tuple[Snapshot, list[bool]]:
    """A 100 MiB device driven into each kind of release; returns the snapshot and the expected labels (explicit?)."""
    sim = DeviceAllocatorSim(100 * MiB)

    def at(name: str, line: int) -> list[dict[str, Any]] | None:
        return _at(name, line) if stacks else None

    expected = []
    for block in [sim.malloc(30 * MiB, frames=at("layer", k)) for k in range(3)]:
        sim.free(block)  # 90 MiB cached, in three whole segments
    big = sim.malloc(50 * MiB, frames=at("big", 1))  # 90 + 50 > 100: the allocator frees the cache itself
    expected.append(False)
    sim.free(big)
    sim.empty_cache(EMPTY_CACHE if stacks else None)  # explicit, and a request needs a new segment right after
    expected.append(True)
    small = sim.malloc(20 * MiB, frames=at("small", 2))
    sim.free(small)
    sim.empty_cache()  # explicit without a context: the free shows the segment's own stack, not the next request's
    expected.append(True)
    other = sim.malloc(20 * MiB, frames=at("other", 3))
    mid = sim.malloc(20 * MiB, frames=at("mid", 3))
    sim.free(other)
    sim.empty_cache()  # explicit, and a free comes next, not a request
    expected.append(True)
    sim.free(mid)
    keep = sim.malloc(20 * MiB, frames=at("keep", 4))  # mid's cached segment
    sim.free(sim.malloc(20 * MiB, frames=at("tmp", 5)))  # 40 MiB reserved, 20 MiB of it cached
    if with_oom:
        with pytest.raises(OutOfMemoryError):
            sim.malloc(90 * MiB, frames=at("huge", 6))  # frees the cached 20 MiB, still does not fit
        expected.append(False)
    sim.free(keep)
    return load_snapshot(pickle.dumps(sim.snapshot())), expected


def test_explicit_empty_cache_is_told_from_the_allocators_own_release() -> None:
    snap, expected = _hand_made()
    runs = release_runs(snap.trace(0), snap.stacks)
    assert [r.explicit for r in runs] == expected, [r.reason for r in runs]
    assert len(expected) == 5


def test_without_stacks_only_the_structure_tells() -> None:
    # recorded with context off: a release right before a device call cannot be told from the allocator's own
    snap, expected = _hand_made(stacks=False)
    runs = release_runs(snap.trace(0), snap.stacks)
    assert [r.explicit for r in runs] == [False, False, False, True, False]
    assert [r.explicit for r in runs] != expected  # the two explicit calls right before a cudaMalloc


@pytest.mark.parametrize("hints", [True, False])
def test_the_simulator_predicts_the_allocators_release(hints: bool) -> None:
    snap, _ = _hand_made()
    result = replay(snap, hints=hints)
    assert (result.explicit_releases, result.allocator_releases) == (3, 2)
    assert result.capacity == 100 * MiB and result.capacity_source == "oom"  # what the OOM saw
    o, r = result.original, result.replayed
    assert result.first_divergence is None
    assert (r.device_frees, r.device_allocations, r.oom_events) == (o.device_frees, o.device_allocations, 1)
    assert r.peak_reserved_bytes == o.peak_reserved_bytes == 90 * MiB


def test_a_release_not_copied_where_a_bigger_device_needs_none() -> None:
    # with 1 GiB the request for 50 MiB fits beside the cache: the allocator's release does not happen (the
    # old replay copied every release as empty_cache()); the explicit ones still do
    snap, _ = _hand_made()
    result = replay(snap, capacity=1024 * MiB)
    replayed = load_snapshot(pickle.dumps(result.snapshot))
    runs = release_runs(replayed.trace(0), replayed.stacks)
    assert [r.explicit for r in runs] == [True, True, True]
    assert result.replayed.oom_events == 0
    assert result.first_divergence == release_runs(snap.trace(0), snap.stacks)[0].start


def test_the_device_size_follows_from_a_release_without_an_oom() -> None:
    # no OOM to say how big the device was: the allocator's release says it was under 140 MiB, and the replay
    # (80 GiB otherwise) releases at the same request
    snap, _ = _hand_made(with_oom=False)
    result = replay(snap)
    assert 90 * MiB <= result.capacity < 140 * MiB
    assert result.first_divergence is None
    assert result.replayed.device_frees == result.original.device_frees == 6


def test_a_trace_that_starts_from_overlapping_memory_is_refused_in_one_line(tmp_path: Any, capsys: Any) -> None:
    # a free completed inside a live block: undone, the state before the trace would hold memory twice; the replay
    # refuses it (a KeyError traceback, or its check of the replayed run failing, before)
    sim = DeviceAllocatorSim(100 * MiB)
    block = sim.malloc(4096)
    raw = sim.snapshot()
    raw["device_traces"][0] = [{"action": "free_completed", "addr": block.addr + 512, "size": 512, "stream": 0}]
    with pytest.raises(ValueError, match="does not replay: before its first event"):
        replay(load_snapshot(pickle.dumps(raw)))
    path = tmp_path / "overlap.pickle"
    path.write_bytes(pickle.dumps(raw))
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "does not replay" in err and str(path) in err


def test_a_segment_freed_inside_a_live_block_is_a_warning_and_a_divergence_at_once() -> None:
    # the time travel skips the impossible release with a warning (both twins alike), so the replay runs and says
    # the recorded run cannot be followed from its first event
    sim = DeviceAllocatorSim(100 * MiB)
    block = sim.malloc(4096)
    raw = sim.snapshot()
    raw["device_traces"][0] = [{"action": "segment_free", "addr": block.addr + 512, "size": 512, "stream": 0}]
    snap = load_snapshot(pickle.dumps(raw))
    assert any("which is not a free segment" in w for w in build_timeline(snap, 0).warnings)
    assert replay(snap).first_divergence == 0


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_generated_traces_under_pressure_replay_with_every_release_predicted(seed: int) -> None:
    # a 2 GiB device: the generator's allocator frees its cache on the allocation path 60-76 times per trace (and
    # completes the pending frees first, as PyTorch's release does); the simulator, left to decide, does the same
    raw = synthetic_snapshot(5000, seed=seed, streams=2, pending_fraction=0.1, capacity=2 * GiB)
    snap = load_snapshot(pickle.dumps(raw))
    for hints in (True, False):
        result = replay(snap, hints=hints)
        o, r = result.original, result.replayed
        assert result.allocator_releases >= 60
        assert result.first_divergence is None
        figures = (o.device_allocations, o.device_frees, o.oom_events, o.peak_reserved_bytes)
        assert (r.device_allocations, r.device_frees, r.oom_events, r.peak_reserved_bytes) == figures


def test_an_oom_under_a_memory_fraction_happens_again_in_the_replay() -> None:
    # set_per_process_memory_fraction refused 200 MiB while the device had 80 GiB free (the trace does not record
    # the fraction): the replay takes the lowest limit the recording allows, so the OOM recurs, where the device's
    # free memory would have granted it (seen on an H200: 2 GiB refused under a 1 GiB fraction)
    sim = DeviceAllocatorSim(80 * GiB)
    sim.set_memory_fraction(100 * MiB / (80 * GiB))
    keep = sim.malloc(40 * MiB, frames=_at("keep", 1))
    sim.free(sim.malloc(30 * MiB, frames=_at("tmp", 2)))
    with pytest.raises(OutOfMemoryError):
        sim.malloc(200 * MiB, frames=_at("huge", 3))
    assert keep.allocated
    snap = load_snapshot(pickle.dumps(sim.snapshot()))
    result = replay(snap)
    # the lowest limit the recording allows: the 70 MiB held before (under the 40 + 200 MiB refused)
    assert result.capacity == 70 * MiB and result.capacity_source == "limit"
    assert result.original.oom_events == result.replayed.oom_events == 1
    assert result.first_divergence is None
    assert result.device_memory >= 80 * GiB - 40 * MiB  # what the OOM saw, not the capacity
