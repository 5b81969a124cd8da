"""The memory-budget lesson, Qt-free: one worked example on the lab's chain, each part counted by hand and measured.

The example is the checkpointing lab's chain (Linear -> GELU -> Linear per layer, teach/lab/chain.py) trained with
AdamW in fp32. Each part of its training-step memory has a hand count the learner can work out (`hand_count`) and a
figure torch measures on the CPU (`measure_budget`, through the lab's own measure_policy and measure_fsdp):

* parameters, gradients: 4 bytes per parameter each; AdamW's exp_avg and exp_avg_sq: 8 bytes per parameter;
* activations kept for backward: each layer keeps its input, the first Linear's output (GELU's input) and GELU's
  output (the second Linear's input), so 3 x layers x tokens x width x 4 bytes;
* temporaries: at the backward peak, beyond the kept activations, the gradient flowing back (tokens x width);
* the allocator's cache and the CUDA context exist only on a GPU: the lab on the CPU cannot measure them.

Then each technique measured on the same chain: which part it removes (FSDP the first three over the world size,
checkpointing the activations, pure bf16 halves all four, autocast none of the model state).
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from gpumem_gui.assets import RESOURCES
from gpumem_gui.teach.demos.wording import fill
from gpumem_gui.teach.lab.results import PolicyMeasurement
from gpumem_gui.teach.quiz import LANGUAGES

BUDGET_TEXTS = RESOURCES / "budget_lesson.toml"

# the parts the learner predicts and the lab measures, in the order of a training step's budget
MEASURED_PARTS = ("params", "grads", "adam", "activations", "temporaries")
# the parts that exist only on a GPU: named and explained, never measured on the CPU
GPU_ONLY_PARTS = ("cache", "context")
PARTS = (*MEASURED_PARTS, *GPU_ONLY_PARTS)
TECHNIQUES = ("fsdp", "checkpointing", "bf16", "amp")
# a prediction within this fraction of the measured bytes is right: the hand count is exact up to AdamW's step
# counters (4 bytes per parameter tensor) and the loss scalar, far below it
TOLERANCE = 0.10
FSDP_WORLD = 8
FP32, BF16 = 4, 2  # bytes per element
ACTIVATIONS_PER_LAYER = 3  # the layer's input, the first Linear's output, GELU's output


@dataclass(frozen=True)
class BudgetExample:
    """The worked example: the lab's default chain (16 layers of Linear(128,128)-GELU-Linear(128,128)), 64 tokens."""

    n_layers: int = 16
    width: int = 128
    tokens: int = 64

    @property
    def params(self) -> int:
        """Two Linear(width, width) with bias per layer."""
        return self.n_layers * 2 * (self.width * self.width + self.width)

    @property
    def activation(self) -> int:
        """One tokens x width activation in fp32, in bytes."""
        return self.tokens * self.width * FP32


EXAMPLE = BudgetExample()


def hand_count(example: BudgetExample = EXAMPLE) -> dict[str, int]:
    """Each measured part in bytes, worked out by hand from the example's shape (fp32, AdamW)."""
    return {
        "params": FP32 * example.params,
        "grads": FP32 * example.params,
        "adam": 2 * FP32 * example.params,
        "activations": ACTIVATIONS_PER_LAYER * example.n_layers * example.activation,
        "temporaries": example.activation,
    }


def bytes_per_parameter(mixed_precision: bool) -> dict[str, int]:
    """The "16 bytes per parameter" rule, by what holds them: fp32 + Adam, or bf16 weights and gradients with fp32
    master weights (mixed precision): the same 16 bytes, so mixed precision saves nothing on the model state."""
    if mixed_precision:
        return {"bf16 weights": BF16, "bf16 gradients": BF16, "fp32 master weights": FP32, "Adam m + v": 2 * FP32}
    return {"fp32 weights": FP32, "fp32 gradients": FP32, "Adam m + v": 2 * FP32}


def is_close(predicted: float, measured: int, tolerance: float = TOLERANCE) -> bool:
    """A prediction is right within `tolerance` of the measured bytes."""
    return abs(predicted - measured) <= tolerance * measured


@dataclass(frozen=True)
class BudgetMeasurement:
    """What torch measured on the example: each part's bytes, and each technique's parts (same keys)."""

    example: BudgetExample
    parts: Mapping[str, int]
    techniques: Mapping[str, Mapping[str, int]]  # technique -> part -> bytes with it applied
    world_size: int = FSDP_WORLD

    def removed(self, technique: str) -> tuple[str, ...]:
        """The parts a technique makes smaller, in budget order."""
        after = self.techniques[technique]
        return tuple(part for part in MEASURED_PARTS if after[part] < self.parts[part])

    def total(self, parts: Mapping[str, int] | None = None) -> int:
        return sum((parts if parts is not None else self.parts)[p] for p in MEASURED_PARTS)


