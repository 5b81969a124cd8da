"""The one task mechanism: every slow thing runs as a Task on a thread pool and reports back through Qt signals.

A task is a plain function `fn(ctx) -> result` that runs off the GUI thread. It may report progress with
`ctx.progress(value)`, must look at `ctx.cancelled` (or call `ctx.check()`) between slow steps, and may register
`ctx.on_cancel(hook)` to interrupt what it blocks on (kill a worker process, close a socket). Progress, the result
and the error reach the GUI thread as queued signals; after `cancel()` nothing more is delivered.

Any exception a task raises reaches the log (with its traceback) and, as one line, the task's `on_error` where it
has one and always `failures()`, which the window shows in its status line: no task dies silently. A TaskGroup
belongs to one owner (a tab, the window) and cancels all its tasks together; `start_latest(key, ...)` is the one way
for "the newest request wins".
"""

from __future__ import annotations

import logging
import threading
import warnings
from collections.abc import Callable
from typing import Any

from PySide6 import QtCore, QtWidgets

from gpumem_gui.core.snapshot.sentences import QT_TRANSLATE_NOOP, Sentence

log = logging.getLogger(__name__)

# Live sessions and device polls hold a thread for as long as they run: a pool of its own, larger than the cores,
# so that they never queue the short tasks (loads, replays) behind them.
_POOL: QtCore.QThreadPool | None = None


def thread_pool() -> QtCore.QThreadPool:
    global _POOL  # noqa: PLW0603 (one pool per process, made on first use, after the QApplication)
    if _POOL is None:
        _POOL = QtCore.QThreadPool()
        _POOL.setMaxThreadCount(32)
    return _POOL


class Cancelled(Exception):
    """Raised by `TaskContext.check()` once the task was cancelled."""


class TaskContext:
    """What a running task's function sees: cancellation, progress, interruptible waits."""

    def __init__(self, task: Task) -> None:
        self._task = task
        self._cancel = threading.Event()
        self._hooks: list[Callable[[], None]] = []
        self._lock = threading.Lock()

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()

    def check(self) -> None:
        if self._cancel.is_set():
            raise Cancelled

    def wait(self, seconds: float) -> bool:
        """Sleep up to `seconds`; True (at once) when the task is cancelled meanwhile."""
        return self._cancel.wait(seconds)

    def progress(self, value: object) -> None:
        if not self._cancel.is_set():
            _emit(self._task._progress, value)

    def on_cancel(self, hook: Callable[[], None]) -> None:
        """Call `hook` (from the cancelling thread) when the task is cancelled; at once if it already is."""
        with self._lock:
            if not self._cancel.is_set():
                self._hooks.append(hook)
                return
        hook()

    def _set_cancelled(self) -> None:
        with self._lock:
            if self._cancel.is_set():
                return
            self._cancel.set()
            hooks, self._hooks = self._hooks, []
        for hook in hooks:
            try:
                hook()
            except Exception:  # a hook that fails must not stop the others (or the cancelling GUI thread)
                log.exception("cancelling %s", self._task.name)


class _Runner(QtCore.QRunnable):
    def __init__(self, task: Task) -> None:
        super().__init__()
        self.task = task

    def run(self) -> None:
        self.task._run()


