"""JSON snapshots read with msgspec straight into the compiled columns (core/snapshot/json_reader.py): the very
snapshot json.loads and the conversion give (real files as JSON, every entry key, frames written differently), the
same one-line error as the pure twin for bad input, and a fraction of json.load's memory."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from gpumem_gui.core.allocator.synthetic import synthetic_snapshot, unshare_frames
from gpumem_gui.core.snapshot import json_reader, loader
from gpumem_gui.core.snapshot.errors import SnapshotError
from gpumem_gui.core.snapshot.loader import load_snapshot
from gpumem_gui.core.snapshot.model import Snapshot
from tests import twins
from tests.conftest import FIXTURE_NAMES, fixture_path, load_raw, trace_entry
from tests.memory_bounds import run_measured

fast_way = pytest.mark.skipif(
    json_reader._columns is None or json_reader.msgspec is None, reason="compiled kernels or msgspec missing"
)
FX_FRAME = {
    "name": "forward",
    "filename": "/tmp/torchinductor/abc.py",
    "line": 40,
    "fx_node_op": "call_function",
    "fx_node_name": "addmm",
    "fx_node_target": "aten.addmm.default",
    "fx_original_trace": 'File "model.py", line 7, in forward\n    y = self.lin(x)',
}


def _standard(source: Any, monkeypatch: pytest.MonkeyPatch) -> Snapshot:
    """The snapshot json.loads and the compiled conversion give (the way every JSON file was read before)."""
    with monkeypatch.context() as m:
        m.setattr(loader, "_json_fast", lambda data, label, on_state: None)
        with twins.pure_python(False):
            return load_snapshot(source)


def _fast(path: Path) -> Snapshot:
    snap = json_reader.snapshot_from_json_fast(path.read_bytes(), str(path))
    assert snap is not None, "the fast way gave up on a snapshot it reads"
    return snap


def _assert_same(a: Snapshot, b: Snapshot, label: str) -> None:
    """The very same snapshot: every column, with strings, pools, frames and stacks numbered alike."""
    assert twins.first_difference(twins.model(a), twins.model(b)) is None, label
    assert (a.strings, a.metadata, a.state.pool_ids, a.warnings) == (
        b.strings,
        b.metadata,
        b.state.pool_ids,
        b.warnings,
    )
    assert a.stacks.frames == b.stacks.frames and a.stacks.fx == b.stacks.fx, label
    for x, y in [(a.stacks.offsets, b.stacks.offsets), (a.stacks.frame_ids, b.stacks.frame_ids)]:
        assert np.array_equal(x, y), label
    assert np.array_equal(a.state.segments.pool, b.state.segments.pool), label
    assert np.array_equal(a.state.blocks.stack, b.state.blocks.stack), label
    for ta, tb in zip(a.traces, b.traces, strict=True):
        for column in ("stack", "compile_context", "user_metadata", "pool", "device_free"):
            assert np.array_equal(getattr(ta, column), getattr(tb, column)), (label, column)
        assert (ta.categories, ta.forward_frames, ta.unknown_actions) == (
            tb.categories,
            tb.forward_frames,
            tb.unknown_actions,
        )


def _every_key() -> dict[str, Any]:
    """Two devices; entries with every key a trace has: strings, a dict user_metadata, a private pool, an OOM's
    device_free, a backward free's forward_frames and category, an unknown action, an FX frame; a segment in a
    private pool listed before the default one."""
    frames = [
        {"name": "forward", "filename": "model.py", "line": 12},
        {"name": "<module>", "filename": "t.py", "line": 3},
    ]
    segment = {"device": 0, "address": 1 << 30, "total_size": 2 << 20, "stream": 0, "segment_type": "large",
               "segment_pool_id": [3, 4], "frames": frames,
               "blocks": [{"address": 1 << 30, "size": 2 << 20, "requested_size": 2 << 20, "state": "active_allocated",
                           "frames": frames}]}  # fmt: skip
    default = dict(
        segment, address=2 << 30, segment_pool_id=[0, 0], blocks=[dict(segment["blocks"][0], address=2 << 30)]
    )
    trace = [
        trace_entry("segment_alloc", 1 << 30, 2 << 20, 1, frames=frames),
        dict(trace_entry("alloc", 1 << 30, 2 << 20, 2, {"stage": 1, "rank": 0}, frames=[FX_FRAME, *frames]),
             pool_id=[3, 4], compile_context="[0/1]"),
        dict(trace_entry("free_requested", 1 << 30, 2 << 20, 3, "step 2"), forward_frames=["model.py:12 forward"],
             category="activations"),
        trace_entry("mystery", 1 << 30, 512, 4, frames=[]),
        {"action": "oom", "size": 8 << 30, "stream": 0, "time_us": 5, "device_free": 1 << 20, "frames": frames},
    ]  # fmt: skip
    other = [{"action": "alloc", "addr": 4096, "size": 512, "stream": 1, "frames": None}]
    return {"segments": [segment, default], "device_traces": [trace, other], "allocator_settings": {"a": 0.8}}


@pytest.mark.slow
@fast_way
@pytest.mark.parametrize("name", FIXTURE_NAMES)
def test_real_files_as_json_read_as_json_loads_reads_them(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(load_raw(fixture_path(name))))
    fast = _fast(path)
    _assert_same(fast, _standard(path, monkeypatch), name)


@fast_way
def test_every_entry_key_and_frames_written_differently(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    dump = _every_key()
    path = tmp_path / "keys.json"
    # one entry's frames with the keys in another order and spaced out: the same stack all the same
    text = json.dumps(dump).replace(
        '{"name": "<module>", "filename": "t.py", "line": 3}]', '{"line":3,  "filename":"t.py","name":"<module>"}]', 1
    )
    path.write_text(text)
    fast = _fast(path)
    _assert_same(fast, _standard(path, monkeypatch), "every key")
    trace = fast.traces[0]
    # the oracle: the dump's own values
    assert fast.strings[trace.compile_context[1]] == "[0/1]" and fast.strings[trace.user_metadata[2]] == "step 2"
    assert fast.metadata[int(trace.user_metadata[1])] == (("stage", "1"), ("rank", "0"))
    assert fast.state.pool_ids == [(0, 0), (3, 4)] and fast.state.pool_ids[trace.pool[1]] == (3, 4)
    assert trace.device_free.tolist() == [0, 0, 0, 0, 1 << 20] and trace.unknown_actions == {3: "mystery"}
    assert trace.forward_frames == {2: ["model.py:12 forward"]} and trace.categories == {2: "activations"}
    assert trace.stack[0] == trace.stack[4] == fast.state.segments.stack[0] and trace.stack[3] == -1
    assert [f.name for f in fast.stacks.stack(int(trace.stack[1]))] == ["forward", "forward", "<module>"]
    assert [n.name for n in fast.stacks.fx.values()] == ["addmm"]
    assert fast.traces[1].stack.tolist() == [-1] and fast.traces[1].has_time is False


def test_unshared_frames_as_json_give_the_stacks_of_their_dicts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dump = unshare_frames(synthetic_snapshot(3000, seed=5, streams=2, devices=2, distinct_stacks=30))
    path = tmp_path / "unshared.json"
    path.write_text(json.dumps(dump))
    snap = load_snapshot(path)  # the fast way, or json.loads where it is not built: the same answer
    _assert_same(snap, _standard(path, monkeypatch), "unshared")
    for trace, entries in zip(snap.traces, dump["device_traces"], strict=True):
        got = [[(f.name, f.filename, f.line) for f in snap.stacks.stack(int(k))] for k in trace.stack]
        assert got == [[(f["name"], f["filename"], f["line"]) for f in e.get("frames") or []] for e in entries]


def _bad_inputs() -> dict[str, tuple[bytes, str | None]]:
    """JSON the fast way must leave to the standard one, and the words that must come back (None: it loads)."""
    good = json.dumps(_every_key())
    trace = '{"action": "alloc", "addr": 4096, "size": 512, "stream": 0%s}'

    def with_traces(traces: str) -> bytes:
        return ('{"segments": [], "device_traces": ' + traces + "}").encode()

    def with_entry(extra: str) -> bytes:
        return with_traces("[[" + trace % extra + "]]")

    return {
        "truncated": (good[: len(good) // 2].encode(), "not valid JSON"),
        "an entry that is not a dict": (with_traces('[[{"action": "alloc"}, 7]]'), "entry 1 is a int, not a dict"),
        "device_traces not a list of lists": (with_traces('[{"action": "alloc"}]'), "list of lists"),
        "device_traces null": (with_traces("null"), None),
        "a bool time": (with_entry(', "time_us": true'), "'time_us' that is True, not an integer"),
        "a float size": (with_traces('[[{"action": "alloc", "size": 1.5}]]'), "'size' that is 1.5, not an integer"),
        "a time past 2^62 - 1": (with_entry(', "pool_id": [0, 0], "time_us": 4611686018427387904'), "beyond 2^62 - 1"),
        "NaN where an int goes": (with_entry(', "time_us": NaN'), "that is nan, not an integer"),
        "NaN in a key nobody reads": (with_entry(', "note": NaN'), None),
        "5000 digits in a key nobody reads": (with_entry(', "note": ' + "9" * 5000), "more digits than Python reads"),
        "5000 digits in a frame": (with_entry(', "frames": [{"line": ' + "9" * 5000 + "}]"), "more digits"),
        "not UTF-8 in a key nobody reads": (with_entry(', "note": "\xff"').replace(b"\xc3\xbf", b"\xff"), "not valid"),
        "a lone surrogate in a frame": (with_entry(', "frames": [{"name": "\\udcff", "line": 1}]'), None),
        "frames that are not a list": (with_entry(', "frames": 5'), "'frames'"),
        "a frame that is not a dict": (with_entry(', "frames": [5]'), "stack frame"),
        "frames nested too deeply": (with_entry(', "frames": ' + "[" * 100_000 + "]" * 100_000), "nested too deeply"),
        "more entries than the bytes can hold": (
            b'{"segments":[],"device_traces":[[' + b",".join([b"{}"] * 40_000) + b"]]}", "refused to load: more than"
        ),
        "a bad pool id": (with_entry(', "pool_id": [true, 0]'), "pool"),
    }  # fmt: skip


@fast_way
@pytest.mark.parametrize("case", list(_bad_inputs()))
def test_bad_input_is_left_to_the_standard_way_and_worded_alike(case: str, tmp_path: Path) -> None:
    data, words = _bad_inputs()[case]
    path = tmp_path / "bad.json"
    path.write_bytes(data)
    assert json_reader.snapshot_from_json_fast(data, "bad") is None
    fast, pure = twins.outcome(path, pure=False), twins.outcome(path, pure=True)
    assert twins.first_difference(fast, pure) is None, case
    if words is None:
        assert "error" not in fast, fast.get("error")
        return
    error = fast.get("error", "")
    assert words in error and "\n" not in error, error
    with pytest.raises(SnapshotError) as raised:
        load_snapshot(path)
    assert str(raised.value) == error.replace("(mutant)", f"({path})")


@fast_way
def test_an_entry_key_it_does_not_know_is_read_the_standard_way(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dump = _every_key()
    dump["device_traces"][0][1]["a_key_of_torch_3"] = {"deep": [1, 2.5, None]}
    path = tmp_path / "new_key.json"
    path.write_text(json.dumps(dump))
    assert json_reader.snapshot_from_json_fast(path.read_bytes(), "x") is None  # msgspec would skip it unchecked
    snap = load_snapshot(path)
    _assert_same(snap, _standard(path, monkeypatch), "new key")
    _assert_same(snap, _fast(_write(tmp_path / "known.json", _every_key())), "the known keys alone")


@fast_way
def test_the_final_state_comes_before_the_trace_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _write(tmp_path / "keys.json", _every_key())
    said: list[Any] = []
    decoder = json_reader._TRACES

    class Watched:
        def decode(self, text: Any) -> Any:
            said.append("the traces decoded")
            return decoder.decode(text)

    monkeypatch.setattr(json_reader, "_TRACES", Watched())
    snap = load_snapshot(path, on_state=said.append)
    assert said[1:] == ["the traces decoded"], said
    assert said[0].traces == [] and twins.model(said[0]) == twins.model(snap.without_traces())

    def fails(state: Snapshot) -> None:
        raise ValueError("the caller's own error")

    with pytest.raises(ValueError, match="the caller's own error"):  # never taken for the file's, never read again
        load_snapshot(path, on_state=fails)


def test_without_msgspec_json_loads_reads_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _write(tmp_path / "keys.json", _every_key())
    with_it = load_snapshot(path)
    monkeypatch.setattr(json_reader, "msgspec", None)  # an install without it
    assert json_reader.snapshot_from_json_fast(path.read_bytes(), "x") is None
    _assert_same(load_snapshot(path), with_it, "without msgspec")


def _write(path: Path, dump: dict[str, Any]) -> Path:
    path.write_text(json.dumps(dump))
    return path


_JSON_LOAD_PEAK = """
import gc, json, sys
gc.disable()
with open(sys.argv[1], "rb") as f:
    json.load(f)
status = open("/proc/self/status").read()
print(int(status.split("VmHWM:")[1].split()[0]) * 1024)
"""


@fast_way
def test_a_json_snapshot_takes_under_half_of_json_loads_memory(tmp_path: Path) -> None:
    # the benchmark's edge case (bench_scale.json_path) at 60k events: about 38 MB of JSON, 3.5M frame dicts
    dump = unshare_frames(synthetic_snapshot(60_000, seed=42, streams=2, distinct_stacks=250, stack_depth=(4, 8)))
    path = _write(tmp_path / "big.json", dump)
    del dump
    said, ours = run_measured("load", str(path))
    assert said.startswith("loaded"), said
    done = subprocess.run(
        [sys.executable, "-c", _JSON_LOAD_PEAK, str(path)], capture_output=True, text=True, check=True
    )
    yardstick = int(done.stdout)
    assert ours < 0.5 * yardstick, f"peak RSS {ours >> 20} MB, json.load's {yardstick >> 20} MB"
