"""NVML polling: the poller's blocking loop, and the DeviceView that runs it as a task and draws its readings."""

from __future__ import annotations

import os
import threading
import time
from typing import Any

import psutil
import pynvml
import pytest

from gpumem_gui.core.snapshot.units import format_bytes
from gpumem_gui.sources import nvml as nv
from gpumem_gui.sources.nvml import NvmlPoller, NvmlReading, NvmlSource
from tests.test_nvml import FakeNvml, GiB, MiB, _driver_present, _vanished_pid, three_gpus

# -- NvmlPoller ---------------------------------------------------------------------------------------------------


class CountingSource:
    def __init__(self) -> None:
        self.reads = 0
        self.closed = threading.Event()

    def read(self) -> NvmlReading:
        self.reads += 1
        return NvmlReading((), f"reading {self.reads}")

    def close(self) -> None:
        self.closed.set()


def _running(poller: NvmlPoller) -> NvmlPoller:
    """`poller` polling in a daemon thread of its own, as a script runs it."""
    threading.Thread(target=poller.run, daemon=True).start()
    _wait(poller.is_alive)
    return poller


def _wait(condition: Any, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.005)


def test_poller_keeps_only_the_newest_and_never_piles_up() -> None:
    source = CountingSource()
    notified = []
    poller = _running(NvmlPoller(source, 0.01, lambda: notified.append(1), own_source=True))
    _wait(lambda: source.reads >= 5)
    assert len(notified) == 1  # nobody took the first reading: no more notifications, only newer values
    newest = poller.take()
    assert newest is not None and int(newest.error.split()[-1]) >= 5
    assert poller.take() is None
    _wait(lambda: len(notified) == 2)
    assert poller.stop() and not poller.is_alive()
    assert source.closed.wait(1)


def test_poller_interval_change_applies_to_the_wait_in_progress() -> None:
    source = CountingSource()
    poller = _running(NvmlPoller(source, 30.0))
    _wait(lambda: source.reads == 1)
    poller.interval_s = 0.01
    _wait(lambda: source.reads >= 3)
    with pytest.raises(ValueError):
        poller.interval_s = 0
    assert poller.stop(1.0)
    assert not source.closed.is_set()  # not its source: left open


def test_poller_run_blocks_until_stopped_from_another_thread() -> None:
    source = CountingSource()
    poller = NvmlPoller(source, 0.01, own_source=True)
    assert not poller.is_alive() and poller.stop(0.1) is True  # never ran: nothing to wait for
    poller = NvmlPoller(source, 0.01, own_source=True)
    notified = []
    runner = threading.Thread(target=poller.run, args=(lambda: notified.append(1),))
    runner.start()
    _wait(lambda: source.reads >= 3)
    assert poller.is_alive() and notified == [1]
    poller.request_stop()
    runner.join(2)
    assert not runner.is_alive() and not poller.is_alive() and source.closed.is_set()
    assert poller.stop(0.1)


def test_poller_turns_a_raising_source_into_a_reading() -> None:
    class Raising(CountingSource):
        def read(self) -> NvmlReading:
            raise OSError("gone")

    poller = _running(NvmlPoller(Raising(), 0.01))
    _wait(lambda: poller.reads >= 1)
    reading = poller.take()
    assert reading is not None and reading.error == "reading failed: OSError: gone"
    assert poller.stop()


# -- DeviceView ---------------------------------------------------------------------------------------------------


def _view(qtbot: Any) -> Any:
    from gpumem_gui.views.live.devices import DeviceView  # noqa: PLC0415 (Qt only for the view tests)

    view = DeviceView()
    qtbot.addWidget(view)
    view.resize(1300, 420)
    return view


def _column(name: str) -> int:
    from gpumem_gui.views.live.devices import COLUMNS  # noqa: PLC0415

    return [h for h, _ in COLUMNS].index(name)


