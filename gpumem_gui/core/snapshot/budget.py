"""How much a snapshot may make of a file of a given size: memo references must not multiply rows or memory."""

from __future__ import annotations

from typing import Any

from gpumem_gui.core.snapshot.errors import error
from gpumem_gui.core.snapshot.sentences import QT_TRANSLATE_NOOP

# A pickle can name one list or dict a million times with a 2-byte memo get (or a 1-byte DUP), and the conversion
# makes a row for every occurrence: a few bytes of file would become gigabytes. A real trace entry, block or segment
# takes 36 bytes or more of pickle (measured on every fixture; a dict with one key and value takes 8 at least), so
# rows are bounded at one per BYTES_PER_ROW bytes of (uncompressed) input, with room for small hand-made files.
BYTES_PER_ROW = 4
FREE_ROWS = 4096


def row_limit(nbytes: int) -> int:
    """The most segments, blocks, trace entries and annotation items a file of `nbytes` may hold."""
    return FREE_ROWS + nbytes // BYTES_PER_ROW


def check_expansion(obj: Any, nbytes: int) -> None:
    """Refuse an unpickled snapshot whose rows (segments, blocks, trace entries, annotation items, each counted at
    every place it occurs) outnumber what `nbytes` of pickle can hold. Costs one step per segment at most."""
    limit = row_limit(nbytes)
    rows = 0
    if isinstance(obj, dict):
        segments = obj.get("segments")
        for key in ("device_traces", "external_annotations"):
            lists = obj.get(key)
            if isinstance(lists, list):
                rows += len(lists)
                if rows > limit:
                    _refuse(rows, nbytes)
                for item in lists:  # a device's entries; an annotation's keys (each one is copied)
                    rows += len(item) if isinstance(item, list | dict) else 0
                    if rows > limit:
                        _refuse(rows, nbytes)
    else:
        segments = obj
    if not isinstance(segments, list):
        return
    rows += len(segments)
    if rows > limit:
        _refuse(rows, nbytes)
    for seg in segments:
        blocks = seg.get("blocks") if isinstance(seg, dict) else None
        rows += len(blocks) if isinstance(blocks, list) else 0
        if rows > limit:
            _refuse(rows, nbytes)


def check_distinct_entries(obj: Any) -> None:
    """Refuse a trace that holds one entry dict at two places (PyTorch writes a dict per event): the compiled
    reader refuses the memo reference that does it, this is its pure-Python twin on the unpickled lists."""
    traces = obj.get("device_traces") if isinstance(obj, dict) else None
    if not isinstance(traces, list):
        return
    for device, entries in enumerate(traces):
        if not isinstance(entries, list) or len(set(map(id, entries))) == len(entries):
            continue
        if all(isinstance(e, dict) for e in entries):  # other objects: the conversion says what they are
            raise error(
                QT_TRANSLATE_NOOP(
                    "SnapshotError", "refused to load: device {device} trace holds one entry at several places"
                ),
                device=device,
            )


def _refuse(rows: int, nbytes: int) -> None:
    raise error(
        QT_TRANSLATE_NOOP(
            "SnapshotError",
            "refused to load: more than {rows} segments, blocks and trace entries from {bytes} bytes of pickle "
            "(one entry repeated by reference?)",
        ),
        rows=f"{row_limit(nbytes):,}",
        bytes=f"{nbytes:,}",
    )
