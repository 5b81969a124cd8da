"""Conversion of the unpickled snapshot (dicts and lists) into the columnar model."""

from __future__ import annotations

import operator
import os
from collections.abc import Callable, Sequence
from itertools import repeat
from typing import Any

import numpy as np

from gpumem_gui.core.rules.allocator_constants import SMALL_BUFFER
from gpumem_gui.core.snapshot.budget import check_expansion
from gpumem_gui.core.snapshot.checks import (
    MAX_DEVICE,
    MAX_VALUE,
    check_layout,
    check_settings,
    check_totals,
    count,
    ends_overflow,
    metadata_problem,
    pool_pair,
    trace_error,
    trace_ints_fine,
    trace_where,
)
from gpumem_gui.core.snapshot.errors import SnapshotError, a_type, error
from gpumem_gui.core.snapshot.metadata import MetadataPairs, metadata_line, metadata_pairs
from gpumem_gui.core.snapshot.model import (
    ACTION_NAMES,
    DEFAULT_POOL,
    NO_STACK,
    STATE_NAMES,
    Action,
    AllocatorState,
    BlockState,
    BlockTable,
    SegmentTable,
    Snapshot,
    TraceTable,
)
from gpumem_gui.core.snapshot.recorded_with import (
    RECORDED_WITH_KEY,
    read_recorded_job,
    read_recorded_limits,
    read_recorded_with,
)
from gpumem_gui.core.snapshot.sentences import QT_TRANSLATE_NOOP, Sentence, as_is, say
from gpumem_gui.core.snapshot.stacks import StackInterner, unique_in_order

try:  # the compiled twin of _convert_trace_python (see _columns.pyx); absent where no compiler built it
    from gpumem_gui.core.snapshot import _columns  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - depends on the install
    _columns = None

# Trace-entry keys read into columns; any other key is looked at only in the rows that carry it.
_COLUMN_KEYS = (
    "action",
    "addr",
    "size",
    "stream",
    "time_us",
    "frames",
    "compile_context",
    "user_metadata",
    "pool_id",
)


class _ActionCodes(dict[Any, int]):
    def __missing__(self, key: Any) -> int:
        return int(Action.UNKNOWN)


_ACTION_CODES = _ActionCodes({name: int(code) for name, code in ACTION_NAMES.items()})


class _Tables:
    """The tables shared by segments and traces while one snapshot converts (`stacks`: StackInterner's)."""

    def __init__(self, stacks: bool = True) -> None:
        self.stacks = StackInterner(stacks)
        self.strings: list[str] = []
        self._string_index: dict[str, int] = {}
        self.metadata: dict[int, MetadataPairs] = {}  # strings index -> a dict user_metadata's pairs
        self._metadata_index: dict[MetadataPairs, int] = {}
        self.pool_ids: list[tuple[int, int]] = [DEFAULT_POOL]
        self._pool_index: dict[tuple[int, int], int] = {DEFAULT_POOL: 0}

    def string(self, value: Any) -> int:
        if value is None:
            return -1
        if not isinstance(value, str):  # the trace's own rules word it (checks.trace_error)
            raise SnapshotError("a string column holds something else")
        index = self._string_index.get(value)
        if index is None:
            index = self._string_index[value] = len(self.strings)
            self.strings.append(value)
        return index

    def user_metadata(self, value: Any) -> int:
        """A user_metadata's index into the strings: a dict's line is its own entry, whatever string equals it."""
        if not isinstance(value, dict):
            return self.string(value)
        if metadata_problem(value):  # the trace's own rules word it (checks.trace_error)
            raise SnapshotError("a user_metadata is out of bounds")
        pairs = metadata_pairs(value)
        index = self._metadata_index.get(pairs)
        if index is None:
            index = self._metadata_index[pairs] = len(self.strings)
            self.strings.append(metadata_line(pairs))
            self.metadata[index] = pairs
        return index

    def pool(self, value: Any) -> int:
        if value is None:
            return 0
        key = pool_pair(value, "a pool id")
        index = self._pool_index.get(key)
        if index is None:
            index = self._pool_index[key] = len(self.pool_ids)
            self.pool_ids.append(key)
        return index

    def entry_columns(self) -> Any:
        """Empty compiled columns whose codes come from these tables."""
        assert _columns is not None
        rows = _columns.EntryColumns(
            ({}, self._string_index, self._string_index, {}),
            (_action_code, self.string, self.user_metadata, _pool_or_none(self)),
            int(Action.UNKNOWN),
        )
        rows.owner = self
        return rows

    def intern_column(self, values: Sequence[Any], intern: Any) -> np.ndarray:
        """Index of each value, interning each distinct object once (pickles share repeated strings and tuples)."""
        n = len(values)
        ids = np.fromiter(map(id, values), np.int64, n)
        first, inverse = unique_in_order(ids)
        codes = np.fromiter((intern(values[i]) for i in first), np.int32, len(first))
        result: np.ndarray = codes[inverse]
        return result


