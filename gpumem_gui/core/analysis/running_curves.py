"""Reserved and allocated memory as running sums over the trace events read so far: the curves a window draws while
the trace is still being read.

A trace's curves start where the memory held before recording began left them, which is known only once the whole
trace is read (the final state less every change). Until then the curves are the change since the trace's first
event: reserved memory goes up by a segment's size at segment_alloc and segment_map and down at segment_free and
segment_unmap; allocated memory goes up at alloc and down at free_completed. Only each CHUNK's extremes are kept,
so that a trace of millions of events costs a few MB while it is read.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from gpumem_gui.core.snapshot.model import Action

CHUNK = 64  # events whose extremes are kept as one
I64 = npt.NDArray[np.int64]
_GROW_RESERVED = (int(Action.SEGMENT_ALLOC), int(Action.SEGMENT_MAP))
_SHRINK_RESERVED = (int(Action.SEGMENT_FREE), int(Action.SEGMENT_UNMAP))


@dataclass(frozen=True)
class PartialCurves:
    """The curves of a trace's first `n_events` events, as column extremes: column k covers the events from
    `starts[k]` to the next column's start; each value is the change since the trace's first event."""

    n_events: int
    starts: I64
    reserved_low: I64
    reserved_high: I64
    allocated_low: I64
    allocated_high: I64


def deltas(action: npt.NDArray[np.integer], size: I64) -> tuple[I64, I64]:
    """Each event's change of reserved and of allocated memory."""
    size = size.astype(np.int64, copy=False)
    reserved = np.where(np.isin(action, _GROW_RESERVED), size, 0) - np.where(np.isin(action, _SHRINK_RESERVED), size, 0)
    allocated = np.where(action == Action.ALLOC, size, 0) - np.where(action == Action.FREE_COMPLETED, size, 0)
    return reserved.astype(np.int64), allocated.astype(np.int64)


class RunningCurves:
    """Fed the trace's events in order, in batches (`add`); `partial` gives the curves so far."""

    def __init__(self) -> None:
        self.n_events = 0
        self._now = np.zeros(2, np.int64)  # reserved, allocated after the last event added
        self._lows: list[npt.NDArray[np.int64]] = []  # per whole chunk: (2, chunks) arrays
        self._highs: list[npt.NDArray[np.int64]] = []
        self._tail = np.zeros((2, 0), np.int64)  # the values of the events after the last whole chunk

    def add(self, action: npt.NDArray[np.integer], size: I64) -> None:
        """The next events of the trace (their action codes and sizes)."""
        if not len(action):
            return
        values = np.cumsum(np.stack(deltas(action, size)), axis=1) + self._now[:, None]
        self._now = values[:, -1].copy()
        self.n_events += len(action)
        values = np.concatenate([self._tail, values], axis=1)
        whole = values.shape[1] // CHUNK * CHUNK
        if whole:
            chunks = values[:, :whole].reshape(2, -1, CHUNK)
            self._lows.append(chunks.min(axis=2))
            self._highs.append(chunks.max(axis=2))
        self._tail = values[:, whole:].copy()

    def partial(self, columns: int = 1024) -> PartialCurves:
        """The curves so far in at most `columns` columns (each chunk's extremes merged evenly into columns)."""
        lows = np.concatenate([*self._lows, np.zeros((2, 0), np.int64)], axis=1)
        highs = np.concatenate([*self._highs, np.zeros((2, 0), np.int64)], axis=1)
        if self._tail.shape[1]:
            lows = np.concatenate([lows, self._tail.min(axis=1, keepdims=True)], axis=1)
            highs = np.concatenate([highs, self._tail.max(axis=1, keepdims=True)], axis=1)
        n = lows.shape[1]
        if n == 0:
            empty = np.zeros(0, np.int64)
            return PartialCurves(0, empty, empty, empty, empty, empty)
        groups = np.unique((np.arange(min(n, columns), dtype=np.int64) * n) // min(n, columns))
        low = np.minimum.reduceat(lows, groups, axis=1)
        high = np.maximum.reduceat(highs, groups, axis=1)
        return PartialCurves(self.n_events, groups * CHUNK, low[0], high[0], low[1], high[1])
