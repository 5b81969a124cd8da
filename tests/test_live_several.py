"""Several live jobs at once (a rank each, as torchrun starts them): a tab per job, each updating on its own, one
detached while the other goes on, and the overview of all of them fed by their tabs."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest
from PySide6 import QtCore

from gpumem_gui.app import MainWindow
from gpumem_gui.core.snapshot.units import format_bytes
from gpumem_gui.views.live.live_grid import COLUMNS, LiveGrid
from gpumem_gui.views.live.live_view import LiveView
from tests.probe_helpers import FakeTorchJob

MiB = 1 << 20
RESERVED, ALLOCATED = COLUMNS.index("Reserved"), COLUMNS.index("Allocated")


@pytest.fixture
def ranks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[list[FakeTorchJob]]:
    """Two jobs on the fake torch under the probe, with RANK 0 and 1 as torchrun sets it; rank 0 holds 3 MiB and
    rank 1 7 MiB (the fake gives each allocation a segment of its own size)."""
    jobs = []
    try:
        for rank, size in ((0, 3 * MiB), (1, 7 * MiB)):
            monkeypatch.setenv("RANK", str(rank))
            (tmp_path / f"rank{rank}").mkdir()
            job = FakeTorchJob(tmp_path / f"rank{rank}", probe_args=("--max-entries", "1000"))
            jobs.append(job)
            job.do("init")
            job.do(f"alloc {size}")
        yield jobs
    finally:
        for job in jobs:
            job.finish()


def _reserved(view: LiveView) -> int | None:
    doc = view.document
    return None if doc is None or doc.state is None else int(doc.state.segments.total_size.sum())


def test_a_tab_per_job_each_updating_detach_one_the_other_goes_on(ranks, qtbot) -> None:
    window = MainWindow()
    qtbot.addWidget(window)
    views: list[LiveView] = []
    try:
        for job in ranks:
            attaching = window.attach(job.socket)
            view = attaching.wait_view() if attaching is not None else None
            assert view is not None
            views.append(view)
        a, b = views
        assert window.tabs.count() == 2 and window.live_views == views
        assert [v.rank for v in views] == [0, 1] and a.title == f"rank 0 pid {ranks[0].proc.pid}"
        assert [window.tabs.tabText(i) for i in range(2)] == [f"live: {v.title}" for v in views]
        grid = LiveGrid()
        qtbot.addWidget(grid)
        assert [grid.add_view(v) for v in views] == [True, True] and not grid.add_view(a)  # listed once
        qtbot.waitUntil(lambda: _reserved(a) == 3 * MiB and _reserved(b) == 7 * MiB, timeout=10_000)
        qtbot.waitUntil(lambda: [grid.row_texts(i)[RESERVED] for i in (0, 1)] == ["3.0 MiB", "7.0 MiB"], timeout=5000)
        assert grid.row_texts(0)[:2] == [a.title, "live"]

        # one job allocates: its tab and its row follow, the other's do not
        ranks[0].do(f"alloc {5 * MiB}")
        qtbot.waitUntil(lambda: _reserved(a) == 8 * MiB, timeout=5000)
        qtbot.waitUntil(lambda: grid.row_texts(0)[RESERVED] == "8.0 MiB", timeout=5000)
        assert _reserved(b) == 7 * MiB and grid.row_texts(1)[RESERVED] == "7.0 MiB"
        # the shared timeline: a curve per job, in GiB, ending at each job's reserved
        ys = [grid._curves[i].getData()[1] for i in (0, 1)]
        assert ys[0][-1] == pytest.approx(8 * MiB / (1 << 30)) and ys[1][-1] == pytest.approx(7 * MiB / (1 << 30))
        assert ys[0].min() == pytest.approx(3 * MiB / (1 << 30))  # the earlier figure is still on it

        # detach rank 0: its loops end, rank 1 goes on
        a_tasks = [a.session_task, a.events_task]
        a.detach()
        assert a.tasks.wait(3000) and all(t.done for t in a_tasks) and a.state == "detached"
        frames_a, frames_b = a.frames, b.frames
        ranks[1].do(f"alloc {2 * MiB}")
        qtbot.waitUntil(lambda: _reserved(b) == 9 * MiB and b.frames >= frames_b + 2, timeout=5000)
        qtbot.waitUntil(lambda: grid.row_texts(1)[RESERVED] == "9.0 MiB", timeout=5000)
        assert a.frames == frames_a and b.state == "live" and b.session_task.running
        assert grid.row_texts(0)[1] == "detached" and grid.row_texts(1)[1] == "live"

        # a double-click on a row names its job's tab; closing a tab leaves its row, closed
        activated: list[object] = []
        grid.job_activated.connect(activated.append)
        grid.table.cellDoubleClicked.emit(1, 0)
        assert activated == [b]
        window.close_tab(window.tabs.indexOf(b))
        assert b.tasks.wait(3000)
        qtbot.waitUntil(lambda: (QtCore.QCoreApplication.sendPostedEvents(None, QtCore.QEvent.Type.DeferredDelete),
                                 grid.refresh(), grid.row_texts(1)[1])[-1] == "closed", timeout=5000)  # fmt: skip
        assert grid.views() == [a] and grid.row_texts(1)[RESERVED] == "9.0 MiB"
        grid.stop()
    finally:
        for view in window.live_views:
            view.close_session()
            view.tasks.wait(3000)


def test_the_overview_sums_a_jobs_gpus_and_starts_empty(qtbot) -> None:
    """A job on two GPUs is one row whose figures add up; the shared time axis starts at the earliest figures."""
    from gpumem_gui.core.analysis.reconcile import reconcile  # noqa: PLC0415
    from gpumem_gui.sources.live import StatsSample  # noqa: PLC0415
    from gpumem_gui.views.live.live_grid import JobRow  # noqa: PLC0415

    grid = LiveGrid()
    qtbot.addWidget(grid)
    assert grid.table.rowCount() == 0 and "No job yet" in grid.hint.text()

    def sample(t: float, device: int, reserved: int, allocated: int, ooms: int) -> StatsSample:
        stats = {"reserved_bytes.all.current": reserved, "allocated_bytes.all.current": allocated,
                 "reserved_bytes.all.peak": reserved + MiB}  # fmt: skip
        return StatsSample(t, device, reconcile(stats), ooms)

    samples = [sample(100.0, 0, 4 * MiB, 2 * MiB, 0), sample(100.0, 1, 6 * MiB, 1 * MiB, 0),
               sample(100.5, 0, 5 * MiB, 2 * MiB, 1), sample(100.5, 1, 6 * MiB, 3 * MiB, 1)]  # fmt: skip
    fake = SimpleNamespace(title="pid 7", state="live", frames=3, samples=samples, samples_received=4)  # a view
    job = JobRow("pid 7", "#000000", fake)  # type: ignore[arg-type]
    grid._take(job)
    assert job.times == [100.0, 100.5] and job.reserved == [10 * MiB, 11 * MiB]
    assert job.figure("reserved") == 11 * MiB and job.figure("allocated") == 5 * MiB and job.ooms == 1
    assert job.figure("peak_reserved") == 13 * MiB and job.frames == 3
    assert format_bytes(job.figure("reserved") or 0) == "11.0 MiB"
    # a view keeps only its newest samples: what the grid has not seen is taken by the count received, not by index
    later = [sample(101.0, 0, 7 * MiB, 2 * MiB, 1), sample(101.0, 1, 1 * MiB, 1 * MiB, 1)]
    fake.samples = deque([*samples, *later][-3:], maxlen=3)
    fake.samples_received = 6
    grid._take(job)
    assert job.times == [100.0, 100.5, 101.0] and job.reserved == [10 * MiB, 11 * MiB, 8 * MiB]


def test_attach_to_all_opens_a_tab_per_job_and_the_overview_once(ranks, qtbot, monkeypatch) -> None:
    from gpumem_gui.sources import probe_client  # noqa: PLC0415

    # what list_probes finds on this machine, rank 1 first: the tabs still come in rank order
    found = [SimpleNamespace(path=job.socket) for job in reversed(ranks)]
    monkeypatch.setattr(probe_client, "list_probes", lambda: found)
    window = MainWindow()
    qtbot.addWidget(window)
    try:
        views = window.live.attach_all().wait()  # Live > Attach to All: listed and attached in tasks
        assert [v.rank for v in views] == [0, 1]
        assert [window.tabs.tabText(i) for i in range(2)] == [f"live: {v.title}" for v in views]
        grid = window.live.grid
        assert grid is not None and window.tabs.currentWidget() is grid and grid.views() == views
        assert window.live.attach_all().wait() == []  # every job already watched: nothing attached twice
        assert window.tabs.count() == 3
        window.close_tab(window.tabs.indexOf(grid))
        assert window.live.grid is None
    finally:
        window.shutdown()
