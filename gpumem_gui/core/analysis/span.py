"""A span of a device's trace: what it left behind, what it freed, what held its peak, and its figures at each end.

A span runs from one moment to another, as the cursor and `diff --at-a I --at-b J` name moments: from right after
event `start` (-1: before the first event) to right after event `end`, so it holds the events start + 1 .. end.
Over the block lifetimes of the timeline (one numpy pass each, no replay), a block counts as
- left behind: allocated inside the span and still allocated at its end (what one training step kept),
- a temporary: allocated and freed inside the span,
- released: allocated at or before its start and freed inside it,
- holding the peak: allocated right after the first event inside the span where allocated bytes are highest.
A block is freed, as the allocated series counts it, at the first of its pending free and its free, so the figures
agree with the timeline's: allocated at the end minus at the start is left behind minus released, to the byte.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from gpumem_gui.core.analysis.breakdown import lifetime_reasons
from gpumem_gui.core.analysis.timetravel import NEVER, DeviceTimeline
from gpumem_gui.core.snapshot.marked import QT_TRANSLATE_NOOP
from gpumem_gui.core.snapshot.model import I64, Snapshot
from gpumem_gui.core.snapshot.stacks import block_sites

# a span's events in its label: the first it holds and the last (the window translates it, the figures localized)
EVENTS = QT_TRANSLATE_NOOP("Span", "events {first} to {last}")
FIGURES = ("allocated_bytes", "reserved_bytes", "active_bytes", "requested_bytes", "segments")
_SERIES = {
    "allocated_bytes": "allocated",
    "reserved_bytes": "reserved",
    "active_bytes": "active",
    "requested_bytes": "requested",
    "segments": "segments",
}


@dataclass(frozen=True)
class Span:
    """The moments right after event `start` and right after event `end` (start < end; -1: before the first)."""

    start: int
    end: int
    name: str = ""  # "step 7", a record_function range's name, or "" for one the user drew
    step: int = field(default=0, compare=False)  # K of the step named "step K" (named_spans.STEP), 0 for none

    @property
    def label(self) -> str:
        """`events I to J`, after the span's name if it has one (English: the window words it with EVENTS)."""
        where = EVENTS.format(first=f"{self.start + 1:,}", last=f"{self.end:,}")
        return f"{self.name} ({where})" if self.name else where


@dataclass(frozen=True)
class SiteShare:
    """One allocation site's part of a set of blocks."""

    site: str
    bytes: int
    blocks: int

    def as_dict(self) -> dict[str, Any]:
        return {"site": self.site, "bytes": self.bytes, "blocks": self.blocks}


@dataclass(frozen=True)
class BlockSet:
    """Some block lifetimes (indices into the timeline's lifetimes), their bytes and their sites."""

    lifetimes: I64
    bytes: int
    by_site: tuple[SiteShare, ...]  # most bytes first

    @property
    def blocks(self) -> int:
        return len(self.lifetimes)

    def as_dict(self) -> dict[str, Any]:
        return {"bytes": self.bytes, "blocks": self.blocks, "by_site": [s.as_dict() for s in self.by_site]}


@dataclass(frozen=True)
class SpanReport:
    """A span of one device's trace, seen whole."""

    span: Span
    device: int
    n_events: int
    at_start: dict[str, int]  # FIGURES right after span.start
    at_end: dict[str, int]
    left_behind: BlockSet
    temporaries: BlockSet
    released: BlockSet
    peak_event: int  # the first event inside the span right after which allocated bytes are highest
    peak_bytes: int
    peak_holders: BlockSet

    @property
    def delta(self) -> dict[str, int]:
        return {key: self.at_end[key] - self.at_start[key] for key in FIGURES}

    @property
    def freed(self) -> BlockSet:
        """Every block freed inside the span: its temporaries and what it released."""
        return self.temporaries if not self.released.blocks else _union(self.temporaries, self.released)

    def as_json(self) -> dict[str, Any]:
        return {
            "span": {"start": self.span.start, "end": self.span.end, "name": self.span.name},
            "device": self.device,
            "n_events": self.n_events,
            "at_start": dict(self.at_start),
            "at_end": dict(self.at_end),
            "delta": self.delta,
            "left_behind": self.left_behind.as_dict(),
            "temporaries": self.temporaries.as_dict(),
            "released": self.released.as_dict(),
            "peak": {"event": self.peak_event, "allocated_bytes": self.peak_bytes, **self.peak_holders.as_dict()},
        }


def check_span(timeline: DeviceTimeline, start: int, end: int) -> None:
    """A span the trace has, else a ValueError that says which it has (one line)."""
    n = timeline.n_events
    if n == 0:
        raise ValueError("the file has no trace: a span needs one")
    if not -1 <= start < end <= n - 1:
        raise ValueError(f"span {start}:{end} is not within the trace: give I:J with -1 <= I < J <= {n - 1}")


def freed_at(timeline: DeviceTimeline) -> I64:
    """Per lifetime, the event after which it is no longer allocated (pending free or freed; NEVER if it stays)."""
    life = timeline.lifetimes
    out: I64 = np.minimum(life.pend, life.end)
    return out


