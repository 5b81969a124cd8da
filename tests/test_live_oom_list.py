"""OOMs of an attached job: listed in the live view, opened only on demand, never stealing focus; the demo job's
OOM snapshots live in a temporary folder that goes with it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from PySide6 import QtCore, QtWidgets

from gpumem_gui.app import MainWindow
from gpumem_gui.core.allocator.simulator import OutOfMemoryError
from gpumem_gui.core.rules.allocator_constants import GiB, MiB
from gpumem_gui.demo_job import SimulatorBackend
from gpumem_gui.probe.server import ProbeServer
from gpumem_gui.views.live.live_ooms import OomCapture, OomList
from gpumem_gui.views.live.live_view import LiveView
from tests.probe_helpers import serve_simulated

# -- the list in the window ------------------------------------------------------------------------------------


@pytest.fixture
def served(tmp_path: Path):
    server, backend = serve_simulated(tmp_path)
    backend.malloc(100 * MiB, [])
    yield server, backend
    server.stop()


@pytest.fixture
def window(qtbot):
    win = MainWindow()
    qtbot.addWidget(win)
    yield win
    for view in win.live_views:
        view.close_session()


def _oom(backend: SimulatorBackend, size: int = 8 * GiB) -> None:
    with pytest.raises(OutOfMemoryError):
        backend.malloc(size, [])


def _attached(qtbot, window: MainWindow, server: ProbeServer) -> LiveView:
    """The window attached to `server`, shown and active, with the keyboard focus on the Pause button."""
    window.show()
    qtbot.waitExposed(window)
    window.activateWindow()
    qtbot.waitUntil(lambda: QtWidgets.QApplication.activeWindow() is window, timeout=5000)
    assert server.path is not None
    attaching = window.attach(server.path)
    view = attaching.wait_view() if attaching is not None else None
    assert isinstance(view, LiveView)
    # OOMs before the view has subscribed are not replayed to it: wait until its event stream is open
    qtbot.waitUntil(lambda: view.session._stream is not None and view.frames >= 1, timeout=10_000)
    view.pause_button.setFocus()
    qtbot.waitUntil(lambda: QtWidgets.QApplication.focusWidget() is view.pause_button, timeout=5000)
    return view


def _listed(view: LiveView) -> int:
    ooms = getattr(view, "ooms", None)
    return ooms.table.rowCount() if ooms is not None else 0


def test_ooms_are_listed_and_open_no_tab_and_take_no_focus(qtbot, window: MainWindow, served) -> None:
    server, backend = served
    view = _attached(qtbot, window, server)
    tab = window.tabs.currentIndex()
    sizes = [5 * GiB, 6 * GiB, 7 * GiB, 8 * GiB, 9 * GiB]
    for size in sizes:
        _oom(backend, size)
    assert server.oom_count == len(sizes)
    # each OOM reaches the view (its notice names the last one) ...
    qtbot.waitUntil(lambda: f"OOM #{len(sizes)}" in view.notice.text() or bool(window.jobs), timeout=10_000)
    # ... and opening a tab would have started a load at once, in the same call: none started, none opened
    assert not window.jobs and window.tabs.count() == 1
    assert _listed(view) == len(sizes)
    assert window.tabs.currentIndex() == tab and QtWidgets.QApplication.focusWidget() is view.pause_button
    assert QtWidgets.QApplication.activeWindow() is window
    left, right = view.bottom.sizes()  # the list, hidden until the first OOM, got its share of the width
    assert right >= 0.4 * (left + right) > 0
    # oldest first, a new one below (the rows on screen stay put): the ordinal, the request, the GPU and the file
    table = view.ooms.table
    assert [table.item(r, 0).text() for r in range(5)] == ["1", "2", "3", "4", "5"]
    assert [table.item(r, 2).text() for r in range(5)] == ["5.0 GiB", "6.0 GiB", "7.0 GiB", "8.0 GiB", "9.0 GiB"]
    assert all(table.item(r, 3).text() == "0" for r in range(5))
    paths = [view.ooms.capture_at(r).path for r in range(5)]  # type: ignore[union-attr]
    assert all(p is not None and Path(p).exists() and Path(p).parent == server.oom_dir for p in paths)
    assert table.item(0, 4).text() == Path(paths[0]).name  # type: ignore[arg-type]
    assert view.ooms.summary.text().startswith("5 out-of-memory errors since attaching")
    assert "OOM #5" in view.notice.text() and "9.0 GiB" in view.notice.text()


def test_opening_a_row_opens_exactly_one_tab(qtbot, window: MainWindow, served) -> None:
    server, backend = served
    view = _attached(qtbot, window, server)
    for size in (5 * GiB, 6 * GiB, 7 * GiB):
        _oom(backend, size)
    qtbot.waitUntil(lambda: _listed(view) == 3, timeout=10_000)
    table = view.ooms.table
    # a double-click on the second row (the second OOM)
    rect = table.visualRect(table.model().index(1, 1))
    qtbot.mouseClick(table.viewport(), QtCore.Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.mouseDClick(table.viewport(), QtCore.Qt.MouseButton.LeftButton, pos=rect.center())
    wanted = view.ooms.capture_at(1)
    assert wanted is not None and wanted.ordinal == 2 and wanted.path is not None
    window.wait_for_loads(20_000)
    assert window.tabs.count() == 2 and not window.jobs
    assert window.tabs.tabText(1) == Path(wanted.path).name
    # the Open button opens the selected row, once
    table.selectRow(2)
    assert view.ooms.open_button.isEnabled()
    view.ooms.open_button.click()
    window.wait_for_loads(20_000)
    newest = view.ooms.capture_at(2)
    assert newest is not None and newest.ordinal == 3 and newest.path is not None
    assert window.tabs.count() == 3 and window.tabs.tabText(2) == Path(newest.path).name
    assert _listed(view) == 3  # opening takes nothing out of the list


def test_the_list_stays_usable_after_the_job_has_ended(qtbot, window: MainWindow, served, monkeypatch) -> None:
    warnings: list[str] = []
    monkeypatch.setattr(QtWidgets.QMessageBox, "warning", lambda *a: warnings.append(str(a[2])))
    server, backend = served
    view = _attached(qtbot, window, server)
    _oom(backend)
    _oom(backend)
    qtbot.waitUntil(lambda: _listed(view) == 2, timeout=10_000)
    server.stop()  # the job closes its probe: the session ends, the list stays
    qtbot.waitUntil(lambda: "closed its probe" in view.notice.text(), timeout=10_000)
    assert not view.pause_button.isEnabled() and view.ooms.isEnabled() and _listed(view) == 2
    assert view.ooms.open_row(0) is None
    window.wait_for_loads(20_000)
    assert window.tabs.count() == 2
    # a file removed meanwhile (a demo job removes its folder when it exits): one line, no tab, no dialog
    gone = view.ooms.capture_at(1)
    assert gone is not None and gone.path is not None
    Path(gone.path).unlink()
    problem = view.ooms.open_row(1)
    assert problem is not None and "no longer exists" in problem and "\n" not in problem
    assert window.tabs.count() == 2 and not window.jobs and not warnings
    assert view.ooms.table.item(1, 4).text().endswith("(gone)")
    view.ooms.table.selectRow(1)
    assert not view.ooms.open_button.isEnabled()
    assert "no longer exists" in view.ooms.problem.text() and view.ooms.problem.isVisibleTo(view.ooms)
    # a row that can open clears the line, and opens
    assert view.ooms.open_row(0) is None and not view.ooms.problem.isVisibleTo(view.ooms)
    window.wait_for_loads(20_000)
    assert window.tabs.count() == 3


# -- the list on its own ---------------------------------------------------------------------------------------


def test_the_list_keeps_the_latest_and_says_how_many_were_dropped(qtbot, tmp_path: Path) -> None:
    ooms = OomList(max_rows=3)
    qtbot.addWidget(ooms)
    opened: list[str] = []
    ooms.open_requested.connect(opened.append)
    files = []
    for i in range(1, 8):
        path = tmp_path / f"oom-{i}.pickle"
        path.write_bytes(b"x")
        files.append(path)
        ooms.add(OomCapture(ordinal=i, time=1_700_000_000.0 + i, requested=i * MiB, device=0, path=str(path)))
        if i == 5:
            ooms.table.selectRow(2)  # the user selects OOM 5, the last row; newer rows must not move the selection
    assert ooms.table.rowCount() == 3 and len(ooms.captures) == 3
    assert [ooms.table.item(r, 0).text() for r in range(3)] == ["5", "6", "7"]
    assert ooms.received == 7 and ooms.dropped == 4
    summary = ooms.summary.text()
    assert "7 out-of-memory errors" in summary and "latest 3 listed, 4 earlier dropped" in summary
    selected = ooms.table.selectionModel().selectedRows()
    assert [ooms.capture_at(i.row()).ordinal for i in selected] == [5]  # type: ignore[union-attr]
    ooms.open_selected()
    assert opened == [str(files[4])]
    assert ooms.open_row(3) == "no such OOM in the list" and opened == [str(files[4])]


def test_new_ooms_leave_the_rows_on_screen_where_they_are(qtbot) -> None:
    ooms = OomList(max_rows=20)
    qtbot.addWidget(ooms)
    ooms.resize(500, 260)
    ooms.show()
    for i in range(1, 16):
        ooms.add(OomCapture(ordinal=i, time=1_700_000_000.0 + i, requested=i * MiB, device=0, path=None))
    table = ooms.table
    QtWidgets.QApplication.processEvents()  # laid out, as on screen
    # the user scrolled down to OOM 5 and points at the top row on screen
    table.scrollTo(table.model().index(4, 0), QtWidgets.QAbstractItemView.ScrollHint.PositionAtTop)
    QtWidgets.QApplication.processEvents()

    def under_pointer() -> int:
        capture = ooms.capture_at(table.rowAt(5))
        assert capture is not None
        return capture.ordinal

    assert under_pointer() == 5
    for i in range(16, 31):  # new OOMs, past max_rows: the oldest rows go from the top
        ooms.add(OomCapture(ordinal=i, time=1_700_000_000.0 + i, requested=i * MiB, device=0, path=None))
        QtWidgets.QApplication.processEvents()
        if i <= 24:  # OOM 5 is listed until 25 OOMs are in and max_rows 20 drop the first 5
            assert under_pointer() == 5, i
    assert table.rowCount() == 20 and ooms.capture_at(0).ordinal == 11  # type: ignore[union-attr]


def test_an_oom_without_a_snapshot_is_listed_and_cannot_be_opened(qtbot) -> None:
    ooms = OomList()
    qtbot.addWidget(ooms)
    opened: list[str] = []
    ooms.open_requested.connect(opened.append)
    # fields of the wrong type from the probe are shown as unknown, never raised in the GUI thread
    ooms.add(OomCapture.from_event({"event": "oom", "count": "x", "requested": True, "path": 3}, fallback_ordinal=9))
    capture = ooms.capture_at(0)
    assert capture is not None and capture.ordinal == 9 and capture.requested == 0 and capture.path is None
    assert ooms.table.item(0, 4).text() == "none written"
    problem = ooms.open_row(0)
    assert problem is not None and "wrote no snapshot" in problem and not opened
    inf = float("inf")
    odd = {"count": inf, "time": 1e300, "requested": -5, "device": float("nan"), "path": ""}
    ooms.add(OomCapture.from_event(odd, fallback_ordinal=10))
    capture = ooms.capture_at(1)
    assert capture is not None and (capture.ordinal, capture.requested, capture.device) == (10, 0, 0)
    assert ooms.table.rowCount() == 2 and ooms.table.item(1, 1).text().count(":") == 2


# -- the demo job's OOM folder ---------------------------------------------------------------------------------


def _demo_env(tmp_path: Path) -> tuple[dict[str, str], dict[str, Path]]:
    dirs = {name: tmp_path / name for name in ("home", "cache", "tmp")}
    for d in dirs.values():
        d.mkdir()
    env = dict(os.environ, HOME=str(dirs["home"]), XDG_CACHE_HOME=str(dirs["cache"]), TMPDIR=str(dirs["tmp"]))
    return env, dirs


def _demo_job(env: dict[str, str], *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "gpumem_gui", "demo-job", "--capacity", "4GiB", "--spike-every", "1", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def _written(stderr: str) -> list[Path]:
    marker = "out of memory: snapshot written to "
    return [Path(line.split(marker, 1)[1]) for line in stderr.splitlines() if marker in line]


def test_the_demo_job_leaves_no_oom_folder_behind(tmp_path: Path) -> None:
    env, dirs = _demo_env(tmp_path)
    proc = _demo_job(env, "--seconds", "1")
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, out + err
    written = _written(err)
    assert written, err  # OOM snapshots were written while it ran ...
    folder = written[0].parent
    assert folder.parent == dirs["tmp"] and str(folder) in out  # ... into a temporary folder it named
    assert not folder.exists()  # ... which is gone now
    for name, d in dirs.items():
        assert list(d.iterdir()) == [], f"{name} is not empty: {list(d.rglob('*'))}"


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_demo_job_stopped_by_a_signal_removes_its_folder(tmp_path: Path, signum: int) -> None:
    env, dirs = _demo_env(tmp_path)
    proc = _demo_job(env, "--seconds", "120")
    try:
        first = proc.stdout.readline() if proc.stdout else ""
        folder = Path(first.split("OOM snapshots go to ", 1)[1].split(" (", 1)[0])
        deadline = time.monotonic() + 30
        while not any(folder.glob("oom-*.pickle")):
            assert proc.poll() is None and time.monotonic() < deadline, first
            time.sleep(0.02)
        proc.send_signal(signum)
        proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert not folder.exists()
    assert proc.returncode == (130 if signum == signal.SIGINT else 128 + signum)
    assert all(list(d.iterdir()) == [] for d in dirs.values())


def test_the_demo_job_keeps_its_snapshots_where_asked(tmp_path: Path) -> None:
    env, dirs = _demo_env(tmp_path)
    keep = tmp_path / "keep"
    proc = _demo_job(env, "--seconds", "1", "--oom-dir", str(keep))
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, out + err
    assert _written(err) and sorted(keep.glob("oom-*.pickle")) == sorted(_written(err))
    assert all(list(d.iterdir()) == [] for d in dirs.values())


def test_a_bad_capacity_is_one_line_and_exit_2(tmp_path: Path) -> None:
    env, _dirs = _demo_env(tmp_path)
    proc = _demo_job(env, "--seconds", "1", "--capacity", "lots")
    _out, err = proc.communicate(timeout=60)
    assert proc.returncode == 2 and "Traceback" not in err and "--capacity 'lots'" in err, err
