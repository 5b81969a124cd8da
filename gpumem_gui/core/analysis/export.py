"""Blocks as CSV: one row per block of a state, with its segment, sizes, state and site (stacks.block_sites)."""

from __future__ import annotations

import csv
import io

import numpy as np
import numpy.typing as npt

from gpumem_gui.core.snapshot.model import STATE_LABELS, AllocatorState, BlockState, StackTable
from gpumem_gui.core.snapshot.stacks import NAMELESS_SITES, UNKNOWN_SITE, block_sites

COLUMNS = (
    "device",
    "segment_address",
    "address",
    "size",
    "requested_size",
    "state",
    "stream",
    "pool",
    "expandable",
    "top_frame",
)


def blocks_csv(state: AllocatorState, stacks: StackTable, reasons: npt.NDArray[np.int8] | None = None) -> str:
    """`reasons`: per block, why its site may have no name (breakdown.nameless_reasons): its top_frame says
    "allocated before recording began" or names backward work without frames; other blocks whose stack names no
    site have an empty one."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(COLUMNS)
    seg, blk = state.segments, state.blocks
    code, labels = block_sites(stacks, blk.stack, reasons)
    labels[labels.index(UNKNOWN_SITE, len(labels) - len(NAMELESS_SITES))] = ""  # no frame to name
    block_site = code.tolist()
    for i in range(len(blk)):
        s = int(blk.segment[i])
        block_state = BlockState(int(blk.state[i]))
        writer.writerow(
            (
                int(seg.device[s]),
                f"{int(seg.address[s]):#x}",
                f"{int(blk.address[i]):#x}",
                int(blk.size[i]),
                int(blk.requested_size[i]) if block_state != BlockState.INACTIVE else "",
                STATE_LABELS[block_state],
                int(seg.stream[s]),
                "small" if seg.is_small[s] else "large",
                bool(seg.is_expandable[s]),
                labels[block_site[i]],
            )
        )
    return out.getvalue()
