"""The memory-budget lesson: each part against a hand-worked byte count and against torch's measurement on the CPU,
which part each technique removes, its texts in three languages, and the lesson page predicted then measured."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from PySide6 import QtCore

from gpumem_gui.teach.budget import (
    MEASURED_PARTS,
    TECHNIQUES,
    BudgetExample,
    BudgetMeasurement,
    bytes_per_parameter,
    hand_count,
    is_close,
    load_budget_texts,
    measure_budget,
    text_keys,
)
from gpumem_gui.teach.quiz import LANGUAGES, load_quizzes
from gpumem_gui.views.teach.quiz_panel import QuizPanel

# the example worked by hand: 16 layers, each two Linear(128, 128) with bias, 64 tokens, fp32, AdamW
PARAMS = 16 * 2 * (128 * 128 + 128)  # 528,384
HAND = {
    "params": 528_384 * 4,  # 2,113,536 B = 2,064 KiB
    "grads": 528_384 * 4,
    "adam": 528_384 * 8,  # exp_avg + exp_avg_sq
    "activations": 3 * 16 * 64 * 128 * 4,  # input, Linear1 out, GELU out per layer: 1,572,864 B = 1,536 KiB
    "temporaries": 64 * 128 * 4,  # the gradient flowing back: 32 KiB
}
PARAM_TENSORS = 16 * 4  # two weights and two biases per layer: AdamW keeps a 4-byte step counter for each


@pytest.fixture(scope="module")
def measured() -> BudgetMeasurement:
    return measure_budget()


def test_the_hand_count_is_the_worked_example() -> None:
    example = BudgetExample()
    assert example.params == PARAMS == 528_384
    assert hand_count(example) == HAND
    assert sum(bytes_per_parameter(mixed_precision=False).values()) == 16
    assert sum(bytes_per_parameter(mixed_precision=True).values()) == 16


def test_every_part_measured_by_torch_matches_its_hand_count(measured: BudgetMeasurement) -> None:
    parts = measured.parts
    assert parts["params"] == HAND["params"]
    assert parts["grads"] == HAND["grads"]
    assert parts["adam"] == HAND["adam"] + 4 * PARAM_TENSORS  # the step counters, 256 B
    assert parts["activations"] == HAND["activations"]
    assert parts["temporaries"] == HAND["temporaries"] + 4  # and the loss's scalar gradient
    for part in MEASURED_PARTS:  # the hand count is right within the lesson's tolerance, so a learner can get it
        assert is_close(HAND[part], parts[part]), part


def test_each_technique_removes_its_part(measured: BudgetMeasurement) -> None:
    assert measured.removed("fsdp") == ("params", "grads", "adam")
    fsdp = measured.techniques["fsdp"]
    for part in ("params", "grads", "adam"):
        assert fsdp[part] == pytest.approx(HAND[part] / 8, abs=64), part  # over the world size of 8
    assert measured.removed("checkpointing") == ("activations",)
    assert measured.techniques["checkpointing"]["activations"] == 16 * 64 * 128 * 4  # each layer's input only
    assert measured.removed("bf16") == MEASURED_PARTS
    for part in ("params", "grads", "activations"):
        assert measured.techniques["bf16"][part] == HAND[part] // 2, part
    # autocast keeps the fp32 model state, and here its bf16 weight copies cost more than the activations save
    assert not set(measured.removed("amp")) & {"params", "grads", "adam"}
    assert measured.techniques["amp"]["activations"] > HAND["activations"]


def test_a_prediction_is_graded_within_ten_percent() -> None:
    assert is_close(2064 * 1024, HAND["params"])
    assert is_close(1.09 * HAND["adam"], HAND["adam"])
    assert not is_close(1.11 * HAND["adam"], HAND["adam"])
    assert not is_close(HAND["params"], HAND["adam"])  # Adam's state as one copy of the weights: off by half


def test_the_texts_are_complete_and_french_spaces_its_punctuation() -> None:
    texts = load_budget_texts()
    assert set(texts.texts) == set(text_keys())
    for key, by_lang in texts.texts.items():
        assert set(by_lang) == set(LANGUAGES)
        fr = by_lang["fr"]
        assert not re.search(r" [:;?!]", fr), f"{key}.fr: a plain space before : ; ? or !"
        assert "KiB" not in fr and "MiB" not in fr, f"{key}.fr: French writes Kio, Mio"
        assert not re.search("[\u015e\u015f\u0162\u0163]", by_lang["ro"]), f"{key}.ro has ş/ţ with a cedilla"


def test_the_lesson_opens_from_the_chooser_and_grades_the_learner(qtbot: Any, tmp_path: Path) -> None:
    settings = QtCore.QSettings(str(tmp_path / "settings.ini"), QtCore.QSettings.Format.IniFormat)
    panel = QuizPanel(load_quizzes(), settings)
    qtbot.addWidget(panel)
    panel.resize(460, 900)
    panel.show()
    assert panel.budget_card.isVisibleTo(panel)
    panel.budget_card.button.click()
    lesson = panel.budget_lesson
    assert panel.stack.currentWidget() is lesson
    lesson.parts["params"].spin.setValue(2064)  # right: 528,384 x 4 B
    lesson.parts["adam"].spin.setValue(2064)  # wrong: Adam keeps two moments
    lesson.measure()
    assert lesson.wait()
    assert lesson.measurement is not None
    assert lesson.parts["params"].result.text().startswith("Right.")
    assert lesson.parts["adam"].result.text().startswith("Not quite.")
    assert "Measured: 4,128.2 KiB (by hand: 4,128.0 KiB)" in lesson.parts["adam"].result.text()  # step counters
    assert lesson.parts["grads"].result.text().startswith("No prediction. Measured: 2,064.0 KiB")  # left at 0
    fsdp = lesson.technique_text(lesson.measurement, "fsdp")
    assert "<b>FSDP FULL_SHARD over 8 GPUs</b>:" in fsdp
    assert "Parameters <b>2,064.0 KiB → 258.0 KiB</b>" in fsdp
    assert "Unchanged: Activations kept for backward, Temporaries at the peak." in fsdp
    assert "Unchanged: Parameters, Gradients, AdamW's state." in lesson.technique_text(lesson.measurement, "amp")
    amp = lesson.technique_text(lesson.measurement, "amp")  # autocast grows the activations: not in bold
    assert "Activations kept for backward 1,536.0 KiB → 1,760.0 KiB" in amp and "<b>1,760" not in amp
    assert all(lesson.technique_text(lesson.measurement, t) in lesson.removes.text() for t in TECHNIQUES)
    panel.set_language("fr")
    assert panel.stack.currentWidget() is lesson  # a new language keeps the lesson open
    assert "Mesuré\u202f: 2\u202f064,0\u00a0Kio" in lesson.parts["params"].result.text()
    lesson.back_button.click()
    assert panel.stack.currentWidget() is panel.chooser_page
