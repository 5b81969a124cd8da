"""The four laboratory results of PyTorch's devlog "When does fragmentation occur in the CUDA caching allocator?"
(Edward Yang, 2026-06-01, pytorch/devlogs content/eager/2026-06-01-cuda-caching-allocator.md), run on the simulator
in a private pool as the devlog runs them (`torch.cuda.MemPool` + `use_mem_pool`, `reserved(pool)` summing the pool's
segments), on both twins: the compiled simulator and the pure-Python one.

The expected figures are the devlog's own (quoted beside each assertion); the page arithmetic is worked in the
comments from the allocator's rules (get_allocation_size, should_split, 20 MiB large pages).
"""

from __future__ import annotations

from typing import Any

import pytest

from gpumem_gui.core.allocator import simulator
from gpumem_gui.core.rules.allocator_constants import GiB, MiB

try:
    from gpumem_gui.core.allocator import _sim  # type: ignore[attr-defined]
except ImportError:  # no compiler where the package was built: the pure twin alone
    _sim = None

POOL = (1, 0)  # the first MemPool's id
TWINS = [simulator.DeviceAllocatorSim] + ([_sim.DeviceAllocatorSim] if _sim is not None else [])


@pytest.fixture(params=TWINS, ids=lambda c: c.__module__.rsplit(".", 1)[-1])
def make(request: Any) -> Any:
    def build(settings: str) -> Any:
        sim = request.param(80 * GiB, settings)
        sim.begin_allocate_to_pool(POOL)  # with torch.cuda.use_mem_pool(pool): every request goes to the pool
        return sim

    return build


def _alloc(sim: Any, n: int, mib: float) -> list[Any]:
    return [sim.malloc(int(mib * MiB)) for _ in range(n)]


def _free(sim: Any, blocks: list[Any]) -> None:
    for block in blocks:
        sim.free(block)
    blocks.clear()


