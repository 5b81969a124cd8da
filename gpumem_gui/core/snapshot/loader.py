"""Open a snapshot from a path or bytes: detect gzip, JSON or pickle, refuse globals, convert to columns."""

from __future__ import annotations

import gzip
import io
import json
import mmap
import os
import pickle
import stat
import tempfile
import zlib
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager, suppress
from pathlib import Path
from typing import Any

from gpumem_gui.core.snapshot.budget import check_distinct_entries, check_expansion
from gpumem_gui.core.snapshot.convert import RowsCallback, snapshot_from_object, snapshot_from_pickle_fast
from gpumem_gui.core.snapshot.errors import SnapshotError, error
from gpumem_gui.core.snapshot.model import Snapshot
from gpumem_gui.core.snapshot.safe_unpickle import Refused, gc_paused, loads_no_globals
from gpumem_gui.core.snapshot.sentences import QT_TRANSLATE_NOOP, Sentence, as_is, say

GZIP_MAGIC = b"\x1f\x8b"
PICKLE_PROTO = 0x80  # the PROTO opcode that opens every pickle of protocol 2 and later
# Real snapshot pickles gzip 5 to 25 times smaller (the fixtures); zeros gzip a thousand times. Decompressed data may
# be GZIP_RATIO times the compressed size (at least GZIP_FLOOR) and half the memory available, whichever is less.
GZIP_RATIO = 200
GZIP_FLOOR = 64 << 20
# A gzip inside a gzip is decompressed as the outer one is (into a temporary file), its size bounded by the same
# limit, that of the file as it lies on disk; more layers than this are refused.
GZIP_LAYERS = 3
_CHUNK = 16 << 20
RELEASE_STEP = 64 << 20  # the compiled reader drops the mapped file behind it in steps of this many bytes
_KINDS = (
    (stat.S_ISDIR, QT_TRANSLATE_NOOP("SnapshotError", "is a directory, not a snapshot file")),
    (stat.S_ISFIFO, QT_TRANSLATE_NOOP("SnapshotError", "is a FIFO (named pipe), not a snapshot file")),
    (stat.S_ISCHR, QT_TRANSLATE_NOOP("SnapshotError", "is a character device, not a snapshot file")),
    (stat.S_ISBLK, QT_TRANSLATE_NOOP("SnapshotError", "is a block device, not a snapshot file")),
    (stat.S_ISSOCK, QT_TRANSLATE_NOOP("SnapshotError", "is a socket, not a snapshot file")),
)

Source = str | os.PathLike[str] | bytes | bytearray | memoryview


Buffer = bytes | mmap.mmap


@contextmanager
def opened(source: Source, name: str | None = None) -> Iterator[tuple[Buffer, str]]:
    """The snapshot's bytes, decompressed, and the label to name it by in messages.

    A file is mapped, not read: the compiled reader walks the mapping and drops the pages it has passed, so a
    2 GB file never sits in memory whole. A gzip file is decompressed, chunk by chunk and bounded, into an unlinked
    temporary file that is mapped the same way (a gzip inside it too, up to GZIP_LAYERS, each bounded by the limit
    of the file on disk). Bytes are used as they are (and decompressed in memory, as bounded)."""
    if isinstance(source, bytes | bytearray | memoryview):
        yield bytes(source), name or "<bytes>"
        return
    path = Path(source)
    label = name or str(path)
    with _open_regular(path, label) as f, _mapped(f, label) as mapped:
        if mapped[:2] != GZIP_MAGIC:
            yield mapped, label
            return
        compressed = os.fstat(f.fileno()).st_size
        gzip_empty = QT_TRANSLATE_NOOP("SnapshotError", "the gzip stream is empty")
        with _gunzipped_file(f, compressed, label) as plain, _mapped(plain, label, gzip_empty) as inner:
            yield inner, label


@contextmanager
def _gunzipped_file(f: Any, compressed: int, label: str) -> Iterator[Any]:
    """An unlinked temporary file holding the gzip data of `f` decompressed, layer after layer while it is gzip
    again, each layer bounded as the first (by the `compressed` size on disk)."""
    with ExitStack() as layers:
        source = f
        for _ in range(GZIP_LAYERS):
            plain = layers.enter_context(tempfile.TemporaryFile(prefix="gpumem-gui-"))
            _gunzip_to(source, compressed, plain, label)
            plain.seek(0)
            if plain.read(2) != GZIP_MAGIC:
                plain.seek(0)
                yield plain
                return
            plain.seek(0)
            source = plain
        raise SnapshotError(_too_deep(), label)


