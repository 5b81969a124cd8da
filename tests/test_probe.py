"""The probe: a real server on a real Unix socket, its protocol limits, its security checks, its OOM capture."""

from __future__ import annotations

import os
import socket
import stat
import struct
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from gpumem_gui.core.rules.allocator_constants import GiB, MiB
from gpumem_gui.core.snapshot.loader import load_snapshot
from gpumem_gui.core.snapshot.model import BlockState
from gpumem_gui.demo_job import SimulatorBackend
from gpumem_gui.probe import wire
from gpumem_gui.probe.server import ProbeServer
from gpumem_gui.sources.probe_client import EventStream, ProbeClient, ProbeError, list_probes
from tests.conftest import wait_until
from tests.probe_helpers import serve_simulated, start_demo_job, stop, wait_for_socket


@pytest.fixture
def served(tmp_path: Path):
    server, backend = serve_simulated(tmp_path)
    blocks = [backend.malloc(size, []) for size in (100 * MiB, 3 * MiB, 700 * MiB)]
    backend.free(blocks[1])
    yield server, backend
    server.stop()


def _raw(server: ProbeServer) -> socket.socket:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(5)
    assert server.path is not None
    sock.connect(str(server.path))
    return sock


def _closed(sock: socket.socket) -> bool:
    try:
        return sock.recv(1) == b""
    except ConnectionResetError:  # closed with our unread bytes still in its buffer
        return True


def test_hello_stats_snapshot(served) -> None:
    server, backend = served
    with ProbeClient(server.path) as client:
        hello = client.hello()
        assert hello["pid"] == os.getpid() and hello["backend"] == "simulator" and hello["probe_protocol"] == 1
        stats = client.stats()["devices"][0]
        assert stats["stats"]["allocated_bytes.all.current"] == 800 * MiB
        assert stats["stats"]["reserved_bytes.all.current"] == backend.sim.reserved
        assert stats["stats"]["requested_bytes.all.current"] == 800 * MiB
        snap = client.snapshot()
        assert int(snap.state.blocks.size[snap.state.blocks.state == BlockState.ALLOCATED].sum()) == 800 * MiB
        assert int(snap.state.segments.total_size.sum()) == backend.sim.reserved
        assert len(snap.trace(0)) == 8  # 3 x (segment_alloc, alloc), free_requested, free_completed
        light = client.snapshot(include_traces=False)
        assert len(light.trace(0)) == 0 and len(light.state.segments) == len(snap.state.segments)


def test_socket_and_directory_are_private(served) -> None:
    server, _ = served
    assert stat.S_IMODE(server.path.stat().st_mode) == 0o600
    assert stat.S_IMODE(server.path.parent.stat().st_mode) == 0o700
    assert [p.pid for p in list_probes(server.path.parent)] == [os.getpid()]


def test_an_open_directory_is_refused(tmp_path: Path) -> None:
    open_dir = tmp_path / "open"
    open_dir.mkdir(mode=0o755)
    os.chmod(open_dir, 0o755)
    with pytest.raises(PermissionError, match="open to other users"):
        wire.check_private_dir(open_dir)
    server = ProbeServer(SimulatorBackend(capacity=GiB), directory=open_dir)
    with pytest.raises(PermissionError):
        server.start()
    with pytest.raises(ProbeError, match="open to other users"):  # said, not taken for "no probe running"
        list_probes(open_dir)


def test_malformed_and_oversized_messages_close_only_their_connection(served) -> None:
    server, _ = served
    keeper = ProbeClient(server.path)  # a well-behaved viewer, attached throughout
    bad_frames = [
        b"GARBAGE!" * 4,  # not our magic
        wire.HEADER.pack(wire.MAGIC, 99, b"J", 0, 2) + b"{}",  # another version
        wire.HEADER.pack(wire.MAGIC, 1, b"J", 0, 10 * 1024 * 1024),  # oversized: refused before it is read
        wire.HEADER.pack(wire.MAGIC, 1, b"J", 0, 5) + b"[1,2]",  # JSON, but not an object
        wire.HEADER.pack(wire.MAGIC, 1, b"J", 0, 4) + b"\xff\xfe{}",  # not UTF-8
        wire.HEADER.pack(wire.MAGIC, 1, b"X", 0, 0),  # unknown kind
    ]
    for frame in bad_frames:
        sock = _raw(server)
        sock.sendall(frame)
        reply = wire.read_json(sock)
        assert reply["ok"] is False and reply["error"]
        assert _closed(sock)  # and the probe closed that connection
        sock.close()
    assert keeper.stats()["devices"]  # the others go on being served
    with ProbeClient(server.path) as fresh:
        assert fresh.hello()["pid"] == os.getpid()
    keeper.close()


