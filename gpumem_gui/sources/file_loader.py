"""FileLoadJob: loads and indexes a snapshot file in a separate process, which can be killed to cancel.

The worker unpickles (globals refused) and converts to columns; as soon as the segments are read it hands over the
final state (no trace: the map shows it), then, the trace read, the rest of the snapshot with every device's
timeline. Each part travels as an array file (array_file.py) that the GUI maps and never unpickles. The dicts of a
big file never enter the GUI process, and the worker leaves with os._exit, so nobody waits for them to be freed.
"""

from __future__ import annotations

import multiprocessing
import os
import shutil
import signal
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import TypeVar

import numpy as np

from gpumem_gui.core.analysis.running_curves import PartialCurves
from gpumem_gui.core.analysis.site_series import BandSeries
from gpumem_gui.core.analysis.span import Span
from gpumem_gui.core.analysis.timetravel import DeviceTimeline
from gpumem_gui.core.snapshot.errors import SnapshotError, changed_while_read, reader_stopped_by
from gpumem_gui.core.snapshot.model import Snapshot
from gpumem_gui.core.snapshot.sentences import QT_TRANSLATE_NOOP, Sentence, as_is, say

T = TypeVar("T")
# the hand-over files, in the job's private folder (tempfile.mkdtemp: 0700, a name nobody can guess or plant)
STATE_FILE, WHOLE_FILE, BANDS_FILE, SPANS_FILE = "state.arrays", "whole.arrays", "bands.arrays", "spans.arrays"
FIRST_BANDS_FILE = "bands-first.arrays"  # the site timeline's first grouping, handed over before the others
CURVES_FILE = "curves-{}.arrays"  # the running curves of the trace read so far, numbered
CURVES_EVERY_S = 0.25  # the worker sends the curves so far at most this often


class _CurvesSender:
    """The worker's running curves of the trace read so far, sent as progress while the file has one device's state
    (the reader's rows are every device's, in file order: with one device in the state they are taken as its own; the
    whole timeline replaces them)."""

    def __init__(self, folder: str, conn: Connection, every: float) -> None:
        from gpumem_gui.core.analysis.running_curves import RunningCurves  # noqa: PLC0415

        self.folder, self.conn, self.every = folder, conn, every
        self.curves = RunningCurves()
        self.device: int | None = None
        self.skipped = False
        self.sent, self.last = 0, time.monotonic()

    def state_read(self, state: Snapshot) -> None:
        devices = state.state.devices()
        self.device = devices[0] if len(devices) == 1 else None

    def rows_read(self, action: object, size: object) -> None:
        if self.device is None or self.skipped:
            self.skipped = True  # rows read before the state (or of several devices): no running sum from the start
            return
        self.curves.add(action, size)  # type: ignore[arg-type]
        if time.monotonic() - self.last >= self.every:
            from gpumem_gui.sources.transfer import save_curves  # noqa: PLC0415

            path = os.path.join(self.folder, CURVES_FILE.format(self.sent))
            save_curves(path, self.device, self.curves.partial())
            self.conn.send(("curves", path))
            self.sent, self.last = self.sent + 1, time.monotonic()


