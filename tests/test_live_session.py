"""LiveSession without Qt: its blocking loop against a real probe server, delivery that never piles up, errors, stop."""

from __future__ import annotations

import os
import socket
import threading
import time
from pathlib import Path
from typing import IO, Any

import psutil
import pytest

from gpumem_gui.core.rules.allocator_constants import GiB, MiB
from gpumem_gui.core.snapshot.loader import load_snapshot
from gpumem_gui.sources.live import LiveSession, LiveUpdate
from tests.probe_helpers import serve_simulated


@pytest.fixture
def served(tmp_path: Path):
    server, backend = serve_simulated(tmp_path)
    for size in (100 * MiB, 3 * MiB, 700 * MiB):
        backend.malloc(size, [])
    yield server, backend
    server.stop()


class Runner:
    """run() in a thread of its own, as a script would; what it emits and how it ended, collected."""

    def __init__(self, session: LiveSession, *, ack: bool = True) -> None:
        self.session = session
        self.ack = ack
        self.passes = 0  # times the loop looked at its requests: run() asks should_stop once each pass
        self.updates: list[LiveUpdate] = []
        self.result: str | None = None
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _emit(self, update: LiveUpdate) -> None:
        self.updates.append(update)
        if self.ack:
            self.session.delivered()

    def _run(self) -> None:
        try:
            self.result = self.session.run(self._emit, self._count_pass)
        except BaseException as e:  # the test reads it
            self.error = e

    def _count_pass(self) -> bool:
        self.passes += 1
        return False

    def join(self, timeout: float = 5.0) -> None:
        self.thread.join(timeout)
        assert not self.thread.is_alive(), "run() did not return"


