"""Predictions graded from the checkpointing lab's own measurements: a torch chain run on the CPU, no snapshot.

Each lab prediction names a `figure` (resources/predictions.toml); its builder runs the few policies it needs on the
lab's default chain (the sweep's quick stage: well under a second once torch is imported) or the FSDP calculator,
and makes a Case whose options are graded by the measured figure. Run it off the GUI thread.

    case = lab_case(prediction)          # prediction.example == "checkpointing_lab"
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from gpumem_gui.core.snapshot.units import format_bytes
from gpumem_gui.teach.lab import (
    DEFAULT_N,
    TORCH_MISSING,
    TRAP_POLICY,
    FsdpBreakdown,
    PolicyMeasurement,
    measure_fsdp,
    measure_policy,
    sqrt_segment,
    torch_available,
)
from gpumem_gui.teach.predict.model import Case, Prediction, PredictionError

FSDP_WORLD_SIZE = 8
FSDP_OPTIMIZER = "AdamW"

Measured = dict[str, PolicyMeasurement]
LabBuilder = Callable[[Prediction, Measured], Case]


def count_options(right: int, candidates: list[int]) -> tuple[tuple[str, ...], frozenset[int]]:
    """The right count among up to three distinct others from `candidates` (zero allowed), ascending."""
    values = [right]
    for c in candidates:
        if c >= 0 and c not in values:
            values.append(c)
    chosen = sorted(values[:4])
    return tuple(f"{v:,}" for v in chosen), frozenset({chosen.index(right)})


def _case(p: Prediction, fields: dict[str, str], options: tuple[str, ...], right: frozenset[int], **extra: int) -> Case:
    return Case(p, None, None, -1, None, np.zeros(0, bool), fields, options, right, extra=dict(extra))


def _pct(m: PolicyMeasurement) -> str:
    return f"{100 * m.extra_flops_fraction:.0f}%"


def _kept(m: PolicyMeasurement) -> int:
    """Layer-boundary activations (tokens x width) the forward left alive for backward."""
    return m.saved_bytes // m.activation_bytes


def _tradeoff(p: Prediction, m: Measured) -> Case:
    """Every layer checkpointed: the matmuls backward re-runs (early stop skips each layer's last one)."""
    every = m["every"]
    right = every.recomputed_matmuls
    n = every.n_layers
    options, right_options = count_options(right, [0, n // 2, every.forward_matmuls, 2 * every.forward_matmuls])
    fields = {
        "n": str(n),
        "fwd": str(every.forward_matmuls),
        "recomputed": str(right),
        "pointwise": str(every.recomputed_pointwise),
        "extra": _pct(every),
    }
    return _case(p, fields, options, right_options, recomputed=right, forward=every.forward_matmuls)


def _backward_recompute(p: Prediction, m: Measured) -> Case:
    """Checkpointed every sqrt(N) layers: each segment re-runs its layers' matmuls, all but its last."""
    sqrt = m["sqrt"]
    right, n = sqrt.recomputed_matmuls, sqrt.n_layers
    options, right_options = count_options(right, [0, n, sqrt.forward_matmuls, sqrt.checkpoints])
    fields = {
        "n": str(n),
        "k": str(sqrt_segment(n)),
        "segments": str(sqrt.checkpoints),
        "fwd": str(sqrt.forward_matmuls),
        "recomputed": str(right),
        "layers": str(sqrt.extra_forwards),
        "extra": _pct(sqrt),
    }
    return _case(p, fields, options, right_options, recomputed=right, segments=sqrt.checkpoints)


def _overhead(p: Prediction, m: Measured) -> Case:
    """Selective (keep mm + addmm outputs): the matmuls backward re-runs, next to checkpointing every layer."""
    every, selective = m["every"], m["selective"]
    right = selective.recomputed_matmuls
    candidates = [every.recomputed_matmuls, every.forward_matmuls, every.n_layers // 2]
    options, right_options = count_options(right, candidates)
    fields = {
        "n": str(every.n_layers),
        "every": str(every.recomputed_matmuls),
        "recomputed": str(right),
        "pointwise": str(selective.recomputed_pointwise),
        "every_extra": _pct(every),
        "selective_extra": _pct(selective),
    }
    return _case(p, fields, options, right_options, recomputed=right)


def _selective_trap(p: Prediction, m: Measured) -> Case:
    """A policy naming only aten.mm: the Linear outputs it keeps beyond the layer inputs every checkpoint keeps."""
    every, selective, trap = m["every"], m["selective"], m[TRAP_POLICY]
    right = _kept(trap) - _kept(every)
    n = every.n_layers
    options, right_options = count_options(right, [n, every.forward_matmuls, n // 2])
    fields = {
        "n": str(n),
        "matmuls": str(every.forward_matmuls),
        "kept": str(right),
        "selective_kept": str(_kept(selective) - _kept(every)),
        "trap_saved": format_bytes(trap.saved_bytes),
        "every_saved": format_bytes(every.saved_bytes),
        "recomputed": str(trap.recomputed_matmuls),
    }
    return _case(p, fields, options, right_options, kept=right)


def _sqrt_kept(p: Prediction, m: Measured) -> Case:
    """Checkpointed every sqrt(N) layers: the layer-boundary activations the forward keeps (one per segment), next
    to none and every layer; the peak over forward and backward in the reveal (GPU Q6: the model its lab shows)."""
    none, every, sqrt = m["none"], m["every"], m["sqrt"]
    right = _kept(sqrt)
    options, right_options = count_options(right, [_kept(every), _kept(none), 2 * right, _kept(every) // 2])
    fields = {
        "n": str(sqrt.n_layers),
        "k": str(sqrt_segment(sqrt.n_layers)),
        "segments": str(sqrt.checkpoints),
        "none": str(_kept(none)),
        "kept": str(right),
        "saved": format_bytes(sqrt.saved_bytes),
        "none_saved": format_bytes(none.saved_bytes),
        "peak": format_bytes(sqrt.peak),
        "none_peak": format_bytes(none.peak),
    }
    return _case(p, fields, options, right_options, kept=right, peak=sqrt.peak, none_peak=none.peak)


def _peak(m: PolicyMeasurement) -> int:
    """The peak over forward and backward in tokens x width tensors (the loss's 4 bytes left out)."""
    return m.peak // m.activation_bytes


def _none_peak(p: Prediction, m: Measured) -> Case:
    """No checkpointing: the tensors alive at the step's peak, the kept activations and the gradient flowing back."""
    none = m["none"]
    right, n = _peak(none), none.n_layers
    options, right_options = count_options(right, [n, 2 * n, 4 * n])
    fields = {"n": str(n), "kept": str(_kept(none)), "peak": str(right), "peak_bytes": format_bytes(none.peak)}
    return _case(p, fields, options, right_options, peak=right, kept=_kept(none))


def _sqrt_peak(p: Prediction, m: Measured) -> Case:
    """Checkpointed every sqrt(N) layers: the tensors alive at the peak, the segment inputs and one segment
    recomputed at a time."""
    none, sqrt = m["none"], m["sqrt"]
    right = _peak(sqrt)
    options, right_options = count_options(right, [_kept(sqrt), 2 * _kept(sqrt), _peak(none)])
    fields = {
        "n": str(sqrt.n_layers),
        "k": str(sqrt_segment(sqrt.n_layers)),
        "kept": str(_kept(sqrt)),
        "peak": str(right),
        "peak_bytes": format_bytes(sqrt.peak),
        "none_peak": str(_peak(none)),
    }
    return _case(p, fields, options, right_options, peak=right, kept=_kept(sqrt))


def _api_saved(p: Prediction, m: Measured) -> Case:
    """checkpoint() around each layer: which worded option matches what the forward measurably keeps.

    The options' figures, in order: each layer's input (N), every activation (as measured with no checkpointing),
    nothing; the right one is the one equal to the measured count."""
    every, none = m["every"], m["none"]
    values = (every.n_layers, _kept(none), 0)
    kept = _kept(every)
    right = frozenset(i for i, v in enumerate(values) if v == kept)
    if len(p.options) != len(values):
        raise PredictionError(f"{p.quiz}.{p.question}: {len(values)} options expected, {len(p.options)} given")
    fields = {
        "n": str(every.n_layers),
        "all": str(_kept(none)),
        "kept": str(kept),
        "saved": format_bytes(every.saved_bytes),
        "none_saved": format_bytes(none.saved_bytes),
        "layers": str(every.extra_forwards),
    }
    return _case(p, fields, (), right, kept=kept)


def fsdp_options(b: FsdpBreakdown, ws: int) -> tuple[tuple[str, ...], frozenset[int], list[int]]:
    """Per-GPU bytes if nothing, the parameters, parameters + gradients, or all three are sharded (FULL_SHARD, the
    right one, as measured): the ZeRO stages side by side. Returns the labels, the right index and the values."""
    shard = b.at(ws)
    values = [
        b.total_bytes,
        shard.param_bytes + b.grad_bytes + b.optimizer_bytes,
        shard.param_bytes + shard.grad_bytes + b.optimizer_bytes,
        shard.total_bytes,
    ]
    ordered = sorted(set(values))
    return tuple(format_bytes(v) for v in ordered), frozenset({ordered.index(shard.total_bytes)}), ordered


def _fsdp_case(p: Prediction, check: Callable[[], None] | None) -> Case:
    """FULL_SHARD over 8 GPUs with AdamW in fp32: the per-GPU bytes of parameters, gradients and optimizer state."""
    b = measure_fsdp(DEFAULT_N, optimizer=FSDP_OPTIMIZER, world_sizes=(1, FSDP_WORLD_SIZE), check=check)
    shard = b.at(FSDP_WORLD_SIZE)
    options, right, _ = fsdp_options(b, FSDP_WORLD_SIZE)
    fields = {
        "n": str(b.n_layers),
        "params": f"{b.n_params:,}",
        "optimizer": b.optimizer,
        "world": str(FSDP_WORLD_SIZE),
        "total": format_bytes(b.total_bytes),
        "per_gpu": format_bytes(shard.total_bytes),
        "param": format_bytes(shard.param_bytes),
        "grad": format_bytes(shard.grad_bytes),
        "state": format_bytes(shard.optimizer_bytes),
        "unit": format_bytes(shard.gathered_unit_bytes),
    }
    return _case(p, fields, options, right, per_gpu=shard.total_bytes, total=b.total_bytes)


LAB_BUILDERS: dict[str, tuple[tuple[str, ...], LabBuilder]] = {
    # figure -> (the policies it measures, its builder)
    "every_recompute": (("every",), _tradeoff),
    "sqrt_recompute": (("sqrt",), _backward_recompute),
    "selective_recompute": (("every", "selective"), _overhead),
    "trap_kept": (("every", "selective", TRAP_POLICY), _selective_trap),
    "every_saved": (("every", "none"), _api_saved),
    "sqrt_kept": (("none", "every", "sqrt"), _sqrt_kept),
    "none_peak": (("none",), _none_peak),
    "sqrt_peak": (("none", "sqrt"), _sqrt_peak),
}
FIGURES = (*LAB_BUILDERS, "fsdp_shard")


def measure(policies: tuple[str, ...], n_layers: int = DEFAULT_N, check: Callable[[], None] | None = None) -> Measured:
    """Each policy once on the lab's default chain (fp32), as the sweep's first stage measures it."""
    measured: Measured = {}
    for policy in policies:
        if check is not None:
            check()
        measured[policy] = measure_policy(policy, n_layers, track_peak=True)
    return measured


def lab_case(prediction: Prediction, check: Callable[[], None] | None = None, n_layers: int = DEFAULT_N) -> Case:
    """Measure what the prediction's figure needs and make its case (torch on the CPU: off the GUI thread)."""
    if torch_available() is not None:
        raise PredictionError(TORCH_MISSING)
    if prediction.figure == "fsdp_shard":
        return _fsdp_case(prediction, check)
    if prediction.figure not in LAB_BUILDERS:
        raise PredictionError(f"{prediction.quiz}.{prediction.question}: no lab figure {prediction.figure!r}")
    policies, builder = LAB_BUILDERS[prediction.figure]
    return builder(prediction, measure(policies, n_layers, check))
