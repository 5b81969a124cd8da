"""The GUI thread never waits on a socket, and no task fails unheard: a probe that accepts and never answers costs the
window no frame, and a page whose computation fails says so, with one line in the status bar."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6 import QtCore, QtWidgets

from gpumem_gui.app import MainWindow
from gpumem_gui.app.errors import report_uncaught
from gpumem_gui.assets import example_path
from gpumem_gui.probe import wire
from gpumem_gui.views.snapshot.tab import SnapshotTab

STALL_LIMIT_S = 0.050  # the longest the window may go without a turn of its event loop


@contextlib.contextmanager
def silent_probe(path: Path) -> Iterator[list[socket.socket]]:
    """A socket at `path` that accepts every connection and never says a word (a hung job, a dead SSH hop)."""
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(path))
    listener.listen(8)
    held: list[socket.socket] = []

    def serve() -> None:
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            held.append(conn)  # kept open, unanswered

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield held
    finally:
        listener.close()
        for conn in held:
            conn.close()


class Heartbeat:
    """A timer of the GUI thread: the longest gap between its ticks is the longest the window was frozen."""

    def __init__(self, interval_ms: int = 5) -> None:
        self.last = time.perf_counter()
        self.longest = 0.0
        self.timer = QtCore.QTimer(interval=interval_ms)
        self.timer.timeout.connect(self._tick)
        self.interval_s = interval_ms / 1000

    def _tick(self) -> None:
        now = time.perf_counter()
        self.longest = max(self.longest, now - self.last - self.interval_s)
        self.last = now

    def start(self) -> None:
        self.last = time.perf_counter()
        self.timer.start()


def _idle_stall(qtbot: Any, seconds: float = 1.0) -> float:
    """The longest stall of an idle event loop on this machine now: the scheduler's share of a stall (a loaded CI
    box), which the window's own cannot be blamed for."""
    beat = Heartbeat()
    beat.start()
    qtbot.wait(int(seconds * 1000))
    beat.timer.stop()
    return beat.longest


@pytest.fixture
def window(qtbot: Any, monkeypatch: pytest.MonkeyPatch) -> MainWindow:
    warnings: list[str] = []
    monkeypatch.setattr("PySide6.QtWidgets.QMessageBox.warning", lambda *a: warnings.append(a[2]))
    win = MainWindow()
    win.warnings = warnings  # type: ignore[attr-defined]
    qtbot.addWidget(win)
    return win


@pytest.mark.slow
def test_a_silent_probe_socket_never_freezes_the_window(qtbot: Any, window: MainWindow, tmp_path: Path) -> None:
    idle = _idle_stall(qtbot)
    with silent_probe(tmp_path / "silent.sock") as held:
        beat = Heartbeat()
        beat.start()
        started = time.perf_counter()
        attaching = window.attach(tmp_path / "silent.sock")  # Live > Attach to Socket...'s path
        returned = time.perf_counter() - started
        assert attaching is not None and not attaching.done()  # it waits in a task, not here
        qtbot.waitUntil(lambda: bool(held), timeout=5000)  # the probe's socket was reached and says nothing
        assert attaching.wait_view(20_000) is None
        beat.timer.stop()
    # the handshake's deadline ends it, with a line that says what took too long; no tab opened
    assert attaching.errors and "the probe's hello took longer than" in attaching.errors[0]
    # said in a message box that does not hold the event loop (not modal), with the reason
    shown = [box.text() for box in window.findChildren(QtWidgets.QMessageBox) if box.isVisible()]
    assert shown == attaching.errors and window.warnings == []  # type: ignore[attr-defined]
    assert "took longer than" in window.statusBar().currentMessage() and window.tabs.count() == 0
    assert returned < STALL_LIMIT_S and beat.longest < STALL_LIMIT_S + idle, (returned, beat.longest, idle)


