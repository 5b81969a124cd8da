"""What-if replay: real traces come back as recorded under their own settings, and other settings change them."""

from __future__ import annotations

import json
import pickle
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from gpumem_gui.cli import main
from gpumem_gui.core import load_snapshot
from gpumem_gui.core.allocator.replay import merged_settings, replay
from gpumem_gui.core.allocator.synthetic import synthetic_snapshot
from gpumem_gui.core.rules.alloc_conf import AllocConfError
from gpumem_gui.core.snapshot.model import Action, Snapshot
from tests.conftest import FIXTURE_NAMES, fixture_path

ACQUIRE = (Action.SEGMENT_ALLOC, Action.SEGMENT_MAP)
RELEASE = (Action.SEGMENT_FREE, Action.SEGMENT_UNMAP)

# The fidelity table (README, "What if"): every fixture trace replayed under its recorded settings, with address
# hints and without. Columns from the file: events, peak reserved bytes, device allocations (segment_alloc +
# segment_map), device frees (segment_free + segment_unmap), OOMs, release runs (explicit empty_cache(), the
# allocator's own). Then the replay's first divergence with hints and without.
# Tolerance on every figure: none. The replay is a deterministic integer computation with no timing in it, and the
# allocator reserves whole segments (2 MiB at the least), so a model error moves a peak by at least 2 MiB and a
# count by at least 1: any tolerance smaller than that equals exactness, and a larger one would hide a changed rule.
FIDELITY = {
    ("constructor_memory_snapshot.pickle", 0): (6445, 8_541_700_096, 175, 0, 0, (0, 0), None, None),
    ("constructor_memory_snapshot.pickle", 1): (596, 84_202_749_952, 40, 6, 1, (0, 1), None, None),
    ("constructor_memory_snapshot.pickle", 2): (882, 21_883_781_120, 78, 0, 0, (0, 0), None, None),
    ("cranberrii_memory_snapshot.pickle", 0): (10307, 6_471_811_072, 152, 0, 0, (0, 0), None, 594),
    ("lfie_my_snapshot.pickle", 0): (1, 17_133_731_840, 0, 0, 0, (0, 0), None, None),
    ("magma27_memory_snapshot.pickle", 0): (5163, 14_180_941_824, 0, 0, 0, (0, 0), None, None),
    ("silmont_mem_snapshot.pickle", 0): (97, 3_781_165_056, 9, 0, 0, (0, 0), None, 59),
}


def _recorded_peak_reserved(snap: Snapshot, device: int) -> int:
    """Peak reserved straight from the file: the final segments, walked back through the trace's device calls."""
    seg = snap.state.segments
    reserved = int(seg.total_size[seg.device == device].sum())
    trace = snap.trace(device)
    change = np.where(np.isin(trace.action, ACQUIRE), trace.size, 0) - np.where(
        np.isin(trace.action, RELEASE), trace.size, 0
    )
    after = reserved - np.concatenate(([0], np.cumsum(change[::-1])))[::-1]  # reserved before each row, then the end
    return int(after.max())


def test_every_device_with_a_trace_is_in_the_table() -> None:
    found = set()
    for name in FIXTURE_NAMES:
        snap = load_snapshot(fixture_path(name))
        found |= {(name, d) for d in snap.devices() if len(snap.trace(d))}
    assert found == set(FIDELITY)


@pytest.mark.parametrize(("name", "device"), list(FIDELITY))
def test_the_tables_recorded_figures_are_the_files(name: str, device: int) -> None:
    events, peak, allocations, frees, ooms, _, _, _ = FIDELITY[(name, device)]
    snap = load_snapshot(fixture_path(name))
    actions = snap.trace(device).action
    assert len(actions) == events
    assert _recorded_peak_reserved(snap, device) == peak
    assert int(np.isin(actions, ACQUIRE).sum()) == allocations
    assert int(np.isin(actions, RELEASE).sum()) == frees
    assert int((actions == Action.OOM).sum()) == ooms


