"""Remedies replayed: which candidates are tried, the smaller request at the boundary, parallel replays, failures."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from gpumem_gui.assets import example_path
from gpumem_gui.core.allocator import remedies
from gpumem_gui.core.allocator.remedies import Candidate, explain, replay_candidates
from gpumem_gui.core.analysis.diagnosis import Remedy
from gpumem_gui.core.snapshot.loader import load_snapshot
from gpumem_gui.core.snapshot.model import Action
from tests.conftest import fixture_path, load_raw

MiB = 1 << 20


def test_split_values_lie_below_the_request() -> None:
    assert remedies._split_values(1536 * MiB + 8192) == [256, 512, 1024]  # the largest power of two not above it
    assert remedies._split_values(64 * MiB) == [32, 64]  # 16 would be refused (max_split_size_mb must be > 20)
    assert remedies._split_values(20 * MiB) == []  # too small for any value PyTorch accepts to keep it whole
    assert remedies._split_values(0) == [128, 256, 512]  # no request (a peak): a few usual values


def test_oom_candidates_and_their_verdicts() -> None:
    snapshot = load_snapshot(example_path("split_blocks_oom"))
    found = explain(snapshot)
    tried = {r.settings: r for r in found.remedies}
    assert "expandable_segments:True" in tried
    assert remedies.GC_SETTINGS in tried  # the trace has an OOM, so a device capacity to hold a fraction of
    assert any(s.startswith("the request made") for s in tried)
    assert any("empty_cache() before the failing request was not replayed" in n for n in found.notes)
    assert found.baseline.startswith("Replayed under the recorded settings, the simulator runs out of memory too")
    for r in found.remedies:
        assert r.fits == (r.oom_events == 0)
        assert r.peak_reserved_bytes > 0


def test_the_smaller_request_fits_at_the_bound_and_not_above() -> None:
    snapshot = load_snapshot(example_path("fragmented_oom"))
    found = explain(snapshot)
    oom = found.diagnosis.oom
    assert oom is not None
    raw_holes = [b["size"] for s in load_raw(example_path("fragmented_oom"))["segments"] for b in s["blocks"]
                 if b["state"] == "inactive"]  # fmt: skip
    assert oom.fits_up_to_bytes == max(raw_holes)  # the hole is larger than a new segment in the device's free memory
    bound, above = oom.fits_up_to_bytes, oom.fits_up_to_bytes + 4 * MiB
    at_bound, past = replay_candidates(
        snapshot, 0, [Candidate("at", (), smaller_request=bound), Candidate("past", (), smaller_request=above)]
    )
    assert isinstance(at_bound, Remedy) and at_bound.fits
    assert isinstance(past, Remedy) and not past.fits and past.oom_events == 1


def test_smaller_request_changes_only_the_first_oom_row() -> None:
    snapshot = load_snapshot(example_path("fragmented_oom"))
    changed = remedies._with_smaller_request(snapshot, 0, 1234 * MiB)
    before, after = snapshot.trace(0), changed.trace(0)
    row = int(np.flatnonzero(before.action == Action.OOM)[0])
    assert after.size[row] == 1234 * MiB
    assert np.array_equal(np.delete(after.size, row), np.delete(before.size, row))
    assert before.size[row] != 1234 * MiB  # the original is left alone


def test_parallel_replays_give_the_sequential_results() -> None:
    snapshot = load_snapshot(example_path("split_blocks_oom"))
    candidates = [Candidate(s, (s,)) for s in ("expandable_segments:True", "max_split_size_mb:256")]
    assert replay_candidates(snapshot, 0, candidates, parallel=True) == replay_candidates(
        snapshot, 0, candidates, parallel=False
    )


def test_a_failing_replay_is_a_sentence_not_a_crash(monkeypatch: pytest.MonkeyPatch) -> None:
    snapshot = load_snapshot(example_path("split_blocks_oom"))

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise KeyError(1234)

    monkeypatch.setattr(remedies, "replay_outcome", broken)
    [result] = replay_candidates(snapshot, 0, [Candidate("expandable_segments:True", ("expandable_segments:True",))])
    assert isinstance(result, str) and "expandable_segments:True failed (KeyError" in result


def test_peak_candidates_leave_out_what_needs_a_capacity() -> None:
    snapshot = load_snapshot(example_path("reserved_vs_allocated"))
    found = explain(snapshot)
    tried = [r.settings for r in found.remedies if r.kind == "setting"]
    assert tried == ["expandable_segments:True", "max_split_size_mb:128", "max_split_size_mb:256",
                     "max_split_size_mb:512"]  # fmt: skip
    assert any(n.startswith("garbage_collection_threshold was not tried") for n in found.notes)
    assert found.baseline.startswith("Replayed under the recorded settings, the peak reserved is")


def test_recorded_expandable_segments_is_not_tried_again() -> None:
    snapshot = load_snapshot(fixture_path("constructor_memory_snapshot.pickle"))  # recorded with expandable segments
    found = explain(snapshot)
    assert "expandable_segments:True" not in [r.settings for r in found.remedies]
    assert "expandable_segments was already on in the recorded run." in found.notes


def test_file_without_a_trace_has_no_remedies() -> None:
    found = explain(load_snapshot(fixture_path("felix_dump_a.pickle")))
    assert found.remedies == []
    assert found.notes == ["There is no trace to replay, so no remedy could be verified."]
