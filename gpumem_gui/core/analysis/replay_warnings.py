"""The one table of replay warnings: the codes both forward-replay twins emit, and the text each code reads as."""

from __future__ import annotations

# The twins report (code, event, address) triples, never text: the compiled kernel (_replay.pyx, which imports these
# codes) then carries no strings, and the two can only ever word a warning the same way.
W_ALLOC_LIVE = 1
W_ALLOC_NO_SEGMENT = 2
W_ALLOC_NOT_FREE = 3
W_FREE_REQ_NOT_LIVE = 4
W_FREE_DONE_NOT_LIVE = 5
W_SEG_ALLOC_OVER = 6
W_SEG_FREE_NOT_FREE = 7
W_UNMAP_NOT_FREE = 8
W_BLOCK_NO_SEGMENT = 9  # found while setting up the state before the first event (its event is -1)
W_HISTORY_ALLOC = 10  # the backward pass (both twins) reports these two
W_HISTORY_FREE = 11
W_SEG_MAP_OVER = 12

MAX_WARNINGS = 50  # a broken trace would repeat the same complaint on every event: the first ones are enough

WARNING_TEXTS: dict[int, str] = {
    W_ALLOC_LIVE: "event {event}: alloc of {addr:#x}, which is already live",
    W_ALLOC_NO_SEGMENT: "event {event}: alloc of {addr:#x} outside every segment",
    W_ALLOC_NOT_FREE: "event {event}: alloc of {addr:#x} where no memory is free",
    W_FREE_REQ_NOT_LIVE: "event {event}: free_requested of {addr:#x}, which is not live",
    W_FREE_DONE_NOT_LIVE: "event {event}: free_completed of {addr:#x}, which is not live",
    W_SEG_ALLOC_OVER: "event {event}: segment_alloc of {addr:#x} over a live segment",
    W_SEG_FREE_NOT_FREE: "event {event}: segment_free of {addr:#x}, which is not a free segment",
    W_UNMAP_NOT_FREE: "event {event}: segment_unmap of {addr:#x}, which is not free mapped memory",
    W_BLOCK_NO_SEGMENT: "block {addr:#x} lies in no segment before the first event",
    W_HISTORY_ALLOC: "event {event}: alloc of {addr:#x} is not live afterwards",
    W_HISTORY_FREE: "event {event}: free_completed of {addr:#x}, which is live afterwards",
    W_SEG_MAP_OVER: "event {event}: segment_map of {addr:#x} over a live segment",
}


def warning_text(code: int, event: int, addr: int) -> str:
    """The message of one reported warning."""
    return WARNING_TEXTS[code].format(event=int(event), addr=int(addr))
