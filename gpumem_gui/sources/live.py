"""A live session with one probe: stats at 2 Hz and snapshots every second in a worker thread, OOM events beside.

The GUI (or a test) calls `take()` to collect what arrived since the last call; nothing here touches Qt.
Snapshots are parsed and their timelines built in the worker, so the GUI thread only swaps references.
"""

from __future__ import annotations

import json
import threading
import time
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
from gpumem_gui.sources.probe_client import EventStream, ProbeClient, ProbeError, ProbeGone

MAX_SAMPLES = 4 * 3600 * 2  # four hours of 2 Hz stats


@dataclass(frozen=True)
class StatsSample:
    time: float  # the probe's clock, seconds since the epoch
    device: int
    figures: MemoryReconciliation
    oom_count: int


@dataclass(frozen=True)
class LiveFrame:
    """One snapshot of the job, parsed, with its timelines; `data` is the pickle as received (what Save writes)."""

    snapshot: Snapshot
    timelines: dict[int, DeviceTimeline]
    data: bytes
    taken_at: float
    seconds_to_fetch: float


@dataclass
class LiveUpdate:
    samples: list[StatsSample] = field(default_factory=list)
    frame: LiveFrame | None = None
    events: list[dict[str, Any]] = field(default_factory=list)
    messages: list[str] = field(default_factory=list)
    ended: str | None = None


class LiveSession:
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
        self.client = ProbeClient(path)  # raises ProbeError with the reason, before any thread starts
        try:
            self.hello = self.client.hello()
        except ProbeError:
            self.client.close()
            raise
        self.pid = int(self.hello.get("pid") or self.client.pid or 0)
        self.stats_interval = stats_interval
        self.snapshot_interval = snapshot_interval
        self.include_traces = include_traces
        self.nvml_used = nvml_used  # pid -> the driver's used bytes of the process, where NVML exists
        self.paused = False
        self.samples: deque[StatsSample] = deque(maxlen=MAX_SAMPLES)
        self.last_frame: LiveFrame | None = None
        self.ended: str | None = None
        self._pending = LiveUpdate()
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._snapshot_now = False
        self._save_requests: list[Path] = []
        self._record_dir: Path | None = None
        self._recorded = 0
        self._threads: list[threading.Thread] = []

    # -- control (any thread) --------------------------------------------------------------------------------

    def start(self) -> None:
        for target, name in ((self._run, "gpumem-gui-live"), (self._listen, "gpumem-gui-live-events")):
            thread = threading.Thread(target=target, name=name, daemon=True)
            thread.start()
            self._threads.append(thread)

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        self.client.close()
        for thread in self._threads:
            thread.join(timeout=3)

    def set_paused(self, paused: bool) -> None:
        self.paused = paused
        self._wake.set()

    def snapshot_now(self) -> None:
        self._snapshot_now = True
        self._wake.set()

    def save_now(self, path: Path) -> None:
        """Take a snapshot now and write it to `path`; after the job ended, write the last one received."""
        if self.ended is not None:
            self._write_frame(path)
            return
        with self._lock:
            self._save_requests.append(path)
        self._wake.set()

    def record_to(self, directory: Path | None) -> None:
        """Write every snapshot received, and every stats sample (stats.jsonl), into `directory`; None stops."""
        if directory is not None:
            directory.mkdir(parents=True, exist_ok=True)
        self._record_dir = directory

    def take(self) -> LiveUpdate:
        with self._lock:
            update, self._pending = self._pending, LiveUpdate()
        return update

    # -- the worker ------------------------------------------------------------------------------------------

    def _post(self, **kwargs: Any) -> None:
        with self._lock:
            pending = self._pending
            for key, value in kwargs.items():
                if key in ("samples", "events", "messages"):
                    getattr(pending, key).extend(value)
                else:
                    setattr(pending, key, value)

    def _run(self) -> None:
        next_stats = next_snapshot = 0.0
        while not self._stop.is_set():
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
                self._end()
                return
            except ProbeError as exc:
                self._post(messages=[str(exc)])
            except SnapshotError as exc:
                self._post(messages=[f"the probe sent an unreadable snapshot: {exc}"])
            wait = 0.5 if self.paused else max(0.0, min(next_stats, next_snapshot) - time.monotonic())
            self._wake.wait(wait)
            self._wake.clear()

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
        data = self.client.snapshot_bytes(self.include_traces)
        snapshot = load_snapshot(data, name=f"pid {self.pid}")
        config = AllocatorConfig.from_snapshot_settings(snapshot.allocator_settings)
        timelines = {device: build_timeline(snapshot, device, config) for device in snapshot.devices()}
        frame = LiveFrame(snapshot, timelines, data, time.time(), time.monotonic() - started)
        self.last_frame = frame
        self._post(frame=frame)
        for path in saving:
            self._write_frame(path)
        if self._record_dir is not None:
            self._recorded += 1
            (self._record_dir / f"snapshot-{self._recorded:05d}.pickle").write_bytes(data)

    def _write_frame(self, path: Path) -> None:
        frame = self.last_frame
        if frame is None:
            self._post(messages=["nothing to save yet: no snapshot has arrived"])
            return
        try:
            tmp = path.with_name(path.name + ".part")
            tmp.write_bytes(frame.data)
            tmp.replace(path)
        except OSError as exc:
            self._post(messages=[f"cannot save {path}: {exc}"])
            return
        self._post(messages=[f"saved {path}"])

    def _end(self) -> None:
        deadline = time.monotonic() + 1.0  # a job that is exiting closes its sockets a moment before it is gone
        while (alive := _running(self.pid)) and time.monotonic() < deadline:
            time.sleep(0.05)
        self.ended = (
            f"the job (pid {self.pid}) closed its probe" if alive else f"the job (pid {self.pid}) has exited"
        ) + time.strftime(" at %H:%M:%S")
        self._post(ended=self.ended)

    def _listen(self) -> None:
        try:
            stream = EventStream(self.path)
        except ProbeError:
            return  # the main connection reports the job's end
        try:
            while not self._stop.is_set():
                event = stream.next_event(timeout=1.0)
                if event is not None:
                    self._post(events=[event])
        except ProbeGone:
            pass
        finally:
            stream.close()


def _running(pid: int) -> bool:
    try:
        return bool(psutil.Process(pid).status() != psutil.STATUS_ZOMBIE)
    except psutil.Error:
        return False
