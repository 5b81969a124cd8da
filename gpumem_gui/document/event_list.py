"""The event list's rows: which trace events a filter keeps (numpy, millions at once), and one row's cells on demand."""

from __future__ import annotations

import operator
from dataclasses import dataclass, replace
from pathlib import PurePath
from typing import Any, Literal, overload

import numpy as np
import numpy.typing as npt

from gpumem_gui.core.analysis.timeline_digest import PASS_CHUNK, trace_streams
from gpumem_gui.core.analysis.timetravel import DeviceTimeline
from gpumem_gui.core.snapshot.model import I64, Action, Snapshot
from gpumem_gui.core.snapshot.stacks import site_frame
from gpumem_gui.core.snapshot.units import format_bytes
from gpumem_gui.document.events import action_label, format_elapsed

EventKind = Literal["all", "allocations", "frees", "segments", "maps", "ooms", "markers"]

# each kind, its words for the filter's menu, and the actions it keeps
KINDS: dict[EventKind, tuple[str, tuple[Action, ...]]] = {
    "all": ("all events", tuple(Action)),
    "allocations": ("allocations", (Action.ALLOC,)),
    "frees": ("frees", (Action.FREE_REQUESTED, Action.FREE_COMPLETED)),
    "segments": ("cudaMalloc/cudaFree (segments)", (Action.SEGMENT_ALLOC, Action.SEGMENT_FREE)),
    "maps": ("segment map/unmap", (Action.SEGMENT_MAP, Action.SEGMENT_UNMAP)),
    "ooms": ("OOMs", (Action.OOM,)),
    "markers": ("snapshots and annotations", (Action.SNAPSHOT, Action.USER_DEFINED, Action.ANNOTATE)),
}

COLUMNS = ("#", "time", "action", "size", "address", "stream", "site")
# the list's words where the inspector's are long: the column stays narrow enough to leave room for the frame
SHORT_LABELS: dict[int, str] = {Action.SEGMENT_ALLOC: "cudaMalloc", Action.SEGMENT_FREE: "cudaFree"}
BACKSLASH = "\\"  # Windows paths in frames (seen in real files)
_ROW_CACHE = 1024  # rows whose cells are kept: a screenful many times over, never the whole trace
# the passes over a whole trace go PASS_CHUNK events per numpy call: the list is made in a thread of the GUI process


@dataclass(frozen=True)
class RowRange:
    """The rows of a list that keeps every event from `start` to `stop` - 1, in order (no filter, or a span alone):
    what np.arange(start, stop) would hold, without the array (24 MB for 3M events). Indexed and sliced as the
    array would be; np.asarray and tolist() make the array for whoever asks for it."""

    start: int
    stop: int

    def __len__(self) -> int:
        return max(0, self.stop - self.start)

    @overload
    def __getitem__(self, key: int) -> int: ...
    @overload
    def __getitem__(self, key: slice) -> I64: ...
    def __getitem__(self, key: int | slice) -> int | I64:
        if isinstance(key, slice):
            return np.arange(self.start, max(self.start, self.stop), dtype=np.int64)[key]  # what the array gives
        n = len(self)
        i = operator.index(key)
        if not -n <= i < n:
            raise IndexError(f"row {i} of {n}")
        return self.start + (i if i >= 0 else n + i)

    def __array__(self, dtype: npt.DTypeLike | None = None, copy: bool | None = None) -> npt.NDArray[Any]:
        rows = np.arange(self.start, max(self.start, self.stop), dtype=np.int64)
        return rows if dtype is None else rows.astype(dtype, copy=False)

    def tolist(self) -> list[int]:
        return list(range(self.start, max(self.start, self.stop)))

    def within(self, first: int, last: int) -> RowRange:
        """The rows from event `first` to event `last`, both kept."""
        start = min(max(self.start, first), self.stop)
        return RowRange(start, max(start, min(self.stop, last + 1)))


Rows = I64 | RowRange  # a filter's rows: ascending trace indices


@dataclass(frozen=True)
class EventFilter:
    """Which events the list shows: a kind, a least `size` (the trace's size: the request for alloc and free), a
    stream (None: every stream)."""

    kind: EventKind = "all"
    min_size: int = 0
    stream: int | None = None
    span: tuple[int, int] | None = None  # the first and last event kept (a span's events), None: the whole trace


