"""Open a snapshot from a path or bytes: detect gzip, JSON or pickle, refuse globals, convert to columns."""

from __future__ import annotations

import gzip
import io
import json
import os
import pickle
import stat
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psutil

from gpumem_gui.core.snapshot.budget import check_distinct_entries, check_expansion
from gpumem_gui.core.snapshot.convert import snapshot_from_object, snapshot_from_pickle_fast
from gpumem_gui.core.snapshot.errors import SnapshotError
from gpumem_gui.core.snapshot.model import Snapshot
from gpumem_gui.core.snapshot.safe_unpickle import Refused, gc_paused, loads_no_globals

GZIP_MAGIC = b"\x1f\x8b"
PICKLE_PROTO = 0x80  # the PROTO opcode that opens every pickle of protocol 2 and later
# Real snapshot pickles gzip 5 to 25 times smaller (the fixtures); zeros gzip a thousand times. Decompressed data may
# be GZIP_RATIO times the compressed size (at least GZIP_FLOOR) and half the memory available, whichever is less.
GZIP_RATIO = 200
GZIP_FLOOR = 64 << 20
_CHUNK = 16 << 20
_KINDS = (
    (stat.S_ISDIR, "is a directory, not a snapshot file"),
    (stat.S_ISFIFO, "is a FIFO (named pipe), not a snapshot file"),
    (stat.S_ISCHR, "is a character device, not a snapshot file"),
    (stat.S_ISBLK, "is a block device, not a snapshot file"),
    (stat.S_ISSOCK, "is a socket, not a snapshot file"),
)

Source = str | os.PathLike[str] | bytes | bytearray | memoryview


def read_source(source: Source, name: str | None = None) -> tuple[bytes, str]:
    """The raw bytes of a path or buffer, and the label to name it by in messages."""
    if isinstance(source, bytes | bytearray | memoryview):
        return bytes(source), name or "<bytes>"
    path = Path(source)
    label = name or str(path)
    try:
        _check_regular(os.stat(path), label)  # before open(): opening a FIFO blocks until a writer comes
        # O_NONBLOCK: should the path become a FIFO after the stat, open() still returns, and fstat refuses it
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
        with open(fd, "rb", closefd=True) as f:
            info = os.fstat(f.fileno())
            _check_regular(info, label)
            _check_fits(info.st_size, label)
            return f.read(), label
    except FileNotFoundError:
        raise SnapshotError("no such file", label) from None
    except IsADirectoryError:
        raise SnapshotError("is a directory, not a snapshot file", label) from None
    except PermissionError:
        raise SnapshotError("permission denied", label) from None
    except MemoryError:
        raise SnapshotError("the file is larger than the memory available", label) from None
    except OSError as e:
        raise SnapshotError(f"cannot read: {e.strerror or e}", label) from None


def _check_regular(info: os.stat_result, label: str) -> None:
    # /dev/zero and /dev/urandom never end, a FIFO or a socket may never answer: only a regular file is read
    for test, words in _KINDS:
        if test(info.st_mode):
            raise SnapshotError(words, label)
    if not stat.S_ISREG(info.st_mode):
        raise SnapshotError("is not a regular file", label)


def _check_fits(size: int, label: str) -> None:
    available = psutil.virtual_memory().available
    if size > available:
        raise SnapshotError(f"the file is {_size(size)}, more than the {_size(available)} of memory available", label)


def _size(n: int) -> str:
    for unit, shift in (("GB", 30), ("MB", 20), ("KB", 10)):
        if n >= 1 << shift:
            return f"{n / (1 << shift):.{1 if n < 10 << shift else 0}f} {unit}"
    return f"{n} bytes"


def gunzip_bounded(data: bytes) -> bytes:
    """The decompressed gzip `data`, refused once it expands beyond GZIP_RATIO times its size or half the memory
    available: a few MB of gzipped zeros would otherwise become gigabytes."""
    memory = psutil.virtual_memory().available // 2
    limit = min(max(GZIP_RATIO * len(data), GZIP_FLOOR), memory)
    parts: list[bytes] = []
    total = 0
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(data)) as f:
            while chunk := f.read(min(_CHUNK, limit + 1 - total)):
                parts.append(chunk)
                total += len(chunk)
                if total > limit:
                    why = "half the memory available" if limit == memory else f"from {_size(len(data))}"
                    raise SnapshotError(f"refused to load: the gzip data expands beyond {_size(limit)} ({why})")
    except (OSError, EOFError, zlib.error) as e:
        raise SnapshotError(f"corrupt gzip data ({e})") from None
    return b"".join(parts)


