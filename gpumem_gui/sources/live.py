"""A live session with one probe: stats at 2 Hz and snapshots every second, OOM events beside, as blocking loops.

`run()` and `listen()` are plain blocking functions with no Qt in them: the live view runs each as a Task of the one
task mechanism (a script runs them in a thread of its own). Snapshots are parsed and their timelines built in that
loop, so the GUI thread only swaps references. What arrives is delivered through `emit`, at most one update at a
time: while the consumer has not called `delivered()`, newer figures and frames merge into the waiting update (a
newer frame replaces an older one), so a slow GUI never gets a queue of stale snapshots. Without `emit`, `take()`
collects what arrived.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import socket
import tempfile
import threading
import time
import weakref
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil

from gpumem_gui.core.analysis.reconcile import MemoryReconciliation, reconcile
from gpumem_gui.core.analysis.timetravel import DeviceTimeline, build_timeline
from gpumem_gui.core.rules.allocator_rules import AllocatorConfig
from gpumem_gui.core.snapshot.errors import SnapshotError
from gpumem_gui.core.snapshot.loader import load_snapshot
from gpumem_gui.core.snapshot.model import Snapshot
from gpumem_gui.sources.array_file import new_private_file
from gpumem_gui.sources.probe_client import EventStream, ProbeClient, ProbeError, ProbeGone
from gpumem_gui.sources.probe_socket import is_local, local_rank
from gpumem_gui.sources.words import QT_TRANSLATE_NOOP, as_is, error_text, say

MAX_SAMPLES = 4 * 3600 * 2  # four hours of 2 Hz stats
PAUSED_WAIT_S = 0.5

UNREADABLE = QT_TRANSLATE_NOOP("LiveSession", "the probe sent an unreadable snapshot: {error}")
NOTHING_YET = QT_TRANSLATE_NOOP("LiveSession", "nothing to save yet: no snapshot has arrived")
NOT_SAVED = QT_TRANSLATE_NOOP("LiveSession", "cannot save {path}: {error}")
SAVED = QT_TRANSLATE_NOOP("LiveSession", "saved {path}")
CLOSED_ITS_PROBE = QT_TRANSLATE_NOOP("LiveSession", "the job (pid {pid}) closed its probe at {time}")
EXITED = QT_TRANSLATE_NOOP("LiveSession", "the job (pid {pid}) has exited at {time}")
# every message above, each made with say(): the window says it in its language (views/common/sentences.said)
MESSAGES = (UNREADABLE, NOTHING_YET, NOT_SAVED, SAVED, CLOSED_ITS_PROBE, EXITED)


@dataclass(frozen=True)
class StatsSample:
    time: float  # the probe's clock, seconds since the epoch
    device: int
    figures: MemoryReconciliation
    oom_count: int


@dataclass(frozen=True)
class LiveFrame:
    """One snapshot of the job, parsed, with its timelines; `path` holds the pickle as received (what Save writes),
    in the session's private folder: a snapshot of many GB never sits in memory whole."""

    snapshot: Snapshot
    timelines: dict[int, DeviceTimeline]
    path: Path
    size: int  # bytes of the pickle
    taken_at: float
    seconds_to_fetch: float


@dataclass
class LiveUpdate:
    samples: list[StatsSample] = field(default_factory=list)
    frame: LiveFrame | None = None
    events: list[dict[str, Any]] = field(default_factory=list)
    messages: list[str] = field(default_factory=list)
    ended: str | None = None

    def empty(self) -> bool:
        return not (self.samples or self.frame or self.events or self.messages or self.ended)


Emit = Callable[[LiveUpdate], None]
ShouldStop = Callable[[], bool]


