"""diff: figures against `report --json`, a hand-made pair with known blocks, a file against itself, and two moments of
a real file against a plain-Python set difference of time travel's states."""

from __future__ import annotations

import json
import pickle
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from benchmarks.bench_budgets import big_state
from gpumem_gui import cli
from gpumem_gui.core.allocator.simulator import DeviceAllocatorSim
from gpumem_gui.core.analysis.diff import Moment, Side, diff_of, diff_states
from gpumem_gui.core.analysis.timetravel import build_timeline
from gpumem_gui.core.rules.allocator_constants import MiB
from gpumem_gui.core.snapshot.loader import load_snapshot
from gpumem_gui.core.snapshot.model import (
    BlockState,
    Frame,
    Snapshot,
    StackTable,
)
from gpumem_gui.core.snapshot.stacks import stack_site_label
from tests.conftest import fixture_path

ATTN = [{"name": "attention_forward", "filename": "/work/model/attn.py", "line": 12}]
MLP = [{"name": "mlp_forward", "filename": "/work/model/mlp.py", "line": 40}]
HEAD = [{"name": "head_forward", "filename": "/work/model/head.py", "line": 7}]
SITE = {"attn": "/work/model/attn.py:12:attention_forward", "mlp": "/work/model/mlp.py:40:mlp_forward"}
SITE["head"] = "/work/model/head.py:7:head_forward"
SIDE_KEYS = {"file", "device", "event", "reserved_bytes", "allocated_bytes", "free_bytes", "segments", "blocks"}
FIGURES = ("reserved_bytes", "allocated_bytes", "free_bytes", "segments", "blocks")


def _run_json(capsys: Any, *args: str) -> dict[str, Any]:
    assert cli.main(list(args)) == 0
    out: dict[str, Any] = json.loads(capsys.readouterr().out)
    return out


def _report_device(capsys: Any, path: Path, device: int, at: int | None) -> dict[str, Any]:
    args = ["report", str(path), "--device", str(device), "--json"] + ([] if at is None else ["--at", str(at)])
    entry: dict[str, Any] = _run_json(capsys, *args)["devices"][0]
    assert entry["device"] == device
    return entry


def _hand_made_pair(tmp_path: Path) -> tuple[Path, Path, dict[str, Any]]:
    """A: x (attn 3 MiB), y (mlp 5 MiB), z (mlp 2 MiB). B: the same, then z freed and z2 (attn, 2 MiB: the same
    address and size as z, another site) allocated, y freed and w (head 3 MiB: it splits y's 5 MiB block)."""
    blocks: dict[str, Any] = {}
    paths = []
    for name in ("a", "b"):
        sim = DeviceAllocatorSim(8 << 30)
        x = sim.malloc(3 * MiB, frames=ATTN)
        y = sim.malloc(5 * MiB, frames=MLP)
        z = sim.malloc(2 * MiB, frames=MLP)
        blocks[name] = {"x": (x.addr, x.size), "y": (y.addr, y.size), "z": (z.addr, z.size)}
        if name == "b":
            sim.free(z)  # merges with the segment's free tail, whose start the next 2 MiB takes again
            z2 = sim.malloc(2 * MiB, frames=ATTN)
            sim.free(y)
            w = sim.malloc(3 * MiB, frames=HEAD)  # best fit: y's block, split (2 MiB left > 1 MiB)
            blocks["b"].update(w=(w.addr, w.size), z2=(z2.addr, z2.size))
        path = tmp_path / f"{name}.pickle"
        path.write_bytes(pickle.dumps(sim.snapshot()))
        paths.append(path)
    assert blocks["a"]["x"] == blocks["b"]["x"] and blocks["a"]["z"] == blocks["b"]["z2"]  # the premise
    assert blocks["b"]["w"] == (blocks["a"]["y"][0], 3 * MiB)
    return paths[0], paths[1], blocks


def test_hand_made_pair_has_the_blocks_and_site_deltas_worked_out_by_hand(tmp_path: Path, capsys: Any) -> None:
    path_a, path_b, blocks = _hand_made_pair(tmp_path)
    found = diff_states(load_snapshot(path_a), 0, None, load_snapshot(path_b), 0, None)
    a_blocks, b_blocks = found.state_a.blocks, found.state_b.blocks
    added = set(zip(b_blocks.address[found.added].tolist(), b_blocks.size[found.added].tolist(), strict=True))
    removed = set(zip(a_blocks.address[found.removed].tolist(), a_blocks.size[found.removed].tolist(), strict=True))
    assert added == {blocks["b"]["w"], blocks["b"]["z2"]}
    assert removed == {blocks["a"]["y"], blocks["a"]["z"]}  # z2 sits where z was, but another site asked for it
    assert [int(a_blocks.address[i]) for i in found.kept_a] == [blocks["a"]["x"][0]]
    by_site = {s.site: (s.bytes_delta, s.added_bytes, s.removed_bytes) for s in found.by_site}
    assert by_site == {
        SITE["mlp"]: (-7 * MiB, 0, 7 * MiB),
        SITE["head"]: (3 * MiB, 3 * MiB, 0),
        SITE["attn"]: (2 * MiB, 2 * MiB, 0),
    }
    assert [s.site for s in found.by_site] == [SITE["mlp"], SITE["head"], SITE["attn"]]  # largest |delta| first
    out = _run_json(capsys, "diff", str(path_a), str(path_b), "--json")
    assert out["blocks"] == {"added": 2, "removed": 2, "kept": 1}
    assert out["delta"]["allocated_bytes"] == -2 * MiB == sum(s["bytes_delta"] for s in out["by_site"])


