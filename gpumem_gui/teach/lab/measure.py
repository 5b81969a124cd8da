"""Measure the chain under one policy: what stays alive for backward, the peak, the recompute work; time a step.

Everything is measured on a real model on the CPU, never derived from a formula:

* what stays alive for backward: the storages created during the forward that are still alive when it returns
  (parameters excluded: they exist whatever the policy), cross-checked against the tensors packed through an
  outer `torch.autograd.graph.saved_tensors_hooks`;
* the peak of live activation bytes over forward and backward (parameters and their gradients excluded);
* the extra forward work: layer forwards started again in backward, and the matmul and pointwise ops (with their
  FLOPs) that ran during backward with grad mode on, which is how checkpoint recomputation runs;
* the wall time of one uninstrumented forward + backward, only where asked and at a size where matmuls dominate.
"""

from __future__ import annotations

import contextlib
import math
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from gpumem_gui.teach.lab.chain import build_chain, clear_grads, make_input, torch_dtype
from gpumem_gui.teach.lab.choices import (
    DEFAULT_TOKENS,
    DEFAULT_WIDTH,
    POLICIES,
    PRECISIONS,
    TIMING_REPEATS,
    TIMING_SIZE,
)
from gpumem_gui.teach.lab.recorder import op_classes
from gpumem_gui.teach.lab.results import PolicyMeasurement, StepTimings
from gpumem_gui.teach.lab.strategies import forward


def model_dtype(precision: str) -> str:
    """The dtype the model is built in: an autocast run keeps an fp32 model and casts inside the ops."""
    if precision not in PRECISIONS:
        raise ValueError(f"dtype must be one of {PRECISIONS}, not {precision!r}")
    return "fp32" if precision == "autocast" else precision


@contextlib.contextmanager
def one_thread() -> Iterator[None]:
    """Torch on one thread while the lab measures: its matrices are small, and on a busy CPU the second OpenMP
    thread waits on the first (measured: a step at 512 wide took 7x longer on two threads than on one)."""
    import torch  # noqa: PLC0415

    before = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(before)


def warm_up() -> float:
    """Import torch and what checkpoint and the recorder load on their first use (torch._dynamo); the seconds.

    Most of a cold lab's wait (measured: 3 to 4 s of a 3.4 to 4.6 s wait for the first figures on a busy 2-core
    machine, 0.3 s once warm): a caller that expects the lab soon can run this in a background task first.
    """

    start = time.perf_counter()
    with one_thread():
        for policy in POLICIES:
            measure_policy(policy, 2, width=8, tokens=8)
    return time.perf_counter() - start


def run_forward(policy: str, layers: Sequence[Any], x: Any, precision: str) -> tuple[Any, int]:
    """The chain's forward under `policy`; under CPU autocast to bf16 when the precision says so."""
    import torch  # noqa: PLC0415

    if precision != "autocast":
        return forward(policy, layers, x)
    with torch.autocast("cpu", dtype=torch.bfloat16):
        return forward(policy, layers, x)


def measure_policy(
    policy: str,
    n_layers: int,
    *,
    width: int = DEFAULT_WIDTH,
    tokens: int = DEFAULT_TOKENS,
    dtype: str = "fp32",
    chain: Any = None,
    track_peak: bool = False,
) -> PolicyMeasurement:
    """One instrumented forward + backward of the first `n_layers` of `chain` (built here when None).

    `dtype` is a precision: fp32, bf16 (a pure-bf16 model and input) or autocast (an fp32 model and input, run
    under `torch.autocast("cpu", dtype=torch.bfloat16)`); `chain` must be built in its model dtype.
    """
    import torch  # noqa: PLC0415

    if n_layers < 1:
        raise ValueError("the chain needs at least one layer")
    chain = chain if chain is not None else build_chain(n_layers, width, model_dtype(dtype))
    if len(chain) < n_layers:
        raise ValueError(f"the chain has {len(chain)} layers, {n_layers} asked for")
    layers = list(chain)[:n_layers]
    params = [p for layer in layers for p in layer.parameters()]
    dtype_of_torch = torch_dtype(model_dtype(dtype))
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
                out, checkpoints = run_forward(policy, layers, x, dtype)
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
        step_flops=sum(recorder.flops.values()),
        peak_bytes=peak,
    )


def time_step(policy: str, layers: Sequence[Any], x: Any) -> float:
    """Wall time of one plain (uninstrumented) forward + backward."""
    params = [p for layer in layers for p in layer.parameters()]
    clear_grads(params)
    start = time.perf_counter()
    out, _ = forward(policy, layers, x)
    out.sum().backward()
    seconds = time.perf_counter() - start
    clear_grads(params)
    return seconds


def time_policies(
    policies: Sequence[str],
    *,
    n_layers: int = TIMING_SIZE["n_layers"],
    width: int = TIMING_SIZE["width"],
    tokens: int = TIMING_SIZE["tokens"],
    repeats: int = TIMING_REPEATS,
    check: Callable[[], None] | None = None,
) -> StepTimings:
    """Best of `repeats` interleaved fp32 steps per policy (after one each to warm up), and their matmul FLOPs.

    `check` is called before each step; whatever it raises (a cancellation) ends the timing.
    """
    import torch  # noqa: PLC0415

    def checked() -> None:
        if check is not None:
            check()

    chain = build_chain(n_layers, width, "fp32")
    layers = list(chain)
    x = make_input(tokens, width, torch.float32)
    flops = []
    for policy in policies:
        checked()
        flops.append((policy, measure_policy(policy, n_layers, width=width, tokens=tokens, chain=chain).step_flops))
    best = dict.fromkeys(policies, math.inf)
    for i in range(repeats + 1):
        for policy in policies:
            checked()
            seconds = time_step(policy, layers, x)
            if i > 0:
                best[policy] = min(best[policy], seconds)
    return StepTimings(
        n_layers=n_layers,
        width=width,
        tokens=tokens,
        dtype="fp32",
        threads=torch.get_num_threads(),
        repeats=repeats,
        seconds=tuple(best.items()),
        flops=tuple(flops),
    )
