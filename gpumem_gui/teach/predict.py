"""Predict, then reveal: what the learner predicts on a quiz question's data before "Show me", graded from that data.

Each prediction (data/predictions.toml) is one of five kinds: pick a block or a segment on the map (graded by the
demo's own mask: the holes that fit the request, the cached blocks, the segments empty_cache keeps), pick a setting
(graded by replaying the trace under each: the ones with no OOM are right), pick a number (counted in the data) or
pick an option (worded in the TOML, the right one chosen by a measured figure). Lab predictions (example =
"checkpointing_lab", `figure` naming what is measured) are graded from the torch lab's own runs (predict_lab.py).

    predictions = load_predictions()
    prediction = predictions.find(quiz.id, question.id)      # None: the question has no predict step
    case = make_case(prediction)                             # loads, indexes, replays: off the GUI thread
    case.grade_address(address) / case.grade_none() / case.grade_option(i)
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, cast

import numpy as np

from gpumem_gui import assets
from gpumem_gui.core.allocator.remedies import GC_SETTINGS, Candidate, replay_candidates
from gpumem_gui.core.analysis.diagnosis import Remedy
from gpumem_gui.core.analysis.forward_replay import NEVER
from gpumem_gui.core.analysis.timetravel import DeviceTimeline, build_timeline
from gpumem_gui.core.rules.allocator_constants import MiB
from gpumem_gui.core.snapshot.loader import load_snapshot
from gpumem_gui.core.snapshot.model import B8, AllocatorState, BlockState, Snapshot
from gpumem_gui.core.snapshot.units import format_bytes
from gpumem_gui.teach.demos.wording import NARROW_NBSP, fill_text, worded
from gpumem_gui.teach.quiz import LANGUAGES, Text
from gpumem_gui.teach.quiz_demos import foci_for, focus_for

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

    def option_labels(self, lang: str) -> tuple[str, ...]:
        """The choices as shown: an option kind's worded templates in `lang`, else the case's own labels."""
        if self.prediction.options:
            return tuple(fill_text(o[lang], lang, self.fields) for o in self.prediction.options)
        if self.prediction.kind == "setting":  # allocator settings are written alike in every language
            return self.options
        return tuple(str(worded(o, lang)) for o in self.options)

    def prompt(self, lang: str) -> str:
        return fill_text(self.prediction.prompt[lang], lang, self.fields)

    def reveal(self, lang: str, predictions: Predictions) -> str:
        fields = dict(self.fields)
        if self.remedies:
            colon, semicolon = (f"{NARROW_NBSP}:", f"{NARROW_NBSP};") if lang == "fr" else (":", ";")
            fields["results"] = f"{semicolon} ".join(
                f"{label}{colon} {predictions.text('fits' if r.fits else 'fails', lang)}"
                for label, r in zip(self.options, self.remedies, strict=True)
            )
        return fill_text(self.prediction.reveal[lang], lang, fields)


Builder = Callable[[Prediction, Snapshot, DeviceTimeline], Case]


def _holes_case(p: Prediction, snapshot: Snapshot, tl: DeviceTimeline) -> Case:
    """Fragmentation: the right holes are the demo's free blocks at the OOM that hold the whole request."""
    focus = focus_for("fragmented_oom", snapshot, tl)
    state = tl.state_at(focus.event)
    request = int(focus.facts["request_bytes"])
    right = focus.block_mask & (state.blocks.size >= request)
    f = focus.facts
    fields = {
        "request": format_bytes(request),
        "largest": format_bytes(f["largest_hole_bytes"]),
        "free": format_bytes(f["free_bytes"]),
        "holes": str(f["holes"]),
        "device_free": format_bytes(f["device_free_bytes"]),
    }
    return Case(p, snapshot, tl, focus.event, state, right, fields, extra={"request": request})


def _cached_case(p: Prediction, snapshot: Snapshot, tl: DeviceTimeline) -> Case:
    """Reserved vs allocated: the demo's cached blocks (free or pending free) are the right ones."""
    focus = focus_for("reserved_vs_allocated", snapshot, tl)
    state = tl.state_at(focus.event)
    f = focus.facts
    fields = {
        "reserved": format_bytes(f["reserved_bytes"]),
        "allocated": format_bytes(f["allocated_bytes"]),
        "cached": str(f["cached_blocks"]),
        "gap": format_bytes(f["gap_bytes"]),
    }
    return Case(p, snapshot, tl, focus.event, state, focus.block_mask.copy(), fields)


