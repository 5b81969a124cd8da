"""Fresh cases: the fragmentation OOM and empty_cache scenarios with other sizes, graded against the raw dict."""

from __future__ import annotations

import pickle

import pytest

from gpumem_gui import assets
from gpumem_gui.teach.fresh_cases import can_refresh, fresh_case, fresh_raw
from gpumem_gui.teach.predict import load_predictions, make_case

SEEDS = (1, 7, 123)


@pytest.fixture(scope="module")
def predictions():  # type: ignore[no-untyped-def]
    return load_predictions()


def _oom(raw: dict) -> dict:  # type: ignore[type-arg]
    ooms = [e for e in raw["device_traces"][0] if e["action"] == "oom"]
    assert len(ooms) == 1
    return ooms[0]


def _holes(raw: dict) -> list[int]:  # type: ignore[type-arg]
    return [b["size"] for s in raw["segments"] for b in s["blocks"] if b["state"] == "inactive"]


@pytest.mark.parametrize("seed", SEEDS)
def test_fragmentation_fresh_case_differs_and_grades_from_raw(predictions, seed: int) -> None:  # type: ignore[no-untyped-def]
    p = predictions.find("gpu-memory", "fragmentation")
    assert can_refresh(p)
    bundled = make_case(p)
    raw = fresh_raw(p.example, seed)
    request, holes = _oom(raw)["size"], _holes(raw)
    # the oracle from the raw dict: the snapshot is taken at the OOM, so its free blocks are the holes then
    assert holes and max(holes) < request < sum(holes) + _oom(raw)["device_free"]
    case = fresh_case(p, seed)
    assert case.extra["request"] == request != bundled.extra["request"]
    assert sorted(_holes(raw)) != sorted(
        b["size"] for s in _bundled_raw_segments() for b in s["blocks"] if b["state"] == "inactive"
    )
    fits = [h for h in holes if h >= request]
    assert case.grade_none() is (not fits)
    hole_addresses = [b["address"] for s in raw["segments"] for b in s["blocks"] if b["state"] == "inactive"]
    assert not any(case.grade_address(a) for a in hole_addresses)


def _bundled_raw_segments() -> list[dict]:  # type: ignore[type-arg]
    return pickle.loads(assets.example_path("fragmented_oom").read_bytes())["segments"]


@pytest.mark.parametrize("seed", SEEDS)
def test_empty_cache_fresh_case_grades_survivors_from_raw(predictions, seed: int) -> None:  # type: ignore[no-untyped-def]
    p = predictions.find("gpu-memory", "empty-cache")
    bundled = make_case(p)
    raw = fresh_raw(p.example, seed)
    trace = raw["device_traces"][0]
    made = {e["addr"]: e["size"] for e in trace if e["action"] == "segment_alloc"}
    survivors = {s["address"] for s in raw["segments"]}  # the snapshot is taken after empty_cache
    released = set(made) - survivors
    assert survivors and released
    case = fresh_case(p, seed)
    assert case.fields != bundled.fields
    assert sorted(made.values()) != sorted(s["total_size"] for s in _bundled_segments_ever())
    blocks = case.state.blocks
    segment_of = case.state.segments.address[blocks.segment]
    for i in range(len(blocks)):
        assert case.grade_block(i) is (int(segment_of[i]) in survivors)
    assert {int(a) for a in segment_of} == set(made)


def _bundled_segments_ever() -> list[dict]:  # type: ignore[type-arg]
    raw = pickle.loads(assets.example_path("empty_cache_live_tensor").read_bytes())
    return [{"total_size": e["size"]} for e in raw["device_traces"][0] if e["action"] == "segment_alloc"]


def test_seeds_give_different_cases(predictions) -> None:  # type: ignore[no-untyped-def]
    p = predictions.find("gpu-memory", "fragmentation")
    assert len({_oom(fresh_raw(p.example, s))["size"] for s in SEEDS}) == len(SEEDS)
    assert fresh_raw(p.example, 5) == fresh_raw(p.example, 5)


def test_other_predictions_keep_their_bundled_case(predictions) -> None:  # type: ignore[no-untyped-def]
    p = predictions.find("gpu-memory", "paged-attention")  # two runs of one scenario: not simulated afresh
    assert not can_refresh(p)
    assert fresh_case(p, 3).fields == make_case(p).fields
