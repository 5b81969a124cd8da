"""The Predict steps added on the paging demo and the checkpointing lab, each checked against an independent count."""

from __future__ import annotations

import math
import pickle
from pathlib import Path
from typing import Any

import pytest

from gpumem_gui import assets
from gpumem_gui.core.snapshot.units import format_bytes
from gpumem_gui.teach.lab import measure_policy, torch_available
from gpumem_gui.teach.predict import LAB, PredictionError, load_predictions, make_case
from gpumem_gui.teach.predict.lab_cases import FIGURES, FSDP_WORLD_SIZE, lab_case
from gpumem_gui.teach.quiz import LANGUAGES, load_quizzes
from tests.kv_pool import kv_pool

PREDICTIONS = load_predictions()
WIDTH, TOKENS, N = 128, 64, 16  # the lab's default chain (teach/lab/choices.py)


def _prediction(quiz: str, question: str) -> Any:
    prediction = PREDICTIONS.find(quiz, question)
    assert prediction is not None
    return prediction


def _right_label(case: Any, lang: str = "en") -> str:
    (index,) = case.right_options
    return str(case.option_labels(lang)[index])


def _kv_bytes(example: str) -> int:
    """The KV cache's allocated bytes at the end, read from the raw pickle's segments (the final state)."""
    with assets.example_path(example).open("rb") as f:
        raw: dict[str, Any] = pickle.load(f)
    return sum(
        b["size"]
        for s in raw["segments"]
        for b in s["blocks"]
        if b["state"] == "active_allocated" and any("kv_cache" in fr["filename"] for fr in b.get("frames", []))
    )


def test_every_question_of_both_quizzes_has_a_predict_step() -> None:
    questions = {(quiz.id, q.id) for quiz in load_quizzes() for q in quiz.questions}
    assert set(PREDICTIONS.items) == questions and len(questions) == 16


