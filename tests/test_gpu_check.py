"""The GPU check's parts that run without a GPU (benchmarks/gpu_check): the sequence, both runners, the comparison,
the summary, the NVML capture and the orchestration, with tests/sim_torch standing in for torch where a device is
needed."""

from __future__ import annotations

import contextlib
import copy
import importlib.util
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import time
from collections import Counter
from contextlib import redirect_stdout
from pathlib import Path
from types import ModuleType
from typing import Any

import psutil
import pynvml
import pytest

from benchmarks.gpu_check import run as gpu_run
from benchmarks.gpu_check.compare import compare_runs
from benchmarks.gpu_check.nvml_capture import cross_check, device_view, parse_attach_list
from benchmarks.gpu_check.real_run import run_on_device
from benchmarks.gpu_check.sequence import (
    DEFAULT_SEED,
    LIVE_BUDGET,
    OOM_LIMIT,
    OOM_REQUEST,
    SMALL_SIZE,
    generate,
    without_private_pool,
)
from benchmarks.gpu_check.sim_run import PRIVATE_POOL_ID, device_addresses, run_on_simulator
from benchmarks.gpu_check.summary import summary_lines
from gpumem_gui.cli import main as cli_main
from gpumem_gui.core.allocator.replay import replay
from gpumem_gui.core.snapshot.loader import load_snapshot
from gpumem_gui.sources import nvml as nv
from gpumem_gui.sources.nvml import NvmlSource
from tests.conftest import fixture_path, load_raw, wait_until
from tests.test_nvml import FakeNvml, GiB, MiB, _vanished_pid, three_gpus

REPO = Path(__file__).resolve().parents[1]
SIM_TORCH = REPO / "tests" / "sim_torch"
CAPACITY = 80 * GiB
SETTINGS = ("", "expandable_segments:True", "max_split_size_mb:64")


