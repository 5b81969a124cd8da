"""The compiled simulation (_sim and _cfeed, built from simulator.py and _feed.py) gives what the pure one gives."""

from __future__ import annotations

import contextlib
import dataclasses
import pickle
import random
from typing import Any

import pytest

from gpumem_gui.core import load_snapshot
from gpumem_gui.core.allocator import replay as replay_module
from gpumem_gui.core.allocator import simulator
from gpumem_gui.core.allocator.replay import ReplayResult, compiled_simulation_available, replay
from gpumem_gui.core.allocator.synthetic import synthetic_snapshot
from gpumem_gui.core.rules.allocator_constants import GiB, MiB
from gpumem_gui.core.snapshot.model import Snapshot
from tests.conftest import FIXTURE_NAMES, fixture_path
from tests.twins import first_difference, pure_python

pytestmark = pytest.mark.skipif(not compiled_simulation_available(), reason="the compiled simulation is not built")


def _compiled_class() -> Any:
    from gpumem_gui.core.allocator import _sim  # type: ignore[attr-defined]  # noqa: PLC0415 (built or skipped)

    return _sim.DeviceAllocatorSim


def _everything(result: ReplayResult) -> dict[str, Any]:
    """Every field of a replay but its timing: figures, settings, divergence, releases and the replayed dict."""
    fields = {f.name: getattr(result, f.name) for f in dataclasses.fields(result) if f.name != "simulate_seconds"}
    if result.replayed_event is not None:  # an array: compared as a list (== of two arrays is no bool)
        fields["replayed_event"] = result.replayed_event.tolist()
    return fields | {"original": vars(result.original), "replayed": vars(result.replayed)}


def _both(snap: Snapshot, **options: Any) -> dict[str, Any]:
    """The replay's fields from each twin, checked equal; the pure one's are returned."""
    got = {}
    for pure in (True, False):
        with pure_python(pure):
            expected = simulator.DeviceAllocatorSim if pure else _compiled_class()
            assert replay_module._simulation()[0] is expected  # the twin under test is the one that runs
            got[pure] = _everything(replay(snap, **options))
    if got[False] != got[True]:  # plain == first: walking a large replay's dicts in Python would take seconds
        pytest.fail(str(first_difference(got[False], got[True])))
    return got[True]


def _devices(snap: Snapshot) -> list[int]:
    return [d for d in snap.devices() if len(snap.trace(d))]


@pytest.mark.parametrize("name", FIXTURE_NAMES)
def test_real_traces_replay_alike(name: str) -> None:
    snap = load_snapshot(fixture_path(name))
    for device in _devices(snap):
        for hints in (True, False):
            _both(snap, device=device, hints=hints)


def _synthetic(events: int = 6000, **options: Any) -> Snapshot:
    return load_snapshot(pickle.dumps(synthetic_snapshot(events, **options)), name="synthetic")


@pytest.mark.parametrize(
    ("overrides", "options", "check"),
    [
        ([], {"seed": 1, "streams": 3}, "many streams"),
        (["expandable_segments:True"], {"seed": 2, "streams": 2}, "pages mapped"),
        (["max_split_size_mb:64", "roundup_power2_divisions:4"], {"seed": 3}, "oversize"),
        (["garbage_collection_threshold:0.6", "per_process_memory_fraction:0.5"], {"seed": 4}, "collected"),
        (["expandable_segments:True"], {"seed": 5, "capacity": 3 * GiB}, "out of memory"),
        ([], {"seed": 6, "capacity": 3 * GiB, "pending_fraction": 0.2}, "out of memory"),
    ],
)
def test_synthetic_traces_replay_alike(overrides: list[str], options: dict[str, Any], check: str) -> None:
    snap = _synthetic(**options)
    fields = _both(snap, overrides=overrides)
    replayed, trace = fields["replayed"], fields["snapshot"]["device_traces"][0]
    actions = {e["action"] for e in trace}
    # each shape does what it is here for, in the pure twin's own result
    if check == "many streams":
        assert len({e["stream"] for e in trace}) == 3
    elif check == "pages mapped":
        assert "segment_map" in actions and any(s["is_expandable"] for s in fields["snapshot"]["segments"])
    elif check == "oversize":
        assert any(e["action"] == "alloc" and e["size"] > 64 * MiB for e in trace)
    elif check == "collected":
        assert "segment_free" in actions and replayed["peak_reserved_bytes"] <= fields["capacity"] // 2
    else:
        assert replayed["oom_events"] > 0 and fields["original"]["oom_events"] > 0


