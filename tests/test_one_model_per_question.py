"""One model per question: GPU Q6 and GC Q2/Q3 predict on the chain their Show me opens (the lab's N=16 chain),
and the right counts are the ones worked by hand and measured by the lab (the teaching review's suggestion 5)."""

from __future__ import annotations

import math

from gpumem_gui.teach.lab import DEFAULT_N, measure_policy
from gpumem_gui.teach.predict import LAB, load_predictions, make_case
from gpumem_gui.teach.quiz import find_quiz


def test_every_lab_demo_is_predicted_on_the_lab() -> None:
    predictions = load_predictions()
    for quiz_id in ("gpu-memory", "gradient-checkpointing"):
        for q in find_quiz(quiz_id).questions:
            prediction = predictions.find(quiz_id, q.id)
            if prediction is None or q.demo != "checkpointing_lab":
                continue
            assert prediction.example == LAB, (quiz_id, q.id)
    (q6,) = [q for q in find_quiz("gpu-memory").questions if q.id == "activation-checkpointing"]
    assert q6.demo == "checkpointing_lab" and q6.focus == "saved_bytes"  # the lab's kept bytes: what it predicts


def test_gpu_q6_counts_the_inputs_of_sqrt_n_segments_on_the_labs_chain() -> None:
    prediction = load_predictions().find("gpu-memory", "activation-checkpointing")
    assert prediction is not None
    case = make_case(prediction)
    segments = math.isqrt(DEFAULT_N)  # 16 layers in 4 segments of 4: each keeps only its input
    right = int(case.options[next(iter(case.right_options))])
    assert right == segments == case.extra["kept"] == 4
    assert sorted(int(o) for o in case.options) == [4, 8, 16, 48]  # 48: none keeps 3 per layer; 16: every layer
    measured = measure_policy("sqrt", DEFAULT_N, track_peak=True)
    assert measured.saved_bytes == segments * measured.activation_bytes
    assert case.extra["peak"] == measured.peak
    assert "4 activations" in case.reveal("en", load_predictions())
    assert "16 layers" in case.prompt("en") and "48 activations" in case.prompt("en")


def test_gc_q2_and_q3_count_the_tensors_alive_at_the_peak_on_the_labs_chain() -> None:
    predictions = load_predictions()
    n, activation = DEFAULT_N, 64 * 128 * 4  # tokens x width in fp32
    none = make_case(predictions.find("gradient-checkpointing", "saved-activations"))  # type: ignore[arg-type]
    # by hand: 3 activations kept per layer, plus the gradient flowing back
    assert int(none.options[next(iter(none.right_options))]) == 3 * n + 1 == none.extra["peak"] == 49
    assert measure_policy("none", n, track_peak=True).peak // activation == 49
    sqrt = make_case(predictions.find("gradient-checkpointing", "sqrt-schedule"))  # type: ignore[arg-type]
    right = int(sqrt.options[next(iter(sqrt.right_options))])
    assert right == sqrt.extra["peak"] == measure_policy("sqrt", n, track_peak=True).peak // activation == 16
    assert right < 49 and sqrt.extra["kept"] == math.isqrt(n)  # 4 segment inputs kept
    assert "16 (512.0 KiB) against 49 without checkpointing" in sqrt.reveal("en", predictions)
