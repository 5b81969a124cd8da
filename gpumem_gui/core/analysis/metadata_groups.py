"""Which user_metadata each allocation was made under (`_set_memory_metadata`, a string or a dict): the grouping
"metadata" of the site timeline and the breakdown's "by metadata"."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from gpumem_gui.core.analysis.timetravel import DeviceTimeline
from gpumem_gui.core.snapshot.model import Snapshot

I64 = npt.NDArray[np.int64]
# code 0: no user_metadata, an empty one (PyTorch's default), or a block never seen allocated
NO_METADATA = "no metadata"


def lifetime_metadata(snapshot: Snapshot, timeline: DeviceTimeline) -> tuple[I64, list[str]]:
    """Each lifetime's metadata code, and the labels of the codes: NO_METADATA first, then each metadata's line
    (a dict's `key: value; ...`) in order of first use."""
    life = timeline.lifetimes
    trace = snapshot.trace(timeline.device)
    string = np.full(len(life.start), -1, np.int64)
    recorded = (life.start >= 0) & (life.start < len(trace))
    if recorded.any():
        string[recorded] = trace.user_metadata[life.start[recorded]]
    labels = [NO_METADATA]
    code_of: dict[str, int] = {"": 0}
    indices, inverse = np.unique(string, return_inverse=True)
    codes = np.zeros(len(indices), np.int64)
    for j, index in enumerate(indices.tolist()):
        text = snapshot.strings[index] if 0 <= index < len(snapshot.strings) else ""
        if text not in code_of:
            code_of[text] = len(labels)
            labels.append(text)
        codes[j] = code_of[text]
    return codes[inverse.reshape(-1)] if len(string) else np.zeros(0, np.int64), labels


def block_metadata(lifetime_ids: I64, lifetime_codes: I64) -> I64:
    """The metadata code of blocks by their lifetime (block_lifetimes' -1, a block not seen allocated: code 0)."""
    out = np.zeros(len(lifetime_ids), np.int64)
    known = lifetime_ids >= 0
    out[known] = lifetime_codes[lifetime_ids[known]]
    return out
