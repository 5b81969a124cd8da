"""Values into the model: bad numbers and impossible layouts get one line naming the file, field and value, in both
readers and from the CLI; odd but showable layouts come with a warning; a closed pipe ends `report` quietly."""

from __future__ import annotations

import json
import pickle
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from gpumem_gui.cli import main
from gpumem_gui.core.analysis.report import build_report, report_json
from gpumem_gui.core.snapshot.errors import SnapshotError
from gpumem_gui.core.snapshot.loader import load_snapshot
from tests.conftest import fixture_path, load_raw
from tests.twins import pure_python

HUGE = 10**5000  # past Python's int-to-str digit limit: str() of it raises ValueError
BAD_NUMBERS: list[tuple[Any, str]] = [
    (1 << 63, "9223372036854775808"),
    (1 << 64, "18446744073709551616"),
    (1 << 62, "beyond 2^62 - 1"),
    (-512, "-512, below zero"),
    (HUGE, "16610-bit integer"),
    (1.5, "1.5, not an integer"),
    (2.0, "2.0, not an integer"),
    ("4096", "'4096', not an integer"),
    (True, "True, not an integer"),
    ([1], "a list, not an integer"),
]


def _silmont() -> dict[str, Any]:
    raw: dict[str, Any] = load_raw(fixture_path("silmont_mem_snapshot.pickle"))
    return raw


def _both_refuse(obj: Any, tmp_path: Path) -> str:
    """The one-line error both readers give for `obj` pickled into a file; they must give the same one."""
    path = tmp_path / "bad.pickle"
    path.write_bytes(pickle.dumps(obj, protocol=4))
    messages = []
    for pure in (False, True):
        with pure_python(pure), pytest.raises(SnapshotError) as caught:
            load_snapshot(path)
        messages.append(str(caught.value))
    assert messages[0] == messages[1]
    message = messages[0]
    assert "\n" not in message and str(path) in message and len(message) < 300, message
    return message


def _set_entry(raw: dict[str, Any], key: str, value: Any) -> None:
    raw["device_traces"][0][40][key] = value


@pytest.mark.parametrize("key", ["addr", "size", "stream", "time_us"])
@pytest.mark.parametrize(("value", "shown"), BAD_NUMBERS, ids=[shown for _, shown in BAD_NUMBERS])
def test_bad_trace_numbers_are_refused_alike(tmp_path: Path, key: str, value: Any, shown: str) -> None:
    raw = _silmont()
    _set_entry(raw, key, value)
    message = _both_refuse(raw, tmp_path)
    assert f"entry 40 has a {key!r} that is" in message and shown in message, message


@pytest.mark.parametrize(
    ("where", "shown"),
    [("address", "beyond"), ("total_size", "below zero"), ("stream", "not an integer"), ("device", "beyond")],
)
def test_bad_segment_numbers_are_refused_alike(tmp_path: Path, where: str, shown: str) -> None:
    raw = _silmont()
    raw["segments"][2][where] = {"address": 1 << 64, "total_size": -512, "stream": 1.5, "device": 1 << 40}[where]
    message = _both_refuse(raw, tmp_path)
    assert f"segment 2 {where!r} is" in message and shown in message, message


@pytest.mark.parametrize(
    ("key", "value"), [("size", -512), ("requested_size", HUGE), ("address", 1 << 63)], ids=["size", "req", "addr"]
)
def test_bad_block_numbers_are_refused_alike(tmp_path: Path, key: str, value: Any) -> None:
    raw = _silmont()
    raw["segments"][1]["blocks"][0][key] = value
    assert f"segment 1 block 0 {key!r} is" in _both_refuse(raw, tmp_path)


@pytest.mark.parametrize("value", [(1 << 63, 0), (0, -1), (True, False), (1.0, 0), (0,), "pool"])
def test_bad_pool_ids_are_refused_alike(tmp_path: Path, value: Any) -> None:
    raw = _silmont()
    for entry in raw["device_traces"][0][:50]:
        entry["pool_id"] = (1, 0)  # an earlier good id that the bad ones hash equal to
    _set_entry(raw, "pool_id", value)
    assert "entry 40 has a 'pool_id' that" in _both_refuse(raw, tmp_path)


