"""Summaries of every snapshot in a folder, read in parallel worker processes bounded by the cores and the memory.

Each worker loads one file at a time and sends back only its FileSummary (a few hundred bytes): the file's dicts
and columns never leave the worker. The number of workers is the cores, fewer when the available memory would not
hold that many of the biggest file loaded at once. `cancel()` kills the workers, so a window can stop at once. A
worker that dies costs only the file it was reading (see RankFolderJob).
"""

from __future__ import annotations

import errno
import multiprocessing
import os
import signal
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.connection import wait as connection_wait
from pathlib import Path
from typing import Any, Protocol

import psutil

from gpumem_gui.core.analysis.ranks import SNAPSHOT_SUFFIXES, FileSummary, RanksTable, ranks_table
from gpumem_gui.core.snapshot.errors import SnapshotError, changed_while_read, reader_stopped_by
from gpumem_gui.sources.rank_shards import SUMMARY_SUFFIX, find_summary_files, read_summary
from gpumem_gui.sources.summary_cache import SummaryCache
from gpumem_gui.sources.words import QT_TRANSLATE_NOOP, as_is, error_text, say

Result = dict[str, Any] | str  # a file's summary (rank_summary), or the one line why it has none
PinKey = tuple[str, str | int]  # a pin's (kind, key), as rank_summary.PinKey (not imported: numpy, on use)


class ClusterReading(Protocol):
    """What a job asks of a cluster (rank_cluster.ClusterReader, which imports this module for what its workers
    run: named here by what it does, not imported, so the two modules do not import each other)."""

    def list_folder(self, folder: str) -> list[str]: ...

    def read(
        self,
        files: list[tuple[str, str]],
        record: Callable[[str, Result], None],
        cancelled: threading.Event,
        pins: Sequence[PinKey] = (),
    ) -> None: ...

    def cancel(self) -> None: ...


# what one worker holds while it loads a file: the interpreter with numpy, plus the unpickled objects and their
# columns, measured at about 5x the pickle's size on simulator files; 10x leaves room for deep distinct stacks
WORKER_BASE_BYTES = 200 * 2**20
WORKER_BYTES_PER_FILE_BYTE = 10
MEMORY_SHARE = 0.5  # of the memory available now: the window and the user's other programs keep the rest

# raised as a SnapshotError, which names the folder after it (str(): "not a folder (PATH)")
NOT_A_FOLDER = QT_TRANSLATE_NOOP("SnapshotError", "not a folder")
NO_MEMORY = QT_TRANSLATE_NOOP("RankFolder", "not enough memory to load it ({path})")
CANNOT_READ = QT_TRANSLATE_NOOP("RankFolder", "cannot read: {error} ({path})")
LINK_LOOP = QT_TRANSLATE_NOOP("RankFolder", "a loop of symbolic links ({path})")
DANGLING = QT_TRANSLATE_NOOP("RankFolder", "a symbolic link to {target}, which does not exist ({path})")
KILLED = QT_TRANSLATE_NOOP("RankFolder", "the process reading it was killed by {signal} ({path})")
NO_ANSWER = QT_TRANSLATE_NOOP(
    "RankFolder", "the process reading it ended without an answer (exit status {status}) ({path})"
)
STOPPED = QT_TRANSLATE_NOOP("RankFolder", "the process reading it stopped ({error}) ({path})")
# every message above, each made with say(): the window says it in its language (views/common/sentences.said)
MESSAGES = (NOT_A_FOLDER, NO_MEMORY, CANNOT_READ, LINK_LOOP, DANGLING, KILLED, NO_ANSWER, STOPPED)


def find_snapshot_files(folder: str | os.PathLike[str]) -> list[str]:
    """Paths relative to `folder` of the files that may be snapshots, in and below it, sorted."""
    root = Path(folder)
    if not root.is_dir():
        raise SnapshotError(NOT_A_FOLDER, as_is(folder))
    found = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in filenames:
            if (
                name.lower().endswith(SNAPSHOT_SUFFIXES)
                and not name.startswith(".")
                and not name.endswith(SUMMARY_SUFFIX)
            ):
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


def _summarise(path: str, relative: str, pins: Sequence[PinKey] = ()) -> Result:
    """In a worker: the file's summary (with the series of `pins`), or one line saying why it could not be read."""
    from gpumem_gui.core.analysis.rank_summary import summarise_path  # noqa: PLC0415 (the worker imports what it runs)

    try:
        return summarise_path(path, relative, pins)
    except SnapshotError as e:
        return str(e)  # a Sentence naming its file (SnapshotError.__str__); args[0] would drop the file
    except MemoryError:
        return say(NO_MEMORY, path=as_is(path))
    except Exception as e:  # whatever broke, one line for this file and the others go on
        return f"{type(e).__name__}: {e} ({path})"


@dataclass(frozen=True)
class FileDone:
    """Progress: one more file read (`summary`) or not (`error`), `done` of `total`."""

    done: int
    total: int
    summary: FileSummary | None
    error: str | None


