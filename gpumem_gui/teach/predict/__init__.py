"""Predict, then reveal: what the learner predicts on a quiz question's data before "Show me", graded from that data.

Each prediction (resources/predictions.toml) is one of five kinds: pick a block or a segment on the map (graded by the
demo's own mask: the holes that fit the request, the cached blocks, the segments empty_cache keeps), pick a setting
(graded by replaying the trace under each: the ones with no OOM are right), pick a number (counted in the data) or
pick an option (worded in the TOML, the right one chosen by a measured figure). Lab predictions (example =
"checkpointing_lab", `figure` naming what is measured) are graded from the torch lab's own runs (lab_cases.py).

    predictions = load_predictions()
    prediction = predictions.find(quiz.id, question.id)      # None: the question has no predict step
    case = make_case(prediction)                             # loads, indexes, replays: off the GUI thread
    case.grade_address(address) / case.grade_none() / case.grade_option(i)
"""

from __future__ import annotations

from collections.abc import Callable

from gpumem_gui import assets
from gpumem_gui.core.snapshot.loader import load_snapshot
from gpumem_gui.teach.predict.model import (
    INTERFACE_KEYS,
    KIND_NAMES,
    LAB,
    MAP_KINDS,
    Case,
    Prediction,
    PredictionError,
    Predictions,
    load_predictions,
)
from gpumem_gui.teach.predict.snapshot_cases import case_on, setting_candidates

__all__ = [
    "INTERFACE_KEYS",
    "KIND_NAMES",
    "LAB",
    "MAP_KINDS",
    "Case",
    "Prediction",
    "PredictionError",
    "Predictions",
    "case_on",
    "load_predictions",
    "make_case",
    "setting_candidates",
]


def make_case(prediction: Prediction, check: Callable[[], None] | None = None) -> Case:
    """Load the prediction's bundled example and make its case (replays included), or measure a lab prediction's
    figures with torch: run it off the GUI thread."""
    if prediction.example == LAB:
        from gpumem_gui.teach.predict.lab_cases import lab_case  # noqa: PLC0415 (torch loads only here)

        return lab_case(prediction, check)
    snapshot = load_snapshot(assets.example_path(prediction.example))
    if check is not None:
        check()
    return case_on(prediction, snapshot)
