"""SnapshotDocument: one open snapshot (a file, a live job, a replayed run) with its cursor, filters and search.

Every view of a snapshot (the window's tab, `gpumem-gui render`, the live view, the what-if comparison, the quiz
demos) asks its document for the EventFrame of the moment it shows and draws that; nothing else computes figures,
travels through time, filters or searches. The document is plain Python: it can be driven and tested without Qt.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import numpy as np
import numpy.typing as npt

from gpumem_gui.core.analysis.block_age import AgeBin, age_codes
from gpumem_gui.core.analysis.block_annotations import block_tags, tag_search
from gpumem_gui.core.analysis.breakdown import block_categories, block_rules, nameless_reasons
from gpumem_gui.core.analysis.categories import CATEGORIES, RULE_TEXTS
from gpumem_gui.core.analysis.diagnosis import Moment
from gpumem_gui.core.analysis.first_look import Finding, first_look, oom_figures, upcoming_requests
from gpumem_gui.core.analysis.flame import FlameFrame
from gpumem_gui.core.analysis.frameless import FRAMELESS_WORDS, frameless_causes
from gpumem_gui.core.analysis.metrics import Metrics, compute_metrics, segment_free
from gpumem_gui.core.analysis.rasterize import MapLayout, Sort, layout_by_address, layout_by_segment, rasterize
from gpumem_gui.core.analysis.span import Span, SpanReport, allocated_curve, check_span
from gpumem_gui.core.analysis.timetravel import DeviceTimeline, build_timeline
from gpumem_gui.core.rules.allocator_rules import AllocatorConfig
from gpumem_gui.core.snapshot.annotations import annotation_ranges
from gpumem_gui.core.snapshot.model import AllocatorState, Snapshot, distinct_few
from gpumem_gui.core.snapshot.origin import PROFILER_SENTENCE, profiler_made
from gpumem_gui.core.snapshot.sentences import QT_TRANSLATE_NOOP, say
from gpumem_gui.core.snapshot.stacks import filter_frames
from gpumem_gui.core.snapshot.units import parse_bytes
from gpumem_gui.document.curves import Envelope, series_envelopes
from gpumem_gui.document.events import describe_event
from gpumem_gui.document.filters import Filters, Pool
from gpumem_gui.document.frame import BlockDetails, EventFrame, SegmentSummaries, Spotlight
from gpumem_gui.document.opening import opening_moment
from gpumem_gui.document.scope import Scope, flame_block_mask
from gpumem_gui.document.search import search_blocks

MAP_WIDTH = 1024  # image columns of the map: the bytes of a row are spread over this many codes
# the map's layouts, as (mode, sort) for map_layout; the last draws segments to scale, so that sizes compare
LAYOUTS: tuple[tuple[str, Sort], ...] = (
    ("address", "size"),
    ("segment", "size"),
    ("segment", "free"),
    ("proportional", "size"),
)

MaskOf = Callable[[AllocatorState], npt.NDArray[np.bool_]]
COLOURINGS = ("site", "age")  # what the map's allocated blocks are coloured by


def segment_summaries(state: AllocatorState) -> SegmentSummaries:
    """Each segment's block count, free bytes and largest hole."""
    free_bytes, largest = segment_free(state)
    return SegmentSummaries(state.segments.block_count.astype(np.int64), free_bytes, largest)


def map_layout(state: AllocatorState, mode: str, sort: Sort, width: int = MAP_WIDTH) -> MapLayout:
    """The map's layout: "address" (segments wrapped over rows of equal bytes), "segment" (a row per segment,
    stretched) or "proportional" (a row per segment, its width to scale with the largest)."""
    if mode in ("segment", "proportional"):
        return layout_by_segment(state, width, sort=sort, proportional=mode == "proportional")
    return layout_by_address(state, width)