# trace entries read between two calls of snapshot_from_pickle_fast's on_rows: about a tenth of a second's reading
ROWS_STEP = 100_000
RowsCallback = Callable[[np.ndarray, np.ndarray], None]


def snapshot_from_pickle_fast(
    data: Any,
    source: str,
    on_state: Callable[[Snapshot], None] | None = None,
    release_step: int = 0,
    *,
    stacks: bool = True,
    on_rows: RowsCallback | None = None,
) -> Snapshot | None:
    """The compiled pickle reader's way: trace entries go from bytes to columns without becoming dicts.

    `on_state` gets the final state (no trace) as soon as the segments are read, before the trace. With a
    `release_step` (bytes, a multiple of the page size), `data` is a read-only mapping of a file whose pages the
    reader drops in such steps once passed. With `stacks` False, no stack is read (snapshot_from_object's).
    `on_rows` gets the action codes and sizes of each batch of trace entries read (ROWS_STEP at a time, in file
    order, every device's), while the rest is read.
    None when it cannot be used here (not built, or a pickle it does not read): the standard way then decides.
    """
    if _columns is None or os.environ.get("GPUMEM_GUI_PURE_PYTHON"):
        return None
    tables = _Tables(stacks)
    rows = tables.entry_columns()

    def segments_read(segments: list[Any]) -> None:
        check_expansion(segments, len(data))
        assert on_state is not None
        on_state(snapshot_from_object(segments, source, "pickle", stacks=stacks))

    told = 0

    def rows_read(count: int) -> None:
        nonlocal told
        assert on_rows is not None
        action, size = rows.actions_and_sizes(told, count)
        told = count
        on_rows(action, size)

    try:
        obj = _columns.read_pickle(
            data, rows, segments_read if on_state else None, release_step, stacks, rows_read,
            ROWS_STEP if on_rows else 0,
        )  # fmt: skip
    except _columns.Unsupported:
        return None
    except _columns.ColumnError:
        return None  # the standard way reads it again and reports the problem with its usual words
    check_expansion(obj, len(data))  # before a row is made at every place a memo reference names
    try:
        return snapshot_from_object(obj, source, "pickle", tables=tables, rows=rows)
    except (SnapshotError, _RowsMisplaced):
        return None


class _RowsMisplaced(Exception):
    """Rows the reader took for trace entries do not line up with device_traces: read the standard way."""


