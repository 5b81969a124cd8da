"""Unpickle data that may come from anyone: plain containers and scalars only, never a global."""

from __future__ import annotations

import gc
import io
import mmap
import pickle
import pickletools
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from gpumem_gui.core.snapshot.sentences import QT_TRANSLATE_NOOP, say

# A memo index the standard unpickler may grow its memo to without asking: it allocates 16 bytes per index up to the
# highest one put, so an index below this costs at most 16 MB whatever the file's size.
FREE_MEMO_INDEX = 1 << 20


class Refused(pickle.UnpicklingError):
    """The pickle asks for something a snapshot never needs and that could run code or exhaust memory."""


class RefusedGlobal(Refused):
    """The pickle named a global (a class or function); loading it could run code."""

    def __init__(self, qualified_name: str) -> None:
        super().__init__(
            say(QT_TRANSLATE_NOOP("SnapshotError", "refused to load: the file asks for {name}"), name=qualified_name)
        )
        self.qualified_name = qualified_name


class _NoGlobalsUnpickler(pickle.Unpickler):
    # Snapshot pickles hold only dict, list, tuple, str, int, float, bool and None, all of which pickle encodes with
    # dedicated opcodes. Every GLOBAL/STACK_GLOBAL (the only way to reach os.system and friends) goes through
    # find_class, so refusing there refuses every global while the C unpickler keeps its full speed. EXT opcodes
    # can bypass find_class (copyreg's extension cache): scan_pickle refuses them before this runs.
    def find_class(self, module: str, name: str) -> Any:
        raise RefusedGlobal(f"{module}.{name}")

    def persistent_load(self, pid: Any) -> Any:
        raise Refused(PERSISTENT_ID)


PERSISTENT_ID = QT_TRANSLATE_NOOP("SnapshotError", "refused to load: the file uses a persistent id")


def _opcode_table() -> tuple[dict[int, int | None], dict[int, str]]:
    # argument sizes as pickletools documents them: >= 0 fixed, -1 a line, -2/-3/-4/-5 a length of 1/4/4/8 bytes
    sizes: dict[int, int | None] = {}
    names: dict[int, str] = {}
    for op in pickletools.opcodes:
        code = ord(op.code)
        sizes[code] = 0 if op.arg is None else op.arg.n
        names[code] = op.name
    return sizes, names


_SIZES, _NAMES = _opcode_table()
_STOP, _FRAME, _LONG_BINPUT, _PUT = ord("."), 0x95, ord("r"), ord("p")
_REFUSED = {0x82, 0x83, 0x84, ord("P"), ord("Q")}  # EXT1, EXT2, EXT4, PERSID, BINPERSID
_TWO_LINES = {ord("c"), ord("i")}  # GLOBAL and INST: module and name, a line each
_LENGTH_BYTES = {-2: 1, -3: 4, -4: 4, -5: 8}
_SIGNED_LENGTH = {-3}


def _simple_run() -> re.Pattern[bytes]:
    # One regex match skips the long runs of opcodes that need no look (most of a snapshot), in C: every opcode
    # with a fixed-size argument except the refused ones, STOP, FRAME and large LONG_BINPUTs, and the 1-byte-length
    # ones (short strings, LONG1) up to 15 bytes. Whatever stops the run is looked at in Python.
    by_size: dict[int, list[int]] = {0: [], 1: [], 2: [], 4: [], 8: []}
    short: list[int] = []
    for code, size in _SIZES.items():
        if code in _REFUSED or code in (_STOP, _FRAME, _LONG_BINPUT):
            continue
        if size is not None and size in by_size:
            by_size[size].append(code)
        elif size == -2:
            short.append(code)

    def one_of(codes: list[int]) -> bytes:
        return b"[" + b"".join(re.escape(bytes([c])) for c in sorted(codes)) + b"]"

    lengths = b"|".join(re.escape(bytes([k])) + b".{%d}" % k for k in range(16))
    branches = [  # the most frequent first: memo gets and ints, then containers, then strings
        one_of(by_size[4]) + b".{4}",
        one_of(by_size[1]) + b".",
        one_of(by_size[0]),
        one_of(short) + b"(?:" + lengths + b")",
        one_of(by_size[2]) + b"..",
        b"r.[\x00-\x0f]\x00\x00",  # LONG_BINPUT below FREE_MEMO_INDEX
        one_of(by_size[8]) + b".{8}",
    ]
    return re.compile(b"(?:" + b"|".join(branches) + b")*+", re.DOTALL)


_RUN = _simple_run()
assert FREE_MEMO_INDEX == 1 << 20  # the LONG_BINPUT branch above spells it out