class SnapshotDocument:
    """A snapshot, its per-device timelines, and what the user looks at: device, event, filters, search, layout."""

    def __init__(
        self,
        snapshot: Snapshot,
        timelines: dict[int, DeviceTimeline] | None = None,
        *,
        pending: bool = False,
        device: int | None = None,
        at_moment: bool = False,
    ) -> None:
        """`at_moment`: a file the user opened, each of whose devices is first shown at its first OOM, else its peak
        of allocated memory (`opened_at`), rather than at the end of its trace (after the OOM, or after an
        empty_cache() that gave back what the peak held)."""
        self.snapshot = snapshot
        self.config = AllocatorConfig.from_snapshot_settings(snapshot.allocator_settings)
        self.timelines: dict[int, DeviceTimeline] = dict(timelines or {})
        self.envelopes: dict[int, dict[str, Envelope]] = {}  # the timeline's curves, decimation made once
        self._streams: tuple[DeviceTimeline, list[int]] | None = None  # streams() of the timeline last asked
        self.pending = pending  # the trace is still being indexed: frames show the final state meanwhile
        self.device = snapshot.default_device() if device is None else device
        self.event = -1
        self.filters = Filters()
        self.search_text = ""
        self._read_size: Callable[[str], int] = parse_bytes  # how the search's size ranges are read
        self.layout: tuple[str, Sort] = LAYOUTS[0]
        self.selected = -1  # a block picked in the table: highlighted until the next move
        self._spotlight: tuple[MaskOf, str] | None = None
        self._frame: EventFrame | None = None
        self.at_moment = at_moment
        self.opened_at: Moment | None = None  # the moment the device was first shown at (None: at its end)
        self.colouring = "site"
        self.span: Span | None = None  # the span every view is scoped to (None: the whole trace)
        self._scope = Scope()
        self._spans_coming: DeviceTimeline | None = None  # the loader is finding this timeline's named spans
        self._move_to_start()

    # -- what there is ------------------------------------------------------------------------------------

    def devices(self) -> list[int]:
        return self.snapshot.devices() or [0]

    def timeline(self, device: int | None = None) -> DeviceTimeline:
        """The device's timeline; built here when the loader did not (small snapshots: demos, replays)."""
        device = self.device if device is None else device
        if device not in self.timelines:
            self.timelines[device] = build_timeline(self.snapshot, device, self.config)
        return self.timelines[device]

    def curve_envelopes(self, device: int | None = None) -> dict[str, Envelope]:
        """The device's timeline curves ready to decimate (made once; the loader makes them off the GUI thread)."""
        device = self.device if device is None else device
        if device not in self.envelopes:
            self.envelopes[device] = series_envelopes(self.timeline(device).series)
        return self.envelopes[device]

    @property
    def n_events(self) -> int:
        return 0 if self.pending else self.timeline().n_events

    def has_trace(self) -> bool:
        return self.n_events > 0

    def streams(self) -> list[int]:
        """The streams of the device's segments, over the whole trace (the stream filter's choices)."""
        if self.pending:
            state = self.snapshot.state.for_device(self.device)
            return sorted({int(x) for x in state.segments.stream})
        tl = self.timeline()
        if self._streams is not None and self._streams[0] is tl:
            return list(self._streams[1])
        # a trace's pieces are millions: a Python set of them stalled the GUI thread, a sort too (20-30 ms at 3M)
        found = [int(x) for x in distinct_few(np.concatenate([tl.final.segments.stream, tl.pieces.stream]))]
        self._streams = (tl, found)  # a timeline never changes: asked again (the notes, the stream filter), kept
        return list(found)

    def warnings(self, limit: int = 20) -> list[str]:
        """What is odd about the file (its layout, then the device's trace), for the window to say; at most `limit`
        lines, the last one counting the rest."""
        found = list(self.snapshot.warnings)
        if not self.pending:
            found += self.timeline().warnings
        if len(found) > limit:
            found = [
                *found[: limit - 1],
                say(QT_TRANSLATE_NOOP("Warnings", "... and {n} more"), n=len(found) - limit + 1),
            ]
        return found

    def nameless_reasons(self, state: AllocatorState) -> npt.NDArray[np.int8] | None:
        """Per block of `state` (the state at the current event, filtered or not): why its site may have no name
        (breakdown.nameless_reasons); None while the trace is being indexed."""
        return None if self.pending else nameless_reasons(self.snapshot, self.timeline(), state, self.event)

    def annotation_ranges(self) -> list[tuple[int, int, str]]:
        return annotation_ranges(self.snapshot, self.device)

    # -- moving ---------------------------------------------------------------------------------------------

    def _changed(self) -> None:
        self._frame = None
        self.selected = -1
        self._spotlight = None  # a spotlight belongs to the blocks of one state

    def _move_to_end(self) -> None:
        self.span = None  # another device or trace: the span was of the one before
        self.event = self.n_events - 1
        self.opened_at = None
        self._changed()

    def _move_to_start(self) -> None:
        """Where a device is first shown: its OOM or peak in a file the user opened (at_moment), else its end."""
        found = opening_moment(self.timeline()) if self.at_moment and not self.pending else None
        self._move_to_end()
        if found is not None:
            self.opened_at, self.event = found

    def set_device(self, device: int) -> EventFrame:
        """Another device, at its first OOM or peak (at_moment) or its last event, all its streams."""
        self.device = device
        self.filters = replace(self.filters, stream=None)
        self._move_to_start()
        return self.frame()

    def travel(self, event: int) -> EventFrame:
        """The state right after `event` (clamped to the trace; -1 is before the first event)."""
        event = min(max(event, -1), self.n_events - 1)
        if event != self.event or self.selected >= 0 or self._spotlight is not None:
            self.event = event
            self._changed()
        return self.frame()

    def step(self, delta: int) -> EventFrame:
        return self.travel(self.event + delta)

    def set_pool(self, pool: Pool) -> EventFrame:
        """Show only the segments of one pool ("all", "small", "large", "private")."""
        return self._set_filters(replace(self.filters, pool=pool))

    def set_stream(self, stream: int | None) -> EventFrame:
        """Show only the segments of one stream (None: all streams)."""
        return self._set_filters(replace(self.filters, stream=stream))

    def _set_filters(self, filters: Filters) -> EventFrame:
        if filters != self.filters:
            self.filters = filters
            self._changed()
        return self.frame()

    def set_search(self, text: str, read_size: Callable[[str], int] = parse_bytes) -> EventFrame:
        """Search the blocks for `text` (search_blocks): its size ranges read by `read_size`, English by default,
        the window's language where the window typed it."""
        self.search_text = text.strip()
        self._read_size = read_size
        self._frame = None
        self.selected = -1
        return self.frame()

    def set_layout(self, mode: str, sort: Sort = "size") -> EventFrame:
        if (mode, sort) != self.layout:
            self.layout = (mode, sort)
            self._frame = None
        return self.frame()

    def select_block(self, index: int) -> EventFrame:
        """Highlight block `index` of the current frame (the table's pick); the next move ends it."""
        self.selected = index
        self._frame = None
        return self.frame()

    def set_spotlight(self, mask_of: MaskOf, caption: str) -> EventFrame:
        """A demo's focus on the current frame: `mask_of(state)` gives its blocks. Moving anywhere ends it."""
        self._spotlight = (mask_of, caption)
        self._frame = None
        return self.frame()

    def focus_at(self, event: int, mask_of: MaskOf, caption: str) -> EventFrame:
        """A demo's focus: the state right after `event` with every pool and stream (the focus's mask is over all of
        them), its blocks in the spotlight; one frame computed, whatever was shown before."""
        self.filters = Filters()
        self.event = min(max(event, -1), self.n_events - 1)
        self._changed()
        return self.set_spotlight(mask_of, caption)

    def recaption_spotlight(self, caption: str) -> EventFrame:
        """The spotlight's caption worded again (another language): its blocks stay lit, nothing is computed."""
        if self._spotlight is not None:
            self._spotlight = (self._spotlight[0], caption)
            frame = self._frame
            if frame is not None and frame.spotlight is not None:
                self._frame = replace(frame, spotlight=Spotlight(frame.spotlight.mask, caption))
        return self.frame()

    def clear_spotlight(self) -> EventFrame:
        if self._spotlight is not None:
            self._spotlight = None
            self._frame = None
        return self.frame()

    def set_timelines(
        self,
        timelines: dict[int, DeviceTimeline],
        envelopes: dict[int, dict[str, Envelope]] | None = None,
        *,
        snapshot: Snapshot | None = None,
        device: int | None = None,
    ) -> EventFrame:
        """The loader's timelines (and their curves' envelopes) have arrived: the trace can be travelled now, from
        its end, or its first OOM or peak (at_moment), where the final state was shown while it was read (a trace
        shown already keeps its cursor). `snapshot`: the whole snapshot, with its trace, replacing the state-only one
        shown meanwhile; `device`: the device to show now (None: the one shown stays)."""
        was_pending = self.pending
        if snapshot is not None:
            self.snapshot = snapshot
            self.config = AllocatorConfig.from_snapshot_settings(snapshot.allocator_settings)
        if device is not None:
            self.device = device
        self.timelines.update(timelines)
        self.envelopes.update(envelopes or {})
        self.pending = False
        self.filters = replace(self.filters, stream=None)
        if was_pending:
            self._move_to_start()
        else:
            self.event = min(self.event, self.n_events - 1)
            self._changed()
        return self.frame()

    def replace_snapshot(self, snapshot: Snapshot, timelines: dict[int, DeviceTimeline]) -> EventFrame:
        """A newer snapshot of the same job (live mode): device, filters and layout stay where they still apply;
        the newest state shows."""
        self.snapshot = snapshot
        self.config = AllocatorConfig.from_snapshot_settings(snapshot.allocator_settings)
        self.timelines = dict(timelines)
        self.envelopes = {}
        self.pending = False
        if self.device not in self.devices():
            self.device = snapshot.default_device()
        if self.filters.stream is not None and self.filters.stream not in self.streams():
            self.filters = replace(self.filters, stream=None)
        self._move_to_end()
        return self.frame()

    # -- the frame ------------------------------------------------------------------------------------------

    def raw_state(self) -> AllocatorState:
        """The unfiltered state at the cursor."""
        if self.pending:
            return self.snapshot.state.for_device(self.device)
        return self.timeline().state_at(self.event)

    def frame(self) -> EventFrame:
        """The EventFrame at the cursor (computed once per change)."""
        if self._frame is None:
            self._frame = self._compute()
        return self._frame

    def _compute(self) -> EventFrame:
        state = self.filters.apply(self.raw_state())
        layout = map_layout(state, *self.layout)
        search = (
            search_blocks(state, self.snapshot.stacks, self.search_text, self._read_size) if self.search_text else None
        )
        if search is not None and not self.pending:  # the text of an allocation's metadata and annotations too
            search = search | tag_search(self.snapshot, self.timeline(), state, self.event, self.search_text)
        spotlight = None
        if self._spotlight is not None:
            mask_of, caption = self._spotlight
            spotlight = Spotlight(np.asarray(mask_of(state), bool), caption)
        selection = None
        if 0 <= self.selected < len(state.blocks):
            selection = np.zeros(len(state.blocks), bool)
            selection[self.selected] = True
        metrics = compute_metrics(state, self.config)
        block_codes, legend = self._age_codes(state)
        return EventFrame(
            device=self.device,
            event=self.event,
            n_events=self.n_events,
            pending=self.pending,
            state=state,
            stacks=self.snapshot.stacks,
            metrics=metrics,
            findings=self._findings(state, metrics),
            segments=segment_summaries(state),
            layout=layout,
            codes=rasterize(state, layout, stacks=self.snapshot.stacks, block_codes=block_codes),
            search_mask=search,
            highlight=selection if selection is not None else search,
            table_rows=np.flatnonzero(search) if search is not None else np.arange(len(state.blocks)),
            spotlight=spotlight,
            event_info=None
            if self.pending
            else describe_event(self.snapshot, self.device, self.event, timeline=self.timeline()),
            colouring=self.colouring if block_codes is not None else "site",
            age_legend=legend,
            span=self.span,
        )

    def _age_codes(self, state: AllocatorState) -> tuple[npt.NDArray[np.uint8] | None, tuple[AgeBin, ...]]:
        """The age colouring's block codes and legend; none for the site colouring or while the trace is indexed."""
        if self.colouring != "age" or self.pending:
            return None, ()
        return age_codes(self.timeline(), state, self.event, self.snapshot.trace(self.device))

    # -- colouring, span and flame graphs ------------------------------------------------------------------

    def set_colouring(self, colouring: str) -> EventFrame:
        """Colour the map's allocated blocks by allocation site or by age (how long before the cursor)."""
        if colouring not in COLOURINGS:
            raise ValueError(f"unknown colouring {colouring!r} (one of {', '.join(COLOURINGS)})")
        if colouring != self.colouring:
            self.colouring = colouring
            self._frame = None
        return self.frame()

    def expect_spans(self, timeline: DeviceTimeline) -> None:
        """The loading worker is finding `timeline`'s named spans (spans_arrived hands them over)."""
        self._spans_coming = timeline

    def spans_arrived(self, spans: list[Span] | None) -> None:
        """The worker's named spans of the timeline expected (None: none came; they are found here when asked)."""
        timeline, self._spans_coming = self._spans_coming, None
        if timeline is not None and spans is not None:
            self._scope.seed_spans(timeline, spans)

    @property
    def spans_coming(self) -> bool:
        """Whether the loading worker is finding the named spans of the timeline shown."""
        return self._spans_coming is not None and self._spans_coming is self.timelines.get(self.device)

    def named_spans(self) -> list[Span]:
        """The spans to pick from: the steps found ("step 7"), then the record_function ranges (none while pending)."""
        if self.pending or not self.has_trace():
            return []
        return self._scope.named_spans(self.snapshot, self.timeline())

    def set_span(self, span: Span | None) -> EventFrame:
        """Scope every view to `span` (None: the whole trace again); ValueError for one outside the trace."""
        if span is not None:
            check_span(self.timeline(), span.start, span.end)
        if span != self.span:
            self.span = span
            self._frame = None
        return self.frame()

    def span_report(self) -> SpanReport | None:
        """The span's report (None without a span, or while the trace is being indexed)."""
        if self.span is None or self.pending:
            return None
        return self._scope.span_report(self.snapshot, self.timeline(), self.span)

    def span_events(self) -> tuple[int, int] | None:
        """The first and last event of the span (the event list's EventFilter.span), None without one."""
        return None if self.span is None else (self.span.start + 1, self.span.end)

    def flame_frame(
        self, cost: str = "live", *, inverted: bool = False, search: str = "", min_share: float = 0.0
    ) -> FlameFrame | None:
        """The flame graph of `cost` (flame.COSTS) over the span (the whole trace without one), at the cursor for
        "live"; None while the trace is being indexed. Pure numpy: call it off the GUI thread on large traces."""
        if self.pending:
            return None
        source = self._scope.flame_source(self.snapshot, self.timeline())
        return source.frame(
            cost, span=self.span, cursor=self.event, inverted=inverted, search=search, min_share=min_share
        )

    def light_flame_frame(self, frame: FlameFrame, row: int, caption: str | None = None) -> EventFrame:
        """Light on the map the blocks whose stacks pass through the flame frame's rectangle `row`; `caption`: the
        map's line over them (None: `NAME: its blocks`, in English)."""
        source = self._scope.flame_source(self.snapshot, self.timeline())
        caption = f"{frame.label(row)}: its blocks" if caption is None else caption
        return self.set_spotlight(flame_block_mask(source, frame, row, self.event), caption)

    def flame_lifetimes(self, frame: FlameFrame, row: int) -> npt.NDArray[np.bool_]:
        """Per lifetime of the timeline: whether its stack passes through rectangle `row`."""
        source = self._scope.flame_source(self.snapshot, self.timeline())
        return source.lifetimes_through(frame.inverted, int(frame.node[row]))

    def flame_band(self, frame: FlameFrame, row: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """Rectangle `row`'s band on the site timeline: the allocated bytes of its blocks over the trace, as the
        events where they change and the bytes right after each (span.allocated_curve)."""
        return allocated_curve(self.timeline(), self.flame_lifetimes(frame, row))

    def _findings(self, state: AllocatorState, metrics: Metrics) -> tuple[Finding, ...]:
        """The first look at the frame's state: with the device's OOMs and the next allocations once indexed."""
        if profiler_made(self.snapshot):  # its gaps are no cache: no figure of free memory or fragmentation holds
            return (Finding("info", PROFILER_SENTENCE, {}),)
        if self.pending:
            return tuple(first_look(metrics))
        small = {"small": True, "large": False}.get(self.filters.pool)
        upcoming = upcoming_requests(
            self.snapshot.trace(self.device), self.event, stream=self.filters.stream, small=small
        )
        oom = oom_figures(self.timeline(), self.event)
        return tuple(first_look(metrics, oom=oom, upcoming=upcoming, state=state))

    def block_details(self, index: int) -> BlockDetails:
        """Block `index` of the current frame: its stack and its segment's figures."""
        frame = self.frame()
        b, s = frame.state.blocks, frame.state.segments
        seg = int(b.segment[index])
        return BlockDetails(
            index=index,
            frames=tuple(filter_frames(self.snapshot.stacks.stack(int(b.stack[index])))),
            recorded_frames=tuple(self.snapshot.stacks.stack(int(b.stack[index]))),
            segment_address=int(s.address[seg]),
            segment_size=int(s.total_size[seg]),
            segment_blocks=int(frame.segments.block_count[seg]),
            segment_free=int(frame.segments.free_bytes[seg]),
            segment_largest_free=int(frame.segments.largest_free[seg]),
            **self._category_of(frame.state, index),
        )

    def _category_of(self, state: AllocatorState, index: int) -> dict[str, Any]:
        """Block `index` of the frame's state: its category and the rule that chose it (none while pending)."""
        if self.pending:
            return {}
        timeline = self.timeline()
        code = int(block_categories(self.snapshot, timeline, state, self.event)[index])
        rule = int(block_rules(self.snapshot, timeline, state, self.event)[index])
        cause = FRAMELESS_WORDS[int(frameless_causes(self.snapshot, timeline, state, self.event)[index])]
        metadata, annotations = block_tags(self.snapshot, timeline, state, self.event, index)
        return {
            "category": CATEGORIES[code],
            "category_rule": RULE_TEXTS[rule],
            "no_frames_cause": cause,
            "user_metadata": metadata,
            "annotations": annotations,
        }
