"""Summaries of every snapshot in a folder, read in parallel worker processes bounded by the cores and the memory.

Each worker loads one file at a time and sends back only its FileSummary (a few hundred bytes): the file's dicts
and columns never leave the worker. The number of workers is the cores, fewer when the available memory would not
hold that many of the biggest file loaded at once. `cancel()` kills the workers, so a window can stop at once.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path

import psutil

from gpumem_gui.core.analysis.ranks import SNAPSHOT_SUFFIXES, FileSummary, RanksTable, ranks_table
from gpumem_gui.core.snapshot.errors import SnapshotError

# what one worker holds while it loads a file: the interpreter with numpy, plus the unpickled objects and their
# columns, measured at about 5x the pickle's size on simulator files; 10x leaves room for deep distinct stacks
WORKER_BASE_BYTES = 200 * 2**20
WORKER_BYTES_PER_FILE_BYTE = 10
MEMORY_SHARE = 0.5  # of the memory available now: the window and the user's other programs keep the rest


def find_snapshot_files(folder: str | os.PathLike[str]) -> list[str]:
    """Paths relative to `folder` of the files that may be snapshots, in and below it, sorted."""
    root = Path(folder)
    if not root.is_dir():
        raise SnapshotError("not a folder", str(folder))
    found = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in filenames:
            if name.lower().endswith(SNAPSHOT_SUFFIXES) and not name.startswith("."):
                found.append(str((Path(dirpath) / name).relative_to(root)))
    return sorted(found)


def worker_count(file_sizes: list[int], cpus: int | None = None, available: int | None = None) -> int:
    """As many workers as cores and files, fewer if the biggest file in each would not fit in memory; at least 1."""
    if not file_sizes:
        return 1
    cpus = cpus if cpus is not None else os.cpu_count() or 1
    available = available if available is not None else int(psutil.virtual_memory().available)
    per_worker = WORKER_BASE_BYTES + WORKER_BYTES_PER_FILE_BYTE * max(file_sizes)
    by_memory = int(available * MEMORY_SHARE) // per_worker
    return max(1, min(cpus, len(file_sizes), by_memory))


def _summarise(path: str, relative: str) -> FileSummary | str:
    """In a worker: the file's summary, or one line saying why it could not be read."""
    from gpumem_gui.core.analysis.ranks import summarise_file  # noqa: PLC0415 (the worker imports what it runs)

    try:
        return summarise_file(path, relative)
    except SnapshotError as e:
        return str(e)
    except MemoryError:
        return f"not enough memory to load it ({path})"
    except Exception as e:  # whatever broke, one line for this file and the others go on
        return f"{type(e).__name__}: {e} ({path})"


@dataclass(frozen=True)
class FileDone:
    """Progress: one more file read (`summary`) or not (`error`), `done` of `total`."""

    done: int
    total: int
    summary: FileSummary | None
    error: str | None


class RankFolderJob:
    """One folder being read. `run()` blocks until every file is done (a task runs it off the GUI thread);
    `cancel()`, from any thread, kills the workers."""

    def __init__(self, folder: str, workers: int | None = None) -> None:
        self.folder = folder
        self.relative = find_snapshot_files(folder)
        self.paths = [os.path.join(folder, r) for r in self.relative]
        sizes = [os.path.getsize(p) for p in self.paths]
        self.workers = workers if workers is not None else worker_count(sizes)
        self._cancelled = threading.Event()
        self._pool: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()

    def run(self, on_file: Callable[[FileDone], None] | None = None) -> RanksTable:
        """Read every file; `on_file` hears of each as it finishes. After cancel(): what was read so far."""
        summaries: list[FileSummary] = []
        errors: list[str] = []
        if not self.paths:
            return ranks_table(summaries, errors)
        # spawn, not fork: the window's process has threads (Qt's, the task pool's) that a fork would copy mid-lock
        pool = ProcessPoolExecutor(max_workers=self.workers, mp_context=multiprocessing.get_context("spawn"))
        with self._lock:
            self._pool = pool
            if self._cancelled.is_set():
                self._kill()
        try:
            paths = {pool.submit(_summarise, p, r): p for p, r in zip(self.paths, self.relative, strict=True)}
            pending: set[Future[FileSummary | str]] = set(paths)
            while pending and not self._cancelled.is_set():
                finished, pending = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
                for future in finished:
                    result = _outcome(future, paths[future])
                    if isinstance(result, FileSummary):
                        summaries.append(result)
                    else:
                        errors.append(result)
                    if on_file is not None and not self._cancelled.is_set():
                        done = len(summaries) + len(errors)
                        summary = result if isinstance(result, FileSummary) else None
                        on_file(FileDone(done, len(self.paths), summary, None if summary else str(result)))
        finally:
            if self._cancelled.is_set():
                with self._lock:
                    for process in self._kill():  # no worker outlives the job: each killed one is reaped
                        process.join(timeout=5)
            pool.shutdown(wait=not self._cancelled.is_set(), cancel_futures=True)
        return ranks_table(summaries, sorted(errors))

    def cancel(self) -> None:
        self._cancelled.set()
        with self._lock:
            self._kill()

    def _kill(self) -> list[multiprocessing.process.BaseProcess]:
        if self._pool is None:
            return []
        # the executor has no kill: its processes are killed one by one (their ids are ours, started by it)
        processes = list((getattr(self._pool, "_processes", None) or {}).values())
        for process in processes:
            if process.is_alive():
                process.kill()
        return processes


def _outcome(future: Future[FileSummary | str], path: str) -> FileSummary | str:
    try:
        return future.result()
    except Exception as e:  # a worker killed (out of memory, a crash): this file fails, the pool may go on
        return f"the process reading it stopped ({type(e).__name__}: {e}) ({path})"


def summarise_folder(
    folder: str, workers: int | None = None, on_file: Callable[[FileDone], None] | None = None
) -> RanksTable:
    """Read every snapshot in `folder` (and below) in parallel; raises SnapshotError if it is not a folder."""
    return RankFolderJob(folder, workers).run(on_file)