def scan_pickle(data: bytes | memoryview | mmap.mmap) -> None:
    """Walk the opcodes up to STOP as the standard unpickler will read them, and refuse before it runs what it
    would do without find_class (EXT opcodes served from copyreg's cache, persistent ids), a memo index that makes
    it allocate far beyond the file's size, a length (of a string, bytes, a frame) past the end of the data, and an
    opcode that runs past the end of its frame (the unpickler would read its rest from after the frame, so it and
    the compiled reader would see different data; Python's own pure unpickler refuses it the same way).

    It stops quietly where the data stops being a pickle (an unknown opcode, the end of the data): the unpickler
    fails at that same place. Linear in the data; about a tenth of a second per 20 MB.
    """
    buf = bytes(data) if isinstance(data, memoryview) else data
    n = len(buf)
    memo_limit = max(n, FREE_MEMO_INDEX)
    match = _RUN.match
    pos = frame_end = 0
    while True:
        inside = pos < frame_end
        run = match(buf, pos, frame_end if inside else n)  # a run never crosses the end of a frame
        pos = run.end() if run else pos  # the pattern matches the empty run too: never None in practice
        if pos >= n:
            return
        op = buf[pos]
        size = _SIZES.get(op)
        if size is None or op == _STOP:
            return
        if op in _REFUSED:
            name = _NAMES[op]
            if name.endswith("PERSID"):
                raise Refused(PERSISTENT_ID)
            raise Refused(
                say(
                    QT_TRANSLATE_NOOP(
                        "SnapshotError", "refused to load: the file uses the pickle extension registry ({name})"
                    ),
                    name=name,
                )
            )
        if op == _FRAME and pos < frame_end:
            raise pickle.UnpicklingError("beginning of a new frame before end of current frame")
        pos += 1
        if size == -1:  # a line, or two for GLOBAL and INST, each read on its own
            for _ in range(2 if op in _TWO_LINES else 1):
                end = buf.find(b"\n", pos, frame_end if pos < frame_end else n)
                if end < 0:
                    return _short(pos < frame_end)
                line, pos = buf[pos:end], end + 1
            if op == _PUT:
                _check_memo_index(line, memo_limit, n)
        elif size >= 0:
            if not _fits(pos, size, frame_end, n):
                return
            if op == _LONG_BINPUT:
                _check_memo_index(int.from_bytes(buf[pos : pos + 4], "little"), memo_limit, n)
            elif op == _FRAME:
                length = int.from_bytes(buf[pos : pos + 8], "little")
                if length > n - pos - 8:
                    raise pickle.UnpicklingError("pickle data was truncated")
                frame_end = pos + 8 + length
            pos += size
        else:
            width = _LENGTH_BYTES[size]
            if not _fits(pos, width, frame_end, n):
                return
            length = int.from_bytes(buf[pos : pos + width], "little", signed=size in _SIGNED_LENGTH)
            if length < 0:
                return  # the unpickler refuses a negative byte count right there
            pos += width
            if not _fits(pos, length, frame_end, n):
                raise pickle.UnpicklingError("pickle data was truncated")
            pos += length


_FRAME_EXHAUSTED = "pickle exhausted before end of frame"


def _fits(pos: int, size: int, frame_end: int, n: int) -> bool:
    """Whether one read of `size` bytes at `pos` finds them; raises when it starts in a frame and ends past it.

    The standard unpickler holds a frame in a buffer and reads what is missing from after the frame, so a read
    that straddles the frame's end would take other bytes than the compiled reader (and Python's own pure one
    refuses it the same way). A read that starts where a frame ends reads on from the data, as both readers do."""
    if pos < frame_end:
        if size > frame_end - pos:
            raise pickle.UnpicklingError(_FRAME_EXHAUSTED)
        return True
    return size <= n - pos


def _short(inside: bool) -> None:
    # a line past the end of the data: the unpickler fails by itself; past the end of a frame: it would read on
    if inside:
        raise pickle.UnpicklingError(_FRAME_EXHAUSTED)


def _check_memo_index(index: int | bytes, limit: int, n: int) -> None:
    if isinstance(index, bytes):
        try:
            index = int(index)
        except ValueError:
            raise pickle.UnpicklingError("bad memo index in PUT") from None
    if index > limit:
        raise Refused(
            say(
                QT_TRANSLATE_NOOP(
                    "SnapshotError", "refused to load: memo index {index} is beyond what a {n}-byte pickle can hold"
                ),
                index=f"{index:,}",
                n=f"{n:,}",
            )
        )


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector for work that makes millions of containers and no cycles.

    Each burst of allocations can trigger a collection that walks every container made so far, so unpickling and
    converting a big snapshot with the collector on is several times slower (measured in benchmarks/bench_load.py).
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


_READ_STEP = 1 << 20


class _MappedReader(io.RawIOBase):
    """A mapping read as a file from its start, a buffer's worth at a time (the unpickler then peeks in C)."""

    def __init__(self, mapped: mmap.mmap) -> None:
        super().__init__()
        self._mapped = mapped
        self._pos = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        chunk = self._mapped[self._pos : self._pos + len(buffer)]
        buffer[: len(chunk)] = chunk
        self._pos += len(chunk)
        return len(chunk)


def loads_no_globals(data: bytes | memoryview | mmap.mmap) -> Any:
    """Unpickle `data` with every global, EXT opcode and persistent id refused and the garbage collector paused.

    A mapped file is read as a file (from its start), never copied whole: io.BytesIO would copy every byte of it."""
    scan_pickle(data)
    source = io.BufferedReader(_MappedReader(data), _READ_STEP) if isinstance(data, mmap.mmap) else io.BytesIO(data)
    with gc_paused():
        return _NoGlobalsUnpickler(source).load()
