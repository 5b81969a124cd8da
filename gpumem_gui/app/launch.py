"""Starting the window: the one QApplication (named for the settings), and `gpumem-gui [FILE ...]`."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from PySide6 import QtCore, QtWidgets

from gpumem_gui.app.errors import install_error_reporting
from gpumem_gui.app.window import APP, ORG, MainWindow
from gpumem_gui.qt_start import collect_on_gui_thread, freeze_start_up, no_display_problem, qt_message
from gpumem_gui.views.common.language import LanguageAwareApplication


def application() -> QtWidgets.QApplication:
    app = QtWidgets.QApplication.instance()
    if isinstance(app, QtWidgets.QApplication):
        return app
    QtCore.qInstallMessageHandler(qt_message)  # before the app: the platform plugin speaks while it starts
    app = LanguageAwareApplication(sys.argv[:1])
    app.setOrganizationName(ORG)
    app.setApplicationName(APP)
    return app


def run_window(
    paths: Sequence[str], *, attach: int | Path | None = None, quiz: str | None = None, challenge: str | None = None
) -> int:
    """`gpumem-gui [FILE ...]`: the window, with the files opening in tabs (none: the start page says what to do).

    With `attach`, the job of that pid is watched live; with `quiz` ("" for the chooser), the guided quiz opens; with
    `challenge` ("" for the first), the debugging challenge starts.
    Exit code 2, with one line on what to do instead, where there is no display to open a window on."""
    problem = no_display_problem()
    if problem is not None:
        print(problem, file=sys.stderr)
        return 2
    app = application()
    collect_on_gui_thread()  # before any task's thread runs: Qt objects are freed on the GUI thread only
    install_error_reporting()  # tracebacks to the log file, one line to the status bar and stderr
    window = MainWindow()
    freeze_start_up()  # what lives as long as the window is no longer walked by every full collection
    window.show()
    if attach is not None:
        window.attach(attach)
    elif quiz is not None:
        window.open_quiz(quiz)
    elif challenge is not None:
        window.open_challenge(challenge)
    if paths:
        window.open_files(list(paths))  # without files the start page offers a file, an example, a job, the quiz
    status = app.exec()
    window.settings.sync()
    return int(status)
