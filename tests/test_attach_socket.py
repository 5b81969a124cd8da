"""`attach --socket PATH`: a probe whose socket is at a custom path (or forwarded, as `ssh -L` does) is reached by its
path, from the command line and the window; a path that is no probe is one line, exit 2, within a bounded time."""

from __future__ import annotations

import contextlib
import os
import pickle
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from gpumem_gui import cli
from gpumem_gui.core.snapshot.loader import load_snapshot
from gpumem_gui.core.snapshot.model import BlockState
from gpumem_gui.probe import wire
from gpumem_gui.sources.probe_socket import connect
from tests.memory_bounds import run_measured
from tests.probe_helpers import FakeTorchJob

MiB = 1 << 20
SIZES = (3 * MiB, 5 * MiB)  # the fake allocator gives each its own segment of exactly that size (both 512-aligned)


@pytest.fixture
def job(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[FakeTorchJob, Path]]:
    """A job on the fake torch under `python -m gpumem_gui.probe`, its socket in a folder of this test's own; the
    viewer's environment is set back afterwards, so only the path given leads to it."""
    folder = tmp_path / "s"
    viewer_dir = os.environ.get(wire.SOCKET_DIR_ENV)
    monkeypatch.setenv(wire.SOCKET_DIR_ENV, str(folder))
    started = FakeTorchJob(tmp_path, probe_args=("--max-entries", "1000"))
    if viewer_dir is not None:
        monkeypatch.setenv(wire.SOCKET_DIR_ENV, viewer_dir)
    assert started.socket == folder / f"probe-{started.proc.pid}.sock"
    started.do("init")
    for size in SIZES:
        started.do(f"alloc {size}")
    yield started, started.socket
    started.finish()
    assert not list(folder.iterdir())  # the probe took its socket with it


