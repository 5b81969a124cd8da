"""The keys that travel a trace, one map for every view with an event cursor: arrows step, pages jump, Home/End."""

from __future__ import annotations

from PySide6.QtCore import Qt

Key = Qt.Key


def page_step(n_events: int) -> int:
    """The PageUp/PageDown step: a hundredth of the trace, at least ten events."""
    return max(10, n_events // 100)


def travel_delta(key: int, current: int, n_events: int) -> int | None:
    """How far `key` moves a cursor at event `current` of `n_events` (None: a key that does not travel). Home is
    the first event, End the last; the caller clamps a step past either end."""
    page = page_step(n_events)
    deltas = {
        Key.Key_Left: -1,
        Key.Key_Right: 1,
        Key.Key_PageUp: -page,
        Key.Key_PageDown: page,
        Key.Key_Home: -current,
        Key.Key_End: n_events - 1 - current,
    }
    return deltas.get(Key(key))
