"""The checkpointing policies: how the chain's forward runs under none, every layer, sqrt(N) and selective."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from typing import Any

from gpumem_gui.teach.lab.chain import run_layers
from gpumem_gui.teach.lab.choices import POLICIES, TRAP_POLICY


def sqrt_segment(n_layers: int) -> int:
    """Layers per checkpointed segment under the sqrt policy: the whole number nearest sqrt(N), at least 1."""
    return max(1, round(math.sqrt(n_layers)))


# what the selective policy keeps, by name: nn.Linear runs aten.addmm when it has a bias (on 2-D and 3-D inputs
# alike) and aten.mm without one, so a policy that names only mm keeps nothing from a Linear with a bias
SAVE_OPS = ("mm.default", "addmm.default")
TRAP_SAVE_OPS = ("mm.default",)


def save_ops(names: Sequence[str]) -> frozenset[Any]:
    """The aten overloads named like "mm.default": torch.ops.aten.mm.default, ..."""
    import torch  # noqa: PLC0415

    return frozenset(getattr(getattr(torch.ops.aten, packet), overload) for packet, overload in
                     (name.split(".") for name in names))  # fmt: skip


def selective_context(names: Sequence[str] = SAVE_OPS) -> Callable[[], Any]:
    """context_fn for checkpoint: MUST_SAVE the outputs of the ops named, PREFER_RECOMPUTE everything else."""
    from torch.utils.checkpoint import CheckpointPolicy, create_selective_checkpoint_contexts  # noqa: PLC0415

    keep = save_ops(names)

    def policy(ctx: Any, op: Any, *args: Any, **kwargs: Any) -> Any:
        return CheckpointPolicy.MUST_SAVE if op in keep else CheckpointPolicy.PREFER_RECOMPUTE

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
    if policy in ("selective", TRAP_POLICY):
        context_fn = selective_context(SAVE_OPS if policy == "selective" else TRAP_SAVE_OPS)
        for layer in layers:
            x = checkpoint(layer, x, context_fn=context_fn, **options)
        return x, len(layers)
    raise ValueError(f"policy must be one of {POLICIES}, not {policy!r}")