def test_paging_saving_counted_from_the_two_pickles() -> None:
    contiguous = _kv_bytes("kv_cache_contiguous")
    pool, same, more, pool_pages = kv_pool()
    paged = sum(same) * (pool // pool_pages)  # the same requests' pages
    assert _kv_bytes("kv_cache_paged") == pool  # the paged run's KV cache is its one pool
    saving = 100 * (1 - paged / contiguous)
    assert f"{saving:.1f}" == "41.9"  # the figure the example's description states
    case = make_case(_prediction("gpu-memory", "paged-attention"))
    assert (case.extra["contiguous_kv_bytes"], case.extra["paged_kv_bytes"]) == (contiguous, paged)
    assert _right_label(case) == "41.9%" and len(case.options) == 4
    assert "41.9%" in case.reveal("en", PREDICTIONS) and format_bytes(contiguous) in case.reveal("en", PREDICTIONS)
    # French writes 12.0 GiB as "12,0 Gio" and 41.9% as "41,9 %" (each a no-break space), 3,567 as "3 567" (narrow)
    assert format_bytes(contiguous).replace(".", ",").replace(" GiB", "\u00a0Gio") in case.reveal("fr", PREDICTIONS)
    assert "41,9\u00a0%" in case.reveal("fr", PREDICTIONS) and "41,9\u00a0%" in case.option_labels("fr")
    assert f"serve {len(more)} more requests" in case.reveal("en", PREDICTIONS)
    assert format_bytes(pool) in case.reveal("en", PREDICTIONS)


# the lab's cases need torch (the lab runs it on the CPU); the paging case does not
needs_torch = pytest.mark.skipif(torch_available() is not None, reason="the checkpointing lab needs torch")


def test_lab_predictions_name_known_figures() -> None:
    lab = [p for p in PREDICTIONS.items.values() if p.example == LAB]
    assert {p.question for p in lab} == {
        "tradeoff", "overhead", "pytorch-api", "backward-recompute", "fsdp-mixed-precision", "selective",
        "activation-checkpointing", "saved-activations", "sqrt-schedule",
    }  # fmt: skip
    assert {p.figure for p in lab} == set(FIGURES)
    with pytest.raises(PredictionError, match="no lab figure"):
        lab_case(type(lab[0])(**{**lab[0].__dict__, "figure": "nope"}))


@needs_torch
@pytest.mark.parametrize("n", [4, 9])
def test_recompute_counts_hand_worked_on_small_chains(n: int) -> None:
    # each layer is Linear -> GELU -> Linear: 2 matmuls forward. Every layer checkpointed: non-reentrant early stop
    # re-runs the first Linear (GELU's input) but not the last, whose output nothing saved needs: n matmuls.
    every = measure_policy("every", n)
    assert (every.forward_matmuls, every.recomputed_matmuls) == (2 * n, n)
    # sqrt: segments of k layers; each re-runs every matmul but its last: (2k - 1) per segment
    k = round(math.sqrt(n))
    sqrt = measure_policy("sqrt", n)
    assert sqrt.checkpoints == n // k and sqrt.recomputed_matmuls == (n // k) * (2 * k - 1)
    # selective keeps every matmul output: none re-run, only the n GELUs
    selective = measure_policy("selective", n)
    assert (selective.recomputed_matmuls, selective.recomputed_pointwise) == (0, n)
    for question, right in (("tradeoff", n), ("backward-recompute", (n // k) * (2 * k - 1)), ("overhead", 0)):
        case = lab_case(_prediction("gradient-checkpointing", question), n_layers=n)
        assert _right_label(case) == str(right)
        assert case.extra["recomputed"] == right


@needs_torch
def test_default_chain_cases_and_their_texts() -> None:
    tradeoff = make_case(_prediction("gradient-checkpointing", "tradeoff"))
    assert _right_label(tradeoff) == "16" and "32" in tradeoff.prompt("en")  # 16 of the forward's 32 matmuls
    recompute = make_case(_prediction("gradient-checkpointing", "backward-recompute"))
    assert _right_label(recompute) == "28"  # 4 segments of 4 layers, 7 matmuls each
    for case in (tradeoff, recompute):
        assert case.snapshot is None and case.grade_none() and not case.grade_address(0)
        assert len(set(case.options)) == len(case.options) == 4
        for lang in LANGUAGES:
            assert "{" not in case.prompt(lang) + case.reveal(lang, PREDICTIONS)


@needs_torch
def test_the_mm_only_policy_keeps_no_linear_output() -> None:
    case = make_case(_prediction("gradient-checkpointing", "selective"))
    assert _right_label(case) == "0" and case.extra["kept"] == 0
    # hand-worked: checkpointing keeps the N layer inputs of tokens x width fp32; the trap keeps exactly that, and
    # mm + addmm keeps N + 1 more (each first Linear's output, and the chain's output: the other second-Linear
    # outputs are the next layer's input, already kept)
    trap, every, sel = (measure_policy(p, N) for p in ("selective_mm", "every", "selective"))
    assert trap.saved_bytes == every.saved_bytes == N * TOKENS * WIDTH * 4
    assert sel.saved_bytes - every.saved_bytes == (N + 1) * TOKENS * WIDTH * 4
    assert f"keeps {N + 1} more" in case.reveal("en", PREDICTIONS)


@needs_torch
def test_pick_an_option_checkpoint_keeps_each_layer_input() -> None:
    case = make_case(_prediction("gradient-checkpointing", "pytorch-api"))
    assert case.prediction.kind == "option" and case.right_options == frozenset({0})
    # hand-worked: without checkpointing each layer keeps its input, the first Linear's output (for GELU) and
    # GELU's output (for the second Linear): 3N; checkpointing each layer keeps its input only: N
    labels = case.option_labels("en")
    assert labels[0].endswith(f": {N} activations") and labels[1].endswith(f": {3 * N} activations")
    assert case.option_labels("ro")[0] == f"Doar intrarea fiecărui strat: {N} activări"
    assert not case.grade_option(1) and not case.grade_option(2)


@needs_torch
def test_fsdp_per_gpu_bytes_by_arithmetic() -> None:
    case = make_case(_prediction("gradient-checkpointing", "fsdp-mixed-precision"))
    ws = FSDP_WORLD_SIZE
    per_layer = 2 * (WIDTH * WIDTH + WIDTH)  # two Linear layers, weight and bias
    shard = math.ceil(per_layer / ws)  # each layer's flat parameter padded to a multiple of the world size
    # fp32 parameters and gradients (4 + 4 bytes), AdamW's exp_avg and exp_avg_sq (8), one 4-byte step per tensor
    per_gpu = N * shard * 16 + N * 4
    total = N * per_layer * 16 + 4 * N * 4  # unsharded: a step per tensor, two weights and two biases a layer
    assert (case.extra["per_gpu"], case.extra["total"]) == (per_gpu, total)
    assert _right_label(case) == format_bytes(per_gpu)
    params_only = N * shard * 4 + N * per_layer * 12 + 4 * N * 4  # only the parameters sharded
    assert format_bytes(params_only) in case.options and format_bytes(total) in case.options


@needs_torch
def test_the_box_shows_a_lab_option_case_and_grades_it(qtbot: Any, tmp_path: Path) -> None:
    from gpumem_gui.views.teach.predict_box import PredictBox  # noqa: PLC0415

    box = PredictBox(PREDICTIONS)
    qtbot.addWidget(box)
    box.resize(460, 420)
    box.set_prediction(_prediction("gradient-checkpointing", "pytorch-api"), "fr")
    box.show()
    box.start()
    assert box.wait()
    assert box.case is not None and box.document is None and not box.map.isVisibleTo(box)
    assert not box.status.isVisibleTo(box)  # "Preparing the case…" goes once the case is there
    assert box.option_buttons[0].text().startswith("Seulement l'entrée")
    with qtbot.waitSignal(box.predicted) as signal:
        box.pick_option(0)
    assert signal.args == ["pytorch-api", True]
    assert "Mesuré" in box.reveal.text()
    box.grab().save(str(tmp_path / "predict_lab.png"))