@contextmanager
def _open_regular(path: Path, label: str) -> Iterator[io.BufferedReader]:
    try:
        _check_regular(os.stat(path), label)  # before open(): opening a FIFO blocks until a writer comes
        # O_NONBLOCK: should the path become a FIFO after the stat, open() still returns, and fstat refuses it
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise SnapshotError(QT_TRANSLATE_NOOP("SnapshotError", "no such file"), label) from None
    except IsADirectoryError:
        raise SnapshotError(QT_TRANSLATE_NOOP("SnapshotError", "is a directory, not a snapshot file"), label) from None
    except PermissionError:
        raise SnapshotError(QT_TRANSLATE_NOOP("SnapshotError", "permission denied"), label) from None
    except OSError as e:
        raise SnapshotError(_cannot_read(e), label) from None
    with open(fd, "rb", closefd=True) as f:
        _check_regular(os.fstat(f.fileno()), label)
        yield f


@contextmanager
def _mapped(f: Any, label: str, empty: str | None = None) -> Iterator[mmap.mmap]:
    size = os.fstat(f.fileno()).st_size
    if size == 0:
        raise SnapshotError(empty or QT_TRANSLATE_NOOP("SnapshotError", "the file is empty"), label)
    try:
        mapped = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError) as e:
        raise SnapshotError(_cannot_read(e), label) from None
    try:
        yield mapped
    finally:
        with suppress(BufferError):  # a view still held (an exception's traceback): the mapping goes with it
            mapped.close()


def _check_regular(info: os.stat_result, label: str) -> None:
    # /dev/zero and /dev/urandom never end, a FIFO or a socket may never answer: only a regular file is read
    for test, words in _KINDS:
        if test(info.st_mode):
            raise SnapshotError(words, label)
    if not stat.S_ISREG(info.st_mode):
        raise SnapshotError(QT_TRANSLATE_NOOP("SnapshotError", "is not a regular file"), label)


def _cannot_read(e: BaseException) -> Sentence:
    # the system's words for why (strerror) are data: the window says them as they are
    reason = getattr(e, "strerror", None) or str(e)
    return say(QT_TRANSLATE_NOOP("SnapshotError", "cannot read: {reason}"), reason=as_is(reason))


def _too_deep() -> Sentence:
    return say(
        QT_TRANSLATE_NOOP("SnapshotError", "refused to load: gzip inside gzip more than {n} deep"), n=GZIP_LAYERS
    )


def _size(n: int) -> str:
    for unit, shift in (("GB", 30), ("MB", 20), ("KB", 10)):
        if n >= 1 << shift:
            return f"{n / (1 << shift):.{1 if n < 10 << shift else 0}f} {unit}"
    return f"{n} bytes"


def _gzip_limit(compressed: int) -> tuple[int, str]:
    # Decompressed data may be GZIP_RATIO times the compressed size (at least GZIP_FLOOR) and half the memory
    # available, whichever is less: a few MB of gzipped zeros would otherwise become gigabytes
    import psutil  # noqa: PLC0415 (only a gzip file asks: its import is a tenth of a report's fixed cost)

    memory = psutil.virtual_memory().available // 2
    limit = min(max(GZIP_RATIO * compressed, GZIP_FLOOR), memory)
    why = (
        QT_TRANSLATE_NOOP("SnapshotError", "half the memory available")
        if limit == memory
        else say(QT_TRANSLATE_NOOP("SnapshotError", "from {size}"), size=_size(compressed))
    )
    return limit, say(
        QT_TRANSLATE_NOOP("SnapshotError", "refused to load: the gzip data expands beyond {size} ({why})"),
        size=_size(limit),
        why=why,
    )


