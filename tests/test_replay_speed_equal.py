"""The simulator's inlined hot paths (best fit, split rule, trace records) agree with naive references."""

from __future__ import annotations

import contextlib
import random
from typing import Any

import pytest

from gpumem_gui.core.allocator.simulator import Block, DeviceAllocatorSim, OutOfMemoryError, _Pool
from gpumem_gui.core.rules.allocator_constants import GiB, MiB
from gpumem_gui.core.rules.allocator_rules import should_split

SETTINGS = ["", "max_split_size_mb:64", "expandable_segments:True", "roundup_power2_divisions:4"]


def _naive_best_fit(pool: _Pool, stream: int, size: int) -> Block | None:
    """The free block best fit takes with default settings: the smallest of the stream's blocks that can hold
    `size`, the lowest address among equals, found by looking at every free block."""
    fits = [b for b in pool.by_key.values() if b.stream == stream and b.size >= size]
    return min(fits, key=lambda b: (b.size, b.addr), default=None)


def _workload(sim: DeviceAllocatorSim, seed: int, steps: int = 3000) -> None:
    rng = random.Random(seed)
    live: list[Block] = []
    frames = [[{"name": f"f{k}", "filename": "model.py", "line": k}] for k in range(5)]
    for step in range(steps):
        if live and rng.random() < 0.45:
            block = live.pop(rng.randrange(len(live)))
            if rng.random() < 0.1:
                sim.record_stream(block, 7)
            sim.free(block)
            if rng.random() < 0.2:
                sim.synchronize(7)
        else:
            size = rng.choice([rng.randrange(1, 4096), rng.randrange(1, 2 * MiB), rng.randrange(1, 200 * MiB)])
            with contextlib.suppress(OutOfMemoryError):
                live.append(sim.malloc(size, rng.randrange(2), rng.choice(frames)))
        if step % 997 == 0:
            sim.empty_cache()


def _pool_consistent(pool: _Pool) -> None:
    assert pool.keys == sorted(pool.keys)
    assert set(pool.keys) == set(pool.by_key)
    for key, block in pool.by_key.items():
        assert key == block.key()  # the inlined key is the block's own


@pytest.mark.parametrize("settings", SETTINGS)
def test_best_fit_and_split_match_naive_references(settings: str, monkeypatch: pytest.MonkeyPatch) -> None:
    sim = DeviceAllocatorSim(2 * GiB, settings)
    checked = {"fit": 0, "split": 0}
    original_get = DeviceAllocatorSim.get_free_block
    original_found = DeviceAllocatorSim.alloc_found_block

    def get_free_block(self: DeviceAllocatorSim, pool: _Pool, stream: int, size: int) -> Block | None:
        expected = _naive_best_fit(pool, stream, size)
        before = len(pool.keys)
        got = original_get(self, pool, stream, size)
        if not settings:  # with other settings best fit has further rules (oversize blocks, growing tails)
            assert got is expected
            checked["fit"] += 1
        if got is not None:
            assert len(pool.keys) == before - 1 and got.key() not in pool.by_key
        _pool_consistent(pool)
        return got

    def alloc_found_block(  # noqa: PLR0917 (the method it wraps)
        self: DeviceAllocatorSim, block: Block, pool: _Pool, requested: int, size: int, frames: Any
    ) -> Block:
        found = block.size
        splits = should_split(
            found, size, small_pool=pool.small, expandable=self.config.expandable_segments, config=self.config
        )
        got = original_found(self, block, pool, requested, size, frames)
        if splits:  # the rest is a free block of its own, right after
            checked["split"] += 1
            rest = got.next
            assert got.size == size and rest is not None and rest.prev is got
            assert (rest.addr, rest.size, rest.allocated) == (got.addr + size, found - size, False)
            assert pool.by_key[rest.key()] is rest
        else:
            assert got.size == found
        _pool_consistent(pool)
        return got

    monkeypatch.setattr(DeviceAllocatorSim, "get_free_block", get_free_block)
    monkeypatch.setattr(DeviceAllocatorSim, "alloc_found_block", alloc_found_block)
    _workload(sim, seed=len(settings))
    assert checked["split"] > 50
    if not settings:
        assert checked["fit"] > 1000


def _naive_trace(entries: list[tuple[Any, ...]]) -> list[dict[str, Any]]:
    """The trace property as first written: one key at a time, in PyTorch's order."""
    out = []
    for action, addr, size, stream, frames, time_us, device_free, pool_id in entries:
        entry: dict[str, Any] = {"action": action}
        if action == "oom":
            entry["device_free"] = device_free
        else:
            entry["addr"] = addr
        entry["size"] = size
        entry["stream"] = stream
        entry["time_us"] = time_us
        if frames:
            entry["frames"] = frames
        if pool_id is not None:
            entry["pool_id"] = pool_id
        out.append(entry)
    return out


def test_trace_entries_match_the_naive_construction() -> None:
    sim = DeviceAllocatorSim(256 * MiB)
    _workload(sim, seed=3, steps=800)
    with pytest.raises(OutOfMemoryError):
        sim.malloc(GiB)
    got = sim.trace
    assert got[-1]["action"] == "oom"
    assert [list(e.items()) for e in got] == [list(e.items()) for e in _naive_trace(list(sim._trace))]
    times = [e["time_us"] for e in got]
    assert times == list(range(times[0], times[0] + len(times)))  # one clock tick per entry, inlined or not
