"""The probe under stress and misuse: OOMs racing snapshots, viewers that stop reading or never speak, requests out
of bounds, stale sockets, socket folders that are too long or someone else's. Real sockets, deadlines, no sleeps."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from gpumem_gui.core.allocator.simulator import OutOfMemoryError
from gpumem_gui.core.rules.allocator_constants import GiB, MiB
from gpumem_gui.demo_job import SimulatorBackend
from gpumem_gui.probe import server as server_module
from gpumem_gui.probe import wire
from gpumem_gui.probe.server import ProbeServer
from gpumem_gui.sources.local_jobs import local_jobs
from gpumem_gui.sources.probe_client import ProbeClient, ProbeError, list_probes
from tests.probe_helpers import serve_simulated


def wait_until(condition: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout} s: {what}")
        time.sleep(0.01)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[ProbeServer, SimulatorBackend]]:
    server, backend = serve_simulated(tmp_path)
    yield server, backend
    server.stop()


def _silent(server: ProbeServer) -> socket.socket:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(10)
    assert server.path is not None
    sock.connect(str(server.path))
    return sock


def _closed_by_probe(sock: socket.socket) -> bool:
    try:
        sock.setblocking(False)
        try:
            return sock.recv(1, socket.MSG_PEEK) == b""
        except BlockingIOError:
            return False
    except ConnectionResetError:
        return True
    finally:
        sock.setblocking(True)


def _run_with_deadline(target: Callable[[], object], timeout: float, what: str) -> object:
    """Run `target` in a daemon thread; its result, or a failure naming `what` if it is not done in time (a thread
    stuck in a deadlock stays stuck, but the test ends)."""
    result: list[object] = []
    errors: list[BaseException] = []

    def run() -> None:
        try:
            result.append(target())
        except BaseException as exc:  # handed to the test's thread
            errors.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(timeout)
    if thread.is_alive():
        raise AssertionError(f"{what} did not finish in {timeout} s: stuck")
    if errors:
        raise errors[0]
    return result[0] if result else None


# -- 1. deadlock: the job's OOM path against viewers' snapshots ------------------------------------------------


def test_snapshots_racing_ooms_never_freeze_the_job(
    served: tuple[ProbeServer, SimulatorBackend], monkeypatch: pytest.MonkeyPatch
) -> None:
    server, backend = served
    monkeypatch.setattr(server_module, "MAX_OOM_FILES", 10_000)  # every OOM takes its snapshot: the racy path
    kept = [backend.malloc(64 * MiB, []) for _ in range(8)]
    stop = threading.Event()
    served_snapshots = [0]

    def viewer() -> None:
        with ProbeClient(server.path, timeout=30) as client:
            while not stop.is_set():
                client.snapshot_bytes(include_traces=True)
                served_snapshots[0] += 1

    viewers = [threading.Thread(target=viewer, daemon=True) for _ in range(4)]
    for thread in viewers:
        thread.start()
    wait_until(lambda: served_snapshots[0] >= 4, 10, "the viewers to get going")

    def job() -> int:
        ooms = 0
        for _ in range(150):
            with pytest.raises(OutOfMemoryError):
                backend.malloc(64 * GiB, [])
            ooms += 1
            backend.free(backend.malloc(3 * MiB, []))
        return ooms

    try:
        assert _run_with_deadline(job, 30, "the job's 150 OOMs while 4 viewers take snapshots") == 150
    finally:
        stop.set()
    for thread in viewers:
        thread.join(30)
    assert server.oom_count == 150 and len(list((server.oom_dir or Path()).glob("*.pickle"))) == 150
    assert served_snapshots[0] > 4
    for block in kept:
        backend.free(block)


# -- 2. slow and silent clients -------------------------------------------------------------------------------


def _a_long_trace(backend: SimulatorBackend) -> None:
    for _ in range(15_000):  # a snapshot of a few MB: far more than a socket buffer holds
        backend.free(backend.malloc(5 * MiB, []))


def test_a_viewer_that_stops_reading_holds_up_no_one(served: tuple[ProbeServer, SimulatorBackend]) -> None:
    server, backend = served
    _a_long_trace(backend)
    stuck = _silent(server)
    stuck.sendall(wire.encode_json({"op": "snapshot", "id": 1}))  # ...and never reads the reply
    # the probe is mid-send to it once the first bytes are in its buffer
    wait_until(lambda: len(stuck.recv(16, socket.MSG_PEEK)) > 0, 10, "the snapshot reply to start")
    size = len(_run_with_deadline(lambda: _snapshot_bytes(server), 10, "another viewer's snapshot"))  # type: ignore[arg-type]
    assert size > 1_000_000

    def oom() -> None:
        with pytest.raises(OutOfMemoryError):
            backend.malloc(64 * GiB, [])

    _run_with_deadline(oom, 10, "the job's OOM, with a snapshot written")
    assert server.oom_count == 1 and Path(server.last_oom["path"]).exists()  # type: ignore[index]
    stuck.close()


def _snapshot_bytes(server: ProbeServer) -> bytes:
    with ProbeClient(server.path, timeout=30) as client:  # type: ignore[arg-type]
        return client.snapshot_bytes()


def test_silent_connections_cannot_lock_out_a_viewer(served: tuple[ProbeServer, SimulatorBackend]) -> None:
    server, _ = served  # the default limits
    silent = [_silent(server) for _ in range(server.max_connections + 2)]
    with ProbeClient(server.path, timeout=5) as client:  # refused with "too many viewers attached" before
        assert client.hello()["pid"] == os.getpid()
    for sock in silent:
        sock.close()


def test_silent_connections_are_closed_and_the_oldest_make_room(tmp_path: Path) -> None:
    directory = tmp_path / "s"
    directory.mkdir(mode=0o700)
    server = ProbeServer(SimulatorBackend(capacity=GiB), directory=directory, max_pending=4, first_request_s=0.5)
    server.start()
    try:
        crowd = [_silent(server) for _ in range(4)]
        wait_until(lambda: len(server._pending) == 4, 5, "four pending connections")
        late = [_silent(server) for _ in range(3)]  # over the limit: the oldest three go at once
        wait_until(lambda: all(_closed_by_probe(s) for s in crowd[:3]), 5, "the oldest silent ones to be closed")
        with ProbeClient(server.path, timeout=5) as client:
            assert client.hello()["backend"] == "simulator"
            # and the rest go when they have said nothing for first_request_s; the viewer stays
            wait_until(lambda: all(_closed_by_probe(s) for s in [crowd[3], *late]), 5, "the silent ones closed")
            assert client.stats()["devices"]
        for sock in crowd + late:
            sock.close()
    finally:
        server.stop()


def test_idle_viewers_give_their_place_busy_ones_keep_it(tmp_path: Path) -> None:
    directory = tmp_path / "s"
    directory.mkdir(mode=0o700)
    server = ProbeServer(SimulatorBackend(capacity=GiB), directory=directory, max_connections=2, idle_evict_s=0.3)
    server.start()
    try:
        first, second = ProbeClient(server.path, timeout=5), ProbeClient(server.path, timeout=5)
        first.hello()
        second.hello()
        with pytest.raises(ProbeError, match="too many viewers"), ProbeClient(server.path, timeout=5) as third:
            third.hello()  # both are fresh: the limit holds
        wait_until(lambda: time.monotonic() - max(server._viewers.values()) > 0.3, 5, "both viewers to idle")
        second.stats()  # the second is busy again; the first idles on
        with ProbeClient(server.path, timeout=5) as newcomer:
            assert newcomer.hello()["backend"] == "simulator"
        with pytest.raises(ProbeError):
            first.stats()  # it was the one that made room
        assert second.stats()["devices"]
        first.close()
        second.close()
    finally:
        server.stop()


def test_a_probe_with_every_place_taken_is_still_listed(tmp_path: Path) -> None:
    directory = tmp_path / "s"
    directory.mkdir(mode=0o700)
    server = ProbeServer(SimulatorBackend(capacity=GiB), directory=directory, max_connections=1)
    server.start()
    try:
        with ProbeClient(server.path, timeout=5) as viewer:
            viewer.hello()
            assert [p.pid for p in list_probes(directory)] == [os.getpid()]  # refused a place, but it answered
            assert viewer.stats()["devices"]
    finally:
        server.stop()


# -- 3. bounds ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        {"enabled": True, "max_entries": True},  # JSON true is not one entry
        {"enabled": True, "max_entries": 2**62},
        {"enabled": True, "max_entries": wire.MAX_HISTORY_ENTRIES + 1},
        {"enabled": True, "max_entries": 1.5},
        {"enabled": True, "max_entries": "10"},
        {"enabled": True, "max_entries": 0},
        {"enabled": True, "max_entries": -3},
        {"enabled": 1},
        {"enabled": True, "stacks": ["python"]},
        {"enabled": True, "stacks": 7},
    ],
)
def test_history_out_of_bounds_is_refused(served: tuple[ProbeServer, SimulatorBackend], args: dict) -> None:
    server, backend = served
    before = backend.sim.max_entries
    with ProbeClient(server.path, timeout=5) as client:
        with pytest.raises(ProbeError, match=r"max_entries|enabled|stacks"):
            client.request("history", **args)
        assert backend.sim.max_entries == before  # nothing changed
        assert client.history(True, max_entries=wire.MAX_HISTORY_ENTRIES)["recording"].startswith("on")


def test_snapshot_include_traces_must_be_a_boolean(served: tuple[ProbeServer, SimulatorBackend]) -> None:
    server, _ = served
    with ProbeClient(server.path, timeout=5) as client:
        with pytest.raises(ProbeError, match="include_traces"):
            client.request("snapshot", include_traces="no")  # truthy: it meant the full trace before
        assert len(client.snapshot_bytes(include_traces=False)) > 0


def test_max_entries_out_of_bounds_at_start(tmp_path: Path) -> None:
    script = tmp_path / "job.py"
    script.write_text("print('ran')\n")
    for bad in ("0", str(wire.MAX_HISTORY_ENTRIES + 1)):
        out = subprocess.run([sys.executable, "-m", "gpumem_gui.probe", "--max-entries", bad, str(script)],
                             capture_output=True, text=True, timeout=60, check=False)  # fmt: skip
        assert out.returncode == 2 and "--max-entries must be from 1 to" in out.stderr and "ran" not in out.stdout
    from gpumem_gui.probe.torch_backend import TorchBackend  # noqa: PLC0415

    for value in (True, 2**62, 1.0):
        with pytest.raises(ValueError, match="max_entries"):
            TorchBackend(max_entries=value)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="stacks must be one of python, all, none"):
        TorchBackend(stacks="cpp")


def test_a_stale_socket_whose_pid_was_reused_is_not_listed(tmp_path: Path) -> None:
    directory = tmp_path / "s"
    directory.mkdir(mode=0o700)
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])  # "the pid's new owner"
    try:
        stale = wire.socket_path(other.pid, directory)
        leftover = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        leftover.bind(str(stale))  # a killed job's socket: the file stays, nobody listens
        leftover.close()
        mute = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)  # listens, but is no probe: never answers
        mute.bind(str(wire.socket_path(os.getpid(), directory)))
        mute.listen(4)
        started = time.monotonic()
        assert list_probes(directory, handshake_s=0.5) == []
        assert time.monotonic() - started < 10
        jobs = local_jobs(directory)
        assert all(job.probe is None for job in jobs.jobs) and jobs.probe_error is None
        with pytest.raises(ProbeError, match="its job has gone"):
            ProbeClient.for_pid(other.pid, directory)
        mute.close()
    finally:
        other.kill()
        other.wait()


# -- 5. socket folders: too long, or not ours ------------------------------------------------------------------


def _fd_count() -> int:
    return len(os.listdir("/proc/self/fd"))


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="counts descriptors through /proc")
def test_a_folder_too_long_for_a_socket_fails_cleanly(tmp_path: Path) -> None:
    deep = tmp_path / ("d" * 60) / ("e" * 60)
    deep.mkdir(parents=True, mode=0o700)
    os.chmod(deep, 0o700)
    server = ProbeServer(SimulatorBackend(capacity=GiB), directory=deep)
    before = _fd_count()
    with pytest.raises(OSError) as failure:
        server.start()
    assert _fd_count() == before  # the socket a failed bind made is closed (it outlived the error before)
    assert list(deep.iterdir()) == []  # and no file is left
    assert "over the 107 a socket address holds: give a shorter socket folder" in str(failure.value)


def test_a_long_socket_folder_falls_back_to_a_short_one(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    short_root = Path(tempfile.mkdtemp(prefix="gg-", dir="/tmp"))
    try:
        long_dir = tmp_path / ("x" * 90)
        monkeypatch.setenv(wire.SOCKET_DIR_ENV, str(long_dir))
        monkeypatch.setattr(wire, "SHORT_ROOT", str(short_root))
        assert wire.socket_dir() == short_root / f"gpumem-gui-{os.getuid()}"
        server = ProbeServer(SimulatorBackend(capacity=GiB))  # the default folder, as a job gets it
        path = server.start()
        try:
            assert path.parent == short_root / f"gpumem-gui-{os.getuid()}" and not long_dir.exists()
            assert [p.pid for p in list_probes()] == [os.getpid()]  # a viewer in the same environment finds it
            with ProbeClient.for_pid(os.getpid()) as client:
                assert client.hello()["socket"] == str(path)
        finally:
            server.stop()
        monkeypatch.setenv(wire.SOCKET_DIR_ENV, str(tmp_path / "short"))
        assert wire.socket_dir() == tmp_path / "short"  # a folder that fits is used as given
    finally:
        for child in sorted(short_root.rglob("*"), reverse=True):
            child.rmdir() if child.is_dir() else child.unlink()
        short_root.rmdir()


@pytest.fixture(params=["another user's", "open to others"])
def untrusted_dir(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[Path, str]:
    folder = tmp_path / "sockets"
    folder.mkdir()
    if request.param == "another user's":
        if os.getuid() != 0:
            pytest.skip("giving a folder to another user needs root")
        os.chown(folder, 12345, 12345)
        os.chmod(folder, 0o700)
        return folder, "belongs to another user (uid 12345)"
    os.chmod(folder, 0o755)
    return folder, "is open to other users (mode 755)"


def _cli(*args: str, env_dir: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, **{wire.SOCKET_DIR_ENV: str(env_dir)})
    return subprocess.run([sys.executable, "-m", "gpumem_gui", *args], capture_output=True, text=True, timeout=60,
                          env=env, check=False)  # fmt: skip


def test_an_untrusted_socket_folder_is_one_line_and_exit_2(untrusted_dir: tuple[Path, str], tmp_path: Path) -> None:
    folder, reason = untrusted_dir
    for args in (("attach", "--list"), ("attach", "4242", "--once", "--save", str(tmp_path / "x.pickle"))):
        out = _cli(*args, env_dir=folder)
        assert out.returncode == 2, out.stderr
        assert out.stderr.strip() == f"gpumem-gui: socket folder {folder} {reason}" + (
            "; expected 0700" if "open" in reason else ""
        )


def test_an_untrusted_socket_folder_leaves_the_job_running(untrusted_dir: tuple[Path, str], tmp_path: Path) -> None:
    folder, reason = untrusted_dir
    script = tmp_path / "job.py"
    script.write_text("print('the job ran')\n")
    env = dict(os.environ, **{wire.SOCKET_DIR_ENV: str(folder)})
    out = subprocess.run([sys.executable, "-m", "gpumem_gui.probe", str(script)], capture_output=True, text=True,
                         timeout=60, env=env, check=False)  # fmt: skip
    assert out.returncode == 0 and out.stdout == "the job ran\n"
    lines = out.stderr.strip().splitlines()
    assert (
        len(lines) == 1 and lines[0].startswith("gpumem-gui probe: not started: socket folder") and reason in lines[0]
    )


def test_the_attach_dialog_says_why_no_probe_is_listed(qtbot, untrusted_dir: tuple[Path, str]) -> None:
    from gpumem_gui.views.live.attach import AttachDialog  # noqa: PLC0415 (Qt only for this test)

    folder, reason = untrusted_dir
    dialog = AttachDialog(lambda: local_jobs(folder))
    qtbot.addWidget(dialog)
    qtbot.waitUntil(
        lambda: f"socket folder {folder} {reason}" in dialog.nvml_note.text(), timeout=10_000
    )  # not an empty list without a word


def test_the_demo_job_with_an_untrusted_socket_folder(untrusted_dir: tuple[Path, str]) -> None:
    folder, reason = untrusted_dir
    out = _cli("demo-job", "--seconds", "1", env_dir=folder)
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.strip() == f"gpumem-gui probe: not started: socket folder {folder} {reason}" + (
        "; expected 0700" if "open" in reason else ""
    )