def test_device_free_and_strings_are_checked(tmp_path: Path) -> None:
    raw = _silmont()
    raw["device_traces"][0][40]["device_free"] = 1 << 64
    assert "entry 40 has a 'device_free' that is 18446744073709551616" in _both_refuse(raw, tmp_path)
    raw = _silmont()
    _set_entry(raw, "compile_context", HUGE)
    assert "entry 40 has a 'compile_context' that is a 16610-bit integer, not a string" in _both_refuse(raw, tmp_path)
    raw = _silmont()
    _set_entry(raw, "action", 3)
    assert "entry 40 has an 'action' that is 3, not a string" in _both_refuse(raw, tmp_path)


def test_sizes_that_add_up_past_int64_are_refused(tmp_path: Path) -> None:
    raw = _silmont()
    for entry in raw["device_traces"][0][:4]:
        entry["size"] = 1 << 61  # each fits; their sum would wrap the compiled replay's totals
    assert "beyond what any device holds" in _both_refuse(raw, tmp_path)


def test_the_cli_says_one_line_and_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    raw = _silmont()
    _set_entry(raw, "size", 1 << 64)
    path = tmp_path / "huge.pickle"
    path.write_bytes(pickle.dumps(raw, protocol=4))
    for pure in (False, True):
        with pure_python(pure):
            assert main(["report", str(path)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and str(path) in err and "'size'" in err and "18446744073709551616" in err, err


# -- consistency: refused where no figure could be right, warned where the figures stay true -------------------


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda seg: seg["blocks"][0].update(size=seg["blocks"][0]["size"] + 512), "overlap"),
        (lambda seg: seg["blocks"][-1].update(size=seg["blocks"][-1]["size"] + 512), "has a block outside it"),
        (lambda seg: seg.update(total_size=seg["total_size"] - 512), "has a block outside it"),
        (lambda seg: seg["blocks"].insert(0, dict(seg["blocks"][0])), "overlap"),
    ],
)
def test_impossible_layouts_are_refused(tmp_path: Path, change: Any, words: str) -> None:
    raw = _silmont()
    seg = next(s for s in raw["segments"] if len(s["blocks"]) > 1)
    change(seg)
    assert words in _both_refuse(raw, tmp_path)


def test_a_block_larger_than_its_segment_is_refused(tmp_path: Path) -> None:
    raw = _silmont()
    seg = raw["segments"][0]
    seg["blocks"] = [dict(seg["blocks"][0], size=seg["total_size"] * 2)]
    assert "segment 0 " in _both_refuse(raw, tmp_path)


def test_overlapping_segments_are_refused(tmp_path: Path) -> None:
    raw = _silmont()
    a, b = raw["segments"][0], raw["segments"][1]
    b["address"] = a["address"] + 512
    for block in b["blocks"]:
        block.pop("address", None)  # the blocks follow their segment
    assert "overlap" in _both_refuse(raw, tmp_path)


def test_blocks_short_of_their_segment_are_kept_with_a_warning(tmp_path: Path) -> None:
    raw = _silmont()
    seg = next(s for s in raw["segments"] if len(s["blocks"]) > 1)
    index = raw["segments"].index(seg)
    del seg["blocks"][-1]
    path = tmp_path / "short.pickle"
    path.write_bytes(pickle.dumps(raw, protocol=4))
    results = []
    for pure in (False, True):
        with pure_python(pure):
            snap = load_snapshot(path)
            results.append((snap.warnings, report_json(snap, build_report(snap))))
    assert results[0] == results[1]
    warnings, report = results[0]
    assert len(warnings) == 1 and f"segment {index} at " in warnings[0] and "in no block" in warnings[0]
    for device in report["devices"]:
        assert all(device[k] >= 0 for k in ("reserved_bytes", "free_bytes", "allocated_bytes", "active_bytes"))


