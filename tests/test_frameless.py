"""Why a block has no stack: the causes PyTorch's viewer lists for a block without frames, each made the way the
allocator records it (the simulator writes _dump_snapshot's dict), and said in the block details."""

from __future__ import annotations

import pickle
from typing import Any

import numpy as np

from gpumem_gui.core import load_snapshot
from gpumem_gui.core.allocator.simulator import DeviceAllocatorSim
from gpumem_gui.core.analysis.frameless import (
    ALLOCATOR_MADE,
    BACKWARD_CPP,
    BEFORE_RECORDING,
    CONTEXT_OFF,
    FRAMELESS_WORDS,
    FREE_SPACE,
    HAS_FRAMES,
    frameless_causes,
)
from gpumem_gui.core.analysis.timetravel import build_timeline
from gpumem_gui.core.rules.allocator_constants import MiB
from gpumem_gui.document.document import SnapshotDocument

TORCH = "/venv/lib/python3.11/site-packages/torch"
FORWARD = [
    {"name": "forward", "filename": "model/net.py", "line": 7},
    {"name": "<module>", "filename": "train.py", "line": 1},
]
BACKWARD = [
    {"name": "backward", "filename": f"{TORCH}/_tensor.py", "line": 7},
    {"name": "step_fn", "filename": "train.py", "line": 9},
]


def _causes(sim: DeviceAllocatorSim) -> tuple[dict[int, int], Any]:
    """addr -> cause of every block at the end of the trace, and the snapshot."""
    snapshot = load_snapshot(pickle.dumps(sim.snapshot()))
    timeline = build_timeline(snapshot, 0)
    event = timeline.n_events - 1
    state = timeline.state_at(event)
    causes = frameless_causes(snapshot, timeline, state, event)
    return {int(a): int(c) for a, c in zip(state.blocks.address, causes, strict=True)}, snapshot


def test_each_cause_from_what_the_file_says() -> None:
    sim = DeviceAllocatorSim(8 << 30)
    sim.record_history = False
    early = sim.malloc(3 * MiB, frames=FORWARD)  # the snapshot keeps its frames: not frameless
    early_bare = sim.malloc(3 * MiB)  # before recording, and recorded without a stack
    sim.record_history = True
    with_frames = sim.malloc(5 * MiB, frames=FORWARD)
    made = sim.malloc(6 * MiB)  # in forward, while frames were recorded on the entries around it
    sim.malloc(7 * MiB, frames=BACKWARD)
    in_backward = sim.malloc(8 * MiB)  # the autograd engine's thread: no Python frame
    sim.malloc(2 * MiB, frames=BACKWARD)
    causes, _snapshot = _causes(sim)
    assert causes[early.addr] == HAS_FRAMES and causes[with_frames.addr] == HAS_FRAMES
    assert causes[early_bare.addr] == BEFORE_RECORDING
    assert causes[made.addr] == ALLOCATOR_MADE
    assert causes[in_backward.addr] == BACKWARD_CPP
    free = [a for a, c in causes.items() if c == FREE_SPACE]
    assert free  # the rest of each segment: cached by the allocator, never allocated


def test_a_trace_without_any_frames_was_recorded_without_context() -> None:
    sim = DeviceAllocatorSim(8 << 30)
    block = sim.malloc(5 * MiB)  # _record_memory_history(context=None): entries, never a frame
    sim.malloc(6 * MiB)
    causes, snapshot = _causes(sim)
    assert causes[block.addr] == CONTEXT_OFF
    doc = SnapshotDocument(snapshot)
    frame = doc.frame()
    index = int(np.flatnonzero(frame.state.blocks.address == block.addr)[0])
    assert doc.block_details(index).no_frames_cause == FRAMELESS_WORDS[CONTEXT_OFF]
    assert "context=None" in FRAMELESS_WORDS[CONTEXT_OFF]
