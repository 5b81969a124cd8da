"""`gpumem-gui explain`: the moment, the OOM's figures and the blocks in the way, checked against the raw pickles."""

from __future__ import annotations

import json
import pickle
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from gpumem_gui.assets import example_path
from gpumem_gui.cli import main
from gpumem_gui.core.analysis.diagnosis import diagnose
from gpumem_gui.core.snapshot.convert import snapshot_from_object
from tests.conftest import fixture_path, load_raw

MiB = 1 << 20
KEYS = {
    "file", "device", "moment", "request_bytes", "device_free_bytes", "allocated_bytes", "reserved_bytes",
    "free_bytes", "largest_free_block_bytes", "by_site", "by_category", "category_source", "category_rules",
    "findings", "remedies", "oom", "schema_version", "inferred_private_pools",
}  # fmt: skip
CATEGORIES = {
    "parameters", "gradients", "optimizer_state", "activations", "temporaries", "unknown", "before_recording",
    "library_workspaces", "autocast_weight_copies", "inputs",
}  # fmt: skip
FIGURES = ("allocated_bytes", "reserved_bytes", "free_bytes", "largest_free_block_bytes")


def _json(capsys: Any, *args: str) -> dict[str, Any]:
    assert main(list(args)) == 0
    out: dict[str, Any] = json.loads(capsys.readouterr().out)
    return out


def _explain(capsys: Any, path: Path, *args: str) -> dict[str, Any]:
    return _json(capsys, "explain", str(path), "--json", *args)


def test_fragmented_oom_names_the_request_the_hole_the_splitters_and_the_fix(capsys: Any) -> None:
    path = example_path("fragmented_oom")
    raw = load_raw(path)
    trace = raw["device_traces"][0]
    oom_at = next(i for i, e in enumerate(trace) if e["action"] == "oom")
    oom = trace[oom_at]
    # the largest hole of the request's pool (large) and stream, and the segment that holds it, from the raw blocks
    mine = [s for s in raw["segments"] if s["segment_type"] == "large" and s["stream"] == oom["stream"]]
    holes = [(b["size"], s["address"]) for s in mine for b in s["blocks"] if b["state"] == "inactive"]
    largest, holder = max(holes)
    seg = next(s for s in mine if s["address"] == holder)
    pinning = [b for b in seg["blocks"] if b["state"] == "active_allocated"]
    assert largest < oom["size"] and pinning  # the file is what the test is about: a hole too small, blocks in it

    out = _explain(capsys, path)
    assert set(out) == KEYS
    assert out["inferred_private_pools"] == []  # its replay needs no pool the trace does not name
    assert out["moment"] == {"kind": "oom", "event": oom_at}
    assert out["request_bytes"] == oom["size"]  # the trace's oom entry holds the rounded request
    assert out["device_free_bytes"] == oom["device_free"]
    assert out["largest_free_block_bytes"] == largest
    text = " ".join(out["findings"])
    assert f"{oom['size']:,} bytes" in text and f"{largest:,} bytes" in text
    for b in pinning:  # every live block of the segment with the largest hole is named, with its site
        assert f"{b['address']:#x}" in text
        assert f"{b['frames'][0]['filename']}:{b['frames'][0]['line']}:{b['frames'][0]['name']}" in text
    fixes = {r["settings"]: r for r in out["remedies"]}
    assert fixes["expandable_segments:True"]["fits"] is True
    assert fixes["expandable_segments:True"]["oom_events"] == 0
    assert "replay of the recorded allocations" in text


def test_same_program_with_expandable_segments_had_no_oom() -> None:
    # the independent witness of the remedy above: the example's generator ran the same program under that setting
    raw = load_raw(example_path("fragmented_expandable"))
    assert raw["allocator_settings"]["expandable_segments"] is True
    assert not any(e["action"] == "oom" for e in raw["device_traces"][0])


@pytest.mark.parametrize(
    ("name", "events"),
    [
        ("fragmented_oom", (-1, 0, 57, 199, 203)),
        ("split_blocks_oom", (10, 96)),
    ],
)
def test_figures_at_an_event_are_those_of_report(capsys: Any, name: str, events: tuple[int, ...]) -> None:
    path = example_path(name)
    for at in events:
        explained = _explain(capsys, path, "--at", str(at))
        reported = _json(capsys, "report", str(path), "--at", str(at), "--json")["devices"][0]
        assert explained["moment"] == {"kind": "event", "event": at}
        assert explained["device"] == reported["device"]
        for key in FIGURES:
            assert explained[key] == reported[key], (at, key)


def test_figures_of_the_default_moment_are_those_of_report(capsys: Any) -> None:
    path = fixture_path("constructor_memory_snapshot.pickle")  # two devices; the one with the OOM is chosen
    raw = load_raw(path)
    explained = _explain(capsys, path)
    device = next(d for d, t in enumerate(raw["device_traces"]) if any(e["action"] == "oom" for e in t))
    assert explained["device"] == device
    at = explained["moment"]["event"]
    reported = _json(capsys, "report", str(path), "--device", str(device), "--at", str(at), "--json")["devices"][0]
    for key in FIGURES:
        assert explained[key] == reported[key]


