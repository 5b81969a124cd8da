"""What grows: the leaking example against the raw pickle walked by hand, the steady one, hand-made loops with and
without record_function steps, and the real fixtures (no crash, nothing absurd)."""

from __future__ import annotations

import itertools
import pickle
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from gpumem_gui.assets import example_path
from gpumem_gui.core import load_snapshot
from gpumem_gui.core.allocator.simulator import Block, DeviceAllocatorSim
from gpumem_gui.core.allocator.synthetic import synthetic_snapshot
from gpumem_gui.core.analysis.growth import (
    MIN_GROWTH,
    Steps,
    find_growth,
    find_steps,
    growth_sentences,
    site_series,
)
from gpumem_gui.core.analysis.timetravel import build_timeline
from gpumem_gui.core.rules.allocator_constants import KiB, MiB
from tests.conftest import fixture_path, load_raw
from tests.site_oracle import raw_site

LEAK_SITE = "model/transformer.py:160:forward"


def _raw_site(frames: list[dict[str, Any]]) -> str:
    """The site rule read independently on the raw frames (tests/site_oracle.py)."""
    return raw_site(frames) or (frames[0]["name"] if frames else "unknown")


def _raw_series(
    trace: list[dict[str, Any]], points: list[int], block_sizes: dict[int, int] | None = None
) -> dict[str, list[int]]:
    """Live bytes of each site right after each of `points`, walking the raw trace entry by entry; an allocation's
    bytes are its block's (`block_sizes`, by event, where the simulator kept a remainder too small to split) or
    the entry's size."""
    live: dict[int, tuple[int, str]] = {}
    series: dict[str, list[int]] = {}
    wanted = set(points)
    for i, e in enumerate(trace):
        if e["action"] == "alloc":
            size = (block_sizes or {}).get(i, e["size"])
            live[e["addr"]] = (size, _raw_site(e.get("frames", [])))
        elif e["action"] in ("free_requested", "free_completed"):
            live.pop(e["addr"], None)
        if i in wanted:
            k = points.index(i)
            for site in {s for _, s in live.values()} | set(series):
                series.setdefault(site, [0] * len(points))[k] = sum(sz for sz, s in live.values() if s == site)
    return series


def _optimizer_ends(trace: list[dict[str, Any]]) -> list[int]:
    """The last event of each run of events whose frames are the optimizer's (zero_grad aside)."""
    opt = [
        any("/torch/optim/" in f["filename"] and f["name"] != "zero_grad" for f in e.get("frames", [])) for e in trace
    ]
    return [i for i in range(len(opt)) if opt[i] and (i + 1 == len(opt) or not opt[i + 1])]


def _grows_by_hand(values: list[int]) -> bool:
    ups = sum(b > a for a, b in itertools.pairwise(values))
    return ups >= 0.75 * (len(values) - 1) and (values[-1] - values[0]) / (len(values) - 1) >= MIN_GROWTH


def test_the_leaking_example_flags_its_leak_and_nothing_else() -> None:
    path = example_path("training_leak")
    raw = load_raw(path)["device_traces"][0]
    snap = load_snapshot(path)
    tl = build_timeline(snap, 0)
    growth = find_growth(snap, tl)
    points = _optimizer_ends(raw)
    assert growth.steps.points.tolist() == points and len(points) == 6
    series = _raw_series(raw, points)
    assert [site for site, v in series.items() if _grows_by_hand(v)] == [LEAK_SITE]
    # every site's bytes at every step, and their total, as the raw walk finds them (the C++-only site of
    # AccumulateGrad is named differently by the two readings: it counts in the totals)
    measured = site_series(snap, tl, growth.steps.points)
    got = dict(zip(measured.names, measured.values.tolist(), strict=True))
    assert {k: v for k, v in got.items() if ".py:" in k} == {k: v for k, v in series.items() if ".py:" in k}
    assert measured.values.sum(axis=0).tolist() == np.sum(list(series.values()), axis=0).tolist()
    assert series[LEAK_SITE] == [32 * MiB * (k + 1) for k in range(6)]
    [site] = growth.sites
    assert site.site == LEAK_SITE and site.phase == "forward"
    assert site.bytes_per_step == pytest.approx(32 * MiB, rel=1e-12)
    assert site.values.tolist() == series[LEAK_SITE]
    assert (site.first_bytes, site.last_bytes, site.steps, site.increases) == (32 * MiB, 192 * MiB, 6, 5)
    assert site.frames[0].filename == "model/transformer.py" and site.frames[0].line == 160
    findings = growth_sentences(growth)  # what explain's findings say (diagnosis)
    assert findings[0].startswith(
        f"{LEAK_SITE} (allocated in forward) grows by 32.0 MiB per step over 6 steps (from 32.0 MiB to 192.0 MiB)"
    )
    assert "optimizer" in findings[-1]


