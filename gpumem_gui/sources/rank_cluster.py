"""Rank files read on a Dask cluster: each file a task where the workers can read it; only its summary comes back.

Dask is optional (`pip install 'gpumem-gui[cluster]'`); nothing here imports it before a cluster is asked for. A
worker that dies is retried elsewhere by the scheduler and, when the file kills every worker that tries it
(KilledWorker), that file alone is listed; a scheduler that goes away lists the files not yet back, each with that
reason; the others' summaries are kept.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import CancelledError
from typing import Any

from gpumem_gui.sources.rank_folder import _summarise, find_snapshot_files
from gpumem_gui.sources.words import QT_TRANSLATE_NOOP, Sentence, as_is, say

INSTALL_HINT = "--scheduler needs Dask: pip install 'gpumem-gui[cluster]' (or: pip install 'dask[distributed]')"
CONNECT_TIMEOUT_S = 20
# why a file was not read on the cluster, each made with say(): the ranks view says it in its language
DIED = QT_TRANSLATE_NOOP("RankFolder", "every Dask worker that read it died (KilledWorker) ({path})")
WENT_AWAY = QT_TRANSLATE_NOOP("RankFolder", "the Dask scheduler went away before it was read ({name}) ({path})")
NEVER_READ = QT_TRANSLATE_NOOP("RankFolder", "the Dask scheduler went away before it was read ({path})")
TASK_FAILED = QT_TRANSLATE_NOOP("RankFolder", "the Dask task reading it failed ({error}) ({path})")
MESSAGES = (DIED, WENT_AWAY, NEVER_READ, TASK_FAILED)


class DaskMissing(RuntimeError):
    """Dask is not installed; str() is the one line that says what to install."""


def _distributed() -> Any:
    try:
        import distributed  # noqa: PLC0415 (optional)
    except ImportError:
        raise DaskMissing(INSTALL_HINT) from None
    return distributed


def _list(folder: str) -> list[str]:
    return find_snapshot_files(folder)


def _why(error: BaseException, path: str) -> Sentence:
    name = type(error).__name__
    if name == "KilledWorker":
        return say(DIED, path=as_is(path))
    if isinstance(error, CancelledError | asyncio.CancelledError | TimeoutError | OSError):  # the client's are these
        return say(WENT_AWAY, name=as_is(name), path=as_is(path))
    return say(TASK_FAILED, error=as_is(f"{name}: {error}"), path=as_is(path))


class ClusterReader:
    """A Dask client (given, or connected to `scheduler` / `scheduler_file` and closed by close())."""

    def __init__(self, client: Any, owned: bool = False) -> None:
        self.client = client
        self.owned = owned
        self._futures: list[Any] = []
        self._lock = threading.Lock()

    @classmethod
    def connect(cls, scheduler: str | None = None, scheduler_file: str | None = None) -> ClusterReader:
        """DaskMissing without Dask; OSError/TimeoutError with the reason when no scheduler answers."""
        distributed = _distributed()
        if scheduler_file is not None:
            client = distributed.Client(scheduler_file=scheduler_file, timeout=CONNECT_TIMEOUT_S)
        else:
            client = distributed.Client(scheduler, timeout=CONNECT_TIMEOUT_S)
        return cls(client, owned=True)

    def list_folder(self, folder: str) -> list[str]:
        """The folder's rank files as a worker sees them (the folder is not on this machine)."""
        found: list[str] = self.client.submit(_list, folder, pure=False).result()
        return found

    def read(
        self,
        files: list[tuple[str, str]],
        record: Callable[[str, dict[str, Any] | str], None],
        cancelled: threading.Event,
        pins: Sequence[tuple[str, str | int]] = (),
    ) -> None:
        """Each (path, relative) a task; `record(path, summary or error)` as each comes back, in any order; each
        summary with the series of `pins`."""
        distributed = _distributed()
        paths = [p for p, _ in files]
        futures = self.client.map(_summarise, paths, [r for _, r in files], [list(pins)] * len(paths), pure=False)
        path_of = {future.key: path for future, path in zip(futures, paths, strict=True)}
        with self._lock:
            self._futures = list(futures)
        done: set[str] = set()
        try:
            for future in distributed.as_completed(futures):
                path = path_of[future.key]
                if cancelled.is_set():
                    break
                try:
                    result = future.result()
                except BaseException as e:  # one line for this file; the others go on
                    if isinstance(e, KeyboardInterrupt):
                        raise
                    result = _why(e, path)
                done.add(path)
                future.release()  # the summary is recorded: the cluster forgets it, the merge holds only its entry
                record(path, result)
        finally:
            with self._lock:
                self._futures = []
        if not cancelled.is_set():
            for path in paths:
                if path not in done:
                    record(path, say(NEVER_READ, path=as_is(path)))

    def cancel(self) -> None:
        with self._lock:
            futures = list(self._futures)
        if futures:
            self.client.cancel(futures)

    def close(self) -> None:
        if self.owned:
            self.client.close()
