"""Settings that act on segments cannot be judged by a trace that never makes or frees a segment: explain and the
what-if comparison say so instead of "fits, no change"."""

from __future__ import annotations

import json
from typing import Any

from gpumem_gui.cli import main
from gpumem_gui.core.allocator.judged import unjudged_reason
from gpumem_gui.core.allocator.replay import replay
from gpumem_gui.core.snapshot.convert import snapshot_from_object
from gpumem_gui.core.snapshot.loader import load_snapshot
from gpumem_gui.document.document import SnapshotDocument
from gpumem_gui.document.staging import replay_document
from gpumem_gui.views.compare.whatif_view import WhatIfView
from tests.conftest import fixture_path, load_raw

MiB = 1 << 20
SEGMENT_ACTIONS = {"segment_alloc", "segment_free", "segment_map", "segment_unmap"}


def test_magma27_remedies_on_segments_are_not_judged(capsys: Any) -> None:
    path = fixture_path("magma27_memory_snapshot.pickle")
    trace = load_raw(path)["device_traces"][0]
    assert trace and not SEGMENT_ACTIONS & {e["action"] for e in trace}  # every segment predates recording
    assert main(["explain", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    remedies = {r["settings"]: r for r in out["remedies"] if r["kind"] == "setting"}  # the settings: on segments
    assert "expandable_segments:True" in remedies and any(s.startswith("max_split_size_mb:") for s in remedies)
    for r in remedies.values():
        assert r["judged"] is False
        assert "every segment predates recording" in r["reason"]
    text = " ".join(out["findings"])
    assert "With expandable_segments:True the trace cannot judge this" in text
    assert main(["explain", str(path)]) == 0
    table = [line.split() for line in capsys.readouterr().out.splitlines() if line.startswith("  n/a")]
    assert len(table) == len(remedies)  # no "yes" for any of them


def test_a_trace_that_makes_segments_judges_them(capsys: Any) -> None:
    path = fixture_path("silmont_mem_snapshot.pickle")
    assert "segment_alloc" in {e["action"] for e in load_raw(path)["device_traces"][0]}
    assert main(["explain", str(path), "--json"]) == 0
    remedies = json.loads(capsys.readouterr().out)["remedies"]
    assert remedies and all(r["judged"] is True and r["reason"] == "" for r in remedies)


def _cached_only() -> Any:
    """One 20 MiB segment from before recording; the trace allocates and frees 4 MiB in it, twice."""
    frames = [{"name": "step", "filename": "train.py", "line": 3}]
    seg = {
        "device": 0, "address": 0x7F0000000000, "total_size": 20 * MiB, "stream": 0, "segment_type": "large",
        "is_expandable": False, "frames": frames,
        "blocks": [{"address": 0x7F0000000000, "size": 20 * MiB, "requested_size": 0, "state": "inactive"}],
    }  # fmt: skip
    events = []
    for _ in range(2):
        for action in ("alloc", "free_requested", "free_completed"):
            events.append({"action": action, "addr": 0x7F0000000000, "size": 4 * MiB, "stream": 0, "frames": frames})
    return snapshot_from_object({"segments": [seg], "device_traces": [events]}, "cached only", "dump")


def test_which_settings_act_on_segments() -> None:
    trace = _cached_only().trace(0)
    for setting in ("expandable_segments:True", "max_split_size_mb:64", "garbage_collection_threshold:0.6"):
        assert "every segment predates recording" in unjudged_reason(trace, "", setting), setting
        assert setting.split(":")[0] in unjudged_reason(trace, "", setting)
    assert unjudged_reason(trace, "", "roundup_power2_divisions:4") == ""  # acts on each request's size
    assert unjudged_reason(trace, "expandable_segments:True", "expandable_segments:True") == ""  # nothing changed
    result = replay(_cached_only(), overrides=["expandable_segments:True"])
    assert result.as_dict()["judged"] is False and result.unjudged


def test_the_what_if_comparison_says_the_trace_cannot_judge(qtbot: Any) -> None:
    document = SnapshotDocument(load_snapshot(fixture_path("magma27_memory_snapshot.pickle")))
    run = replay_document(document, ["expandable_segments:True"], None, lambda: None)
    view = WhatIfView(run)
    qtbot.addWidget(view)
    assert "cannot judge this: every segment predates recording" in view.summary.text()
    judged = replay_document(document, ["roundup_power2_divisions:4"], None, lambda: None)
    assert "cannot judge" not in WhatIfView(judged).summary.text()