def test_bad_requests_keep_the_connection(served) -> None:
    server, _ = served
    with ProbeClient(server.path) as client:
        for op, args in (("nonsense", {}), ("mark", {"name": ""}), ("history", {"enabled": "yes"})):
            with pytest.raises(ProbeError):
                client.request(op, **args)
        assert client.hello()["backend"] == "simulator"


def test_another_uid_is_refused(tmp_path: Path) -> None:
    with pytest.raises(wire.PeerRefused, match="refused"):
        wire.check_peer(os.getuid() + 1)
    wire.check_peer(os.getuid())
    directory = tmp_path / "s"
    directory.mkdir(mode=0o700)
    server = ProbeServer(SimulatorBackend(capacity=GiB), directory=directory, peer_uid=lambda _c: os.getuid() + 1)
    server.start()
    try:
        with pytest.raises(ProbeError, match="refused"), ProbeClient(server.path) as client:
            client.hello()
        assert server.refused == 1
    finally:
        server.stop()


def test_real_peer_credentials_are_ours(served) -> None:
    server, _ = served
    sock = _raw(server)
    assert wire.peer_uid(sock) == os.getuid()
    sock.close()


def test_a_viewer_leaving_mid_transfer_changes_nothing(served) -> None:
    server, backend = served
    for _ in range(200):
        backend.free(backend.malloc(5 * MiB, []))  # a longer trace, so the transfer takes several writes
    with ProbeClient(server.path) as client:
        before = client.snapshot()
    assert len(before.trace(0)) > 600  # 8 events, then an alloc, a free_requested and a free_completed 200 times
    for _ in range(5):
        sock = _raw(server)
        sock.sendall(wire.encode_json({"op": "snapshot", "id": 1}))
        sock.recv(10)  # a little of the reply, then gone
        sock.close()
    # at once, while the probe may still be writing to the viewers that left: a new viewer is served the same
    with ProbeClient(server.path) as client:
        after = client.snapshot()
    assert len(after.trace(0)) == len(before.trace(0))
    assert after.trace(0).action.tolist() == before.trace(0).action.tolist()
    assert after.state.segments.total_size.tolist() == before.state.segments.total_size.tolist()


def test_mark_and_history(served) -> None:
    server, backend = served
    with ProbeClient(server.path) as client:
        client.mark("epoch 1")
        snap = client.snapshot()
        names = [(a["name"], a["stage"]) for a in snap.external_annotations]
        assert ("epoch 1", "START") in names and ("epoch 1", "END") in names
        assert client.history(False)["recording"] == "off"
        assert backend.sim.record_history is False
        client.history(True, max_entries=10)
        for _ in range(30):
            backend.free(backend.malloc(MiB, []))
        assert len(client.snapshot().trace(0)) == 10


def test_an_oom_is_written_and_announced(served) -> None:
    server, backend = served
    stream = EventStream(server.path)
    with pytest.raises(RuntimeError, match="out of memory"):
        backend.malloc(8 * GiB, [])
    event = stream.next_event(timeout=5)
    stream.close()
    assert event is not None and event["event"] == "oom" and event["requested"] == 8 * GiB
    snap = load_snapshot(event["path"])
    oom = snap.trace(0)
    assert len(oom) and server.oom_count == 1
    with ProbeClient(server.path) as client:
        assert client.stats()["last_oom"]["path"] == event["path"]


