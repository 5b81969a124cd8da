"""The one table of replay warnings: the codes both forward-replay twins emit, and the text each code reads as."""

from __future__ import annotations

from gpumem_gui.core.snapshot.sentences import QT_TRANSLATE_NOOP, Sentence, say

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

WARNING_TEXTS: dict[int, Sentence] = {
    W_ALLOC_LIVE: QT_TRANSLATE_NOOP("Warnings", "event {event}: alloc of {address}, which is already live"),
    W_ALLOC_NO_SEGMENT: QT_TRANSLATE_NOOP("Warnings", "event {event}: alloc of {address} outside every segment"),
    W_ALLOC_NOT_FREE: QT_TRANSLATE_NOOP("Warnings", "event {event}: alloc of {address} where no memory is free"),
    W_FREE_REQ_NOT_LIVE: QT_TRANSLATE_NOOP("Warnings", "event {event}: free_requested of {address}, which is not live"),
    W_FREE_DONE_NOT_LIVE: QT_TRANSLATE_NOOP(
        "Warnings", "event {event}: free_completed of {address}, which is not live"
    ),
    W_SEG_ALLOC_OVER: QT_TRANSLATE_NOOP("Warnings", "event {event}: segment_alloc of {address} over a live segment"),
    W_SEG_FREE_NOT_FREE: QT_TRANSLATE_NOOP(
        "Warnings", "event {event}: segment_free of {address}, which is not a free segment"
    ),
    W_UNMAP_NOT_FREE: QT_TRANSLATE_NOOP(
        "Warnings", "event {event}: segment_unmap of {address}, which is not free mapped memory"
    ),
    W_BLOCK_NO_SEGMENT: QT_TRANSLATE_NOOP("Warnings", "block {address} lies in no segment before the first event"),
    W_HISTORY_ALLOC: QT_TRANSLATE_NOOP("Warnings", "event {event}: alloc of {address} is not live afterwards"),
    W_HISTORY_FREE: QT_TRANSLATE_NOOP(
        "Warnings", "event {event}: free_completed of {address}, which is live afterwards"
    ),
    W_SEG_MAP_OVER: QT_TRANSLATE_NOOP("Warnings", "event {event}: segment_map of {address} over a live segment"),
}


def warning_text(code: int, event: int, addr: int) -> Sentence:
    """The message of one reported warning."""
    return say(WARNING_TEXTS[code], event=int(event), address=f"{int(addr):#x}")
