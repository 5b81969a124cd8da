"""Named numpy arrays and a JSON header in one flat file, read back as copy-on-write views of a memory map.

How the loading worker hands hundreds of MB of columns to the window: writing is one pass of raw bytes and reading
costs nothing until a page is touched (a zip of .npy files, as np.savez writes, is copied and checksummed both
ways: a second per 400 MB). The header names each array's dtype, shape and offset; only plain numeric dtypes are
accepted, so reading never unpickles anything.
"""

from __future__ import annotations

import ctypes
import functools
import json
import math
import mmap
import os
import struct
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np

MAGIC = b"GPUMEMGUI-ARRAYS-1\n"
ALIGN = 64  # each array starts on a cache line, so its view is aligned for any dtype
_LENGTH = struct.Struct("<Q")
MAX_DIMENSIONS = 8
# made new, only for its owner, and never through a link someone planted at the name (the hand-over folder is
# private already; this holds wherever the file is written)
_CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0)
_OPEN = os.O_RDONLY | os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0)


class ArrayFileError(ValueError):
    """The file is not one write_arrays made, or it was cut short."""


def write_arrays(path: str | Path, arrays: dict[str, np.ndarray], meta: dict[str, Any], *, drain: bool = False) -> None:
    """Write `arrays` (C-contiguous copies where they are not) and `meta` (anything json.dumps takes) to `path`.

    With `drain`, each array leaves `arrays` once written: where nothing else holds it, its memory is freed before the
    next is written, and the file's new pages take the pages just freed (_trim). On a virtual machine whose host
    takes back the guest's free memory, a page never touched before costs tens of times more to fill (the hand-over
    of 350 MB at 3M events: 1.4 s of writes, against 0.1 s into pages just freed), and the worker's RSS falls as the
    file grows."""
    entries: list[dict[str, Any]] = []
    offset = 0
    for name, array in arrays.items():
        if array.dtype.hasobject or array.dtype.kind not in "biufc":
            raise TypeError(f"{name}: only numeric arrays travel ({array.dtype})")
        entries.append({"name": name, "dtype": array.dtype.str, "shape": list(array.shape), "offset": offset})
        offset += _aligned(array.nbytes)
    header = json.dumps({"arrays": entries, "meta": meta}).encode()
    start = _aligned(len(MAGIC) + _LENGTH.size + len(header))
    with new_private_file(path) as f:
        f.write(MAGIC + _LENGTH.pack(len(header)) + header)
        for entry, name in zip(entries, list(arrays), strict=True):
            f.seek(start + entry["offset"])
            _write(f, np.ascontiguousarray(arrays.pop(name) if drain else arrays[name]))
            if drain:
                _trim()
        f.truncate(start + offset)


def _trim() -> None:
    """The pages of the arrays just freed given back to the system: glibc keeps a freed block of less than its mmap
    threshold (which grows up to 32 MB as big blocks are freed) in its heap, where the file's pages cannot take it."""
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


@functools.cache
def _malloc_trim() -> Any:
    """glibc's malloc_trim, or None where there is none (nothing to give back this way)."""
    try:
        return ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return None


class ArrayWriter:
    """write_arrays one array at a time, for a writer that makes them one after another and need not hold them all:
    each array goes to the file as it is added, the header (which names them all) is written at close. The same
    file as write_arrays gives for the same arrays, but for spaces after the header's JSON: the arrays start after
    `reserve` bytes, and a header longer than that moves them further on in place."""

    def __init__(self, path: str | Path, reserve: int = 1 << 20) -> None:
        self.start = _aligned(max(reserve, len(MAGIC) + _LENGTH.size + 2))
        self.entries: list[dict[str, Any]] = []
        self.offset = 0
        # read too: a header longer than `reserve` moves the arrays already written
        self.file = os.fdopen(os.open(path, (_CREATE & ~os.O_WRONLY) | os.O_RDWR, 0o600), "r+b")

    def add(self, name: str, array: np.ndarray) -> None:
        """Write `array` (a C-contiguous copy where it is not) as `name`."""
        if array.dtype.hasobject or array.dtype.kind not in "biufc":
            raise TypeError(f"{name}: only numeric arrays travel ({array.dtype})")
        self.entries.append({"name": name, "dtype": array.dtype.str, "shape": list(array.shape), "offset": self.offset})
        self.file.seek(self.start + self.offset)
        _write(self.file, np.ascontiguousarray(array))
        self.offset += _aligned(array.nbytes)

    def close(self, meta: dict[str, Any]) -> None:
        """Write the header with `meta` and close the file."""
        with self.file as f:
            header = json.dumps({"arrays": self.entries, "meta": meta}).encode()
            room = self.start - len(MAGIC) - _LENGTH.size
            if len(header) > room:  # the arrays move on to where write_arrays would have put them
                start = _aligned(len(MAGIC) + _LENGTH.size + len(header))
                _move(f, self.start, start, self.offset)
                self.start, room = start, start - len(MAGIC) - _LENGTH.size
            # JSON allows whitespace after the value: the header fills its room, so the arrays start where written
            f.seek(0)
            f.write(MAGIC + _LENGTH.pack(room) + header.ljust(room))
            f.truncate(self.start + self.offset)

    def abandon(self) -> None:
        """Close the file unfinished (the caller removes it)."""
        self.file.close()


