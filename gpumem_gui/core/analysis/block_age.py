"""The map coloured by age (Tracy's memory map): each allocated block's code says how long before the cursor it was
allocated, so long-lived blocks that pin segments stand out from the churn around them.

Ages are counted in events (exact, and defined for traces without times): a block allocated at event a, seen right
after event e, is e - a events old. The scale is logarithmic, relative to the cursor: AGE_BINS - 1 bins whose edges
grow geometrically from 1 event to e + 1 (the whole trace so far), and a last code for blocks alive before recording
began. Each bin of the legend says its range of events and, where the trace has times, how long ago its edges were.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from gpumem_gui.core.analysis.breakdown import block_lifetimes
from gpumem_gui.core.analysis.rasterize import SITE_BASE, SITE_COLOURS
from gpumem_gui.core.analysis.timetravel import DeviceTimeline
from gpumem_gui.core.snapshot.model import AllocatorState, BlockState, TraceTable

AGE_BASE = SITE_BASE + SITE_COLOURS  # the first age code of the map image (after the site hues)
AGE_BINS = 8  # codes: AGE_BINS - 1 ages, youngest first, then "before recording began"
BEFORE_RECORDING = "alive before recording began"


@dataclass(frozen=True)
class AgeBin:
    """One swatch of the age legend: the blocks allocated `low` to `high` events before the cursor (inclusive)."""

    code: int
    low: int  # events ago (-1 for both: alive before recording began)
    high: int
    label: str
    seconds_ago: tuple[float, float] | None = None  # how long ago its edges were, where the trace has times


def age_edges(event: int, bins: int = AGE_BINS) -> npt.NDArray[np.int64]:
    """The first age of each age bin, then one past the oldest age (event + 1): geometric from 0, distinct."""
    oldest = max(event, 0) + 1
    inner = np.unique(np.ceil(np.geomspace(1, oldest, bins - 1)[:-1]).astype(np.int64))
    return np.unique(np.concatenate([[0], inner[inner < oldest], [oldest]])).astype(np.int64)


def age_codes(
    timeline: DeviceTimeline, state: AllocatorState, event: int, trace: TraceTable | None = None
) -> tuple[npt.NDArray[np.uint8], tuple[AgeBin, ...]]:
    """Each block's age code (AGE_BASE + bin; other blocks get 0, their state's own code is painted over) in
    `state`, the state right after `event`, and the legend."""
    edges = age_edges(event)
    ids = block_lifetimes(timeline, state, event)
    start = np.where(ids >= 0, timeline.lifetimes.start[np.maximum(ids, 0)], -1)
    age = event - start
    bin_of = np.searchsorted(edges, age, "right") - 1
    before = (ids < 0) | (start < 0)  # the replay's blocks of the first state, or none it knows
    codes = np.where(before, AGE_BASE + AGE_BINS - 1, AGE_BASE + np.clip(bin_of, 0, AGE_BINS - 2))
    codes = np.where(state.blocks.state == BlockState.ALLOCATED, codes, 0).astype(np.uint8)
    return codes, _legend(edges, event, trace)


def _legend(edges: npt.NDArray[np.int64], event: int, trace: TraceTable | None) -> tuple[AgeBin, ...]:
    out = []
    timed = trace is not None and trace.has_time and 0 <= event < len(trace)
    for k, (low, stop) in enumerate(zip(edges[:-1].tolist(), edges[1:].tolist(), strict=True)):
        high = stop - 1
        label = f"{low:,} events ago" if low == high else f"{low:,} to {high:,} events ago"
        seconds = None
        if timed and trace is not None:
            now = int(trace.time_us[event])
            seconds = ((now - int(trace.time_us[event - low])) / 1e6, (now - int(trace.time_us[event - high])) / 1e6)
        out.append(AgeBin(AGE_BASE + k, low, high, label, seconds))
    out.append(AgeBin(AGE_BASE + AGE_BINS - 1, -1, -1, BEFORE_RECORDING))
    return tuple(out)