@pytest.mark.parametrize(
    "name",
    ["fragmented_oom", "checkpointing_sqrt", "cranberrii_memory_snapshot.pickle", "felix_dump_a.pickle"],
)
def test_sites_and_categories_add_up_to_allocated(capsys: Any, name: str) -> None:
    # resolved in the test: a checkout without the shared fixtures skips these, not the whole module
    path = fixture_path(name) if name.endswith(".pickle") else example_path(name)
    out = _explain(capsys, path)
    assert out["allocated_bytes"] > 0
    assert sum(s["bytes"] for s in out["by_site"]) == out["allocated_bytes"]
    assert set(out["by_category"]) == CATEGORIES
    assert sum(out["by_category"].values()) == out["allocated_bytes"]
    assert sum(r["bytes"] for r in out["category_rules"]) == out["allocated_bytes"]
    for category in CATEGORIES:  # each category's bytes are those of the rules that chose it
        chosen = sum(r["bytes"] for r in out["category_rules"] if r["category"] == category)
        assert chosen == out["by_category"][category]
    assert len({s["site"] for s in out["by_site"]}) == len(out["by_site"])


def test_file_without_a_trace_is_explained_at_the_snapshot(capsys: Any) -> None:
    path = fixture_path("felix_dump_a.pickle")
    raw = load_raw(path)
    assert not any(raw.get("device_traces") or [])
    out = _explain(capsys, path)
    assert out["moment"] == {"kind": "snapshot", "event": None}
    assert out["request_bytes"] is None and out["device_free_bytes"] is None
    assert out["remedies"] == []
    live = [b for s in raw["segments"] for b in s["blocks"] if b["state"] == "active_allocated"]
    assert out["allocated_bytes"] == sum(b["size"] for b in live)
    assert out["reserved_bytes"] == sum(s["total_size"] for s in raw["segments"])
    assert any("no trace" in f for f in out["findings"])


