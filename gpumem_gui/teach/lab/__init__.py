"""The checkpointing lab, measured on a real torch chain on the CPU (no Qt); torch loads only when a run starts.

choices: policies, dtypes, optimizers, defaults, focus names, whether torch is there; chain: the model; recorder: the
dispatch mode that watches a step; strategies: the checkpointing policies; measure: one policy and the sweep over N;
fsdp: the FULL_SHARD calculator; results: the frozen figures they return. This package re-exports what callers use.
"""

from __future__ import annotations

from gpumem_gui.teach.lab.chain import build_chain
from gpumem_gui.teach.lab.choices import (
    DEFAULT_N,
    DEFAULT_N_VALUES,
    DEFAULT_TOKENS,
    DEFAULT_WIDTH,
    DTYPES,
    FOCUSES,
    FSDP_STRATEGY,
    OPTIMIZERS,
    POLICIES,
    POLICY_LABELS,
    TORCH_MISSING,
    torch_available,
)
from gpumem_gui.teach.lab.fsdp import measure_fsdp
from gpumem_gui.teach.lab.measure import measure_policy, run_sweep, time_step
from gpumem_gui.teach.lab.results import FsdpBreakdown, FsdpShard, LabSweep, PolicyMeasurement, fit_exponent
from gpumem_gui.teach.lab.strategies import sqrt_segment

__all__ = [
    "DEFAULT_N",
    "DEFAULT_N_VALUES",
    "DEFAULT_TOKENS",
    "DEFAULT_WIDTH",
    "DTYPES",
    "FOCUSES",
    "FSDP_STRATEGY",
    "OPTIMIZERS",
    "POLICIES",
    "POLICY_LABELS",
    "TORCH_MISSING",
    "FsdpBreakdown",
    "FsdpShard",
    "LabSweep",
    "PolicyMeasurement",
    "build_chain",
    "fit_exponent",
    "measure_fsdp",
    "measure_policy",
    "run_sweep",
    "sqrt_segment",
    "time_step",
    "torch_available",
]