def test_too_small_a_device_diverges_alike() -> None:
    snap = _synthetic(seed=7, capacity=4 * GiB)
    fields = _both(snap, capacity=1 * GiB)
    assert fields["first_divergence"] is not None and fields["replayed"]["oom_events"] > 0


def _drive(sim: Any, seed: int) -> list[Any]:
    """A random workload straight on one simulator: what each call returned or raised, then its whole state."""
    rng = random.Random(seed)
    log: list[Any] = []
    live: list[Any] = []
    frames = [[{"name": f"f{k}", "filename": "model.py", "line": k}] for k in range(4)]
    for _ in range(1500):
        roll = rng.random()
        try:
            if live and roll < 0.4:
                block = live.pop(rng.randrange(len(live)))
                if rng.random() < 0.15:
                    sim.record_stream(block, rng.randrange(1, 3))
                sim.free(block, rng.choice([None, frames[0]]))
                log.append(("free", block.addr))
            elif roll < 0.43:
                sim.synchronize(rng.choice([None, 1, 2]))
            elif roll < 0.45:
                sim.empty_cache(rng.choice([None, frames[1]]))
            else:
                size = rng.choice([rng.randrange(1, 4096), rng.randrange(1, 4 * MiB), rng.randrange(1, 600 * MiB)])
                block = sim.malloc(size, rng.randrange(2), rng.choice(frames))
                live.append(block)
                log.append(("malloc", block.addr, block.size))
        except (simulator.OutOfMemoryError, ValueError) as e:
            log.append((type(e).__name__, str(e)))
    log.append((sim.reserved, sim.allocated, sim.num_ooms, sim.num_alloc_retries, sim.num_device_alloc))
    log.append(sim.snapshot())
    return log


@pytest.mark.parametrize(
    "settings",
    [
        "",
        "expandable_segments:True",
        "max_split_size_mb:100,roundup_power2_divisions:[256:1,>:4]",
        "garbage_collection_threshold:0.7,per_process_memory_fraction:0.6",
    ],
)
def test_the_simulators_alike_call_by_call(settings: str) -> None:
    compiled = _compiled_class()(3 * GiB, settings)
    pure = simulator.DeviceAllocatorSim(3 * GiB, settings)
    got, expected = _drive(compiled, 11), _drive(pure, 11)
    assert any(isinstance(entry, tuple) and entry[0] == "OutOfMemoryError" for entry in expected)
    difference = first_difference(got, expected)
    assert difference is None, difference


def _error(make: Any) -> str:
    try:
        make()
    except Exception as e:  # any error at all: both twins must raise the same
        return f"{type(e).__name__}: {e}"
    return "no error"


@pytest.mark.parametrize("case", ["double free", "bad fraction", "segment without blocks", "oom message"])
def test_bad_input_gives_the_same_error(case: str) -> None:
    def run(cls: Any) -> str:
        sim = cls(GiB)
        if case == "double free":
            block = sim.malloc(1000)
            sim.free(block)
            return _error(lambda: sim.free(block))
        if case == "bad fraction":
            return _error(lambda: sim.set_memory_fraction(1.5))
        if case == "segment without blocks":
            return _error(lambda: sim.load_segments([{"address": 1 << 30, "total_size": 2 * MiB}]))
        with contextlib.suppress(simulator.OutOfMemoryError):
            sim.malloc(300 * MiB)
        return _error(lambda: sim.malloc(2 * GiB))

    expected = run(simulator.DeviceAllocatorSim)
    assert expected != "no error"
    assert run(_compiled_class()) == expected


def test_a_replay_refused_is_refused_alike() -> None:
    snap = _synthetic(300, seed=8)
    errors = set()
    for pure in (True, False):
        with pure_python(pure):
            errors.add(_error(lambda: replay(snap, overrides=["max_split_size_mb:1"])))  # below PyTorch's minimum
            errors.add(_error(lambda: replay(snap, device=3)))
    assert len(errors) == 2 and "no error" not in errors
