"""Why a block has no stack: which of the causes PyTorch's viewer lists applies, read from what the file says."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from gpumem_gui.core.analysis.breakdown import block_lifetimes, lifetime_reasons
from gpumem_gui.core.analysis.timetravel import DeviceTimeline
from gpumem_gui.core.snapshot.model import NO_STACK, Action, AllocatorState, BlockState, Snapshot

HAS_FRAMES, FREE_SPACE, BEFORE_RECORDING, CONTEXT_OFF, BACKWARD_CPP, ALLOCATOR_MADE = range(6)


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # the name pyside6-lupdate looks for
    """Marks a sentence for the window's translations (core imports no Qt: the block page translates it)."""
    return text


FRAMELESS_WORDS = (
    "",
    QT_TRANSLATE_NOOP(
        "Frameless",
        "free space of its segment: the allocator keeps it reserved for its pool, and no allocation, so no stack, is "
        "in it",
    ),
    QT_TRANSLATE_NOOP(
        "Frameless",
        "allocated before recording began (or its alloc entry fell out of the trace's ring buffer, max_entries): the "
        "snapshot lists it without the stack it was made with",
    ),
    QT_TRANSLATE_NOOP(
        "Frameless",
        "recorded without context: no entry of this trace carries frames (_record_memory_history(context=None), or "
        "context='state', which keeps stacks only on blocks still live when the snapshot was taken)",
    ),
    QT_TRANSLATE_NOOP(
        "Frameless",
        "allocated in backward on the autograd engine's thread, which runs no Python: stacks='python' records no "
        "frame there, stacks='all' records its C++ frames",
    ),
    QT_TRANSLATE_NOOP(
        "Frameless",
        "allocated while recording, with frames on other entries but none on this one: the allocator or a C++ "
        "library made it outside any recorded call (a copy or workspace of its own)",
    ),
)


def frameless_causes(
    snapshot: Snapshot, timeline: DeviceTimeline, state: AllocatorState, event: int
) -> npt.NDArray[np.int8]:
    """Each block's cause (an index into FRAMELESS_WORDS) in `state`, the state right after `event`: HAS_FRAMES
    for a block with a stack."""
    blk = state.blocks
    out = np.full(len(blk), HAS_FRAMES, np.int8)
    none = blk.stack == NO_STACK
    out[none & (blk.state == BlockState.INACTIVE)] = FREE_SPACE
    live = np.flatnonzero(none & (blk.state != BlockState.INACTIVE))
    if not len(live):
        return out
    ids = block_lifetimes(timeline, state, event)[live]
    life = timeline.lifetimes
    start = np.where(ids >= 0, life.start[np.maximum(ids, 0)], -1) if len(life.start) else np.full(len(live), -1)
    out[live[start < 0]] = BEFORE_RECORDING
    recorded = start >= 0
    if not recorded.any():
        return out
    trace = snapshot.trace(timeline.device)
    allocs = trace.action == Action.ALLOC
    if not np.any(trace.stack[allocs] != NO_STACK):
        out[live[recorded]] = CONTEXT_OFF
        return out
    backward = lifetime_reasons(snapshot, timeline)[ids[recorded]] == 2
    out[live[recorded]] = np.where(backward, BACKWARD_CPP, ALLOCATOR_MADE)
    return out