def _work(path: str, folder: str, conn: Connection, site_bands: bool, curves: tuple[float, int]) -> None:
    curves_every, rows_step = curves  # seconds between two sends of the running curves, rows between two batches
    out = os.path.join(folder, WHOLE_FILE)
    try:
        from gpumem_gui.core.analysis.timetravel import build_timeline  # noqa: PLC0415
        from gpumem_gui.core.snapshot.loader import load_snapshot  # noqa: PLC0415 (the worker imports what it runs)
        from gpumem_gui.sources.array_file import write_arrays  # noqa: PLC0415
        from gpumem_gui.sources.transfer import parts, save_parts  # noqa: PLC0415

        if rows_step:  # this process's own reader: its batches of rows
            from gpumem_gui.core.snapshot import convert  # noqa: PLC0415

            convert.ROWS_STEP = rows_step
        sender = _CurvesSender(folder, conn, curves_every)

        def state_read(state: Snapshot) -> None:
            # the map can show the final state while the trace is read and indexed
            save_parts(os.path.join(folder, STATE_FILE), state, {})
            conn.send(("state", os.path.join(folder, STATE_FILE)))
            sender.state_read(state)

        snapshot = load_snapshot(path, on_state=state_read, on_rows=sender.rows_read)
        timelines = {d: build_timeline(snapshot, d) for d in snapshot.devices()}
        # the whole snapshot again, not only what the state lacked: the state was read alone, with a stack table of
        # its own (the blocks' stack indices differ) and without the file's settings; a state is a few MB at most
        arrays, meta = parts(snapshot, timelines)
        device = snapshot.default_device()
        has_trace = device in timelines and timelines[device].n_events > 0
        # what the bands read comes from the file written (bands_input); each column is freed as it is written
        del snapshot, timelines
        write_arrays(out, arrays, meta, drain=True)
        conn.send(("done", out))
        if site_bands:
            try:
                bands = None
                if has_trace:
                    from gpumem_gui.sources.transfer import make_and_save_bands  # noqa: PLC0415

                    # the site timeline's bands, here rather than in a thread of the GUI process: their numpy passes
                    # over millions of lifetimes hold the GIL for tens of ms each, and the window would wait for it
                    bands = os.path.join(folder, BANDS_FILE)
                    snapshot, timeline = bands_input(out, device)  # the worker's own columns are freed here

                    spans_sent = False

                    def first_made(path: str | os.PathLike[str]) -> None:
                        # the grouping the window shows first is handed over as soon as it is made, then the named
                        # spans (the site timeline waited 0.2 s for them at 3M events), then the other groupings
                        nonlocal spans_sent
                        conn.send(("bands_first", path))
                        _send_spans(snapshot, timeline, folder, conn)
                        spans_sent = True

                    first = (os.path.join(folder, FIRST_BANDS_FILE), first_made)
                    try:
                        make_and_save_bands(bands, snapshot, timeline, first=first)  # each written as it is made
                    finally:
                        if not spans_sent:  # no first grouping handed over (one grouping, or it failed)
                            _send_spans(snapshot, timeline, folder, conn)
            except Exception:  # the window computes them itself
                bands = None
            conn.send(("bands", bands))
    except SnapshotError as e:
        conn.send(("error", str(e)))  # a Sentence (pickled as one): the window says it in its language
    except Exception as e:  # whatever broke, the window gets one line instead of a dead worker
        conn.send(("error", _broke(e, path)))
    finally:
        conn.close()
        os._exit(0)


def _joined(
    first: tuple[int, dict[str, BandSeries]] | None, rest: tuple[int, dict[str, BandSeries]] | None
) -> tuple[int, dict[str, BandSeries]] | None:
    """The first grouping's bands and the others', as one: None where the others could not be read (the window
    computes what it lacks), the others alone where the first could not be."""
    if rest is None:
        return None
    if first is None or first[0] != rest[0]:
        return rest
    return rest[0], {**first[1], **rest[1]}


def _send_spans(snapshot: Snapshot, timeline: DeviceTimeline, folder: str, conn: Connection) -> None:
    """The timeline's named spans (the steps found, the record_function ranges), sent before the last bands: their
    numpy passes in a thread of the window's process held the GIL for hundreds of ms at millions of events."""
    from gpumem_gui.core.analysis.named_spans import named_spans  # noqa: PLC0415
    from gpumem_gui.sources.transfer import save_spans  # noqa: PLC0415

    path = os.path.join(folder, SPANS_FILE)
    try:
        save_spans(path, timeline.device, named_spans(snapshot, timeline))
    except Exception:  # the window finds them itself
        return
    conn.send(("spans", path))


