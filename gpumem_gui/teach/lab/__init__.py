"""The checkpointing lab, measured on a real torch chain on the CPU (no Qt); torch loads only when a run starts.

choices: policies, precisions, optimizers, defaults, focus names, whether torch is there; chain: the model;
recorder: the dispatch mode that watches a step; strategies: the checkpointing policies; measure: one policy and
timed steps; sweep: the staged sweep over N; fsdp: the FULL_SHARD calculator; results: the frozen figures they
return. This package re-exports what callers use.
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
    PRECISION_LABELS,
    PRECISIONS,
    QUICK_N_MAX,
    TIMING_SIZE,
    TORCH_MISSING,
    TRAP_LABEL,
    TRAP_POLICY,
    torch_available,
)
from gpumem_gui.teach.lab.fsdp import measure_fsdp
from gpumem_gui.teach.lab.measure import measure_policy, time_policies, warm_up
from gpumem_gui.teach.lab.results import (
    FsdpBreakdown,
    FsdpShard,
    LabSweep,
    PolicyMeasurement,
    StepTimings,
    fit_exponent,
)
from gpumem_gui.teach.lab.strategies import SAVE_OPS, TRAP_SAVE_OPS, sqrt_segment
from gpumem_gui.teach.lab.sweep import run_sweep, time_sweep

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
    "PRECISIONS",
    "PRECISION_LABELS",
    "QUICK_N_MAX",
    "SAVE_OPS",
    "TIMING_SIZE",
    "TORCH_MISSING",
    "TRAP_LABEL",
    "TRAP_POLICY",
    "TRAP_SAVE_OPS",
    "FsdpBreakdown",
    "FsdpShard",
    "LabSweep",
    "PolicyMeasurement",
    "StepTimings",
    "build_chain",
    "fit_exponent",
    "measure_fsdp",
    "measure_policy",
    "run_sweep",
    "sqrt_segment",
    "time_policies",
    "time_sweep",
    "torch_available",
    "warm_up",
]
