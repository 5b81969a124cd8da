"""Open a snapshot from a path or bytes: detect gzip, JSON or pickle, refuse globals, convert to columns."""

from __future__ import annotations

import gzip
import json
import os
import pickle
import zlib
from pathlib import Path
from typing import Any

from gpumem_gui.core.snapshot.convert import snapshot_from_object, snapshot_from_pickle_fast
from gpumem_gui.core.snapshot.errors import SnapshotError
from gpumem_gui.core.snapshot.model import Snapshot
from gpumem_gui.core.snapshot.safe_unpickle import RefusedGlobal, gc_paused, loads_no_globals

GZIP_MAGIC = b"\x1f\x8b"
PICKLE_PROTO = 0x80  # the PROTO opcode that opens every pickle of protocol 2 and later

Source = str | os.PathLike[str] | bytes | bytearray | memoryview


def read_source(source: Source, name: str | None = None) -> tuple[bytes, str]:
    """The raw bytes of a path or buffer, and the label to name it by in messages."""
    if isinstance(source, bytes | bytearray | memoryview):
        return bytes(source), name or "<bytes>"
    path = Path(source)
    label = name or str(path)
    try:
        return path.read_bytes(), label
    except FileNotFoundError:
        raise SnapshotError("no such file", label) from None
    except IsADirectoryError:
        raise SnapshotError("is a directory, not a snapshot file", label) from None
    except PermissionError:
        raise SnapshotError("permission denied", label) from None
    except OSError as e:
        raise SnapshotError(f"cannot read: {e.strerror or e}", label) from None


def decode_snapshot_bytes(data: bytes) -> tuple[Any, str]:
    """Python objects from snapshot bytes (pickle, JSON, either gzip-compressed), and which form they were."""
    if not data:
        raise SnapshotError("the file is empty")
    if data[:2] == GZIP_MAGIC:
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError, zlib.error) as e:
            raise SnapshotError(f"corrupt gzip data ({e})") from None
        if not data:
            raise SnapshotError("the gzip stream is empty")
    head = data[:64].lstrip()
    if head[:1] in (b"{", b"["):
        try:
            return json.loads(data), "json"
        except (UnicodeDecodeError, json.JSONDecodeError) as e:
            raise SnapshotError(f"not valid JSON ({_first_line(e)})") from None
        except RecursionError:
            raise SnapshotError("not valid JSON (nested too deeply)") from None
    framed = data[0] == PICKLE_PROTO  # protocols 2-5; 0 and 1 have no header, so anything else is tried too
    if framed and len(data) > 1 and data[1] > pickle.HIGHEST_PROTOCOL:
        raise SnapshotError(f"pickle protocol {data[1]} is newer than this Python reads")
    try:
        return _unpickle(data), "pickle"
    except SnapshotError as e:
        if framed or isinstance(e, _Refused):
            raise
        raise SnapshotError("not a snapshot: neither a pickle nor JSON") from None


def _unpickle(data: bytes) -> Any:
    try:
        return loads_no_globals(data)
    except RefusedGlobal as e:
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
    """A refused global: reported as such even in data that is not a framed pickle."""


def load_snapshot(source: Source, name: str | None = None) -> Snapshot:
    """Open a snapshot written by `torch.cuda.memory._dump_snapshot` (any version), a segment list, or JSON.

    Raises SnapshotError with a one-line message naming the file for anything that is not a readable snapshot.
    Globals in a pickle are refused, so a hostile file cannot run code.
    """
    data, label = read_source(source, name)
    try:
        with gc_paused():  # the converter walks the unpickled dicts: a collection there would walk them all again
            if data[:1] == bytes([PICKLE_PROTO]):
                fast = snapshot_from_pickle_fast(data, label)
                if fast is not None:
                    return fast
            obj, form = decode_snapshot_bytes(data)
            del data
            return snapshot_from_object(obj, label, form)
    except SnapshotError as e:
        raise e.with_source(label) from None


def _first_line(e: BaseException) -> str:
    text = str(e).strip()
    return text.splitlines()[0] if text else ""
