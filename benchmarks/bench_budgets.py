"""The speeds the tests held to a wall-clock budget until issue 29: a test asserts what a computation gives, this
prints how long it takes at the size that matters, beside the budget it was held to (best of --rounds).

breakdown: breakdown_at over 100k blocks (budget 150 ms); diff: diff_of of two 100k-block states (200 ms); filter:
the event list filtered over 3M events (100 ms a filter); filter_view: the same through the widget (1 s);
upcoming: the next requests after a cursor on 3M events (5 ms a frame); site_tree: tree_of_blocks over 100k blocks
(100 ms); growth: find_growth on a 1M-event file of the real shape, found and measured every 1000 events (1 s).
Prints JSON: each case's best milliseconds, its budget and whether it kept it.
Run: python benchmarks/bench_budgets.py [--cases breakdown diff ...] [--rounds 3]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import pickle
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from gpumem_gui.app.launch import application
from gpumem_gui.core.rules.allocator_constants import MiB
from gpumem_gui.core.snapshot.model import AllocatorState, BlockTable, SegmentTable, Snapshot, TraceTable

BUDGET_MS = {
    "breakdown": 150, "diff": 200, "filter": 100, "filter_view": 1000, "upcoming": 5, "site_tree": 100, "growth": 1000,
}  # fmt: skip


def many_blocks_snapshot(n: int = 100_000) -> Snapshot:
    """A simulator's snapshot of `n` small blocks over 300 stacks, every seventh freed."""
    from gpumem_gui.core import load_snapshot
    from gpumem_gui.core.allocator.simulator import DeviceAllocatorSim

    sim = DeviceAllocatorSim(8 << 30)
    stacks = [[{"name": f"f{i}", "filename": f"model/m{i % 50}.py", "line": i}] for i in range(300)]
    blocks = [sim.malloc(512 * (1 + i % 3), frames=stacks[i % 300]) for i in range(n)]
    for b in blocks[::7]:
        sim.free(b)
    return load_snapshot(pickle.dumps(sim.snapshot()))


