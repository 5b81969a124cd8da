"""Live mode in the window: attach to a real demo job over its socket, watch the map update, save, see it end."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import IO

import pytest
import pytestqt  # noqa: F401  (a test dependency: missing, the suite fails rather than skips)
from PySide6 import QtCore, QtWidgets

from gpumem_gui.app import MainWindow
from gpumem_gui.core.analysis.reconcile import reconcile
from gpumem_gui.core.rules.allocator_constants import MiB
from gpumem_gui.core.snapshot.loader import load_snapshot
from gpumem_gui.sources.live import LiveSession
from gpumem_gui.sources.local_jobs import LocalJob, LocalJobs
from gpumem_gui.views.live.attach import AttachDialog
from gpumem_gui.views.live.live_view import LiveView, ReconcileBar
from tests.probe_helpers import serve_simulated, start_demo_job, stop


@pytest.fixture
def window(qtbot):
    win = MainWindow()
    qtbot.addWidget(win)
    yield win
    for view in win.live_views:
        view.close_session()


def test_attach_updates_the_map_saves_and_sees_the_end(qtbot, window: MainWindow, tmp_path: Path) -> None:
    proc, _path = start_demo_job("--seconds", "60", "--spike-every", "4")
    try:
        attaching = window.attach(proc.pid)
        view = attaching.wait_view() if attaching is not None else None
        assert isinstance(view, LiveView)
        qtbot.waitUntil(lambda: view.document is not None and view.document.state is not None, timeout=20_000)
        doc = view.document
        assert doc is not None and window.current_document() is doc
        first, first_events = doc.state, doc.timeline(doc.device).n_events
        qtbot.waitUntil(lambda: view.frames >= 3, timeout=20_000)
        later = doc.state
        assert later is not first  # the same map, refreshed from newer snapshots
        assert doc.map.state is later and len(later.blocks) > 0
        # the job trained on between the snapshots: the newer one's trace is longer (its ring holds 50,000 events)
        assert doc.timeline(doc.device).n_events > first_events > 0
        # the bar: reserved >= allocated >= requested, from the allocator's stats
        qtbot.waitUntil(lambda: view.bar.figures is not None, timeout=10_000)
        f = view.bar.figures
        assert f is not None and f.reserved >= f.allocated >= (f.requested or 0) > 0
        assert f.peak_allocated is not None and f.peak_allocated >= f.allocated
        assert "n/a" in view.bar.describe()  # no NVML here: said, not guessed
        # an OOM in the job is listed in the view, and opens in a tab of its own only when asked
        qtbot.waitUntil(lambda: "Out of memory" in view.notice.text(), timeout=30_000)
        assert view.ooms.table.rowCount() >= 1 and window.tabs.count() == 1 and not window.jobs
        assert view.ooms.open_row(0) is None
        window.wait_for_loads(30_000)
        assert window.tabs.count() == 2 and window.tabs.tabText(1).startswith("oom-")
        # save now writes a normal snapshot file
        out = tmp_path / "now.pickle"
        view.save_now(out)
        qtbot.waitUntil(out.exists, timeout=10_000)
        assert len(load_snapshot(out).state.segments) > 0
        # the job exits: the last state stays, with a notice
        stop(proc)
        qtbot.waitUntil(lambda: "exited" in view.notice.text(), timeout=15_000)
        assert view.document is doc and doc.state is not None
        assert not view.pause_button.isEnabled()
        # the demo job took its OOM folder with it: the list stays and says so
        assert view.ooms.table.item(view.ooms.table.rowCount() - 1, 4).text().endswith("(gone)")
        out2 = tmp_path / "last.pickle"
        view.save_now(out2)
        qtbot.waitUntil(out2.exists, timeout=5_000)
        assert load_snapshot(out2).state.segments.total_size.sum() > 0
    finally:
        stop(proc)


def test_pause_record_and_detach(qtbot, window: MainWindow, tmp_path: Path) -> None:
    proc, _path = start_demo_job("--seconds", "60", "--spike-every", "0")
    try:
        attaching = window.attach(proc.pid)
        view = attaching.wait_view() if attaching is not None else None
        assert view is not None
        qtbot.waitUntil(lambda: view.frames >= 1, timeout=20_000)
        view.record_into(tmp_path / "rec")
        qtbot.waitUntil(lambda: len(list((tmp_path / "rec").glob("snapshot-*.pickle"))) >= 2, timeout=20_000)
        assert (tmp_path / "rec" / "stats.jsonl").read_text().count("\n") >= 1
        # the button pauses the session (what a paused session fetches: test_live_session) and resumes it
        view.pause_button.setChecked(True)
        assert view.session.paused and view.pause_button.text() == "Resume"
        paused_at = view.frames
        view.pause_button.setChecked(False)
        assert not view.session.paused and view.pause_button.text() == "Pause"
        qtbot.waitUntil(lambda: view.frames > paused_at + 1, timeout=10_000)
        view.mark("warmup done")
        qtbot.waitUntil(lambda: "marked" in view.status.text(), timeout=5_000)
        tasks = list(view.tasks.tasks)
        view.detach()
        assert view.tasks.wait(3000) and all(t.done for t in tasks)  # no thread left running
        assert view.session.finished
    finally:
        stop(proc)


def test_attach_to_nothing_says_why(qtbot, window: MainWindow) -> None:
    attaching = window.attach(os.getpid())
    assert attaching is not None and attaching.wait_view() is None
    # said in a message box that does not hold the event loop, and in the status line
    shown = [box.text() for box in window.findChildren(QtWidgets.QMessageBox) if box.isVisible()]
    assert shown == attaching.errors and window.statusBar().currentMessage().endswith(shown[0])
    assert shown and "runs no gpumem-gui probe" in shown[0]


def test_attach_dialog_lists_and_explains(qtbot, tmp_path: Path) -> None:
    plain = LocalJob(101, "python train.py", 3 << 30, None)
    probed = LocalJob(202, "python -m gpumem_gui.probe x.py", None, tmp_path / "probe-202.sock")
    jobs = LocalJobs((plain, probed), "NVIDIA driver not found")
    dialog = AttachDialog(lambda: jobs)
    qtbot.addWidget(dialog)
    qtbot.waitUntil(lambda: dialog.table.rowCount() == 2, timeout=5000)  # listed in a task
    assert dialog.table.rowCount() == 2
    assert dialog.selected is not None and dialog.selected.pid == 202 and dialog.attach_button.isEnabled()
    dialog.table.selectRow(0)
    assert not dialog.attach_button.isEnabled() and "process 101 runs no gpumem-gui probe" in dialog.hint.text()
    assert dialog.table.item(0, 1).text() == "3.0 GiB" and dialog.table.item(1, 1).text() == "n/a"
    assert "driver not found" in dialog.nvml_note.text()


def test_reconcile_bar_parts_add_up(qtbot) -> None:
    stats = {"reserved_bytes.all.current": 10 << 30, "allocated_bytes.all.current": 6 << 30,
             "requested_bytes.all.current": (6 << 30) - (1 << 20), "allocated_bytes.all.peak": 8 << 30}  # fmt: skip
    figures = reconcile(stats, free=20 << 30, total=80 << 30, nvml_used=11 << 30)
    assert figures.outside_pytorch == 1 << 30 and figures.cached_free == 4 << 30 and figures.rounding == 1 << 20
    bar = ReconcileBar()
    qtbot.addWidget(bar)
    bar.set_figures(figures)
    assert sum(size for _n, size, _c, _t in bar.parts()) == 11 << 30  # the whole of NVML's figure, split
    assert "outside PyTorch" in bar.describe()
    bar.resize(800, 70)
    assert not bar.grab().isNull()


@pytest.fixture
def served(tmp_path: Path):
    """A probe server in this process, on a simulated allocator: a session without a job process to start."""
    server, backend = serve_simulated(tmp_path)
    backend.malloc(100 * MiB, [])
    yield server
    server.stop()


def test_an_error_in_the_live_loop_reaches_the_view_as_one_line(qtbot, served, caplog) -> None:
    session = LiveSession(served.path, stats_interval=0.05)

    def broken(out: IO[bytes], include_traces: bool = True) -> int:
        raise OSError("No space left on device\nwhile fetching")

    session.client.snapshot_into = broken  # type: ignore[method-assign]
    view = LiveView(session)
    qtbot.addWidget(view)
    qtbot.waitUntil(lambda: view.notice.isVisibleTo(view), timeout=5000)
    assert view.notice.text().startswith("The live session stopped: OSError: No space left on device while fetching.")
    assert "\n" not in view.notice.text() and "The last state stays on screen" in view.notice.text()
    assert not view.pause_button.isEnabled() and view.save_button.text() == "Save last snapshot..."
    assert view.tasks.wait(3000) and view.session_task.done and view.events_task.done  # the listener ended too
    assert any("failed" in r.message and r.exc_info for r in caplog.records)  # the traceback is in the log
    view.save_now(Path("/nonexistent/x.pickle"))
    assert view.status.text() == "nothing to save yet: no snapshot has arrived"


def test_cancelling_stops_the_loops_promptly(qtbot, served, tmp_path: Path) -> None:
    session = LiveSession(served.path, stats_interval=0.05)
    view = LiveView(session)
    qtbot.addWidget(view)
    qtbot.waitUntil(lambda: view.frames >= 1 and view.bar.figures is not None, timeout=10_000)
    assert view.bar.figures is not None and view.bar.figures.allocated == 100 * MiB
    assert view.session_task.running and view.events_task.running
    view.mark("here")
    qtbot.waitUntil(lambda: view.status.text() == "marked 'here'", timeout=20_000)  # a loaded machine: seconds
    tasks = [view.session_task, view.events_task]
    began = time.monotonic()
    view.close_session()
    assert view.tasks.wait(2000) and all(t.done for t in tasks)
    assert time.monotonic() - began < 1.5 and session.finished
    frames = view.frames
    # the loops have ended: what they posted before is in the event queue, and delivering it shows no new frame
    QtCore.QCoreApplication.sendPostedEvents()
    QtCore.QCoreApplication.processEvents()
    assert view.frames == frames and "stopped" not in view.notice.text()  # a cancel is not an error
    view.save_now(tmp_path / "last.pickle")  # the last state can still be saved
    assert view.status.text() == f"saved {tmp_path / 'last.pickle'}"
    assert load_snapshot(tmp_path / "last.pickle").state.segments.total_size.sum() > 0