def test_the_steady_example_flags_nothing() -> None:
    path = example_path("training_steady")
    raw = load_raw(path)["device_traces"][0]
    snap = load_snapshot(path)
    tl = build_timeline(snap, 0)
    growth = find_growth(snap, tl)
    points = _optimizer_ends(raw)
    assert growth.steps.points.tolist() == points and len(points) == 6
    assert not any(_grows_by_hand(v) for v in _raw_series(raw, points).values())
    assert growth.sites == []
    assert growth_sentences(growth) == [f"Nothing grows from step to step over 6 steps ({growth.steps.how})."]


LOOP = [{"name": "train", "filename": "loop.py", "line": 5}]


def _site(name: str, line: int) -> list[dict[str, Any]]:
    return [{"name": name, "filename": "loop.py", "line": line}, *LOOP]


def _hand_loop(steps: int = 5, annotate: bool = True) -> tuple[dict[str, Any], list[tuple[int, int]], dict[int, int]]:
    """A loop of plain functions (no phase in their names): per step a batch and scratch space, freed; 3 MiB kept
    (loop.py:20), 256 KiB kept (loop.py:30, below the threshold); 100 MiB kept once, in the first step (loop.py:40).
    Returns the dump, the clock ticks of each step's first and last event, and the block size of each allocation
    by event index (what the simulator gave, which is more than asked where the remainder was too small to split)."""
    sim = DeviceAllocatorSim(8 << 30)
    ticks = []
    sizes: dict[int, int] = {}

    def malloc(size: int, frames: list[dict[str, Any]]) -> Block:
        block = sim.malloc(size, frames=frames)
        sizes[sim.trace_length - 1] = block.size  # the alloc entry is the last one kept
        return block

    for step in range(steps):
        first = sim.clock_us + 1
        batch = malloc(8 * MiB, _site("load_batch", 10))
        for _ in range(4):
            sim.free(malloc(2 * MiB, _site("scratch", 12)))
        malloc(3 * MiB, _site("remember", 20))
        malloc(256 * KiB, _site("log_stat", 30))
        if step == 0:
            malloc(100 * MiB, _site("build_cache", 40))
        sim.free(batch)
        ticks.append((first, sim.clock_us))
    dump = sim.snapshot()
    if annotate:
        dump["external_annotations"] = [
            {"name": f"ProfilerStep#{k}", "stage": stage, "device": 0, "time_us": t}
            for k, (a, b) in enumerate(ticks)
            for stage, t in (("START", a), ("END", b + 1))
        ]
    return dump, ticks, sizes


def test_a_hand_made_loop_with_profiler_steps() -> None:
    dump, ticks, _ = _hand_loop()
    snap = load_snapshot(pickle.dumps(dump))
    tl = build_timeline(snap, 0)
    growth = find_growth(snap, tl)
    # each step measured right after its last event, found in the raw trace by its time
    index_of = {e["time_us"]: i for i, e in enumerate(dump["device_traces"][0])}
    assert growth.steps.points.tolist() == [index_of[b] for _, b in ticks]
    assert "'ProfilerStep'" in growth.steps.how
    [site] = growth.sites  # not the 256 KiB a step, nor the 100 MiB kept once
    assert site.site == "loop.py:20:remember"
    assert site.values.tolist() == [3 * MiB * (k + 1) for k in range(5)]
    assert site.bytes_per_step == pytest.approx(3 * MiB)
    assert site.phase == "other"
    sentences = growth_sentences(find_growth(snap, tl))
    assert sentences[0].startswith("loop.py:20:remember grows by 3.0 MiB per step over 5 steps")