def bands_input(whole: str, device: int) -> tuple[Snapshot, DeviceTimeline]:
    """The snapshot and `device`'s timeline as the site bands read them: mapped from the hand-over file `whole` (the
    worker's own copies, some 450 MB of anonymous memory at 3M events, are freed meanwhile; of the mapped file only the
    pages the bands' passes read count, a few columns), without what the bands never read (every series but
    allocated, the keyframes, the block sizes, the other devices' timelines)."""
    import dataclasses  # noqa: PLC0415

    from gpumem_gui.core.analysis.timetravel import STORED_SERIES  # noqa: PLC0415
    from gpumem_gui.sources.transfer import load_parts  # noqa: PLC0415

    snapshot, timelines = load_parts(whole)
    timeline = timelines[device]
    empty = np.zeros(0, np.int64)
    gone: dict[str, object] = {name: empty for name in STORED_SERIES if name != "allocated"}
    series = dataclasses.replace(timeline.series, **gone, time_us=None)  # type: ignore[arg-type]
    return snapshot, dataclasses.replace(timeline, series=series, keyframes=[], block_sizes=empty)


def _hand_over(path: str, load: Callable[[str], tuple[int, T]], given: Callable[[int, T], None] | None) -> None:
    """What a progress file holds, to `given`; the file goes either way (a damaged one is skipped: what it held
    comes with the whole snapshot, or the window finds it itself)."""
    try:
        if given is not None:
            given(*load(path))
    except Exception:  # skipped on purpose, see above
        pass
    finally:
        if os.path.exists(path):
            os.unlink(path)


def _unreadable(e: Exception, path: str) -> str:
    first = (str(e).splitlines() or [""])[0][:200]
    return say(
        QT_TRANSLATE_NOOP("SnapshotError", "could not read the loaded data: {type}: {reason} ({path})"),
        type=type(e).__name__,
        reason=as_is(first),  # Python's words: said as they are
        path=path,
    )


def _broke(e: Exception, path: str) -> str:
    """An unexpected exception in the worker as the window's one line: its type, its words (data), the file."""
    return Sentence("", "{type}: {reason} ({path})", {"type": type(e).__name__, "reason": as_is(e), "path": path})


def _with_path(template: Sentence, path: str, **fields: str | int) -> Sentence:
    return say(template, path=path, **fields)


@dataclass
class LoadResult:
    path: str
    snapshot: Snapshot | None = None  # the partial result's has the final state and no trace; the last, all of it
    timelines: dict[int, DeviceTimeline] | None = None  # None in the first, partial result
    error: str | None = None
    partial: bool = False  # the snapshot has arrived; its timelines follow in a later result
    default_device: int | None = None  # the whole snapshot's default_device(), where the task made it
    # the site timeline's groupings of one device's timeline (site_bands=True), made by the worker: (device, bands)
    site_bands: tuple[int, dict[str, BandSeries]] | None = None


