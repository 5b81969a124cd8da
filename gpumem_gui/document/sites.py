"""Which blocks of a state come from one allocation site: what the map spotlights when a site is picked."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from gpumem_gui.core.analysis.breakdown import UNKNOWN_SITE, allocated_mask
from gpumem_gui.core.snapshot.model import AllocatorState, Snapshot
from gpumem_gui.core.snapshot.stacks import sites_of, stack_sites


def site_block_mask(snapshot: Snapshot, state: AllocatorState, site: str) -> npt.NDArray[np.bool_]:
    """The allocated blocks of `state` whose site (the user's frame that asked) is `site`, as the breakdown names it;
    "unknown" is the blocks without frames."""
    blocks = state.blocks
    allocated = allocated_mask(state)  # the blocks the breakdown counts
    _sites, labels = stack_sites(snapshot.stacks)
    block_site = sites_of(snapshot.stacks, blocks.stack)
    if site == UNKNOWN_SITE:
        return allocated & (block_site < 0)
    if site not in labels:
        return np.zeros(len(blocks), bool)
    mask: npt.NDArray[np.bool_] = allocated & (block_site == labels.index(site))
    return mask
