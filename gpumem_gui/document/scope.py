"""What a document computes over one device's whole trace once, for its span and flame graphs: kept per timeline, so
that a timeline replaced (a newer live snapshot, the loader's arrival) is never read through an older one's cache."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from gpumem_gui.core.analysis.breakdown import block_lifetimes
from gpumem_gui.core.analysis.flame import FlameFrame, FlameSource
from gpumem_gui.core.analysis.named_spans import named_spans
from gpumem_gui.core.analysis.span import SiteNamer, Span, SpanReport, span_report
from gpumem_gui.core.analysis.timetravel import DeviceTimeline
from gpumem_gui.core.snapshot.model import AllocatorState, Snapshot

T = TypeVar("T")


class Scope:
    """Per timeline (by identity): its flame source, site namer, named spans, and the last span's report."""

    def __init__(self) -> None:
        self._made: dict[tuple[int, str], tuple[DeviceTimeline, object]] = {}

    def _once(self, timeline: DeviceTimeline, what: str, make: Callable[[], T]) -> T:
        key = (timeline.device, what)
        found = self._made.get(key)
        if found is None or found[0] is not timeline:
            found = self._made[key] = (timeline, make())
        value: T = found[1]  # type: ignore[assignment]
        return value

    def flame_source(self, snapshot: Snapshot, timeline: DeviceTimeline) -> FlameSource:
        return self._once(timeline, "flame", lambda: FlameSource(snapshot, timeline))

    def named_spans(self, snapshot: Snapshot, timeline: DeviceTimeline) -> list[Span]:
        return list(self._once(timeline, "spans", lambda: named_spans(snapshot, timeline)))

    def seed_spans(self, timeline: DeviceTimeline, spans: list[Span]) -> None:
        """Take `spans` as the timeline's named spans (the loading worker found them)."""
        self._made[(timeline.device, "spans")] = (timeline, list(spans))

    def span_report(self, snapshot: Snapshot, timeline: DeviceTimeline, span: Span) -> SpanReport:
        namer = self._once(timeline, "namer", lambda: SiteNamer(snapshot, timeline))
        reports: dict[Span, SpanReport] = self._once(timeline, "reports", dict)
        if span not in reports:
            reports.clear()  # one span at a time is looked at: keep the last only
            reports[span] = span_report(snapshot, timeline, span, namer)
        found: SpanReport = reports[span]
        return found


def flame_block_mask(
    source: FlameSource, frame: FlameFrame, row: int, event: int
) -> Callable[[AllocatorState], npt.NDArray[np.bool_]]:
    """A spotlight's mask function: the blocks of a state (right after `event`) whose stacks pass through the flame
    frame's rectangle `row`."""
    through = source.lifetimes_through(frame.inverted, int(frame.node[row]))

    def mask_of(state: AllocatorState) -> npt.NDArray[np.bool_]:
        ids = block_lifetimes(source.timeline, state, event)
        return np.where(ids >= 0, through[np.maximum(ids, 0)], False)

    return mask_of
