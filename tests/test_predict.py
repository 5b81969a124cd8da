"""Predict-then-reveal cases graded from the data: each checked against the raw pickle or a replay run here."""

from __future__ import annotations

import dataclasses
import math
import pickle
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from gpumem_gui import assets
from gpumem_gui.core.allocator.remedies import replay_candidates
from gpumem_gui.core.snapshot.loader import load_snapshot
from gpumem_gui.teach.predict import (
    PredictionError,
    Predictions,
    load_predictions,
    make_case,
    setting_candidates,
)
from gpumem_gui.teach.quiz import LANGUAGES, load_quizzes

PREDICTIONS = load_predictions()


def _raw(example: str) -> dict[str, Any]:
    with assets.example_path(example).open("rb") as f:
        raw: dict[str, Any] = pickle.load(f)
    return raw


def _trace(raw: dict[str, Any]) -> list[dict[str, Any]]:
    return next(t for t in raw["device_traces"] if t)


def _case(quiz: str, question: str) -> Any:
    prediction = PREDICTIONS.find(quiz, question)
    assert prediction is not None
    return make_case(prediction)


def test_every_prediction_names_a_real_question_and_fills_its_texts() -> None:
    questions = {(quiz.id, q.id) for quiz in load_quizzes() for q in quiz.questions}
    assert set(PREDICTIONS.items) <= questions
    kinds = {p.kind for p in PREDICTIONS.items.values()}
    assert kinds == {"block", "segment", "setting", "number", "option"}
    for prediction in PREDICTIONS.items.values():
        case = make_case(prediction)
        for lang in LANGUAGES:
            assert "{" not in case.prompt(lang) and "{" not in case.reveal(lang, PREDICTIONS)


def test_click_the_hole_no_hole_holds_the_request() -> None:
    case = _case("gpu-memory", "fragmentation")
    raw = _raw("fragmented_oom")
    request = next(e["size"] for e in _trace(raw) if e["action"] == "oom")
    # the OOM is the trace's last event, so the pickle's own segments are the state it failed in
    holes = {b["address"]: b["size"] for s in raw["segments"] for b in s["blocks"] if b["state"] == "inactive"}
    assert len(holes) == 9 and max(holes.values()) < request
    for address, size in holes.items():
        assert case.grade_address(address) == (size >= request)
    assert case.grade_none()
    assert "1.5 GiB" in case.prompt("en")


def test_reserved_not_allocated_blocks_are_the_cached_ones() -> None:
    case = _case("gpu-memory", "reserved-vs-allocated")
    raw = _raw("reserved_vs_allocated")
    cached = {b["address"] for s in raw["segments"] for b in s["blocks"] if b["state"] != "active_allocated"}
    assert set(case.right_addresses.tolist()) == cached and cached
    assert not case.grade_none()


def _live_segments_before(trace: list[dict[str, Any]], until: int) -> tuple[set[int], set[int]]:
    """Walk the raw trace to event `until` (inclusive): the segments there, and those holding a live block."""
    segments: dict[int, int] = {}
    live: set[int] = set()
    for e in trace[: until + 1]:
        if e["action"] == "segment_alloc":
            segments[e["addr"]] = e["size"]
        elif e["action"] == "segment_free":
            segments.pop(e["addr"], None)
        elif e["action"] == "alloc":
            live.add(e["addr"])
        elif e["action"] == "free_completed":
            live.discard(e["addr"])
    holding = {s for s, size in segments.items() if any(s <= a < s + size for a in live)}
    return set(segments), holding


def test_the_segments_that_survive_empty_cache_are_those_with_live_blocks() -> None:
    case = _case("gpu-memory", "empty-cache")
    segments, holding = _live_segments_before(_trace(_raw("empty_cache_live_tensor")), case.event)
    seg = case.state.segments
    assert set(seg.address.tolist()) == segments
    right_segments = set(seg.address[case.state.blocks.segment[case.right_blocks]].tolist())
    assert right_segments == holding and len(holding) == 1 < len(segments)
    for i, segment in enumerate(case.state.blocks.segment.tolist()):
        assert case.grade_block(i) == (int(seg.address[segment]) in holding)