class FileLoadJob:
    """One file loading in its own process. `run()` blocks until it is done (a task runs it off the GUI thread);
    `cancel()`, from any thread, kills the process and removes its files. With `site_bands`, the worker also makes
    the site timeline's bands of the default device, after the whole snapshot (see run's on_whole). The running
    curves of the trace read so far are sent at most every `curves_every` seconds, after batches of `rows_step`
    trace entries (0: convert.ROWS_STEP)."""

    def __init__(
        self, path: str, site_bands: bool = False, curves_every: float = CURVES_EVERY_S, rows_step: int = 0
    ) -> None:
        self.path = path
        self.site_bands = site_bands
        self.snapshot: Snapshot | None = None
        self._cancelled = threading.Event()
        self._closing = threading.Lock()  # run()'s end and cancel() from another thread may clean up at once
        self._folder = tempfile.mkdtemp(prefix="gpumem-gui-")
        self._out = os.path.join(self._folder, WHOLE_FILE)
        ctx = multiprocessing.get_context("spawn")
        self._conn, child = ctx.Pipe(duplex=False)
        self._proc = ctx.Process(
            target=_work, args=(path, self._folder, child, site_bands, (curves_every, rows_step)), daemon=True
        )
        self._proc.start()
        child.close()

    def run(
        self,
        on_partial: Callable[[LoadResult], None] | None = None,
        timeout: float | None = None,
        *,
        on_whole: Callable[[LoadResult], None] | None = None,
        on_curves: Callable[[int, PartialCurves], None] | None = None,
        on_spans: Callable[[int, list[Span]], None] | None = None,
        on_bands: Callable[[tuple[int, dict[str, BandSeries]]], None] | None = None,
    ) -> LoadResult:
        """Wait for the worker: the snapshot goes to `on_partial` as soon as it is read (the map can show while the
        trace is indexed), the result with its timelines is returned. Errors come back as a result, not raised.
        With site_bands, the result with its timelines goes to `on_whole` as soon as it is read, and the same result
        is returned once the bands are added to it (without them, where the worker could not make them).
        `on_curves` gets (device, the running curves of the trace read so far) while the trace is read, a file of
        one device's state read by the compiled reader. `on_bands` gets (device, {grouping: bands}) of the first
        grouping, before the others (the result's site_bands has them all); `on_spans` gets (device, its named
        spans), with site_bands, after the first grouping and before the others."""
        deadline = None if timeout is None else time.monotonic() + timeout
        whole: LoadResult | None = None
        first_bands: tuple[int, dict[str, BandSeries]] | None = None
        try:
            while not self._cancelled.is_set():
                if deadline is not None and time.monotonic() > deadline:
                    self.cancel()
                    took = _with_path(
                        QT_TRANSLATE_NOOP("SnapshotError", "loading took longer than {seconds} s ({path})"),
                        self.path,
                        seconds=f"{timeout:.0f}",
                    )
                    return LoadResult(self.path, error=took)
                closed = False
                try:
                    message = self._conn.recv() if self._conn.poll(0.05) else None
                except (EOFError, OSError):  # a closed pipe polls as readable: without this, run() would spin
                    message, closed = None, True
                if message is None:
                    if self._cancelled.is_set():  # cancel() closed the pipe under us: not a crash of the worker
                        break
                    if closed or (not self._proc.is_alive() and not self._conn_has_data()):
                        # after the whole snapshot, only the site bands are lost (the window makes them itself)
                        return whole if whole is not None else LoadResult(self.path, error=self._died())
                    continue
                kind, value = message
                if (
                    kind in ("state", "done", "bands", "bands_first", "curves", "spans")
                    and value is not None
                    and not self._ours(value)
                ):
                    outside = QT_TRANSLATE_NOOP(
                        "SnapshotError", "the loading process named a file outside its folder ({path})"
                    )
                    return LoadResult(self.path, error=_with_path(outside, self.path))
                if kind == "curves":
                    self._curves(value, on_curves)
                elif kind == "spans":
                    self._spans(value, on_spans)
                elif kind == "state":
                    partial = self._partial(value)
                    if partial.error is not None:
                        return partial
                    if on_partial is not None:
                        on_partial(partial)
                elif kind == "done":
                    whole = self._finish()
                    if not self.site_bands or whole.error is not None:
                        return whole
                    if on_whole is not None:
                        on_whole(whole)
                elif kind == "bands_first" and whole is not None:
                    first_bands = self._bands(value)
                    if first_bands is not None and on_bands is not None:
                        on_bands(first_bands)
                elif kind == "bands" and whole is not None:
                    if value is not None:
                        whole.site_bands = _joined(first_bands, self._bands(value))
                    return whole
                else:
                    # a Sentence stays one (str() of it would be its English only)
                    return LoadResult(self.path, error=value if isinstance(value, str) else str(value))
            return LoadResult(
                self.path, error=_with_path(QT_TRANSLATE_NOOP("SnapshotError", "cancelled ({path})"), self.path)
            )
        finally:
            self._cleanup()

    def _died(self) -> str:
        """Why the worker left without a last word, in one line."""
        self._proc.join(timeout=5)
        code = self._proc.exitcode
        if code == -signal.SIGBUS:  # its mapped pages past a new end: the file was cut short under the reader
            return changed_while_read(self.path)
        if code is not None and code < 0:
            return _with_path(
                QT_TRANSLATE_NOOP(
                    "SnapshotError", "the loading process stopped unexpectedly, killed by {signal} ({path})"
                ),
                self.path,
                signal=reader_stopped_by(-code),
            )
        return _with_path(
            QT_TRANSLATE_NOOP("SnapshotError", "the loading process stopped unexpectedly ({path})"), self.path
        )

    def _ours(self, value: object) -> bool:
        """A hand-over file of this job: the worker names nothing else (a path elsewhere is never opened)."""
        names = (STATE_FILE, WHOLE_FILE, BANDS_FILE, FIRST_BANDS_FILE, SPANS_FILE)
        if value in {os.path.join(self._folder, n) for n in names}:
            return True
        head, number = CURVES_FILE.split("{}")
        name = os.path.basename(str(value))[len(head) :].removesuffix(number)
        return value == os.path.join(self._folder, CURVES_FILE.format(name)) and name.isdigit()

    def _conn_has_data(self) -> bool:
        try:
            return bool(self._conn.poll(0))
        except (EOFError, OSError):
            return False

    def _partial(self, state_path: str) -> LoadResult:
        from gpumem_gui.sources.transfer import load_parts  # noqa: PLC0415

        try:
            self.snapshot, _ = load_parts(state_path)
        except Exception as e:  # whatever a damaged hand-over file raises: one line
            return LoadResult(self.path, error=_unreadable(e, self.path))
        finally:
            if os.path.exists(state_path):
                os.unlink(state_path)
        return LoadResult(self.path, self.snapshot, partial=True)

    def _finish(self) -> LoadResult:
        from gpumem_gui.sources.transfer import load_parts  # noqa: PLC0415

        try:
            snapshot, timelines = load_parts(self._out)
        except Exception as e:  # as in _partial
            return LoadResult(self.path, error=_unreadable(e, self.path))
        return LoadResult(self.path, snapshot, timelines)

    def _curves(self, path: str, on_curves: Callable[[int, PartialCurves], None] | None) -> None:
        from gpumem_gui.sources.transfer import load_curves  # noqa: PLC0415

        _hand_over(path, load_curves, on_curves)

    def _spans(self, path: str, on_spans: Callable[[int, list[Span]], None] | None) -> None:
        from gpumem_gui.sources.transfer import load_spans  # noqa: PLC0415

        _hand_over(path, load_spans, on_spans)

    def _bands(self, path: str) -> tuple[int, dict[str, BandSeries]] | None:
        from gpumem_gui.sources.transfer import load_bands  # noqa: PLC0415

        try:
            return load_bands(path)
        except Exception:  # a damaged file: the window computes them itself
            return None
        finally:
            if os.path.exists(path):
                os.unlink(path)

    def cancel(self) -> None:
        self._cancelled.set()
        if self._proc.is_alive():
            self._proc.kill()
        self._cleanup()

    def _cleanup(self) -> None:
        # run() ends with it and cancel() may call it from another thread at the same moment: both must find the
        # files gone without an error
        self._proc.join(timeout=5)
        if self._proc.is_alive():  # a worker still writing would put files back while its folder is removed
            self._proc.kill()
            self._proc.join(timeout=5)
        with self._closing:  # a second close of the pipe would close a descriptor number that may be reused
            if not self._conn.closed:
                self._conn.close()
        shutil.rmtree(self._folder, ignore_errors=True)

    def wait(self, timeout: float = 120.0) -> LoadResult:
        """Block until done (for scripts and tests)."""
        return self.run(timeout=timeout)


def load_in_worker(path: str) -> tuple[Snapshot, dict[int, DeviceTimeline]]:
    """The snapshot of `path` and its timelines, read in a worker process, for callers that would otherwise read it
    in the window's own (a file cut short under the reader kills the worker, never the window): SnapshotError with
    the worker's one line when it could not be read."""
    result = FileLoadJob(path).wait()
    if result.error is not None or result.snapshot is None or result.timelines is None:
        raise SnapshotError(
            result.error or _with_path(QT_TRANSLATE_NOOP("SnapshotError", "nothing was loaded ({path})"), path)
        )
    return result.snapshot, result.timelines
