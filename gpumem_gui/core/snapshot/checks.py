"""The rules a snapshot's numbers and layout must follow, and the one-line words for the first value that breaks one.

Both readers (the compiled columns and the pure-Python ones) only detect that something is wrong; the message always
comes from here, so the two can only ever refuse the same file with the same words.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gpumem_gui.core.snapshot.errors import SnapshotError, a_type, error
from gpumem_gui.core.snapshot.sentences import QT_TRANSLATE_NOOP, Sentence, as_is, joined, say

# Every address, size, stream, time and pool id lives in an int64 column, and the replays add and round them: below
# 2^62 no end (address + rounded size) and no total can pass 2^63 in the compiled twin while the pure one goes on.
# No device comes near: CUDA addresses use 49 bits, times in microseconds 51.
MAX_VALUE = (1 << 62) - 1
MAX_DEVICE = (1 << 31) - 1  # the device column is int32
TRACE_INT_KEYS = ("addr", "size", "stream", "time_us")  # the order the compiled reader numbers them in
STRING_KEYS = ("compile_context",)
# user_metadata: a string, or (PyTorch's viewer shows both; post-2.13 _set_memory_metadata takes one) a dict of
# string keys. A dict is bounded like everything else: so many keys, so deep, so much text once written out.
MAX_METADATA_KEYS = 64
MAX_METADATA_DEPTH = 4
MAX_METADATA_TEXT = 4096


def shown(value: Any) -> str:
    """A short, safe description of `value` for a message: never a huge repr, never str() of a 5000-digit int."""
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, int):
        bits = abs(value).bit_length()
        return str(value) if bits <= 128 else say(QT_TRANSLATE_NOOP("SnapshotError", "a {bits}-bit integer"), bits=bits)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str | bytes):
        text = repr(value[:40])
        return as_is(f"{text}..." if len(value) > 40 else text)  # quoted from the file: said as it is
    return a_type(value)


def count_problem(value: Any, limit: int = MAX_VALUE) -> str | None:
    """Why `value` is not a count, address or id in 0..limit (None when it is one)."""
    if type(value) is not int:  # bool and float included: pickles and JSON give exact ints for these fields
        return say(QT_TRANSLATE_NOOP("SnapshotError", "is {value}, not an integer"), value=shown(value))
    if value < 0:
        return say(QT_TRANSLATE_NOOP("SnapshotError", "is {value}, below zero"), value=shown(value))
    if value > limit:
        beyond = "2^62 - 1" if limit == MAX_VALUE else str(limit)
        return say(QT_TRANSLATE_NOOP("SnapshotError", "is {value}, beyond {limit}"), value=shown(value), limit=beyond)
    return None


def count(value: Any, what: str, limit: int = MAX_VALUE) -> int:
    """`value` when it is an integer in 0..limit, else SnapshotError naming `what` and the value."""
    problem = count_problem(value, limit)
    if problem:
        raise SnapshotError(joined((what, problem), " "))
    return int(value)


def pool_problem(value: Any) -> str | None:
    """Why `value` is not a pool id (a pair of integers in 0..2^62 - 1), or None."""
    if not isinstance(value, tuple | list) or len(value) != 2:
        return say(QT_TRANSLATE_NOOP("SnapshotError", "is {value}, not a pair of integers"), value=shown(value))
    for part in value:
        problem = count_problem(part)
        if problem:
            return say(QT_TRANSLATE_NOOP("SnapshotError", "holds a value that {problem}"), problem=problem)
    return None


def pool_pair(value: Any, what: str) -> tuple[int, int]:
    problem = pool_problem(value)
    if problem:
        raise SnapshotError(joined((what, problem), " "))
    return int(value[0]), int(value[1])


def _entry_problem(entry: Any) -> str | None:
    if not isinstance(entry, dict):
        return say(QT_TRANSLATE_NOOP("SnapshotError", "is {type}, not a dict"), type=a_type(entry))
    if "action" not in entry:
        return say(QT_TRANSLATE_NOOP("SnapshotError", "has no {key}"), key="'action'")
    if not isinstance(entry["action"], str):
        return say(
            QT_TRANSLATE_NOOP("SnapshotError", "has an {key} that is {value}, not a string"),
            key="'action'",
            value=shown(entry["action"]),
        )
    for key in TRACE_INT_KEYS:
        value = entry.get(key)
        problem = None if value is None else count_problem(value)
        if problem:
            return say(QT_TRANSLATE_NOOP("SnapshotError", "has a {key} that {problem}"), key=repr(key), problem=problem)
    addr, size = entry.get("addr"), entry.get("size")
    if isinstance(addr, int) and isinstance(size, int) and addr + size > MAX_VALUE:
        return say(
            QT_TRANSLATE_NOOP("SnapshotError", "ends beyond 2^62 - 1 ('addr' {addr} + 'size' {size})"),
            addr=shown(addr),
            size=shown(size),
        )
    pool = entry.get("pool_id")
    problem = None if pool is None else pool_problem(pool)
    if problem:
        return say(QT_TRANSLATE_NOOP("SnapshotError", "has a {key} that {problem}"), key="'pool_id'", problem=problem)
    for key in STRING_KEYS:
        value = entry.get(key)
        if value is not None and not isinstance(value, str):
            return say(
                QT_TRANSLATE_NOOP("SnapshotError", "has a {key} that is {value}, not a string"),
                key=repr(key),
                value=shown(value),
            )
    metadata = entry.get("user_metadata")
    problem = None if metadata is None else metadata_problem(metadata)
    if problem:
        return say(
            QT_TRANSLATE_NOOP("SnapshotError", "has a {key} that {problem}"), key="'user_metadata'", problem=problem
        )
    frames = entry.get("frames")
    if frames is not None:
        if not isinstance(frames, list | tuple):
            return say(
                QT_TRANSLATE_NOOP("SnapshotError", "has 'frames' that is {value}, not a list"), value=shown(frames)
            )
        for frame in frames:
            if not isinstance(frame, dict):
                return say(
                    QT_TRANSLATE_NOOP("SnapshotError", "has a stack frame that is {value}, not a dict"),
                    value=shown(frame),
                )
    if "device_free" in entry:
        problem = count_problem(entry["device_free"])
        if problem:
            return say(
                QT_TRANSLATE_NOOP("SnapshotError", "has a {key} that {problem}"), key="'device_free'", problem=problem
            )
    return None


def metadata_problem(value: Any) -> str | None:
    """Why `value` is not a user_metadata (a string, or a bounded dict of string keys), or None."""
    if isinstance(value, str):
        return None
    if not isinstance(value, dict):
        return say(QT_TRANSLATE_NOOP("SnapshotError", "is {value}, not a string or a dict"), value=shown(value))
    if len(value) > MAX_METADATA_KEYS:
        return say(
            QT_TRANSLATE_NOOP("SnapshotError", "is a dict of {n} keys, beyond {limit}"),
            n=len(value),
            limit=MAX_METADATA_KEYS,
        )
    if not all(isinstance(key, str) for key in value):
        return QT_TRANSLATE_NOOP("SnapshotError", "is a dict whose keys are not all strings")
    if _depth(value, MAX_METADATA_DEPTH + 1) > MAX_METADATA_DEPTH:
        return say(QT_TRANSLATE_NOOP("SnapshotError", "is a dict nested deeper than {limit}"), limit=MAX_METADATA_DEPTH)
    return None


def _depth(value: Any, stop: int) -> int:
    """How deep dicts and lists nest in `value` (a scalar is 0), counted no further than `stop`."""
    if stop <= 0 or not isinstance(value, dict | list | tuple):
        return 0
    items = value.values() if isinstance(value, dict) else value
    return 1 + max((_depth(item, stop - 1) for item in items), default=0)


def trace_where(device: int) -> Sentence:
    """What a trace error names first: "device 0 trace"."""
    return say(QT_TRANSLATE_NOOP("SnapshotError", "device {device} trace"), device=device)


def trace_error(entries: list[Any], where: str) -> SnapshotError:
    """The error for the first entry of `entries` that breaks a rule (both readers raise this, whatever they saw)."""
    for i, entry in enumerate(entries):
        problem = _entry_problem(entry)
        if problem:
            return error(
                QT_TRANSLATE_NOOP("SnapshotError", "{where}: entry {i} {problem}"), where=where, i=i, problem=problem
            )
    return error(
        QT_TRANSLATE_NOOP("SnapshotError", "{where}: an entry cannot be read"), where=where
    )  # a reader saw what these rules miss: a bug


def trace_ints_fine(values: list[Any]) -> bool:
    """Whether every value of a trace int column is an int (not bool) or None: a fast pre-check of the rules."""
    return set(map(type, values)) <= {int, type(None)}


def ends_overflow(addr: np.ndarray, size: np.ndarray) -> bool:
    """Whether some addr + size (both already checked in 0..2^62 - 1) passes 2^62 - 1."""
    if not len(addr) or int(addr.max()) <= MAX_VALUE - int(size.max()):
        return False  # two reductions settle every real trace, without two temporaries the trace's length
    return bool(np.any(addr > MAX_VALUE - size))


def check_layout(
    device: np.ndarray, address: np.ndarray, total: np.ndarray, blocks: np.ndarray, counts: np.ndarray
) -> list[str]:
    """Refuse a layout the allocator cannot have; return warnings for one it could show, oddly.

    `blocks` rows are (segment, address, size, requested, state) in file order, each segment's blocks together.
    Refused: a block outside its segment (a block larger than its segment included), blocks that overlap or go
    backwards, segments that overlap. Every figure of such a file (free bytes, fragmentation, the map) would be
    nonsense, "reserved -512 B" included. Warned: blocks that leave part of their segment uncovered (or segments
    without blocks): the figures stay true of what is listed, and the window says what is missing.
    """
    n = len(address)
    ends = address + total
    if n and np.any(address > MAX_VALUE - total):
        i = int(np.flatnonzero(address > MAX_VALUE - total)[0])
        raise error(
            QT_TRANSLATE_NOOP("SnapshotError", "segment {i} ends beyond 2^62 - 1 (address {address})"),
            i=i,
            address=shown(int(address[i])),
        )
    seg, b_addr, b_size = blocks[:, 0], blocks[:, 1], blocks[:, 2]
    if len(b_addr) and np.any(b_addr > MAX_VALUE - b_size):
        j = int(np.flatnonzero(b_addr > MAX_VALUE - b_size)[0])
        raise error(
            QT_TRANSLATE_NOOP("SnapshotError", "segment {i}: a block at {address} ends beyond 2^62 - 1"),
            i=int(seg[j]),
            address=f"{int(b_addr[j]):#x}",
        )
    b_end = b_addr + b_size
    outside = (b_addr < address[seg]) | (b_end > ends[seg]) if len(seg) else np.zeros(0, bool)
    if outside.any():
        j = int(np.flatnonzero(outside)[0])
        i = int(seg[j])
        raise error(
            QT_TRANSLATE_NOOP(
                "SnapshotError", "segment {i} ({address}, {size} bytes) has a block outside it ({at}, {bytes} bytes)"
            ),
            i=i,
            address=f"{int(address[i]):#x}",
            size=int(total[i]),
            at=f"{int(b_addr[j]):#x}",
            bytes=int(b_size[j]),
        )
    if len(seg) > 1:
        same = seg[1:] == seg[:-1]
        back = same & (b_addr[1:] < b_end[:-1])
        if back.any():
            j = int(np.flatnonzero(back)[0]) + 1
            raise error(
                QT_TRANSLATE_NOOP("SnapshotError", "segment {i} has blocks that overlap or are out of order (at {at})"),
                i=int(seg[j]),
                at=f"{int(b_addr[j]):#x}",
            )
    order = np.lexsort((address, device))
    if n > 1:
        d, a, e = device[order], address[order], ends[order]
        clash = (d[1:] == d[:-1]) & (a[1:] < e[:-1])
        if clash.any():
            k = int(np.flatnonzero(clash)[0])
            raise error(
                QT_TRANSLATE_NOOP("SnapshotError", "segments {i} and {j} overlap (at {at} on device {device})"),
                i=int(order[k]),
                j=int(order[k + 1]),
                at=f"{int(a[k + 1]):#x}",
                device=int(d[k]),
            )
    covered = np.zeros(n, np.int64)
    np.add.at(covered, seg, b_size)  # no overflow: the blocks of a segment were just found disjoint inside it
    short = np.flatnonzero(covered != total)
    warnings: list[str] = []
    for i in short[:5].tolist():
        if counts[i] == 0:
            what = QT_TRANSLATE_NOOP("Warnings", "no blocks")
        else:
            what = say(
                QT_TRANSLATE_NOOP("Warnings", "blocks that cover {covered} of its {total} bytes"),
                covered=int(covered[i]),
                total=int(total[i]),
            )
        warnings.append(
            say(
                QT_TRANSLATE_NOOP(
                    "Warnings", "segment {segment} at {address} has {what}: the rest of it is in no block"
                ),
                segment=i,
                address=f"{int(address[i]):#x}",
                what=what,
            )
        )
    if len(short) > 5:
        warnings.append(
            say(
                QT_TRANSLATE_NOOP("Warnings", "{n} more segments whose blocks do not add up to their size"),
                n=len(short) - 5,
            )
        )
    return warnings


def check_totals(sizes: list[np.ndarray]) -> None:
    """Refuse a file whose sizes add up beyond 2^62 bytes: a replay's running totals must fit int64 in both twins."""
    total = sum(float(a.sum(dtype=np.float64)) for a in sizes)
    if total > MAX_VALUE:
        raise error(
            QT_TRANSLATE_NOOP(
                "SnapshotError", "its sizes add up to about 2^{power} bytes, beyond what any device holds"
            ),
            power=int(np.log2(total)),
        )


