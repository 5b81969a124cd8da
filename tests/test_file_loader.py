"""Loading in a worker process: the same snapshot and timelines as in-process, errors as one line, cancel."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from gpumem_gui.assets import example_path
from gpumem_gui.core import load_snapshot
from gpumem_gui.core.analysis.timetravel import build_timeline
from gpumem_gui.sources.file_loader import FileLoadJob
from gpumem_gui.sources.transfer import load_npz, save_npz
from tests.conftest import fixture_path


def test_npz_round_trip_keeps_everything(tmp_path: Path) -> None:
    snap = load_snapshot(fixture_path("constructor_memory_snapshot.pickle"))
    timelines = {d: build_timeline(snap, d) for d in snap.devices()}
    save_npz(tmp_path / "s.npz", snap, timelines)
    back, back_timelines = load_npz(tmp_path / "s.npz")
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


def test_the_snapshot_arrives_before_its_timelines() -> None:
    job = FileLoadJob(str(example_path("kv_cache_paged")))
    results = []
    import time  # noqa: PLC0415

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (results and not results[-1].partial):
        result = job.poll()
        if result is not None:
            results.append(result)
        time.sleep(0.01)
    assert [r.partial for r in results] == [True, False]
    assert results[0].snapshot is results[1].snapshot and results[1].timelines