def big_state(n_segments: int, per: int, seed: int) -> AllocatorState:
    """`n_segments` 2 MiB segments of `per` equal blocks each, in random states with random stacks (of 50)."""
    rng = np.random.default_rng(seed)
    n = n_segments * per
    size = np.full(n, 2 * MiB // per, np.int64)
    address = (np.repeat(np.arange(n_segments, dtype=np.int64), per) << 24) + np.tile(np.arange(per), n_segments) * (
        2 * MiB // per
    )
    state = rng.choice(np.array([0, 1, 1, 1, 2], np.int8), n)
    segs = SegmentTable(
        np.zeros(n_segments, np.int32),
        np.arange(n_segments, dtype=np.int64) << 24,
        np.full(n_segments, 2 * MiB, np.int64),
        np.zeros(n_segments, np.int64),
        np.zeros(n_segments, bool),
        np.zeros(n_segments, np.int32),
        np.zeros(n_segments, bool),
        np.full(n_segments, -1, np.int32),
        np.arange(n_segments, dtype=np.int64) * per,
        np.full(n_segments, per, np.int64),
    )
    blocks = BlockTable(
        np.repeat(np.arange(n_segments, dtype=np.int32), per),
        address,
        size,
        size,
        state,
        rng.integers(-1, 50, n).astype(np.int32),
    )
    return AllocatorState(segs, blocks, [(0, 0)])


def tiled(snapshot: Snapshot, device: int, n: int) -> Snapshot:
    """`snapshot` with its `device` trace tiled to `n` events (times made increasing) as its only trace."""
    t = snapshot.trace(device)

    def tile(a: np.ndarray) -> np.ndarray:
        return np.tile(a, n // len(a) + 1)[:n]

    columns = [tile(c) for c in (t.action, t.addr, t.size, t.stream)]
    times = np.arange(n, dtype=np.int64) * 7 + int(t.time_us[0])
    rest = [tile(c) for c in (t.stack, t.device_free, t.compile_context, t.user_metadata, t.pool)]
    big = TraceTable(*columns, times, *rest, has_time=True)  # type: ignore[arg-type]
    return dataclasses.replace(snapshot, traces=[big])


def _best_ms(run: Callable[[], object], rounds: int) -> float:
    best = float("inf")
    for _ in range(rounds):
        t0 = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - t0)
    return best * 1000


def _breakdown(rounds: int) -> float:
    from gpumem_gui.core.analysis.breakdown import block_categories, breakdown_at
    from gpumem_gui.core.analysis.timetravel import build_timeline

    snap = many_blocks_snapshot()
    tl = build_timeline(snap, 0)
    breakdown_at(snap, tl, tl.n_events - 1)  # the per-timeline categories, computed once
    event = tl.n_events - 2
    state = tl.state_at(event)
    return _best_ms(lambda: (block_categories(snap, tl, state, event), breakdown_at(snap, tl, event)), rounds)


def _diff(rounds: int) -> float:
    from gpumem_gui.core.analysis.diff import Moment, Side, diff_of
    from gpumem_gui.core.snapshot.model import Frame, StackTable

    frames = [Frame(f"f{i}", f"/work/model/m{i}.py", i) for i in range(50)]
    stacks = StackTable(frames, np.arange(51, dtype=np.int64), np.arange(50, dtype=np.int32))
    a, b = big_state(1000, 100, 1), big_state(1000, 100, 2)
    side = Side("x", 0, -1, 0, 0, 0, 0, 0, 0)
    return _best_ms(lambda: diff_of(Moment(side, a, stacks), Moment(side, b, stacks)), rounds)


def _example_3m() -> Snapshot:
    from gpumem_gui.assets import example_path
    from gpumem_gui.core import load_snapshot

    return tiled(load_snapshot(example_path("training_leak")), 0, 3_000_000)


def _filter(rounds: int) -> float:
    from gpumem_gui.document.event_list import EventFilter, EventTable

    table = EventTable(_example_3m(), 0)
    filters = (EventFilter("allocations", 64 * MiB), EventFilter("frees", 0, 0), EventFilter("ooms"))
    return max(_best_ms(lambda f=f: table.filter(f), rounds) for f in filters)


def _filter_view(rounds: int) -> float:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

    from gpumem_gui.document.event_list import EventFilter
    from gpumem_gui.views.snapshot.event_list import EventListView

    app = application()  # the window's own application (it hears a change of language without a filter)
    view = EventListView()
    view.resize(900, 400)
    view.show()
    view.set_document(_example_3m(), 0)
    app.processEvents()
    times = []
    for _ in range(rounds):
        view.set_filter(EventFilter("all"))
        times.append(_best_ms(lambda: view.set_filter(EventFilter("allocations", 64 * MiB)), 1))
    view.close()
    return min(times)


def _upcoming(rounds: int) -> float:
    from gpumem_gui.core.analysis.first_look import upcoming_requests
    from gpumem_gui.core.snapshot.model import Action

    n = 3_000_000
    rng = np.random.default_rng(1)
    actions = np.full(n, int(Action.FREE_COMPLETED), np.int8)
    actions[rng.choice(n, 200_000, replace=False)] = Action.ALLOC
    z64, z32 = np.zeros(n, np.int64), np.zeros(n, np.int32)
    trace = TraceTable(actions, z64, rng.integers(1, 1 << 30, n), z64, z64, z32, z64, z32, z32, z32)
    cursors = rng.integers(0, n, 50).tolist()
    return _best_ms(lambda: [upcoming_requests(trace, c) for c in cursors], rounds) / len(cursors)


def _site_tree(rounds: int) -> float:
    from gpumem_gui.assets import example_path
    from gpumem_gui.core import load_snapshot
    from gpumem_gui.core.analysis.site_tree import tree_of_blocks

    snapshot = load_snapshot(example_path("training_leak"))
    rng = np.random.default_rng(0)
    n = 100_000
    stack = rng.integers(-1, len(snapshot.stacks), n).astype(np.int64)
    size = rng.integers(1, 1 << 20, n).astype(np.int64) * 512
    before = rng.random(n) < 0.1
    tree_of_blocks(snapshot, stack[:10], size[:10], before[:10])  # the stacks' sites are computed once per table
    return _best_ms(lambda: tree_of_blocks(snapshot, stack, size, before), rounds)


def _growth(rounds: int) -> float:
    from bench_data import shape_path

    from gpumem_gui.core import load_snapshot
    from gpumem_gui.core.analysis.growth import Steps, find_growth
    from gpumem_gui.core.analysis.timetravel import build_timeline

    snap = load_snapshot(shape_path("real", 1_000_000))
    tl = build_timeline(snap, 0)
    every = Steps(np.arange(999, tl.n_events, 1000, dtype=np.int64), "every 1000 events")
    return _best_ms(lambda: (find_growth(snap, tl), find_growth(snap, tl, every)), rounds)


CASES: dict[str, Callable[[int], float]] = {
    "breakdown": _breakdown, "diff": _diff, "filter": _filter, "filter_view": _filter_view, "upcoming": _upcoming,
    "site_tree": _site_tree, "growth": _growth,
}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", nargs="+", choices=sorted(CASES), default=list(CASES))
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    out: dict[str, Any] = {}
    for name in args.cases:
        ms = CASES[name](args.rounds)
        out[name] = {"ms": round(ms, 3), "budget_ms": BUDGET_MS[name], "within": ms <= BUDGET_MS[name]}
        print(f"{name}: {ms:.1f} ms (budget {BUDGET_MS[name]} ms)", flush=True, file=sys.stderr)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
