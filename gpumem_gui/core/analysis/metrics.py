"""Exact memory figures of an allocator state, in total and per device, pool, stream and private pool.

Definitions (every screen and the report use these): reserved = sum of segment sizes; allocated = sum of the sizes of
active_allocated blocks; requested = sum of their requested sizes; pending free = sum of active_pending_free
sizes; active = allocated + pending; free = sum of inactive block sizes; internal waste = allocated - requested;
external fragmentation = 1 - largest free block / free (0 when nothing is free).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from gpumem_gui.core.rules.allocator_rules import DEFAULT_CONFIG, AllocatorConfig, largest_request_served_by
from gpumem_gui.core.snapshot.model import DEFAULT_POOL, AllocatorState, BlockState, distinct


@dataclass(frozen=True)
class HistogramBin:
    min_bytes: int  # inclusive
    max_bytes: int  # exclusive
    count: int
    bytes: int


@dataclass(frozen=True)
class Metrics:
    segments: int
    blocks: int
    reserved_bytes: int
    allocated_bytes: int
    requested_bytes: int
    pending_free_bytes: int
    active_bytes: int
    free_bytes: int
    internal_waste_bytes: int
    largest_free_block_bytes: int
    external_fragmentation: float
    inactive_split_bytes: int
    largest_allocation_that_fits: int
    free_blocks: int
    free_block_histogram: list[HistogramBin] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class GroupedMetrics:
    total: Metrics
    by_device: dict[int, Metrics]
    by_pool: dict[str, Metrics]  # "small", "large"
    by_stream: dict[int, Metrics]
    by_private_pool: dict[tuple[int, int], Metrics]


def compute_metrics(
    state: AllocatorState,
    config: AllocatorConfig = DEFAULT_CONFIG,
    segment_mask: np.ndarray | None = None,
) -> Metrics:
    """The figures of the segments selected by `segment_mask` (all by default)."""
    seg = state.segments
    blk = state.blocks
    if segment_mask is None:
        segment_mask = np.ones(len(seg), bool)
    block_mask = segment_mask[blk.segment] if len(blk) else np.zeros(0, bool)
    size = blk.size[block_mask]
    requested = blk.requested_size[block_mask]
    state_code = blk.state[block_mask]
    segment_of = blk.segment[block_mask]

    allocated = state_code == BlockState.ALLOCATED
    pending = state_code == BlockState.PENDING_FREE
    free = state_code == BlockState.INACTIVE
    free_sizes = size[free]
    allocated_bytes = int(size[allocated].sum())
    requested_bytes = int(requested[allocated].sum())
    pending_bytes = int(size[pending].sum())
    free_bytes = int(free_sizes.sum())
    largest_free = int(free_sizes.max()) if len(free_sizes) else 0

    # inactive_split (torch's stat): free blocks that cannot be released because they share a non-expandable segment
    splittable = (~seg.is_expandable) & (seg.block_count > 1)
    inactive_split = int(size[free & splittable[segment_of]].sum())

    fits = 0
    small_of_free = seg.is_small[segment_of[free]]
    for small in (True, False):
        candidates = free_sizes[small_of_free == small]
        if len(candidates):
            fits = max(fits, largest_request_served_by(int(candidates.max()), small_pool=small, config=config))

    return Metrics(
        segments=int(segment_mask.sum()),
        blocks=int(block_mask.sum()),
        reserved_bytes=int(seg.total_size[segment_mask].sum()),
        allocated_bytes=allocated_bytes,
        requested_bytes=requested_bytes,
        pending_free_bytes=pending_bytes,
        active_bytes=allocated_bytes + pending_bytes,
        free_bytes=free_bytes,
        internal_waste_bytes=allocated_bytes - requested_bytes,
        largest_free_block_bytes=largest_free,
        external_fragmentation=1.0 - largest_free / free_bytes if free_bytes else 0.0,
        inactive_split_bytes=inactive_split,
        largest_allocation_that_fits=fits,
        free_blocks=len(free_sizes),
        free_block_histogram=free_block_histogram(free_sizes),
    )


def free_block_histogram(free_sizes: np.ndarray) -> list[HistogramBin]:
    """Free blocks binned by powers of two (only the bins that hold something)."""
    if not len(free_sizes):
        return []
    exponents = np.floor(np.log2(np.maximum(free_sizes, 1))).astype(np.int64)
    bins = []
    for e in distinct(exponents):
        inside = exponents == e
        bins.append(HistogramBin(1 << int(e), 1 << (int(e) + 1), int(inside.sum()), int(free_sizes[inside].sum())))
    return bins


def metrics_by_group(state: AllocatorState, config: AllocatorConfig = DEFAULT_CONFIG) -> GroupedMetrics:
    seg = state.segments
    by_device = {d: compute_metrics(state, config, seg.device == d) for d in state.devices()}
    by_pool = {
        "small": compute_metrics(state, config, seg.is_small),
        "large": compute_metrics(state, config, ~seg.is_small),
    }
    by_stream = {int(s): compute_metrics(state, config, seg.stream == s) for s in distinct(seg.stream)}
    by_private: dict[tuple[int, int], Metrics] = {}
    for index in distinct(seg.pool):
        pool_id = state.pool_ids[int(index)]
        if pool_id != DEFAULT_POOL:
            by_private[pool_id] = compute_metrics(state, config, seg.pool == index)
    return GroupedMetrics(compute_metrics(state, config), by_device, by_pool, by_stream, by_private)


def segment_free(state: AllocatorState) -> tuple[np.ndarray, np.ndarray]:
    """Per segment of `state`: its free bytes and its largest hole (free block), in one pass over the blocks (a
    segment's blocks are the rows block_start .. block_start + block_count); 0 and 0 for a segment without blocks."""
    seg, blk = state.segments, state.blocks
    free = np.where(blk.state == BlockState.INACTIVE, blk.size, 0).astype(np.int64)
    free_bytes = np.zeros(len(seg), np.int64)
    largest = np.zeros(len(seg), np.int64)
    has_blocks = seg.block_count > 0
    if len(free) and has_blocks.any():
        starts = seg.block_start[has_blocks]
        free_bytes[has_blocks] = np.add.reduceat(free, starts)
        largest[has_blocks] = np.maximum.reduceat(free, starts)
    return free_bytes, largest


def segment_free_summary(state: AllocatorState) -> list[dict[str, int]]:
    """Per segment: address, size, free bytes and largest free block, most free first."""
    seg = state.segments
    free_per, largest = segment_free(state)
    order = np.lexsort((seg.address, -free_per))
    return [
        {
            "device": int(seg.device[i]),
            "address": int(seg.address[i]),
            "total_size": int(seg.total_size[i]),
            "free_bytes": int(free_per[i]),
            "largest_free_block_bytes": int(largest[i]),
            "blocks": int(seg.block_count[i]),
            "stream": int(seg.stream[i]),
            "is_small": bool(seg.is_small[i]),
            "is_expandable": bool(seg.is_expandable[i]),
        }
        for i in order
    ]
