"""external_annotations (record_function START/END pairs) as ranges of trace event indices."""

from __future__ import annotations

import numpy as np

from gpumem_gui.core.snapshot.model import Snapshot


def annotation_ranges(snapshot: Snapshot, device: int) -> list[tuple[int, int, str]]:
    """(first event, last event, name) of each annotated region of `device`, matched by time_us."""
    trace = snapshot.trace(device)
    if not trace.has_time or not len(trace):
        return []
    times = trace.time_us
    open_at: dict[str, list[int]] = {}
    ranges = []
    for entry in snapshot.external_annotations:
        if entry.get("device", device) != device or "time_us" not in entry:
            continue
        name = str(entry.get("name", "?"))
        index = int(np.searchsorted(times, int(entry["time_us"]), "left"))
        if entry.get("stage") == "START":
            open_at.setdefault(name, []).append(index)
        elif entry.get("stage") == "END" and open_at.get(name):
            start = open_at[name].pop()
            ranges.append((start, max(start, index - 1), name))
    return sorted(ranges)
