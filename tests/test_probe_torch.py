"""The probe's torch backend, run in CI without a GPU: a job on the fake torch of tests/fake_torch, in a subprocess,
under `python -m gpumem_gui.probe` (or starting the probe itself), attached with the real client."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gpumem_gui.core.snapshot.loader import load_snapshot
from gpumem_gui.core.snapshot.model import Action, BlockState
from gpumem_gui.probe import wire
from gpumem_gui.sources.probe_client import EventStream, ProbeClient, ProbeError
from tests.probe_helpers import FAKE_TORCH, FakeTorchJob, wait_for_socket

MiB = 1 << 20


@pytest.fixture
def job(tmp_path: Path, request: pytest.FixtureRequest):
    variant = getattr(request, "param", "")
    started = FakeTorchJob(tmp_path, variant=variant, probe_args=("--max-entries", "1000"))
    yield started
    started.finish()


def _calls(job: FakeTorchJob, name: str) -> list[dict[str, object]]:
    return [c for c in job.calls() if c["call"] == name]


def test_lazy_cuda_init_then_recording_stats_snapshots_and_history(job: FakeTorchJob) -> None:
    assert job.socket is not None
    with ProbeClient(job.socket) as client:
        # before the job initialises CUDA: the probe answers, records nothing, and makes no context itself
        hello = client.hello()
        assert hello["backend"] == "torch" and hello["torch"] == "2.9.0+fake" and hello["cuda"] is True
        assert hello["cuda_initialized"] is False and hello["recording"] == "off"
        assert [d.get("name") for d in hello["devices"]] == [None, None]  # no properties: they would init CUDA
        stats = client.stats()
        assert stats["devices"] == [] and stats["note"] == "CUDA is not initialised in the job yet"
        empty = client.snapshot()
        assert len(empty.state.segments) == 0
        with pytest.raises(ProbeError, match="not initialised"):
            client.history(True)
        assert _calls(job, "cuda_init") == []  # none of that created a CUDA context

        job.do("init")  # the job's own first CUDA call: the probe's queued setup runs inside it
        assert [c["thread"] for c in _calls(job, "cuda_init")] == ["MainThread"]
        assert _calls(job, "record_memory_history") == [
            {"call": "record_memory_history", "thread": "MainThread", "enabled": "all", "context": "all",
             "stacks": "python", "max_entries": 1000}
        ]  # fmt: skip
        hello = client.hello()
        assert hello["cuda_initialized"] is True and hello["problem"] is None
        assert hello["recording"] == "on (ring buffer of 1,000 events, stacks: python)"
        assert [d["name"] for d in hello["devices"]] == ["Fake GPU 0", "Fake GPU 1"]

        for size in (3 * MiB, 5 * MiB, 7 * MiB):
            job.do(f"alloc {size}")
        job.do("free")
        stats = client.stats()
        # device 1 was never used: it is not asked for its free memory, which would create a context there
        assert [d["device"] for d in stats["devices"]] == [0]
        assert {c["device"] for c in _calls(job, "mem_get_info")} == {0}
        assert stats["devices"][0]["stats"]["reserved_bytes.all.current"] == 8 * MiB
        assert "flag" not in stats["devices"][0]["stats"]  # only numbers go over the wire, not booleans

        snap = client.snapshot()
        allocated = snap.state.blocks.size[snap.state.blocks.state == BlockState.ALLOCATED]
        assert int(allocated.sum()) == 8 * MiB
        actions = [Action(a) for a in snap.trace(0).action]
        assert actions[:2] == [Action.SEGMENT_ALLOC, Action.ALLOC] and len(actions) == 9
        light = client.snapshot(include_traces=False)  # torch 2.9's C++ call that leaves the trace out
        assert len(light.trace(0)) == 0 and len(light.state.segments) == 2
        # what torch's snapshot does not say: its version, and the used device's total (cudaMemGetInfo's), asked of
        # device 0 alone (asking device 1 would create a context there)
        for taken in (snap, light):
            assert taken.torch_version == "2.9.0+fake" and taken.device_memory == {0: 1 << 30}
            assert taken.memory_limit == {}  # a fraction of 1, torch's default: no limit of the process's own
        job.do("fraction 0.25")  # what an OOM the device had room for needs to be explained (process_limit.py)
        assert client.snapshot(include_traces=False).memory_limit == {0: 1 << 28}
        assert {c["device"] for c in _calls(job, "mem_get_info")} == {0}
        assert _calls(job, "memory_snapshot")[-1]["include_traces"] is False

        assert client.history(False)["recording"] == "off (stopped by a viewer)"
        assert _calls(job, "record_memory_history")[-1]["enabled"] is None
        job.do(f"alloc {MiB}")
        assert len(client.snapshot().trace(0)) == 9  # nothing recorded while off
        on = client.history(True, max_entries=100, stacks="all")
        assert on["recording"] == "on (ring buffer of 100 events, stacks: all)"
        assert _calls(job, "record_memory_history")[-1] == {"call": "record_memory_history", "thread":
                                                             "gpumem-gui-probe-conn", "enabled": "all", "context":
                                                             "all", "stacks": "all", "max_entries": 100}  # fmt: skip
        assert client.history(True, stacks="none")["recording"] == "on (ring buffer of 100 events, stacks: none)"
        assert _calls(job, "record_memory_history")[-1]["context"] is None  # no stacks: no context recorded
    assert job.finish() == 0


def test_an_oom_runs_the_observer_writes_a_snapshot_and_is_announced(job: FakeTorchJob) -> None:
    assert job.socket is not None
    job.do("init")
    job.do(f"alloc {64 * MiB}")
    stream = EventStream(job.socket)
    try:
        lines = job.do("oom")
        assert lines[0].startswith("caught CUDA out of memory")  # the job's own handler still gets the error
        event = stream.next_event(timeout=10)
    finally:
        stream.close()
    assert event is not None and event["event"] == "oom" and event["requested"] == 1 << 40
    assert event["device"] == 0 and event["device_total"] == 1 << 30 and event["device_free"] == (1 << 30) - 64 * MiB
    snap = load_snapshot(event["path"])
    assert Action(snap.trace(0).action[-1]) == Action.OOM
    with ProbeClient(job.socket) as client:
        assert client.stats()["last_oom"]["path"] == event["path"] and client.hello()["oom_count"] == 1
    assert "out of memory: snapshot written to" in job.stderr()


def test_an_oom_does_not_wait_for_a_viewer_that_stopped_reading(tmp_path: Path) -> None:
    """The torch backend's form of the demo job's deadlock: the observer runs in the job's thread, and the OOM
    capture waited for the lock a viewer's thread held through its whole send (30 s for one that stopped reading)."""
    job = FakeTorchJob(tmp_path, probe_args=("--max-entries", "100000"))
    try:
        assert job.socket is not None
        job.do("init")
        job.do("churn 20000")  # a trace of 80,000 entries: a snapshot of several MB, more than a socket buffer
        stuck = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        stuck.settimeout(10)
        stuck.connect(str(job.socket))
        stuck.sendall(wire.encode_json({"op": "snapshot", "id": 1}))  # and never reads the reply
        assert len(stuck.recv(16, socket.MSG_PEEK)) == 16  # the probe is sending it
        started = time.monotonic()
        assert job.do("oom")[0].startswith("caught CUDA out of memory")
        assert time.monotonic() - started < 10  # not the 30 s send timeout
        with ProbeClient(job.socket, timeout=10) as client:
            assert client.stats()["oom_count"] == 1 and len(client.snapshot_bytes()) > 1_000_000
        stuck.close()
    finally:
        assert job.finish() == 0


