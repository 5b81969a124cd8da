"""The lab's measured figures as frozen values: one policy's run, timed steps, a sweep over N, FSDP's shards."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from gpumem_gui.teach.lab.choices import FSDP_STRATEGY


@dataclass(frozen=True)
class PolicyMeasurement:
    """One forward + backward of an N-layer chain under one checkpointing policy."""

    policy: str
    n_layers: int
    width: int
    tokens: int
    dtype: str  # a precision: fp32, bf16 (a pure-bf16 model) or autocast (an fp32 model under bf16 autocast)
    activation_bytes: int  # one layer-boundary activation (tokens x width), measured on the chain's input
    saved_bytes: int  # alive when the forward returns: what the graph (and SAC's cache) keeps for backward
    hooked_bytes: int  # distinct storages packed through the outer saved_tensors_hooks
    hooked_tensors: int
    checkpoints: int  # checkpointed regions in the chain
    extra_forwards: int  # layer forwards beyond the N of the forward pass
    recomputed_matmuls: int
    recomputed_pointwise: int
    forward_matmuls: int  # ops of the forward pass itself, the yardstick for the recomputed ones
    forward_pointwise: int
    forward_flops: int  # matmul FLOPs of the forward pass
    extra_flops: int  # matmul FLOPs recomputed during backward
    step_flops: int  # matmul FLOPs of the whole step: forward, backward and recomputation
    peak_bytes: int | None = None  # live activation bytes at their highest over forward + backward

    @property
    def peak(self) -> int:
        """The peak over forward and backward; where it was not measured, the bytes kept (a lower bound of it)."""
        return self.peak_bytes if self.peak_bytes is not None else self.saved_bytes

    @property
    def extra_flops_fraction(self) -> float:
        return self.extra_flops / self.forward_flops if self.forward_flops else 0.0


@dataclass(frozen=True)
class StepTimings:
    """Best wall time of one plain forward + backward per policy, at a size where the matmuls dominate.

    Interleaved (each repeat times every policy in turn) so that a load that comes and goes on the CPU spoils
    every policy alike; with the matmul FLOPs the recorder counted for the same step, the time they predict.
    """

    n_layers: int
    width: int
    tokens: int
    dtype: str
    threads: int
    repeats: int
    seconds: tuple[tuple[str, float], ...]  # policy -> best seconds
    flops: tuple[tuple[str, int], ...]  # policy -> matmul FLOPs of the step (forward, backward, recompute)

    def time(self, policy: str) -> float:
        return dict(self.seconds)[policy]

    def step_flops(self, policy: str) -> int:
        return dict(self.flops)[policy]


@dataclass(frozen=True)
class LabSweep:
    """Every policy over a range of chain lengths (kept bytes and peak), and in all three precisions at the chosen N.

    The lab shows a quick sweep first (`complete` False: short chains, no timings), then the whole one.
    """

    n_layers: int
    width: int
    tokens: int
    dtype: str
    n_values: tuple[int, ...]
    points: tuple[PolicyMeasurement, ...]  # every policy at every N in n_values, in `dtype`
    at_n: tuple[PolicyMeasurement, ...]  # every policy at n_layers in each precision (fp32, bf16, autocast)
    trap: PolicyMeasurement  # the selective policy that names only aten.mm, at n_layers in fp32
    seconds: float  # the measurements themselves
    warmup_seconds: float  # one small run first: torch's first checkpoint imports much of torch._dynamo
    torch_version: str
    complete: bool = True
    timings: StepTimings | None = None

    def curve(self, policy: str, what: str = "peak") -> tuple[np.ndarray, np.ndarray]:
        """(N, bytes) of one policy over the sweep, N ascending: `what` is "peak" (live bytes at their highest over
        forward and backward: what decides an OOM) or "kept" (alive at the end of the forward, kept for backward)."""
        if what not in ("peak", "kept"):
            raise ValueError(f"what must be 'peak' or 'kept', not {what!r}")
        pts = sorted(
            (m.n_layers, m.saved_bytes if what == "kept" else m.peak) for m in self.points if m.policy == policy
        )
        return np.array([p[0] for p in pts], float), np.array([p[1] for p in pts], float)

    def exponent(self, policy: str, what: str = "peak") -> float:
        """The measured growth law: the slope of log(bytes) against log(N)."""
        return fit_exponent(*self.curve(policy, what))

    def sqrt_reference(self, n: np.ndarray, what: str = "peak") -> np.ndarray:
        """c * sqrt(N) with c fitted (least squares) to the measured sqrt-policy points."""
        ns, saved = self.curve("sqrt", what)
        c = float(np.sum(saved * np.sqrt(ns)) / np.sum(ns))
        reference: np.ndarray = c * np.sqrt(np.asarray(n, float))
        return reference

    def has(self, precision: str) -> bool:
        """Whether every policy was measured at N in this precision (a quick sweep has only its own)."""
        return any(m.dtype == precision for m in self.at_n)

    def at(self, policy: str, dtype: str | None = None) -> PolicyMeasurement:
        want = dtype or self.dtype
        for m in self.at_n:
            if m.policy == policy and m.dtype == want:
                return m
        raise KeyError(f"{policy} in {want} was not measured")


@dataclass(frozen=True)
class FsdpShard:
    """What one GPU holds under FULL_SHARD at one world size (every rank holds the same, padding included)."""

    world_size: int
    param_bytes: int  # on the rank that holds the most (they hold the same: the padding evens them out)
    grad_bytes: int
    optimizer_bytes: int
    ranks_param_bytes: int  # the same over all ranks together
    ranks_grad_bytes: int
    ranks_optimizer_bytes: int
    padding_elements: int  # added over the whole model so that each flat parameter splits evenly
    gathered_unit_bytes: int  # one layer's full flat parameter, all-gathered for its forward and backward

    @property
    def total_bytes(self) -> int:
        return self.param_bytes + self.grad_bytes + self.optimizer_bytes

    @property
    def ranks_total_bytes(self) -> int:
        return self.ranks_param_bytes + self.ranks_grad_bytes + self.ranks_optimizer_bytes


@dataclass(frozen=True)
class FsdpBreakdown:
    """Parameters, gradients and optimizer state after one real step, unsharded and per GPU."""

    n_layers: int
    width: int
    dtype: str
    optimizer: str
    n_params: int
    param_bytes: int
    grad_bytes: int
    optimizer_bytes: int
    optimizer_state: tuple[tuple[str, int], ...]  # state name -> bytes over the whole model
    shards: tuple[FsdpShard, ...]
    strategy: str = FSDP_STRATEGY

    @property
    def total_bytes(self) -> int:
        return self.param_bytes + self.grad_bytes + self.optimizer_bytes

    def at(self, world_size: int) -> FsdpShard:
        for s in self.shards:
            if s.world_size == world_size:
                return s
        raise KeyError(f"world size {world_size} was not measured")


def fit_exponent(n: Sequence[float] | np.ndarray, saved: Sequence[float] | np.ndarray) -> float:
    """Least-squares slope of log(saved) on log(n): 1 for linear growth, 0.5 for sqrt(N)."""
    x, y = np.log(np.asarray(n, float)), np.log(np.asarray(saved, float))
    return float(np.polyfit(x, y, 1)[0])
