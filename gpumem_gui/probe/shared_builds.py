"""Viewers' snapshot requests served by shared builds: one build at a time, shared by every request that waits for it,
and spaced so that building snapshots takes at most a set share of the job's time, however many viewers ask.

A build holds the allocator's lock (torch's, or the demo job's) and pickles with the interpreter's lock held: while
it runs, the job's own thread mostly waits. Four viewers asking back to back used to build four snapshots in a row,
again and again, and the job ran at a third of its speed. Now a request joins the next build of its kind (never one
already under way, so what it gets was taken after it asked), and after a build of B seconds the next one starts no
sooner than B * (1 - share) / share later: the job keeps at least 1 - share of its time, a lone viewer whose
snapshots are quick never waits, and a storm of viewers shares one snapshot per round.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

BUILD_SHARE = 0.1  # of the job's wall time, at most, spent building viewers' snapshots


class _Round:
    """One build and the requests that wait for it."""

    __slots__ = ("data", "done", "error")

    def __init__(self) -> None:
        self.done = False
        self.data = b""
        self.error: BaseException | None = None


class SharedBuilds:
    """`get(kind)` returns the bytes of a build of `kind` that started after the call; `build(kind)` makes them.
    The condition guards the rounds only: no build and no send runs under it, and the job's threads never take it."""

    def __init__(
        self, build: Callable[[bool], bytes], share: float = BUILD_SHARE, clock: Callable[[], float] = time.monotonic
    ) -> None:
        if not 0 < share <= 1:
            raise ValueError("share must be in (0, 1]")
        self._build = build
        self._share = share
        self._clock = clock
        self._cond = threading.Condition()
        self._waiting: dict[bool, _Round] = {}  # by kind: the round that the next build of that kind serves
        self._building = False
        self._not_before = 0.0  # when the next build may start
        self.builds = 0  # how many were made: the measure of the sharing

    def get(self, kind: bool) -> bytes:
        with self._cond:
            round_ = self._waiting.setdefault(kind, _Round())
            while True:
                if round_.done:
                    if round_.error is not None:
                        raise round_.error
                    return round_.data
                now = self._clock()
                if not self._building and now >= self._not_before and self._waiting.get(kind) is round_:
                    del self._waiting[kind]  # later requests join a round of their own
                    self._building = True
                    break
                # woken by the end of a build; otherwise at the moment the pause between builds ends
                self._cond.wait(None if self._building else max(self._not_before - now, 0.001))
        started = self._clock()
        try:
            round_.data = self._build(kind)
        except BaseException as exc:  # every request of the round hears of it, not only the one that built
            round_.error = exc
        with self._cond:
            took = self._clock() - started
            self._not_before = self._clock() + took * (1 - self._share) / self._share
            self._building = False
            self.builds += 1
            round_.done = True
            self._cond.notify_all()
        if round_.error is not None:
            raise round_.error
        return round_.data
