"""What a demo points at in one view (DemoFocus, its timeline marks and bracket), and the plumbing that builds one.

A `DemoFocus` is the trace event to travel to, a mask over the blocks of the allocator state right after that event,
events or spans to mark on the timeline, an optional reserved/allocated bracket for the figures, and one caption whose
figures are all in `facts`, so that tests check the caption's claims on the data, never on fixed places. Caption and
labels are held in every quiz language; `in_language` gives the focus as one language shows it, without recomputing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

import numpy as np

from gpumem_gui.core.analysis.timetravel import DeviceTimeline, build_timeline
from gpumem_gui.core.snapshot.model import B8, I64, Action, AllocatorState, Snapshot, TraceTable
from gpumem_gui.teach.demos.plans import DemoError

Facts = dict[str, int | float]

GROW = (Action.SEGMENT_ALLOC, Action.SEGMENT_MAP)  # a new cudaMalloc, or pages mapped into an expandable segment
RELEASE = (Action.SEGMENT_FREE, Action.SEGMENT_UNMAP)


@dataclass(frozen=True)
class TimelineMark:
    """Events to mark on the timeline: one event when `start == end`, else the inclusive span between them."""

    start: int
    end: int
    label: str
    labels: Mapping[str, str] = field(default_factory=dict, compare=False, hash=False)  # language -> label

    def in_language(self, lang: str) -> TimelineMark:
        return replace(self, label=self.labels.get(lang, self.label))


def mark(start: int, end: int, labels: Mapping[str, str]) -> TimelineMark:
    """A mark labelled in every language, shown in English until a language is picked."""
    return TimelineMark(start, end, labels["en"], labels)


@dataclass(frozen=True)
class Bracket:
    """The reserved-allocated gap for the figures panel to bracket."""

    reserved_bytes: int
    allocated_bytes: int
    label: str
    labels: Mapping[str, str] = field(default_factory=dict, compare=False, hash=False)  # language -> label

    @property
    def gap_bytes(self) -> int:
        return self.reserved_bytes - self.allocated_bytes


@dataclass(frozen=True, eq=False)
class DemoFocus:
    """What one view points at. `block_mask` is over the blocks of `state_at(event)` of `device` (all pools and
    streams, in that state's block order), which is what SnapshotTab.travel_to(event) shows unfiltered."""

    demo: str
    title: str
    device: int
    event: int  # the trace event whose state is shown (n_events - 1: the final snapshot; -1: before the first)
    block_mask: B8
    block_addresses: I64  # the address of every block of that state: what `mask_for` matches other states on
    caption: str
    facts: Facts
    timeline_marks: tuple[TimelineMark, ...] = ()
    bracket: Bracket | None = None
    captions: Mapping[str, str] = field(default_factory=dict)  # language -> caption; `caption` is one of them

    def in_language(self, lang: str) -> DemoFocus:
        """This focus captioned and labelled in `lang` (as it is where a text lacks that language)."""
        bracket = self.bracket
        if bracket is not None:
            bracket = replace(bracket, label=bracket.labels.get(lang, bracket.label))
        return replace(
            self,
            caption=self.captions.get(lang, self.caption),
            timeline_marks=tuple(m.in_language(lang) for m in self.timeline_marks),
            bracket=bracket,
        )

    @property
    def highlighted_addresses(self) -> I64:
        return self.block_addresses[self.block_mask]

    def mask_for(self, state: AllocatorState) -> B8:
        """The mask over `state`'s blocks: `block_mask` itself for the focused state, else matched by address (a
        pool or stream filter keeps a subset of the same blocks)."""
        addresses = state.blocks.address
        if np.array_equal(addresses, self.block_addresses):
            return self.block_mask
        return np.isin(addresses, self.highlighted_addresses)


@dataclass(frozen=True)
class DemoData:
    """One device of a snapshot, as every analysis reads it: its timeline and its trace."""

    snapshot: Snapshot
    device: int
    timeline: DeviceTimeline
    trace: TraceTable

    @property
    def last(self) -> int:
        return self.timeline.n_events - 1


def demo_data(snapshot: Snapshot, timeline: DeviceTimeline | None) -> DemoData:
    """`snapshot` on `timeline`'s device, or on its default device (building the timeline) when none is given."""
    device = snapshot.default_device() if timeline is None else timeline.device
    if timeline is None:
        timeline = build_timeline(snapshot, device)
    return DemoData(snapshot, device, timeline, snapshot.trace(device))


def make_focus(
    data: DemoData,
    event: int,
    state: AllocatorState,
    mask: B8,
    *,
    demo: str,
    title: str,
    caption: Mapping[str, str],
    facts: Facts,
    marks: tuple[TimelineMark, ...] = (),
    bracket: Bracket | None = None,
) -> DemoFocus:
    return DemoFocus(
        demo=demo,
        title=title,
        device=data.device,
        event=event,
        block_mask=np.asarray(mask, bool),
        block_addresses=state.blocks.address.copy(),
        caption=caption["en"],
        facts=facts,
        timeline_marks=marks,
        bracket=bracket,
        captions=dict(caption),
    )


def first_oom(data: DemoData, demo: str) -> tuple[int, int, int]:
    """(event, requested bytes, device free bytes) of the trace's first OOM."""
    if not data.timeline.ooms:
        raise DemoError(f"{demo}: {data.snapshot.source} has no OOM in the trace of GPU {data.device}")
    oom = data.timeline.ooms[0]
    return oom.index, oom.requested_bytes, oom.device_free_bytes
