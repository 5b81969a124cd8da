"""Blocks as CSV: one row per block of a state, with its segment, sizes, state and site (innermost user frame)."""

from __future__ import annotations

import csv
import io

from gpumem_gui.core.snapshot.model import STATE_LABELS, AllocatorState, BlockState, StackTable
from gpumem_gui.core.snapshot.stacks import sites_of, stack_sites

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


def blocks_csv(state: AllocatorState, stacks: StackTable) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(COLUMNS)
    seg, blk = state.segments, state.blocks
    _sites, labels = stack_sites(stacks)
    labels.append("")  # read by index -1: NO_SITE, and blocks recorded without a stack
    block_site = sites_of(stacks, blk.stack).tolist()
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
