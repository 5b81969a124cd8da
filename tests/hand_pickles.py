"""Hand-made snapshot pickles, opcode by opcode: shapes no pickler writes and a hostile file can, for the readers."""

from __future__ import annotations

import struct

PRELUDE_SLOTS = {"action": 10, "alloc": 11, "addr": 12, "size": 13, "frames": 14}
FRAME_SLOT = 0x0F  # the memo slot of the first entry's frame dict, which later entries fetch


def text(s: str) -> bytes:
    """BINUNICODE of `s` (not memoized)."""
    raw = s.encode()
    return b"X" + struct.pack("<I", len(raw)) + raw


FRAME_DICT = b"}q\x06(" + text("name") + text("f") + text("filename") + text("a.py") + text("line") + b"K\x07u"


def snapshot_pickle(*bodies: bytes, after_trace: bytes = b"", root_extra: bytes = b"") -> bytes:
    """A protocol 2 snapshot with no segments and one trace: a first entry that spells every key (and memoizes it,
    as pickle writes repeated strings: PRELUDE_SLOTS; its own dict at slot 9, its frame dict at FRAME_SLOT), then
    an entry dict (memo slot 0x40 + k) of each body's pairs. `after_trace` follows the trace inside device_traces'
    MARK, `root_extra` (pairs) follows device_traces in the root dict."""
    put = {k: text(k) + b"q" + bytes([slot]) for k, slot in PRELUDE_SLOTS.items()}
    first = b"}q\x09(" + put["action"] + put["alloc"] + put["addr"] + b"K\x10" + put["size"] + b"K\x20"
    first += put["frames"] + b"]q\x20(" + FRAME_DICT.replace(b"q\x06", bytes([0x71, FRAME_SLOT])) + b"eu"
    rest = b"".join(b"}q" + bytes([0x40 + k]) + b"(" + body + b"u" for k, body in enumerate(bodies))
    trace = b"]q\x03(" + first + rest + b"e" + after_trace
    root = text("segments") + b"]q\x01" + text("device_traces") + b"]q\x02(" + trace + b"e" + root_extra
    return b"\x80\x02}q\x00(" + root + b"u."


def alloc_body(frames: bytes, size: bytes, more: bytes = b"") -> bytes:
    """The pairs of an alloc entry whose keys and action are fetched: addr 0x10, `size`, `frames`, then `more`."""
    return b"h\x0ah\x0bh\x0cK\x10h\x0d" + size + b"h\x0e" + frames + more


def fetched_entries(*frames_and_sizes: tuple[bytes, bytes]) -> bytes:
    """snapshot_pickle with an alloc entry (alloc_body) for each (frames, size) pair."""
    return snapshot_pickle(*(alloc_body(frames, size) for frames, size in frames_and_sizes))


# Shapes in which the compiled one-pass reader once accepted what the pure reader refuses, or read other values
# (issue 27, item 5). Each is read by both twins in test_twins_corpus, and checked against pickle.loads.
TWIN_SHAPES = {
    # the entry's new frames list is put in the memo slot of "alloc"; its action then fetches that slot: the list
    "a later memo get sees the entry's new frames list": snapshot_pickle(
        b"h\x0e]q\x0b(h\x0fe" + b"h\x0ah\x0b" + b"h\x0cK\x10h\x0dK\x08"
    ),
    # the first entry is read opcode by opcode (its keys are new); the root's allocator_settings fetches it
    "an entry read opcode by opcode, fetched again": snapshot_pickle(root_extra=text("allocator_settings") + b"h\x09"),
    # two entries with fresh empty frames lists; the second list gets a frame once every entry is read
    "frames appended to a list after its entry": snapshot_pickle(
        alloc_body(b"]q\x30", b"K\x08"), alloc_body(b"]q\x31", b"K\x09"), after_trace=b"h\x31(h\x0fe0"
    ),
    # addr given twice, the second time None: a dict keeps the last
    "a key given twice": snapshot_pickle(alloc_body(b"]q\x30(h\x0fe", b"K\x08", b"h\x0cN")),
    # the same, in an entry read opcode by opcode (its frames list holds a new frame dict)
    "a key given twice, read opcode by opcode": snapshot_pickle(
        alloc_body(b"]q\x30(" + FRAME_DICT.replace(b"q\x06", b"q\x31") + b"e", b"K\x08", b"h\x0cN")
    ),
    # an unknown action, then a known one: a dict keeps the last
    "an action given twice": snapshot_pickle(
        b"h\x0a" + text("mystery") + b"h\x0cK\x10h\x0dK\x08h\x0e]q\x30(h\x0fe" + b"h\x0ah\x0b"
    ),
}