def snapshot_from_object(
    obj: Any, source: str, form: str, *, tables: _Tables | None = None, rows: Any = None, stacks: bool = True
) -> Snapshot:
    """Build a Snapshot from what `pickle.load` or `json.load` returned; raise SnapshotError when it is not one.

    With `rows` (from the compiled pickle reader), trace entries already are columns and ENTRY stands for each.
    With `stacks` False (what `tables` says, when given), no stack is read: the frames are checked as reading them
    would (the same errors), every block and event has NO_STACK and the stack table is empty.
    """
    if isinstance(obj, list):
        if obj and not all(isinstance(s, dict) and "blocks" in s for s in obj):
            raise error(
                QT_TRANSLATE_NOOP("SnapshotError", "not a snapshot: a list, but not of segments (dicts with 'blocks')")
            )
        root: dict[str, Any] = {"segments": obj}
        form = "segments" if form == "pickle" else form
    elif isinstance(obj, dict):
        if "segments" not in obj:
            keys = ", ".join(sorted(map(str, obj))[:8]) or "none"
            raise error(
                QT_TRANSLATE_NOOP("SnapshotError", "not a snapshot: the dict has no 'segments' (its keys: {keys})"),
                keys=keys,
            )
        root = obj
    else:
        raise error(
            QT_TRANSLATE_NOOP(
                "SnapshotError",
                "not a snapshot: the file holds {type}, "
                "not the dict of torch.cuda.memory._dump_snapshot or a list of segments",
            ),
            type=a_type(obj),
        )
    segments = root["segments"]
    if not isinstance(segments, list):
        raise error(
            QT_TRANSLATE_NOOP("SnapshotError", "not a snapshot: 'segments' is {type}, not a list"),
            type=a_type(segments),
        )
    traces_raw = root.get("device_traces", [])
    if traces_raw is None:
        traces_raw = []
    if not isinstance(traces_raw, list) or not all(isinstance(t, list) for t in traces_raw):
        raise error(QT_TRANSLATE_NOOP("SnapshotError", "not a snapshot: 'device_traces' is not a list of lists"))

    tables = tables or _Tables(stacks)
    state, legacy, warnings = _convert_segments(segments, tables)
    if rows is not None:
        traces = _traces_from_rows(traces_raw, rows)
    else:
        traces = [_convert_trace(t, tables, device) for device, t in enumerate(traces_raw)]
    blocks = state.blocks
    check_totals([state.segments.total_size, blocks.size, blocks.requested_size, *(t.size for t in traces)])
    settings = root.get("allocator_settings")
    if isinstance(settings, dict):
        check_settings(settings)
    torch_version, device_memory = read_recorded_with(root.get(RECORDED_WITH_KEY))
    annotations = root.get("external_annotations")
    annotations = annotations if isinstance(annotations, list) else []
    return Snapshot(
        source=source,
        state=state,
        traces=traces,
        stacks=tables.stacks.table(),
        strings=tables.strings,
        metadata=tables.metadata,
        allocator_settings=dict(settings) if isinstance(settings, dict) else None,
        external_annotations=[dict(a) for a in annotations if isinstance(a, dict)],
        form="segments" if isinstance(obj, list) else form,
        legacy_blocks=legacy,
        warnings=warnings,
        torch_version=torch_version,
        device_memory=device_memory,
        memory_limit=read_recorded_limits(root.get(RECORDED_WITH_KEY), device_memory),
        job=read_recorded_job(root.get(RECORDED_WITH_KEY)),
    )


