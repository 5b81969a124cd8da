"""A file's load as the window runs it: the task that waits for the worker process, and what it prepares for the
GUI thread (the curves' envelopes, the timeline's ticks) so that the GUI thread only builds the tab."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from gpumem_gui.core.analysis.running_curves import PartialCurves
from gpumem_gui.core.analysis.site_series import BandSeries
from gpumem_gui.core.analysis.span import Span
from gpumem_gui.core.analysis.timeline_digest import segment_growths
from gpumem_gui.document import SnapshotDocument
from gpumem_gui.document.curves import Envelope, series_envelopes
from gpumem_gui.document.document import LAYOUTS
from gpumem_gui.sources.file_loader import FileLoadJob, LoadResult
from gpumem_gui.views.common.tasks import TaskContext

# a whole snapshot's load, with what the load task made for the GUI thread: each device's curves' envelopes and the
# events where it grew a segment (the timeline's ticks)
Loaded = tuple[LoadResult, dict[int, dict[str, Envelope]], dict[int, np.ndarray]]


@dataclass(frozen=True)
class SpansArrived:
    """The loading worker's named spans of a device's timeline (progress, after the whole snapshot)."""

    device: int
    spans: list[Span]


@dataclass(frozen=True)
class BandsArrived:
    """The loading worker's site bands of a device's timeline, the first grouping alone (progress, before the
    others: the site timeline shows them while the rest are made)."""

    device: int
    groupings: dict[str, BandSeries]


def load_task(job: FileLoadJob, layout: int) -> Callable[[TaskContext], LoadResult]:
    """The task that waits for a load's worker process. The final state arrives first (no trace yet), as progress,
    with its document and first frame made here, so that the GUI thread only builds the tab; then, also as
    progress, the whole snapshot with its timelines (a Loaded), with (device, PartialCurves) as progress while the
    trace is read, a BandsArrived of the site bands' first grouping, then a SpansArrived; last, as the task's
    result, the same LoadResult with the site timeline's bands (the worker makes them after the rest)."""

    def snapshot_arrived(ctx: TaskContext, partial: LoadResult) -> None:
        assert partial.snapshot is not None
        # its trace, once read, opens at the OOM or the peak
        document = SnapshotDocument(partial.snapshot, pending=True, at_moment=True)
        document.set_layout(*LAYOUTS[layout])
        ctx.progress((partial, document))

    def whole_arrived(ctx: TaskContext, result: LoadResult) -> None:
        ctx.progress(prepared(result))

    def curves_arrived(ctx: TaskContext, device: int, curves: PartialCurves) -> None:
        ctx.progress((device, curves))  # the running curves of the trace read so far

    def spans_arrived(ctx: TaskContext, device: int, spans: list[Span]) -> None:
        ctx.progress(SpansArrived(device, spans))

    def bands_arrived(ctx: TaskContext, bands: tuple[int, dict[str, BandSeries]]) -> None:
        ctx.progress(BandsArrived(*bands))

    def run(ctx: TaskContext) -> LoadResult:
        ctx.on_cancel(job.cancel)  # kills the worker process and removes its files
        return job.run(
            functools.partial(snapshot_arrived, ctx),
            on_whole=functools.partial(whole_arrived, ctx),
            on_curves=functools.partial(curves_arrived, ctx),
            on_spans=functools.partial(spans_arrived, ctx),
            on_bands=functools.partial(bands_arrived, ctx),
        )

    return run


def prepared(result: LoadResult) -> Loaded:
    """What the GUI thread would otherwise do with a whole snapshot, done in the load task: the curves' envelopes
    and the ticks of the loading worker's digest (a pass of this process over the series would touch every page of
    them, and hold the GIL), else made here."""
    timelines = result.timelines or {}
    envelopes = {d: series_envelopes(tl.series, tl.digest) for d, tl in timelines.items()}
    if result.snapshot is not None:
        for device in result.snapshot.devices():  # the worker's, or a pass over each trace: the device menu reads them
            result.snapshot.peak_reserved(device)
        result.default_device = result.snapshot.default_device()  # the OOM counts: a pass over each trace
    snapshot = result.snapshot
    ticks = {}
    if snapshot is not None:
        for d in envelopes:
            digest = timelines[d].digest
            ticks[d] = digest.ticks if digest is not None else segment_growths(snapshot.trace(d))
    return result, envelopes, ticks
