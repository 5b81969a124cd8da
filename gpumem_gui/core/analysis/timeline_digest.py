"""What a window reads first of a timeline (each curve's extremes per CHUNK events, where a segment grew, the trace's
streams, the peaks), made where the timeline is made: the loading worker, so that the window's process never passes
over millions of events to show them."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from gpumem_gui.core.analysis.timetravel import DeviceTimeline, Series
from gpumem_gui.core.snapshot.model import I64, Action, TraceTable

CHUNK = 64  # events per kept extreme (the curves' decimation, document/curves.py, reads them)
# events per numpy call of a pass over a whole trace: such a call holds the GIL throughout, and in the window's process
# a pass runs in a thread beside the GUI thread, which must not wait for it more than a few ms
PASS_CHUNK = 1 << 20
CURVES = ("reserved", "allocated", "requested", "free", "largest_free", "external_fragmentation")
PEAK_EVENTS = ("allocated",)  # the window's opening moment is the first event at the peak of allocated memory


@dataclass
class TimelineDigest:
    """One device's timeline as its window first reads it: every curve's minimum and maximum over each CHUNK events
    (the last chunk may be shorter), the events where the device grew a segment, the curves' peaks."""

    lows: dict[str, npt.NDArray[np.generic]] = field(default_factory=dict)
    highs: dict[str, npt.NDArray[np.generic]] = field(default_factory=dict)
    ticks: I64 = field(default_factory=lambda: np.zeros(0, np.int64))
    peaks: dict[str, int] = field(default_factory=dict)
    peak_events: dict[str, int] = field(default_factory=dict)
    streams: list[int] = field(default_factory=list)  # the distinct streams of the trace (the event list's choices)


def chunk_extremes(series: Series, name: str) -> tuple[npt.NDArray[np.generic], npt.NDArray[np.generic]]:
    """Series `name`'s minimum and maximum over each CHUNK events, read PASS_CHUNK events at a time (a derived
    series is never made whole)."""
    n = len(series)
    step = max(CHUNK, PASS_CHUNK // CHUNK * CHUNK)  # whole chunks per pass: the chunks are those of the whole
    lows, highs = [], []
    for lo in range(0, n, step):
        part = series.part(name, lo, min(lo + step, n))
        starts = np.arange(0, len(part), CHUNK, dtype=np.int64)
        lows.append(np.minimum.reduceat(part, starts))
        highs.append(np.maximum.reduceat(part, starts))
    if not lows:
        empty = series.part(name, 0, 0)
        return empty, empty
    return np.concatenate(lows), np.concatenate(highs)


def segment_growths(trace: TraceTable) -> I64:
    """The events where the trace's device grew a segment (cudaMalloc or a mapped range): the timeline's ticks."""
    action = trace.action
    parts = [
        np.flatnonzero((a == Action.SEGMENT_ALLOC) | (a == Action.SEGMENT_MAP)) + lo
        for lo in range(0, len(action), PASS_CHUNK)
        for a in (action[lo : lo + PASS_CHUNK],)
    ]
    return np.concatenate(parts).astype(np.int64, copy=False) if parts else np.zeros(0, np.int64)


def trace_streams(trace: TraceTable) -> list[int]:
    """The distinct streams of a trace (runs of one stream are read once: a trace rarely switches)."""
    s = trace.stream
    found: set[int] = set()
    for lo in range(0, len(s), PASS_CHUNK):
        part = s[lo : lo + PASS_CHUNK + 1]  # one event more: a switch at the chunk's end is seen
        heads = part[np.concatenate(([0], np.flatnonzero(part[1:] != part[:-1]) + 1))]
        found.update(int(x) for x in np.unique(heads))
    return sorted(found)


def timeline_digest(timeline: DeviceTimeline, trace: TraceTable) -> TimelineDigest:
    """The digest of `timeline`, whose trace is `trace`."""
    series = timeline.series
    digest = TimelineDigest(ticks=segment_growths(trace), streams=trace_streams(trace))
    for name in CURVES:
        digest.lows[name], digest.highs[name] = chunk_extremes(series, name)
        if name != "external_fragmentation":  # as Series.peak finds them
            high, initial = digest.highs[name], series.initial[name]
            digest.peaks[name] = int(max(initial, high.max())) if len(high) else int(initial)
    for name in PEAK_EVENTS:
        high = digest.highs[name]
        if len(high):  # the first chunk reaching the peak holds its first event
            first = int(np.argmax(high)) * CHUNK
            part = series.part(name, first, first + CHUNK)
            digest.peak_events[name] = first + int(np.argmax(part))
    return digest
