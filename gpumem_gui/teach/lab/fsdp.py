"""The FSDP calculator: one real optimizer step on the chain, then its state sharded as FULL_SHARD would hold it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from gpumem_gui.teach.lab.chain import build_chain, make_input, run_layers, torch_dtype
from gpumem_gui.teach.lab.choices import DEFAULT_N, DEFAULT_TOKENS, DEFAULT_WIDTH, OPTIMIZERS
from gpumem_gui.teach.lab.results import FsdpBreakdown, FsdpShard


def make_optimizer(name: str, params: list[Any]) -> Any:
    import torch  # noqa: PLC0415

    if name == "AdamW":
        return torch.optim.AdamW(params, lr=1e-3)
    if name == "Adam":
        return torch.optim.Adam(params, lr=1e-3)
    if name == "SGD momentum":
        return torch.optim.SGD(params, lr=1e-3, momentum=0.9)
    raise ValueError(f"optimizer must be one of {OPTIMIZERS}, not {name!r}")


def state_bytes(optimizer: Any, params: Iterable[Any]) -> Counter[str]:
    """Bytes of the optimizer's state for `params`, by state name (exp_avg, momentum_buffer, ...)."""
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
    check: Callable[[], None] | None = None,
) -> FsdpBreakdown:
    """One real optimizer step on the chain, then FULL_SHARD applied to what it left behind.

    FULL_SHARD as FSDP does it with one unit per layer: each layer's parameters become one flat parameter, padded
    at the end to a multiple of the world size and split evenly; each rank keeps its slice of the parameters, its
    slice of the reduce-scattered gradients, and the optimizer state the optimizer makes for that slice (so the
    optimizer really runs on every rank's slices here, and its state is measured, not assumed). `check` is called
    before each world size; whatever it raises (a cancellation) ends the measurement.
    """
    import torch  # noqa: PLC0415
    import torch.nn.functional as F  # noqa: PLC0415

    chain = build_chain(n_layers, width, dtype)
    params = list(chain.parameters())
    opt = make_optimizer(optimizer, params)
    loss = run_layers(list(chain), make_input(tokens, width, torch_dtype(dtype))).float().pow(2).mean()
    loss.backward()
    opt.step()
    state = state_bytes(opt, params)
    units = [list(layer.parameters()) for layer in chain]
    shards = []
    for ws in sorted(set(world_sizes)):
        if check is not None:
            check()
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
        shard_opt = make_optimizer(optimizer, all_shards)
        shard_opt.step()
        per_rank = [
            (
                sum(p.untyped_storage().nbytes() for p in rank),
                sum(p.grad.untyped_storage().nbytes() for p in rank),
                sum(state_bytes(shard_opt, rank).values()),
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