_MOVE_STEP = 16 << 20  # bytes read and written at once when the arrays move on


def _move(f: BinaryIO, old: int, new: int, length: int) -> None:
    """Move `length` bytes of `f` from `old` to `new` (> old), from the end backwards so nothing is overwritten."""
    step = _MOVE_STEP
    f.flush()
    fd = f.fileno()
    end = length
    while end > 0:
        lo = max(0, end - step)
        chunk = os.pread(fd, end - lo, old + lo)
        os.pwrite(fd, chunk, new + lo)
        end = lo


def new_private_file(path: str | Path) -> BinaryIO:
    """`path` made new for writing, readable by its owner alone; FileExistsError rather than through a planted link
    or over a file someone else made (the loading worker's hand-over, a live session's snapshots)."""
    return os.fdopen(os.open(path, _CREATE, 0o600), "wb")


# bytes handed to one write call: on the virtual machine measured (Linux 6.18, ext4), the loading worker's hand-over
# of 350 MB at 3M events cost 0.6 s of system CPU written a column per call (up to 24 MB) and 0.12 s written 1 MB per
# call (4 MB: as cheap, 16 MB: 0.4 s), the same bytes into the same file; 350 calls cost nothing to speak of
_WRITE_STEP = 1 << 20


def _write(f: BinaryIO, array: np.ndarray) -> None:
    data = array.reshape(-1).view(np.uint8).data
    for at in range(0, len(data), _WRITE_STEP):
        f.write(data[at : at + _WRITE_STEP])


def _aligned(n: int) -> int:
    return -(-n // ALIGN) * ALIGN


def read_arrays(path: str | Path) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """The arrays and meta `path` holds. The arrays are writable views of a private (copy-on-write) map of the
    file: the file may be removed at once, and a write to an array never reaches it. Anything the header says is
    checked against the file before it is used (ArrayFileError, one line, otherwise)."""
    try:
        fd = os.open(path, _OPEN)
    except OSError as e:
        raise ArrayFileError(f"{path}: {e.strerror or e}") from None
    with os.fdopen(fd, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        head = f.read(len(MAGIC) + _LENGTH.size)
        if len(head) < len(MAGIC) + _LENGTH.size or not head.startswith(MAGIC):
            raise ArrayFileError(f"{path}: not an array file")
        (length,) = _LENGTH.unpack(head[len(MAGIC) :])
        if length > size:
            raise ArrayFileError(f"{path}: its header runs past its end")
        try:
            header = json.loads(f.read(length))
        except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as e:
            raise ArrayFileError(f"{path}: unreadable header ({type(e).__name__})") from None
        start = _aligned(len(MAGIC) + _LENGTH.size + length)
        entries, meta = _checked_header(path, header)
        mapped = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_COPY) if size else None
    arrays = {}
    for name, dtype, shape, offset in entries:
        count = math.prod(shape)  # Python's ints: a forged shape cannot wrap around to a small count
        at = start + offset
        if count * dtype.itemsize > size - at:
            raise ArrayFileError(f"{path}: {name} runs past the end of the file")
        flat = np.frombuffer(mapped, dtype, count, at) if count and mapped is not None else np.zeros(0, dtype)
        arrays[name] = flat.reshape(shape)
    return arrays, meta


def _checked_header(path: str | Path, header: Any) -> tuple[list[tuple[str, np.dtype[Any], tuple[int, ...], int]], Any]:
    """The header's entries as (name, dtype, shape, offset), each value of the type and range write_arrays gives."""

    def bad(what: str) -> ArrayFileError:
        return ArrayFileError(f"{path}: {what}")

    if not isinstance(header, dict) or not isinstance(header.get("arrays"), list) or "meta" not in header:
        raise bad("its header is not an array file's")
    entries = []
    for entry in header["arrays"]:
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            raise bad("an array without a name")
        name, dtype_text, shape, offset = entry["name"], entry.get("dtype"), entry.get("shape"), entry.get("offset")
        if not isinstance(dtype_text, str) or len(dtype_text) > 8:
            raise bad(f"{name} has no dtype")
        try:
            dtype = np.dtype(dtype_text)
        except (TypeError, ValueError, SyntaxError):
            raise bad(f"{name} has dtype {dtype_text!r}") from None
        if dtype.hasobject or dtype.kind not in "biufc" or dtype.shape or dtype.names:
            raise bad(f"{name} has dtype {dtype}")
        if (
            not isinstance(shape, list)
            or len(shape) > MAX_DIMENSIONS
            or any(type(n) is not int or n < 0 for n in shape)
        ):
            raise bad(f"{name} has shape {str(shape)[:40]}")
        if type(offset) is not int or offset < 0 or offset % ALIGN:
            raise bad(f"{name} runs past the end of the file (offset {str(offset)[:40]})")
        entries.append((name, dtype, tuple(shape), offset))
    return entries, header["meta"]
