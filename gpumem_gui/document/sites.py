"""Which blocks of a state come from one allocation site: what the map spotlights when a site is picked."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from gpumem_gui.core.analysis.breakdown import allocated_mask
from gpumem_gui.core.snapshot.model import AllocatorState, Snapshot
from gpumem_gui.core.snapshot.stacks import block_sites


def site_block_mask(
    snapshot: Snapshot, state: AllocatorState, site: str, reasons: npt.NDArray[np.int8] | None = None
) -> npt.NDArray[np.bool_]:
    """The allocated blocks of `state` whose site is `site`, as the breakdown names it (the blocks whose stack
    names none as `reasons`, breakdown.nameless_reasons, tells them apart: "unknown", "allocated before recording
    began", ...)."""
    allocated = allocated_mask(state)  # the blocks the breakdown counts
    code, labels = block_sites(snapshot.stacks, state.blocks.stack, reasons)
    if site not in labels:
        return np.zeros(len(state.blocks), bool)
    mask: npt.NDArray[np.bool_] = allocated & (code == labels.index(site))
    return mask
