"""An OOM the device had room for: the process's own memory limit, as bounded by the recording, given by the user,
or recorded by the probe (its memory fraction times the device's total), in explain's figures and the replays."""

from __future__ import annotations

import math
import pickle
import tarfile
from pathlib import Path

import pytest

from gpumem_gui.core import load_snapshot
from gpumem_gui.core.allocator.replay import replay
from gpumem_gui.core.allocator.simulator import DeviceAllocatorSim, OutOfMemoryError
from gpumem_gui.core.analysis.diagnosis import diagnose
from gpumem_gui.core.analysis.timetravel import build_timeline
from gpumem_gui.core.rules.allocator_constants import GiB, MiB
from gpumem_gui.core.snapshot.model import Snapshot
from gpumem_gui.core.snapshot.recorded_with import read_recorded_limits
from gpumem_gui.sources.transfer import load_parts, save_parts

TOTAL = 80 * GiB
FRAMES = [{"name": "step", "filename": "train.py", "line": 3}]


def _fraction_oom(fraction: float, *, recorded: float | None = None) -> Snapshot:
    """40 MiB kept and 30 MiB cached under a limit of `fraction` of an 80 GiB device, then 200 MiB refused while
    the device had 80 GiB free; the probe's record of the fraction as `recorded` (None: a file torch wrote)."""
    sim = DeviceAllocatorSim(TOTAL)
    sim.set_memory_fraction(fraction)
    sim.malloc(40 * MiB, frames=FRAMES)
    sim.free(sim.malloc(30 * MiB, frames=FRAMES))
    with pytest.raises(OutOfMemoryError):
        sim.malloc(200 * MiB, frames=FRAMES)
    snap = sim.snapshot()
    if recorded is not None:
        snap["recorded_with"] = {"device_total_memory": {0: TOTAL}, "memory_fraction": {0: recorded}}
    return load_snapshot(pickle.dumps(snap))


def test_the_probes_fractions_become_limits_and_odd_values_are_left_out() -> None:
    totals = {0: 200 * MiB, 1: 100 * MiB}
    assert read_recorded_limits({"memory_fraction": {0: 0.5, "1": 0.25}}, totals) == {0: 100 * MiB, 1: 25 * MiB}
    odd = {0: 1.0, 1: math.nan, 2: 0.5, "x": 0.5, 3: True}  # no limit; not a fraction; no total; no device
    assert read_recorded_limits({"memory_fraction": odd}, totals) == {}
    assert read_recorded_limits({"memory_fraction": {0: -0.5, 1: "0.5"}}, totals) == {}
    assert read_recorded_limits({"memory_fraction": [0.5]}, totals) == {}
    assert read_recorded_limits("nonsense", totals) == {}


def test_a_limit_the_probe_recorded_is_the_one_explain_and_replay_take() -> None:
    limit = int(TOTAL * (100 * MiB / TOTAL))
    snap = _fraction_oom(100 * MiB / TOTAL, recorded=100 * MiB / TOTAL)
    assert snap.memory_limit == {0: limit}
    d = diagnose(snap)
    assert d.oom is not None and d.oom.process_limit is not None
    assert d.oom.process_limit.recorded and d.oom.process_limit.room_bytes == limit - 40 * MiB
    assert "The probe recorded that limit: 100.0 MiB" in " ".join(d.findings)
    result = replay(snap)
    assert (result.capacity, result.capacity_source) == (limit, "recorded_limit")
    assert result.original.oom_events == result.replayed.oom_events == 1 and result.first_divergence is None
    # without the probe's record, the lowest limit the recording allows: the 70 MiB held before the OOM
    bare = _fraction_oom(100 * MiB / TOTAL)
    assert (replay(bare).capacity, replay(bare).capacity_source) == (70 * MiB, "limit")


def test_a_recorded_limit_below_what_was_held_earlier_is_not_taken_for_the_whole_run() -> None:
    # the fraction was lowered late (as the H200 check does just before its OOM): 50 MiB, under the 70 MiB held
    # earlier. The diagnosis's room at the OOM follows it; a replay from the start under it would fail at once
    snap = _fraction_oom(100 * MiB / TOTAL, recorded=50 * MiB / TOTAL)
    d = diagnose(snap)
    assert d.oom is not None and d.oom.process_limit is not None and d.oom.process_limit.room_bytes == 10 * MiB
    result = replay(snap)
    assert result.capacity_source == "limit" and result.capacity >= 70 * MiB


def test_the_recorded_limit_survives_the_hand_over(tmp_path: Path) -> None:
    snap = _fraction_oom(100 * MiB / TOTAL, recorded=100 * MiB / TOTAL)
    save_parts(tmp_path / "whole.arrays", snap, {0: build_timeline(snap, 0)})
    again, _ = load_parts(tmp_path / "whole.arrays")
    assert again.memory_limit == snap.memory_limit == {0: 100 * MiB}


def _h200_oom_file(tmp_path: Path) -> Path:
    """The probe's OOM file of the H200 check's training job (default settings), from the committed bundle."""
    bundle = Path(__file__).resolve().parents[1] / "benchmarks/gpu_check/measured/2026-12-04-h200-probe-fraction"
    with tarfile.open(bundle / "gpu-check.tar.gz") as tar:
        member = next(m for m in tar.getmembers() if "/oom-default/" in m.name and m.name.endswith(".pickle"))
        data = tar.extractfile(member)
        assert data is not None
        path = tmp_path / "h200-oom.pickle"
        path.write_bytes(data.read())
    return path


def test_the_h200_oom_reads_as_an_expert_would(tmp_path: Path) -> None:
    # a real OOM (torch 2.11, stacks="python"): the limit the probe recorded, not the device, refused 1.9 GiB; and
    # the two 32 MiB blocks made at the first forward's and the first backward's first linear and alive to the end
    # (events 65 and 243 of 6,614, read off the raw trace) are cuBLAS's workspaces on Hopper, not an activation
    # and an unknown
    snap = load_snapshot(_h200_oom_file(tmp_path))
    assert snap.memory_limit == {0: 2_004_877_312} and snap.torch_version == "2.11.0+cu130"
    d = diagnose(snap)
    assert d.oom is not None and d.oom.process_limit is not None and d.oom.process_limit.recorded
    found = " ".join(d.findings)
    assert "The probe recorded that limit: 1.9 GiB" in found and "had only" not in found
    by = d.breakdown.by_category
    assert by.get("library_workspaces") == 2 * 32 * MiB and by.get("unknown", 0) == 0
    assert by.get("activations") == MiB  # the last forward's 1 MiB, kept by the job's last loss