def _gunzip_chunks(raw: Any, compressed: int) -> Iterator[bytes]:
    limit, refusal = _gzip_limit(compressed)
    total = 0
    try:
        with gzip.GzipFile(fileobj=raw) as f:
            while chunk := f.read(min(_CHUNK, limit + 1 - total)):
                total += len(chunk)
                if total > limit:
                    raise SnapshotError(refusal)
                yield chunk
    except (OSError, EOFError, zlib.error) as e:
        raise error(QT_TRANSLATE_NOOP("SnapshotError", "corrupt gzip data ({reason})"), reason=as_is(e)) from None


def gunzip_bounded(data: bytes) -> bytes:
    """The decompressed gzip `data` (a gzip inside it too, up to GZIP_LAYERS), each layer refused once it expands
    beyond GZIP_RATIO times the size of `data` or half the memory available."""
    compressed = len(data)
    for _ in range(GZIP_LAYERS):
        data = b"".join(_gunzip_chunks(io.BytesIO(data), compressed))
        if data[:2] != GZIP_MAGIC:
            return data
    raise SnapshotError(_too_deep())


def _gunzip_to(raw: Any, compressed: int, out: Any, label: str) -> None:
    try:
        for chunk in _gunzip_chunks(raw, compressed):
            out.write(chunk)
        out.flush()
    except SnapshotError as e:
        raise e.with_source(label) from None
    except OSError as e:  # the temporary folder is full
        raise error(
            QT_TRANSLATE_NOOP("SnapshotError", "cannot decompress into {folder}: {reason}"),
            folder=tempfile.gettempdir(),
            reason=as_is(e.strerror or e),
        ).with_source(label) from None


def _decode(data: Buffer) -> tuple[Any, str, int]:
    """Python objects from snapshot bytes (pickle, JSON, either gzip-compressed), which form they were, and the
    size of the data once decompressed."""
    if not data:
        raise SnapshotError(QT_TRANSLATE_NOOP("SnapshotError", "the file is empty"))
    if data[:2] == GZIP_MAGIC:  # only bytes: opened() decompressed a file's layers already
        data = gunzip_bounded(bytes(data))
        if not data:
            raise SnapshotError(QT_TRANSLATE_NOOP("SnapshotError", "the gzip stream is empty"))
    head = data[:64].lstrip()
    if head[:1] in (b"{", b"["):
        try:
            # a mapped file is decoded as json.loads decodes bytes, without a copy of the bytes first
            text = data if isinstance(data, bytes) else str(data, json.detect_encoding(data[:4]), "surrogatepass")
            return json.loads(text), "json", len(data)
        except (UnicodeDecodeError, json.JSONDecodeError) as e:
            raise error(
                QT_TRANSLATE_NOOP("SnapshotError", "not valid JSON ({reason})"), reason=as_is(_first_line(e))
            ) from None
        except ValueError:  # an int past Python's digit limit (sys.get_int_max_str_digits), not a JSON syntax error
            raise error(
                QT_TRANSLATE_NOOP("SnapshotError", "a number in the JSON has more digits than Python reads ({n})"),
                n="4300",
            ) from None
        except RecursionError:
            raise SnapshotError(QT_TRANSLATE_NOOP("SnapshotError", "not valid JSON (nested too deeply)")) from None
    framed = data[0] == PICKLE_PROTO  # protocols 2-5; 0 and 1 have no header, so anything else is tried too
    if framed and len(data) > 1 and data[1] > pickle.HIGHEST_PROTOCOL:
        raise error(
            QT_TRANSLATE_NOOP("SnapshotError", "pickle protocol {protocol} is newer than this Python reads"),
            protocol=data[1],
        )
    try:
        return _unpickle(data), "pickle", len(data)
    except SnapshotError as e:
        if framed or isinstance(e, _Refused):
            raise
        raise SnapshotError(QT_TRANSLATE_NOOP("SnapshotError", "not a snapshot: neither a pickle nor JSON")) from None


