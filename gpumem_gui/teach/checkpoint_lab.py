"""Checkpointing lab: run a real chain of layers under torch.utils.checkpoint policies and measure it. No Qt.

Everything here is measured on a real model on the CPU, never derived from a formula:

* what stays alive for backward: the storages created during the forward that are still alive when it returns
  (parameters excluded: they exist whatever the policy), cross-checked against the tensors packed through an
  outer `torch.autograd.graph.saved_tensors_hooks`;
* the peak of live activation bytes over forward and backward (parameters and their gradients excluded);
* the extra forward work: layer forwards started again in backward, and the matmul and pointwise ops (with their
  FLOPs) that ran during backward with grad mode on, which is how checkpoint recomputation runs;
* the wall time of one uninstrumented forward + backward;
* the bytes of parameters, gradients and optimizer state after one real optimizer step, sharded as FSDP's
  FULL_SHARD does.

torch is imported inside the functions, so this module imports (and `torch_available` answers) without torch.
"""

from __future__ import annotations

import functools
import importlib.util
import math
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

POLICIES = ("none", "every", "sqrt", "selective")
POLICY_LABELS = {
    "none": "no checkpointing",
    "every": "every layer",
    "sqrt": "every sqrt(N) layers",
    "selective": "selective (keep matmuls)",
}
DTYPES = ("fp32", "bf16")
OPTIMIZERS = ("AdamW", "Adam", "SGD momentum")
TORCH_MISSING = "the checkpointing lab needs PyTorch: pip install 'gpumem-gui[torch]' or pip install torch"

DEFAULT_N = 16
DEFAULT_WIDTH = 128
DEFAULT_TOKENS = 64
# perfect squares, so that sqrt(N) segments divide the chain exactly and the curve shows the law, not rounding
DEFAULT_N_VALUES = (4, 9, 16, 25, 36, 49, 64)
FSDP_STRATEGY = "FULL_SHARD"


def torch_available() -> str | None:
    """None where torch can be imported, else the one line that says how to install it.

    Looks for torch without importing it: an import takes seconds, and this is asked on the GUI thread.
    """
    try:
        found = importlib.util.find_spec("torch") is not None
    except (ImportError, ValueError):  # a finder that refuses torch, or a torch entry of None in sys.modules
        found = False
    return None if found else TORCH_MISSING


def _torch_version() -> str:
    import torch  # noqa: PLC0415

    return str(torch.__version__)


def sqrt_segment(n_layers: int) -> int:
    """Layers per checkpointed segment under the sqrt policy: the whole number nearest sqrt(N), at least 1."""
    return max(1, round(math.sqrt(n_layers)))


@dataclass(frozen=True)
class PolicyMeasurement:
    """One forward + backward of an N-layer chain under one checkpointing policy."""

    policy: str
    n_layers: int
    width: int
    tokens: int
    dtype: str
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
    peak_bytes: int | None = None  # live activation bytes at their highest over forward + backward
    seconds: float | None = None  # best wall time of one uninstrumented forward + backward

    @property
    def extra_flops_fraction(self) -> float:
        return self.extra_flops / self.forward_flops if self.forward_flops else 0.0


@dataclass(frozen=True)
class LabSweep:
    """Every policy over a range of chain lengths, and in detail (peak, time, both dtypes) at the chosen N."""

    n_layers: int
    width: int
    tokens: int
    dtype: str
    n_values: tuple[int, ...]
    points: tuple[PolicyMeasurement, ...]  # every policy at every N in n_values, in `dtype`
    at_n: tuple[PolicyMeasurement, ...]  # every policy at n_layers, in fp32 then in bf16
    seconds: float  # the measurements themselves
    warmup_seconds: float  # one small run first: torch's first checkpoint imports much of torch._dynamo
    torch_version: str

    def curve(self, policy: str) -> tuple[np.ndarray, np.ndarray]:
        """(N, saved bytes) of one policy over the sweep, N ascending."""
        pts = sorted((m.n_layers, m.saved_bytes) for m in self.points if m.policy == policy)
        return np.array([p[0] for p in pts], float), np.array([p[1] for p in pts], float)

    def exponent(self, policy: str) -> float:
        """The measured growth law: the slope of log(saved bytes) against log(N)."""
        return fit_exponent(*self.curve(policy))

    def sqrt_reference(self, n: np.ndarray) -> np.ndarray:
        """c * sqrt(N) with c fitted (least squares) to the measured sqrt-policy points."""
        ns, saved = self.curve("sqrt")
        c = float(np.sum(saved * np.sqrt(ns)) / np.sum(ns))
        reference: np.ndarray = c * np.sqrt(np.asarray(n, float))
        return reference

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


