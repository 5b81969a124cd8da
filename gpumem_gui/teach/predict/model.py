"""Predictions as data: predictions.toml read into frozen values (refusing any entry that breaks its schema), and a
Case: one prediction made ready on its data, graded by what the learner picks."""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, cast

import numpy as np

from gpumem_gui import assets
from gpumem_gui.core.analysis.diagnosis import Remedy
from gpumem_gui.core.analysis.timetravel import DeviceTimeline
from gpumem_gui.core.snapshot.model import B8, AllocatorState, Snapshot
from gpumem_gui.teach.demos.wording import NARROW_NBSP, fill_text, worded
from gpumem_gui.teach.quiz import LANGUAGES, Text

# (template in lang, lang, fields written in English) -> the text: teach's own fill_text by default; the window hands
# in its one figure writer (views/common/language.filled), so a prediction writes its figures as the window does
Filler = Callable[[str, str, Mapping[str, str]], str]

Kind = Literal["block", "segment", "setting", "number", "option"]
KIND_NAMES: dict[str, str] = {
    "block": "pick a block",
    "segment": "pick a segment",
    "setting": "pick a setting",
    "number": "pick a number",
    "option": "pick an option",
}
MAP_KINDS = ("block", "segment")  # answered by a click on the map
INTERFACE_KEYS = ("title", "start", "loading", "click_map", "click_segment", "right", "wrong", "fits", "fails", "shown")
_KEYS = ("kind", "example", "prompt", "reveal", "none", "figure", "options")
LAB = "checkpointing_lab"  # the example of a prediction measured in the torch lab rather than on a snapshot


class PredictionError(ValueError):
    """predictions.toml breaks its schema; the message names the entry and the field."""


@dataclass(frozen=True)
class Prediction:
    quiz: str
    question: str
    kind: Kind
    example: str  # the bundled snapshot the case is computed on
    prompt: Text  # a template: {fields} come from the case
    reveal: Text
    none: Text | None = None  # block kinds: the label of "no block is right"
    figure: str = ""  # lab predictions: which measured figure grades it (predict_lab.LAB_BUILDERS)
    options: tuple[Text, ...] = ()  # option kinds: the choices' templates, {fields} filled from the case


@dataclass(frozen=True)
class Predictions:
    items: dict[tuple[str, str], Prediction]
    interface: dict[str, Text]

    def find(self, quiz_id: str, question_id: str) -> Prediction | None:
        return self.items.get((quiz_id, question_id))

    def text(self, key: str, lang: str) -> str:
        return self.interface[key][lang]


def _text(raw: object, where: str) -> Text:
    if not isinstance(raw, dict) or set(raw) != set(LANGUAGES):
        raise PredictionError(f"{where} must be a table with exactly {', '.join(LANGUAGES)}")
    values = {lang: raw[lang] for lang in LANGUAGES}
    if not all(isinstance(v, str) and v.strip() for v in values.values()):
        raise PredictionError(f"{where}: every language needs a non-empty string")
    return Text(**values)


def load_predictions(path: Path = assets.PREDICTIONS) -> Predictions:
    raw = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    interface_raw = raw.pop("interface", {})
    interface = {key: _text(interface_raw.get(key), f"interface.{key}") for key in INTERFACE_KEYS}
    items: dict[tuple[str, str], Prediction] = {}
    for quiz_id, questions in raw.items():
        for question_id, entry in questions.items():
            where = f"{quiz_id}.{question_id}"
            unknown = set(entry) - set(_KEYS)
            if unknown:
                raise PredictionError(f"{where}: unknown keys {sorted(unknown)}")
            kind = entry.get("kind")
            if kind not in KIND_NAMES:
                raise PredictionError(f"{where}.kind {kind!r} is not one of {', '.join(KIND_NAMES)}")
            example = entry.get("example")
            if example != LAB and example not in assets.example_names():
                raise PredictionError(f"{where}.example {example!r} is not a bundled example")
            none = _text(entry["none"], f"{where}.none") if "none" in entry else None
            figure = entry.get("figure", "")
            if (example == LAB) != bool(figure) or not isinstance(figure, str):
                raise PredictionError(f"{where}: a figure is named exactly when the example is {LAB}")
            raw_options = entry.get("options", [])
            if (kind == "option") != bool(raw_options) or not isinstance(raw_options, list):
                raise PredictionError(f"{where}: options are listed exactly when the kind is option")
            options = tuple(_text(o, f"{where}.options[{i}]") for i, o in enumerate(raw_options))
            items[(quiz_id, question_id)] = Prediction(
                quiz_id,
                question_id,
                cast(Kind, kind),
                str(example),
                _text(entry.get("prompt"), f"{where}.prompt"),
                _text(entry.get("reveal"), f"{where}.reveal"),
                none,
                figure,
                options,
            )
    return Predictions(items, interface)


