"""The lab's sweep: quick figures first (short chains, fp32), then the rest of N, the precisions and the timings."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterable
from typing import Any

from gpumem_gui.teach.lab.chain import build_chain, torch_version
from gpumem_gui.teach.lab.choices import (
    DEFAULT_N,
    DEFAULT_N_VALUES,
    DEFAULT_TOKENS,
    DEFAULT_WIDTH,
    POLICIES,
    PRECISIONS,
    QUICK_N_MAX,
    TIMING_REPEATS,
    TIMING_SIZE,
    TRAP_POLICY,
)
from gpumem_gui.teach.lab.measure import measure_policy, model_dtype, one_thread, time_policies, warm_up
from gpumem_gui.teach.lab.results import LabSweep, PolicyMeasurement, StepTimings


def run_sweep(
    n_layers: int = DEFAULT_N,
    *,
    width: int = DEFAULT_WIDTH,
    tokens: int = DEFAULT_TOKENS,
    dtype: str = "fp32",
    n_values: Iterable[int] = DEFAULT_N_VALUES,
    timing: bool = True,
    progress: Callable[[float], None] | None = None,
    partial: Callable[[LabSweep], None] | None = None,
    stage: Callable[[str, tuple[int, ...]], None] | None = None,
) -> LabSweep:
    """Every policy at every N of `n_values` (and N itself) in `dtype`, with its peak; at N all three precisions.

    In stages, each handed to `partial` as an incomplete LabSweep so that a view can draw it at once: `dtype` at N
    and the chains up to QUICK_N_MAX layers (well under a second); the other precisions at N; the longer chains;
    then (with `timing`) one step timed per policy at a size where matmuls dominate. The returned sweep is
    complete. `progress` hears the fraction done after each measurement; whatever it raises (a cancellation) or
    `partial` raises ends the sweep. `stage` hears what starts, with its chain lengths: "warm_up" (importing torch,
    the longest wait of a cold start), "quick", "precisions", "longer" (one call per N) and "timing".
    """

    def starting(name: str, ns: tuple[int, ...] = ()) -> None:
        if stage is not None:
            stage(name, ns)

    model_dtype(dtype)  # refuses an unknown precision before any work
    with one_thread():
        starting("warm_up")
        warmup = warm_up()
        start = time.perf_counter()
        ns = tuple(sorted({*n_values, n_layers}))
        quick = tuple(n for n in ns if n <= max(QUICK_N_MAX, n_layers) and n != n_layers)
        rest = tuple(n for n in ns if n not in quick and n != n_layers)
        others = tuple(d for d in PRECISIONS if d != dtype)
        chains: dict[str, Any] = {}

        def chain(precision: str) -> Any:
            d = model_dtype(precision)
            if d not in chains:
                chains[d] = build_chain(max(ns), width, d)
            return chains[d]

        measurements = (1 + len(quick) + len(rest) + len(others)) * len(POLICIES) + 1
        steps = measurements + (TIMING_REPEATS + 2) * len(POLICIES) * timing
        done = 0

        def tick() -> None:
            nonlocal done
            done += 1
            if progress is not None:
                progress(min(1.0, done / steps))

        at_n: list[PolicyMeasurement] = []
        points: list[PolicyMeasurement] = []

        def measure(policy: str, n: int, precision: str, peak: bool) -> PolicyMeasurement:
            m = measure_policy(
                policy, n, width=width, tokens=tokens, dtype=precision, chain=chain(precision), track_peak=peak
            )
            tick()
            return m

        def result(complete: bool, timings: StepTimings | None = None) -> LabSweep:
            order = {d: i for i, d in enumerate(PRECISIONS)}
            return LabSweep(
                n_layers=n_layers,
                width=width,
                tokens=tokens,
                dtype=dtype,
                n_values=tuple(sorted({m.n_layers for m in points})),
                points=tuple(sorted(points, key=lambda m: m.n_layers)),
                at_n=tuple(sorted(at_n, key=lambda m: order[m.dtype])),
                trap=trap,
                seconds=time.perf_counter() - start,
                warmup_seconds=warmup,
                torch_version=torch_version(),
                complete=complete,
                timings=timings,
            )

        starting("quick", (*quick, n_layers))
        at_n += [measure(policy, n_layers, dtype, True) for policy in POLICIES]
        trap = measure(TRAP_POLICY, n_layers, dtype, True)
        points += at_n
        points += [measure(policy, n, dtype, True) for n in quick for policy in POLICIES]
        if partial is not None:
            partial(result(False))
        starting("precisions", (n_layers,))
        for d in others:
            at_n += [measure(policy, n_layers, d, True) for policy in POLICIES]
        if partial is not None:
            partial(result(False))
        for n in rest:
            starting("longer", (n,))
            points += [measure(policy, n, dtype, True) for policy in POLICIES]
            if partial is not None:
                partial(result(False))
        timings = None
        if timing:
            starting("timing", (TIMING_SIZE["n_layers"],))
            timings = time_policies(POLICIES, repeats=TIMING_REPEATS, check=tick)
    return result(True, timings)


def time_sweep(sweep: LabSweep, check: Callable[[], None] | None = None) -> LabSweep:
    """`sweep` with one step timed per policy where matmuls dominate: what run_sweep's `timing` adds at its end,
    apart, so that a view can run other measurements between the two. `check` as time_policies takes it."""
    with one_thread():
        timings = time_policies(POLICIES, repeats=TIMING_REPEATS, check=check)
    return dataclasses.replace(sweep, timings=timings)
