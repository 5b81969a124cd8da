"""FileLoadJob: loads and indexes a snapshot file in a separate process, which can be killed to cancel.

The worker unpickles (globals refused), converts to columns and builds every device's timeline, then hands the
result over as an .npz file read without pickle. The million dicts of a big file never enter the GUI process, and
the worker leaves with os._exit, so nobody waits for them to be freed.
"""

from __future__ import annotations

import multiprocessing
import os
import tempfile
import threading
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

from gpumem_gui.core.analysis.timetravel import DeviceTimeline
from gpumem_gui.core.snapshot.errors import SnapshotError
from gpumem_gui.core.snapshot.model import Snapshot


def _work(path: str, out: str, conn: Connection) -> None:
    try:
        from gpumem_gui.core.analysis.timetravel import build_timeline  # noqa: PLC0415
        from gpumem_gui.core.snapshot.loader import load_snapshot  # noqa: PLC0415 (the worker imports what it runs)
        from gpumem_gui.sources.transfer import save_npz  # noqa: PLC0415

        snapshot = load_snapshot(path)
        save_npz(out + ".state.npz", snapshot, {})  # the map can show the final state while the trace is indexed
        conn.send(("state", out + ".state.npz"))
        timelines = {d: build_timeline(snapshot, d) for d in snapshot.devices()}
        save_npz(out, snapshot, timelines, with_snapshot=False)
        conn.send(("done", out))
    except SnapshotError as e:
        conn.send(("error", str(e)))
    except Exception as e:  # whatever broke, the window gets one line instead of a dead worker
        conn.send(("error", f"{type(e).__name__}: {e} ({path})"))
    finally:
        conn.close()
        os._exit(0)


@dataclass
class LoadResult:
    path: str
    snapshot: Snapshot | None = None
    timelines: dict[int, DeviceTimeline] | None = None  # None in the first, partial result
    error: str | None = None
    partial: bool = False  # the snapshot has arrived; its timelines follow in a later result


class FileLoadJob:
    """One file loading in its own process; poll() until it returns a LoadResult."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.stage = "reading"
        self.snapshot: Snapshot | None = None
        self._reading: threading.Thread | None = None
        self._read_result: LoadResult | None = None
        fd, self._out = tempfile.mkstemp(prefix="gpumem-gui-", suffix=".npz")
        os.close(fd)
        ctx = multiprocessing.get_context("spawn")
        self._conn, child = ctx.Pipe(duplex=False)
        self._proc = ctx.Process(target=_work, args=(path, self._out, child), daemon=True)
        self._proc.start()
        child.close()

    def poll(self) -> LoadResult | None:
        """The next result (the snapshot, then its timelines), else None. Never blocks: the .npz files are read in
        a thread of this process, since reading a hundred megabytes would stall a GUI thread."""
        if self._reading is not None:
            if self._reading.is_alive():
                return None
            self._reading = None
            result, self._read_result = self._read_result, None
            return result
        try:
            while self._conn.poll():
                kind, value = self._conn.recv()
                if kind == "stage":
                    self.stage = value
                elif kind in ("state", "done"):
                    reader = self._partial if kind == "state" else (lambda _v: self._finish())
                    self._reading = threading.Thread(target=self._read, args=(reader, value), daemon=True)
                    self._reading.start()
                    return None
                else:
                    self._cleanup()
                    return LoadResult(self.path, error=str(value))
        except (EOFError, OSError):
            pass
        if not self._proc.is_alive():
            self._cleanup()
            return LoadResult(self.path, error=f"the loading process stopped unexpectedly ({self.path})")
        return None

    def _read(self, reader: Any, value: Any) -> None:
        self._read_result = reader(value)

    def _partial(self, state_path: str) -> LoadResult:
        from gpumem_gui.sources.transfer import load_npz  # noqa: PLC0415

        try:
            self.snapshot, _ = load_npz(state_path)
        except (OSError, ValueError, KeyError) as e:
            self.cancel()
            return LoadResult(self.path, error=f"could not read the loaded data: {e} ({self.path})")
        finally:
            if os.path.exists(state_path):
                os.unlink(state_path)
        self.stage = "indexing the trace"
        return LoadResult(self.path, self.snapshot, partial=True)

    def _finish(self) -> LoadResult:
        from gpumem_gui.sources.transfer import load_npz  # noqa: PLC0415

        try:
            snapshot, timelines = load_npz(self._out, self.snapshot)
        except (OSError, ValueError, KeyError) as e:
            return LoadResult(self.path, error=f"could not read the loaded data: {e} ({self.path})")
        finally:
            self._cleanup()
        return LoadResult(self.path, snapshot, timelines)

    def cancel(self) -> None:
        if self._proc.is_alive():
            self._proc.kill()
        self._cleanup()

    def _cleanup(self) -> None:
        self._proc.join(timeout=5)
        self._conn.close()
        for leftover in (self._out, self._out + ".state.npz"):
            if os.path.exists(leftover):
                os.unlink(leftover)

    def wait(self, timeout: float = 120.0) -> LoadResult:
        """Block until done (for scripts and tests)."""
        import time  # noqa: PLC0415

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            result = self.poll()
            if result is not None and not result.partial:
                return result
            time.sleep(0.02)
        self.cancel()
        return LoadResult(self.path, error=f"loading took longer than {timeout:.0f} s ({self.path})")