def test_view_banner_when_nvml_is_missing(qtbot: Any) -> None:
    view = _view(qtbot)
    view.set_reading(NvmlSource(FakeNvml([], init_error=pynvml.NVML_ERROR_LIBRARY_NOT_FOUND)).read())
    view.show()
    qtbot.waitExposed(view)
    assert view.banner.isVisible() and view.banner.text() == nv.NO_DRIVER
    assert view.banner.height() < 3 * view.banner.fontMetrics().height()  # one line, not the whole view
    assert not view.tree.isVisible() and view.tree.topLevelItemCount() == 0
    assert view.interval_box.isEnabled()


def test_view_rows_for_a_reading(qtbot: Any) -> None:
    me, gone = os.getpid(), _vanished_pid()
    reading = NvmlSource(FakeNvml(three_gpus(me, gone))).read()
    view = _view(qtbot)
    view.set_reading(reading)
    assert not view.banner.isVisibleTo(view) and view.tree.topLevelItemCount() == 3
    h100, v100, a100 = (view.tree.topLevelItem(i) for i in range(3))
    assert h100.text(_column("name / command")) == "NVIDIA H100 80GB HBM3"
    assert h100.text(_column("used")) == f"{format_bytes(30 * GiB)} (38%)"
    assert h100.text(_column("reserved")) == format_bytes(512 * MiB)
    assert h100.text(_column("UUID / kind")) == "GPU-aaaaaaaa-0000-1111-2222-333333333333"
    assert (h100.text(_column("memory util")), h100.text(_column("temp"))) == ("41%", "61 °C")
    assert "not how full" in h100.toolTip(_column("memory util"))
    assert "not how full" in view.tree.headerItem().toolTip(_column("memory util"))
    assert [v100.text(_column(c)) for c in ("reserved", "GPU util", "memory util", "temp")] == ["n/a"] * 4
    assert "v1" in v100.toolTip(_column("reserved"))
    assert h100.childCount() == 2 and v100.childCount() == 2
    mine, vanished = h100.child(0), h100.child(1)
    assert mine.text(_column("GPU / pid")) == str(me)
    assert mine.text(_column("used")) == format_bytes(20 * GiB)
    assert mine.text(_column("user")) == psutil.Process().username()
    assert vanished.text(_column("user")) == "n/a" and vanished.text(_column("name / command")) == "n/a"
    assert v100.child(0).text(_column("UUID / kind")) == "compute+graphics"
    assert v100.child(1).text(_column("used")) == "n/a"
    assert a100.childCount() == 1 and a100.child(0).text(_column("name / command")) == "no processes"
    assert "3 GPUs" in view.status.text() and "550.54.15" in view.status.text()
    from PySide6 import QtCore  # noqa: PLC0415

    view.show()
    qtbot.waitExposed(view)
    view.tree.scrollToItem(mine)
    where = view.tree.visualItemRect(mine).center()  # a real double-click on the row, not a signal sent by hand
    with qtbot.waitSignal(view.process_activated, timeout=5000) as blocker:
        # the first click of a double-click is a press of its own (QTest's double-click event alone has none)
        qtbot.mouseClick(view.tree.viewport(), QtCore.Qt.MouseButton.LeftButton, pos=where)
        qtbot.mouseDClick(view.tree.viewport(), QtCore.Qt.MouseButton.LeftButton, pos=where)
    assert blocker.args == [me]


def test_view_updates_rows_in_place(qtbot: Any) -> None:
    me, gone = os.getpid(), _vanished_pid()
    gpus = three_gpus(me, gone)
    source = NvmlSource(FakeNvml(gpus))
    view = _view(qtbot)
    view.set_reading(source.read())
    first = view.tree.topLevelItem(0)
    first.setExpanded(False)
    first.child(0).setSelected(True)
    gpus[0].used = 40 * GiB
    gpus[0].compute = [(gone, 9 * GiB), (me, 30 * GiB)]
    view.set_reading(source.read())
    assert view.tree.topLevelItem(0) is first and not first.isExpanded()
    assert first.text(_column("used")).startswith(format_bytes(40 * GiB))
    assert first.child(0).text(_column("GPU / pid")) == str(me) and first.child(0).isSelected()
    gpus.pop()
    view.set_reading(source.read())
    assert view.tree.topLevelItemCount() == 2