def test_attach_to_all_looks_for_probes_off_the_gui_thread(
    qtbot: Any, window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A socket named like a probe of a running process (this one) that never answers its hello: listing the probes
    waits out its handshake (2 s) in a task; the window goes on and finds no job."""
    folder = tmp_path / "sockets"
    folder.mkdir(mode=0o700)
    monkeypatch.setenv(wire.SOCKET_DIR_ENV, str(folder))
    import os  # noqa: PLC0415

    idle = _idle_stall(qtbot)
    with silent_probe(wire.socket_path(os.getpid(), folder)):
        beat = Heartbeat()
        beat.start()
        attaching = window.live.attach_all()
        assert attaching.wait(20_000) == []
        beat.timer.stop()
    assert window.statusBar().currentMessage() == "No local job runs a gpumem-gui probe."
    assert beat.longest < STALL_LIMIT_S + idle, (beat.longest, idle)


def _opened(qtbot: Any, window: MainWindow, name: str) -> SnapshotTab:
    window.open_files([str(example_path(name))])
    window.wait_for_loads()
    doc = window.current_document()
    assert isinstance(doc, SnapshotTab)
    return doc


def test_a_failing_event_list_says_so_on_its_page_and_in_the_status_line(
    qtbot: Any, window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    from gpumem_gui.views.snapshot import curves_panel  # noqa: PLC0415

    def broken(*_args: object) -> None:
        raise MemoryError("no room for the list")

    monkeypatch.setattr(curves_panel, "LIST_AT_ONCE", 0)  # every trace listed in a task
    monkeypatch.setattr(curves_panel, "prepared_table", broken)
    doc = _opened(qtbot, window, "fragmented_oom")
    doc.curves.show_lists()
    count = doc.curves.event_list.count
    qtbot.waitUntil(lambda: "could not be listed" in count.text(), timeout=20_000)
    assert count.text() == "The events could not be listed: MemoryError: no room for the list"
    assert window.statusBar().currentMessage() == "event list: MemoryError: no room for the list"


def test_failing_breakdown_and_growth_pages_say_so(
    qtbot: Any, window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    from gpumem_gui.views.diagnosis import pages  # noqa: PLC0415

    def broken(*_args: object) -> None:
        raise ValueError("a block outside its segment")

    monkeypatch.setattr(pages, "breakdown_at", broken)
    monkeypatch.setattr(pages, "find_growth", broken)
    doc = _opened(qtbot, window, "training_leak")
    breakdown, growth = doc.diagnosis.breakdown, doc.diagnosis.growth
    doc.side_tabs.setCurrentWidget(breakdown)
    qtbot.waitUntil(lambda: "Could not find" in breakdown.title.text(), timeout=20_000)
    assert "ValueError: a block outside its segment" in breakdown.title.text() and breakdown.tree_root is None
    assert window.statusBar().currentMessage() == "what holds memory: ValueError: a block outside its segment"
    doc.side_tabs.setCurrentWidget(growth)
    qtbot.waitUntil(lambda: "could not be found" in growth.summary.text(), timeout=20_000)
    assert "not computed yet" not in growth.summary.text()
    assert window.statusBar().currentMessage() == "what grows: ValueError: a block outside its segment"


def test_an_uncaught_exception_is_one_line_in_the_status_bar(qtbot: Any, window: MainWindow) -> None:
    try:
        raise KeyError("segment 7")
    except KeyError as e:
        report_uncaught(type(e), e, e.__traceback__)
    qtbot.waitUntil(lambda: window.statusBar().currentMessage() != "", timeout=2000)
    assert window.statusBar().currentMessage() == "error: KeyError: 'segment 7'"


def test_save_report_runs_in_a_task_with_the_tab_s_timeline(
    qtbot: Any, window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from gpumem_gui.core.analysis import report  # noqa: PLC0415

    doc = _opened(qtbot, window, "fragmented_oom")
    # the oracle: the report as the command line makes it, its timeline built anew
    expected = report.report_text(
        doc.snapshot, report.build_report(doc.snapshot, device=doc.device, at=doc.current_event)
    )

    def rebuilt(*_args: object) -> None:
        raise AssertionError("the tab's timeline was built again")

    monkeypatch.setattr(report, "build_timeline", rebuilt)
    task = window.actions_on_tab.write_report(doc, tmp_path / "report.txt")
    assert not task.done  # written in a task, not on the GUI thread
    qtbot.waitUntil(lambda: task.done, timeout=20_000)
    assert (tmp_path / "report.txt").read_text(encoding="utf-8") == expected
    assert window.statusBar().currentMessage() == f"saved {tmp_path / 'report.txt'}"


def test_a_failed_save_is_one_line_in_the_status_bar_and_on_stderr_the_traceback_in_the_log(
    qtbot: Any, window: MainWindow, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    import logging  # noqa: PLC0415
    import sys  # noqa: PLC0415

    from gpumem_gui.app.errors import install_error_reporting  # noqa: PLC0415

    root, hook = logging.getLogger(), sys.excepthook
    handlers, level = list(root.handlers), root.level
    try:
        log_file = install_error_reporting(tmp_path / "logs")
        doc = _opened(qtbot, window, "fragmented_oom")
        capfd.readouterr()
        task = window.actions_on_tab.write_report(doc, tmp_path / "no such folder" / "report.txt")
        qtbot.waitUntil(lambda: task.done, timeout=20_000)
        message = window.statusBar().currentMessage()
        assert message.startswith("save report: FileNotFoundError: ") and "no such folder" in message
        err = capfd.readouterr().err
        assert "Traceback" not in err and err.count("\n") == 1 and "FileNotFoundError" in err
        logged = log_file.read_text(encoding="utf-8")
        assert "Traceback (most recent call last)" in logged and "write_text" in logged
    finally:
        for handler in root.handlers[len(handlers) :]:
            handler.close()
        root.handlers[:] = handlers
        root.setLevel(level)
        sys.excepthook = hook