def _reserved_mib(sim: Any) -> int:
    return int(sim.pool_reserved(POOL) // MiB)


def _layout(sim: Any) -> list[list[tuple[int, str]]]:
    return [
        [(b["size"] // MiB, b["state"]) for b in seg["blocks"]]
        for seg in sim.segment_dicts()
        if tuple(seg["segment_pool_id"]) == POOL
    ]


def test_small_then_large_fragments_without_expandable_segments(make: Any) -> None:
    sim = make("expandable_segments:False")
    small = _alloc(sim, 8, 16)  # 16 MiB >= 10 MiB: each its own 16 MiB cudaMalloc, nothing left to split
    assert _reserved_mib(sim) == 128  # "eight separate 16 MiB segments ... 128 MiB reserved"
    _free(sim, small)
    assert _reserved_mib(sim) == 128  # "The pool still holds 128 MiB"
    assert _layout(sim) == [[(16, "inactive")]] * 8
    large = _alloc(sim, 4, 32)  # no 16 MiB block can serve 32 MiB: four more cudaMallocs
    assert _reserved_mib(sim) == 256  # "256 MiB reserved--eight stale 16 MiB segments plus four new 32 MiB"
    _free(sim, large)


def test_large_then_small_does_not(make: Any) -> None:
    sim = make("expandable_segments:False")
    large = _alloc(sim, 4, 32)
    assert _reserved_mib(sim) == 128
    _free(sim, large)
    _alloc(sim, 8, 16)  # a 32 MiB block splits (16 MiB left > 1 MiB), its rest takes the next request
    assert _reserved_mib(sim) == 128  # "still 128 MiB reserved, each segment now split into two 16 MiB blocks"
    assert _layout(sim) == [[(16, "active_allocated"), (16, "active_allocated")]] * 4


def test_eight_16_mib_blocks_map_seven_pages_under_expandable_segments(make: Any) -> None:
    sim = make("expandable_segments:True")
    mapped = []
    blocks = []
    for _ in range(8):
        blocks.append(sim.malloc(16 * MiB))
        mapped.append(_reserved_mib(sim))
    # pages of 20 MiB mapped on demand; the free remainder grows 4, 8, 12, 16 MiB, then 0: the fifth fits in it
    assert mapped == [20, 40, 60, 80, 80, 100, 120, 140]  # "7 large pages: 140 MiB ... for 128 MiB"
    _free(sim, blocks)
    assert _layout(sim) == [[(140, "inactive")]]  # "one contiguous free block covering all the mapped memory"
    large = _alloc(sim, 4, 32)
    assert _reserved_mib(sim) == 140  # "4x32 MiB allocations can be carved out without mapping any new memory"
    _free(sim, large)


def test_live_blocks_pin_the_splits_80_to_100_mib(make: Any) -> None:
    sim = make("expandable_segments:True")
    ts = _alloc(sim, 4, 16)  # 4 pages (80 MiB): 16 x 4 allocated, 16 MiB free at the end
    assert _reserved_mib(sim) == 80
    sim.free(ts[0])
    sim.free(ts[2])  # free 16 | live 16 | free 16 | live 16 | free 16: no free block reaches 32 MiB
    assert _layout(sim) == [
        [(16, "inactive"), (16, "active_allocated"), (16, "inactive"), (16, "active_allocated"), (16, "inactive")]
    ]
    big = sim.malloc(32 * MiB)  # the last 16 MiB plus one more page (36 MiB): "reserved grew to" 100 MiB
    assert _reserved_mib(sim) == 100
    sim.free(big)
    sim.free(ts[1])
    sim.free(ts[3])
    assert _layout(sim) == [[(100, "inactive")]]  # "free all: all blocks merge into one"
    big = sim.malloc(32 * MiB)
    assert _reserved_mib(sim) == 100  # "32M fits without growing"


def test_the_1_mib_loophole(make: Any) -> None:
    sim = make("expandable_segments:True")
    sim.free(sim.malloc(2 * MiB))  # large_blocks: one 20 MiB page
    b = sim.malloc(MiB // 2)  # small_blocks: a segment of its own, one 2 MiB page
    assert _reserved_mib(sim) == 22  # "2M then 0.5M: 22 MiB with 20M/2M pages"
    sim.free(b)
    sim.release_pool(POOL)  # del pool; torch.cuda.empty_cache()
    sim.end_allocate_to_pool(POOL)
    sim.empty_cache()
    assert sim.pool_reserved(POOL) == 0 and POOL not in sim.private_pools

    sim = make("expandable_segments:True")
    sim.free(sim.malloc(2 * MiB))
    sim.malloc(2 * MiB)  # reuses the large page
    assert _reserved_mib(sim) == 20  # "2M then 2M: 20 MiB"


def test_the_quiz_demo_is_the_devlog_s_allocation_order_in_a_graph_pool() -> None:
    """Question 4's what-if (expandable_whatif) shows the small-then-large case in a graph pool still in use: the
    recorded run fails its fourth 32 MiB request with the eight freed 16 MiB segments cached in the pool; replayed
    with expandable segments the pool maps the devlog's seven pages (140 MiB) and carves every 32 MiB request."""
    from gpumem_gui.assets import example_path  # noqa: PLC0415
    from gpumem_gui.core import load_snapshot  # noqa: PLC0415
    from gpumem_gui.teach.quiz_demos import plan_for, run_whatif  # noqa: PLC0415

    plan = plan_for("expandable_whatif")
    snapshot = load_snapshot(example_path(plan.examples[0]))
    assert plan.examples == ("graph_pool_order",)
    state = snapshot.state
    pooled = state.segments.pool == state.pool_ids.index(POOL)
    assert int(pooled.sum()) == 8 + 3  # eight 16 MiB segments, three 32 MiB ones before the failed fourth
    assert sorted(state.segments.total_size[pooled] // MiB) == [16] * 8 + [32] * 3
    run = run_whatif(plan, snapshot)
    assert run.result.original.oom_events == 1 and run.result.replayed.oom_events == 0
    in_pool = [s for s in run.result.snapshot["segments"] if tuple(s["segment_pool_id"]) == POOL]
    assert sum(s["total_size"] for s in in_pool) == 140 * MiB  # "7 large pages: 140 MiB"
