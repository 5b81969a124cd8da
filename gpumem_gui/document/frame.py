"""EventFrame: everything the views draw for one moment of one device, computed once and frozen."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from gpumem_gui.core.analysis.block_age import AgeBin
from gpumem_gui.core.analysis.first_look import Finding
from gpumem_gui.core.analysis.metrics import Metrics
from gpumem_gui.core.analysis.rasterize import MapLayout
from gpumem_gui.core.analysis.span import Span
from gpumem_gui.core.snapshot.fx_frames import FxNode
from gpumem_gui.core.snapshot.model import AllocatorState, Frame, StackTable

I64 = npt.NDArray[np.int64]
B8 = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class EventInfo:
    """One trace event as a person reads it: what happened, where, how big, on which stream, from which code."""

    index: int
    action: str  # "alloc", "free_requested", ..., as the trace names it
    address: int
    size: int
    stream: int
    time_us: int | None  # None where the trace has no times
    frames: tuple[Frame, ...]  # innermost first, allocator and interpreter frames hidden
    user_metadata: str = ""
    compile_context: str = ""
    device_free: int | None = None  # what the device had free, for an OOM
    label: str = ""  # the action as a person reads it: "allocation", "segment alloc (cudaMalloc)", "OOM", ...
    size_meaning: str = "size"  # what `size` is for this action: "requested", "segment", "mapped range", ...
    block_size: int | None = None  # the allocator's (rounded) block, for alloc and free events; None if unknown
    elapsed_us: int | None = None  # time since the trace's first event; None where the trace has no times
    forward_frames: tuple[str, ...] = ()  # the forward pass's traceback of an allocation made in backward
    n_events: int = 0  # the length of the device's trace
    recorded_frames: tuple[Frame, ...] = ()  # every frame as the file recorded it (a stack view's "show all")
    fx_nodes: tuple[FxNode, ...] = ()  # FX nodes of the generated frames of its stack (augment_with_fx_traces=True)


@dataclass(frozen=True)
class SegmentSummaries:
    """Per segment of the frame's state: its blocks, free bytes and largest hole (the map and details read these)."""

    block_count: I64
    free_bytes: I64
    largest_free: I64

    def __len__(self) -> int:
        return len(self.block_count)


@dataclass(frozen=True)
class BlockDetails:
    """What the details pane shows for one block: its stack and its segment's figures."""

    index: int
    frames: tuple[Frame, ...]
    segment_address: int
    segment_size: int
    segment_blocks: int
    segment_free: int
    segment_largest_free: int
    recorded_frames: tuple[Frame, ...] = ()  # every frame the file recorded, innermost first (for "show all")
    category: str = ""  # a name of categories.CATEGORIES; "" while the trace is still being indexed
    category_rule: str = ""  # the rule that chose it, in words (categories.RULE_TEXTS)
    no_frames_cause: str = ""  # why a block without a stack has none (frameless.FRAMELESS_WORDS); "" with one
    user_metadata: str = ""  # its allocation's user_metadata (a dict's key: value line)
    annotations: tuple[str, ...] = ()  # the metadata of each annotate entry naming it so far, oldest first


@dataclass(frozen=True)
class Spotlight:
    """A demo's focus on the frame's blocks: `mask` over the frame's blocks, with a one-line caption."""

    mask: B8
    caption: str


@dataclass(frozen=True)
class EventFrame:
    """The state right after `event` on `device` (filtered), its figures, the map's codes, highlights, table rows.

    `event` is -1 before the first event; `n_events` is 0 for a snapshot without a trace. While the trace is still
    being indexed (`pending`), the frame shows the snapshot's own final state and `event` is the last one."""

    device: int
    event: int
    n_events: int
    pending: bool
    state: AllocatorState
    stacks: StackTable
    metrics: Metrics
    segments: SegmentSummaries
    layout: MapLayout
    codes: npt.NDArray[np.uint8]  # one row of state codes per layout row (rasterize's output)
    search_mask: B8 | None  # blocks the search matches (None: no search)
    highlight: B8 | None  # what the map outlines: the block picked in the table, else the search matches
    table_rows: I64  # the block table's rows: every block, or the search matches
    spotlight: Spotlight | None
    event_info: EventInfo | None  # the event the frame is right after (None before the first, or without a trace)
    findings: tuple[Finding, ...] = ()  # the first look at this state, most severe first
    colouring: str = "site"  # what the map's allocated blocks are coloured by: "site" or "age" (block_age)
    age_legend: tuple[AgeBin, ...] = ()  # the age colouring's scale (empty for "site")
    span: Span | None = None  # the span every view is scoped to (None: the whole trace)

    @property
    def position(self) -> str:
        """Where in the trace the frame is, as the window's status line says it."""
        if self.pending:
            return "indexing the trace..."
        if self.event == self.n_events - 1:
            return "at the snapshot"
        if self.event == -1:
            return "before the first event"
        return f"after event {self.event:,} of {self.n_events:,}"

    @property
    def title(self) -> str:
        """The figures' heading."""
        where = "at the snapshot" if self.pending else self.position
        return f"GPU {self.device}, {where}"