class Relay:
    """What `ssh -L LOCAL:REMOTE` does on the desktop: a socket of its own that pipes each connection to the probe.
    The connection's peer is then this process, not the job: the window must tell a forwarded probe apart."""

    def __init__(self, listen_at: Path, target: Path) -> None:
        self.path, self.target = listen_at, target
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(str(listen_at))
        self.listener.listen(8)
        self.sockets: list[socket.socket] = [self.listener]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                near, _ = self.listener.accept()
            except OSError:
                return
            far = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            far.connect(str(self.target))
            self.sockets += [near, far]
            for a, b in ((near, far), (far, near)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(src: socket.socket, dst: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while chunk := src.recv(1 << 16):
                dst.sendall(chunk)
        with contextlib.suppress(OSError):
            dst.shutdown(socket.SHUT_WR)

    def close(self) -> None:
        for s in self.sockets:
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
            s.close()
        self.path.unlink(missing_ok=True)


def _attach(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str, float]:
    began = time.monotonic()
    code = cli.main(["attach", *args])
    out, err = capsys.readouterr()
    return code, out, err, time.monotonic() - began


def test_save_once_through_the_socket_path(job, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    proc_job, path = job
    out = tmp_path / "now.pickle"
    code, text, err, _ = _attach(capsys, "--socket", str(path), "--save", str(out), "--once")
    assert (code, err) == (0, "")
    assert text.startswith(f"wrote {out}: ") and f"(pid {proc_job.proc.pid})" in text
    # the oracle: the raw pickle, as the fake's allocator laid it out (a segment per allocation, in order)
    with out.open("rb") as f:
        raw = pickle.load(f)
    assert [s["total_size"] for s in raw["segments"]] == list(SIZES)
    assert [e["action"] for e in raw["device_traces"][0]] == ["segment_alloc", "alloc"] * 2
    snap = load_snapshot(out)
    allocated = snap.state.blocks.size[snap.state.blocks.state == BlockState.ALLOCATED]
    assert sorted(allocated.tolist()) == sorted(SIZES) and len(snap.trace(0)) == 4
    # without the trace, through a symlink to the socket
    link = tmp_path / "link.sock"
    link.symlink_to(path)
    code, text, err, _ = _attach(capsys, "--socket", str(link), "--save", str(out), "--no-trace")
    assert code == 0 and "0 trace events" in text
    assert not any(pickle.loads(out.read_bytes())["device_traces"])


def test_a_forwarded_socket_is_a_job_of_another_machine(job, tmp_path: Path, capsys) -> None:
    proc_job, path = job
    relay = Relay(tmp_path / "fwd.sock", path)
    try:
        client, probe = connect(relay.path)
        client.close()
        assert probe.pid == proc_job.proc.pid and not probe.local and probe.rank is None
        client, direct = connect(path)
        client.close()
        assert direct.local and direct.pid == proc_job.proc.pid
        out = tmp_path / "fwd.pickle"
        code, text, err, _ = _attach(capsys, "--socket", str(relay.path), "--save", str(out))
        assert (code, err) == (0, "") and f"(pid {proc_job.proc.pid} via {relay.path})" in text
        assert int(load_snapshot(out).state.segments.total_size.sum()) == sum(SIZES)
    finally:
        relay.close()


def test_the_window_attaches_to_a_socket_path(job, tmp_path: Path, qtbot) -> None:
    from gpumem_gui.app import MainWindow  # noqa: PLC0415
    from gpumem_gui.views.live.live_view import LiveView  # noqa: PLC0415

    _job, path = job
    relay = Relay(tmp_path / "fwd.sock", path)
    window = MainWindow()
    qtbot.addWidget(window)
    try:
        attaching = [window.attach(path), window.attach(relay.path)]  # each in a task of its own
        views = [a.wait_view() if a is not None else None for a in attaching]
        assert all(isinstance(v, LiveView) for v in views)
        direct, forwarded = views
        assert direct is not None and forwarded is not None
        qtbot.waitUntil(lambda: direct.frames >= 1 and forwarded.frames >= 1, timeout=10_000)
        for view in views:
            assert view.document is not None and view.document.state is not None
            assert int(view.document.state.segments.total_size.sum()) == sum(SIZES)
        assert direct.local and direct.session.nvml_used is not None
        # the forward's pid is another machine's: this machine's NVML is not asked about it, and the header says so
        assert not forwarded.local and forwarded.session.nvml_used is None
        assert f"via {relay.path}" in forwarded.header.text() and "another machine" not in direct.header.text()
    finally:
        for view in window.live_views:
            view.close_session()
            assert view.tasks.wait(3000)
        relay.close()


# -- paths that are no probe: one line, exit 2, bounded ------------------------------------------------------


@contextlib.contextmanager
def _peer(path: Path, behaviour: str) -> Iterator[None]:
    """A socket at `path` that is no (good) probe: silent, closing at once, another protocol, a probe that
    answers its hello and then sends the snapshot a byte at a time ("trickle"), one that answers its hello with JSON
    nested 100,000 deep ("deep"), or one that announces a 15 GiB snapshot and sends HUGE_SENT bytes of it
    ("huge")."""
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(path))
    listener.listen(4)
    stop = threading.Event()
    held: list[socket.socket] = []

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            held.append(conn)
            with contextlib.suppress(OSError):
                if behaviour == "close":
                    conn.close()
                elif behaviour == "http":
                    conn.sendall(b"HTTP/1.1 400 Bad Request\r\n\r\n")
                elif behaviour == "deep":
                    wire.read_json(conn)
                    nested = b"[" * 100_000 + b"]" * 100_000
                    conn.sendall(wire.HEADER.pack(wire.MAGIC, wire.VERSION, wire.JSON_KIND, 0, len(nested)) + nested)
                elif behaviour in ("trickle", "huge"):
                    wire.read_json(conn)
                    conn.sendall(wire.encode_json({"ok": True, "op": "hello", "id": 1, "pid": 1, "probe_protocol": 1}))
                    wire.read_json(conn)
                    size = 1000 if behaviour == "trickle" else 15 << 30
                    conn.sendall(wire.encode_json({"ok": True, "op": "snapshot", "id": 2, "bytes": size}))
                    conn.sendall(wire.encode_bytes_header(size))
                    if behaviour == "huge":
                        zeros = bytes(1 << 20)
                        for _ in range(HUGE_SENT >> 20):
                            conn.sendall(zeros)
                        conn.close()
                        continue
                    while not stop.wait(0.1):  # every read gets a byte well within any per-read timeout
                        conn.sendall(b"x")

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        for s in [listener, *held]:
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
            s.close()
        thread.join(5)
        path.unlink(missing_ok=True)


@pytest.mark.parametrize(
    ("behaviour", "timeout", "said"),
    [
        ("silent", "1", "the probe's hello took longer than 1 s"),
        ("close", "5", "closed without an answer: no probe behind it"),
        ("http", "5", "is not a gpumem-gui probe"),
        ("trickle", "1.5", "the snapshot took longer than 1.5 s"),
        ("deep", "5", "is not a gpumem-gui probe"),
    ],
)
def test_a_peer_that_is_no_probe(tmp_path: Path, capsys, behaviour: str, timeout: str, said: str) -> None:
    path = tmp_path / "peer.sock"
    with _peer(path, behaviour):
        code, out, err, took = _attach(capsys, "--socket", str(path), "--save", str(tmp_path / "x"), "--timeout",
                                       timeout)  # fmt: skip
    assert code == cli.EXIT_BAD_INPUT and out == "" and said in err and err.count("\n") == 1, err
    assert took < float(timeout) + 2.0 and not (tmp_path / "x").exists()


def test_paths_that_are_not_a_listening_socket(tmp_path: Path, capsys) -> None:
    (tmp_path / "file").write_text("x")
    stale = tmp_path / "stale.sock"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.bind(str(stale))  # bound, never listening, left behind: a job that died, or an ssh that ended
    sock.close()
    cases = {
        tmp_path / "file": "is a file, not a probe's socket",
        tmp_path: "is a folder, not a probe's socket",
        tmp_path / "none.sock": "no socket at",
        stale: "nothing listens at",
    }
    for path, said in cases.items():
        for extra in ([], ["--save", str(tmp_path / "out.pickle")]):  # the window's way is checked first too
            code, _out, err, took = _attach(capsys, "--socket", str(path), *extra)
            assert code == cli.EXIT_BAD_INPUT and said in err and err.count("\n") == 1 and took < 2, (path, err)
    stale.unlink()


def test_the_options_that_do_not_go_together(capsys) -> None:
    for args, said in [
        (["12", "--socket", "/tmp/x.sock"], "not both"),
        (["--list", "--socket", "/tmp/x.sock"], "--list takes no PID"),
        (["--socket", "/tmp/x.sock", "--once"], "--once needs --save"),
        (["--socket", "/tmp/x.sock", "--timeout", "0"], "--timeout must be a positive"),
        ([], "give a PID"),
    ]:
        code, _out, err, _ = _attach(capsys, *args)
        assert code == cli.EXIT_BAD_INPUT and said in err, (args, err)


HUGE_SENT = 384 << 20


def test_a_huge_snapshot_streams_to_disk_not_memory(tmp_path: Path) -> None:
    # issue 27, item 6: the announced 15 GiB were buffered in memory (5.5 GB RSS, then a MemoryError traceback);
    # the client in a process of its own, whose peak RSS must stay far below what the peer sent
    path = tmp_path / "peer.sock"
    out = tmp_path / "x.pickle"
    with _peer(path, "huge"):
        said, peak = run_measured("attach", str(path), str(out))
    assert peak < HUGE_SENT // 2, f"peak RSS {peak >> 20} MB"
    gone, no_room = "has gone during the transfer", "does not fit in the free space"
    assert said.count("\n") == 1 and (gone in said or no_room in said), said
    assert not out.exists() and not out.with_name(out.name + ".part").exists()


def test_the_window_s_live_session_streams_a_huge_snapshot_to_disk_too(tmp_path: Path) -> None:
    # `attach --socket` without --save opens the window's live session, which held every snapshot in memory
    path = tmp_path / "peer.sock"
    with _peer(path, "huge"):
        said, peak = run_measured("live", str(path))
    assert peak < HUGE_SENT // 2, f"peak RSS {peak >> 20} MB"
    assert "has exited" in said or "closed its probe" in said or "does not fit" in said, said
    assert "Traceback" not in said


def test_a_snapshot_larger_than_the_free_space_is_refused_before_it_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    real = os.fstatvfs

    def little_room(fd: int) -> os.statvfs_result:
        info = real(fd)
        return os.statvfs_result((info.f_bsize, 4096, 0, 0, (1 << 30) // 4096, *info[5:]))  # 1 GiB free

    monkeypatch.setattr(os, "fstatvfs", little_room)
    path = tmp_path / "peer.sock"
    with _peer(path, "huge"):
        code, out, err, _ = _attach(capsys, "--socket", str(path), "--save", str(tmp_path / "x"))
    assert code == cli.EXIT_BAD_INPUT and out == "" and err.count("\n") == 1, err
    assert "(16,106,127,360 bytes) does not fit in the free space where it is stored (1,073,741,824 bytes free)" in err
    assert not list(tmp_path.glob("x*"))


def test_listing_skips_a_socket_that_answers_with_deep_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "s"
    folder.mkdir(mode=0o700)
    monkeypatch.setenv(wire.SOCKET_DIR_ENV, str(folder))
    with _peer(folder / f"probe-{os.getpid()}.sock", "deep"):  # a live pid: listing asks its socket for a hello
        code, out, err, _ = _attach(capsys, "--list")
    assert code == 0 and "Traceback" not in err and f"{os.getpid():>8}" not in out, (out, err)