def _torch_dtype(dtype: str) -> Any:
    import torch  # noqa: PLC0415

    if dtype not in DTYPES:
        raise ValueError(f"dtype must be one of {DTYPES}, not {dtype!r}")
    return torch.float32 if dtype == "fp32" else torch.bfloat16


def build_chain(n_layers: int, width: int, dtype: str = "fp32", seed: int = 0) -> Any:
    """N identical layers, each Linear -> GELU -> Linear: two matmuls with a pointwise op between them.

    The second matmul matters: it saves the GELU output for its backward, so a checkpointed layer must recompute
    the GELU (and the first matmul) before early stop, and a selective policy has a matmul output to keep.
    """
    import torch  # noqa: PLC0415
    from torch import nn  # noqa: PLC0415

    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        layers = [nn.Sequential(nn.Linear(width, width), nn.GELU(), nn.Linear(width, width)) for _ in range(n_layers)]
    return nn.ModuleList(layers).to(_torch_dtype(dtype))


@functools.cache
def _op_classes() -> tuple[Any, Any]:
    """The matmul packets and the recorder mode class, built once torch is imported."""
    import torch  # noqa: PLC0415
    from torch.multiprocessing.reductions import StorageWeakRef  # noqa: PLC0415
    from torch.utils._python_dispatch import TorchDispatchMode  # noqa: PLC0415
    from torch.utils._pytree import tree_leaves  # noqa: PLC0415

    aten = torch.ops.aten
    matmuls = frozenset({aten.mm, aten.addmm, aten.bmm, aten.baddbmm})

    def matmul_flops(packet: Any, args: tuple[Any, ...]) -> int:
        a, b = (args[1], args[2]) if packet in (aten.addmm, aten.baddbmm) else (args[0], args[1])
        batch = a.shape[0] if a.dim() == 3 else 1
        return int(2 * batch * a.shape[-2] * a.shape[-1] * b.shape[-1])

    class Recorder(TorchDispatchMode):
        """Sees every aten op of the step: counts compute ops by phase, follows the storages the step creates.

        A storage is followed through a weak reference to its StorageImpl; holding that weak reference also keeps
        the StorageImpl's address from being reused, so the address is a safe key while we follow it.
        """

        def __init__(self, excluded: set[int], track_peak: bool) -> None:
            super().__init__()
            self.excluded = excluded
            self.track_peak = track_peak
            self.phase = "forward"
            self.clock = 0
            self.live: dict[int, tuple[Any, int, int]] = {}  # address -> (weak ref, bytes, op index born)
            self.intervals: list[tuple[int, int, int]] = []  # (bytes, born, died) of storages that died
            self.ops: Counter[tuple[str, str]] = Counter()
            self.flops: Counter[str] = Counter()

        def sweep(self) -> None:
            dead = [key for key, (ref, _, _) in self.live.items() if ref.expired()]
            for key in dead:
                _, size, born = self.live.pop(key)
                self.intervals.append((size, born, self.clock))

        def forget(self, storage: Any) -> None:
            """Stop following a storage (a parameter's gradient, the loss we hold ourselves)."""
            self.excluded.add(storage._cdata)
            self.live.pop(storage._cdata, None)

        def __torch_dispatch__(self, func: Any, types: Any, args: tuple[Any, ...] = (), kwargs: Any = None) -> Any:
            if self.track_peak:
                self.sweep()
            out = func(*args, **(kwargs or {}))
            # checkpoint recomputes under enable_grad from inside backward, where the engine otherwise runs
            # with grad mode off: that is what tells a recomputed op from a backward op
            phase = "recompute" if self.phase == "backward" and torch.is_grad_enabled() else self.phase
            packet = func.overloadpacket
            if packet in matmuls:
                self.ops[(phase, "matmul")] += 1
                self.flops[phase] += matmul_flops(packet, args)
            elif torch.Tag.pointwise in func.tags:
                self.ops[(phase, "pointwise")] += 1
            if self.track_peak or self.phase == "forward":
                for t in tree_leaves(out):
                    if isinstance(t, torch.Tensor):
                        storage = t.untyped_storage()
                        key = storage._cdata
                        if key not in self.live and key not in self.excluded:
                            self.live[key] = (StorageWeakRef(storage), storage.nbytes(), self.clock)
            self.clock += 1
            return out

        def live_bytes(self) -> int:
            self.sweep()
            return sum(size for _, size, _ in self.live.values())

        def peak_bytes(self) -> int:
            self.sweep()
            end = self.clock + 1
            delta = np.zeros(end + 1, np.int64)
            for size, born, died in [*self.intervals, *((s, b, end) for _, s, b in self.live.values())]:
                delta[born] += size
                delta[died] -= size
            return int(np.cumsum(delta).max(initial=0))

    return matmuls, Recorder


