"""Which program wrote a snapshot, where that changes what its figures mean: a profiler-made file's address space."""

from __future__ import annotations

import numpy as np

from gpumem_gui.core.snapshot.model import Action, Snapshot
from gpumem_gui.core.snapshot.sentences import QT_TRANSLATE_NOOP

PROFILER_FORM = (
    "snapshot made by torch.cuda._memory_viz._profile_to_snapshot from a torch.profiler run (profile_memory=True)"
)
# _profile_to_snapshot (torch/cuda/_memory_viz.py, 2.13) makes one segment per device from the lowest address the
# profiler saw to the highest end, and its blocks are the tensors alive at the end with the gaps between them: the
# space between tensors is whatever the allocator (or the CPU's malloc) did elsewhere, not a cache it keeps.
SYNTHETIC_SPACE = (
    "its one segment per device spans the addresses the profiler saw (lowest to highest end), not memory the"
    " caching allocator reserved: the gaps between tensors are no free cache, so this file has no free memory,"
    " largest hole or fragmentation to report"
)
# the two said as one finding, marked for the window's translations (the diagnosis and the figures panel say it)
PROFILER_SENTENCE = QT_TRANSLATE_NOOP(
    "Diagnosis",
    "This is a snapshot made by torch.cuda._memory_viz._profile_to_snapshot from a torch.profiler run"
    " (profile_memory=True): its one segment per device spans the addresses the profiler saw (lowest to highest"
    " end), not memory the caching allocator reserved: the gaps between tensors are no free cache, so this file has"
    " no free memory, largest hole or fragmentation to report.",
)
_SEGMENT_ACTIONS = (Action.SEGMENT_ALLOC, Action.SEGMENT_FREE, Action.SEGMENT_MAP, Action.SEGMENT_UNMAP)


def profiler_made(snapshot: Snapshot) -> bool:
    """Whether `_profile_to_snapshot` wrote the file: its allocations carry their own 'category' (nothing else
    writes one) and its trace never makes or frees a segment (that function writes no segment events)."""
    if not any(t.categories for t in snapshot.traces):
        return False
    return not any(np.isin(t.action, _SEGMENT_ACTIONS).any() for t in snapshot.traces)
