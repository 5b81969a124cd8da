"""Spans a person can pick by name: the training steps the growth analysis finds, and record_function ranges.

The growth analysis measures every step at the same point (growth.find_steps: the end of each optimizer phase, of
each ProfilerStep range, ...). That point can fall inside the step's own work (the gradients still held after the
optimizer ran, freed by zero_grad after it), so a step as a span is cut where the loop holds least: between two
points, at the first event right after which allocated bytes are lowest. What a step allocated and still holds at
such a cut is what it kept, not what the next step will free. The first step starts before the first event, the
last ends at the last one.
"""

from __future__ import annotations

import itertools
import re

import numpy as np

from gpumem_gui.core.analysis.growth import Steps, find_steps
from gpumem_gui.core.analysis.span import Span
from gpumem_gui.core.analysis.timetravel import DeviceTimeline
from gpumem_gui.core.snapshot.annotations import annotation_ranges
from gpumem_gui.core.snapshot.marked import QT_TRANSLATE_NOOP
from gpumem_gui.core.snapshot.model import I64, Snapshot

MAX_RANGES = 10_000  # record_function ranges listed, at most (a profiled run can have millions)
STEP = QT_TRANSLATE_NOOP("Span", "step {k}")  # a step's name (the window translates it; explain --span reads it)
_STEP = re.compile(r"^\s*step[\s:#]*(\d+)\s*$", re.IGNORECASE)


def step_cuts(timeline: DeviceTimeline, steps: Steps) -> I64:
    """The moments between steps: per pair of successive measuring points, the first event after the first point,
    up to the second, right after which allocated bytes are lowest."""
    allocated = timeline.series.allocated
    points = steps.points
    cuts = [int(a) + 1 + int(np.argmin(allocated[a + 1 : b + 1])) for a, b in itertools.pairwise(points.tolist())]
    return np.asarray(cuts, np.int64)


def step_spans(snapshot: Snapshot, timeline: DeviceTimeline, steps: Steps | None = None) -> list[Span]:
    """The spans "step 1" .. "step N": the steps found, cut where the loop holds least (none without steps)."""
    steps = find_steps(snapshot, timeline) if steps is None else steps
    if not steps.found:
        return []
    bounds = [-1, *step_cuts(timeline, steps).tolist(), timeline.n_events - 1]
    spans = [(a, b) for a, b in itertools.pairwise(bounds) if b > a]
    return [Span(a, b, STEP.format(k=k), step=k) for k, (a, b) in enumerate(spans, 1)]


def range_spans(snapshot: Snapshot, timeline: DeviceTimeline) -> list[Span]:
    """Each record_function range of the device as a span: from right before its first event to after its last."""
    n = timeline.n_events
    out = []
    for first, last, name in annotation_ranges(snapshot, timeline.device)[:MAX_RANGES]:
        if 0 <= first <= last < n:
            out.append(Span(first - 1, last, name))
    return out


def named_spans(snapshot: Snapshot, timeline: DeviceTimeline) -> list[Span]:
    """The steps, then the record_function ranges: the list a person picks a span from."""
    if timeline.n_events == 0:
        return []
    return [*step_spans(snapshot, timeline), *range_spans(snapshot, timeline)]


def parse_span(text: str, snapshot: Snapshot, timeline: DeviceTimeline) -> Span:
    """`I:J` (from right after event I to right after event J), `step:K` or `step K` (the K-th step found), or the
    name of a record_function range (its first occurrence); ValueError in one line otherwise."""
    from gpumem_gui.core.analysis.span import check_span  # noqa: PLC0415 (one module's helper, no cycle)

    head, sep, tail = text.partition(":")
    if sep and _is_int(head) and _is_int(tail):
        start, end = int(head), int(tail)
        check_span(timeline, start, end)
        return Span(start, end)
    step = _STEP.match(text)
    if step:
        spans = step_spans(snapshot, timeline)
        k = int(step.group(1))
        if not spans:
            raise ValueError(f"no steps were found in this trace, so there is no step {k}; give I:J instead")
        if not 1 <= k <= len(spans):
            raise ValueError(f"step {k} is not one of the {len(spans)} steps found (step 1 to step {len(spans)})")
        return spans[k - 1]
    for span in range_spans(snapshot, timeline):
        if span.name == text:
            return span
    raise ValueError(f"not a span: {text!r} (give I:J with event indices, step:K, or a record_function range's name)")


def _is_int(text: str) -> bool:
    return text.strip().lstrip("-").isdigit()