@pytest.mark.parametrize("hints", [True, False], ids=["hints", "no-hints"])
@pytest.mark.parametrize(("name", "device"), list(FIDELITY))
def test_real_traces_replay_as_recorded(name: str, device: int, hints: bool) -> None:
    _, peak, allocations, frees, ooms, releases, with_hints, without = FIDELITY[(name, device)]
    result = replay(load_snapshot(fixture_path(name)), device=device, hints=hints)
    o, r = result.original, result.replayed
    assert o.peak_reserved_bytes == r.peak_reserved_bytes == peak
    assert (r.device_allocations, r.device_frees, r.oom_events) == (allocations, frees, ooms)
    assert (o.device_allocations, o.device_frees, o.oom_events) == (allocations, frees, ooms)
    assert (result.explicit_releases, result.allocator_releases) == releases
    assert result.address_hints is hints
    assert result.first_divergence == (with_hints if hints else without)


def test_what_if_expandable_segments_changes_the_run() -> None:
    snap = load_snapshot(fixture_path("cranberrii_memory_snapshot.pickle"))
    result = replay(snap, overrides=["expandable_segments:True"])
    assert result.settings == "expandable_segments:True"
    assert result.replayed.peak_reserved_bytes < result.original.peak_reserved_bytes
    assert result.first_divergence is not None


def test_what_if_avoids_the_recorded_oom() -> None:
    snap = load_snapshot(fixture_path("constructor_memory_snapshot.pickle"))
    same = replay(snap, device=1)
    assert same.replayed.oom_events == 1
    bigger = replay(snap, device=1, capacity=200 * 2**30)
    assert bigger.replayed.oom_events == 0


def test_generated_trace_replays_exactly() -> None:
    snap = load_snapshot(pickle.dumps(synthetic_snapshot(5000, seed=11, streams=2, pending_fraction=0.1)))
    result = replay(snap)
    assert result.first_divergence is None
    assert result.replayed.peak_reserved_bytes == result.original.peak_reserved_bytes


def test_settings_merge_and_refusal() -> None:
    assert merged_settings("expandable_segments:True", ["max_split_size_mb:256"]) == (
        "expandable_segments:True,max_split_size_mb:256"
    )
    assert merged_settings("roundup_power2_divisions:[256:1,>:4]", ["expandable_segments:False"]).startswith(
        "roundup_power2_divisions:[256:1,>:4]"
    )
    with pytest.raises(AllocConfError, match="must be >= 20"):
        merged_settings("", ["max_split_size_mb:5"])


def test_cli_replay_json_and_output(tmp_path: Path, capsys: Any) -> None:
    out = tmp_path / "replayed.pickle"
    path = str(fixture_path("silmont_mem_snapshot.pickle"))
    assert main(["replay", path, "--json", "--set", "max_split_size_mb:64", "-o", str(out)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["settings"] == "max_split_size_mb:64"
    keys = {"peak_reserved_bytes", "final_reserved_bytes", "peak_allocated_bytes", "device_allocations"}
    keys |= {"device_frees", "oom_events", "max_external_fragmentation"}
    assert keys <= set(report["original"]) and keys | {"first_divergence"} <= set(report["replayed"])
    assert report["address_hints"] is True  # the default: the more faithful (see FIDELITY)
    assert report["releases"] == {"explicit_empty_cache": 0, "allocator": 0}
    assert main(["replay", path, "--json", "--no-hints"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["address_hints"] is False and report["replayed"]["first_divergence"] == 59
    assert main(["replay", path, "--no-hints"]) == 0
    assert "address hints        off" in capsys.readouterr().out
    replayed = load_snapshot(out)  # the app can open what -o wrote
    assert len(replayed.trace(0)) > 0
    assert main(["replay", path, "--set", "max_split_size_mb:5"]) == 2
    assert "must be >= 20" in capsys.readouterr().err
    assert main(["replay", str(fixture_path("felix_dump_a.pickle"))]) == 2
    assert "no trace" in capsys.readouterr().err