def _unpickle(data: Buffer) -> Any:
    try:
        return loads_no_globals(data)
    except Refused as e:
        raise _Refused(e.args[0] if e.args and isinstance(e.args[0], str) else str(e)) from None  # a Sentence kept
    except (pickle.UnpicklingError, EOFError) as e:
        detail = _first_line(e)
        reason = as_is(detail) if detail else QT_TRANSLATE_NOOP("SnapshotError", "ran out of input")
        raise error(
            QT_TRANSLATE_NOOP("SnapshotError", "truncated or corrupt pickle ({reason})"), reason=reason
        ) from None
    except (
        ValueError,
        TypeError,
        KeyError,
        IndexError,
        AttributeError,
        OverflowError,
        UnicodeDecodeError,
    ) as e:
        raise error(
            QT_TRANSLATE_NOOP("SnapshotError", "corrupt pickle ({type}: {reason})"),
            type=type(e).__name__,
            reason=as_is(_first_line(e)),
        ) from None
    except RecursionError:
        raise SnapshotError(QT_TRANSLATE_NOOP("SnapshotError", "corrupt pickle (nested too deeply)")) from None
    except MemoryError:
        raise SnapshotError(
            QT_TRANSLATE_NOOP("SnapshotError", "corrupt pickle (it asks for more memory than there is)")
        ) from None


class _Refused(SnapshotError):
    """A refused global, EXT opcode, persistent id or memo bomb: reported as such even in data that is not a framed
    pickle."""


StateCallback = Callable[[Snapshot], None]


def load_snapshot(
    source: Source,
    name: str | None = None,
    on_state: StateCallback | None = None,
    on_rows: RowsCallback | None = None,
    *,
    stacks: bool = True,
) -> Snapshot:
    """Open a snapshot written by `torch.cuda.memory._dump_snapshot` (any version), a segment list, or JSON.

    `on_state`, when given, is called once with a Snapshot of the final state and no trace, as soon as the segments
    are read (the window draws the map while the trace is still being read); the returned Snapshot is the whole one.
    `stacks=False` is for what never names a stack or a site (the report's figures): the frames are checked, not
    read (the same errors), so every block and event has NO_STACK and `stacks` is an empty table, for less time.
    `on_rows`, when given, gets the action codes and sizes of the trace entries in batches as they are read (the
    compiled reader of a pickle only; every device's entries, in file order).
    Raises SnapshotError with a one-line message naming the file for anything that is not a readable snapshot.
    Globals in a pickle are refused, so a hostile file cannot run code.
    """
    told = False

    def segments_read(state: Snapshot) -> None:
        nonlocal told
        told = True
        assert on_state is not None  # only handed to the reader when given
        on_state(state)

    with opened(source, name) as (data, label):
        try:
            with gc_paused():  # the converter walks the unpickled dicts: a collection there would walk them all again
                snapshot = None
                if data[:1] == bytes([PICKLE_PROTO]):
                    step = RELEASE_STEP if isinstance(data, mmap.mmap) else 0
                    early = segments_read if on_state is not None else None
                    snapshot = snapshot_from_pickle_fast(data, label, early, step, stacks=stacks, on_rows=on_rows)
                if snapshot is None and data[:64].lstrip()[:1] == b"{":
                    snapshot = _json_fast(data, label, segments_read if on_state is not None else None)
                if snapshot is None:
                    obj, form, size = _decode(data)
                    check_expansion(
                        obj, size
                    )  # before the conversion makes a row at every place a memo reference names
                    check_distinct_entries(obj)
                    snapshot = snapshot_from_object(obj, label, form, stacks=stacks)
        except SnapshotError as e:
            raise e.with_source(label) from None
        except RecursionError:  # a structure nested thousands deep, compared or shown somewhere in the conversion
            raise SnapshotError(
                QT_TRANSLATE_NOOP("SnapshotError", "refused to load: the data is nested too deeply"), label
            ) from None
        except MemoryError:
            raise SnapshotError(
                QT_TRANSLATE_NOOP("SnapshotError", "refused to load: it needs more memory than there is"), label
            ) from None
    # the reader could not tell it earlier (segments not first, JSON it leaves to json.loads, pure)
    if on_state is not None and not told:
        on_state(snapshot.without_traces())
    return snapshot


def _json_fast(data: Buffer, label: str, on_state: StateCallback | None) -> Snapshot | None:
    # imported when a JSON file asks: a report of a pickle does not pay for msgspec's import
    from gpumem_gui.core.snapshot.json_reader import snapshot_from_json_fast  # noqa: PLC0415

    return snapshot_from_json_fast(data, label, on_state)


def _first_line(e: BaseException) -> str:
    text = str(e).strip()
    return text.splitlines()[0] if text else ""
