"""The probe inside a training process: serves its caching allocator's snapshots to gpumem-gui over a private socket.

    import gpumem_gui.probe; gpumem_gui.probe.start()        # one line in the training script, or
    python -m gpumem_gui.probe [options] train.py [args...]  # no change to the script at all

Importing this loads neither Qt nor numpy, nor torch until `start` is called; it uses the standard library only.
"""

from __future__ import annotations

import atexit
import contextlib
import sys
import threading
from pathlib import Path
from typing import Any

_server: Any = None
_lock = threading.Lock()

DEFAULT_MAX_ENTRIES = 50_000  # trace events kept in torch's ring buffer: a few tens of MB, minutes of history


def start(
    *,
    max_entries: int = DEFAULT_MAX_ENTRIES,
    stacks: str = "python",
    oom_dir: str | Path | None = None,
    record: bool = True,
    backend: Any = None,
    socket_dir: str | Path | None = None,
) -> Any:
    """Start the probe (once per process; later calls return the running one). Never raises: a probe that cannot
    start says why once on stderr and returns None, and the job goes on."""
    global _server  # noqa: PLW0603 (one probe per process, by design)
    with _lock:
        if _server is not None:
            return _server
        try:
            from gpumem_gui.probe.server import ProbeServer  # noqa: PLC0415

            if backend is None:
                from gpumem_gui.probe.torch_backend import TorchBackend  # noqa: PLC0415

                backend = TorchBackend(max_entries=max_entries, stacks=stacks, record=record)
            server = ProbeServer(
                backend,
                directory=Path(socket_dir) if socket_dir else None,
                oom_dir=Path(oom_dir).resolve() if oom_dir else default_oom_dir(),
            )
            server.start()
        except Exception as exc:
            from gpumem_gui.probe.wire import SocketDirError  # noqa: PLC0415

            reason = str(exc) if isinstance(exc, SocketDirError) else f"{type(exc).__name__}: {exc}"
            print(f"gpumem-gui probe: not started: {reason}", file=sys.stderr)
            return None
        _server = server
        atexit.register(stop)
        return server


def default_oom_dir() -> Path:
    """Where OOM snapshots go unless told: the user's cache, which outlives the job and a reboot's /tmp."""
    import os  # noqa: PLC0415

    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(cache) / "gpumem-gui" / "oom"


def stop() -> None:
    """Close the socket and remove it; safe to call twice."""
    global _server
    with _lock:
        server, _server = _server, None
    if server is not None:
        with contextlib.suppress(Exception):
            server.stop()


def running() -> Any:
    """The running ProbeServer, or None."""
    return _server