def _selective_context() -> Callable[[], Any]:
    """context_fn for checkpoint: MUST_SAVE every matmul output, PREFER_RECOMPUTE everything else."""
    from torch.utils.checkpoint import CheckpointPolicy, create_selective_checkpoint_contexts  # noqa: PLC0415

    matmuls, _ = _op_classes()

    def policy(ctx: Any, op: Any, *args: Any, **kwargs: Any) -> Any:
        return CheckpointPolicy.MUST_SAVE if op.overloadpacket in matmuls else CheckpointPolicy.PREFER_RECOMPUTE

    return functools.partial(create_selective_checkpoint_contexts, policy)


def _run_layers(layers: Sequence[Any], x: Any) -> Any:
    for layer in layers:
        x = layer(x)
    return x


def _forward(policy: str, layers: Sequence[Any], x: Any) -> tuple[Any, int]:
    """The chain's output under `policy`, and how many regions were checkpointed."""
    from torch.utils.checkpoint import checkpoint  # noqa: PLC0415

    # the chain has no dropout: there is no random state to replay, and stashing it would add CPU work and bytes
    # that have nothing to do with activations
    options: dict[str, Any] = {"use_reentrant": False, "preserve_rng_state": False}
    if policy == "none":
        return _run_layers(layers, x), 0
    if policy == "every":
        for layer in layers:
            x = checkpoint(layer, x, **options)
        return x, len(layers)
    if policy == "sqrt":
        k = sqrt_segment(len(layers))
        segments = [layers[i : i + k] for i in range(0, len(layers), k)]
        for segment in segments:
            x = checkpoint(_run_layers, segment, x, **options)
        return x, len(segments)
    if policy == "selective":
        context_fn = _selective_context()
        for layer in layers:
            x = checkpoint(layer, x, context_fn=context_fn, **options)
        return x, len(layers)
    raise ValueError(f"policy must be one of {POLICIES}, not {policy!r}")


def _input(tokens: int, width: int, dtype: Any, seed: int = 1) -> Any:
    import torch  # noqa: PLC0415

    generator = torch.Generator().manual_seed(seed)
    return torch.randn(tokens, width, generator=generator, dtype=dtype)


def _clear_grads(params: Iterable[Any]) -> None:
    for p in params:
        p.grad = None


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
    torch_dtype = _torch_dtype(dtype)
    _, recorder_class = _op_classes()
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
    _clear_grads(params)
    try:
        with recorder:
            with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
                x = _input(tokens, width, torch_dtype)
                activation_bytes = x.untyped_storage().nbytes()
                out, checkpoints = _forward(policy, layers, x)
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
    _clear_grads(params)
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
    x = _input(tokens, width, _torch_dtype(dtype))
    best = math.inf
    for i in range(repeats + 1):
        _clear_grads(params)
        start = time.perf_counter()
        out, _ = _forward(policy, layers, x)
        out.sum().backward()
        if i > 0:
            best = min(best, time.perf_counter() - start)
    _clear_grads(params)
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
    """Every policy at every N of `n_values` (and N itself) in `dtype`; at N also the peak, time and both dtypes."""
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
        torch_version=_torch_version(),
    )


def _make_optimizer(name: str, params: list[Any]) -> Any:
    import torch  # noqa: PLC0415

    if name == "AdamW":
        return torch.optim.AdamW(params, lr=1e-3)
    if name == "Adam":
        return torch.optim.Adam(params, lr=1e-3)
    if name == "SGD momentum":
        return torch.optim.SGD(params, lr=1e-3, momentum=0.9)
    raise ValueError(f"optimizer must be one of {OPTIMIZERS}, not {name!r}")


