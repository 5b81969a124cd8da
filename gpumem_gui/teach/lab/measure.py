"""Measure the chain under each policy: what stays alive for backward, the peak, the recompute work, the time.

Everything is measured on a real model on the CPU, never derived from a formula:

* what stays alive for backward: the storages created during the forward that are still alive when it returns
  (parameters excluded: they exist whatever the policy), cross-checked against the tensors packed through an
  outer `torch.autograd.graph.saved_tensors_hooks`;
* the peak of live activation bytes over forward and backward (parameters and their gradients excluded);
* the extra forward work: layer forwards started again in backward, and the matmul and pointwise ops (with their
  FLOPs) that ran during backward with grad mode on, which is how checkpoint recomputation runs;
* the wall time of one uninstrumented forward + backward.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from gpumem_gui.teach.lab.chain import build_chain, clear_grads, make_input, torch_dtype, torch_version
from gpumem_gui.teach.lab.choices import DEFAULT_N, DEFAULT_N_VALUES, DEFAULT_TOKENS, DEFAULT_WIDTH, DTYPES, POLICIES
from gpumem_gui.teach.lab.recorder import op_classes
from gpumem_gui.teach.lab.results import LabSweep, PolicyMeasurement
from gpumem_gui.teach.lab.strategies import forward


def measure_policy(
    policy: str,
    n_layers: int,
    *,
    width: int = DEFAULT_WIDTH,
    tokens: int = DEFAULT_TOKENS,
    dtype: str = "fp32",
    chain: Any = None,
    track_peak: bool = False,
    timing_repeats: int = 0,
) -> PolicyMeasurement:
    """One instrumented forward + backward of the first `n_layers` of `chain` (built here when None)."""
    import torch  # noqa: PLC0415

    if n_layers < 1:
        raise ValueError("the chain needs at least one layer")
    chain = chain if chain is not None else build_chain(n_layers, width, dtype)
    if len(chain) < n_layers:
        raise ValueError(f"the chain has {len(chain)} layers, {n_layers} asked for")
    layers = list(chain)[:n_layers]
    params = [p for layer in layers for p in layer.parameters()]
    dtype_of_torch = torch_dtype(dtype)
    _, recorder_class = op_classes()
    recorder = recorder_class({p.untyped_storage()._cdata for p in params}, track_peak)
    param_storages = {p.untyped_storage()._cdata for p in params}
    packed: dict[int, int] = {}
    packed_tensors = [0]

    def pack(t: Any) -> Any:
        storage = t.untyped_storage()
        if storage._cdata not in param_storages:
            packed_tensors[0] += 1
            packed.setdefault(storage._cdata, storage.nbytes())
        return t

    starts = [0]
    hooks = [layer.register_forward_pre_hook(lambda *_: starts.__setitem__(0, starts[0] + 1)) for layer in layers]
    # a gradient is the same for every policy: forget it the moment it lands, so the peak is activations only
    hooks += [p.register_post_accumulate_grad_hook(lambda p: recorder.forget(p.grad.untyped_storage())) for p in params]
    clear_grads(params)
    try:
        with recorder:
            with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
                x = make_input(tokens, width, dtype_of_torch)
                activation_bytes = x.untyped_storage().nbytes()
                out, checkpoints = forward(policy, layers, x)
                del x
                loss = out.sum()
                del out
            recorder.forget(loss.untyped_storage())
            saved = recorder.live_bytes()
            forward_starts = starts[0]
            recorder.phase = "backward"
            loss.backward()
            del loss
        peak = recorder.peak_bytes() if track_peak else None
    finally:
        for h in hooks:
            h.remove()
    seconds = (
        time_step(policy, layers, tokens=tokens, width=width, dtype=dtype, repeats=timing_repeats)
        if timing_repeats > 0
        else None
    )
    clear_grads(params)
    return PolicyMeasurement(
        policy=policy,
        n_layers=n_layers,
        width=width,
        tokens=tokens,
        dtype=dtype,
        activation_bytes=activation_bytes,
        saved_bytes=saved,
        hooked_bytes=sum(packed.values()),
        hooked_tensors=packed_tensors[0],
        checkpoints=checkpoints,
        extra_forwards=starts[0] - forward_starts,
        recomputed_matmuls=recorder.ops[("recompute", "matmul")],
        recomputed_pointwise=recorder.ops[("recompute", "pointwise")],
        forward_matmuls=recorder.ops[("forward", "matmul")],
        forward_pointwise=recorder.ops[("forward", "pointwise")],
        forward_flops=recorder.flops["forward"],
        extra_flops=recorder.flops["recompute"],
        peak_bytes=peak,
        seconds=seconds,
    )


def time_step(policy: str, layers: Sequence[Any], *, tokens: int, width: int, dtype: str, repeats: int) -> float:
    """Best wall time of `repeats` plain forward + backward passes, after one that warms the caches up."""
    params = [p for layer in layers for p in layer.parameters()]
    x = make_input(tokens, width, torch_dtype(dtype))
    best = math.inf
    for i in range(repeats + 1):
        clear_grads(params)
        start = time.perf_counter()
        out, _ = forward(policy, layers, x)
        out.sum().backward()
        if i > 0:
            best = min(best, time.perf_counter() - start)
    clear_grads(params)
    return best


def run_sweep(
    n_layers: int = DEFAULT_N,
    *,
    width: int = DEFAULT_WIDTH,
    tokens: int = DEFAULT_TOKENS,
    dtype: str = "fp32",
    n_values: Iterable[int] = DEFAULT_N_VALUES,
    timing_repeats: int = 3,
    progress: Callable[[float], None] | None = None,
) -> LabSweep:
    """Every policy at every N of `n_values` (and N itself) in `dtype`; at N also the peak, time and both dtypes.

    `progress` hears the fraction done after each measurement; whatever it raises (a cancellation) ends the sweep.
    """
    if dtype not in DTYPES:
        raise ValueError(f"dtype must be one of {DTYPES}, not {dtype!r}")
    start = time.perf_counter()
    for policy in POLICIES:
        measure_policy(policy, 2, width=8, tokens=8, dtype=dtype)
    warmup = time.perf_counter() - start
    start = time.perf_counter()
    ns = tuple(sorted({*n_values, n_layers}))
    chains = {d: build_chain(max(ns), width, d) for d in DTYPES}
    steps = (len(ns) - 1 + len(DTYPES)) * len(POLICIES)
    done = 0

    def step() -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(done / steps)

    at_n = []
    for d in DTYPES:
        for policy in POLICIES:
            m = measure_policy(
                policy, n_layers, width=width, tokens=tokens, dtype=d, chain=chains[d], track_peak=True,
                timing_repeats=timing_repeats,
            )  # fmt: skip
            at_n.append(m)
            step()
    points = [m for m in at_n if m.dtype == dtype]
    for n in ns:
        if n != n_layers:
            for policy in POLICIES:
                points.append(measure_policy(policy, n, width=width, tokens=tokens, dtype=dtype, chain=chains[dtype]))
                step()
    return LabSweep(
        n_layers=n_layers,
        width=width,
        tokens=tokens,
        dtype=dtype,
        n_values=ns,
        points=tuple(points),
        at_n=tuple(at_n),
        seconds=time.perf_counter() - start,
        warmup_seconds=warmup,
        torch_version=torch_version(),
    )