def test_real_snapshots_have_no_layout_warnings() -> None:
    for name in ("silmont_mem_snapshot.pickle", "muduard_dump_snapshot_a.pickle", "constructor_memory_snapshot.pickle"):
        assert load_snapshot(fixture_path(name)).warnings == []


# -- a reader that leaves early ---------------------------------------------------------------------------------


def test_report_into_a_closed_pipe_ends_quietly() -> None:
    path = fixture_path("constructor_memory_snapshot.pickle")
    proc = subprocess.Popen(
        [sys.executable, "-m", "gpumem_gui", "report", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None
    proc.stdout.close()  # as `| head -0` would: every write of the report meets a closed pipe
    _, err = proc.communicate(timeout=120)
    text = err.decode()
    assert "Traceback" not in text and "BrokenPipeError" not in text and text == "", text
    assert proc.returncode == 1


def test_a_json_number_past_the_digit_limit_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    path.write_text('{"segments": [{"address": 1' + "0" * 5000 + ', "total_size": 0, "blocks": []}]}')
    messages = []
    for pure in (False, True):
        with pure_python(pure), pytest.raises(SnapshotError) as caught:
            load_snapshot(path)
        messages.append(str(caught.value))
    assert messages[0] == messages[1] and "more digits" in messages[0] and str(path) in messages[0]


def test_the_report_shows_the_layout_warnings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    raw = _silmont()
    del raw["segments"][0]["blocks"][-1]
    path = tmp_path / "short.pickle"
    path.write_bytes(pickle.dumps(raw, protocol=4))
    assert main(["report", str(path)]) == 0
    out = capsys.readouterr().out
    assert "note: segment 0 at " in out and "in no block" in out and "-" not in out.split("reserved")[1].split("\n")[0]
    assert main(["report", "--json", str(path)]) == 0
    assert "in no block" in json.loads(capsys.readouterr().out)["warnings"][0]


@pytest.mark.parametrize(
    ("key", "value", "words"),
    [
        ("max_split_size", "x", "'max_split_size' is 'x', not an integer"),
        ("max_split_size", None, "'max_split_size' is None, not an integer"),
        ("roundup_power2_divisions", [1 << 62] * 16, "holds a value that is 4611686018427387904, beyond"),
        ("roundup_power2_divisions", "x", "not a table"),
        ("garbage_collection_threshold", "x", "not a number in 0..1"),
        ("garbage_collection_threshold", float("nan"), "not a number in 0..1"),
        ("PYTORCH_CUDA_ALLOC_CONF", HUGE, "a 16610-bit integer, not a string"),
    ],
    ids=lambda v: str(v)[:20] if not isinstance(v, int) else "int",
)
def test_bad_allocator_settings_are_refused_alike(tmp_path: Path, key: str, value: Any, words: str) -> None:
    raw: dict[str, Any] = load_raw(fixture_path("magma27_memory_snapshot.pickle"))
    raw["allocator_settings"][key] = value
    assert words in _both_refuse(raw, tmp_path)


def test_odd_stack_frames_are_read_alike_without_a_traceback(tmp_path: Path) -> None:
    raw = _silmont()
    frame = raw["segments"][0]["frames"][0]
    frame.update(name=HUGE, filename=None, line=float("inf"))
    path = tmp_path / "frames.pickle"
    path.write_bytes(pickle.dumps(raw, protocol=4))
    stacks = []
    for pure in (False, True):
        with pure_python(pure):
            snap = load_snapshot(path)
            stacks.append(snap.stacks.stack(int(snap.state.segments.stack[0]))[0])
    assert stacks[0] == stacks[1]
    assert (stacks[0].name, stacks[0].filename, stacks[0].line) == ("a 16610-bit integer", "None", 0)


def test_a_bad_time_in_a_file_without_times_is_refused_alike(tmp_path: Path) -> None:
    # old files carry no time_us: one entry with a bad one was read as "no times" by the pure twin only
    raw = _silmont()
    for entry in raw["device_traces"][0]:
        entry.pop("time_us", None)
    _set_entry(raw, "time_us", -5)
    assert "entry 40 has a 'time_us' that is -5, below zero" in _both_refuse(raw, tmp_path)
