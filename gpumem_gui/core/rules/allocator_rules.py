"""The caching allocator's sizing rules: request rounding, segment sizes, when a free block is split."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from gpumem_gui.core.rules.allocator_constants import (
    LARGE_BUFFER,
    MIN_BLOCK_SIZE,
    MIN_LARGE_ALLOC,
    ROUND_LARGE,
    ROUNDUP_POWER2_INTERVALS,
    SMALL_BUFFER,
    SMALL_SIZE,
    UNLIMITED,
)


@dataclass(frozen=True)
class AllocatorConfig:
    """The settings that change where and how big blocks are (the rest of PYTORCH_CUDA_ALLOC_CONF does not)."""

    max_split_size: int = UNLIMITED
    max_non_split_rounding_size: int = LARGE_BUFFER
    large_segment_size: int = LARGE_BUFFER
    roundup_power2_divisions: tuple[int, ...] = field(default=(0,) * ROUNDUP_POWER2_INTERVALS)
    garbage_collection_threshold: float = 0.0
    expandable_segments: bool = False
    per_process_memory_fraction: float = 0.0  # 0: not set (the whole device may be used)
    settings_string: str = ""  # the PYTORCH_CUDA_ALLOC_CONF text these came from

    @classmethod
    def from_snapshot_settings(cls, settings: Mapping[str, Any] | None) -> AllocatorConfig:
        """Read a snapshot's `allocator_settings` dict (absent before torch ~2.3: the defaults apply)."""
        if not settings:
            return cls()
        max_split = int(settings.get("max_split_size", -1))
        divisions = settings.get("roundup_power2_divisions") or {}
        table = [0] * ROUNDUP_POWER2_INTERVALS
        if isinstance(divisions, Mapping):
            # keys are the interval starts in MiB: "1", "2", "4", ... "32768"
            for key, value in divisions.items():
                try:
                    index = int(key).bit_length() - 1
                except (TypeError, ValueError):
                    continue
                if 0 <= index < ROUNDUP_POWER2_INTERVALS:
                    table[index] = int(value)
        elif isinstance(divisions, list | tuple):
            for index, value in enumerate(divisions[:ROUNDUP_POWER2_INTERVALS]):
                table[index] = int(value)
        return cls(
            max_split_size=UNLIMITED if max_split < 0 else max_split,
            roundup_power2_divisions=tuple(table),
            garbage_collection_threshold=float(settings.get("garbage_collection_threshold", 0.0) or 0.0),
            expandable_segments=bool(settings.get("expandable_segments", False)),
            settings_string=str(settings.get("PYTORCH_CUDA_ALLOC_CONF", "") or ""),
        )

    def snapshot_settings(self) -> dict[str, Any]:
        """These settings as a snapshot's `allocator_settings` dict (the keys torch 2.13 writes)."""
        return {
            "PYTORCH_CUDA_ALLOC_CONF": self.settings_string,
            "max_split_size": -1 if self.max_split_size >= UNLIMITED else self.max_split_size,
            "garbage_collection_threshold": self.garbage_collection_threshold,
            "expandable_segments": self.expandable_segments,
            "pinned_num_register_threads": 1,
            "release_lock_on_cudamalloc": False,
            "pinned_use_cuda_host_register": False,
            "roundup_power2_divisions": {str(1 << i): d for i, d in enumerate(self.roundup_power2_divisions)},
        }

    def divisions_for(self, size: int) -> int:
        # interval index = floor(log2(size)) - 20, clamped: everything under 2 MiB uses the first entry
        index = min(max(size.bit_length() - 1 - 20, 0), ROUNDUP_POWER2_INTERVALS - 1)
        return self.roundup_power2_divisions[index]


DEFAULT_CONFIG = AllocatorConfig()


def round_size(size: int, config: AllocatorConfig = DEFAULT_CONFIG) -> int:
    """The block size the allocator uses for a request of `size` bytes (`round_size` in CUDACachingAllocator)."""
    if size < MIN_BLOCK_SIZE:
        return MIN_BLOCK_SIZE
    divisions = config.divisions_for(size)
    if divisions > 1 and size > MIN_BLOCK_SIZE * divisions:
        return _roundup_power2_next_division(size, divisions)
    return -(-size // MIN_BLOCK_SIZE) * MIN_BLOCK_SIZE


def _roundup_power2_next_division(size: int, divisions: int) -> int:
    if size & (size - 1) == 0:
        return size
    floor_pow2 = 1 << (size.bit_length() - 1)
    step = floor_pow2 >> (divisions.bit_length() - 1)
    if step == 0:
        return floor_pow2 << 1
    return -(-size // step) * step


def allocation_size(size: int, config: AllocatorConfig = DEFAULT_CONFIG) -> int:
    """The segment size cudaMalloc'ed for a rounded request that no cached block serves (`get_allocation_size`)."""
    if size <= SMALL_SIZE:
        return SMALL_BUFFER
    if size < MIN_LARGE_ALLOC:
        return config.large_segment_size
    return -(-size // ROUND_LARGE) * ROUND_LARGE


def is_small_request(rounded_size: int) -> bool:
    return rounded_size <= SMALL_SIZE


def should_split(
    block_size: int,
    rounded_size: int,
    *,
    small_pool: bool,
    expandable: bool,
    config: AllocatorConfig = DEFAULT_CONFIG,
) -> bool:
    """Whether a free block of `block_size` handed to a request of `rounded_size` is split (`should_split`)."""
    remaining = block_size - rounded_size
    if small_pool or expandable:
        return remaining >= MIN_BLOCK_SIZE
    return rounded_size < config.max_split_size and remaining > SMALL_SIZE


def largest_request_served_by(block_size: int, *, small_pool: bool, config: AllocatorConfig = DEFAULT_CONFIG) -> int:
    """The largest request (in bytes) that a free block of `block_size` can serve without a new device allocation.

    A request only reaches the pool its rounded size belongs to, so a small-pool block serves at most 1 MiB. The
    oversize rules of `get_free_block` never forbid the request equal to the block, so only rounding can make the
    answer smaller than the block: with `roundup_power2_divisions` a request may round past it.
    """
    if small_pool:
        block_size = min(block_size, SMALL_SIZE)
    if block_size < MIN_BLOCK_SIZE:
        return 0
    if round_size(block_size, config) <= block_size:
        return block_size
    # round_size is monotone, so bisect for the largest request whose rounding still fits.
    low, high = 1, block_size
    while low < high:
        mid = (low + high + 1) // 2
        if round_size(mid, config) <= block_size:
            low = mid
        else:
            high = mid - 1
    return low
