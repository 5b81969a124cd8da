"""Python's cyclic garbage is collected on the GUI thread only (qt_start.collect_on_gui_thread): a task's thread that
allocates past the collector's threshold must not free the window's Qt objects (it hung a lab test, crashed others)."""

from __future__ import annotations

import gc
import threading
from typing import Any

from PySide6 import QtCore

from gpumem_gui.qt_start import collect_due, collect_on_gui_thread
from gpumem_gui.views.common.tasks import TaskContext, TaskGroup


def _garbage_then_a_busy_task(qtbot: Any) -> list[threading.Thread]:
    """A cycle holding a Qt timer made garbage on the GUI thread, then a task that allocates 200,000 lists while the
    GUI thread waits without allocating: the threads in which the cycle was freed (none yet, or one)."""
    freed_in: list[threading.Thread] = []

    class Holder:
        def __init__(self) -> None:
            self.me = self  # only the cyclic collector frees it
            self.timer = QtCore.QTimer()  # a Qt object whose C++ destructor must run on its own thread

        def __del__(self) -> None:
            freed_in.append(threading.current_thread())

    gc.collect()  # nothing pending: the next collection is the task's allocations' doing
    Holder()
    done = threading.Event()

    def busy(ctx: TaskContext) -> None:
        [[] for _ in range(200_000)]  # allocations, thrown away at once
        done.set()

    tasks = TaskGroup()
    tasks.start("busy", busy)
    assert done.wait(60)  # blocked, allocating nothing: the collection, if any, is the task thread's
    assert tasks.wait(10_000)
    return freed_in


def test_automatic_collection_would_free_the_cycle_on_the_tasks_thread(qtbot: Any) -> None:
    """The oracle: with Python's automatic collector on, the task's thread frees the GUI thread's garbage."""
    gc.enable()
    try:
        freed_in = _garbage_then_a_busy_task(qtbot)
    finally:
        gc.disable()
    assert len(freed_in) == 1 and freed_in[0] is not threading.main_thread()


def test_the_gui_thread_collects_the_cycle_on_its_timer(qtbot: Any) -> None:
    collect_on_gui_thread()  # done already by the suite's qapp fixture: a second call changes nothing
    assert not gc.isenabled()
    freed_in = _garbage_then_a_busy_task(qtbot)
    assert freed_in == []  # the task's 200,000 allocations collected nothing on its thread
    # containers kept alive, a first generation's threshold more each time the wait looks: a collection comes due, as
    # it would for the automatic collector, and the GUI thread's timer makes it. (The count is allocations less
    # deallocations: earlier tests' objects freed meanwhile, a closed window's thousands at once, lower it; a fixed
    # number made once was outrun by them in the whole suite.)
    kept: list[list[Any]] = []

    def collected() -> bool:
        kept.extend([] for _ in range(gc.get_threshold()[0]))
        return bool(freed_in)

    qtbot.waitUntil(collected, timeout=5_000)
    assert freed_in == [threading.main_thread()] and len(kept) > 0


def test_collect_due_follows_the_thresholds_and_turns_the_collector_off_again() -> None:
    collect_on_gui_thread()
    gc.collect()
    gc.enable()  # what a gc_paused block begun before the collector moved leaves at its end
    assert collect_due() == 0  # nothing over its threshold yet
    assert not gc.isenabled()
    threshold = gc.get_threshold()[0]
    for _ in range(threshold + 10):
        a: list[Any] = []
        a.append(a)  # a cycle, made garbage at once
    assert gc.get_count()[0] > threshold
    assert collect_due() >= threshold
    assert gc.get_count()[0] < threshold


def test_the_objects_of_the_start_up_are_left_out_of_later_collections(qtbot: Any) -> None:
    from gpumem_gui.qt_start import freeze_start_up  # noqa: PLC0415

    made = [[] for _ in range(1000)]  # objects that live on, as the window's do
    walked = len(gc.get_objects())  # what a full collection walks (tracked, not frozen)
    try:
        frozen = freeze_start_up()
        assert frozen >= walked - 100  # everything made so far (a collection first: less its garbage)
        walked_now = {id(o) for o in gc.get_objects()}
        assert not any(id(m) in walked_now for m in made)
        assert len(gc.get_objects()) < walked // 20  # a full collection now walks only what is made after
        later = [[] for _ in range(1000)]
        assert len(gc.get_objects()) >= 1000 and later  # the objects made after: walked, collected as before
    finally:
        gc.unfreeze()
