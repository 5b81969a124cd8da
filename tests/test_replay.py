"""What-if replay: real traces come back as recorded under their own settings, and other settings change them."""

from __future__ import annotations

import json
import pickle
from pathlib import Path
from typing import Any

import pytest

from gpumem_gui.cli import main
from gpumem_gui.core import load_snapshot
from gpumem_gui.core.allocator.replay import merged_settings, replay
from gpumem_gui.core.allocator.synthetic import synthetic_snapshot
from gpumem_gui.core.rules.alloc_conf import AllocConfError
from tests.conftest import fixture_path

# The fidelity table (closing note of issue 3): every fixture trace, replayed under its recorded settings.
# (file, device): (events, device allocations, first divergence)
FIDELITY = {
    ("constructor_memory_snapshot.pickle", 0): (6445, 175, None),
    ("constructor_memory_snapshot.pickle", 1): (596, 40, None),
    ("constructor_memory_snapshot.pickle", 2): (882, 78, None),
    ("cranberrii_memory_snapshot.pickle", 0): (10307, 152, None),
    ("lfie_my_snapshot.pickle", 0): (1, 0, None),
    ("magma27_memory_snapshot.pickle", 0): (5163, 0, None),
    ("silmont_mem_snapshot.pickle", 0): (97, 9, None),
}


@pytest.mark.parametrize(("name", "device"), list(FIDELITY))
def test_real_traces_replay_as_recorded(name: str, device: int) -> None:
    events, allocations, divergence = FIDELITY[(name, device)]
    snap = load_snapshot(fixture_path(name))
    assert len(snap.trace(device)) == events
    result = replay(snap, device=device)
    o, r = result.original, result.replayed
    assert abs(r.peak_reserved_bytes - o.peak_reserved_bytes) <= 0.01 * o.peak_reserved_bytes
    assert r.peak_reserved_bytes == o.peak_reserved_bytes  # in fact exactly
    assert o.device_allocations == r.device_allocations == allocations
    assert r.device_frees == o.device_frees and r.oom_events == o.oom_events
    assert result.first_divergence == divergence


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
    replayed = load_snapshot(out)  # the app can open what -o wrote
    assert len(replayed.trace(0)) > 0
    assert main(["replay", path, "--set", "max_split_size_mb:5"]) == 2
    assert "must be >= 20" in capsys.readouterr().err
    assert main(["replay", str(fixture_path("felix_dump_a.pickle"))]) == 2
    assert "no trace" in capsys.readouterr().err
