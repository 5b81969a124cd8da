"""Before and around the QApplication: the no-display check, Qt's message filter, and throwaway settings."""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from collections.abc import Iterator

from PySide6 import QtCore, QtWidgets

# printed by Qt's offscreen platform (renders, tests) whenever a window's size limits change: it means nothing to a
# user, who would otherwise see it on every render
HARMLESS_QT_MESSAGES = frozenset({"This plugin does not support propagateSizeHints()"})


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