MAX_DIVISIONS = 1 << 32  # far above any real roundup_power2_divisions; past 2^62 the compiled rounding overflows


def check_settings(settings: dict[Any, Any]) -> None:
    """Refuse `allocator_settings` values that the allocator rules could not read (or the twins would read apart)."""
    where = "allocator_settings"
    split = settings.get("max_split_size", -1)
    if split != -1:
        count(split, _key(where, "max_split_size"))
    divisions = settings.get("roundup_power2_divisions")
    if isinstance(divisions, dict):
        divisions = list(divisions.values())
    if isinstance(divisions, list | tuple):
        for value in divisions:
            what = say(
                QT_TRANSLATE_NOOP("SnapshotError", "{where} {key} holds a value that"),
                where=where,
                key="'roundup_power2_divisions'",
            )
            count(value, what, MAX_DIVISIONS)
    elif divisions is not None:
        raise error(
            QT_TRANSLATE_NOOP("SnapshotError", "{where} {key} is {value}, not a table"),
            where=where,
            key="'roundup_power2_divisions'",
            value=shown(divisions),
        )
    threshold = settings.get("garbage_collection_threshold")
    if threshold is not None and (
        type(threshold) not in (int, float) or not 0.0 <= threshold <= 1.0  # NaN fails the comparison too
    ):
        raise error(
            QT_TRANSLATE_NOOP("SnapshotError", "{where} {key} is {value}, not a number in 0..1"),
            where=where,
            key="'garbage_collection_threshold'",
            value=shown(threshold),
        )
    conf = settings.get("PYTORCH_CUDA_ALLOC_CONF")
    if conf is not None and not isinstance(conf, str):
        raise error(
            QT_TRANSLATE_NOOP("SnapshotError", "{where} {key} is {value}, not a string"),
            where=where,
            key="'PYTORCH_CUDA_ALLOC_CONF'",
            value=shown(conf),
        )


def _key(where: str, key: str) -> Sentence:
    """`where` and a key in it, as a message names them: "allocator_settings 'max_split_size'" (data both)."""
    return Sentence("", "{where} {key}", {"where": where, "key": repr(key)})