class EventTable:
    """One device's trace as the event list reads it: the filter's index array, and each row's short cells."""

    def __init__(self, snapshot: Snapshot, device: int, timeline: DeviceTimeline | None = None) -> None:
        self.snapshot = snapshot
        self.device = device
        self.trace = snapshot.trace(device)
        self.block_sizes = timeline.block_sizes if timeline is not None else None
        self.digest = timeline.digest if timeline is not None and timeline.device == device else None
        self._top_frames: dict[int, str] = {}  # stack index -> its top user frame (stacks repeat a lot)
        self._cells: dict[int, tuple[str, ...]] = {}
        self._streams: list[int] | None = None

    def __len__(self) -> int:
        return len(self.trace)

    def streams(self) -> list[int]:
        """The distinct streams of the trace (the loading worker's, else found here)."""
        if self._streams is None:
            self._streams = list(self.digest.streams) if self.digest is not None else trace_streams(self.trace)
        return self._streams

    def filter(self, flt: EventFilter) -> Rows:
        """The ascending trace indices `flt` keeps: a RowRange where it keeps every event (of its span)."""
        if flt.span is not None:
            rows = self.filter(replace(flt, span=None))
            first, last = flt.span
            if isinstance(rows, RowRange):
                return rows.within(first, last)
            return rows[int(np.searchsorted(rows, first, "left")) : int(np.searchsorted(rows, last, "right"))]
        trace = self.trace
        n = len(trace)
        if flt.kind == "all" and flt.min_size <= 0 and flt.stream is None:
            return RowRange(0, n)
        keep = np.zeros(256, bool)  # a lookup table over the action codes: one gather per chunk of the trace
        keep[[int(a) for a in KINDS[flt.kind][1]]] = True
        actions = trace.action.view(np.uint8)
        parts = []
        for lo in range(0, n, PASS_CHUNK):
            hi = min(lo + PASS_CHUNK, n)
            mask = keep[actions[lo:hi]]
            if flt.min_size > 0:
                mask &= trace.size[lo:hi] >= flt.min_size
            if flt.stream is not None:
                mask &= trace.stream[lo:hi] == flt.stream
            parts.append(np.flatnonzero(mask) + lo)
        return np.concatenate(parts).astype(np.int64, copy=False) if parts else np.zeros(0, np.int64)

    def cells(self, index: int) -> tuple[str, ...]:
        """Event `index`'s cells, in COLUMNS order (made when a row is drawn, kept for a while)."""
        found = self._cells.get(index)
        if found is None:
            if len(self._cells) >= _ROW_CACHE:
                self._cells.clear()
            found = self._cells[index] = self._make_cells(index)
        return found

    def _make_cells(self, i: int) -> tuple[str, ...]:
        t = self.trace
        code = int(t.action[i])
        time = format_elapsed(int(t.time_us[i] - t.time_us[0])) if t.has_time else ""
        address = "" if code in (Action.OOM, Action.SNAPSHOT) else f"{int(t.addr[i]):#x}"
        return (
            f"{i:,}",
            time,
            SHORT_LABELS.get(code) or action_label(t, i),
            format_bytes(int(t.size[i])),
            address,
            str(int(t.stream[i])),
            self.top_frame(int(t.stack[i])),
        )

    def block_size(self, index: int) -> int | None:
        """The allocator's block for an alloc or free event (None without a timeline, or for other events)."""
        if self.block_sizes is None or not 0 <= index < len(self.block_sizes) or self.block_sizes[index] <= 0:
            return None
        return int(self.block_sizes[index])

    def top_frame(self, stack: int) -> str:
        """The stack's innermost user frame as `name (file.py:line)`; empty without one."""
        found = self._top_frames.get(stack)
        if found is None:
            # the stack's site: the innermost frame of the user's code (not the allocator's C++, not torch's Python)
            top = site_frame(self.snapshot.stacks.stack(stack))
            found = f"{top.name} ({PurePath(top.filename.replace(BACKSLASH, '/')).name}:{top.line})" if top else ""
            self._top_frames[stack] = found
        return found


def prepared_table(
    snapshot: Snapshot, device: int, timeline: DeviceTimeline | None, flt: EventFilter
) -> tuple[EventTable, Rows]:
    """An EventTable with its per-event passes made (its streams, the rows `flt` keeps): for a task to make off the
    GUI thread, which then only hands the finished table to the list."""
    table = EventTable(snapshot, device, timeline)
    table.streams()
    if flt.stream is not None and flt.stream not in table.streams():
        flt = EventFilter(flt.kind, flt.min_size, None)
    return table, table.filter(flt)


def row_of(indices: Rows, event: int) -> int:
    """The row showing `event`, or else the last row before it (-1 where none is)."""
    if isinstance(indices, RowRange):
        return min(max(event + 1 - indices.start, 0), len(indices)) - 1
    return int(np.searchsorted(indices, event, "right")) - 1
