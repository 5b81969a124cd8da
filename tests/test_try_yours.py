""" "Try it on yours": every question's concept lit on real snapshots gives the figure an independent count over the
raw file's segments, blocks and trace gives."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gpumem_gui.core.analysis.diagnosis import diagnose
from gpumem_gui.core.analysis.timetravel import build_timeline
from gpumem_gui.core.snapshot.loader import load_snapshot
from gpumem_gui.teach.demos.plans import DemoError
from gpumem_gui.teach.quiz import LANGUAGES, load_quizzes
from gpumem_gui.teach.yours import FINDING_OF, FINDINGS, RECORDING_SNIPPET, TEXTS, UI_KEYS, yours_focus
from tests.conftest import FIXTURE_NAMES, fixture_path, load_raw

LIVE = ("active_allocated", "active_pending_free")


def _raw_segments(raw: Any, device: int) -> list[dict[str, Any]]:
    return [s for s in raw["segments"] if s["device"] == device]


def _opened(name: str) -> tuple[Any, Any, Any]:
    path = fixture_path(name)
    snapshot = load_snapshot(path)
    return snapshot, build_timeline(snapshot, snapshot.default_device()), load_raw(path)


def test_every_question_has_a_finding_and_the_snippet_records_a_snapshot() -> None:
    asked = {(quiz.id, q.id) for quiz in load_quizzes() for q in quiz.questions}
    assert asked == set(FINDING_OF)
    assert set(FINDING_OF.values()) <= set(FINDINGS)
    lines = RECORDING_SNIPPET.splitlines()
    assert len(lines) == 4
    assert "torch.cuda.memory._record_memory_history(max_entries=100000)" in lines[1]
    assert 'torch.cuda.memory._dump_snapshot("snap.pickle")' in lines[3]
    for key in (*UI_KEYS, *(f for f in FINDINGS if f not in ("cache_reuse", "gap"))):
        assert set(TEXTS[key]) == set(LANGUAGES), key


@pytest.mark.parametrize("name", FIXTURE_NAMES)
def test_final_state_findings_match_the_raw_segments(name: str) -> None:
    snapshot, timeline, raw = _opened(name)
    segments = _raw_segments(raw, timeline.device)
    last = timeline.n_events - 1
    blocks = [(s, b) for s in segments for b in s["blocks"]]
    free = [b["size"] for _, b in blocks if b["state"] == "inactive"]
    allocated = [b["size"] for _, b in blocks if b["state"] == "active_allocated"]

    def live(s: dict[str, Any]) -> bool:
        return any(b["state"] in LIVE for b in s["blocks"])

    # Q8: the reserved / allocated gap
    gap = yours_focus("gap", snapshot, timeline)
    assert gap.facts["reserved_bytes"] == sum(s["total_size"] for s in segments)
    assert gap.facts["allocated_bytes"] == sum(allocated)
    # Q7: what empty_cache would return: whole segments with no live block (expandable ones are unmapped by page)
    empty = yours_focus("empty_cache", snapshot, timeline)
    whole = [s for s in segments if not live(s) and not s.get("is_expandable", False)]
    assert empty.facts["released_bytes"] == sum(s["total_size"] for s in whole)
    assert empty.facts["released_segments"] == len(whole)
    # Q3, Q4: inactive split bytes: free blocks in non-expandable segments that hold a live block
    split = yours_focus("inactive_split", snapshot, timeline, at=last)
    pinned = [b["size"] for s, b in blocks if b["state"] == "inactive" and live(s) and not s.get("is_expandable")]
    assert split.facts["split_bytes"] == sum(pinned)
    assert split.facts["split_blocks"] == len(pinned)
    assert int(split.block_mask.sum()) == len(pinned)
    # Q1: the largest hole against a request
    hole = yours_focus("largest_hole", snapshot, timeline, at=last)
    assert hole.facts["largest_hole_bytes"] == max(free, default=0)
    assert hole.facts["free_bytes"] == sum(free)
    assert hole.facts["holes"] == len(free)
    # Q5: the largest live block
    block = yours_focus("largest_block", snapshot, timeline, at=last)
    assert block.facts["block_bytes"] == max(allocated)
    assert block.facts["blocks"] == allocated.count(max(allocated))


@pytest.mark.parametrize("name", ["silmont_mem_snapshot.pickle", "cranberrii_memory_snapshot.pickle"])
def test_cache_reuse_counts_the_raw_trace(name: str) -> None:
    snapshot, timeline, raw = _opened(name)
    trace = raw["device_traces"][timeline.device]
    focus = yours_focus("cache_reuse", snapshot, timeline)
    assert focus.facts["allocations"] == sum(1 for e in trace if e["action"] == "alloc")
    assert focus.facts["cuda_mallocs"] == sum(1 for e in trace if e["action"] in ("segment_alloc", "segment_map"))


def test_a_file_without_allocations_says_how_to_record_one() -> None:
    snapshot, timeline, _ = _opened("felix_dump_a.pickle")
    with pytest.raises(DemoError, match="_record_memory_history"):
        yours_focus("cache_reuse", snapshot, timeline)


@pytest.mark.parametrize("name", ["silmont_mem_snapshot.pickle", "magma27_memory_snapshot.pickle"])
def test_the_activations_lit_are_explains_activations_at_its_moment(name: str) -> None:
    snapshot, timeline, _ = _opened(name)
    diagnosis = diagnose(snapshot, timeline=timeline)
    focus = yours_focus("activations", snapshot, timeline)
    assert focus.event == diagnosis.moment.event
    assert focus.facts["activation_bytes"] == diagnosis.breakdown.by_category["activations"] > 0


def test_the_oom_request_is_the_one_compared_with_the_largest_hole() -> None:
    snapshot, timeline, raw = _opened("constructor_memory_snapshot.pickle")
    trace = raw["device_traces"][timeline.device]
    ooms = [e for e in trace if e["action"] == "oom"]
    focus = yours_focus("largest_hole", snapshot, timeline)
    assert focus.facts["request_bytes"] == ooms[0]["size"]
    assert focus.facts["largest_hole_bytes"] < focus.facts["request_bytes"]
    assert "the failed request of 4.9 GiB" in focus.captions["en"]
    # no OOM: the largest request the run made, said as such, at the allocated peak
    snapshot, timeline, raw = _opened("cranberrii_memory_snapshot.pickle")
    focus = yours_focus("largest_hole", snapshot, timeline)
    largest = max(e["size"] for e in raw["device_traces"][timeline.device] if e["action"] == "alloc")
    assert focus.facts["request_bytes"] == largest
    assert "a request of 122.1 MiB, the largest this run made, fits in none of them" in focus.captions["en"]
    assert (
        "une demande de 122,1\u00a0Mio, la plus grande de cette exécution, ne tient dans aucun" in focus.captions["fr"]
    )


def test_captions_follow_the_language(tmp_path: Path) -> None:
    snapshot, timeline, _ = _opened("silmont_mem_snapshot.pickle")
    focus = yours_focus("empty_cache", snapshot, timeline)
    assert "3.0 GiB" in focus.captions["en"]
    assert "3,0\u00a0GiB" in focus.captions["ro"] and "6 segmente" in focus.captions["ro"]
    assert "3,0\u00a0Gio" in focus.captions["fr"]
    assert "expandable" not in focus.captions["en"]  # no expandable segment in this file: no clause about them
    snapshot, timeline, _ = _opened("constructor_memory_snapshot.pickle")  # expandable segments only
    focus = yours_focus("empty_cache", snapshot, timeline)
    assert "free pages of expandable segments" in focus.captions["en"] and focus.facts["expandable_free_bytes"] > 0


def test_the_panel_opens_the_learners_snapshot_with_the_concept_lit(qtbot: Any) -> None:
    from gpumem_gui.app import MainWindow  # noqa: PLC0415
    from gpumem_gui.views.snapshot.tab import SnapshotTab  # noqa: PLC0415

    window = MainWindow()
    qtbot.addWidget(window)
    panel = window.open_quiz("gpu-memory")
    panel.set_language("en")  # the window's settings may keep another test's language
    quiz = panel.current_quiz
    assert quiz is not None
    panel.go_to([q.id for q in quiz.questions].index("oom-reserved"))
    assert not panel.try_yours_box.isVisibleTo(panel)  # only after the reveal
    panel.answer(0)
    box = panel.try_yours_box
    assert box.isVisibleTo(panel) and box.finding == "inactive_split"
    assert "_record_memory_history(max_entries=100000)" in box.snippet.toPlainText()
    path = fixture_path("felix_dump_a.pickle")  # no trace: the final state is the moment
    window.teach.try_on_yours(box.finding, str(path))
    widget = window.wait_for_demo()
    assert isinstance(widget, SnapshotTab) and window.tabs.currentWidget() is widget
    raw = _raw_segments(load_raw(path), widget.device)
    pinned = [
        b for s in raw for b in s["blocks"] if b["state"] == "inactive" and any(x["state"] in LIVE for x in s["blocks"])
    ]
    assert widget.map.highlight is not None and int(widget.map.highlight.sum()) == len(pinned) == 19
    assert widget.map.focus_caption.text().startswith("97.4 MiB of your 182.0 MiB reserved")