def _state_bytes(optimizer: Any, params: Iterable[Any]) -> Counter[str]:
    import torch  # noqa: PLC0415

    by_name: Counter[str] = Counter()
    for p in params:
        for name, value in optimizer.state[p].items():
            if isinstance(value, torch.Tensor):
                by_name[name] += value.untyped_storage().nbytes()
    return by_name


def _flat(tensors: Iterable[Any]) -> Any:
    import torch  # noqa: PLC0415

    return torch.cat([t.detach().reshape(-1) for t in tensors])


def measure_fsdp(
    n_layers: int = DEFAULT_N,
    *,
    width: int = DEFAULT_WIDTH,
    dtype: str = "fp32",
    optimizer: str = "AdamW",
    world_sizes: Iterable[int] = (1, 2, 4, 8),
    tokens: int = DEFAULT_TOKENS,
) -> FsdpBreakdown:
    """One real optimizer step on the chain, then FULL_SHARD applied to what it left behind.

    FULL_SHARD as FSDP does it with one unit per layer: each layer's parameters become one flat parameter, padded
    at the end to a multiple of the world size and split evenly; each rank keeps its slice of the parameters, its
    slice of the reduce-scattered gradients, and the optimizer state the optimizer makes for that slice (so the
    optimizer really runs on every rank's slices here, and its state is measured, not assumed).
    """
    import torch  # noqa: PLC0415
    import torch.nn.functional as F  # noqa: PLC0415

    chain = build_chain(n_layers, width, dtype)
    params = list(chain.parameters())
    opt = _make_optimizer(optimizer, params)
    loss = _run_layers(list(chain), _input(tokens, width, _torch_dtype(dtype))).float().pow(2).mean()
    loss.backward()
    opt.step()
    state = _state_bytes(opt, params)
    units = [list(layer.parameters()) for layer in chain]
    shards = []
    for ws in sorted(set(world_sizes)):
        if ws < 1:
            raise ValueError("a world size is at least 1")
        rank_params: list[list[Any]] = [[] for _ in range(ws)]
        padding = 0
        gathered = 0
        for unit in units:
            flat_param, flat_grad = _flat(unit), _flat(p.grad for p in unit)
            pad = (-flat_param.numel()) % ws
            padding += pad
            gathered = max(gathered, (flat_param.numel() + pad) * flat_param.element_size())
            param_chunks = F.pad(flat_param, (0, pad)).chunk(ws)
            grad_chunks = F.pad(flat_grad, (0, pad)).chunk(ws)
            for rank in range(ws):
                shard = torch.nn.Parameter(param_chunks[rank].clone())
                shard.grad = grad_chunks[rank].clone()
                rank_params[rank].append(shard)
        all_shards = [p for rank in rank_params for p in rank]
        shard_opt = _make_optimizer(optimizer, all_shards)
        shard_opt.step()
        per_rank = [
            (
                sum(p.untyped_storage().nbytes() for p in rank),
                sum(p.grad.untyped_storage().nbytes() for p in rank),
                sum(_state_bytes(shard_opt, rank).values()),
            )
            for rank in rank_params
        ]
        worst = max(per_rank, key=sum)
        shards.append(
            FsdpShard(
                world_size=ws,
                param_bytes=worst[0],
                grad_bytes=worst[1],
                optimizer_bytes=worst[2],
                ranks_param_bytes=sum(r[0] for r in per_rank),
                ranks_grad_bytes=sum(r[1] for r in per_rank),
                ranks_optimizer_bytes=sum(r[2] for r in per_rank),
                padding_elements=padding,
                gathered_unit_bytes=gathered,
            )
        )
    return FsdpBreakdown(
        n_layers=n_layers,
        width=width,
        dtype=dtype,
        optimizer=optimizer,
        n_params=sum(p.numel() for p in params),
        param_bytes=sum(p.untyped_storage().nbytes() for p in params),
        grad_bytes=sum(p.grad.untyped_storage().nbytes() for p in params),
        optimizer_bytes=sum(state.values()),
        optimizer_state=tuple(sorted(state.items())),
        shards=tuple(shards),
    )