def test_the_probe_imports_neither_qt_nor_numpy() -> None:
    heavy = "('PySide6', 'numpy', 'torch', 'pyqtgraph')"
    code = f"import sys, gpumem_gui.probe; print(sorted(m for m in sys.modules if m.split('.')[0] in {heavy}))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_demo_job_attach_list_and_once(tmp_path: Path) -> None:
    proc, path = start_demo_job("--seconds", "30")
    try:
        with ProbeClient(path) as client:  # the job has begun to train: its weights are allocated
            wait_until(lambda: client.stats()["devices"][0]["stats"]["allocated_bytes.all.current"] > 0)
        listing = subprocess.run([sys.executable, "-m", "gpumem_gui", "attach", "--list"], capture_output=True,
                                 text=True, timeout=60, check=False)  # fmt: skip
        assert listing.returncode == 0
        row = next(line for line in listing.stdout.splitlines() if line.strip().startswith(str(proc.pid)))
        assert " yes " in row and "demo-job" in row
        out = tmp_path / "once.pickle"
        saved = subprocess.run([sys.executable, "-m", "gpumem_gui", "attach", str(proc.pid), "--once", "--save",
                                str(out)], capture_output=True, text=True, timeout=60,
                                check=False)  # fmt: skip
        assert saved.returncode == 0, saved.stderr
        snap = load_snapshot(out)
        assert len(snap.state.segments) > 0 and len(snap.trace(0)) > 0
        assert "wrote" in saved.stdout
    finally:
        stop(proc)


def test_attach_to_a_process_without_probe_says_how() -> None:
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        result = subprocess.run([sys.executable, "-m", "gpumem_gui", "attach", str(sleeper.pid), "--once", "--save",
                                 "x.pickle"], capture_output=True, text=True, timeout=60,
                                check=False)  # fmt: skip
        assert result.returncode == 2
        assert "runs no gpumem-gui probe" in result.stderr and "python -m gpumem_gui.probe" in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1
    finally:
        sleeper.kill()
        sleeper.wait()


def test_cpu_torch_script_under_the_probe(tmp_path: Path) -> None:
    script = tmp_path / "train.py"
    flag = tmp_path / "go"
    script.write_text(
        textwrap.dedent(f"""
        import pathlib, sys, time
        import torch
        pathlib.Path({str(tmp_path / "argv")!r}).write_text(" ".join(sys.argv[1:]))
        x = torch.ones(1000)
        deadline = time.time() + 60
        while not pathlib.Path({str(flag)!r}).exists() and time.time() < deadline:
            time.sleep(0.05)
        print("done", float(x.sum()))
    """)
    )
    proc = subprocess.Popen([sys.executable, "-m", "gpumem_gui.probe", "--max-entries", "1000", str(script), "--lr",
                             "3"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)  # fmt: skip
    try:
        path = wait_for_socket(proc.pid, proc)
        with ProbeClient(path) as client:
            hello = client.hello()
            assert hello["cuda"] is False and hello["torch"]
            assert "sees no CUDA device" in hello["problem"]
            assert client.stats()["devices"] == []
            with pytest.raises(ProbeError, match="no CUDA"):
                client.snapshot()
        result = subprocess.run([sys.executable, "-m", "gpumem_gui", "attach", str(proc.pid), "--once", "--save",
                                 str(tmp_path / "x.pickle")], capture_output=True, text=True, timeout=60,
                                check=False)  # fmt: skip
        assert result.returncode == 2 and "no CUDA" in result.stderr
        flag.touch()
        out, _ = proc.communicate(timeout=30)
        assert proc.returncode == 0 and "done 1000.0" in out
        assert "sees no CUDA device" in out  # said once, on the job's stderr
        assert (tmp_path / "argv").read_text() == "--lr 3"
        assert not path.exists()  # the socket goes with the job
    finally:
        stop(proc)


def test_frames_round_trip() -> None:
    a, b = socket.socketpair()
    a.sendall(wire.encode_json({"op": "x", "n": 1}) + wire.encode_bytes_header(3) + b"abc")
    assert wire.read_json(b) == {"op": "x", "n": 1}
    assert wire.read_bytes(b) == b"abc"
    a.sendall(wire.encode_bytes_header(100))
    with pytest.raises(wire.ProtocolError, match="larger"):
        wire.read_bytes(b, max_bytes=10)
    assert struct.calcsize(">4sBcHQ") == wire.HEADER.size == 16
    a.close()
    b.close()
