"""Block search: a 0x address inside a block, a size range like 1MiB-20MiB, or text in a live block's stack."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from gpumem_gui.core.snapshot.model import AllocatorState, BlockState, StackTable
from gpumem_gui.core.snapshot.units import parse_bytes


def search_blocks(state: AllocatorState, stacks: StackTable, text: str) -> npt.NDArray[np.bool_] | None:
    """Mask of the blocks matching `text` (None for an empty search).

    An address that does not parse matches nothing; a range that does not parse is searched as stack text
    (a frame name may well contain a dash)."""
    text = text.strip()
    b = state.blocks
    if not text:
        return None
    if text.lower().startswith("0x"):
        try:
            addr = int(text, 16)
        except ValueError:
            return np.zeros(len(b), bool)
        return (b.address <= addr) & (addr < b.address + b.size)
    if "-" in text:
        lo, _, hi = text.partition("-")
        try:
            return (b.size >= parse_bytes(lo)) & (b.size <= parse_bytes(hi))
        except ValueError:
            pass
    needle = text.lower()
    matching = [
        i
        for i in range(len(stacks))
        if any(needle in f.name.lower() or needle in f.filename.lower() for f in stacks.stack(i))
    ]
    found: npt.NDArray[np.bool_] = np.isin(b.stack, matching) & (b.state != BlockState.INACTIVE)
    return found
