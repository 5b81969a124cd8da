"""The segment filters of a document (pool and stream), applied to an allocator state."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

from gpumem_gui.core.snapshot.model import AllocatorState

Pool = Literal["all", "small", "large", "private"]
POOLS: tuple[Pool, ...] = ("all", "small", "large", "private")


@dataclass(frozen=True)
class Filters:
    """Which segments to show: a pool ("all", "small", "large", "private") and a stream (None: all)."""

    pool: Pool = "all"
    stream: int | None = None

    def __post_init__(self) -> None:
        if self.pool not in POOLS:
            raise ValueError(f"unknown pool filter {self.pool!r} (one of {', '.join(POOLS)})")

    def apply(self, state: AllocatorState) -> AllocatorState:
        """The segments this filter keeps, with their blocks; the same object when it keeps them all."""
        seg = state.segments
        keep = np.ones(len(seg), bool)
        if self.pool == "small":
            keep &= seg.is_small
        elif self.pool == "large":
            keep &= ~seg.is_small
        elif self.pool == "private":
            keep &= seg.pool != 0
        if self.stream is not None:
            keep &= seg.stream == self.stream
        return state if keep.all() else state.take_segments(np.flatnonzero(keep))
