"""Starting real probe processes for the tests: the demo job, or a script under `python -m gpumem_gui.probe`."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from gpumem_gui.demo_job import SimulatorBackend
from gpumem_gui.probe import wire
from gpumem_gui.probe.server import ProbeServer


def wait_for_socket(pid: int, proc: subprocess.Popen[str], timeout: float = 30.0) -> Path:
    path = wire.socket_path(pid)
    deadline = time.monotonic() + timeout
    while not path.exists():
        if proc.poll() is not None:
            out = proc.stdout.read() if proc.stdout else ""
            raise RuntimeError(f"the probe process exited with {proc.returncode}: {out}")
        if time.monotonic() > deadline:
            raise TimeoutError(f"no probe socket at {path}")
        time.sleep(0.05)
    return path


def start_demo_job(*args: str) -> tuple[subprocess.Popen[str], Path]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "gpumem_gui", "demo-job", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=dict(os.environ),
    )
    return proc, wait_for_socket(proc.pid, proc)


def stop(proc: subprocess.Popen[str]) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    if proc.stdout:
        proc.stdout.close()


def serve_simulated(tmp_path: Path) -> tuple[ProbeServer, SimulatorBackend]:
    """A probe server in this process on a simulated 4 GiB allocator, listening in a private folder of `tmp_path`:
    a live session without a job process to start. The caller stops it."""
    directory = tmp_path / "sockets"
    directory.mkdir(mode=0o700)
    backend = SimulatorBackend(capacity=4 << 30)
    server = ProbeServer(backend, directory=directory, oom_dir=tmp_path / "oom")
    server.start()
    return server, backend
