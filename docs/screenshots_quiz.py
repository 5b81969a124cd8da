"""Renders the guided quiz and the checkpointing lab to PNG for the README (make screenshots)."""

import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6 import QtCore, QtWidgets

from gpumem_gui.app import MainWindow, application


def settle(app: QtWidgets.QApplication, seconds: float = 0.3) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        app.processEvents()


def main(out_dir: str) -> int:
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    app = application()  # with the filter of Qt's harmless offscreen messages
    # a throwaway settings file, so that the picture never shows (or changes) the user's own progress
    scratch = tempfile.TemporaryDirectory()
    settings = QtCore.QSettings(str(Path(scratch.name) / "screenshots.ini"), QtCore.QSettings.Format.IniFormat)
    window = MainWindow(settings)  # neither reads nor writes the user's own
    window.resize(1600, 950)
    window.show()
    panel = window.open_quiz("gpu-memory")
    question = panel.current_question
    assert question is not None
    panel.answer(question.answer)
    window.show_demo(question)
    window.wait_for_demo()
    settle(app)
    window.grab().save(str(out / "quiz_fragmented_oom.png"))

    lab = window.show_lab("saved_bytes")
    lab.run()  # type: ignore[attr-defined]
    deadline = time.monotonic() + 120
    while lab.busy() and time.monotonic() < deadline:  # type: ignore[attr-defined]
        settle(app, 0.1)
    settle(app)
    window.grab().save(str(out / "checkpointing_lab.png"))
    scratch.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "docs/img"))