def _wait(condition: Any, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def _vanished_pid() -> int:
    pid = max(psutil.pids()) + 7919
    while psutil.pid_exists(pid):
        pid += 1
    return pid


def test_run_delivers_stats_and_frames_and_stops(served) -> None:
    server, _backend = served
    session = LiveSession(server.path, stats_interval=0.05, snapshot_interval=0.1)
    runner = Runner(session)
    _wait(lambda: sum(u.frame is not None for u in runner.updates) >= 2)
    samples = [s for u in runner.updates for s in u.samples]
    assert samples and samples[-1].figures.allocated == 803 * MiB
    began = time.monotonic()
    session.stop()
    runner.join()
    assert time.monotonic() - began < 1.0 and runner.error is None and runner.result is None
    assert session.finished and session.ended is None


def test_a_slow_consumer_gets_one_update_with_the_newest_frame(served) -> None:
    server, _backend = served
    session = LiveSession(server.path, stats_interval=0.02, snapshot_interval=0.05)
    runner = Runner(session, ack=False)  # the consumer never says it is done with the first update
    _wait(lambda: len(session.samples) >= 10)
    assert len(runner.updates) == 1  # everything since merged into one waiting update, not a queue
    frames_seen = session.last_frame
    waiting = session.take()
    assert len(waiting.samples) >= 5 and waiting.frame is not None
    _wait(lambda: session.last_frame is not frames_seen)
    session.delivered()
    _wait(lambda: len(runner.updates) == 2)  # the next goes promptly once the first was handled
    session.stop()
    runner.join()


def test_requests_during_a_slow_fetch_collapse_into_one(served, tmp_path: Path) -> None:
    server, _backend = served
    session = LiveSession(server.path, stats_interval=60, snapshot_interval=60)
    real = session.client.snapshot_into
    fetching, release, fetches = threading.Event(), threading.Event(), []

    def slow(out: IO[bytes], include_traces: bool = True) -> int:
        fetches.append(1)
        fetching.set()
        assert release.wait(10)  # slow until the test has made all its requests
        return real(out, include_traces)

    session.client.snapshot_into = slow  # type: ignore[method-assign]
    runner = Runner(session)
    assert fetching.wait(5)
    for _ in range(10):
        session.snapshot_now()
    assert session.save_now(tmp_path / "a.pickle") is None and session.save_now(tmp_path / "b.pickle") is None
    release.set()
    _wait(lambda: (tmp_path / "a.pickle").exists() and (tmp_path / "b.pickle").exists())
    after = runner.passes

    def a_whole_pass_more() -> bool:
        session.set_paused(False)  # a request that fetches nothing, only wakes the loop (again, until it shows)
        return runner.passes >= after + 2

    _wait(a_whole_pass_more)  # a fetch still owed to the clicks and saves would have started in that pass
    assert len(fetches) == 2  # the periodic one, then one for ten clicks and two saves
    assert load_snapshot(tmp_path / "b.pickle").state.segments.total_size.sum() > 0
    messages = [m for u in runner.updates for m in u.messages] + session.take().messages
    assert f"saved {tmp_path / 'a.pickle'}" in messages
    session.stop()
    runner.join()


def test_an_oserror_ends_the_session_and_propagates(served) -> None:
    server, _backend = served
    session = LiveSession(server.path)

    def broken(out: IO[bytes], include_traces: bool = True) -> int:
        raise OSError("No space left on device")

    session.client.snapshot_into = broken  # type: ignore[method-assign]
    runner = Runner(session)
    runner.join()
    assert isinstance(runner.error, OSError) and session.finished and session.stopping
    listener = threading.Thread(target=session.listen)  # the session is over: its listener ends at once too
    listener.start()
    listener.join(2)
    assert not listener.is_alive()


def test_a_vanished_job_is_an_end_not_an_error(served) -> None:
    server, _backend = served
    session = LiveSession(server.path)
    session.pid = _vanished_pid()

    def gone(out: IO[bytes], include_traces: bool = True) -> int:
        raise ConnectionResetError("reset by peer")

    session.client.snapshot_into = gone  # type: ignore[method-assign]
    runner = Runner(session)
    runner.join()
    assert runner.error is None and runner.result is not None
    assert runner.result.startswith(f"the job (pid {session.pid}) has exited at ")
    assert session.take().ended == runner.result


def test_a_closed_probe_ends_the_session(served) -> None:
    server, _backend = served
    session = LiveSession(server.path, stats_interval=0.05)
    runner = Runner(session)
    _wait(lambda: len(session.samples) >= 1)
    server.stop()
    runner.join(5)
    assert runner.result is not None and f"the job (pid {os.getpid()}) closed its probe" in runner.result


def test_stop_interrupts_a_request_blocked_on_its_socket(served) -> None:
    server, _backend = served
    session = LiveSession(server.path)
    session.client.sock.close()
    mine, silent = socket.socketpair()  # a peer that never answers: recv() would wait the full reply timeout
    mine.settimeout(120)
    session.client.sock = mine
    runner = Runner(session)
    silent.settimeout(5)
    assert silent.recv(1)  # the request has gone out: run() now waits for the reply that never comes
    assert runner.thread.is_alive()
    began = time.monotonic()
    session.stop()
    runner.join(2)
    assert time.monotonic() - began < 1.0 and runner.error is None and runner.result is None
    silent.close()


def test_a_paused_session_fetches_only_what_is_asked_until_resumed(served, tmp_path: Path) -> None:
    server, _backend = served
    session = LiveSession(server.path, stats_interval=0.01, snapshot_interval=0.01)  # unpaused: it fetches at once
    fetches: list[str] = []
    real_stats, real_snapshot = session.client.stats, session.client.snapshot_into

    def stats() -> dict[str, Any]:
        fetches.append("stats")
        return real_stats()

    def snapshot_into(out: IO[bytes], include_traces: bool = True) -> int:
        fetches.append("snapshot")
        return real_snapshot(out, include_traces)

    session.client.stats, session.client.snapshot_into = stats, snapshot_into  # type: ignore[method-assign]
    runner = Runner(session)
    _wait(lambda: fetches.count("snapshot") >= 2 and fetches.count("stats") >= 2)
    session.set_paused(True)
    # a save is served while paused: once it is written, the pass that served it saw the pause (it was set first)
    assert session.save_now(tmp_path / "paused.pickle") is None
    _wait((tmp_path / "paused.pickle").exists)
    seen, after = len(fetches), runner.passes
    _wait(lambda: runner.passes >= after + 3, timeout=10)  # paused passes wake every PAUSED_WAIT_S
    assert len(fetches) == seen  # three passes at a 10 ms interval, and not one fetch: paused
    session.set_paused(False)
    _wait(lambda: fetches[seen:].count("snapshot") >= 1 and fetches[seen:].count("stats") >= 1)  # resumed at once
    session.stop()
    runner.join()
    assert runner.error is None


def test_take_collects_everything_without_emit(served) -> None:
    server, backend = served
    session = LiveSession(server.path, stats_interval=0.05, snapshot_interval=0.1)
    threads = [threading.Thread(target=session.run), threading.Thread(target=session.listen)]
    for thread in threads:
        thread.start()
    _wait(lambda: session.last_frame is not None and session._stream is not None)  # subscribed: the OOM reaches it
    with pytest.raises(RuntimeError, match="out of memory"):
        backend.malloc(64 * GiB, [])
    deadline = time.monotonic() + 5
    events: list[dict[str, Any]] = []
    while not events and time.monotonic() < deadline:
        events += session.take().events
        time.sleep(0.02)
    assert events and events[0]["event"] == "oom"
    session.stop()
    for thread in threads:
        thread.join(2)
        assert not thread.is_alive()
