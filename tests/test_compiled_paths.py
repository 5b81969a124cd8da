"""The compiled fast paths give exactly what the pure-Python ones give, and fall back safely on odd input."""

from __future__ import annotations

import json
import pickle
import random
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

from gpumem_gui.core import SnapshotError, load_snapshot
from gpumem_gui.core.allocator.synthetic import synthetic_snapshot
from gpumem_gui.core.analysis import replay_warnings
from gpumem_gui.core.analysis import timetravel as timetravel_module
from gpumem_gui.core.analysis.backward_pass import frees_carry_alloc_stacks
from gpumem_gui.core.analysis.timetravel import build_timeline, compiled_replay_available
from gpumem_gui.core.rules.allocator_rules import AllocatorConfig, round_size
from gpumem_gui.core.snapshot import convert as convert_module
from gpumem_gui.core.snapshot import json_reader as json_reader_module
from gpumem_gui.core.snapshot.model import Action, Snapshot
from tests.conftest import FIXTURE_NAMES, fixture_path

compiled = pytest.mark.skipif(not compiled_replay_available(), reason="compiled kernels not built")


def _pure(data: bytes, monkeypatch: pytest.MonkeyPatch) -> Snapshot:
    with monkeypatch.context() as m:
        m.setenv("GPUMEM_GUI_PURE_PYTHON", "1")
        return load_snapshot(data)


def _canonical(snap: Snapshot) -> list[Any]:
    out: list[Any] = []
    for t in snap.traces:
        stacks = [tuple((f.name, f.filename, f.line) for f in snap.stacks.stack(int(k))) for k in t.stack]
        strings = [[snap.strings[c] if c >= 0 else None for c in col] for col in (t.compile_context, t.user_metadata)]
        pools = [snap.state.pool_ids[p] if p >= 0 else None for p in t.pool]
        out.append(
            (
                t.action.tolist(), t.addr.tolist(), t.size.tolist(), t.stream.tolist(), t.time_us.tolist(),
                t.has_time, stacks, strings, pools, t.device_free.tolist(), t.forward_frames, t.unknown_actions,
            )
        )  # fmt: skip
    return out


def _inputs() -> list[tuple[str, bytes]]:
    items = []
    for name in FIXTURE_NAMES:
        path = fixture_path(name)
        items.append((name, path.read_bytes()))
    dump = synthetic_snapshot(3000, seed=4, streams=2, devices=2, pending_fraction=0.2)
    dump["device_traces"][0][5]["forward_frames"] = ["File 'x.py', line 1"]
    dump["device_traces"][0][9]["action"] = "mystery"
    dump["device_traces"][1][3]["compile_context"] = "Torch-Compiled Region: 1/0"
    for protocol in (2, 3, 4, 5):
        items.append((f"synthetic-p{protocol}", pickle.dumps(dump, protocol=protocol)))
    return items