@pytest.mark.parametrize(
    ("name_a", "name_b", "at_a", "at_b"),
    [
        ("cranberrii_memory_snapshot.pickle", "cranberrii_memory_snapshot.pickle", 1000, 5000),
        ("constructor_memory_snapshot.pickle", "cranberrii_memory_snapshot.pickle", None, None),
        ("magma27_memory_snapshot.pickle", "felix_dump_a.pickle", 4000, None),
    ],
)
def test_json_figures_are_reports_and_deltas_are_b_minus_a(
    capsys: Any, name_a: str, name_b: str, at_a: int | None, at_b: int | None
) -> None:
    path_a, path_b = fixture_path(name_a), fixture_path(name_b)
    args = ["diff", str(path_a), str(path_b), "--json"]
    args += [] if at_a is None else ["--at-a", str(at_a)]
    args += [] if at_b is None else ["--at-b", str(at_b)]
    out = _run_json(capsys, *args)
    assert set(out) == {"schema_version", "a", "b", "delta", "blocks", "by_site", "devices"}
    assert set(out["a"]) == set(out["b"]) == SIDE_KEYS
    assert set(out["delta"]) == set(FIGURES) and set(out["blocks"]) == {"added", "removed", "kept"}
    assert all(set(s) == {"site", "bytes_delta", "added_bytes", "removed_bytes"} for s in out["by_site"])
    for side, path, at in (("a", path_a, at_a), ("b", path_b, at_b)):
        report = _report_device(capsys, path, out[side]["device"], at)
        for key in FIGURES:
            assert out[side][key] == report[key], (side, key)
        assert out[side]["event"] == (report["trace_events"] - 1 if at is None else at)
    for key in FIGURES:
        assert out["delta"][key] == out["b"][key] - out["a"][key]
    assert sum(s["bytes_delta"] for s in out["by_site"]) == out["delta"]["allocated_bytes"]
    for s in out["by_site"]:
        assert s["bytes_delta"] == s["added_bytes"] - s["removed_bytes"]


def test_default_devices_are_each_files_own_default(capsys: Any) -> None:
    path = fixture_path("constructor_memory_snapshot.pickle")  # three devices; the OOM is on device 1
    out = _run_json(capsys, "diff", str(path), str(fixture_path("cranberrii_memory_snapshot.pickle")), "--json")
    assert out["a"]["device"] == 1  # the device `explain` and `report --at` take: the one with the OOM
    assert out["b"]["device"] == 0
    assert out["devices"] == {"a": 1, "b": 0, "each_file_default": True}


def _one_gpu_and_gpu_1(tmp_path: Path) -> tuple[Path, Path]:
    """A: one GPU holding two blocks. B: the same blocks on GPU 1, while GPU 0 only took and gave back 2 MiB."""
    sim = DeviceAllocatorSim(8 * 1024 * MiB, device=0)
    sim.malloc(30 * MiB, frames=ATTN)
    sim.malloc(10 * MiB, frames=MLP)
    one_gpu = sim.snapshot()
    gpu_0 = DeviceAllocatorSim(8 * 1024 * MiB, device=0)
    gpu_0.free(gpu_0.malloc(MiB, frames=HEAD))
    gpu_0.empty_cache()
    two = one_gpu | {
        "segments": [segment | {"device": 1} for segment in one_gpu["segments"]],
        "device_traces": [gpu_0.trace, one_gpu["device_traces"][0]],
    }
    assert {s["device"] for s in two["segments"]} == {1} and two["device_traces"][0]  # GPU 0 is in the file
    paths = tmp_path / "one_gpu.pickle", tmp_path / "on_gpu_1.pickle"
    for path, data in zip(paths, (one_gpu, two), strict=True):
        path.write_bytes(pickle.dumps(data))
    return paths


