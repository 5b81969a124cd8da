"""Fresh cases for the setting and number predictions: a retry gets another scenario, graded by replay or count."""

from __future__ import annotations

import pickle
from collections import Counter

import pytest

from gpumem_gui.core.allocator.replay import replay
from gpumem_gui.core.snapshot.loader import load_snapshot
from gpumem_gui.teach.fresh_cases import can_refresh, fresh_case, fresh_raw
from gpumem_gui.teach.predict import load_predictions, make_case
from gpumem_gui.teach.quiz import load_quizzes
from gpumem_gui.teach.quiz_session import QuizSession

SEEDS = (2, 11, 404)


@pytest.fixture(scope="module")
def predictions():  # type: ignore[no-untyped-def]
    return load_predictions()


@pytest.mark.parametrize("question", ["oom-reserved", "expandable-segments"])
@pytest.mark.parametrize("seed", SEEDS)
def test_a_retried_setting_prediction_is_a_new_oom_graded_by_replay(predictions, question: str, seed: int) -> None:  # type: ignore[no-untyped-def]
    p = predictions.find("gpu-memory", question)
    assert p.kind == "setting" and can_refresh(p)
    bundled = make_case(p)
    case = fresh_case(p, seed)
    assert case.fields["request"] != bundled.fields["request"]  # not answerable from memory
    raw = fresh_raw(p.example, seed)
    oom = next(e for e in raw["device_traces"][0] if e["action"] == "oom")
    free = sum(b["size"] for s in raw["segments"] for b in s["blocks"] if b["state"] == "inactive")
    largest = max(b["size"] for s in raw["segments"] for b in s["blocks"] if b["state"] == "inactive")
    assert largest < oom["size"] <= free  # a fragmentation OOM: free enough in total, no hole large enough
    # the oracle: each setting replayed on the whole fresh trace, as `gpumem-gui replay --set` does
    snapshot = load_snapshot(pickle.dumps(raw, protocol=4), name="fresh")
    for i, setting in enumerate(case.options):
        fits = replay(snapshot, overrides=setting.split(",")).replayed.oom_events == 0
        assert case.grade_option(i) == fits, setting
    assert case.right_options  # some setting removes it


@pytest.mark.parametrize("seed", SEEDS)
def test_a_retried_malloc_count_is_counted_in_the_fresh_trace(predictions, seed: int) -> None:  # type: ignore[no-untyped-def]
    p = predictions.find("gpu-memory", "caching-allocator")
    case = fresh_case(p, seed)
    assert case.fields["allocations"] != make_case(p).fields["allocations"]
    actions = Counter(e["action"] for e in fresh_raw(p.example, seed)["device_traces"][0])
    (right,) = case.right_options
    assert case.options[right].replace(",", "") == str(actions["segment_alloc"])
    assert case.fields["allocations"].replace(",", "") == str(actions["alloc"])


@pytest.mark.parametrize(("quiz", "question"), [
    ("gradient-checkpointing", "saved-activations"),
    ("gradient-checkpointing", "sqrt-schedule"),
    ("gpu-memory", "activation-checkpointing"),
])  # fmt: skip
def test_activation_counts_keep_the_lab_s_chain_on_a_retry(predictions, quiz: str, question: str) -> None:  # type: ignore[no-untyped-def]
    # one model per question: these predictions count on the lab's N=16 chain their Show me opens, so a retry does
    # not swap in a simulated chain of another size
    p = predictions.find(quiz, question)
    assert p.example == "checkpointing_lab" and not can_refresh(p)


def test_a_retry_round_asks_a_missed_setting_prediction_on_a_fresh_case(predictions) -> None:  # type: ignore[no-untyped-def]
    quiz = next(q for q in load_quizzes() if q.id == "gpu-memory")
    session = QuizSession([quiz])
    session.open_quiz("gpu-memory")
    question = next(q for q in quiz.questions if q.id == "expandable-segments")
    session.go_to(quiz.questions.index(question))
    session.record_prediction(question.id, False)
    session.start_retry(seed=9)
    seed = session.fresh_seed(question.id)
    assert seed is not None
    p = predictions.find("gpu-memory", question.id)
    assert fresh_case(p, seed).fields != make_case(p).fields