@compiled
def test_fast_reader_equals_the_standard_unpickler(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GPUMEM_GUI_PURE_PYTHON", raising=False)  # the fast reader is what this test is about
    for name, data in _inputs():
        fast = convert_module.snapshot_from_pickle_fast(data, name)
        assert fast is not None, name  # every real file and protocol goes the fast way
        assert _canonical(fast) == _canonical(_pure(data, monkeypatch)), name


@compiled
def test_taken_columns_are_the_readers_memory_and_outlive_it() -> None:
    # take_arrays lends each column's memory to its array (no copy): the arrays must hold the values read, be
    # writable as any array, and stay valid once the columns object is gone
    import gc  # noqa: PLC0415

    entries = [{"action": "alloc", "addr": 512 * i, "size": 7 + i, "stream": i % 3} for i in range(5000)]
    rows = convert_module._Tables(True).entry_columns()
    assert convert_module._columns is not None
    convert_module._columns.extract(entries, rows)
    (addr, size, stream, time_us), (action, *_) = rows.take_arrays()
    del rows
    gc.collect()
    np.ones(200_000, np.int64)  # memory reused by anything freed too early would no longer hold the values
    assert addr.dtype == np.int64 and action.dtype == np.int32
    assert addr.tolist() == [e["addr"] for e in entries] and size.tolist() == [e["size"] for e in entries]
    assert stream.tolist() == [e["stream"] for e in entries] and time_us.tolist() == [0] * len(entries)
    assert len(set(action.tolist())) == 1
    size[0] = 1
    assert size[0] == 1
    assert [len(a) for a in (addr, size, stream, time_us, action)] == [len(entries)] * 5


@compiled
def test_dict_extraction_equals_python(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    dump = synthetic_snapshot(2000, seed=8, streams=2)
    path = tmp_path / "s.json"
    path.write_text(json.dumps(dump))
    with monkeypatch.context() as m:
        m.setenv("GPUMEM_GUI_PURE_PYTHON", "1")
        pure = load_snapshot(path)
    assert _canonical(load_snapshot(path)) == _canonical(pure)


@compiled
def test_fast_reader_falls_back_on_what_it_does_not_read(tmp_path: Path) -> None:
    # protocol 0 is text: the fast reader leaves it to the standard unpickler
    data = pickle.dumps(synthetic_snapshot(200, seed=2), protocol=0)
    assert convert_module.snapshot_from_pickle_fast(data, "p0") is None
    assert len(load_snapshot(data).traces[0]) == 200
    # a dict with an "action" key outside device_traces must not be mistaken for a trace entry
    dump = synthetic_snapshot(200, seed=2)
    dump["segments"][0]["frames"] = [{"action": "alloc", "name": "f", "filename": "x", "line": 1}]
    assert len(load_snapshot(pickle.dumps(dump)).traces[0]) == 200


@compiled
def test_mutated_pickles_never_crash(monkeypatch: pytest.MonkeyPatch) -> None:
    data = pickle.dumps(synthetic_snapshot(300, seed=6), protocol=4)
    rng = random.Random(0)
    for _ in range(300):
        mutated = bytearray(data)
        for _ in range(rng.randint(1, 4)):
            mutated[rng.randrange(len(mutated))] = rng.randrange(256)
        if rng.random() < 0.3:
            mutated = mutated[: rng.randrange(len(mutated))]
        blob = bytes(mutated)
        try:
            fast: Any = load_snapshot(blob)
        except SnapshotError:
            fast = "error"
        try:
            pure: Any = _pure(blob, monkeypatch)
        except SnapshotError:
            pure = "error"
        # where both read it, they agree; the fast way may only ever fall back, never differ
        if fast != "error" and pure != "error":
            assert _canonical(fast) == _canonical(pure)


@compiled
def test_compiled_replay_equals_python() -> None:
    snaps = [load_snapshot(fixture_path(n)) for n in FIXTURE_NAMES]
    snaps += [
        load_snapshot(pickle.dumps(synthetic_snapshot(6000, seed=s, streams=2, pending_fraction=0.2))) for s in range(3)
    ]
    for snap in snaps:
        for device in snap.devices():
            a = build_timeline(snap, device, compiled=False)
            b = build_timeline(snap, device, compiled=True)
            for name in ("reserved", "allocated", "requested", "active", "free", "largest_free", "segments"):
                assert np.array_equal(getattr(a.series, name), getattr(b.series, name)), name
            assert a.series.initial == b.series.initial
            for x, y in zip(vars(a.lifetimes).values(), vars(b.lifetimes).values(), strict=True):
                assert np.array_equal(x, y)
            for x, y in zip(vars(a.pieces).values(), vars(b.pieces).values(), strict=True):
                assert np.array_equal(x, y)
            assert [sorted(k.tolist()) for k in a.keyframes] == [sorted(k.tolist()) for k in b.keyframes]
            assert np.array_equal(a.block_sizes, b.block_sizes)
            assert a.ooms == b.ooms and a.warnings == b.warnings == []


@compiled
def test_compiled_replay_reports_the_codes_of_the_one_warning_table() -> None:
    from gpumem_gui.core.analysis import _replay  # type: ignore[attr-defined]  # noqa: PLC0415

    for name, code in vars(replay_warnings).items():
        if name.startswith("W_"):
            assert getattr(_replay, name) == code, name


@compiled
def test_compiled_round_size_matches_python() -> None:
    from gpumem_gui.core.analysis import _replay  # type: ignore[attr-defined]  # noqa: PLC0415

    rng = random.Random(1)
    for divisions in ((0,) * 16, (4,) * 16, (1, 2, 4, 8, 16, 2, 4, 8, 1, 1, 4, 8, 2, 2, 16, 8)):
        cfg = AllocatorConfig(roundup_power2_divisions=divisions)
        for _ in range(2000):
            size = rng.choice([rng.randint(1, 4096), rng.randint(1, 1 << 24), rng.randint(1, 1 << 36)])
            assert _replay.round_size(size, list(divisions)) == round_size(size, cfg), (size, divisions)


class _CompiledStandIn:
    """Stands where a compiled module is: every use of it is noted, and fails."""

    def __init__(self, name: str, used: list[str]) -> None:
        self.name, self.used = name, used

    def __getattr__(self, attribute: str) -> Any:
        self.used.append(f"{self.name}.{attribute}")
        raise AssertionError(f"{self.name}.{attribute} used in pure-Python mode")


def test_pure_python_mode_is_honoured(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # both kernels "built", so only the environment variable can keep the loader and the replay away from them
    used: list[str] = []
    monkeypatch.setattr(convert_module, "_columns", _CompiledStandIn("_columns", used))
    monkeypatch.setattr(json_reader_module, "_columns", _CompiledStandIn("_columns", used))  # JSON's reader
    monkeypatch.setattr(timetravel_module, "_replay", _CompiledStandIn("_replay", used))
    monkeypatch.setenv("GPUMEM_GUI_PURE_PYTHON", "1")
    dump = synthetic_snapshot(300, seed=1)
    data = pickle.dumps(dump)
    assert convert_module.snapshot_from_pickle_fast(data, "x") is None
    json_path = tmp_path / "s.json"
    json_path.write_text(json.dumps(dump))
    for snap in (load_snapshot(data), load_snapshot(json_path)):  # the pickle reader, and trace dicts to columns
        assert len(snap.traces[0]) == 300
        assert build_timeline(snap, 0).n_events == 300  # the replay
    assert used == []


def _carry_trace(rows: list[tuple[int, int, int]]) -> Any:
    """A trace of (action, address, stack) rows, with only the columns frees_carry_alloc_stacks reads."""
    action, addr, stack = zip(*rows, strict=True) if rows else ((), (), ())
    return SimpleNamespace(
        action=np.asarray(action, np.int8), addr=np.asarray(addr, np.int64), stack=np.asarray(stack, np.int32)
    )


def _carry_both(trace: Any) -> bool:
    from gpumem_gui.core.analysis import _replay  # type: ignore[attr-defined]  # noqa: PLC0415 (built or skipped)

    expected = frees_carry_alloc_stacks(trace)
    # the replay kernel's history decides it in its backward pass (what the timeline's build uses)
    zeros = np.zeros(len(trace.action), np.int64)
    kernel = _replay.ForwardReplay(
        trace.action, trace.addr, zeros, zeros, trace.stack, zeros.astype(np.int32), 1 << 62, [0] * 16
    )
    none = np.zeros(0, np.int64)
    blocks, _known = kernel.history(none, none, none, none, none)
    assert kernel.free_stacks_kept == expected
    # a block seen only being freed keeps its free's stack exactly when frees carry their allocs' stacks
    unknown = blocks[1] < 0
    if not expected:
        assert (blocks[3][unknown] == -1).all()
    return expected


@compiled
def test_compiled_frees_carry_alloc_stacks_equals_numpy() -> None:
    a, r, c = int(Action.ALLOC), int(Action.FREE_REQUESTED), int(Action.FREE_COMPLETED)
    # hand-worked: the free right after its alloc (at that address) repeats the alloc's stack, or not
    assert _carry_both(_carry_trace([(a, 512, 3), (a, 1024, 4), (r, 1024, 4), (r, 512, 3)])) is True
    assert _carry_both(_carry_trace([(a, 512, 3), (r, 512, 4)])) is False
    assert _carry_both(_carry_trace([(a, 512, 3), (r, 512, -1)])) is False  # a free without a stack pairs nothing
    assert _carry_both(_carry_trace([(r, 512, 3), (a, 512, 3)])) is False  # a free before any alloc pairs nothing
    assert _carry_both(_carry_trace([(a, 512, 3), (r, 512, 3), (c, 512, 3), (a, 512, 5), (r, 512, 5)])) is True
    assert _carry_both(_carry_trace([(a, 512, 3), (r, 512, 3), (r, 512, 9)])) is True  # the second free: after a free
    assert _carry_both(_carry_trace([])) is False
    rng = random.Random(7)
    for _ in range(300):  # short traces over few addresses and stacks: every kind of neighbour occurs
        rows = [(rng.choice((a, a, r, r, c)), 512 * rng.randrange(4), rng.randrange(-1, 3)) for _ in range(12)]
        _carry_both(_carry_trace(rows))
    for name in FIXTURE_NAMES:
        snap = load_snapshot(fixture_path(name))
        for trace in snap.traces:
            _carry_both(trace)
