"""JSON snapshots read with msgspec: trace entries go into the compiled columns, their frames decoded once per text."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from gpumem_gui.core.snapshot import convert
from gpumem_gui.core.snapshot.budget import check_expansion
from gpumem_gui.core.snapshot.errors import SnapshotError
from gpumem_gui.core.snapshot.model import Snapshot

try:  # the compiled columns (_columns.pyx); absent where no compiler built them
    from gpumem_gui.core.snapshot import _columns  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - depends on the install
    _columns = None

try:  # a dependency; where it is missing, json.loads reads every JSON snapshot (as the pure-Python twins do)
    import msgspec
except ImportError:  # pragma: no cover - depends on the install
    msgspec = None  # type: ignore[assignment]

if msgspec is not None:
    _UNSET: Any = msgspec.UNSET

    class _Entry(msgspec.Struct, forbid_unknown_fields=True, gc=False):
        """A trace entry with every key a snapshot's entries have (a key beyond them: the standard way reads the
        file, as msgspec would skip its value unchecked), its frames left as text."""

        action: Any = _UNSET
        addr: Any = _UNSET
        size: Any = _UNSET
        stream: Any = _UNSET
        time_us: Any = _UNSET
        frames: msgspec.Raw = _UNSET
        compile_context: Any = _UNSET
        user_metadata: Any = _UNSET
        pool_id: Any = _UNSET
        device_free: Any = _UNSET
        forward_frames: Any = _UNSET
        category: Any = _UNSET

    _KEYS = _Entry.__struct_fields__
    _TOP = msgspec.json.Decoder(dict[str, msgspec.Raw])
    _TRACES = msgspec.json.Decoder(list[list[_Entry]])
    _ANY = msgspec.json.Decoder()
    _FAILED: tuple[type[BaseException], ...] = (
        msgspec.MsgspecError,
        SnapshotError,
        RecursionError,
        ValueError,
        convert._RowsMisplaced,
    )


def snapshot_from_json_fast(
    data: Any, source: str, on_state: Callable[[Snapshot], None] | None = None
) -> Snapshot | None:
    """The snapshot in the JSON `data` (bytes or a mapped file), read without a tree of every entry and frame.

    json.loads of a 1M-event file makes some six million frame dicts, most of them repeats of a few thousand
    stacks, and the conversion then walks them all. Here the trace entries are decoded into small typed
    objects with their frames left as text, and go straight into the compiled columns: equal frames texts become
    one list, decoded once. The snapshot is the one json.loads and the conversion give (tests/test_json_reader.py).
    `on_state` gets the final state (no trace) as soon as the segments are read, before the trace.
    None when this way cannot be used (no msgspec, no compiled columns, GPUMEM_GUI_PURE_PYTHON) or the data is
    anything but a snapshot it reads whole (not UTF-8, NaN, a lone surrogate, an entry key it does not know, an
    error of any kind): the standard way then reads it and words the problem, so both refuse bad input alike.
    """
    if msgspec is None or _columns is None or os.environ.get("GPUMEM_GUI_PURE_PYTHON"):
        return None
    try:
        parts = _TOP.decode(data)
        traces_text = parts.pop("device_traces", None)
        root: dict[str, Any] = {key: _ANY.decode(value) for key, value in parts.items()}
        del parts
        check_expansion(root, len(data))
        state = convert.snapshot_from_object(root, source, "json") if on_state is not None else None
    except _FAILED:
        return None
    if on_state is not None and state is not None:  # outside the try: the caller's own errors are its own
        on_state(state)  # the window draws the map while the trace is read
    try:
        return _with_traces(root, traces_text, len(data), source)
    except _FAILED:
        return None


def _with_traces(root: dict[str, Any], traces_text: Any, nbytes: int, source: str) -> Snapshot:
    tables = convert._Tables()
    _pools_in_segment_order(root.get("segments"), tables)
    rows = tables.entry_columns()
    if traces_text is not None:
        frames_by_text: dict[bytes, Any] = {}
        devices = _TRACES.decode(traces_text)
        del traces_text
        # what the conversion reads rows for, counted before the rows are made (JSON shares no entry)
        root["device_traces"] = [[_columns.ENTRY] * len(entries) for entries in devices]
        check_expansion(root, nbytes)
        while devices:  # each device's entries freed once they are rows
            _columns.extract_fields(devices.pop(0), _KEYS, _UNSET, rows, frames_by_text, _ANY.decode)
    check_expansion(root, nbytes)
    return convert.snapshot_from_object(root, source, "json", tables=tables, rows=rows)


def _pools_in_segment_order(segments: Any, tables: Any) -> None:
    """Number the segments' pools first, as the standard way does (it converts the segments before the trace)."""
    for segment in segments if isinstance(segments, list) else ():
        pool = segment.get("segment_pool_id") if isinstance(segment, dict) else None
        if pool is not None:
            tables.pool(pool)