class Task(QtCore.QObject):
    """One slow function running on the pool. Its public signals fire in the GUI thread, never after cancel()."""

    progressed = QtCore.Signal(object)
    succeeded = QtCore.Signal(object)
    failed = QtCore.Signal(object)  # the one line: a Sentence kept as one (a str signal would make it a QString)
    finished = QtCore.Signal()  # always last, cancelled or not

    # emitted from the worker thread; this object lives in the GUI thread, so the slots below run there
    _progress = QtCore.Signal(object)
    _done = QtCore.Signal(object)
    _error = QtCore.Signal(object)
    _end = QtCore.Signal()

    def __init__(self, name: str, fn: Callable[[TaskContext], Any]) -> None:
        super().__init__()
        self.name = name
        self.fn = fn
        self.context = TaskContext(self)
        self.running = False
        self.done = False
        self._progress.connect(self._on_progress)
        self._done.connect(self._on_done)
        self._error.connect(self._on_error)
        self._end.connect(self._on_end)

    @property
    def cancelled(self) -> bool:
        return self.context.cancelled

    def start(self) -> Task:
        self.running = True
        thread_pool().start(_Runner(self))
        return self

    def cancel(self) -> None:
        self.context._set_cancelled()

    def _run(self) -> None:
        try:
            result = self.fn(self.context)
        except Cancelled:
            pass
        except Exception as e:  # every failure reaches the user as one line; the traceback goes to the log
            log.exception("task %s failed", self.name)
            _emit(self._error, one_line(e))
        else:
            _emit(self._done, result)
        finally:
            _emit(self._end)

    @QtCore.Slot(object)
    def _on_progress(self, value: object) -> None:
        if not self.cancelled:
            self.progressed.emit(value)

    @QtCore.Slot(object)
    def _on_done(self, result: object) -> None:
        if not self.cancelled:
            self.succeeded.emit(result)

    @QtCore.Slot(object)
    def _on_error(self, message: str) -> None:
        if not self.cancelled:
            self.failed.emit(message)
            failures().failed.emit(self.name, message)

    @QtCore.Slot()
    def _on_end(self) -> None:
        self.running = False
        self.done = True
        self.finished.emit()
        self._let_go()

    def _let_go(self) -> None:
        """Drop what an ended task holds: its function's closure and the listeners of the signals it will never
        emit again would otherwise keep a closed tab's snapshot alive for as long as the task object lives (a
        listener of `finished` that names the task makes a cycle through Qt that the collector cannot see)."""
        self.fn = _ended
        self.context._hooks.clear()
        for signal in (self.progressed, self.succeeded, self.failed):
            with warnings.catch_warnings():  # a signal nobody listened to says so
                warnings.simplefilter("ignore", RuntimeWarning)
                signal.disconnect()


def _ended(ctx: TaskContext) -> None:
    """An ended task's function: it has run, and its closure is let go."""


def _emit(signal: QtCore.SignalInstance, *args: object) -> None:
    """Emit from the worker thread; a task whose owner (a closed tab's view) is gone has nobody left to tell."""
    try:
        signal.emit(*args)
    except RuntimeError:  # "Signal source has been deleted"
        log.debug("a task's owner was deleted before it finished")


def one_line(error: BaseException) -> str:
    """An exception as the one line a user reads: its message, with the type where the message alone is unclear.
    A message that is a Sentence (a source's, the loader's) stays one, so the window says it in its language."""
    message = str(error)  # a Sentence where the exception's __str__ makes one (SnapshotError: its file too)
    if not isinstance(message, Sentence) and len(error.args) == 1 and isinstance(error.args[0], Sentence):
        message = error.args[0]  # Exception.__str__ makes its one Sentence argument a plain str
    text: str = " ".join(message.split())
    if isinstance(message, Sentence) and text == message:
        text = message
    if not text:
        return type(error).__name__
    expected = ("SnapshotError", "ProbeError", "ProbeGone", "AllocConfError", "DemoError", "QuizError", "LabError")
    if type(error).__name__ in expected:
        return text
    return Sentence("", "{kind}: {text}", {"kind": Sentence("", type(error).__name__), "text": text})


# the names of the live and ranks views' tasks: the status line names the one that failed (the log keeps English)
ATTACH_TASK = QT_TRANSLATE_NOOP("Tasks", "attach {target}")
ATTACH_ALL_TASK = QT_TRANSLATE_NOOP("Tasks", "Attach to All")
SESSION_TASK = QT_TRANSLATE_NOOP("Tasks", "live session pid {pid}")
EVENTS_TASK = QT_TRANSLATE_NOOP("Tasks", "live events pid {pid}")
MARK_TASK = QT_TRANSLATE_NOOP("Tasks", "mark {name}")
RANKS_TASK = QT_TRANSLATE_NOOP("Tasks", "ranks {folder}")
NVML_TASK = QT_TRANSLATE_NOOP("Tasks", "NVML poll")