def _convert_segments(segments: list[Any], tables: _Tables) -> tuple[AllocatorState, bool, list[str]]:
    n = len(segments)
    device = np.zeros(n, np.int32)
    address = np.zeros(n, np.int64)
    total = np.zeros(n, np.int64)
    stream = np.zeros(n, np.int64)
    small = np.zeros(n, bool)
    pool = np.zeros(n, np.int32)
    expandable = np.zeros(n, bool)
    seg_frames: list[Any] = []
    block_rows: list[tuple[int, int, int, int, int]] = []  # segment, address, size, requested, state
    block_frames: list[Any] = []
    legacy = False
    for i, seg in enumerate(segments):
        if not isinstance(seg, dict):
            raise error(QT_TRANSLATE_NOOP("SnapshotError", "segment {i} is {type}, not a dict"), i=i, type=a_type(seg))
        for key in ("address", "total_size", "blocks"):
            if key not in seg:
                raise error(QT_TRANSLATE_NOOP("SnapshotError", "segment {i} has no {key}"), i=i, key=repr(key))
        address[i] = count(seg["address"], _seg_key(i, "address"))
        total[i] = count(seg["total_size"], _seg_key(i, "total_size"))
        blocks = seg["blocks"]
        device[i] = count(seg.get("device", 0), _seg_key(i, "device"), MAX_DEVICE)
        stream[i] = count(seg.get("stream", 0), _seg_key(i, "stream"))
        seg_type = seg.get("segment_type")
        small[i] = seg_type == "small" if seg_type is not None else int(total[i]) == SMALL_BUFFER
        pool_id = seg.get("segment_pool_id")
        pool[i] = tables.pool(None if pool_id is None else pool_pair(pool_id, _seg_key(i, "segment_pool_id")))
        expandable[i] = bool(seg.get("is_expandable", False))
        seg_frames.append(seg.get("frames"))
        if not isinstance(blocks, list):
            raise error(QT_TRANSLATE_NOOP("SnapshotError", "segment {i} has 'blocks' that is not a list"), i=i)
        offset = int(address[i])
        for j, block in enumerate(blocks):
            if not isinstance(block, dict):
                raise error(QT_TRANSLATE_NOOP("SnapshotError", "segment {i} block {j} is not a dict"), i=i, j=j)
            if "size" not in block or "state" not in block:
                absent = "size" if "size" not in block else "state"
                raise error(
                    QT_TRANSLATE_NOOP("SnapshotError", "segment {i} block {j} has no {key}"), i=i, j=j, key=repr(absent)
                )
            size = count(block["size"], _block_key(i, j, "size"))
            block_state = STATE_NAMES.get(block["state"]) if isinstance(block["state"], str) else None
            if block_state is None:
                raise error(
                    QT_TRANSLATE_NOOP("SnapshotError", "segment {i} block {j} has a bad 'state' ({state})"),
                    i=i,
                    j=j,
                    state=as_is(repr(block["state"])),  # quoted from the file: said as it is
                )
            if "requested_size" in block or "history" not in block:
                requested = block.get("requested_size", size)
                frames = block.get("frames")
            else:
                legacy = True  # torch 1.13/2.0: the newest history entry holds the request and its stack
                history = block.get("history")
                newest = history[0] if isinstance(history, list) and history and isinstance(history[0], dict) else {}
                requested = newest.get("real_size", size)
                frames = newest.get("frames")
            addr = count(block.get("address", offset), _block_key(i, j, "address"))
            requested = count(requested, _block_key(i, j, "requested_size"))
            block_rows.append((i, addr, size, requested, int(block_state)))
            block_frames.append(frames)
            offset = min(addr + size, MAX_VALUE)  # past it, check_layout refuses the block that ends beyond

    seg_stack = tables.stacks.intern_many(seg_frames)
    blk_stack = tables.stacks.intern_many(block_frames)
    rows = np.array(block_rows, dtype=np.int64).reshape(-1, 5)
    counts = np.bincount(rows[:, 0], minlength=n).astype(np.int64) if n else np.zeros(0, np.int64)
    warnings = check_layout(device, address, total, rows, counts)
    # Snapshots list segments by address within each device; keep that order whatever the file did.
    order = np.lexsort((address, device))
    blocks = BlockTable(
        rows[:, 0].astype(np.int32),
        rows[:, 1].copy(),
        rows[:, 2].copy(),
        rows[:, 3].copy(),
        rows[:, 4].astype(np.int8),
        blk_stack,
    )
    starts = np.zeros(n, np.int64)
    if n:
        starts[1:] = np.cumsum(counts)[:-1]
    state = AllocatorState(
        SegmentTable(device, address, total, stream, small, pool, expandable, seg_stack, starts, counts),
        blocks,
        tables.pool_ids,
    )
    if n and np.any(order != np.arange(n)):
        state = state.take_segments(order)
    return state, legacy, warnings


def _convert_trace(entries: list[Any], tables: _Tables, device: int) -> TraceTable:
    if not entries:
        return TraceTable.empty()
    compiled = _columns is not None and not os.environ.get("GPUMEM_GUI_PURE_PYTHON")
    try:
        if compiled:
            return _convert_trace_compiled(entries, tables, device)
        return _convert_trace_python(entries, tables, device)
    except SnapshotError:
        # the readers only detect a broken rule; the words for the first entry that breaks one come from one place
        raise trace_error(entries, trace_where(device)) from None


def _convert_trace_compiled(entries: list[Any], tables: _Tables, device: int) -> TraceTable:
    """The compiled twin of _convert_trace_python: one C pass over the dicts fills the columns."""
    assert _columns is not None
    rows = tables.entry_columns()
    try:
        _columns.extract(entries, rows)
    except _columns.ColumnError as e:
        raise SnapshotError(str(e)) from None
    return _trace_from_rows(rows, _row_columns(rows), 0, len(entries), device)


