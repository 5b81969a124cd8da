"""CompareDocument: two snapshots (or two moments of one) side by side, aligned at a chosen pair of events.

It keeps a SnapshotDocument per side (its own, sharing the snapshot and the built timelines, so that the tabs the
user opened keep their cursors), the current Diff, and the alignment: B's event j is drawn at A's event j + shift.
Its frames are those of the two documents redrawn at one byte scale (a row per segment, the row's width standing for
the larger side's largest segment), with added blocks in B's spotlight and removed ones in A's, or a site's blocks
in both. Plain Python: `diff_at` may run on a worker thread (it only reads the timelines).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import numpy.typing as npt

from gpumem_gui.core.analysis.diff import Diff, diff_states
from gpumem_gui.core.analysis.rasterize import rasterize
from gpumem_gui.core.snapshot.model import AllocatorState
from gpumem_gui.core.snapshot.stacks import short_site
from gpumem_gui.core.snapshot.units import format_bytes
from gpumem_gui.document.document import MaskOf, SnapshotDocument
from gpumem_gui.document.frame import EventFrame
from gpumem_gui.document.sites import site_block_mask

SIDES = ("a", "b")


def side_document(doc: SnapshotDocument, device: int) -> SnapshotDocument:
    """A document of its own over `doc`'s snapshot and timelines, on `device`, drawing segments to scale."""
    own = SnapshotDocument(doc.snapshot, doc.timelines, device=device)
    own.envelopes = doc.envelopes  # the curves' decimation, made once, shared
    own.set_layout("proportional", "size")
    return own


class CompareDocument:
    """Two sides, their alignment and their diff; `frames()` gives both maps at one scale."""

    def __init__(self, doc_a: SnapshotDocument, doc_b: SnapshotDocument, diff: Diff) -> None:
        self.docs = (side_document(doc_a, diff.a.device), side_document(doc_b, diff.b.device))
        self.diff = diff
        self.shift = diff.a.event - diff.b.event  # B's event j sits at A's event j + shift on the shared axis
        self.site: str | None = None  # the site whose blocks both maps show; None: the added and removed blocks

    @classmethod
    def open(
        cls, doc_a: SnapshotDocument, doc_b: SnapshotDocument, event_a: int | None = None, event_b: int | None = None
    ) -> CompareDocument:
        """The two documents' devices compared at these events (None: each side's last), with their timelines."""
        diff = diff_states(
            doc_a.snapshot,
            doc_a.device,
            event_a,
            doc_b.snapshot,
            doc_b.device,
            event_b,
            timelines=(doc_a.timeline(), doc_b.timeline()),
        )
        return cls(doc_a, doc_b, diff)

    @property
    def n_events(self) -> tuple[int, int]:
        return self.diff.a.n_events, self.diff.b.n_events

    def aligned(self, event_a: int) -> tuple[int, int]:
        """A's event (clamped to its trace) and B's event aligned with it (clamped to B's trace)."""
        n_a, n_b = self.n_events
        a = min(max(event_a, -1), n_a - 1)
        return a, min(max(a - self.shift, -1), n_b - 1)

    def diff_at(self, event_a: int, event_b: int) -> Diff:
        """The diff of the two sides at these events (reads the timelines only: may run off the GUI thread)."""
        a, b = self.docs
        return diff_states(
            a.snapshot,
            a.device,
            event_a,
            b.snapshot,
            b.device,
            event_b,
            timelines=(a.timeline(), b.timeline()),
        )

    def set_diff(self, diff: Diff, *, realign: bool = False) -> tuple[EventFrame, EventFrame]:
        """Show `diff` (computed by diff_at); `realign` makes its events the new alignment."""
        self.diff = diff
        if realign:
            self.shift = diff.a.event - diff.b.event
        return self.frames()

    def set_site(self, site: str | None) -> tuple[EventFrame, EventFrame]:
        """Both maps spotlight `site`'s allocated blocks (None: back to the added and removed blocks)."""
        self.site = site
        return self.frames()

    def frames(self) -> tuple[EventFrame, EventFrame]:
        """Both sides at the diff's events, at one byte scale, their spotlights on the changes or on the site."""
        diff = self.diff
        shown = []
        for side, doc in zip(SIDES, self.docs, strict=True):
            doc.travel(diff.a.event if side == "a" else diff.b.event)
            mask_of, caption = self._spotlight(side, doc)
            shown.append(doc.set_spotlight(mask_of, caption))
        span = max((int(f.state.segments.total_size.max()) for f in shown if len(f.state.segments)), default=1)
        return self._scaled(shown[0], span), self._scaled(shown[1], span)

    def _spotlight(self, side: str, doc: SnapshotDocument) -> tuple[MaskOf, str]:
        diff = self.diff
        if self.site is not None:
            site = self.site

            def of_site(state: AllocatorState) -> npt.NDArray[np.bool_]:
                return site_block_mask(doc.snapshot, state, site, doc.nameless_reasons(state))

            return of_site, f"the allocated blocks of {short_site(site)}"
        rows = diff.removed if side == "a" else diff.added
        verb = "removed (in A only)" if side == "a" else "added (in B only)"
        nbytes = diff.removed_bytes if side == "a" else diff.added_bytes

        def of_changes(state: AllocatorState) -> npt.NDArray[np.bool_]:
            return diff.mask(side, rows, state)

        return of_changes, f"{len(rows):,} blocks {verb}, {format_bytes(nbytes)}"

    def _scaled(self, frame: EventFrame, span: int) -> EventFrame:
        """The frame's map redrawn with every row standing for `span` bytes: both maps at one scale."""
        layout = replace(frame.layout, row_span=np.full(len(frame.layout), span, np.int64))
        return replace(frame, layout=layout, codes=rasterize(frame.state, layout, stacks=frame.stacks))
