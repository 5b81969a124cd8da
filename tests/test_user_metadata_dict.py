"""user_metadata given as a dict (PyTorch's viewer shows a string or a dict's `key: value` lines): read by both
readers, shown as one line, and a grouping of the site timeline and the breakdown."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

import pytest

from gpumem_gui.core import load_snapshot
from gpumem_gui.core.analysis.breakdown import breakdown_at
from gpumem_gui.core.analysis.site_series import block_mask, build_site_series
from gpumem_gui.core.analysis.timetravel import build_timeline
from gpumem_gui.core.snapshot.errors import SnapshotError
from gpumem_gui.document.events import describe_event
from gpumem_gui.sources.transfer import load_parts, save_parts
from tests.conftest import trace_entry

BASE = 0x7F0000000000
MiB = 1 << 20
# The trace entry's keys and types as torch 2.13 writes them (torch/cuda/memory.py, _snapshot's TraceEntry docstring,
# lines 1084-1106; user_metadata '' by default, pytorch#165490); the dict as MemoryViz.js shows one (a key: value line
# per key) and as tools write it.
STEP = {"step": 3, "phase": "fwd", "shape": [4, 1024]}
FRAMES = [{"name": "forward", "filename": "model.py", "line": 12}]


def _entry(action: str, addr: int, size: int, metadata: Any, t: int) -> dict[str, Any]:
    return trace_entry(action, addr, size, t, metadata, frames=FRAMES)


def _snapshot(tmp_path: Path, metadata: Any = STEP) -> Path:
    blocks = [
        {"address": BASE, "size": MiB, "requested_size": MiB, "state": "active_allocated", "frames": FRAMES},
        {"address": BASE + MiB, "size": MiB // 2, "requested_size": MiB // 2, "state": "active_allocated"},
        {"address": BASE + 3 * MiB // 2, "size": MiB // 4, "requested_size": MiB // 4, "state": "active_allocated"},
        {"address": BASE + 7 * MiB // 4, "size": MiB // 4, "requested_size": MiB // 4, "state": "inactive"},
    ]
    segment = {"address": BASE, "total_size": 2 * MiB, "stream": 0, "segment_type": "large", "blocks": blocks}
    trace = [
        _entry("segment_alloc", BASE, 2 * MiB, "", 1),
        _entry("alloc", BASE, MiB, metadata, 2),
        _entry("alloc", BASE + MiB, MiB // 2, "warmup", 3),
        _entry("alloc", BASE + 3 * MiB // 2, MiB // 4, "", 4),
    ]
    path = tmp_path / "metadata.pickle"
    path.write_bytes(pickle.dumps({"segments": [segment], "device_traces": [trace]}, protocol=4))
    return path


def test_a_dict_is_read_and_shown_as_its_key_value_line(tmp_path: Path, twin: str) -> None:
    snapshot = load_snapshot(_snapshot(tmp_path))
    trace = snapshot.traces[0]
    line = "step: 3; phase: fwd; shape: [4,1024]"
    assert [snapshot.strings[i] for i in trace.user_metadata] == ["", line, "warmup", ""]
    assert snapshot.metadata[int(trace.user_metadata[1])] == (("step", "3"), ("phase", "fwd"), ("shape", "[4,1024]"))
    info = describe_event(snapshot, 0, 1)
    assert info is not None and info.user_metadata == line


def test_a_string_equal_to_a_dicts_line_stays_a_string(tmp_path: Path, twin: str) -> None:
    snapshot = load_snapshot(_snapshot(tmp_path, metadata={"a": "1"}))
    trace = snapshot.traces[0]
    assert snapshot.strings[int(trace.user_metadata[1])] == "a: 1"
    assert int(trace.user_metadata[1]) in snapshot.metadata and int(trace.user_metadata[2]) not in snapshot.metadata


@pytest.mark.parametrize(
    ("metadata", "words"),
    [
        ({"a": {"b": {"c": {"d": {"e": 1}}}}}, "a 'user_metadata' that is a dict nested deeper than 4"),
        ({str(i): i for i in range(65)}, "a 'user_metadata' that is a dict of 65 keys, beyond 64"),
        ({1: "x"}, "a 'user_metadata' that is a dict whose keys are not all strings"),
        (3, "a 'user_metadata' that is 3, not a string or a dict"),
    ],
)
def test_out_of_bounds_metadata_is_refused_in_one_line(tmp_path: Path, twin: str, metadata: Any, words: str) -> None:
    with pytest.raises(SnapshotError, match="entry 1 has " + words.replace("[", r"\[")):
        load_snapshot(_snapshot(tmp_path, metadata=metadata))


def test_breakdown_and_site_timeline_group_by_metadata(tmp_path: Path, twin: str) -> None:
    snapshot = load_snapshot(_snapshot(tmp_path))
    timeline = build_timeline(snapshot, 0)
    line = "step: 3; phase: fwd; shape: [4,1024]"
    # each block under the metadata of its own alloc entry; "" (PyTorch's default) is no metadata
    assert breakdown_at(snapshot, timeline, 3).by_metadata == {line: MiB, "warmup": MiB // 2, "no metadata": MiB // 4}
    series = build_site_series(snapshot, timeline, ("metadata",))
    bands = {band.key: band.peak_bytes for band in series.groupings["metadata"].bands}
    assert bands == {"no metadata": MiB // 4, line: MiB, "warmup": MiB // 2}
    state = timeline.state_at(3)
    assert state.blocks.address[block_mask(series, state, "metadata", line, 3)].tolist() == [BASE]


def test_the_pairs_cross_to_the_window(tmp_path: Path) -> None:
    # the loading worker hands the snapshot to the window through sources.transfer
    snapshot = load_snapshot(_snapshot(tmp_path))
    save_parts(tmp_path / "parts", snapshot, {})
    received, _timelines = load_parts(tmp_path / "parts")
    assert received.metadata == snapshot.metadata and received.strings == snapshot.strings