def measure_budget(example: BudgetExample = EXAMPLE, check: Callable[[], None] | None = None) -> BudgetMeasurement:
    """Every part and every technique, measured with torch on the CPU (seconds: run it off the GUI thread)."""
    from gpumem_gui.teach.lab import measure_fsdp, measure_policy  # noqa: PLC0415 (torch loads only here)

    def checked() -> None:
        if check is not None:
            check()

    w, t = example.width, example.tokens
    model = measure_fsdp(example.n_layers, world_sizes=(1, FSDP_WORLD), check=check, width=w, tokens=t)
    checked()
    none = measure_policy("none", example.n_layers, track_peak=True, width=w, tokens=t)
    checked()
    parts = {
        "params": model.param_bytes,
        "grads": model.grad_bytes,
        "adam": model.optimizer_bytes,
        "activations": none.saved_bytes,
        "temporaries": none.peak - none.saved_bytes,
    }
    every = measure_policy("every", example.n_layers, track_peak=True, width=w, tokens=t)
    checked()
    bf16_model = measure_fsdp(example.n_layers, dtype="bf16", world_sizes=(1,), check=check, width=w, tokens=t)
    bf16 = measure_policy("none", example.n_layers, dtype="bf16", track_peak=True, width=w, tokens=t)
    checked()
    amp = measure_policy("none", example.n_layers, dtype="autocast", track_peak=True, width=w, tokens=t)
    shard = model.at(FSDP_WORLD)

    def activations(m: PolicyMeasurement) -> dict[str, int]:
        return {"activations": m.saved_bytes, "temporaries": m.peak - m.saved_bytes}

    techniques = {
        "fsdp": {
            "params": shard.param_bytes,
            "grads": shard.grad_bytes,
            "adam": shard.optimizer_bytes,
            **activations(none),
        },
        "checkpointing": {**parts, **activations(every)},
        "bf16": {
            "params": bf16_model.param_bytes,
            "grads": bf16_model.grad_bytes,
            "adam": bf16_model.optimizer_bytes,
            **activations(bf16),
        },
        # autocast runs an fp32 model: its weights, gradients and AdamW state are the fp32 ones measured above
        "amp": {**parts, **activations(amp)},
    }
    return BudgetMeasurement(example, parts, techniques)


# -- the lesson's words ----------------------------------------------------------------------------------------


class BudgetTextError(ValueError):
    """budget_lesson.toml lacks a text in some language."""


@dataclass(frozen=True)
class BudgetTexts:
    """The lesson's words: key -> language -> template (numbers filled by the quiz's formatter)."""

    texts: Mapping[str, Mapping[str, str]]

    def __call__(self, key: str, lang: str, **fields: object) -> str:
        return fill(self.texts, key, lang, fields)


def text_keys() -> tuple[str, ...]:
    """Every key the lesson uses: its page's words, and per part a name and a prompt or note, per technique a
    name and what it removes."""
    page = ("title", "chooser_title", "chooser_text", "open", "intro", "unit", "measure", "measuring", "back",
            "predicted", "measured", "right", "wrong", "rule", "techniques", "no_torch",
            "total", "unchanged", "not_predicted")  # fmt: skip
    return (
        *page,
        *(f"{part}_{what}" for part in PARTS for what in ("name", "prompt")),
        *(f"{part}_why" for part in MEASURED_PARTS),
        *(f"{t}_{what}" for t in TECHNIQUES for what in ("name", "removes")),
    )


def load_budget_texts(path: Path = BUDGET_TEXTS) -> BudgetTexts:
    raw = tomllib.loads(path.read_text(encoding="utf-8"))
    unknown = sorted(set(raw) - set(text_keys()))
    if unknown:
        raise BudgetTextError(f"{path.name}: unknown keys {unknown}")
    texts: dict[str, dict[str, str]] = {}
    for key in text_keys():
        entry = raw.get(key)
        if not isinstance(entry, dict) or set(entry) != set(LANGUAGES):
            raise BudgetTextError(f"{path.name}: {key} must have exactly {', '.join(LANGUAGES)}")
        texts[key] = {lang: str(entry[lang]) for lang in LANGUAGES}
    return BudgetTexts(texts)