@pytest.mark.parametrize("job", ["old"], indirect=True)
def test_torch_2_0_api(job: FakeTorchJob) -> None:
    """torch 2.0: _record_memory_history takes only a boolean, _cuda_memorySnapshot no arguments."""
    assert job.socket is not None
    job.do("init")
    assert _calls(job, "record_memory_history")[-1]["max_entries"] == 1000  # through trace_alloc_max_entries
    job.do(f"alloc {2 * MiB}")
    with ProbeClient(job.socket) as client:
        assert client.hello()["recording"] == "on (ring buffer of 1,000 events, stacks: python)"
        assert len(client.snapshot().trace(0)) == 2
        light = client.snapshot(include_traces=False)  # the whole snapshot, its trace dropped in the probe
        assert len(light.trace(0)) == 0 and len(light.state.segments) == 1
        assert client.history(False)["recording"] == "off (stopped by a viewer)"
        assert _calls(job, "record_memory_history")[-1]["enabled"] is None


def test_a_probe_started_after_cuda_keeps_the_programs_recording(tmp_path: Path) -> None:
    job = FakeTorchJob(tmp_path, probe=False)
    try:
        job.do("record 123")  # the program records with its own settings...
        job.do("init")
        job.do("probe")  # ...and starts the probe itself, once CUDA is up: setup runs at once, in this thread
        path = wait_for_socket(job.proc.pid, job.proc)
        with ProbeClient(path) as client:
            hello = client.hello()
            assert hello["cuda_initialized"] is True and hello["recording"] == "on (turned on by the program)"
        assert [c["max_entries"] for c in _calls(job, "record_memory_history")] == [123]  # not overridden
    finally:
        assert job.finish() == 0