def _seg_key(i: int, key: str) -> Sentence:
    """A segment's key, as a message names it: "segment 3 'address'"."""
    return say(QT_TRANSLATE_NOOP("SnapshotError", "segment {i} {key}"), i=i, key=repr(key))


def _block_key(i: int, j: int, key: str) -> Sentence:
    """A block's key, as a message names it: "segment 3 block 0 'size'"."""
    return say(QT_TRANSLATE_NOOP("SnapshotError", "segment {i} block {j} {key}"), i=i, j=j, key=repr(key))


def _row_columns(rows: Any) -> tuple[Any, ...]:
    """The compiled reader's int columns, code columns and the stack of every row (interned in row order, as the
    pure twin interns its frames column)."""
    tables: _Tables = rows.owner
    stacks = tables.stacks.rows(rows)
    if stacks is None:
        raise SnapshotError("a 'frames' value is not a list")
    ints, codes = rows.take_arrays()
    return ints, codes, stacks


def _traces_from_rows(traces_raw: list[list[Any]], rows: Any) -> list[TraceTable]:
    assert _columns is not None
    offset = 0
    for entries in traces_raw:
        if entries.count(_columns.ENTRY) != len(entries):
            raise _RowsMisplaced
        offset += len(entries)
    if offset != rows.rows:
        raise _RowsMisplaced
    columns = _row_columns(rows)
    traces, offset = [], 0
    for device, entries in enumerate(traces_raw):
        n = len(entries)
        traces.append(_trace_from_rows(rows, columns, offset, offset + n, device) if n else TraceTable.empty())
        offset += n
    return traces


def _trace_from_rows(rows: Any, columns: tuple[Any, ...], start: int, stop: int, device: int) -> TraceTable:
    """One device's TraceTable from rows start..stop of the compiled reader's columns (_row_columns)."""
    where = trace_where(device)
    ints, codes = ([a[start:stop] for a in column] for column in columns[:2])
    n = stop - start
    if n == 0:
        return TraceTable.empty()
    if (codes[0] < 0).any():
        raise SnapshotError(f"{where}: entries have no 'action'")
    action = codes[0].astype(np.int8)
    unknown = {r - start: str(v) for r, v in rows.unknown_actions.items() if start <= r < stop}
    extras: dict[str, dict[int, Any]] = {}
    for r, pairs in rows.extras.items():
        if start <= r < stop:
            for key, value in pairs.items():
                extras.setdefault(key, {})[r - start] = value
    has_time = rows.all_present(3, start, stop)
    cols = {"action": action, "addr": ints[0], "size": ints[1], "stream": ints[2]}
    cols["time_us"] = ints[3] if has_time else np.zeros(n, np.int64)
    cols.update(stack=columns[2][start:stop], compile_context=codes[1], user_metadata=codes[2], pool=codes[3])
    return _trace_table(cols, has_time, extras, unknown, where)


def _action_code(value: Any) -> int:
    if not isinstance(value, str):  # checks.trace_error words it
        raise SnapshotError("an entry's action is not a string")
    return _ACTION_CODES[value]


