"""Loading every form of snapshot, safely: real files, every protocol, gzip, JSON, legacy, and hostile input."""

from __future__ import annotations

import copy
import gzip
import json
import os
import pickle
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from gpumem_gui.core import BlockState, SnapshotError, load_snapshot
from gpumem_gui.core.allocator.synthetic import synthetic_snapshot
from gpumem_gui.core.snapshot.model import STATE_LABELS, Action
from tests.conftest import fixture_path, load_raw


def _small_dump() -> dict[str, Any]:
    return synthetic_snapshot(400, seed=1, streams=2)


def test_every_real_fixture_loads_with_globals_refused(real_snapshot_path: Path) -> None:
    raw = load_raw(real_snapshot_path)
    snap = load_snapshot(real_snapshot_path)
    segments = raw["segments"]
    assert len(snap.state.segments) == len(segments)
    assert len(snap.state.blocks) == sum(len(s["blocks"]) for s in segments)
    assert int(snap.state.segments.total_size.sum()) == sum(s["total_size"] for s in segments)
    assert [len(t) for t in snap.traces] == [len(t) for t in raw.get("device_traces", [])]
    # block columns carry the exact values of the file
    by_addr = {b["address"]: b for s in segments for b in s["blocks"]}
    blocks = snap.state.blocks
    for i in range(0, len(blocks), max(1, len(blocks) // 50)):
        original = by_addr[int(blocks.address[i])]
        assert blocks.size[i] == original["size"]
        assert blocks.requested_size[i] == original["requested_size"]
        assert STATE_LABELS[BlockState(blocks.state[i])] == original["state"]
        assert [f.name for f in snap.stacks.stack(int(blocks.stack[i]))] == [f["name"] for f in original["frames"]]


def test_trace_columns_match_the_file() -> None:
    path = fixture_path("constructor_memory_snapshot.pickle")
    raw = load_raw(path)
    snap = load_snapshot(path)
    for device, entries in enumerate(raw["device_traces"]):
        t = snap.traces[device]
        for i in range(0, len(entries), 97):
            e = entries[i]
            assert Action(t.action[i]).name.lower() == e["action"]
            assert t.size[i] == e["size"]
            assert t.addr[i] == e.get("addr", 0)
            assert t.time_us[i] == e["time_us"]
            assert [f.filename for f in snap.stacks.stack(int(t.stack[i]))] == [
                f["filename"] for f in e.get("frames", [])
            ]
            assert snap.strings[t.compile_context[i]] == e["compile_context"]
        oom = [i for i, e in enumerate(entries) if e["action"] == "oom"]
        for i in oom:
            assert t.device_free[i] == entries[i]["device_free"]
    assert snap.allocator_settings is not None and snap.allocator_settings["expandable_segments"] is True
    assert len(snap.external_annotations) == 4


def test_stacks_are_interned_once() -> None:
    path = fixture_path("cranberrii_memory_snapshot.pickle")
    raw, snap = load_raw(path), load_snapshot(path)
    lists = [b.get("frames", []) for s in raw["segments"] for b in s["blocks"]]
    lists += [s.get("frames", []) for s in raw["segments"]] + [e.get("frames", []) for e in raw["device_traces"][0]]
    distinct = {tuple((f["name"], f["filename"], f["line"]) for f in frames) for frames in lists} - {()}
    interned = [tuple((f.name, f.filename, f.line) for f in snap.stacks.stack(i)) for i in range(len(snap.stacks))]
    assert len(lists) > 10 * len(distinct)  # the file repeats its stacks: what interning is for
    assert sorted(interned) == sorted(distinct)  # each distinct stack once (an empty one is no entry)
    assert snap.traces[0].stack.dtype == np.int32


@pytest.mark.parametrize("protocol", [2, 3, 4, 5])
def test_every_pickle_protocol(protocol: int) -> None:
    dump = _small_dump()
    snap = load_snapshot(pickle.dumps(dump, protocol=protocol))
    assert len(snap.state.segments) == len(dump["segments"])
    assert len(snap.traces[0]) == 400


def test_gzip_is_detected_by_magic_not_name(tmp_path: Path) -> None:
    path = tmp_path / "snapshot.pickle"  # no .gz suffix
    path.write_bytes(gzip.compress(pickle.dumps(_small_dump())))
    assert len(load_snapshot(path).traces[0]) == 400


def test_json_form(tmp_path: Path) -> None:
    dump = _small_dump()
    path = tmp_path / "snapshot.json"
    path.write_text(json.dumps(dump))
    snap = load_snapshot(path)
    assert snap.form == "json"
    assert len(snap.traces[0]) == 400
    assert len(snap.stacks) == len(load_snapshot(pickle.dumps(dump)).stacks)  # equal stacks found by content


def test_bare_segment_list_from_memory_snapshot() -> None:
    segments = _small_dump()["segments"]
    snap = load_snapshot(pickle.dumps(segments))
    assert snap.form == "segments"
    assert snap.traces == []
    assert len(snap.state.segments) == len(segments)


def test_legacy_history_blocks_without_addresses() -> None:
    dump = _small_dump()
    legacy = copy.deepcopy(dump["segments"])
    for seg in legacy:
        for key in ("segment_pool_id", "is_expandable", "frames"):
            seg.pop(key)
        for block in seg["blocks"]:
            block.pop("address")
            requested, frames = block.pop("requested_size"), block.pop("frames")
            if block["state"] != "inactive":
                block["history"] = [{"addr": 0, "real_size": requested, "frames": frames}]
    snap = load_snapshot(pickle.dumps({"segments": legacy, "device_traces": []}))
    new = load_snapshot(pickle.dumps({"segments": dump["segments"]}))
    assert snap.legacy_blocks
    assert np.array_equal(snap.state.blocks.address, new.state.blocks.address)
    live = new.state.blocks.state != BlockState.INACTIVE
    assert np.array_equal(snap.state.blocks.requested_size[live], new.state.blocks.requested_size[live])


def test_optional_keys_of_every_version_are_read() -> None:
    dump = _small_dump()
    for i, e in enumerate(dump["device_traces"][0]):
        e["compile_context"] = "N/A" if i % 2 else "Torch-Compiled Region: 0/0"
        e["user_metadata"] = ""
        e["pool_id"] = (0, 0)
        if i == 7:
            e["forward_frames"] = ["  File 'model.py', line 3, in forward"]
    dump["device_traces"][0][3]["action"] = "annotate"
    dump["device_traces"][0][5]["action"] = "brand_new_action"
    snap = load_snapshot(pickle.dumps(dump))
    t = snap.traces[0]
    assert snap.strings[t.compile_context[2]].startswith("Torch-Compiled")
    assert t.forward_frames == {7: ["  File 'model.py', line 3, in forward"]}
    assert t.action[3] == Action.ANNOTATE
    assert t.unknown_actions == {5: "brand_new_action"}


def _hostile_pickles(marker: Path) -> dict[str, bytes]:
    class RunsCode:
        def __reduce__(self) -> tuple[Any, tuple[str]]:
            return (os.system, (f"touch {marker}",))

    protocol0 = f"cos\nsystem\n(V touch {marker}\ntR.".encode()
    return {
        "reduce": pickle.dumps({"segments": [RunsCode()]}, protocol=4),
        "protocol0": protocol0,
        "eval": b"\x80\x04\x95\x00\x00\x00\x00\x00\x00\x00\x00\x8c\x08builtins\x8c\x04eval\x93\x8c\x031+1\x85R.",
    }


def test_hostile_pickles_are_refused_and_nothing_runs(tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    pickles = _hostile_pickles(marker)
    with pytest.raises(SnapshotError) as e:
        load_snapshot(pickles["reduce"], name="evil.pickle")
    assert "refused to load: the file asks for" in str(e.value)
    assert "system" in str(e.value) and "evil.pickle" in str(e.value)
    with pytest.raises(SnapshotError, match=r"refused to load: the file asks for os\.system"):
        load_snapshot(pickles["protocol0"])
    with pytest.raises(SnapshotError, match=r"refused to load: the file asks for builtins\.eval"):
        load_snapshot(pickles["eval"])
    assert not marker.exists()


def _bad_inputs(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    good = pickle.dumps(_small_dump())
    cases: dict[str, tuple[bytes | None, str]] = {
        "empty": (b"", "empty"),
        "random": (
            bytes(np.random.default_rng(0).integers(0, 256, 4096, dtype=np.uint8)),
            "neither a pickle",
        ),
        "truncated": (good[: len(good) // 2], "truncated or corrupt pickle"),
        "not_snapshot_pickle": (pickle.dumps({"model": "resnet", "epoch": 3}), "no 'segments'"),
        "number_pickle": (pickle.dumps(42), "holds a int"),
        "not_snapshot_json": (json.dumps({"hello": [1, 2]}).encode(), "no 'segments'"),
        "broken_json": (b'{"segments": [', "not valid JSON"),
        "bad_gzip": (b"\x1f\x8b\x08\x00garbage", "corrupt gzip"),
        "bad_segment": (
            pickle.dumps({"segments": [{"address": 1, "blocks": []}]}),
            "segment 0 has no 'total_size'",
        ),
        "bad_state": (
            pickle.dumps({"segments": [{"address": 0, "total_size": 512, "blocks": [{"size": 512, "state": "x"}]}]}),
            "bad 'state'",
        ),
    }
    out: dict[str, tuple[Path, str]] = {}
    for name, (data, expected) in cases.items():
        path = tmp_path / f"{name}.pickle"
        assert data is not None
        path.write_bytes(data)
        out[name] = (path, expected)
    out["missing"] = (tmp_path / "missing.pickle", "no such file")
    out["directory"] = (tmp_path, "is a directory")
    return out


def test_bad_input_gives_one_line_naming_the_file(tmp_path: Path) -> None:
    for name, (path, expected) in _bad_inputs(tmp_path).items():
        with pytest.raises(SnapshotError) as e:
            load_snapshot(path)
        message = str(e.value)
        assert expected in message, (name, message)
        assert str(path) in message, (name, message)
        assert "\n" not in message, name


def test_cli_exits_2_with_one_line_and_no_traceback(tmp_path: Path) -> None:
    inputs = _bad_inputs(tmp_path)
    hostile = tmp_path / "evil.pickle"
    hostile.write_bytes(_hostile_pickles(tmp_path / "pwned")["reduce"])
    inputs["hostile"] = (hostile, "refused to load")
    # each input in a process of its own, all started at once: the wait is the slowest one's, not their sum
    running = {
        name: subprocess.Popen(
            [sys.executable, "-m", "gpumem_gui", "report", str(path)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for name, (path, _) in inputs.items()
    }
    for name, (path, expected) in inputs.items():
        stdout, stderr = running[name].communicate(timeout=300)
        assert running[name].returncode == 2, (name, stderr)
        lines = stderr.strip().splitlines()
        assert len(lines) == 1 and "Traceback" not in stderr, (name, stderr)
        assert expected in lines[0] and str(path) in lines[0], (name, lines[0])
        assert stdout == ""
    assert not (tmp_path / "pwned").exists()
