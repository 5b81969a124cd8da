"""The simulator's OutOfMemoryError and size formatting, one class for the pure and the compiled simulator alike."""

from __future__ import annotations

from gpumem_gui.core.rules.allocator_constants import GiB, KiB, MiB


class OutOfMemoryError(RuntimeError):
    """torch.OutOfMemoryError's counterpart, with PyTorch's message."""


def format_size(size: int) -> str:
    """PyTorch's format_size (CUDACachingAllocator.cpp): two decimals, 1024-based."""
    if size <= 1024:
        return f"{size} bytes"
    if size <= MiB:
        return f"{size / KiB:.2f} KiB"
    if size <= GiB:
        return f"{size / MiB:.2f} MiB"
    return f"{size / GiB:.2f} GiB"