@pytest.mark.parametrize(
    ("variant", "problem"),
    [("nocuda", "sees no CUDA device (CUDA build: none)"), ("missing", "PyTorch is not installed")],
)
def test_a_probe_without_an_allocator_says_why_and_the_job_goes_on(tmp_path: Path, variant: str, problem: str) -> None:
    job = FakeTorchJob(tmp_path, variant=variant)
    try:
        assert job.socket is not None
        with ProbeClient(job.socket) as client:
            hello = client.hello()
            assert problem in hello["problem"] and hello["cuda"] is False and hello["devices"] == []
            stats = client.stats()
            assert stats["devices"] == [] and problem in stats["note"]
            with pytest.raises(ProbeError, match=problem.split(" (", maxsplit=1)[0]):
                client.snapshot()
            with pytest.raises(ProbeError, match=problem.split(" (", maxsplit=1)[0]):
                client.history(True)
        assert job.do("ping") == ["done ping"]  # the job itself runs on
    finally:
        assert job.finish() == 0
    assert len([line for line in job.stderr().splitlines() if problem in line]) == 1  # said once


def test_recording_that_cannot_be_set_up_costs_only_the_trace(tmp_path: Path) -> None:
    job = FakeTorchJob(tmp_path, variant="broken_history")
    try:
        assert job.socket is not None
        job.do("init")  # the failure happens inside the job's CUDA initialisation, and stays in the probe
        job.do(f"alloc {MiB}")
        with ProbeClient(job.socket) as client:
            hello = client.hello()
            assert "could not set up recording: RuntimeError: recording is not supported" in hello["problem"]
            assert hello["recording"] == "off" and hello["cuda_initialized"] is True
            assert [d["device"] for d in client.stats()["devices"]] == [0]  # stats and snapshots still served
            snap = client.snapshot()
            assert len(snap.state.segments) == 1 and len(snap.trace(0)) == 0
            with pytest.raises(ProbeError, match="RuntimeError: recording is not supported"):
                client.history(True)
            stream = EventStream(job.socket)  # and the OOM observer was still attached
            try:
                job.do("oom")
                event = stream.next_event(timeout=10)
            finally:
                stream.close()
            assert event is not None and event["requested"] == 1 << 40
    finally:
        assert job.finish() == 0
    assert "could not set up recording" in job.stderr()


def test_no_record_and_no_observer_hook(tmp_path: Path) -> None:
    """`--no-record` leaves recording alone; a torch without the OOM hook costs only the OOM capture."""
    job = FakeTorchJob(tmp_path, variant="no_observer", probe_args=("--no-record",))
    try:
        assert job.socket is not None
        job.do("init")
        job.do(f"alloc {MiB}")
        assert _calls(job, "record_memory_history") == []
        with ProbeClient(job.socket) as client:
            hello = client.hello()
            assert hello["recording"] == "off" and "OOMs will not be captured: AttributeError" in hello["problem"]
            snap = client.snapshot()
            assert len(snap.state.segments) == 1 and len(snap.trace(0)) == 0
            assert job.do("oom")[0].startswith("caught")
            assert client.stats()["oom_count"] == 0
            assert client.history(True)["recording"].startswith("on (ring buffer of 50,000 events")  # on demand
    finally:
        assert job.finish() == 0


def test_the_fake_is_what_the_subprocess_imports(tmp_path: Path) -> None:
    """The tests above mean something only if the job ran on the fake, not on a real torch installed here."""
    code = "import torch; print(torch.__file__)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60,
                         env={"PYTHONPATH": str(FAKE_TORCH), "PATH": "/usr/bin:/bin"})  # fmt: skip
    assert Path(out.stdout.strip()).is_relative_to(FAKE_TORCH)