def unreachable(path: str) -> str | None:
    """Why `path` cannot even be opened (a symbolic link to nothing, or one that loops), or None. Told here, at once:
    no worker is spent on it and the other files are read."""
    try:
        os.stat(path)
    except OSError as e:
        if not os.path.islink(path):
            return say(CANNOT_READ, error=error_text(e.strerror or e), path=as_is(path))
        if e.errno == errno.ELOOP:
            return say(LINK_LOOP, path=as_is(path))
        try:
            target = os.readlink(path)
        except OSError:
            target = "?"
        return say(DANGLING, target=as_is(target), path=as_is(path))
    return None


class RankFolderJob:
    """One folder being read. `run()` blocks until every file is done (a task runs it off the GUI thread);
    `cancel()`, from any thread, kills the workers.

    The files are read in a pool of worker processes. A worker that dies (the OOM killer's SIGKILL, a SIGBUS from a
    file cut short under its map) breaks the whole pool, and every file not yet done comes back "broken"; those are
    read again, each in a process of its own, `workers` at a time, so that the files that were only waiting beside
    the one that killed its worker are read after all, and only a file whose own process dies is listed, with the
    signal that ended it.

    `cluster` (a rank_cluster.ClusterReader) reads them on a Dask cluster instead. `cache` (default: the user's)
    answers the files read before at once; None with `use_cache=False`. The `*.gpumem-summary.json` files of the
    folder (`ranks summarize --out`) are merged as they are. `pins`: the (kind, key) of each pin whose series every
    summary carries (a cached summary without one of them is read again)."""

    def __init__(
        self,
        folder: str,
        workers: int | None = None,
        *,
        cluster: ClusterReading | None = None,
        cache: SummaryCache | None = None,
        use_cache: bool = True,
        files: list[str] | None = None,
        pins: Sequence[PinKey] = (),
    ) -> None:
        self.folder = folder
        self.pins = [(str(kind), key) for kind, key in pins]
        self.cluster = cluster
        local = cluster is None or os.path.isdir(folder)
        if files is not None:
            self.relative = files
        elif local:
            self.relative = find_snapshot_files(folder)
        else:  # only the cluster's workers see it
            assert cluster is not None
            self.relative = cluster.list_folder(folder)
        self.local = local
        self.summary_files = find_summary_files(folder) if files is None and local else []
        self.cache = (cache or SummaryCache()) if use_cache and local else None
        self.paths = [os.path.join(folder, r) for r in self.relative]
        sizes = []
        for path in self.paths:
            try:
                sizes.append(os.path.getsize(path))
            except OSError:  # unreachable: run() says why
                sizes.append(0)
        self.workers = workers if workers is not None else worker_count(sizes)
        self._cancelled = threading.Event()
        self._pool: ProcessPoolExecutor | None = None
        self._alone: list[multiprocessing.process.BaseProcess] = []  # the processes reading one file each
        self._lock = threading.Lock()

    @property
    def total(self) -> int:
        return len(self.paths) + len(self.summary_files)

    def run(
        self,
        on_file: Callable[[FileDone], None] | None = None,
        on_result: Callable[[str, str, Result], None] | None = None,
    ) -> RanksTable:
        """Read every file; `on_file` hears of each as it finishes, `on_result` gets (path, relative path, summary
        or error) of each snapshot file and each summary file merged (its relative path: its name). After cancel():
        what was read so far. Only the table's small entries are kept: a summary's curves and sites go to the cache
        and `on_result`, then are dropped."""
        from gpumem_gui.core.analysis.rank_summary import carries_pins, file_summary  # noqa: PLC0415 (numpy, on use)

        summaries: list[FileSummary] = []
        errors: list[str] = []
        relative_of = dict(zip(self.paths, self.relative, strict=True))
        merged = set(self.summary_files)

        def record(path: str, result: Result, fresh: bool = True) -> None:
            if on_result is not None and (path in relative_of or path in merged):
                on_result(path, relative_of.get(path, os.path.basename(path)), result)
            if isinstance(result, dict):
                if fresh and self.cache is not None:
                    self.cache.put(path, result)
                entry: FileSummary | None = file_summary(result)
                assert entry is not None
                summaries.append(entry)
            else:
                entry = None
                errors.append(result)
            if on_file is not None and not self._cancelled.is_set():
                done = len(summaries) + len(errors)
                on_file(FileDone(done, self.total, entry, None if entry is not None else str(result)))

        for summary_file in self.summary_files:
            record(summary_file, read_summary(summary_file), fresh=False)
        readable = []
        for path, relative in zip(self.paths, self.relative, strict=True):
            why = unreachable(path) if self.local else None
            cached = self.cache.get(path) if why is None and self.cache is not None else None
            if cached is not None and not carries_pins(cached, self.pins):
                cached = None  # read again for the pins added since
            if why is not None:
                record(path, why)
            elif cached is not None:
                record(path, cached, fresh=False)
            else:
                readable.append((path, relative))
        if self.cluster is not None:
            if readable:
                self.cluster.read(readable, record, self._cancelled, self.pins)
            return ranks_table(summaries, sorted(errors))
        broken = self._read_in_pool(readable, record) if readable else []
        if broken and not self._cancelled.is_set():
            self._read_alone(broken, record)
        return ranks_table(summaries, sorted(errors))

    def _read_in_pool(
        self, files: list[tuple[str, str]], record: Callable[[str, Result], None]
    ) -> list[tuple[str, str]]:
        """Read `files` in the pool; those a dying worker took down with it are returned, unread."""
        broken: list[tuple[str, str]] = []
        # spawn, not fork: the window's process has threads (Qt's, the task pool's) that a fork would copy mid-lock
        pool = ProcessPoolExecutor(max_workers=self.workers, mp_context=multiprocessing.get_context("spawn"))
        with self._lock:
            self._pool = pool
            if self._cancelled.is_set():
                self._kill()
        try:
            submitted = {pool.submit(_summarise, p, r, self.pins): (p, r) for p, r in files}
            pending: set[Future[Result]] = set(submitted)
            while pending and not self._cancelled.is_set():
                finished, pending = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
                for future in finished:
                    # dropped once read: a done future keeps its summary (tens of KB), 1,000 of them tens of MB
                    path, relative = submitted.pop(future)
                    try:
                        record(path, future.result())
                    except BrokenProcessPool:  # a worker died: this file may be the cause, or only its neighbour
                        broken.append((path, relative))
                    except Exception as e:
                        record(path, say(STOPPED, error=as_is(f"{type(e).__name__}: {e}"), path=as_is(path)))
        finally:
            if self._cancelled.is_set():
                with self._lock:
                    for process in self._kill():  # no worker outlives the job: each killed one is reaped
                        process.join(timeout=5)
            pool.shutdown(wait=not self._cancelled.is_set(), cancel_futures=True)
        return broken

    def _read_alone(self, files: list[tuple[str, str]], record: Callable[[str, Result], None]) -> None:
        """Each file in a process of its own, `workers` at a time: a process that dies is that file's doing."""
        context = multiprocessing.get_context("spawn")
        waiting = list(reversed(files))
        running: dict[Connection, tuple[multiprocessing.process.BaseProcess, str]] = {}
        try:
            while (waiting or running) and not self._cancelled.is_set():
                while waiting and len(running) < self.workers:
                    path, relative = waiting.pop()
                    receiver, sender = context.Pipe(duplex=False)
                    reader = context.Process(
                        target=_summarise_into, args=(sender, path, relative, self.pins), daemon=True
                    )
                    running[receiver] = (reader, path)
                    with self._lock:  # cancel() kills what is started, and nothing starts after it
                        if not self._cancelled.is_set():
                            reader.start()
                            self._alone.append(reader)
                    sender.close()  # the child holds the only writer: its death ends the pipe
                for ready in connection_wait(list(running), timeout=0.2):
                    assert isinstance(ready, Connection)
                    receiver = ready
                    process, path = running.pop(receiver)
                    try:
                        result: Result = receiver.recv()
                    except (EOFError, OSError):  # it died before it could answer
                        process.join(timeout=5)
                        result = _death(process.exitcode, path)
                    receiver.close()
                    process.join(timeout=5)
                    record(path, result)
        finally:
            for receiver, (process, _path) in running.items():
                if process.is_alive():
                    process.kill()
                if process.pid is not None:  # started
                    process.join(timeout=5)
                receiver.close()
            with self._lock:
                self._alone.clear()

    def cancel(self) -> None:
        self._cancelled.set()
        if self.cluster is not None:
            self.cluster.cancel()
        with self._lock:
            self._kill()

    def _kill(self) -> list[multiprocessing.process.BaseProcess]:
        processes = list(self._alone)
        if self._pool is not None:
            # the executor has no kill: its processes are killed one by one (their ids are ours, started by it)
            processes += list((getattr(self._pool, "_processes", None) or {}).values())
        for process in processes:
            if process.is_alive():
                process.kill()
        return processes


def _summarise_into(sender: Connection, path: str, relative: str, pins: Sequence[PinKey] = ()) -> None:
    """In a process of its own: the file's summary, or why not, sent back."""
    sender.send(_summarise(path, relative, pins))
    sender.close()


def _death(exitcode: int | None, path: str) -> str:
    """What a process that read `path` alone and died without an answer means."""
    if exitcode is not None and exitcode < 0:
        if -exitcode == getattr(signal, "SIGBUS", None):
            return changed_while_read(path)
        return say(KILLED, signal=error_text(reader_stopped_by(-exitcode)), path=as_is(path))
    return say(NO_ANSWER, status=as_is(exitcode), path=as_is(path))


def summarise_folder(
    folder: str,
    workers: int | None = None,
    on_file: Callable[[FileDone], None] | None = None,
    *,
    cluster: ClusterReading | None = None,
    use_cache: bool = True,
) -> RanksTable:
    """Read every snapshot in `folder` (and below) in parallel; raises SnapshotError if it is not a folder."""
    return RankFolderJob(folder, workers, cluster=cluster, use_cache=use_cache).run(on_file)