@dataclass(frozen=True, eq=False)
class Case:
    """One prediction made ready on its data: the state shown, what is right, the figures of its texts.

    Map kinds: `right_blocks` is over `state`'s blocks (what the map shows for `event`, every pool and stream);
    a segment kind marks every block of each right segment. Option kinds: `options`, and `right_options` of them.
    A lab case has no snapshot (snapshot, timeline and state None, right_blocks empty)."""

    prediction: Prediction
    snapshot: Snapshot | None
    timeline: DeviceTimeline | None
    event: int
    state: AllocatorState | None
    right_blocks: B8
    fields: dict[str, str]
    options: tuple[str, ...] = ()
    right_options: frozenset[int] = frozenset()
    remedies: tuple[Remedy, ...] = ()  # setting kinds: each option's replay, in order
    extra: dict[str, int] = field(default_factory=dict)  # the raw figures, for tests and the reveal

    @property
    def device(self) -> int:
        if self.timeline is None:
            raise PredictionError(f"{self.prediction.question}: a lab case has no device")
        return self.timeline.device

    @property
    def right_addresses(self) -> np.ndarray:
        if self.state is None:
            return np.zeros(0, np.int64)
        return self.state.blocks.address[self.right_blocks]

    def grade_address(self, address: int) -> bool:
        """A click on the block at `address` (matched by address, so any view of the same state grades alike)."""
        return bool(np.isin(address, self.right_addresses))

    def grade_block(self, index: int) -> bool:
        return self.state is not None and self.grade_address(int(self.state.blocks.address[index]))

    def grade_none(self) -> bool:
        """ "No block is right": right exactly when the mask is empty."""
        return not bool(self.right_blocks.any())

    def grade_option(self, index: int) -> bool:
        return index in self.right_options

    def option_labels(self, lang: str, fill: Filler | None = None) -> tuple[str, ...]:
        """The choices as shown: an option kind's worded templates in `lang`, else the case's own labels."""
        if self.prediction.options:
            return tuple((fill or fill_text)(o[lang], lang, self.fields) for o in self.prediction.options)
        if self.prediction.kind == "setting":  # allocator settings are written alike in every language
            return self.options
        if fill is not None:  # a label is a figure ("1.5 GiB") or a name: the window's writer says which
            return tuple(fill("{label}", lang, {"label": o}) for o in self.options)
        return tuple(str(worded(o, lang)) for o in self.options)

    def prompt(self, lang: str, fill: Filler = fill_text) -> str:
        return fill(self.prediction.prompt[lang], lang, self.fields)

    def reveal(self, lang: str, predictions: Predictions, fill: Filler = fill_text) -> str:
        fields = dict(self.fields)
        if self.remedies:
            colon, semicolon = (f"{NARROW_NBSP}:", f"{NARROW_NBSP};") if lang == "fr" else (":", ";")
            fields["results"] = f"{semicolon} ".join(
                f"{label}{colon} {predictions.text('fits' if r.fits else 'fails', lang)}"
                for label, r in zip(self.options, self.remedies, strict=True)
            )
        return fill(self.prediction.reveal[lang], lang, fields)
