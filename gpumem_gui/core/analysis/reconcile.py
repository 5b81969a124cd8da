"""The one bar users ask for: NVML's used memory of a process split into reserved, allocated and requested."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class MemoryReconciliation:
    """Each figure contains the next: nvml_used >= reserved >= allocated >= requested (None where unknown)."""

    nvml_used: int | None  # the process's used memory as the driver counts it
    device_used: int | None  # total - free on the device: every process, and the contexts
    device_total: int | None
    reserved: int
    allocated: int
    requested: int | None  # what the program asked for, before the allocator's rounding
    peak_allocated: int | None
    peak_reserved: int | None

    @property
    def outside_pytorch(self) -> int | None:
        """The CUDA context, cuBLAS/cuDNN workspaces, NCCL buffers and any allocation that bypasses PyTorch."""
        return None if self.nvml_used is None else max(self.nvml_used - self.reserved, 0)

    @property
    def cached_free(self) -> int:
        """Reserved but not allocated: held by the cache, free for PyTorch, not for other processes."""
        return max(self.reserved - self.allocated, 0)

    @property
    def rounding(self) -> int | None:
        """Allocated minus requested: the allocator's rounding of each request to its block size."""
        return None if self.requested is None else max(self.allocated - self.requested, 0)


def reconcile(
    memory_stats: dict[str, Any],
    *,
    free: int | None = None,
    total: int | None = None,
    nvml_used: int | None = None,
) -> MemoryReconciliation:
    """Build the bar from `torch.cuda.memory_stats()`, `mem_get_info()` and NVML's figure for the process."""

    def stat(key: str) -> int | None:
        value = memory_stats.get(key)
        return int(value) if isinstance(value, (int, float)) else None

    return MemoryReconciliation(
        nvml_used=nvml_used,
        device_used=None if free is None or total is None else total - free,
        device_total=total,
        reserved=stat("reserved_bytes.all.current") or 0,
        allocated=stat("allocated_bytes.all.current") or 0,
        requested=stat("requested_bytes.all.current"),
        peak_allocated=stat("allocated_bytes.all.peak"),
        peak_reserved=stat("reserved_bytes.all.peak"),
    )