@pytest.mark.parametrize(
    ("question", "example"), [("expandable-segments", "fragmented_oom"), ("oom-reserved", "split_blocks_oom")]
)
def test_expandable_and_max_split_remove_the_oom_and_the_gc_threshold_does_not(question: str, example: str) -> None:
    case = _case("gpu-memory", question)
    assert case.options[0] == "expandable_segments:True"
    assert case.options[1].startswith("max_split_size_mb:")
    assert case.options[2].startswith("garbage_collection_threshold:")
    assert case.right_options == frozenset({0, 1})
    # a second replay, run here: the OOM is recorded and replays under the recorded settings too
    snapshot = load_snapshot(assets.example_path(example))
    oom = next(e for e in _trace(_raw(example)) if e["action"] == "oom")
    candidates = setting_candidates(oom["size"])
    results = replay_candidates(snapshot, snapshot.default_device(), candidates, parallel=False)
    assert [getattr(r, "fits", None) for r in results] == [True, True, False]
    assert [case.grade_option(i) for i in range(3)] == [True, True, False]


def _activations_at_peak(example: str) -> tuple[int, int]:
    """(activations, weights) alive when allocated bytes peak, from the raw trace: weights are allocated in
    build_model, activations anywhere else."""
    live: dict[int, tuple[int, bool]] = {}
    total = best = 0
    at_peak: list[bool] = []
    for e in _trace(_raw(example)):
        if e["action"] == "alloc":
            weight = any(f["name"] == "build_model" for f in e["frames"])
            live[e["addr"]] = (e["size"], weight)
            total += e["size"]
        elif e["action"] == "free_requested" and e["addr"] in live:
            total -= live.pop(e["addr"])[0]
        if total > best:
            best, at_peak = total, [w for _, w in live.values()]
    return at_peak.count(False), at_peak.count(True)


@pytest.mark.parametrize(
    ("quiz", "question", "example"),
    [
        ("gradient-checkpointing", "saved-activations", "checkpointing_off"),
        ("gradient-checkpointing", "sqrt-schedule", "checkpointing_sqrt"),
    ],
)
def test_activations_alive_at_the_peak(quiz: str, question: str, example: str) -> None:
    # the questions now predict on the lab's chain (their Show me); the simulated chains' number builder still
    # grades a prediction made on them
    prediction = PREDICTIONS.find(quiz, question)
    assert prediction is not None
    case = make_case(dataclasses.replace(prediction, example=example, figure=""))
    activations, weights = _activations_at_peak(example)
    right = int(case.options[next(iter(case.right_options))])
    assert right == activations and case.extra["layers"] == weights == 36
    assert len(case.options) == 4 and len(case.right_options) == 1
    assert all(abs(int(o) - right) > 1 for o in case.options if int(o) != right)
    if example == "checkpointing_sqrt":
        assert activations < 2 * math.isqrt(weights) + 1  # about 2 sqrt(N), far below N


def test_cuda_mallocs_counted_from_the_trace() -> None:
    case = _case("gpu-memory", "caching-allocator")
    trace = _trace(_raw("cache_reuse"))
    grows = sum(e["action"] in ("segment_alloc", "segment_map") for e in trace)
    assert case.options[next(iter(case.right_options))] == f"{grows:,}"


def test_translations_keep_the_glossary_terms() -> None:
    glossary = tomllib.loads(assets.GLOSSARY.read_text(encoding="utf-8"))
    raw = tomllib.loads(assets.PREDICTIONS.read_text(encoding="utf-8"))
    texts: dict[str, list[str]] = {lang: [] for lang in LANGUAGES}

    def collect(node: object) -> None:
        if isinstance(node, dict):
            if set(node) == set(LANGUAGES):
                for lang in LANGUAGES:
                    texts[lang].append(str(node[lang]))
            else:
                for value in node.values():
                    collect(value)

    collect(raw)
    found = [
        f"{lang}.{name}: {text!r}"
        for lang in ("ro", "fr")
        for name, concept in glossary[lang].items()
        for pattern in concept["forbidden"]
        for text in texts[lang]
        if re.search(pattern, text, re.IGNORECASE)
    ]
    assert not found


def test_a_broken_file_names_the_entry(tmp_path: Path) -> None:
    path = tmp_path / "p.toml"
    good = assets.PREDICTIONS.read_text(encoding="utf-8")
    path.write_text(good.replace('kind = "segment"', 'kind = "segmnet"'), encoding="utf-8")
    with pytest.raises(PredictionError, match=r"empty-cache\.kind 'segmnet'"):
        load_predictions(path)
    assert isinstance(load_predictions(assets.PREDICTIONS), Predictions)