def _rounded(size: int) -> int:
    return max(512, -(-size // 512) * 512)


@pytest.mark.parametrize("name", ["reserved_vs_allocated", "checkpointing_off"])
def test_file_without_an_oom_is_explained_at_its_peak(capsys: Any, name: str) -> None:
    path = example_path(name)
    trace = load_raw(path)["device_traces"][0]
    assert not any(e["action"] == "oom" for e in trace)
    # allocated memory over the trace, up to a constant: + each allocation, - each completed free (512-byte rounding)
    step = [
        _rounded(e["size"]) * {"alloc": 1, "free_completed": -1}.get(e["action"], 0) for e in trace
    ]  # fmt: skip
    peak_at = int(np.argmax(np.cumsum(step)))
    out = _explain(capsys, path)
    assert out["moment"] == {"kind": "peak", "event": peak_at}
    assert out["request_bytes"] is None
    assert {r["settings"] for r in out["remedies"]} >= {"expandable_segments:True", "max_split_size_mb:256"}
    assert all(r["oom_events"] == 0 and r["fits"] for r in out["remedies"])


def test_bad_input_is_one_line_and_exit_2(capsys: Any, tmp_path: Path) -> None:
    path = str(example_path("fragmented_oom"))
    for args in (
        [str(tmp_path / "missing.pickle")],
        [path, "--at", "100000"],
        [path, "--at", "-2"],
        [path, "--device", "7"],
    ):
        assert main(["explain", *args]) == 2, args
        err = capsys.readouterr().err
        assert err.startswith("gpumem-gui: ") and err.count("\n") == 1, err
        assert main(["report", *args]) == 2  # as report does
        capsys.readouterr()


def test_text_reads_top_to_bottom() -> None:
    path = example_path("fragmented_oom")
    result = subprocess.run(
        [sys.executable, "-m", "gpumem_gui", "explain", str(path)],
        capture_output=True, text=True, check=False, timeout=60,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    text = result.stdout
    order = [text.index(part) for part in ("What happened", "ran out of memory", "What to try", "expandable_segments")]
    assert order == sorted(order)
    assert "1,610,620,928 bytes" in text


def _hand_made(blocks: list[tuple[str, int]], request: int, device_free: int) -> dict[str, Any]:
    """One 100 MiB segment with `blocks` (state, MiB) and a trace of one OOM for `request` bytes."""
    address = 0x7F0000000000
    out = []
    for state, mib in blocks:
        frames = [{"name": f"make_{mib}", "filename": "train.py", "line": mib}] if state != "inactive" else []
        out.append(
            {"address": address, "size": mib * MiB, "requested_size": mib * MiB, "state": state, "frames": frames}
        )
        address += mib * MiB
    segment = {
        "device": 0, "address": 0x7F0000000000, "total_size": sum(m for _, m in blocks) * MiB, "stream": 0,
        "segment_type": "large", "segment_pool_id": (0, 0), "is_expandable": False, "frames": [], "blocks": out,
    }  # fmt: skip
    oom = {"action": "oom", "size": request, "device_free": device_free, "stream": 0, "frames": []}
    return {"segments": [segment], "device_traces": [[oom]]}


def test_blocks_between_holes_that_together_would_fit_are_named() -> None:
    # holes of 30 + 30 + 10 MiB (70 in all) around live blocks; the request of 50 MiB fits no single hole
    layout = [("inactive", 30), ("active_allocated", 10), ("inactive", 30), ("active_allocated", 20),
              ("inactive", 10)]  # fmt: skip
    snapshot = snapshot_from_object(_hand_made(layout, 50 * MiB, 0), "hand-made", "dump")
    d = diagnose(snapshot)
    assert d.oom is not None
    assert d.oom.request_bytes == 50 * MiB and d.oom.largest_hole_bytes == 30 * MiB
    assert d.oom.pool_free_bytes == 70 * MiB
    assert d.oom.splitter_rule == "split"
    # both live blocks lie between the first and the last hole
    assert [(s.address - 0x7F0000000000) // MiB for s in d.oom.splitters] == [30, 70]
    assert [s.site for s in d.oom.splitters] == ["train.py:10:make_10", "train.py:20:make_20"]
    assert d.oom.fits_up_to_bytes == 30 * MiB  # the largest hole; the device had nothing free


def test_blocks_outside_the_holes_are_not_named_and_device_free_counts() -> None:
    layout = [("active_allocated", 40), ("inactive", 30), ("active_allocated", 10), ("inactive", 20)]
    snapshot = snapshot_from_object(_hand_made(layout, 45 * MiB, 44 * MiB), "hand-made", "dump")
    d = diagnose(snapshot)
    assert d.oom is not None and d.oom.process_limit is None  # the device lacked the 46 MiB segment
    assert d.oom.splitter_rule == "split"
    assert [(s.address - 0x7F0000000000) // MiB for s in d.oom.splitters] == [70]  # not the block before the holes
    # a new segment of up to 44 MiB (2 MiB multiples) would have served 44 MiB: more than the largest hole
    assert d.oom.fits_up_to_bytes == 44 * MiB


def test_an_oom_the_device_had_room_for_is_a_limit_of_the_process() -> None:
    # 64 MiB free on the device, and the 46 MiB segment was refused: a memory fraction (no cudaMalloc was tried).
    # What held 100 MiB before is all that is known to be allowed: no room under the limit, so only the largest
    # hole counts, and the findings say the limit, not the device, refused the request
    layout = [("active_allocated", 40), ("inactive", 30), ("active_allocated", 10), ("inactive", 20)]
    snapshot = snapshot_from_object(_hand_made(layout, 45 * MiB, 64 * MiB), "hand-made", "dump")
    d = diagnose(snapshot)
    assert d.oom is not None and d.oom.process_limit is not None
    limit = d.oom.process_limit
    assert (limit.reserved_bytes, limit.needed_bytes, limit.held_bytes) == (100 * MiB, 46 * MiB, 100 * MiB)
    assert limit.under_bytes == 146 * MiB and limit.room_bytes == 0 and not limit.lowered
    assert d.oom.fits_up_to_bytes == 30 * MiB  # the largest hole: nothing more under the limit
    assert d.oom.live_excess_bytes == 46 * MiB
    text = " ".join(d.findings)
    assert "A memory limit of this process refused it" in text and "so it was under 146.0 MiB" in text
    assert "but the device had only" not in text


def test_the_limit_given_is_what_explain_takes(tmp_path: Any, capsys: Any) -> None:
    # the same OOM, with the user's limit: 120 MiB (say a fraction of 0.5 of a 240 MiB device). 20 MiB left under it:
    # a new segment of up to 20 MiB, less than the largest hole (30 MiB), so the hole is what fits
    layout = [("active_allocated", 40), ("inactive", 30), ("active_allocated", 10), ("inactive", 20)]
    raw = _hand_made(layout, 45 * MiB, 64 * MiB)
    snapshot = snapshot_from_object(raw, "hand-made", "dump")
    d = diagnose(snapshot, capacity=120 * MiB)
    assert d.oom is not None and d.oom.process_limit is not None
    assert d.oom.process_limit.given_bytes == 120 * MiB and d.oom.process_limit.room_bytes == 20 * MiB
    assert d.oom.live_excess_bytes == 26 * MiB  # 46 MiB needed, 20 MiB left under the limit
    assert "The limit given is 120.0 MiB (125,829,120 bytes)" in " ".join(d.findings)
    path = tmp_path / "limit.pickle"
    path.write_bytes(pickle.dumps(raw))
    assert main(["explain", str(path), "--capacity", "120MiB", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["oom"]["live_excess_bytes"] == 26 * MiB
    assert main(["explain", str(path), "--capacity", "0"]) == 2
    assert "--capacity '0'" in capsys.readouterr().err
