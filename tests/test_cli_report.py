"""`gpumem-gui report`: text and JSON figures of real files, at the end and at any event."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from gpumem_gui.cli import main
from tests.conftest import fixture_path, load_raw

REPORT_KEYS = {
    "device",
    "segments",
    "blocks",
    "reserved_bytes",
    "allocated_bytes",
    "requested_bytes",
    "pending_free_bytes",
    "active_bytes",
    "free_bytes",
    "internal_waste_bytes",
    "largest_free_block_bytes",
    "external_fragmentation",
    "inactive_split_bytes",
    "largest_allocation_that_fits",
    "trace_events",
    "peak_reserved_bytes",
    "peak_allocated_bytes",
    "oom_events",
}


def _json_report(capsys: Any, *args: str) -> dict[str, Any]:
    assert main(["report", *args, "--json"]) == 0
    out: dict[str, Any] = json.loads(capsys.readouterr().out)
    return out


def test_json_report_of_every_device(capsys: Any) -> None:
    path = fixture_path("constructor_memory_snapshot.pickle")
    report = _json_report(capsys, str(path))
    raw = load_raw(path)  # the file as the standard unpickler reads it: the figures below come from it
    traces = raw["device_traces"]
    assert report["file"] == str(path)
    devices = sorted({s["device"] for s in raw["segments"]} | {d for d, t in enumerate(traces) if t})
    assert [d["device"] for d in report["devices"]] == devices
    for d in report["devices"]:
        assert set(d) >= REPORT_KEYS
        assert d["reserved_bytes"] == d["active_bytes"] + d["free_bytes"]
    for d in report["devices"]:
        mine = [s for s in raw["segments"] if s["device"] == d["device"]]
        assert d["reserved_bytes"] == sum(s["total_size"] for s in mine)
        assert d["oom_events"] == sum(e["action"] == "oom" for e in traces[d["device"]])
        assert d["trace_events"] == len(traces[d["device"]])
    assert sum(d["oom_events"] for d in report["devices"]) > 0  # the file has an OOM: the count is not vacuous
    for d in report["devices"]:
        pools = d["by_pool"].values()
        assert sum(p["reserved_bytes"] for p in pools) == d["reserved_bytes"]
        assert sum(p["free_bytes"] for p in d["by_stream"].values()) == d["free_bytes"]
    assert report["totals"]["reserved_bytes"] == sum(d["reserved_bytes"] for d in report["devices"])
    assert REPORT_KEYS - {"device"} <= set(report["totals"])


def test_report_at_an_event_uses_the_longest_trace(capsys: Any) -> None:
    path = fixture_path("cranberrii_memory_snapshot.pickle")
    n_events = len(load_raw(path)["device_traces"][0])
    final = _json_report(capsys, str(path))["devices"][0]
    first = _json_report(capsys, str(path), "--at", "0")["devices"][0]
    middle = _json_report(capsys, str(path), "--at", str(n_events // 2))["devices"][0]
    last = _json_report(capsys, str(path), "--at", str(n_events - 1))["devices"][0]
    assert first["at_event"] == 0 and first["device"] == 0 and last["at_event"] == n_events - 1
    assert last["reserved_bytes"] == final["reserved_bytes"] and last["free_bytes"] == final["free_bytes"]
    assert first["peak_reserved_bytes"] == final["peak_reserved_bytes"]
    assert middle["reserved_bytes"] <= final["peak_reserved_bytes"]
    assert first != middle


def test_text_report(capsys: Any) -> None:
    path = fixture_path("silmont_mem_snapshot.pickle")
    assert main(["report", str(path)]) == 0
    text = capsys.readouterr().out
    raw = load_raw(path)
    blocks = [b for s in raw["segments"] for b in s["blocks"]]
    allocated = [b for b in blocks if b["state"] == "active_allocated"]
    lines = {line.strip().split("  ")[0]: line for line in text.splitlines() if line.startswith("  ")}
    assert "device 0 (at the snapshot)" in text
    # each figure exact, as the file's own blocks add up (not copied from an earlier run of the report)
    figures = {
        "reserved": sum(s["total_size"] for s in raw["segments"]),
        "allocated": sum(b["size"] for b in allocated),
        "requested": sum(b["requested_size"] for b in allocated),
        "free (cached)": sum(b["size"] for b in blocks if b["state"] == "inactive"),
        "largest free block": max(b["size"] for b in blocks if b["state"] == "inactive"),
    }
    for label, value in figures.items():
        assert lines[label].endswith(f"({value:,} bytes)"), (label, value, lines[label])
    free_blocks = sum(b["state"] == "inactive" for b in blocks)
    assert lines["segments"].split() == ["segments", str(len(raw["segments"])), "blocks", str(len(blocks)),
                                         "free", "blocks", str(free_blocks)]  # fmt: skip
    assert lines["trace"].split()[1:4] == [str(len(raw["device_traces"][0])), "events,", "0"]
    assert "large pool" in lines and "external fragmentation" in text
    assert "segments with the most free memory" in text


def test_bad_device_and_event_exit_2(capsys: Any) -> None:
    path = str(fixture_path("silmont_mem_snapshot.pickle"))
    assert main(["report", path, "--device", "5"]) == 2
    assert "device 5" in capsys.readouterr().err
    assert main(["report", path, "--at", "100000"]) == 2
    assert "outside the trace" in capsys.readouterr().err


def test_render_writes_a_png(tmp_path: Path) -> None:
    out = tmp_path / "map.png"
    result = subprocess.run(
        [sys.executable, "-m", "gpumem_gui", "render", str(fixture_path("silmont_mem_snapshot.pickle")),
         "-o", str(out), "--view", "map", "--size", "800x500"],
        capture_output=True, text=True, check=False, timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_segments_only_file(tmp_path: Path, capsys: Any) -> None:
    path = fixture_path("muduard_dump_snapshot_a.pickle")
    report = _json_report(capsys, str(path))
    raw = load_raw(path)
    assert not any(raw["device_traces"])  # segments, and no trace at all
    assert report["devices"][0]["segments"] == len(raw["segments"]) > 0
    assert report["devices"][0]["trace_events"] == 0


def test_the_command_line_sets_one_blas_thread_before_numpy_loads() -> None:
    # numpy reads OPENBLAS_NUM_THREADS when it is first imported: cli's package imports numpy (through cli.common)
    # before cli.main, so blas_threads must come first there; else OpenBLAS starts its threads (CPU of every report)
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    code = "import os, sys, gpumem_gui.cli\nprint(os.environ.get('OPENBLAS_NUM_THREADS'), 'numpy' in sys.modules)\n"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    assert out.split() == ["1", "True"]
    if Path("/proc/self/task").is_dir() and (os.cpu_count() or 1) > 1:  # Linux: OpenBLAS's threads are tasks
        code = "import os, gpumem_gui.cli\nprint(len(os.listdir('/proc/self/task')))\n"
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
        assert out.strip() == "1"