class LiveSession:
    """One attached job. Control methods may be called from any thread; `run()` and `listen()` each from one."""

    def __init__(
        self,
        path: Path,
        *,
        stats_interval: float = 0.5,
        snapshot_interval: float = 1.0,
        include_traces: bool = True,
        nvml_used: Callable[[int], int | None] | None = None,
    ) -> None:
        self.path = path
        self.client = ProbeClient(path)  # raises ProbeError with the reason, before anything runs
        try:
            self.hello = self.client.hello()
        except ProbeError:
            self.client.close()
            raise
        self.pid = int(self.hello.get("pid") or self.client.pid or 0)
        # a probe behind a forwarded socket (SSH from a GPU server) is another machine's process: its pid means
        # nothing here; a local one's RANK is in its environment (read here, where blocking is allowed)
        self.local = is_local(self.client, self.pid)
        rank = local_rank(self.pid) if self.local else self.hello.get("rank")
        self.rank: int | None = rank if isinstance(rank, int) and not isinstance(rank, bool) else None
        self.stats_interval = stats_interval
        self.snapshot_interval = snapshot_interval
        self.include_traces = include_traces
        self.nvml_used = nvml_used  # pid -> the driver's used bytes of the process, where NVML exists
        self.paused = False
        self.samples: deque[StatsSample] = deque(maxlen=MAX_SAMPLES)
        self.last_frame: LiveFrame | None = None
        self.ended: str | None = None
        self.finished = False  # run() has returned (or raised): requests are no longer served by it
        self._pending = LiveUpdate()
        self._emit: Emit | None = None
        self._in_flight = False  # an emitted update the consumer has not yet called delivered() for
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._snapshot_now = False
        self._save_requests: list[Path] = []
        self._record_dir: Path | None = None
        self._recorded = 0
        self._stream: EventStream | None = None
        # where the received pickles are kept (0700, removed with the session): the last one serves Save
        self._folder = tempfile.mkdtemp(prefix="gpumem-gui-live-")
        weakref.finalize(self, shutil.rmtree, self._folder, True)
        self._fetched = 0

    # -- control (any thread) --------------------------------------------------------------------------------

    def stop(self) -> None:
        """End `run()` and `listen()` promptly, without waiting for them: safe from any thread, more than once."""
        self._stop.set()
        self._wake.set()
        # a socket blocked in recv() wakes on shutdown(), not on close() from another thread
        _shutdown(self.client.sock)
        stream = self._stream
        if stream is not None:
            _shutdown(stream.client.sock)

    @property
    def stopping(self) -> bool:
        return self._stop.is_set()

    def set_paused(self, paused: bool) -> None:
        self.paused = paused
        self._wake.set()

    def snapshot_now(self) -> None:
        self._snapshot_now = True  # a flag, not a queue: clicks during a slow fetch become one more fetch
        self._wake.set()

    def save_now(self, path: Path) -> str | None:
        """Take a snapshot now and write it to `path`. After the session ended, write the last one received at
        once and return what happened (one line); while it runs, the outcome arrives as a message."""
        if self.finished or self.ended is not None:
            return self._write_frame(path)
        with self._lock:
            self._save_requests.append(path)  # all the requests waiting are served by one fetch
        self._wake.set()
        return None

    def record_to(self, directory: Path | None) -> None:
        """Write every snapshot received, and every stats sample (stats.jsonl), into `directory`; None stops."""
        if directory is not None:
            directory.mkdir(parents=True, exist_ok=True)
        self._record_dir = directory

    def take(self) -> LiveUpdate:
        """What arrived and was not emitted (everything, when `run()` was given no `emit`)."""
        with self._lock:
            update, self._pending = self._pending, LiveUpdate()
        return update

    def delivered(self) -> None:
        """The consumer has handled the last update emitted: the next one may go (with all that merged meanwhile)."""
        with self._lock:
            self._in_flight = False
        self._wake.set()

    # -- the loops -------------------------------------------------------------------------------------------

    def run(self, emit: Emit | None = None, should_stop: ShouldStop | None = None) -> str | None:
        """Fetch stats and snapshots until stopped or the job ends; returns the line saying how the job ended,
        None when stopped. A ProbeError or an unreadable snapshot is a message and the session goes on; an
        OSError while the job still runs, or any other exception, ends the session and propagates (the caller
        shows it as one line). A vanished job is an end, not an error."""
        self._emit = emit

        def stopping() -> bool:
            return self._stop.is_set() or (should_stop is not None and should_stop())

        next_stats = next_snapshot = 0.0
        try:
            while not stopping():
                self._wake.clear()  # before looking at the flags: a request made from now on ends the wait below
                now = time.monotonic()
                try:
                    saving = self._take_save_requests()
                    if saving or self._snapshot_now or (not self.paused and now >= next_snapshot):
                        self._snapshot_now = False
                        self._fetch_snapshot(saving)
                        next_snapshot = time.monotonic() + self.snapshot_interval
                    if not self.paused and now >= next_stats:
                        self._fetch_stats()
                        next_stats = time.monotonic() + self.stats_interval
                except ProbeGone:
                    if stopping():
                        break
                    return self._end()
                except ProbeError as exc:
                    if stopping():
                        break
                    self._post(messages=[error_text(exc)])
                except SnapshotError as exc:
                    self._post(messages=[say(UNREADABLE, error=error_text(exc))])
                except OSError:
                    if stopping():
                        break
                    if not _running(self.pid):
                        return self._end()
                    raise
                self._flush()
                wait = PAUSED_WAIT_S if self.paused else max(0.0, min(next_stats, next_snapshot) - time.monotonic())
                self._wake.wait(wait)
            return None
        finally:
            self.finished = True
            self.stop()  # the event listener ends with the session, whatever ended it
            for path in self._take_save_requests():  # asked for while the session ended: the last frame
                message = self._write_frame(path)
                self._post(messages=[message])
            self.client.close()

    def listen(
        self, emit: Callable[[dict[str, Any]], None] | None = None, should_stop: ShouldStop | None = None
    ) -> None:
        """Pass on the probe's events (an OOM, with the path of its snapshot) until stopped or the job has gone;
        without `emit` they wait in `take()`."""
        try:
            stream = EventStream(self.path)
        except ProbeError:
            return  # the main connection reports the job's end
        self._stream = stream
        try:
            while not (self._stop.is_set() or (should_stop is not None and should_stop())):
                event = stream.next_event(timeout=1.0)
                if event is None:
                    continue
                if emit is not None:
                    emit(event)
                else:
                    self._post(events=[event])
        except ProbeGone:
            pass
        finally:
            self._stream = None
            stream.close()

    # -- inside run() ----------------------------------------------------------------------------------------

    def _post(self, **kwargs: Any) -> None:
        with self._lock:
            pending = self._pending
            for key, value in kwargs.items():
                if key in ("samples", "events", "messages"):
                    getattr(pending, key).extend(value)
                else:
                    setattr(pending, key, value)

    def _flush(self) -> None:
        """Emit what is waiting, unless the consumer still holds the previous update (then it keeps merging)."""
        if self._emit is None:
            return
        with self._lock:
            if self._in_flight or self._pending.empty():
                return
            update, self._pending = self._pending, LiveUpdate()
            self._in_flight = True
        self._emit(update)

    def _take_save_requests(self) -> list[Path]:
        with self._lock:
            saving, self._save_requests = self._save_requests, []
        return saving

    def _fetch_stats(self) -> None:
        reply = self.client.stats()
        used = self.nvml_used(self.pid) if self.nvml_used is not None else None
        samples = []
        for entry in reply.get("devices", []):
            figures = reconcile(entry.get("stats", {}), free=entry.get("free"), total=entry.get("total"),
                                nvml_used=used if len(reply["devices"]) == 1 else None)  # fmt: skip
            samples.append(StatsSample(float(reply.get("time", time.time())), int(entry.get("device", 0)), figures,
                                       int(reply.get("oom_count", 0))))  # fmt: skip
        self.samples.extend(samples)
        self._post(samples=samples)
        if self._record_dir is not None:
            with (self._record_dir / "stats.jsonl").open("a") as f:
                f.write(json.dumps({k: v for k, v in reply.items() if k not in ("ok", "op", "id")}) + "\n")

    def _fetch_snapshot(self, saving: list[Path]) -> None:
        started = time.monotonic()
        self._fetched += 1
        path = Path(self._folder) / f"snapshot-{self._fetched}.pickle"
        try:
            with new_private_file(path) as out:
                size = self.client.snapshot_into(out, self.include_traces)  # streamed: bounded by the free space
            snapshot = load_snapshot(path, name=f"pid {self.pid}")
        except BaseException:
            path.unlink(missing_ok=True)
            raise
        config = AllocatorConfig.from_snapshot_settings(snapshot.allocator_settings)
        timelines = {device: build_timeline(snapshot, device, config) for device in snapshot.devices()}
        frame = LiveFrame(snapshot, timelines, path, size, time.time(), time.monotonic() - started)
        previous, self.last_frame = self.last_frame, frame
        if previous is not None:
            previous.path.unlink(missing_ok=True)  # only the last one is ever saved
        self._post(frame=frame)  # replaces a frame the consumer has not yet been given
        for target in saving:
            self._post(messages=[self._write_frame(target)])
        if self._record_dir is not None:
            self._recorded += 1
            shutil.copyfile(path, self._record_dir / f"snapshot-{self._recorded:05d}.pickle")

    def _write_frame(self, path: Path) -> str:
        frame = self.last_frame
        if frame is None:
            return NOTHING_YET
        try:
            tmp = path.with_name(path.name + ".part")
            shutil.copyfile(frame.path, tmp)
            tmp.replace(path)
        except OSError as exc:
            return say(NOT_SAVED, path=as_is(path), error=error_text(exc))
        return say(SAVED, path=as_is(path))

    def _end(self) -> str:
        deadline = time.monotonic() + 1.0  # a job that is exiting closes its sockets a moment before it is gone
        while (alive := _running(self.pid)) and time.monotonic() < deadline and not self._stop.wait(0.05):
            pass
        template = CLOSED_ITS_PROBE if alive else EXITED
        self.ended = say(template, pid=as_is(self.pid), time=as_is(time.strftime("%H:%M:%S")))
        self._post(ended=self.ended)
        return self.ended


def _running(pid: int) -> bool:
    try:
        return bool(psutil.Process(pid).status() != psutil.STATUS_ZOMBIE)
    except psutil.Error:
        return False


def _shutdown(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
