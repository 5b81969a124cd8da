"""What a block was tagged with: the user_metadata of its allocation, and the `annotate` entries that name it later
(`torch.cuda.memory._annotate_memory(data_ptr, metadata)` / `_annotate_tensor`, newer than torch 2.13), which add
to it and never replace it."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from gpumem_gui.core.analysis.breakdown import block_lifetimes
from gpumem_gui.core.analysis.timetravel import DeviceTimeline
from gpumem_gui.core.snapshot.model import Action, AllocatorState, Snapshot


def lifetime_annotations(snapshot: Snapshot, timeline: DeviceTimeline) -> dict[int, tuple[tuple[int, str], ...]]:
    """Lifetime -> (event, metadata) of each `annotate` entry naming an address inside it while it lived, oldest
    first. An annotation of an address no live block holds names nothing and is left out."""
    trace = snapshot.trace(timeline.device)
    life = timeline.lifetimes
    found: dict[int, list[tuple[int, str]]] = {}
    for row in np.flatnonzero(trace.action == Action.ANNOTATE).tolist():
        text = _text(snapshot, int(trace.user_metadata[row]))
        addr = int(trace.addr[row])
        inside = (life.start < row) & (life.end > row) & (life.addr <= addr) & (addr < life.addr + life.size)
        hits = np.flatnonzero(inside)
        if len(hits) and text:
            found.setdefault(int(hits[-1]), []).append((row, text))
    return {k: tuple(v) for k, v in found.items()}


def block_tags(
    snapshot: Snapshot, timeline: DeviceTimeline, state: AllocatorState, event: int, index: int
) -> tuple[str, tuple[str, ...]]:
    """Block `index` of `state` (the state right after `event`): its allocation's user_metadata ("" without) and
    the annotations made on it up to `event`."""
    lifetime = int(block_lifetimes(timeline, state, event)[index])
    if lifetime < 0:
        return "", ()
    notes = lifetime_annotations(snapshot, timeline).get(lifetime, ())
    return _text(snapshot, _alloc_metadata(snapshot, timeline, np.array([lifetime]))[0]), tuple(
        text for row, text in notes if row <= event
    )


def tag_search(
    snapshot: Snapshot, timeline: DeviceTimeline, state: AllocatorState, event: int, text: str
) -> npt.NDArray[np.bool_]:
    """The blocks whose allocation metadata or annotations (up to `event`) contain `text`, case-insensitive."""
    needle = text.strip().lower()
    ids = block_lifetimes(timeline, state, event)
    if not needle or not len(ids):
        return np.zeros(len(ids), bool)
    strings = [i for i, s in enumerate(snapshot.strings) if needle in s.lower()]
    found: npt.NDArray[np.bool_] = (ids >= 0) & np.isin(_alloc_metadata(snapshot, timeline, ids), strings)
    noted = [
        k
        for k, notes in lifetime_annotations(snapshot, timeline).items()
        if any(row <= event and needle in t.lower() for row, t in notes)
    ]
    found |= (ids >= 0) & np.isin(ids, noted)
    return found


def _alloc_metadata(snapshot: Snapshot, timeline: DeviceTimeline, ids: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """The strings index of the user_metadata of each lifetime's alloc entry (-1: none, or alive from the start)."""
    trace = snapshot.trace(timeline.device)
    start = np.where(ids >= 0, timeline.lifetimes.start[np.maximum(ids, 0)], -1) if len(ids) else ids
    ok = (start >= 0) & (start < len(trace))
    out = np.full(len(ids), -1, np.int64)
    out[ok] = trace.user_metadata[start[ok]]
    return out


def _text(snapshot: Snapshot, index: int) -> str:
    return snapshot.strings[index] if 0 <= index < len(snapshot.strings) else ""
