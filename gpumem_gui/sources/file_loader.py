"""FileLoadJob: loads and indexes a snapshot file in a separate process, which can be killed to cancel.

The worker unpickles (globals refused), converts to columns and builds every device's timeline, then hands the
result over as an .npz file read without pickle. The million dicts of a big file never enter the GUI process, and
the worker leaves with os._exit, so nobody waits for them to be freed.
"""

from __future__ import annotations

import multiprocessing
import os
import tempfile
from dataclasses import dataclass
from multiprocessing.connection import Connection

from gpumem_gui.core.errors import SnapshotError
from gpumem_gui.core.model import Snapshot
from gpumem_gui.core.timetravel import DeviceTimeline


def _work(path: str, out: str, conn: Connection) -> None:
    try:
        from gpumem_gui.core.loader import load_snapshot  # noqa: PLC0415 (the worker imports what it runs)
        from gpumem_gui.core.timetravel import build_timeline  # noqa: PLC0415
        from gpumem_gui.core.transfer import save_npz  # noqa: PLC0415

        snapshot = load_snapshot(path)
        conn.send(("stage", "indexing the trace"))
        timelines = {d: build_timeline(snapshot, d) for d in snapshot.devices()}
        conn.send(("stage", "handing over"))
        save_npz(out, snapshot, timelines)
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
    timelines: dict[int, DeviceTimeline] | None = None
    error: str | None = None


class FileLoadJob:
    """One file loading in its own process; poll() until it returns a LoadResult."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.stage = "reading"
        fd, self._out = tempfile.mkstemp(prefix="gpumem-gui-", suffix=".npz")
        os.close(fd)
        ctx = multiprocessing.get_context("spawn")
        self._conn, child = ctx.Pipe(duplex=False)
        self._proc = ctx.Process(target=_work, args=(path, self._out, child), daemon=True)
        self._proc.start()
        child.close()

    def poll(self) -> LoadResult | None:
        """The result once the worker is done, else None (never blocks)."""
        try:
            while self._conn.poll():
                kind, value = self._conn.recv()
                if kind == "stage":
                    self.stage = value
                elif kind == "done":
                    return self._finish()
                else:
                    self._cleanup()
                    return LoadResult(self.path, error=str(value))
        except (EOFError, OSError):
            pass
        if not self._proc.is_alive():
            self._cleanup()
            return LoadResult(self.path, error=f"the loading process stopped unexpectedly ({self.path})")
        return None

    def _finish(self) -> LoadResult:
        from gpumem_gui.core.transfer import load_npz  # noqa: PLC0415

        try:
            snapshot, timelines = load_npz(self._out)
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
        if os.path.exists(self._out):
            os.unlink(self._out)

    def wait(self, timeout: float = 120.0) -> LoadResult:
        """Block until done (for scripts and tests)."""
        import time  # noqa: PLC0415

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            result = self.poll()
            if result is not None:
                return result
            time.sleep(0.02)
        self.cancel()
        return LoadResult(self.path, error=f"loading took longer than {timeout:.0f} s ({self.path})")
