"""Which bundled examples each quiz demo opens, and how: one snapshot, a pair, a what-if replay or the lab."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

DemoKind = Literal["snapshot", "pair", "whatif", "lab"]


class DemoError(ValueError):
    """A demo that cannot be shown on this data (unknown name, or a snapshot that lacks what the demo needs)."""


@dataclass(frozen=True)
class DemoPlan:
    """What "Show me" opens: `examples` are bundled example names (resolve them with assets.example_path)."""

    demo: str
    kind: DemoKind
    examples: tuple[str, ...]
    titles: tuple[str, ...]  # a label per view shown: one for "snapshot", two for "pair" and "whatif"
    overrides: tuple[str, ...] = ()  # "whatif": the PYTORCH_CUDA_ALLOC_CONF items the replay runs under


PLANS: dict[str, DemoPlan] = {
    p.demo: p
    for p in (
        DemoPlan("fragmented_oom", "snapshot", ("fragmented_oom",), ("fragmented OOM",)),
        DemoPlan("cache_reuse", "snapshot", ("cache_reuse",), ("cache reuse",)),
        DemoPlan("split_blocks_oom", "snapshot", ("split_blocks_oom",), ("inactive split blocks",)),
        DemoPlan(
            "expandable_whatif",
            "whatif",
            ("graph_pool_order",),  # the allocation-order case of PyTorch's 2026-06-01 fragmentation devlog
            ("recorded", "replayed with expandable_segments:True"),
            ("expandable_segments:True",),
        ),
        DemoPlan(
            "kv_cache", "pair", ("kv_cache_contiguous", "kv_cache_paged"), ("contiguous KV cache", "paged KV cache")
        ),
        DemoPlan("checkpointing_lab", "lab", (), ("gradient checkpointing lab",)),
        DemoPlan("empty_cache_live_tensor", "snapshot", ("empty_cache_live_tensor",), ("empty_cache",)),
        DemoPlan("reserved_vs_allocated", "snapshot", ("reserved_vs_allocated",), ("reserved vs allocated",)),
    )
}
DEMO_NAMES: tuple[str, ...] = tuple(PLANS)


def plan_for(demo: str) -> DemoPlan:
    try:
        return PLANS[demo]
    except KeyError:
        raise DemoError(f"unknown demo {demo!r} (known: {', '.join(DEMO_NAMES)})") from None
