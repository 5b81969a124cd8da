"""The checkpointing policies: how the chain's forward runs under none, every layer, sqrt(N) and selective."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from typing import Any

from gpumem_gui.teach.lab.chain import run_layers
from gpumem_gui.teach.lab.choices import POLICIES
from gpumem_gui.teach.lab.recorder import op_classes


def sqrt_segment(n_layers: int) -> int:
    """Layers per checkpointed segment under the sqrt policy: the whole number nearest sqrt(N), at least 1."""
    return max(1, round(math.sqrt(n_layers)))


def selective_context() -> Callable[[], Any]:
    """context_fn for checkpoint: MUST_SAVE every matmul output, PREFER_RECOMPUTE everything else."""
    from torch.utils.checkpoint import CheckpointPolicy, create_selective_checkpoint_contexts  # noqa: PLC0415

    matmuls, _ = op_classes()

    def policy(ctx: Any, op: Any, *args: Any, **kwargs: Any) -> Any:
        return CheckpointPolicy.MUST_SAVE if op.overloadpacket in matmuls else CheckpointPolicy.PREFER_RECOMPUTE

    return functools.partial(create_selective_checkpoint_contexts, policy)


def forward(policy: str, layers: Sequence[Any], x: Any) -> tuple[Any, int]:
    """The chain's output under `policy`, and how many regions were checkpointed."""
    from torch.utils.checkpoint import checkpoint  # noqa: PLC0415

    # the chain has no dropout: there is no random state to replay, and stashing it would add CPU work and bytes
    # that have nothing to do with activations
    options: dict[str, Any] = {"use_reentrant": False, "preserve_rng_state": False}
    if policy == "none":
        return run_layers(layers, x), 0
    if policy == "every":
        for layer in layers:
            x = checkpoint(layer, x, **options)
        return x, len(layers)
    if policy == "sqrt":
        k = sqrt_segment(len(layers))
        segments = [layers[i : i + k] for i in range(0, len(layers), k)]
        for segment in segments:
            x = checkpoint(run_layers, segment, x, **options)
        return x, len(segments)
    if policy == "selective":
        context_fn = selective_context()
        for layer in layers:
            x = checkpoint(layer, x, context_fn=context_fn, **options)
        return x, len(layers)
    raise ValueError(f"policy must be one of {POLICIES}, not {policy!r}")