def _convert_trace_python(entries: list[Any], tables: _Tables, device: int) -> TraceTable:
    n = len(entries)
    if not all(map(isinstance, entries, repeat(dict))):
        raise SnapshotError(f"device {device} trace holds entries that are not dicts")
    where = trace_where(device)
    lengths = np.fromiter(map(len, entries), np.int64, n)
    # Keys to read as columns: those the first and last entries carry (addr always: oom entries lack it).
    seen = set(entries[0]) | set(entries[-1]) | {"addr"}
    columns: dict[str, list[Any]] = {}
    expected = np.zeros(n, np.int64)  # how many of each entry's keys the columns account for
    for key in _COLUMN_KEYS:
        if key not in seen:
            continue
        try:
            values = list(map(operator.itemgetter(key), entries))
            expected += 1
        except KeyError:
            values = list(map(dict.get, entries, repeat(key)))
            expected += np.fromiter(map(operator.is_not, values, repeat(None)), bool, n)
        columns[key] = values
    if "action" not in columns or not all(map(isinstance, columns["action"], repeat(str))):
        raise SnapshotError(f"{where}: an entry has no 'action', or one that is not a string")

    # Entries with keys beyond the columns (oom's device_free, forward_frames, ...) are few: read them one by one.
    extras: dict[str, dict[int, Any]] = {}
    for row in np.flatnonzero(lengths > expected):
        for key, value in entries[row].items():
            if key not in columns:
                extras.setdefault(key, {})[int(row)] = value
    for key in [k for k in extras if k in _COLUMN_KEYS]:  # a column key only a few entries carry
        del extras[key]
        columns[key] = list(map(dict.get, entries, repeat(key)))

    action = np.fromiter(map(_ACTION_CODES.__getitem__, columns["action"]), np.int8, n)
    unknown = {int(r): str(columns["action"][r]) for r in np.flatnonzero(action == Action.UNKNOWN)}

    def ints(key: str) -> np.ndarray:
        values = columns.get(key)
        if values is None:
            return np.zeros(n, np.int64)
        if not trace_ints_fine(values):  # bools, floats, strings: checks.trace_error words it
            raise SnapshotError(f"{where}: an entry has a non-integer {key!r}")
        try:
            result = np.fromiter([0 if v is None else v for v in values], np.int64, n)
        except OverflowError:
            raise SnapshotError(f"{where}: an entry has an out-of-range {key!r}") from None
        if result.size and (result.min() < 0 or result.max() > MAX_VALUE):
            raise SnapshotError(f"{where}: an entry has an out-of-range {key!r}")
        return result

    time_values = columns.get("time_us")
    has_time = time_values is not None and all(map(operator.is_not, time_values, repeat(None)))
    frames = columns.get("frames")
    stack = tables.stacks.intern_many(frames) if frames is not None else np.full(n, NO_STACK, np.int32)

    def strings(key: str, intern: Callable[[Any], int] = tables.string) -> np.ndarray:
        values = columns.get(key)
        if values is None:
            return np.full(n, -1, np.int32)
        return tables.intern_column(values, intern)

    pools = columns.get("pool_id")
    pool = tables.intern_column(pools, _pool_or_none(tables)) if pools is not None else np.full(n, -1, np.int32)

    times = ints("time_us")  # checked even when only some entries have one, as the compiled reader checks them
    times = times if has_time else np.zeros(n, np.int64)
    cols = {"action": action, "addr": ints("addr"), "size": ints("size"), "stream": ints("stream"), "time_us": times}
    cols.update(stack=stack, compile_context=strings("compile_context"))
    cols["user_metadata"] = strings("user_metadata", tables.user_metadata)
    cols["pool"] = pool
    return _trace_table(cols, has_time, extras, unknown, where)


def _trace_table(
    cols: dict[str, np.ndarray],
    has_time: bool,
    extras: dict[str, dict[int, Any]],
    unknown: dict[int, str],
    where: str,
) -> TraceTable:
    """The TraceTable of the given columns, with the sparse extras (oom's device_free, forward_frames) read."""
    action = cols["action"]
    if ends_overflow(cols["addr"], cols["size"]):
        raise SnapshotError(f"{where}: an entry ends beyond 2^62 - 1")
    device_free = np.zeros(len(action), np.int64)
    for oom_row, value in extras.get("device_free", {}).items():
        device_free[oom_row] = count(
            value,
            say(
                QT_TRANSLATE_NOOP("SnapshotError", "{where} entry {row} {key}"),
                where=where,
                row=oom_row,
                key="'device_free'",
            ),
        )
    forward = {
        row: [str(line) for line in value]
        for row, value in extras.get("forward_frames", {}).items()
        if isinstance(value, list)
    }
    categories = {row: value for row, value in extras.get("category", {}).items() if isinstance(value, str)}
    return TraceTable(
        action=action,
        addr=cols["addr"],
        size=cols["size"],
        stream=cols["stream"],
        time_us=cols["time_us"],
        stack=cols["stack"],
        device_free=device_free,
        compile_context=cols["compile_context"],
        user_metadata=cols["user_metadata"],
        pool=cols["pool"],
        has_time=has_time,
        forward_frames=forward,
        unknown_actions=unknown,
        categories=categories,
    )


def _pool_or_none(tables: _Tables) -> Any:
    def intern(value: Any) -> int:
        return -1 if value is None else tables.pool(value)

    return intern


__all__ = ["BlockState", "snapshot_from_object"]
