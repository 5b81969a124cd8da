"""The task mechanism: results, progress, errors and cancellation arrive as signals in the GUI thread."""

from __future__ import annotations

import threading
import time
from typing import Any

import shiboken6
from PySide6 import QtCore

from gpumem_gui.views.common.tasks import TaskContext, TaskGroup, failures


def test_result_and_progress_arrive_in_the_gui_thread(qtbot: Any) -> None:
    group = TaskGroup()
    seen: list[tuple[str, object, bool]] = []
    gui = QtCore.QThread.currentThread()

    def work(ctx: TaskContext) -> int:
        assert QtCore.QThread.currentThread() is not gui
        for k in range(3):
            ctx.progress(k)
        return 42

    group.start(
        "sum",
        work,
        on_progress=lambda v: seen.append(("progress", v, QtCore.QThread.currentThread() is gui)),
        on_result=lambda v: seen.append(("result", v, QtCore.QThread.currentThread() is gui)),
    )
    assert group.wait(5000)
    assert seen == [("progress", 0, True), ("progress", 1, True), ("progress", 2, True), ("result", 42, True)]


def test_an_unexpected_exception_reaches_failures_as_one_line_with_or_without_on_error(qtbot: Any) -> None:
    group = TaskGroup()
    errors: list[tuple[str, str]] = []
    own: list[str] = []
    failures().failed.connect(lambda name, message: errors.append((name, message)))

    def broken(_ctx: TaskContext) -> None:
        raise ValueError("segments\nsecond line")

    group.start("load x", broken)
    group.start("load y", broken, on_error=own.append)  # the task's own handler, and the window's line too
    assert group.wait(5000)
    assert sorted(errors) == [
        ("load x", "ValueError: segments second line"),
        ("load y", "ValueError: segments second line"),
    ]
    assert own == ["ValueError: segments second line"]


def test_the_newest_request_wins_one_thread_per_key(qtbot: Any) -> None:
    """Three requests under one key while the first still runs: the first is cancelled (its result never arrives),
    the second never starts, the third starts once the first's thread has ended and is the only one delivered."""
    group = TaskGroup()
    release = threading.Event()
    started: list[int] = []
    delivered: list[int] = []
    running = threading.Lock()
    overlaps: list[int] = []

    def work(k: int) -> Any:
        def run(_ctx: TaskContext) -> int:
            if not running.acquire(blocking=False):
                overlaps.append(k)  # two of one key at once: what start_latest exists to prevent
                return k
            try:
                started.append(k)
                if k == 1:
                    release.wait(5)  # a computation that does not look at ctx.cancelled
                return k
            finally:
                running.release()

        return run

    group.start_latest("breakdown", work(1), on_result=delivered.append)
    qtbot.waitUntil(lambda: started == [1], timeout=5000)
    second = group.start_latest("breakdown", work(2), on_result=delivered.append)
    third = group.start_latest("breakdown", work(3), on_result=delivered.append)
    assert second.cancelled and not third.cancelled
    release.set()
    assert group.wait(5000)
    assert started == [1, 3] and delivered == [3] and overlaps == [] and second.done and third.done
    # a request answered without a task (a short list, made at once): nothing of the older one arrives
    release.clear()
    group.start_latest("breakdown", work(1), on_result=delivered.append)
    group.cancel_latest("breakdown")
    release.set()
    assert group.wait(5000) and delivered == [3]


def test_cancel_wakes_the_task_runs_its_hooks_and_delivers_nothing(qtbot: Any) -> None:
    group = TaskGroup()
    delivered: list[object] = []
    hooked = threading.Event()
    started = threading.Event()

    def long_poll(ctx: TaskContext) -> str:
        ctx.on_cancel(hooked.set)
        started.set()
        while not ctx.wait(10.0):
            pass
        return "should not arrive"

    task = group.start("poll", long_poll, on_result=delivered.append, on_error=delivered.append)
    assert started.wait(5)
    t0 = time.monotonic()
    group.cancel_all()
    assert group.wait(5000)
    assert time.monotonic() - t0 < 2.0 and hooked.is_set()
    assert delivered == [] and task.done and not group.busy()


def test_a_group_whose_owner_is_deleted_mid_task_ends_quietly(qtbot: Any) -> None:
    from PySide6 import QtWidgets  # noqa: PLC0415

    owner = QtWidgets.QWidget()
    group = TaskGroup(owner)
    release = threading.Event()
    finished: list[bool] = []
    task = group.start("slow", lambda ctx: release.wait(5), on_result=lambda _r: finished.append(True))
    task.finished.connect(lambda: finished.append(False))
    group.cancel_all()
    owner.deleteLater()
    qtbot.waitUntil(lambda: not shiboken6.isValid(group), timeout=2000)
    release.set()
    qtbot.waitUntil(lambda: task.done, timeout=5000)  # no "Signal source has been deleted" on the way
    assert finished == [False]