def test_view_polls_a_source_and_stops(qtbot: Any) -> None:
    fake = FakeNvml(three_gpus(os.getpid(), _vanished_pid()))
    view = _view(qtbot)
    view.start(NvmlSource(fake), interval_s=0.1)
    assert view.interval_s == 0.1 and view.poller is not None
    qtbot.waitUntil(lambda: view.tree.topLevelItemCount() == 3, timeout=5000)
    inits = fake.calls["init"]
    qtbot.waitUntil(lambda: view.reading is not None and view.poller is not None and view.poller.reads >= 3)
    with qtbot.waitSignal(view.interval_changed) as blocker:
        view.interval_box.setValue(2.5)
    assert blocker.args == [2.5] and view.poller.interval_s == 2.5
    poller, task = view.poller, view.poll_task
    assert task is not None and task.running
    assert view.stop() and not poller.is_alive() and view.poller is None
    qtbot.waitUntil(lambda: task.done, timeout=2000)  # the task on the pool has ended, not only its loop
    assert view.tasks.wait(2000) and not view.tasks.tasks  # the loop has returned (is_alive above): no read after
    assert inits == 1 and fake.live == 1  # a source passed in stays open for its owner
    assert view.stop()  # stopping twice is harmless


def test_view_shows_a_failing_source_as_one_line_and_keeps_polling(qtbot: Any) -> None:
    class Flaky(CountingSource):
        def read(self) -> NvmlReading:
            self.reads += 1
            raise OSError("the driver went away\nfor good")

    source = Flaky()
    view = _view(qtbot)
    view.start(source, interval_s=0.1)
    qtbot.waitUntil(lambda: view.reading is not None, timeout=5000)
    assert view.banner.text() == "reading failed: OSError: the driver went away for good"
    qtbot.waitUntil(lambda: source.reads >= 3, timeout=5000)
    assert view.stop() and not source.closed.is_set()


def test_view_shows_a_failed_polling_loop_as_one_line(qtbot: Any, monkeypatch: Any) -> None:
    def broken(self: NvmlPoller, on_reading: Any = None) -> None:
        raise OSError("no more file descriptors\nat all")

    monkeypatch.setattr(NvmlPoller, "run", broken)
    view = _view(qtbot)
    view.start(CountingSource(), interval_s=0.1)
    task = view.poll_task
    qtbot.waitUntil(lambda: view.reading is not None, timeout=5000)
    assert view.banner.text() == "NVML polling stopped: OSError: no more file descriptors at all"
    assert task is not None and view.tasks.wait(2000) and task.done
    assert view.poller is None and view.stop()


def test_view_restart_replaces_the_task_and_closes_its_own_source(qtbot: Any) -> None:
    first, second = CountingSource(), CountingSource()
    view = _view(qtbot)
    view.start(first, interval_s=0.05)
    old_task, old_poller = view.poll_task, view.poller
    qtbot.waitUntil(lambda: first.reads >= 2, timeout=5000)
    view.start(second, interval_s=0.05)
    assert old_task is not None and view.poll_task is not old_task
    assert old_poller is not None and not old_poller.is_alive()  # the first loop has ended: one poll at a time
    qtbot.waitUntil(lambda: old_task.done and second.reads >= 2, timeout=5000)
    assert view.stop()
    assert view.tasks.wait(2000)


def test_view_start_without_a_source_polls_nvml(qtbot: Any) -> None:
    if _driver_present():
        pytest.skip("an NVIDIA driver is present here")
    view = _view(qtbot)
    view.start()
    qtbot.waitUntil(lambda: view.banner.text() == nv.NO_DRIVER, timeout=5000)
    assert view.stop()
