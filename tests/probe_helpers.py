"""Starting real probe processes for the tests: the demo job, a script under `python -m gpumem_gui.probe`, or a
job on the fake torch of tests/fake_torch."""

from __future__ import annotations

import contextlib
import json
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


FAKE_TORCH = Path(__file__).resolve().parent / "fake_torch"


class FakeTorchJob:
    """tests/fake_torch/job.py in a subprocess, with the fake torch first on its path: `do` sends it one command
    (init, alloc N, free, oom, record N, probe) and waits for it to be done. Under the probe unless `probe=False`."""

    def __init__(self, tmp_path: Path, *, variant: str = "", probe: bool = True, probe_args: tuple[str, ...] = ()):
        self.log_path = tmp_path / f"fake-torch-{variant or 'default'}.jsonl"
        env = dict(os.environ, FAKE_TORCH=variant, FAKE_TORCH_LOG=str(self.log_path))
        env["PYTHONPATH"] = os.pathsep.join([str(FAKE_TORCH), *filter(None, [env.get("PYTHONPATH")])])
        job = str(FAKE_TORCH / "job.py")
        command = [sys.executable, "-m", "gpumem_gui.probe", *probe_args, job] if probe else [sys.executable, job]
        self.stderr_path = tmp_path / f"job-{variant or 'default'}.stderr"
        self._stderr = self.stderr_path.open("w")
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr,
                                     text=True, env=env)  # fmt: skip
        self.socket = wait_for_socket(self.proc.pid, self.proc) if probe else None

    def do(self, command: str) -> list[str]:
        """Send one command; the lines the job printed for it, up to and including `done COMMAND`."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        lines = []
        while True:
            line = self.proc.stdout.readline()  # the job answers every command; EOF means it died
            if not line:
                raise RuntimeError(f"the job died on {command!r}: {self.stderr()}")
            lines.append(line.rstrip("\n"))
            if line.startswith(f"done {command.split(maxsplit=1)[0]}"):
                return lines

    def stderr(self) -> str:
        """What the job wrote on stderr so far (the probe's lines among it)."""
        return self.stderr_path.read_text()

    def calls(self) -> list[dict[str, object]]:
        if not self.log_path.exists():
            return []
        return [json.loads(line) for line in self.log_path.read_text().splitlines()]

    def finish(self) -> int:
        """Tell the job to exit and wait for it: its exit status."""
        if self.proc.poll() is None and self.proc.stdin is not None:
            with contextlib.suppress(OSError):
                self.proc.stdin.write("exit\n")
                self.proc.stdin.close()
        try:
            return self.proc.wait(timeout=30)
        finally:
            stop(self.proc)
            self._stderr.close()
