"""Blocks as CSV: one row per block of a state, with its segment, sizes, state and innermost user frame."""

from __future__ import annotations

import csv
import io

from gpumem_gui.core.snapshot.model import STATE_LABELS, AllocatorState, BlockState, StackTable
from gpumem_gui.core.snapshot.stacks import filter_frames, format_frame

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
    for i in range(len(blk)):
        s = int(blk.segment[i])
        block_state = BlockState(int(blk.state[i]))
        frames = filter_frames(stacks.stack(int(blk.stack[i])))
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
                format_frame(frames[0]) if frames else "",
            )
        )
    return out.getvalue()
