"""Named numpy arrays and a JSON header in one flat file, read back as copy-on-write views of a memory map.

How the loading worker hands hundreds of MB of columns to the window: writing is one pass of raw bytes and reading
costs nothing until a page is touched (a zip of .npy files, as np.savez writes, is copied and checksummed both
ways: a second per 400 MB). The header names each array's dtype, shape and offset; only plain numeric dtypes are
accepted, so reading never unpickles anything.
"""

from __future__ import annotations

import json
import mmap
import os
import struct
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np

MAGIC = b"GPUMEMGUI-ARRAYS-1\n"
ALIGN = 64  # each array starts on a cache line, so its view is aligned for any dtype
_LENGTH = struct.Struct("<Q")


class ArrayFileError(ValueError):
    """The file is not one write_arrays made, or it was cut short."""


def write_arrays(path: str | Path, arrays: dict[str, np.ndarray], meta: dict[str, Any]) -> None:
    """Write `arrays` (C-contiguous copies where they are not) and `meta` (anything json.dumps takes) to `path`."""
    entries: list[dict[str, Any]] = []
    offset = 0
    for name, array in arrays.items():
        if array.dtype.hasobject or array.dtype.kind not in "biufc":
            raise TypeError(f"{name}: only numeric arrays travel ({array.dtype})")
        entries.append({"name": name, "dtype": array.dtype.str, "shape": list(array.shape), "offset": offset})
        offset += _aligned(array.nbytes)
    header = json.dumps({"arrays": entries, "meta": meta}).encode()
    start = _aligned(len(MAGIC) + _LENGTH.size + len(header))
    with open(path, "wb") as f:
        f.write(MAGIC + _LENGTH.pack(len(header)) + header)
        for entry, array in zip(entries, arrays.values(), strict=True):
            f.seek(start + entry["offset"])
            _write(f, np.ascontiguousarray(array))
        f.truncate(start + offset)


def _write(f: BinaryIO, array: np.ndarray) -> None:
    if array.nbytes:
        f.write(array.reshape(-1).view(np.uint8).data)


def _aligned(n: int) -> int:
    return -(-n // ALIGN) * ALIGN


def read_arrays(path: str | Path) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """The arrays and meta `path` holds. The arrays are writable views of a private (copy-on-write) map of the
    file: the file may be removed at once, and a write to an array never reaches it."""
    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        head = f.read(len(MAGIC) + _LENGTH.size)
        if len(head) < len(MAGIC) + _LENGTH.size or not head.startswith(MAGIC):
            raise ArrayFileError(f"{path}: not an array file")
        (length,) = _LENGTH.unpack(head[len(MAGIC) :])
        if length > size:
            raise ArrayFileError(f"{path}: its header runs past its end")
        try:
            header = json.loads(f.read(length))
        except (UnicodeDecodeError, json.JSONDecodeError) as e:
            raise ArrayFileError(f"{path}: unreadable header ({e})") from None
        start = _aligned(len(MAGIC) + _LENGTH.size + length)
        mapped = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_COPY) if size else None
    arrays = {}
    for entry in header["arrays"]:
        dtype = np.dtype(entry["dtype"])
        if dtype.hasobject or dtype.kind not in "biufc":
            raise ArrayFileError(f"{path}: {entry['name']} has dtype {dtype}")
        shape = tuple(int(n) for n in entry["shape"])
        count = int(np.prod(shape, dtype=np.int64))
        offset = start + int(entry["offset"])
        if offset < start or offset + count * dtype.itemsize > size:
            raise ArrayFileError(f"{path}: {entry['name']} runs past the end of the file")
        flat = np.frombuffer(mapped, dtype, count, offset) if count and mapped is not None else np.zeros(0, dtype)
        arrays[entry["name"]] = flat.reshape(shape)
    return arrays, header["meta"]