class Failures(QtCore.QObject):
    """Every task's failure and every uncaught exception of the process, as (what failed, one line)."""

    failed = QtCore.Signal(object, object)  # Sentences kept as they are, said by the window in its language


_FAILURES: Failures | None = None


def failures() -> Failures:
    """The process's one Failures: the window shows what it reports in its status line."""
    global _FAILURES  # noqa: PLW0603 (one per process, made on first use, in the GUI thread)
    if _FAILURES is None:
        _FAILURES = Failures()
    return _FAILURES


class TaskGroup(QtCore.QObject):
    """The tasks of one owner: started, tracked, cancelled together."""

    def __init__(self, parent: QtCore.QObject | None = None) -> None:
        super().__init__(parent)
        self.tasks: list[Task] = []
        self._latest: dict[str, Task] = {}  # the newest task of each key of start_latest

    def start(
        self,
        name: str,
        fn: Callable[[TaskContext], Any],
        *,
        on_result: Callable[[Any], object] | None = None,
        on_progress: Callable[[Any], object] | None = None,
        on_error: Callable[[str], object] | None = None,
        on_finished: Callable[[], object] | None = None,
    ) -> Task:
        """Run `fn` on the pool; a failure reaches `on_error` (where given) and `failures()`, always."""
        return self._made(
            name, fn, on_result=on_result, on_progress=on_progress, on_error=on_error, on_finished=on_finished
        ).start()

    def start_latest(
        self,
        key: str,
        fn: Callable[[TaskContext], Any],
        *,
        on_result: Callable[[Any], object] | None = None,
        on_progress: Callable[[Any], object] | None = None,
        on_error: Callable[[str], object] | None = None,
        on_finished: Callable[[], object] | None = None,
    ) -> Task:
        """The newest request wins: the task started under `key` before is cancelled (nothing of it arrives after
        this call), and this one starts when that one's thread is free: one thread per key, so a cursor dragged
        over a slow computation leaves one running and the newest waiting, never a pile of threads."""
        task = self._made(
            key, fn, on_result=on_result, on_progress=on_progress, on_error=on_error, on_finished=on_finished
        )
        older, self._latest[key] = self._latest.get(key), task
        task.finished.connect(lambda: self._latest.pop(key) if self._latest.get(key) is task else None)
        if older is None or older.done:
            return task.start()
        older.cancel()
        older.finished.connect(lambda: task._on_end() if task.cancelled else task.start())
        return task

    def cancel_latest(self, key: str) -> None:
        """Cancel the task of `key` (a request answered without one: nothing of the older one may arrive)."""
        task = self._latest.get(key)
        if task is not None:
            task.cancel()

    def _made(self, name: str, fn: Callable[[TaskContext], Any], **slots: Callable[..., object] | None) -> Task:
        task = Task(name, fn)
        signals = {"on_result": task.succeeded, "on_progress": task.progressed, "on_error": task.failed,
                   "on_finished": task.finished}  # fmt: skip
        for key, slot in slots.items():
            if slot is not None:
                signals[key].connect(slot)
        task.finished.connect(lambda: self._forget(task))
        self.tasks.append(task)
        return task

    def _forget(self, task: Task) -> None:
        # plain Python: a group whose owner was deleted (a tab closed mid-task) still hears its cancelled tasks end
        if task in self.tasks:
            self.tasks.remove(task)

    def busy(self) -> bool:
        return any(not t.cancelled for t in self.tasks)

    def cancel_all(self) -> None:
        for task in list(self.tasks):
            task.cancel()

    def wait(self, timeout_ms: int = 120_000) -> bool:
        """Run the event loop until every task has finished (for scripts and tests); False on time-out."""
        deadline = QtCore.QDeadlineTimer(timeout_ms)
        while self.tasks and not deadline.hasExpired():
            QtWidgets.QApplication.processEvents(QtCore.QEventLoop.ProcessEventsFlag.AllEvents, 20)
            QtCore.QThread.msleep(5)
        return not self.tasks