def test_a_one_gpu_file_against_a_file_whose_memory_is_on_gpu_1(tmp_path: Path, capsys: Any) -> None:
    path_a, path_b = _one_gpu_and_gpu_1(tmp_path)
    out = _run_json(capsys, "diff", str(path_a), str(path_b), "--json")
    assert (out["a"]["device"], out["b"]["device"]) == (0, 1)
    # the memory is compared: the same two blocks on both sides, not every block of A removed
    assert out["blocks"] == {"added": 0, "removed": 0, "kept": 2}
    assert out["a"]["allocated_bytes"] == out["b"]["allocated_bytes"] == 40 * MiB
    assert cli.main(["diff", str(path_a), str(path_b)]) == 0
    text = capsys.readouterr().out
    assert "comparing device 0 of A with device 1 of B (each file's default); --device-a/--device-b to choose" in text
    # chosen by hand: B's GPU 0, which holds nothing, and no note
    out = _run_json(capsys, "diff", str(path_a), str(path_b), "--device-b", "0", "--json")
    assert out["b"]["device"] == 0 and out["blocks"]["removed"] == 2
    assert out["devices"] == {"a": 0, "b": 0, "each_file_default": False}
    assert cli.main(["diff", str(path_a), str(path_b), "--device-b", "0"]) == 0
    assert "each file's default" not in capsys.readouterr().out


def test_a_file_against_itself_adds_and_removes_nothing(capsys: Any) -> None:
    path = str(fixture_path("cranberrii_memory_snapshot.pickle"))
    out = _run_json(capsys, "diff", path, path, "--json")
    assert out["blocks"]["added"] == out["blocks"]["removed"] == 0 and out["by_site"] == []
    assert out["blocks"]["kept"] > 0 and all(v == 0 for v in out["delta"].values())
    assert cli.main(["diff", path, path]) == 0
    assert "added 0 (0 B, in B only), removed 0" in capsys.readouterr().out


def _site_of(snapshot: Snapshot, stack: int) -> str:
    """A block's site the slow way: its frames, the site frame, its label (one block at a time)."""
    return stack_site_label(snapshot.stacks.stack(stack)) or "unknown"


def test_two_moments_against_a_set_difference_of_time_travel() -> None:
    snapshot = load_snapshot(fixture_path("cranberrii_memory_snapshot.pickle"))
    timeline = build_timeline(snapshot, 0)
    keys = []
    for event in (1000, 5000):
        b = timeline.state_at(event).blocks
        keys.append(
            {
                (int(b.address[i]), int(b.size[i]), _site_of(snapshot, int(b.stack[i])))
                for i in range(len(b))
                if b.state[i] == BlockState.ALLOCATED
            }
        )
    found = diff_states(snapshot, 0, 1000, snapshot, 0, 5000, timelines=(timeline, timeline))
    a, b = found.state_a.blocks, found.state_b.blocks
    added = {(int(b.address[i]), int(b.size[i]), _site_of(snapshot, int(b.stack[i]))) for i in found.added}
    removed = {(int(a.address[i]), int(a.size[i]), _site_of(snapshot, int(a.stack[i]))) for i in found.removed}
    assert added == keys[1] - keys[0] and removed == keys[0] - keys[1] and len(found.kept_a) == len(keys[0] & keys[1])
    assert len(added) > 100 and len(removed) > 0  # the moments differ both ways
    by_site: dict[str, int] = {}
    for addr_size_site, sign in [(k, 1) for k in added] + [(k, -1) for k in removed]:
        by_site[addr_size_site[2]] = by_site.get(addr_size_site[2], 0) + sign * addr_size_site[1]
    assert {s.site: s.bytes_delta for s in found.by_site} == by_site


def test_many_blocks_a_side_kept_and_added_by_address_size_and_stack() -> None:
    # its speed at 100k blocks a side: benchmarks/bench_budgets.py (diff)
    frames = [Frame(f"f{i}", f"/work/model/m{i}.py", i) for i in range(50)]
    stacks = StackTable(frames, np.arange(51, dtype=np.int64), np.arange(50, dtype=np.int32))
    state_a, state_b = big_state(100, 100, 1), big_state(100, 100, 2)
    side = Side("x", 0, -1, 0, 0, 0, 0, 0, 0)
    found = diff_of(Moment(side, state_a, stacks), Moment(side, state_b, stacks))
    alloc_a = state_a.blocks.state == BlockState.ALLOCATED
    alloc_b = state_b.blocks.state == BlockState.ALLOCATED
    both = alloc_a & alloc_b & (state_a.blocks.stack == state_b.blocks.stack)  # same address and size by design
    assert len(found.kept_a) == int(both.sum()) and len(found.added) == int(alloc_b.sum() - both.sum())


def test_bad_input_is_one_line_and_exit_2(capsys: Any, tmp_path: Path) -> None:
    good = str(fixture_path("cranberrii_memory_snapshot.pickle"))
    for args in (
        [str(tmp_path / "missing.pickle"), good],
        [good, good, "--at-a", "999999"],
        [good, good, "--at-b", "-5"],
        [good, good, "--device", "3"],
    ):
        assert cli.main(["diff", *args]) == 2, args
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("gpumem-gui: "), err