def test_without_annotations_a_steadily_recurring_allocation_marks_the_steps() -> None:
    dump, _, _ = _hand_loop(annotate=False)
    snap = load_snapshot(pickle.dumps(dump))
    tl = build_timeline(snap, 0)
    steps = find_steps(snap, tl)
    assert steps.found and len(steps.points) == 5 and "allocations from loop.py:" in steps.how
    gaps = np.diff(steps.points)
    # a step after the first: the batch, 4 x (alloc, free_requested, free_completed), 2 kept, the batch's free
    assert gaps.tolist()[1:] == [1 + 4 * 3 + 2 + 2] * 3
    growth = find_growth(snap, tl, steps)
    assert [s.site for s in growth.sites] == ["loop.py:20:remember"]
    assert growth.sites[0].bytes_per_step == pytest.approx(3 * MiB)


def test_too_few_steps_and_no_loop_are_said_so() -> None:
    dump, _, _ = _hand_loop(steps=2)
    snap = load_snapshot(pickle.dumps(dump))
    tl = build_timeline(snap, 0)
    assert not find_steps(snap, tl).found
    assert find_growth(snap, tl).sites == []
    assert growth_sentences(find_growth(snap, tl))[0].startswith("No repeating steps found")
    snap = load_snapshot(example_path("fragmented_oom"))
    assert growth_sentences(find_growth(snap, build_timeline(snap, 0)))[0].startswith("No repeating steps found")


def test_the_layers_of_one_forward_pass_are_not_steps() -> None:
    # device 0 of this fixture runs one forward of a 28-layer model: each layer allocates from the same lines at a
    # steady pace, and its activations pile up; that is not memory growing from step to step
    snap = load_snapshot(fixture_path("constructor_memory_snapshot.pickle"))
    tl = build_timeline(snap, 0)
    assert not find_steps(snap, tl).found


def test_real_fixtures_give_nothing_absurd(real_snapshot_path: Path) -> None:
    snap = load_snapshot(real_snapshot_path)
    for device in sorted({*snap.state.devices(), snap.default_device()}):
        tl = build_timeline(snap, device)
        growth = find_growth(snap, tl)
        findings = growth_sentences(growth)  # what explain's findings say (diagnosis)
        assert findings and (growth.steps.found or not growth.sites)
        peak = tl.series.peak("allocated") if tl.n_events else 0
        for site in growth.sites:  # none today; whatever is found must fit in the memory the device ever held
            assert 0 <= site.first_bytes < site.last_bytes <= peak
            assert site.bytes_per_step * (site.steps - 1) <= peak


def test_a_random_workload_of_the_real_shape_grows_nowhere() -> None:
    """The benchmarks' real-file shape (random training-like steps, no leak): no steps are found, and measured every
    1000 events no site grows. Its speed at 1M events: benchmarks/bench_budgets.py (growth)."""
    dump = synthetic_snapshot(20_000, seed=42, streams=2, distinct_stacks=250, stack_depth=(4, 8))
    snap = load_snapshot(pickle.dumps(dump))
    tl = build_timeline(snap, 0)
    found = find_growth(snap, tl)
    assert not found.steps.found and found.sites == []
    every = Steps(np.arange(999, tl.n_events, 1000, dtype=np.int64), "every 1000 events")
    measured = find_growth(snap, tl, every)
    assert measured.steps.found and measured.sites == []


@pytest.mark.parametrize("name", ["hand_loop", "training_leak"])
def test_site_bytes_after_every_event_equal_the_raw_walk(name: str) -> None:
    dump, _, sizes = _hand_loop() if name == "hand_loop" else (load_raw(example_path(name)), [], {})
    raw = dump["device_traces"][0]
    snap = load_snapshot(pickle.dumps(dump))
    tl = build_timeline(snap, 0)
    points = list(range(len(raw)))
    measured = site_series(snap, tl, np.array(points, np.int64))
    got = dict(zip(measured.names, measured.values.tolist(), strict=True))
    series = {k: v for k, v in _raw_series(raw, points, sizes).items() if any(v)}
    assert {k: v for k, v in got.items() if ".py:" in k} == {k: v for k, v in series.items() if ".py:" in k}
    assert measured.values.sum(axis=0).tolist() == np.sum(list(series.values()), axis=0).tolist()
