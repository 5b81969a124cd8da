"""Before and around the QApplication: the no-display check, Qt's message filter, throwaway settings, and the garbage
collector kept on the GUI thread."""

from __future__ import annotations

import contextlib
import gc
import os
import sys
import tempfile
from collections.abc import Iterator

from PySide6 import QtCore, QtWidgets

# printed by Qt's offscreen platform (renders, tests) whenever a window's size limits change: it means nothing to a
# user, who would otherwise see it on every render
HARMLESS_QT_MESSAGES = frozenset({"This plugin does not support propagateSizeHints()"})
# how often the GUI thread collects what the automatic collector would have (pyqtgraph's GarbageCollector: 1 s)
GC_INTERVAL_MS = 500
_GC_TIMER: QtCore.QTimer | None = None


def qt_message(mode: QtCore.QtMsgType, context: QtCore.QMessageLogContext, message: str) -> None:
    """Qt's messages, printed as Qt prints them (QT_MESSAGE_PATTERN honoured), less the known harmless ones."""
    if message in HARMLESS_QT_MESSAGES:
        return
    sys.stderr.write(QtCore.qFormatLogMessage(mode, context, message) + "\n")
    sys.stderr.flush()


def no_display_problem() -> str | None:
    """One line on what to do instead, where no window can open: Linux with neither an X11 nor a Wayland display and
    no Qt platform chosen. Asked before the QApplication is made, because Qt would abort there with a misleading
    hint about missing xcb libraries."""
    if not sys.platform.startswith("linux") or QtWidgets.QApplication.instance() is not None:
        return None
    if any(os.environ.get(name) for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")):
        return None
    return (
        "gpumem-gui: no display here (DISPLAY and WAYLAND_DISPLAY are unset): run the window where your desktop is, "
        "or save a snapshot here with `gpumem-gui attach PID --once --save FILE` and open FILE there, "
        "or draw a PNG here with `gpumem-gui render FILE -o OUT.png`"
    )


@contextlib.contextmanager
def throwaway_settings() -> Iterator[QtCore.QSettings]:
    """Settings in a temporary folder that goes when the block ends: for renders, benchmarks and scripts, whose
    windows must leave the user's geometry, map layout and recent files as they were. Close the window inside."""
    with tempfile.TemporaryDirectory(prefix="gpumem-gui-settings-") as folder:
        settings = QtCore.QSettings(os.path.join(folder, "settings.ini"), QtCore.QSettings.Format.IniFormat)
        try:
            yield settings
        finally:
            settings.sync()  # now, while the folder is there: a later sync would make the folder again


def collect_on_gui_thread() -> None:
    """Turn Python's automatic cyclic garbage collector off and collect on a timer of the GUI thread instead.

    Python collects in whichever thread allocates past a threshold: a task's thread (the lab's sweep makes objects
    for every torch op), a Dask or NVML thread. A collection there that frees the last reference to a cycle holding a
    Qt object (a closed tab's widget, a timer, a pixmap) runs its C++ destructor off the GUI thread, which Qt
    forbids: a timer says "Timers cannot be stopped from another thread", a widget crashes or deadlocks (a test hung
    in qtbot.waitUntil while the lab's sweep thread was inside torch, whose op hook had just collected three main
    windows and hundreds of widgets of earlier tests). Call it on the GUI thread once the QApplication exists: a
    second call, or one from another thread, does nothing. For a process whose event loop runs (the window, the test
    session): where none runs (a notebook's render), nothing would collect, so `render` does not call it.
    """
    global _GC_TIMER  # noqa: PLW0603 (one per process: the QApplication's)
    app = QtCore.QCoreApplication.instance()
    if _GC_TIMER is not None or app is None or QtCore.QThread.currentThread() is not app.thread():
        return
    gc.disable()
    _GC_TIMER = QtCore.QTimer(app, interval=GC_INTERVAL_MS)
    _GC_TIMER.timeout.connect(collect_due)
    _GC_TIMER.start()


def freeze_start_up() -> int:
    """Collect once, then keep every object made so far out of later collections (gc.freeze); how many that is.

    A started window's modules, classes, enums and widgets are some 95,000 objects that live as long as the process,
    and a full collection walked every one of them: 30-50 ms on the GUI thread each time the oldest generation came
    due, a stall of its own as a large file loaded. Call it once the window is made, before it shows."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()


def collect_due() -> int:
    """On the GUI thread: collect the generations whose counts passed their thresholds, as the automatic collector
    would have by now (how many unreachable objects it found); nothing before `collect_on_gui_thread`. The collector
    is turned off again first: a block that paused it before that call (core's gc_paused) turns it on at its end."""
    if _GC_TIMER is None:
        return 0
    gc.disable()
    counts, thresholds = gc.get_count(), gc.get_threshold()
    generation = -1
    for g in range(3):
        if thresholds[g] <= 0 or counts[g] <= thresholds[g]:
            break
        generation = g
    return gc.collect(generation) if generation >= 0 else 0
