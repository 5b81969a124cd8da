"""Runs a command that reads snapshot files in a forked child, so that a file cut short under its map ends in one line.

The reader maps files instead of reading them (a 2 GB file never sits in memory whole); if a job writes the same
name again while it is read, the pages past the new end fault with SIGBUS, which no Python code can catch. The
child takes the fault; this process, which never touched the mapping, says which file changed and exits 2.
Forking costs a few milliseconds and copies nothing: the command's output is written by the child, as before.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Callable, Sequence

from gpumem_gui.cli.common import EXIT_BAD_INPUT
from gpumem_gui.core.snapshot.errors import changed_while_read, reader_stopped_by

EXIT_INTERRUPTED = 130


def run_guarded(body: Callable[[], int], paths: Sequence[str]) -> int:
    """`body()` in a child process, its exit status returned; a child killed by a signal is one line on stderr."""
    if not _can_fork():
        return body()
    sizes = {path: _size(path) for path in paths}
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child's coverage is the command's own
        _child(body)
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the child too: it ends the command
    try:
        _, status = _wait(pid)
    finally:
        signal.signal(signal.SIGINT, previous)
    if os.WIFEXITED(status):
        return os.WEXITSTATUS(status)
    number = os.WTERMSIG(status)
    print(f"gpumem-gui: {_why(number, sizes)}", file=sys.stderr)
    if number == signal.SIGINT:
        return EXIT_INTERRUPTED
    return EXIT_BAD_INPUT if number == signal.SIGBUS else 128 + number


def _child(body: Callable[[], int]) -> None:
    code = 1
    try:
        code = body()
    except KeyboardInterrupt:
        code = EXIT_INTERRUPTED
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else 1
    except BaseException:
        import traceback  # noqa: PLC0415

        traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError):  # a reader that left: nothing more to say
                stream.flush()
        os._exit(code)  # no atexit handlers, no second flush: the parent process owns those


def _can_fork() -> bool:
    """Only a process that is the command alone forks: not on Windows (no fork, and no SIGBUS either: a mapped file
    cannot be cut short there), not with threads or Qt running (a lock held by another thread at the fork stays
    held in the child forever: `render` hung so in a process that had a QApplication), and not where output is
    captured in Python objects (a caller's redirect_stdout), which a child's writes would not reach."""
    qt_started = any(name.startswith(("PySide6.", "shiboken6")) for name in sys.modules)
    return hasattr(os, "fork") and threading.active_count() == 1 and not qt_started and _real_streams()


def _real_streams() -> bool:
    try:
        sys.stdout.fileno()
        sys.stderr.fileno()
    except (AttributeError, OSError, ValueError):
        return False
    return True


def _wait(pid: int) -> tuple[int, int]:
    while True:
        try:
            return os.waitpid(pid, 0)
        except InterruptedError:  # pragma: no cover - retried by Python itself since 3.5
            continue


def _why(number: int, sizes: dict[str, int | None]) -> str:
    if number == signal.SIGBUS:
        shorter = [p for p, size in sizes.items() if size is not None and (_size(p) or 0) < size]
        named = ", ".join(shorter or list(sizes)) or "the file"
        return changed_while_read(named)
    if number == signal.SIGINT:
        return "interrupted"
    return f"the command was stopped by {reader_stopped_by(number)}"


def _size(path: str) -> int | None:
    try:
        return os.stat(path).st_size
    except OSError:
        return None
