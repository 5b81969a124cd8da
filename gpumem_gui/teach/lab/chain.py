"""The lab's model: a chain of identical Linear-GELU-Linear layers, its input, and plain runs of its layers."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from gpumem_gui.teach.lab.choices import DTYPES


def torch_version() -> str:
    import torch  # noqa: PLC0415

    return str(torch.__version__)


def torch_dtype(dtype: str) -> Any:
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
    return nn.ModuleList(layers).to(torch_dtype(dtype))


def make_input(tokens: int, width: int, dtype: Any, seed: int = 1) -> Any:
    """The chain's input: tokens x width, the same numbers on every call."""
    import torch  # noqa: PLC0415

    generator = torch.Generator().manual_seed(seed)
    return torch.randn(tokens, width, generator=generator, dtype=dtype)


def run_layers(layers: Sequence[Any], x: Any) -> Any:
    for layer in layers:
        x = layer(x)
    return x


def clear_grads(params: Iterable[Any]) -> None:
    for p in params:
        p.grad = None