def _empty_cache_case(p: Prediction, snapshot: Snapshot, tl: DeviceTimeline) -> Case:
    """empty_cache: the state right before the demo's release; the right segments are those still there after it."""
    focus = focus_for("empty_cache_live_tensor", snapshot, tl)
    before, after = int(focus.facts["before_event"]), int(focus.facts["after_event"])
    state, later = tl.state_at(before), tl.state_at(after)
    kept = np.isin(state.segments.address, later.segments.address)
    right = kept[state.blocks.segment]
    f = focus.facts
    fields = {
        "kept": str(int(kept.sum())),
        "segments": str(len(kept)),
        "live": format_bytes(f["live_bytes"]),
        "released": format_bytes(f["released_bytes"]),
    }
    return Case(p, snapshot, tl, before, state, right, fields, extra={"after_event": after})


def _number_options(right: int, candidates: list[int]) -> tuple[tuple[str, ...], frozenset[int]]:
    """The right number among three others from `candidates`, none within one of it (a near miss is not a
    different idea), ascending."""
    others: list[int] = []
    for c in candidates:
        if c > 0 and abs(c - right) > 1 and c not in others:
            others.append(c)
    values = sorted([right, *others[:3]])
    return tuple(f"{v:,}" for v in values), frozenset({values.index(right)})


def _no_blocks(state: AllocatorState) -> B8:
    return np.zeros(len(state.blocks), bool)


