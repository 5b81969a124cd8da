"""Errors in the window: an uncaught exception is one line in the status bar (through `failures()`, as every task's
failure) and its traceback goes to the log file; stderr gets one line per error, never a traceback."""

from __future__ import annotations

import logging
import sys
from pathlib import Path
from types import TracebackType

import platformdirs

from gpumem_gui.views.common.tasks import failures, one_line

log = logging.getLogger(__name__)
LOG_NAME = "gpumem-gui.log"


def report_uncaught(kind: type[BaseException], error: BaseException, trace: TracebackType | None) -> None:
    """An exception nothing caught (in a slot, a timer, an event handler): logged whole, shown as one line; the
    window goes on, where Qt would print it on stderr and leave the page half made without a word."""
    log.error("uncaught exception", exc_info=(kind, error, trace))
    failures().failed.emit("error", one_line(error))


class OneLine(logging.Formatter):
    """A record as one line: its message and, where it carries an exception, that exception's one line."""

    def format(self, record: logging.LogRecord) -> str:
        text = f"gpumem-gui: {record.getMessage()}"
        error = record.exc_info[1] if record.exc_info else None
        return f"{text}: {one_line(error)}" if error is not None else text


def install_error_reporting(log_dir: Path | None = None) -> Path:
    """For the window's process: uncaught exceptions go to `report_uncaught` (Ctrl+C in the terminal still ends
    it), the log with tracebacks to `log_dir` (default: the user's log folder), one line per warning to stderr.
    Returns the log file's path."""
    folder = log_dir if log_dir is not None else Path(platformdirs.user_log_dir("gpumem-gui"))
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / LOG_NAME
    to_file = logging.FileHandler(path, encoding="utf-8")
    to_file.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    to_stderr = logging.StreamHandler()
    to_stderr.setLevel(logging.WARNING)
    to_stderr.setFormatter(OneLine())
    root = logging.getLogger()
    root.addHandler(to_file)
    root.addHandler(to_stderr)
    root.setLevel(min(root.level or logging.INFO, logging.INFO))
    previous = sys.excepthook

    def hook(kind: type[BaseException], error: BaseException, trace: TracebackType | None) -> None:
        if issubclass(kind, KeyboardInterrupt):
            previous(kind, error, trace)
        else:
            report_uncaught(kind, error, trace)

    sys.excepthook = hook
    return path
