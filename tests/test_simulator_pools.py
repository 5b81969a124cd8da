"""Private pools in the simulator, by CUDACachingAllocator.cpp's rules: get_pool routes a capture's stream to its
pool, a pool's blocks serve only its requests, release_cached_blocks frees a pool's cached segments only once
releasePool has dropped its use count to 0 (then the pool goes), and a pool shared by two captures needs both
released. Both twins."""

from __future__ import annotations

from typing import Any

import pytest

from gpumem_gui.core.allocator import simulator
from gpumem_gui.core.rules.allocator_constants import GiB, MiB

try:
    from gpumem_gui.core.allocator import _sim  # type: ignore[attr-defined]
except ImportError:
    _sim = None

GRAPH = (3, 0)  # a CUDA graph's pool
TWINS = [simulator.DeviceAllocatorSim] + ([_sim.DeviceAllocatorSim] if _sim is not None else [])


@pytest.fixture(params=TWINS, ids=lambda c: c.__module__.rsplit(".", 1)[-1])
def sim(request: Any) -> Any:
    return request.param(80 * GiB)


def _pools(sim: Any) -> list[tuple[tuple[int, int], int, str]]:
    return [(tuple(s["segment_pool_id"]), s["total_size"] // MiB, s["blocks"][0]["state"]) for s in sim.segment_dicts()]


def test_a_capture_takes_only_its_stream_s_requests_and_keeps_its_blocks(sim: Any) -> None:
    sim.begin_allocate_to_pool(GRAPH, stream=7)  # capture on stream 7
    captured = sim.malloc(12 * MiB, stream=7)
    eager = sim.malloc(12 * MiB, stream=0)  # another stream: the default pool
    sim.end_allocate_to_pool(GRAPH)
    sim.free(captured)
    again = sim.malloc(12 * MiB, stream=7)  # capture over: the free 12 MiB pool block is not the default pool's
    assert sorted(_pools(sim)) == [
        ((0, 0), 12, "active_allocated"),
        ((0, 0), 12, "active_allocated"),
        (GRAPH, 12, "inactive"),
    ]
    assert [e.get("pool_id") for e in sim.trace if e["action"] == "alloc"] == [GRAPH, None, None]
    sim.free(eager)
    sim.free(again)


def test_empty_cache_frees_a_pool_only_after_its_last_release(sim: Any) -> None:
    sim.begin_allocate_to_pool(GRAPH)  # the first graph
    sim.free(sim.malloc(40 * MiB))
    sim.end_allocate_to_pool(GRAPH)
    sim.begin_allocate_to_pool(GRAPH)  # a second graph shares the pool: use count 2
    sim.free(sim.malloc(40 * MiB))  # served from the pool's cached 40 MiB
    sim.end_allocate_to_pool(GRAPH)
    sim.free(sim.malloc(40 * MiB))  # eager: a default segment of its own
    sim.empty_cache()  # the default one goes, the pool's stays (in use)
    assert _pools(sim) == [(GRAPH, 40, "inactive")]
    sim.release_pool(GRAPH)
    sim.empty_cache()  # one graph left
    assert _pools(sim) == [(GRAPH, 40, "inactive")]
    sim.release_pool(GRAPH)
    sim.empty_cache()
    assert _pools(sim) == [] and GRAPH not in sim.private_pools and sim.reserved == 0
    frees = [(e["size"] // MiB, e.get("pool_id")) for e in sim.trace if e["action"] == "segment_free"]
    assert frees == [(40, None), (40, GRAPH)]


def test_pool_calls_out_of_order_are_refused(sim: Any) -> None:
    sim.begin_allocate_to_pool(GRAPH)
    with pytest.raises(ValueError, match="already recording"):
        sim.begin_allocate_to_pool(GRAPH)
    sim.end_allocate_to_pool(GRAPH)
    with pytest.raises(ValueError, match="not currently recording"):
        sim.end_allocate_to_pool(GRAPH)
    sim.release_pool(GRAPH)
    with pytest.raises(ValueError, match="already released"):
        sim.release_pool(GRAPH)
