"""Loading in a worker process: the same snapshot and timelines as in-process, errors as one line, cancel."""

from __future__ import annotations

import os
import pickle
import signal
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np

from gpumem_gui.assets import example_path
from gpumem_gui.core import load_snapshot
from gpumem_gui.core.allocator.synthetic import synthetic_snapshot
from gpumem_gui.core.analysis.timetravel import build_timeline
from gpumem_gui.sources.file_loader import FileLoadJob, LoadResult
from gpumem_gui.sources.transfer import load_parts, save_parts
from tests.conftest import fixture_path


def test_the_array_file_round_trip_keeps_everything(tmp_path: Path) -> None:
    snap = load_snapshot(fixture_path("constructor_memory_snapshot.pickle"))
    timelines = {d: build_timeline(snap, d) for d in snap.devices()}
    save_parts(tmp_path / "s.arrays", snap, timelines)
    back, back_timelines = load_parts(tmp_path / "s.arrays")
    assert back.source == snap.source and back.strings == snap.strings
    assert back.stacks.frames == snap.stacks.frames
    assert np.array_equal(back.state.blocks.address, snap.state.blocks.address)
    assert np.array_equal(back.traces[1].device_free, snap.traces[1].device_free)
    for d, tl in timelines.items():
        other = back_timelines[d]
        assert other.ooms == tl.ooms and other.series.initial == tl.series.initial
        for i in (-1, tl.n_events // 2, tl.n_events - 1):
            assert np.array_equal(other.state_at(i).blocks.size, tl.state_at(i).blocks.size)


def test_worker_process_loads_and_reports_errors(tmp_path: Path) -> None:
    result = FileLoadJob(str(example_path("fragmented_oom"))).wait()
    assert result.error is None and result.snapshot is not None and result.timelines is not None
    assert len(result.timelines[0].ooms) == 1
    bad = tmp_path / "evil.pickle"
    bad.write_bytes(b"\x80\x04\x8c\x02os\x8c\x06system\x93.")
    failed = FileLoadJob(str(bad)).wait()
    assert failed.error is not None and "refused to load: the file asks for os.system" in failed.error


def test_cancel_kills_the_worker() -> None:
    job = FileLoadJob(str(example_path("kv_cache_paged")))
    job.cancel()
    assert not job._proc.is_alive()


def test_the_snapshot_arrives_before_its_timelines_and_no_file_is_left(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    job = FileLoadJob(str(example_path("kv_cache_paged")))
    partials: list[LoadResult] = []
    final = job.run(partials.append, timeout=60)
    assert [r.partial for r in partials] == [True]
    assert final.error is None and not final.partial
    state, whole = partials[0].snapshot, final.snapshot
    assert state is not None and whole is not None and final.timelines
    assert not state.has_traces and whole.has_traces  # the map's state first, then the whole file
    assert len(state.state.blocks) == len(whole.state.blocks) and len(state.state.segments) == len(whole.state.segments)
    assert list(tmp_path.iterdir()) == []


def test_cancel_from_another_thread_ends_run_at_once(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    job = FileLoadJob(str(example_path("kv_cache_paged")))
    threading.Timer(0.05, job.cancel).start()
    t0 = time.monotonic()
    result = job.run(timeout=60)
    assert time.monotonic() - t0 < 5 and result.error is not None and "cancelled" in result.error
    assert not job._proc.is_alive() and list(tmp_path.iterdir()) == []


def test_a_worker_that_dies_mid_read_gives_its_reason_at_once(tmp_path: Path) -> None:
    # a file cut short under the reader's map kills it with SIGBUS: here the signal is sent once the state is in
    path = tmp_path / "big.pickle"
    path.write_bytes(pickle.dumps(synthetic_snapshot(200_000, seed=2, distinct_stacks=50), protocol=4))
    job = FileLoadJob(str(path))
    started = time.monotonic()
    result = job.run(lambda _: os.kill(job._proc.pid, signal.SIGBUS), timeout=60)
    assert (
        result.error
        == f"{path} changed while it was read (it is shorter than when it was opened); open it again once it is written"
    )
    assert time.monotonic() - started < 30  # not the timeout: the closed pipe ends the wait