def decode_snapshot_bytes(data: bytes) -> tuple[Any, str]:
    """Python objects from snapshot bytes (pickle, JSON, either gzip-compressed), and which form they were."""
    obj, form, _ = _decode(data)
    return obj, form


def _decode(data: bytes) -> tuple[Any, str, int]:
    """decode_snapshot_bytes, and the size of the data once decompressed."""
    if not data:
        raise SnapshotError("the file is empty")
    if data[:2] == GZIP_MAGIC:
        data = gunzip_bounded(data)
        if not data:
            raise SnapshotError("the gzip stream is empty")
    head = data[:64].lstrip()
    if head[:1] in (b"{", b"["):
        try:
            return json.loads(data), "json", len(data)
        except (UnicodeDecodeError, json.JSONDecodeError) as e:
            raise SnapshotError(f"not valid JSON ({_first_line(e)})") from None
        except ValueError:  # an int past Python's digit limit (sys.get_int_max_str_digits), not a JSON syntax error
            raise SnapshotError("a number in the JSON has more digits than Python reads (4300)") from None
        except RecursionError:
            raise SnapshotError("not valid JSON (nested too deeply)") from None
    framed = data[0] == PICKLE_PROTO  # protocols 2-5; 0 and 1 have no header, so anything else is tried too
    if framed and len(data) > 1 and data[1] > pickle.HIGHEST_PROTOCOL:
        raise SnapshotError(f"pickle protocol {data[1]} is newer than this Python reads")
    try:
        return _unpickle(data), "pickle", len(data)
    except SnapshotError as e:
        if framed or isinstance(e, _Refused):
            raise
        raise SnapshotError("not a snapshot: neither a pickle nor JSON") from None


def _unpickle(data: bytes) -> Any:
    try:
        return loads_no_globals(data)
    except Refused as e:
        raise _Refused(str(e)) from None
    except (pickle.UnpicklingError, EOFError) as e:
        raise SnapshotError(f"truncated or corrupt pickle ({_first_line(e) or 'ran out of input'})") from None
    except (
        ValueError,
        TypeError,
        KeyError,
        IndexError,
        AttributeError,
        OverflowError,
        UnicodeDecodeError,
    ) as e:
        raise SnapshotError(f"corrupt pickle ({type(e).__name__}: {_first_line(e)})") from None
    except RecursionError:
        raise SnapshotError("corrupt pickle (nested too deeply)") from None
    except MemoryError:
        raise SnapshotError("corrupt pickle (it asks for more memory than there is)") from None


class _Refused(SnapshotError):
    """A refused global, EXT opcode, persistent id or memo bomb: reported as such even in data that is not a framed
    pickle."""


StateCallback = Callable[[Snapshot], None]


def load_snapshot(source: Source, name: str | None = None, on_state: StateCallback | None = None) -> Snapshot:
    """Open a snapshot written by `torch.cuda.memory._dump_snapshot` (any version), a segment list, or JSON.

    `on_state`, when given, is called once with a Snapshot of the final state and no trace, as soon as the segments
    are read (the window draws the map while the trace is still being read); the returned Snapshot is the whole one.
    Raises SnapshotError with a one-line message naming the file for anything that is not a readable snapshot.
    Globals in a pickle are refused, so a hostile file cannot run code.
    """
    snapshot = _load(source, name)
    if on_state is not None:
        on_state(snapshot.without_traces())
    return snapshot


def _load(source: Source, name: str | None) -> Snapshot:
    data, label = read_source(source, name)
    try:
        with gc_paused():  # the converter walks the unpickled dicts: a collection there would walk them all again
            if data[:1] == bytes([PICKLE_PROTO]):
                fast = snapshot_from_pickle_fast(data, label)
                if fast is not None:
                    return fast
            obj, form, size = _decode(data)
            check_expansion(obj, size)  # before the conversion makes a row at every place a memo reference names
            check_distinct_entries(obj)
            del data
            return snapshot_from_object(obj, label, form)
    except SnapshotError as e:
        raise e.with_source(label) from None
    except RecursionError:  # a structure nested thousands deep, compared or shown somewhere in the conversion
        raise SnapshotError("refused to load: the data is nested too deeply", label) from None
    except MemoryError:
        raise SnapshotError("refused to load: it needs more memory than there is", label) from None


def _first_line(e: BaseException) -> str:
    text = str(e).strip()
    return text.splitlines()[0] if text else ""
