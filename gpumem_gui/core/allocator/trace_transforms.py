"""A recorded trace changed the way a program change would change it: blocks dropped, resized, freed for a while.

A change is given per block lifetime of the device's timeline (LifetimeEdits): never allocated (`drop`), its size
times `scale`, or freed right after trace row `hole_from` and allocated again right before row `hole_to` (never
again when `hole_to` is NEVER). Rows are added and removed with numpy over the trace's columns; the changed trace
keeps the recorded addresses as the names of blocks (the replay gives them its own), so a block freed for a while
comes back under its own name: no other block held that address between the two rows in the recording.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from gpumem_gui.core.analysis.timetravel import NEVER, Lifetimes
from gpumem_gui.core.rules.allocator_constants import MIN_BLOCK_SIZE
from gpumem_gui.core.snapshot.model import I64, Action, TraceTable

NO_HOLE = -2  # hole_from of a lifetime that is not freed for a while
_COLUMNS: tuple[str, ...] = ("action", "addr", "size", "stream", "time_us", "stack", "device_free")
_COLUMNS += ("compile_context", "user_metadata", "pool")


@dataclass(frozen=True)
class LifetimeEdits:
    """Per lifetime of a timeline (arrays in the order of Lifetimes), how the changed program treats it."""

    drop: npt.NDArray[np.bool_]  # never allocated (a block alive before the trace: free before it)
    scale: npt.NDArray[np.float64]  # its size times this (1: the same)
    hole_from: I64  # freed right after this trace row (NO_HOLE: not freed for a while)
    hole_to: I64  # allocated again right before this row (NEVER: not again; its own frees are then left out)

    @classmethod
    def none(cls, n: int) -> LifetimeEdits:
        return cls(np.zeros(n, bool), np.ones(n), np.full(n, NO_HOLE, np.int64), np.full(n, NEVER, np.int64))

    def changed(self) -> npt.NDArray[np.bool_]:
        return np.asarray(self.drop | (self.scale != 1.0) | (self.hole_from != NO_HOLE))


@dataclass(frozen=True)
class ChangedTrace:
    """The trace a changed program would record, and how its rows stand for the recorded ones."""

    trace: TraceTable
    rows: I64  # per recorded row, the changed row at or before it that stands for it (-1: none yet)
    source: I64  # per changed row, the recorded row it is or was inserted next to
    freed_at_start: frozenset[int]  # addresses of blocks alive before the trace that the change frees
    stop: int  # the last recorded row kept (rows after it are cut: the program ends there)

    def recorded_row(self, changed_row: int | None) -> int | None:
        """The recorded row a changed row stands for (None stays None)."""
        return None if changed_row is None else int(self.source[min(changed_row, len(self.source) - 1)])


def scaled_size(size: npt.NDArray[np.int64], scale: npt.NDArray[np.float64]) -> I64:
    """Sizes times `scale`, rounded up as the allocator rounds a request (512 bytes), never below 512."""
    raw = np.ceil(size.astype(np.float64) * scale)
    out: I64 = np.maximum(np.ceil(raw / MIN_BLOCK_SIZE), 1).astype(np.int64) * MIN_BLOCK_SIZE
    return np.where(scale == 1.0, size, out)


def change_trace(
    trace: TraceTable,
    life: Lifetimes,
    edits: LifetimeEdits,
    *,
    stop: int | None = None,
    request_scale: float = 1.0,
) -> ChangedTrace:
    """`trace` as the program changed by `edits` would record it, cut after row `stop` (default: none cut); the
    OOM row `stop`, when it is one, asks for its size times `request_scale`."""
    n = len(trace)
    stop = n - 1 if stop is None else stop
    keep = np.zeros(n, bool)
    keep[: stop + 1] = True
    sizes = trace.size.copy()
    started = life.start >= 0
    pend = np.where((life.pend >= 0) & (life.pend < n), life.pend, -1)
    end = np.where((life.end >= 0) & (life.end < n), life.end, -1)

    def rows_of(ids: npt.NDArray[np.int64], *columns: I64) -> I64:
        found = np.concatenate([c[ids] for c in columns]) if len(ids) else np.zeros(0, np.int64)
        return found[found >= 0]

    dropped = np.flatnonzero(edits.drop)
    keep[rows_of(dropped, np.where(started, life.start, -1), pend, end)] = False
    freed_at_start = frozenset(int(a) for a in life.addr[dropped[~started[dropped]]])

    resized = np.flatnonzero((edits.scale != 1.0) & started & ~edits.drop)
    new_size = scaled_size(trace.size[life.start[resized]], edits.scale[resized])
    for column in (life.start, pend, end):
        rows = column[resized]
        sizes[rows[rows >= 0]] = new_size[rows >= 0]
    if stop < n and trace.action[stop] == Action.OOM and request_scale != 1.0:
        sizes[stop] = int(scaled_size(sizes[stop : stop + 1], np.array([request_scale]))[0])

    holes = np.flatnonzero((edits.hole_from != NO_HOLE) & started & ~edits.drop)
    holes = holes[edits.hole_from[holes] < np.minimum(edits.hole_to[holes], stop + 1)]
    never = holes[edits.hole_to[holes] >= n]
    keep[rows_of(never, pend, end)] = False
    # inserted rows: a free (requested, then completed at once) right after hole_from, an alloc right before hole_to
    back = holes[edits.hole_to[holes] <= stop]
    alloc_row = life.start[holes]
    free_src = np.repeat(alloc_row, 2)
    free_action = np.tile(np.array([Action.FREE_REQUESTED, Action.FREE_COMPLETED], np.int8), len(holes))
    free_key = np.repeat(edits.hole_from[holes] * 4 + 3, 2)
    free_at = np.repeat(edits.hole_from[holes], 2)
    alloc_src = life.start[back]
    alloc_key = edits.hole_to[back] * 4
    alloc_at = edits.hole_to[back]

    kept = np.flatnonzero(keep)
    src = np.concatenate([kept, free_src, alloc_src])
    at = np.concatenate([kept, free_at, alloc_at])  # the recorded row each changed row stands next to
    key = np.concatenate([kept * 4 + 2, free_key, alloc_key])
    action = np.concatenate([trace.action[kept], free_action, trace.action[alloc_src]])
    order = np.argsort(key, kind="stable")
    columns = {name: getattr(trace, name)[src[order]] for name in _COLUMNS}
    columns["size"] = sizes[src[order]]
    columns["action"] = action[order]
    columns["device_free"] = np.where(columns["action"] == Action.OOM, columns["device_free"], 0)
    columns["time_us"] = trace.time_us[np.minimum(at[order], n - 1)] if n else columns["time_us"]
    changed = dataclasses.replace(
        trace,
        **columns,
        forward_frames={},
        unknown_actions={},
        categories={},
    )
    source = at[order].astype(np.int64)
    rows = np.full(n, -1, np.int64)
    position = np.empty(len(order), np.int64)
    position[order] = np.arange(len(order))
    rows[kept] = position[: len(kept)]
    rows = np.maximum.accumulate(rows) if n else rows
    return ChangedTrace(changed, rows, source, freed_at_start, stop)


def unchanged(trace: TraceTable, stop: int | None = None) -> ChangedTrace:
    """The recorded trace itself, cut after row `stop` (the very same trace where nothing is cut)."""
    n = len(trace)
    if stop is None or stop >= n - 1:
        rows = np.arange(n, dtype=np.int64)
        return ChangedTrace(trace, rows, rows, frozenset(), n - 1)
    empty = Lifetimes(*(np.zeros(0, np.int64) for _ in range(7)))
    return change_trace(trace, empty, LifetimeEdits.none(0), stop=stop if stop is not None else n - 1)


def live_bytes_at(life: Lifetimes, moment: int, edits: LifetimeEdits | None = None) -> int:
    """Bytes allocated right after row `moment`, as recorded (no `edits`) or as the changed program holds them."""
    live = (life.start <= moment) & (life.pend > moment)
    size = life.size.astype(np.float64)
    if edits is not None:
        live &= ~edits.drop
        live &= ~((edits.hole_from != NO_HOLE) & (edits.hole_from <= moment) & (moment < edits.hole_to))
        size = np.where(edits.scale != 1.0, scaled_size(life.size, edits.scale), life.size).astype(np.float64)
    return int(size[live].sum())