def figures_at(timeline: DeviceTimeline, event: int) -> dict[str, int]:
    """The timeline's figures right after `event` (-1: before the first)."""
    s = timeline.series
    return {key: int(s.initial[name]) if event < 0 else int(getattr(s, name)[event]) for key, name in _SERIES.items()}


def span_masks(timeline: DeviceTimeline, start: int, end: int) -> dict[str, npt.NDArray[np.bool_]]:
    """Per lifetime: whether it is left behind by the span, a temporary of it, released by it, or allocated at its
    end; the masks the report, the flame graph's costs and the diff share."""
    life = timeline.lifetimes
    gone = freed_at(timeline)
    born_inside = (life.start > start) & (life.start <= end)
    freed_inside = (gone > start) & (gone <= end)
    return {
        "left_behind": born_inside & (gone > end),
        "temporaries": born_inside & freed_inside,
        "released": (life.start <= start) & freed_inside,
        "at_end": (life.start <= end) & (gone > end),
    }


def alive_mask(timeline: DeviceTimeline, event: int) -> npt.NDArray[np.bool_]:
    """Per lifetime: allocated right after `event`, as the allocated series counts it."""
    mask: npt.NDArray[np.bool_] = (timeline.lifetimes.start <= event) & (freed_at(timeline) > event)
    return mask


def allocated_curve(timeline: DeviceTimeline, mask: npt.NDArray[np.bool_]) -> tuple[I64, I64]:
    """The allocated bytes of the masked lifetimes over the trace as change points: the events right after which
    they change (-1: before the first), increasing, and the bytes right after each (a band of the site timeline)."""
    life = timeline.lifetimes
    ids = np.flatnonzero(mask)
    size = life.size[ids]
    gone = freed_at(timeline)[ids]
    ends = gone < NEVER
    event = np.concatenate([np.maximum(life.start[ids], -1), gone[ends]])
    delta = np.concatenate([size, -size[ends]])
    order = np.argsort(event, kind="stable")
    event, running = event[order], np.cumsum(delta[order])
    last = np.ones(len(event), bool)  # the value after all the changes of one event
    last[:-1] = event[1:] != event[:-1]
    return event[last].astype(np.int64), running[last].astype(np.int64)


def peak_in(timeline: DeviceTimeline, start: int, end: int) -> tuple[int, int]:
    """The first event of start + 1 .. end right after which allocated bytes are highest, and those bytes."""
    values = timeline.series.allocated[start + 1 : end + 1]
    at = int(np.argmax(values))
    return start + 1 + at, int(values[at])


class SiteNamer:
    """Lifetimes' sites as labels, found once per timeline (block_sites with breakdown's nameless reasons)."""

    def __init__(self, snapshot: Snapshot, timeline: DeviceTimeline) -> None:
        life = timeline.lifetimes
        self.code, self.labels = block_sites(snapshot.stacks, life.stack, lifetime_reasons(snapshot, timeline))
        self.size = life.size

    def block_set(self, mask: npt.NDArray[np.bool_]) -> BlockSet:
        ids = np.flatnonzero(mask).astype(np.int64)
        size = self.size[ids]
        code = self.code[ids]
        n = len(self.labels)
        site_bytes = np.bincount(code, weights=size, minlength=n) if len(ids) else np.zeros(n)
        # bincount's float64 sums are exact below 2**53 bytes; the totals are summed as integers regardless
        site_blocks = np.bincount(code, minlength=n) if len(ids) else np.zeros(n, np.int64)
        present = np.flatnonzero(site_blocks)
        shares = sorted(
            (SiteShare(self.labels[i], round(float(site_bytes[i])), int(site_blocks[i])) for i in present.tolist()),
            key=lambda s: (-s.bytes, s.site),
        )
        return BlockSet(ids, int(size.sum()), tuple(shares))


def span_report(snapshot: Snapshot, timeline: DeviceTimeline, span: Span, namer: SiteNamer | None = None) -> SpanReport:
    """The span seen whole (see the module docstring); ValueError for a span outside the trace."""
    check_span(timeline, span.start, span.end)
    namer = SiteNamer(snapshot, timeline) if namer is None else namer
    masks = span_masks(timeline, span.start, span.end)
    peak_event, peak_bytes = peak_in(timeline, span.start, span.end)
    return SpanReport(
        span,
        timeline.device,
        timeline.n_events,
        figures_at(timeline, span.start),
        figures_at(timeline, span.end),
        namer.block_set(masks["left_behind"]),
        namer.block_set(masks["temporaries"]),
        namer.block_set(masks["released"]),
        peak_event,
        peak_bytes,
        namer.block_set(alive_mask(timeline, peak_event)),
    )


def _union(a: BlockSet, b: BlockSet) -> BlockSet:
    merged: dict[str, list[int]] = {}
    for share in (*a.by_site, *b.by_site):
        got = merged.setdefault(share.site, [0, 0])
        got[0] += share.bytes
        got[1] += share.blocks
    shares = sorted((SiteShare(s, v[0], v[1]) for s, v in merged.items()), key=lambda s: (-s.bytes, s.site))
    return BlockSet(np.sort(np.concatenate([a.lifetimes, b.lifetimes])), a.bytes + b.bytes, tuple(shares))