def _mallocs_case(p: Prediction, snapshot: Snapshot, tl: DeviceTimeline) -> Case:
    focus = focus_for("cache_reuse", snapshot, tl)
    f = focus.facts
    right, allocations = int(f["cuda_mallocs"]), int(f["allocations"])
    options, right_options = _number_options(right, [allocations, allocations // 2, allocations // 10, 1])
    state = tl.state_at(focus.event)
    fields = {"allocations": f"{allocations:,}", "mallocs": f"{right:,}", "served": f"{int(f['served_from_cache']):,}"}
    return Case(p, snapshot, tl, focus.event, state, _no_blocks(state), fields, options, right_options)


def _activations_case(p: Prediction, snapshot: Snapshot, tl: DeviceTimeline) -> Case:
    """Checkpointing: at the allocated peak, the blocks alive that are freed before the trace ends are activations;
    those never freed are the weights, one per layer."""
    peak = int(np.argmax(tl.series.allocated))
    life = tl.lifetimes
    alive = (life.start <= peak) & (life.end > peak)
    weights = alive & (life.end == NEVER)
    activations = alive & (life.end != NEVER)
    right, layers = int(activations.sum()), int(weights.sum())
    every = math.isqrt(layers)
    options, right_options = _number_options(right, [every, 2 * every, layers // 2, layers, 2 * layers])
    sizes = np.unique(life.size[activations])
    fields = {
        "layers": str(layers),
        "every": str(every),
        "activations": str(right),
        "size": format_bytes(int(sizes.max(initial=0))),
        "peak": format_bytes(int(tl.series.allocated[peak])),
    }
    state = tl.state_at(peak)
    extra = {"peak_event": peak, "activations": right, "layers": layers}
    return Case(p, snapshot, tl, peak, state, _no_blocks(state), fields, options, right_options, extra=extra)


def percent_options(right: float, candidates: list[float]) -> tuple[tuple[str, ...], frozenset[int]]:
    """The right percentage among up to three of `candidates` at least 5 points from it and from each other."""
    values = [right]
    for c in candidates:
        if 0 <= c <= 100 and all(abs(c - v) >= 5 for v in values):
            values.append(c)
    chosen = sorted(values[:4])
    return tuple(f"{v:.1f}%" for v in chosen), frozenset({chosen.index(right)})


def _paging_case(p: Prediction, snapshot: Snapshot, tl: DeviceTimeline) -> Case:
    """PagedAttention: the same requests served by the contiguous run; the right figure is how much less KV-cache
    memory those requests' pages take in the paged run (this snapshot) at the end, from the demo's own facts, and
    the reveal says how many more requests the pages saved serve in the same pool."""
    contiguous = load_snapshot(assets.example_path("kv_cache_contiguous"))
    c_tl = build_timeline(contiguous, contiguous.default_device())
    _, p_focus = foci_for("kv_cache", (contiguous, snapshot), (c_tl, tl))
    f = p_focus.facts
    c_bytes, p_bytes = int(f["contiguous_kv_bytes"]), int(f["paged_kv_bytes"])
    saving = round(100 * (1 - p_bytes / c_bytes), 1)
    options, right = percent_options(saving, [0.0, saving / 2, (100 + saving) / 2, saving / 4, 90.0])
    fields = {
        "requests": str(int(f["requests"])),
        "buffer": format_bytes(int(f["buffer_bytes"])),
        "page": format_bytes(int(f["page_bytes"])),
        "pages": f"{int(f['pages']):,}",
        "contiguous": format_bytes(c_bytes),
        "paged": format_bytes(p_bytes),
        "saving": f"{saving:.1f}%",
        "pool": format_bytes(int(f["pool_bytes"])),
        "more": str(int(f["more_requests"])),
    }
    state = tl.state_at(p_focus.event)
    extra = {"contiguous_kv_bytes": c_bytes, "paged_kv_bytes": p_bytes}
    return Case(p, snapshot, tl, p_focus.event, state, _no_blocks(state), fields, options, right, extra=extra)


def split_size_mb(request: int) -> int:
    """The max_split_size_mb offered: the largest power of two MiB not above half the request, so that blocks that
    large are kept whole for it instead of being carved by small requests."""
    return max(32, 1 << (max(1, request // (2 * MiB)).bit_length() - 1))


def setting_candidates(request: int) -> list[Candidate]:
    """The three settings a learner picks from, in the order shown."""
    mb = split_size_mb(request)
    return [
        Candidate("expandable_segments:True", ("expandable_segments:True",)),
        Candidate(f"max_split_size_mb:{mb}", (f"max_split_size_mb:{mb}",)),
        # the threshold acts only under a memory fraction below 1.0, so the replay sets one and the label shows it
        Candidate(GC_SETTINGS, tuple(GC_SETTINGS.split(","))),
    ]


def _setting_case(p: Prediction, snapshot: Snapshot, tl: DeviceTimeline) -> Case:
    """Which setting removes the OOM: the trace replayed under each; those that finish with no OOM are right."""
    if not tl.ooms:
        raise PredictionError(f"{p.quiz}.{p.question}: {p.example} has no OOM to remove")
    oom = tl.ooms[0]
    state = tl.state_at(oom.index)
    free = state.blocks.state == BlockState.INACTIVE
    candidates = setting_candidates(oom.requested_bytes)
    results = replay_candidates(snapshot, tl.device, candidates, parallel=False)
    remedies = tuple(r for r in results if isinstance(r, Remedy))
    if len(remedies) != len(candidates):
        failed = "; ".join(r for r in results if isinstance(r, str))
        raise PredictionError(f"{p.quiz}.{p.question}: a replay failed: {failed}")
    right = frozenset(i for i, r in enumerate(remedies) if r.fits)
    fields = {
        "request": format_bytes(oom.requested_bytes),
        "free": format_bytes(int(state.blocks.size[free].sum())),
        "holes": str(int(free.sum())),
    }
    options = tuple(c.settings for c in candidates)
    return Case(p, snapshot, tl, oom.index, state, _no_blocks(state), fields, options, right, remedies)


BUILDERS: dict[tuple[str, str], Builder] = {
    ("block", "fragmented_oom"): _holes_case,
    ("block", "reserved_vs_allocated"): _cached_case,
    ("segment", "empty_cache_live_tensor"): _empty_cache_case,
    ("number", "cache_reuse"): _mallocs_case,
    ("number", "checkpointing_off"): _activations_case,
    ("number", "checkpointing_sqrt"): _activations_case,
    ("number", "kv_cache_paged"): _paging_case,
}


def builder_for(prediction: Prediction) -> Builder:
    if prediction.example == LAB:
        raise PredictionError(f"{prediction.quiz}.{prediction.question} is measured in the lab, not on a snapshot")
    if prediction.kind == "setting":
        return _setting_case
    builder = BUILDERS.get((prediction.kind, prediction.example))
    if builder is None:
        raise PredictionError(f"no {prediction.kind} prediction is known on {prediction.example}")
    return builder


def case_on(prediction: Prediction, snapshot: Snapshot) -> Case:
    """The prediction's case on `snapshot` (its default device)."""
    tl = build_timeline(snapshot, snapshot.default_device())
    return builder_for(prediction)(prediction, snapshot, tl)


def make_case(prediction: Prediction, check: Callable[[], None] | None = None) -> Case:
    """Load the prediction's bundled example and make its case (replays included), or measure a lab prediction's
    figures with torch: run it off the GUI thread."""
    if prediction.example == LAB:
        from gpumem_gui.teach.predict_lab import lab_case  # noqa: PLC0415 (it imports this module)

        return lab_case(prediction, check)
    snapshot = load_snapshot(assets.example_path(prediction.example))
    if check is not None:
        check()
    return case_on(prediction, snapshot)