def _sim_torch() -> ModuleType:
    """A fresh tests/sim_torch module under a name of its own (the real torch stays `torch` in this process)."""
    spec = importlib.util.spec_from_file_location("sim_torch_for_test", SIM_TORCH / "torch" / "__init__.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# -- the sequence ---------------------------------------------------------------------------------------------------


def test_the_sequence_is_fixed_by_its_seed() -> None:
    assert generate() == generate(DEFAULT_SEED) == json.loads(json.dumps(generate()))
    assert generate(1) != generate(2)


@pytest.mark.parametrize("seed", [DEFAULT_SEED, 1, 2, 3])
def test_the_sequence_is_well_formed(seed: int) -> None:
    """Walked independently: every free names a live tensor, pool allocations only inside the pool's context and all
    freed before it is dropped, the live bytes within budget, a record_stream followed by its free, a synchronize and
    a request of the same size, and a final request that cannot fit under the limit."""
    ops = generate(seed)
    kinds = Counter(op["op"] for op in ops)
    assert {k: kinds[k] for k in ("record_stream", "sync", "empty_cache", "pool_begin", "pool_end", "pool_delete")} == {
        "record_stream": 1, "sync": 1, "empty_cache": 1, "pool_begin": 1, "pool_end": 1, "pool_delete": 1,
    }  # fmt: skip
    live: dict[int, int] = {}
    pool_live: set[int] = set()
    seen: set[int] = set()
    in_pool = False
    for i, op in enumerate(ops):
        kind = op["op"]
        if kind == "alloc":
            assert op["id"] not in seen
            seen.add(op["id"])
            assert op.get("pool", False) == in_pool
            if op.get("oom"):
                assert i == len(ops) - 1 and ops[i - 1] == {"op": "limit", "bytes": OOM_LIMIT}
                assert op["size"] == OOM_REQUEST > OOM_LIMIT
                continue
            live[op["id"]] = op["size"]
            if in_pool:
                pool_live.add(op["id"])
            assert sum(live.values()) <= LIVE_BUDGET
        elif kind == "free":
            del live[op["id"]]
            pool_live.discard(op["id"])
        elif kind == "record_stream":
            assert op["id"] in live
            assert ops[i + 1] == {"op": "free", "id": op["id"]} and ops[i + 2] == {"op": "sync"}
            assert ops[i + 3]["op"] == "alloc" and ops[i + 3]["size"] == live[op["id"]]
        elif kind in ("pool_begin", "pool_end"):
            in_pool = kind == "pool_begin"
        elif kind == "pool_delete":
            assert not pool_live and not in_pool
    sizes = [op["size"] for op in ops if op["op"] == "alloc" and not op.get("oom")]
    assert any(s <= SMALL_SIZE for s in sizes) and any(s > SMALL_SIZE for s in sizes)
    assert any(s > 64 * MiB for s in sizes)  # oversize under max_split_size_mb:64
    assert any(s % 512 for s in sizes)  # the rounding shows


def test_without_a_private_pool_the_pool_allocations_go_to_the_default_pool() -> None:
    ops = generate()
    plain = without_private_pool(ops)
    assert len(plain) == len(ops)  # indices stay those of the real run, which does the pool operations as nothing
    assert not any(op.get("pool") for op in plain)
    assert [op["op"] for op in plain] == [op["op"] for op in ops]
    ours = run_on_simulator(plain, capacity=CAPACITY)
    assert {tuple(s["segment_pool_id"]) for s in ours["snapshot"]["segments"]} == {(0, 0)}


# -- the simulator's run ------------------------------------------------------------------------------------------

HAND_OPS: list[dict[str, Any]] = [
    {"op": "alloc", "id": 0, "size": 1000},  # small: a 2 MiB segment, 1024 bytes of it
    {"op": "alloc", "id": 1, "size": 3 * MiB},  # large, under 10 MiB: a 20 MiB segment, split
    {"op": "pool_begin"},
    {"op": "alloc", "id": 2, "size": 500, "pool": True},  # the private pool's own 2 MiB segment
    {"op": "pool_end"},
    {"op": "record_stream", "id": 1},
    {"op": "free", "id": 1},  # pending: the second stream still uses it
    {"op": "alloc", "id": 3, "size": 3 * MiB},  # cannot reuse it yet: placed after it in the same segment
    {"op": "sync"},  # now it is free
    {"op": "free", "id": 2},
    {"op": "pool_delete"},  # the pool's segment goes back
    {"op": "limit", "bytes": 1 * GiB},
    {"op": "alloc", "id": 4, "size": 2 * GiB, "oom": True},  # nothing freeable (both segments split): OOM
]


def test_simulator_run_of_a_hand_worked_sequence() -> None:
    ours = run_on_simulator(HAND_OPS, capacity=CAPACITY)
    trace = [(e["action"], e["size"]) for e in ours["snapshot"]["device_traces"][0]]
    assert trace == [
        ("segment_alloc", 2 * MiB), ("alloc", 1000),
        ("segment_alloc", 20 * MiB), ("alloc", 3 * MiB),
        ("segment_alloc", 2 * MiB), ("alloc", 500),
        ("free_requested", 3 * MiB),
        ("alloc", 3 * MiB),
        ("free_completed", 3 * MiB),
        ("free_requested", 500), ("free_completed", 500),
        ("segment_free", 2 * MiB),
        ("oom", 2 * GiB),
    ]  # fmt: skip
    assert ours["event_ops"] == [0, 0, 1, 1, 3, 3, 6, 7, 8, 9, 9, 10, 12]
    assert ours["ooms_raised"] == [12]
    assert ours["peaks"] == {"allocated": 1024 + 3 * MiB + 512, "reserved": 24 * MiB}
    layout = [
        (s["segment_type"], tuple(s["segment_pool_id"]), [(b["size"], b["state"]) for b in s["blocks"]])
        for s in ours["snapshot"]["segments"]
    ]
    assert sorted(layout) == [
        ("large", (0, 0), [(3 * MiB, "inactive"), (3 * MiB, "active_allocated"), (14 * MiB, "inactive")]),
        ("small", (0, 0), [(1024, "active_allocated"), (2 * MiB - 1024, "inactive")]),
    ]


def test_simulator_run_maps_the_private_pool_in_expandable_segments() -> None:
    # as torch does since 2.5 (pytorch/pytorch#128068) and the H200 run of 2026-12-04 showed (segment_map, event 193)
    ours = run_on_simulator(HAND_OPS[:5], capacity=CAPACITY, settings="expandable_segments:True")
    trace = [(e["action"], e["size"]) for e in ours["snapshot"]["device_traces"][0]]
    assert trace[0] == ("segment_map", 2 * MiB) and trace[2] == ("segment_map", 20 * MiB)
    assert trace[4] == ("segment_map", 2 * MiB)  # the pool's first request: a page of a reservation of its own
    pool = [s for s in ours["snapshot"]["segments"] if tuple(s["segment_pool_id"]) == PRIVATE_POOL_ID]
    assert len(pool) == 1 and pool[0]["is_expandable"]


def test_the_private_pool_gives_back_its_small_segments_first() -> None:
    # release_cached_blocks frees a private pool's small blocks before its large ones (the default pools the other
    # way round): on the H200 the MemPool's deletion freed its 2 MiB segment first
    ops: list[dict[str, Any]] = [
        {"op": "pool_begin"},
        {"op": "alloc", "id": 0, "size": 30 * MiB, "pool": True},
        {"op": "alloc", "id": 1, "size": 1000, "pool": True},
        {"op": "pool_end"},
        {"op": "free", "id": 0},
        {"op": "free", "id": 1},
        {"op": "pool_delete"},
    ]
    ours = run_on_simulator(ops, capacity=CAPACITY)
    frees = [e["size"] for e in ours["snapshot"]["device_traces"][0] if e["action"] == "segment_free"]
    assert frees == [2 * MiB, 30 * MiB]


def test_simulator_run_follows_the_devices_addresses() -> None:
    # two whole free 2 MiB segments: the allocator takes the lower address (BlockComparatorSize). The device put the
    # second one lower, as the H200's driver did at event 62; given the device's addresses, the simulator does too
    ops: list[dict[str, Any]] = [
        {"op": "alloc", "id": 0, "size": 1 * MiB},
        {"op": "alloc", "id": 1, "size": 1 * MiB},  # the first 2 MiB segment full
        {"op": "alloc", "id": 2, "size": 1 * MiB},  # a second small segment
        *({"op": "free", "id": i} for i in range(3)),
        {"op": "alloc", "id": 3, "size": 4096},
    ]
    high, low = 0x7FC3_CA60_0000, 0x7FC3_C100_0000
    follows = run_on_simulator(ops, capacity=CAPACITY, addresses=[high, low])
    own = run_on_simulator(ops, capacity=CAPACITY)
    last = [follows["snapshot"]["device_traces"][0][-1], own["snapshot"]["device_traces"][0][-1]]
    assert [e["action"] for e in last] == ["alloc", "alloc"]
    assert last[0]["addr"] == low  # the second segment, the lower one on the device
    first_segment = own["snapshot"]["device_traces"][0][0]["addr"]
    assert last[1]["addr"] == first_segment  # with addresses of its own the first segment is the lower
    assert device_addresses(follows["snapshot"]) == [high, low]


def test_simulator_run_refuses_bad_settings() -> None:
    with pytest.raises(ValueError, match="max_split_size_mb"):
        run_on_simulator(HAND_OPS, capacity=CAPACITY, settings="max_split_size_mb:1")


# -- the real run, on the stand-in ----------------------------------------------------------------------------------


def test_real_run_makes_the_calls_in_the_sequence_order() -> None:
    torch = _sim_torch()
    record, snapshot = run_on_device(HAND_OPS, torch)
    calls = [c for c in torch.calls if c != "fill"]
    assert calls[:3] == ["init", "history on", "mempool"]  # recording before the first allocation
    assert calls[3:] == [
        "alloc", "alloc", "alloc_in_pool",
        "record_stream", "free",  # the free comes at its own operation, not later
        "alloc", "synchronize", "free", "mempool deleted",
        f"fraction {1 * GiB / CAPACITY:.6f}", "alloc", "snapshot", "history off",
        "free", "free",  # the two tensors still live when the run returns
    ]  # fmt: skip
    assert record["ooms_raised"] == [12] and record["oom_messages"][0].startswith("CUDA out of memory.")
    assert record["private_pool"] and record["live_tensors"] == 2 and record["device_total"] == CAPACITY
    assert compare_runs({**record, "snapshot": snapshot}, run_on_simulator(HAND_OPS, capacity=CAPACITY))["matched"]


@pytest.mark.parametrize("settings", SETTINGS)
def test_real_run_on_the_stand_in_matches_the_simulator_in_full(settings: str, monkeypatch: Any) -> None:
    monkeypatch.setenv("PYTORCH_CUDA_ALLOC_CONF", settings)
    record, snapshot = run_on_device(generate(), _sim_torch())
    assert record["settings"] == settings
    comparison = compare_runs({**record, "snapshot": snapshot}, run_on_simulator(generate(), capacity=CAPACITY,
                                                                                  settings=settings))  # fmt: skip
    assert comparison["matched"], comparison["first_difference"]
    assert comparison["aspects"]["ooms"]["real"] == {"events": 1, "raised": [len(generate()) - 1]}


# -- the comparison -------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def simulated() -> dict[str, dict[str, Any]]:
    return {s: run_on_simulator(generate(), capacity=CAPACITY, settings=s) for s in SETTINGS}


@pytest.mark.parametrize("settings", SETTINGS)
def test_a_run_compared_with_itself_matches_in_full(settings: str, simulated: dict[str, dict[str, Any]]) -> None:
    ours = simulated[settings]
    result = compare_runs(copy.deepcopy(ours), ours)
    assert result["matched"] and result["first_difference"] is None
    aspects = result["aspects"]
    assert all(a["matched"] for a in aspects.values())
    assert aspects["events"]["real"] == len(ours["snapshot"]["device_traces"][0])
    calls = Counter(e["action"] for e in ours["snapshot"]["device_traces"][0])
    assert aspects["device_calls"]["real"] == {a: calls[a] for a in aspects["device_calls"]["real"]}
    assert sum(map(len, aspects["segments"]["real"].values())) == len(ours["snapshot"]["segments"])
    assert aspects["block_offsets"]["blocks"] == sum(len(s["blocks"]) for s in ours["snapshot"]["segments"])


def test_a_changed_event_is_named_first(simulated: dict[str, dict[str, Any]]) -> None:
    ours = simulated[""]
    real = copy.deepcopy(ours)
    trace = real["snapshot"]["device_traces"][0]
    k = next(i for i, e in enumerate(trace) if i > 40 and e["action"] == "alloc")
    trace[k]["size"] += 512
    result = compare_runs(real, ours)
    assert not result["matched"]
    size = ours["snapshot"]["device_traces"][0][k]["size"]
    assert result["first_difference"].startswith(f"events: event {k}: real alloc {size + 512:,} B in range #")
    assert f"simulator alloc {size:,} B in range #" in result["first_difference"]
    assert f"(operation {ours['event_ops'][k]})" in result["first_difference"]
    assert result["aspects"]["segments"]["matched"]  # only the event was changed


def test_a_moved_block_is_named_with_its_segment(simulated: dict[str, dict[str, Any]]) -> None:
    ours = simulated[""]
    real = copy.deepcopy(ours)
    segment = next(s for s in real["snapshot"]["segments"] if len(s["blocks"]) >= 2 and s["segment_type"] == "large")
    segment["blocks"][1]["address"] += 512
    result = compare_runs(real, ours)
    assert result["aspects"]["events"]["matched"] and result["aspects"]["segments"]["matched"]
    difference = result["first_difference"]
    assert difference.startswith("block_offsets: large segment ") and ", block 1: real +" in difference
    offset = segment["blocks"][1]["address"] - segment["address"]
    assert f"real +{offset:,} " in difference and f"simulator +{offset - 512:,} " in difference


def test_a_missing_segment_a_changed_peak_and_a_missing_oom(simulated: dict[str, dict[str, Any]]) -> None:
    ours = simulated["expandable_segments:True"]
    real = copy.deepcopy(ours)
    smalls = [s for s in real["snapshot"]["segments"] if s["segment_type"] == "small"]
    real["snapshot"]["segments"].remove(smalls[0])
    result = compare_runs(real, ours)
    assert (
        result["first_difference"] == f"segments: small pool: real {len(smalls) - 1} segments, simulator {len(smalls)}"
    )

    real = copy.deepcopy(ours)
    real["peaks"]["reserved"] += 2 * MiB
    result = compare_runs(real, ours)
    reserved = ours["peaks"]["reserved"]
    assert result["first_difference"] == f"peaks: peak reserved: real {reserved + 2 * MiB}, simulator {reserved}"

    real = copy.deepcopy(ours)
    real["snapshot"]["device_traces"][0] = [e for e in real["snapshot"]["device_traces"][0] if e["action"] != "oom"]
    real["ooms_raised"] = []
    result = compare_runs(real, ours)
    n = len(real["snapshot"]["device_traces"][0])
    assert (
        result["first_difference"] == f"events: event {n}: only the simulator run goes on, with oom {OOM_REQUEST:,} B"
    )
    assert result["aspects"]["ooms"]["first_difference"] == "OOM events: real 0, simulator 1"


def test_a_real_recording_compared_with_itself_and_perturbed() -> None:
    raw = load_raw(fixture_path("silmont_mem_snapshot.pickle"))
    result = compare_runs({"snapshot": raw}, {"snapshot": raw})
    assert result["matched"]
    # counted from the raw file: 97 events, 9 cudaMallocs, 8 large segments and 1 small
    assert result["aspects"]["events"]["real"] == len(raw["device_traces"][0]) == 97
    assert result["aspects"]["device_calls"]["real"]["segment_alloc"] == 9
    assert {k: len(v) for k, v in result["aspects"]["segments"]["real"].items()} == {"large": 8, "small": 1}
    perturbed = copy.deepcopy(raw)
    segment = next(s for s in perturbed["segments"] if len(s["blocks"]) >= 5)
    segment["blocks"][2]["size"] += 512
    result = compare_runs({"snapshot": perturbed}, {"snapshot": raw})
    assert result["first_difference"].startswith("block_offsets: large segment ")
    assert ", block 2: real +" in result["first_difference"]


@pytest.mark.parametrize("name", ["silmont_mem_snapshot.pickle", "cranberrii_memory_snapshot.pickle"])
def test_the_first_difference_is_where_the_replay_first_diverges(name: str) -> None:
    """An independent oracle: the what-if replay's own feed finds the first event it did not do alike; the
    comparison of the recording with the replay's output names that same event (without address hints the replay
    places some blocks elsewhere; with them, nowhere)."""
    raw = load_raw(fixture_path(name))
    for hints in (True, False):
        result = replay(load_snapshot(fixture_path(name)), hints=hints)
        comparison = compare_runs({"snapshot": raw}, {"snapshot": result.snapshot})
        events = comparison["aspects"]["events"]
        if result.first_divergence is None:
            assert events["matched"], events["first_difference"]
        else:
            assert events["first_difference"].startswith(f"event {result.first_divergence}: ")
    assert not hints and result.first_divergence is not None  # the case without hints did diverge


# -- the summary ----------------------------------------------------------------------------------------------------


def test_summary_names_matches_differences_captures_and_timeouts(simulated: dict[str, dict[str, Any]]) -> None:
    ours = simulated[""]
    real = copy.deepcopy(ours)
    real["peaks"]["allocated"] += 512
    results = {
        "device": {"name": "NVIDIA H200", "torch": "2.11.0+cu130", "total_memory": 143771 * MiB},
        "seconds": 95.2,
        "folder": "/tmp/gpu-check-x",
        "parts": [
            {"name": "sequence default", "status": "ok", "seconds": 20.0, "note": ""},
            {"name": "sequence max_split_size_mb:64", "status": "ok", "seconds": 20.0, "note": ""},
            {"name": "training default", "status": "ok", "seconds": 30.0, "note": ""},
            {"name": "training expandable_segments:True", "status": "timeout", "seconds": 90.4, "note": "no ready"},
        ],
        "sequence": {
            "runs": {
                "default": {
                    "comparison": compare_runs(copy.deepcopy(ours), ours),
                    "replay": {"first_divergence": None},
                },
                "max_split_size_mb:64": {"comparison": compare_runs(real, ours), "replay": {"first_divergence": 196}},
            }
        },
        "training": {
            "default": {
                "attach": {"rc": 0, "snapshot": {"segments": 12, "reserved": 600 * MiB, "events": 4321}},
                "oom": {"raised": True, "captured": {"oom_events": 1}},
            },
            "expandable_segments:True": {"settings": "expandable_segments:True", "attach": {"rc": None}},
        },
        "nvml": {
            "device_view": {"driver_version": "580.1", "devices": [{"name": "NVIDIA H200", "used": MiB, "total": GiB}]},
            "attach_list": {"rows": [{"pid": 7}, {"pid": 8}]},
            "job": {"pid": 7, "in_device_view": True, "in_attach_list": True, "attach_probe": True},
        },
    }
    lines = summary_lines(results)
    assert lines[0] == "gpu-check: NVIDIA H200, torch 2.11.0+cu130, 143,771.0 MiB; 95 s; results in /tmp/gpu-check-x"
    training_ok, training_late, matched, differs, nvml, last = lines[1:]
    assert "attach saved 12 segments, 600.0 MiB reserved, 4,321 events" in training_ok
    assert "OOM raised and captured by the probe (1 oom event)" in training_ok
    assert training_late.endswith("attach timed out; TIMEOUT after 90 s: no ready")
    events = len(ours["snapshot"]["device_traces"][0])
    assert f"MATCH (events {events}/{events}," in matched and "replay of the real trace never differs" in matched
    allocated = ours["peaks"]["allocated"]
    assert f"DIFFERS at peaks: peak allocated: real {allocated + 512}, simulator {allocated}" in differs
    assert "differs at event 196" in differs and "alike: events, segments" in differs
    assert nvml == (
        "(c) NVML      driver 580.1, 1 GPU(s): NVIDIA H200 used 1.0 MiB of 1,024.0 MiB; attach --list 2 row(s); "
        "job 7 in device view and attach --list, probe yes"
    )
    assert last == (
        "simulator matched the device in 1 of 2 settings; parts that did not finish: training expandable_segments:True"
    )


# -- NVML -----------------------------------------------------------------------------------------------------------


def _attach_list(fake: FakeNvml, monkeypatch: Any, tmp_path: Path) -> str:
    """`gpumem-gui attach --list` over the fake driver (and a socket folder with no probe in it)."""
    sockets = tmp_path / "sockets"
    sockets.mkdir(mode=0o700)
    monkeypatch.setenv("GPUMEM_GUI_SOCKET_DIR", str(sockets))
    monkeypatch.setattr(nv, "NvmlSource", lambda: NvmlSource(fake))
    out = io.StringIO()
    with redirect_stdout(out):
        assert cli_main(["attach", "--list"]) == 0
    return out.getvalue()


def test_device_view_and_attach_list_agree_over_the_fake_driver(monkeypatch: Any, tmp_path: Path) -> None:
    me, gone = os.getpid(), _vanished_pid()
    view = device_view(NvmlSource(FakeNvml(three_gpus(me, gone))))
    assert view["error"] is None and view["driver_version"] == "550.54.15"
    assert [(d["name"], d["total"]) for d in view["devices"]] == [
        ("NVIDIA H100 80GB HBM3", 80 * GiB), ("Tesla V100-SXM2-16GB", 16 * GiB), ("NVIDIA A100-SXM4-40GB", 40 * GiB),
    ]  # fmt: skip
    assert view["text"].splitlines()[0] == "driver 550.54.15, 3 GPU(s)"
    json.dumps(view)  # it goes into results.json as it is
    attach = parse_attach_list(_attach_list(FakeNvml(three_gpus(me, gone)), monkeypatch, tmp_path))
    assert attach["note"] is None and not attach["unparsed"] and not attach["empty"]
    rows = {r["pid"]: r for r in attach["rows"]}
    assert set(rows) == {me, gone}
    # the fake driver's figures: 20 GiB on the H100, 2 GiB on the V100 (compute and graphics, one process)
    assert rows[me]["gpu_memory"] == "22.0 GiB" and rows[me]["gpu_bytes"] == 22 * GiB and not rows[me]["probe"]
    assert rows[gone]["gpu_bytes"] == 9 * GiB and rows[gone]["command"] == "?"
    job = cross_check(view, attach, me, reserved=21 * GiB)
    assert job == {
        "pid": me, "in_device_view": True, "nvml_bytes": 22 * GiB, "in_attach_list": True, "attach_probe": False,
        "attach_gpu_memory": "22.0 GiB", "torch_reserved": 21 * GiB, "attach_agrees_with_view": True,
        "nvml_minus_reserved": 1 * GiB,
    }  # fmt: skip
    assert cross_check(view, attach, 1, None) == {
        "pid": 1, "in_device_view": False, "nvml_bytes": None, "in_attach_list": False, "attach_probe": False,
        "attach_gpu_memory": None, "torch_reserved": None,
    }  # fmt: skip


def test_attach_list_without_a_driver_and_unknown_lines(monkeypatch: Any, tmp_path: Path) -> None:
    text = _attach_list(FakeNvml([], init_error=pynvml.NVML_ERROR_DRIVER_NOT_LOADED), monkeypatch, tmp_path)
    parsed = parse_attach_list(text)
    assert parsed == {
        "rows": [], "note": f"{nv.DRIVER_NOT_LOADED}; listing the jobs that run a probe", "empty": True, "unparsed": [],
    }  # fmt: skip
    text = "     PID    GPU memory  probe  command\n    4242           n/a  yes    python train.py\nsomething new\n"
    parsed = parse_attach_list(text)
    assert parsed["rows"] == [
        {"pid": 4242, "gpu_memory": "n/a", "gpu_bytes": None, "probe": True, "command": "python train.py"}
    ]
    assert parsed["unparsed"] == ["something new"]


# -- the orchestration ----------------------------------------------------------------------------------------------


def _check(args: list[str], env_extra: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("OUT", "PYTORCH_CUDA_ALLOC_CONF")}
    env.update(PYTHONPATH=os.pathsep.join([str(SIM_TORCH), str(REPO)]), GPUMEM_GUI_PURE_PYTHON="1", **env_extra)
    command = [sys.executable, "-m", "benchmarks.gpu_check", *args]
    return subprocess.run(command, env=env, cwd=cwd, capture_output=True, text=True, timeout=120, check=False)


def test_without_cuda_one_line_and_exit_2(tmp_path: Path) -> None:
    done = _check([], {"SIM_TORCH": "nocuda"}, tmp_path)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == "gpu-check: needs a CUDA device: torch 0.0+simulated sees none (CUDA build: none)\n"
    assert list(tmp_path.iterdir()) == []  # nothing written where there is no device


def test_without_cuda_through_make_and_the_real_cpu_torch(tmp_path: Path) -> None:
    """`make gpu-check` with this environment's torch (a CPU build): the one line, and make's exit status 2."""
    if importlib.util.find_spec("torch") is None or shutil.which("make") is None:
        pytest.skip("needs torch and make")
    env = {k: v for k, v in os.environ.items() if k != "OUT"}
    done = subprocess.run(
        ["make", "-s", "--no-print-directory", "gpu-check", f"PYTHON={sys.executable}", f"GPU_CHECK_DIR={tmp_path}/x"],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 2 and done.stdout == ""
    first = done.stderr.splitlines()[0]
    assert first.startswith("gpu-check: needs a CUDA device: torch ") and "sees none (CUDA build: none)" in first
    assert not (tmp_path / "x").exists()


def test_the_whole_check_on_the_stand_in(tmp_path: Path) -> None:
    """Every part through its own processes, with tests/sim_torch as the device: the three sequences match in full,
    the training job (which needs the real torch.nn) fails alone, and $OUT gets its three files."""
    out = tmp_path / "out"
    out.mkdir()
    done = _check(["--parts", "sequence,training"], {"OUT": str(out)}, tmp_path)
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("gpu-check: Simulated GPU, torch 0.0+simulated, 81,920.0 MiB; ")
    assert sum("MATCH (events" in line for line in lines) == 3
    assert "FAILED after" in lines[1] and "the job ended (exit 1) before it was ready" in lines[1]
    assert lines[-1] == (
        "simulator matched the device in 3 of 3 settings; parts that did not finish: "
        "training default, training expandable_segments:True"
    )
    assert sorted(p.name for p in out.iterdir()) == ["gpu-check.tar.gz", "results.json", "summary.txt"]
    results = json.loads((out / "results.json").read_text())
    assert [p["status"] for p in results["parts"]] == ["ok", "ok", "ok", "failed", "failed"]
    assert "nvml" not in results  # not chosen
    default = results["sequence"]["runs"]["default"]
    assert default["comparison"]["matched"] and default["real"]["loaded"]["oom_events"] == 1
    assert "cannot import name 'nn'" in results["training"]["default"]["error"]
    with tarfile.open(out / "gpu-check.tar.gz") as tar:
        names = {Path(n).name for n in tar.getnames()}
    assert {"sequence.json", "real-default.pickle", "sim-max_split_size_mb-64.pickle", "train-default.log"} <= names


def _group_alive(group: int) -> list[list[str]]:
    """The command lines of the group's processes that still run (a killed one is a zombie until reaped)."""
    alive = []
    for proc in psutil.process_iter():
        with contextlib.suppress(psutil.Error, OSError):
            if os.getpgid(proc.pid) == group and proc.status() != psutil.STATUS_ZOMBIE:
                alive.append(proc.cmdline())
    return alive


def test_a_hung_part_is_killed_with_its_children(tmp_path: Path) -> None:
    log = tmp_path / "log"
    began = time.monotonic()
    process = gpu_run.start(["sh", "-c", "sleep 60 & echo started; wait"], env=dict(os.environ), log=log)
    wait_until(lambda: log.read_text() == "started\n", what="the background sleep to start")
    assert gpu_run.finish(process, 0.3) is None
    # the background sleep got the group's SIGKILL too (delivered asynchronously: a loaded machine takes a moment)
    wait_until(lambda: _group_alive(process.pid) == [], timeout=10, what="the group's processes to end")
    assert time.monotonic() - began < 30


def test_parts_get_no_more_than_the_budget_and_are_skipped_when_it_is_spent(tmp_path: Path) -> None:
    now = [100.0]
    parts = gpu_run.Parts(60.0, clock=lambda: now[0])
    assert parts.time_for(150.0) == 60.0 and parts.time_for(10.0) == 10.0
    now[0] = 150.0
    assert parts.time_for(150.0) == 10.0
    check = gpu_run.Check(parts, tmp_path, sys.executable, dict(os.environ), list(gpu_run.PARTS))
    result = gpu_run.sequence_part(check, DEFAULT_SEED)
    assert result["runs"] == {} and [p["status"] for p in parts.done] == ["skipped"] * 3
    assert gpu_run.training_part(check, "default", {}) == {"settings": ""}
    assert parts.done[-1] == {"name": "training default", "status": "skipped", "seconds": 0.0, "note": "no time left"}


def test_a_part_that_breaks_costs_only_itself() -> None:
    parts = gpu_run.Parts(60.0)

    def broken() -> dict[str, Any]:
        raise KeyError("reserved")

    assert gpu_run.guarded(parts, "training default", broken) == {"error": "KeyError: 'reserved'"}
    assert parts.done[0]["status"] == "failed" and parts.done[0]["note"] == "KeyError: 'reserved'"


def test_the_bundle_leaves_out_the_largest_files_until_it_fits(tmp_path: Path) -> None:
    folder = tmp_path / "results"
    (folder / "oom").mkdir(parents=True)
    (folder / "results.json").write_text("{}")
    (folder / "oom" / "small.pickle").write_bytes(b"x" * 1000)
    (folder / "big.pickle").write_bytes(os.urandom(200_000))  # random bytes do not compress
    target = tmp_path / "bundle.tar.gz"
    assert gpu_run.bundle(folder, target, limit=100_000) == ["big.pickle"]
    with tarfile.open(target) as tar:
        assert sorted(tar.getnames()) == ["results/oom/small.pickle", "results/results.json"]
    assert gpu_run.bundle(folder, target, limit=1_000_000) == []


def test_the_training_part_attaches_captures_the_oom_and_lists_the_job(tmp_path: Path, monkeypatch: Any) -> None:
    """Part (a) with (c) inside it, on tests/fake_torch (a job that keeps the protocol of train_step.py): the probe
    starts with the job, `attach --once --save` writes its snapshot, the forced OOM leaves the probe's file (which
    `explain` reads), and `attach --list` shows the job with its probe while it waits."""
    monkeypatch.setattr(gpu_run, "TRAIN_SCRIPT", REPO / "tests" / "fake_torch" / "train_job.py")
    sockets = tmp_path / "s"
    sockets.mkdir(mode=0o700)
    env = gpu_run.base_env(sockets)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO / "tests" / "fake_torch"), str(REPO)])
    parts = gpu_run.Parts(120.0)
    check = gpu_run.Check(parts, tmp_path, sys.executable, env, list(gpu_run.PARTS))
    results: dict[str, Any] = {}
    out = gpu_run.training_part(check, "default", results)
    assert parts.done[-1]["name"] == "training default" and parts.done[-1]["status"] == "ok", parts.done
    pid = out["job"]["pid"]
    assert out["attach"]["rc"] == 0 and out["attach"]["line"].startswith("wrote ")
    saved = out["attach"]["snapshot"]
    assert saved["segments"] == 3 and saved["reserved"] == 98 * MiB and saved["oom_events"] == 0
    assert out["oom"]["raised"] and len(out["oom"]["captured_files"]) == 1
    assert out["oom"]["captured"]["oom_events"] == 1 and out["oom"]["explain_rc"] == 0
    assert json.loads((tmp_path / "explain-default.json").read_text())  # explain's own JSON
    job = results["nvml"]["job"]
    assert (job["pid"], job["in_attach_list"], job["attach_probe"]) == (pid, True, True)
    line = summary_lines({"training": {"default": out}, "parts": parts.done})[1]
    assert "attach saved 3 segments, 98.0 MiB reserved" in line and "OOM raised and captured by the probe" in line
