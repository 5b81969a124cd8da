"""SpanDrag: a timeline's span, drawn as a shaded region: a shift-drag selects one, the document's span is shown."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pyqtgraph as pg

from gpumem_gui.views.common import palette

SPAN_BRUSH = (31, 119, 180, 45)  # RGBA: a span the user picked, lighter than a demo's focus and the curves


class SpanDrag:
    """The span region of one plot. `event_at(x)` and `event_x(events)` convert between the plot's x and events;
    `selected(start, end)` hears a finished shift-drag (the moments right after events start and end)."""

    def __init__(
        self,
        plot: pg.PlotWidget,
        event_at: Callable[[float], int],
        event_x: Callable[[np.ndarray], np.ndarray],
        selected: Callable[[int, int], None],
    ) -> None:
        self.plot = plot
        self.event_at = event_at
        self.event_x = event_x
        self.selected = selected
        self.n_events = 0
        self.span: tuple[int, int] | None = None  # the events shown (None: no span)
        self.region = pg.LinearRegionItem(
            (0, 0), movable=False, brush=pg.mkBrush(*SPAN_BRUSH), pen=pg.mkPen(palette.CURSOR, width=1)
        )
        self.region.setZValue(-6)  # under the curves and a demo's marks
        self.region.setVisible(False)
        plot.addItem(self.region, ignoreBounds=True)

    def limit(self, n_events: int) -> None:
        """The plot shows a trace of `n_events` now (or another axis): the span is placed again."""
        self.n_events = n_events
        self.show_span(self.span)

    def moment(self, x: float) -> int:
        """The moment at plot x: right after an event of the trace (-1: before the first)."""
        return min(max(self.event_at(x), -1), self.n_events - 1)

    def dragged(self, begun: float, now: float, finished: bool) -> None:
        """A shift-drag from x `begun` to `now`: the region follows; once it ends, a span of at least one event is
        selected (a drag that covers none leaves the span as it was)."""
        start, end = sorted((self.moment(begun), self.moment(now)))
        if not finished:
            self._place(start, end)
            return
        if end > start:
            self.selected(start, end)
        else:
            self.show_span(self.span)

    def show_span(self, span: tuple[int, int] | None) -> None:
        """Shade `span` (start, end: the moments right after those events), or nothing."""
        self.span = span
        if span is None or self.n_events == 0:
            self.region.setVisible(False)
            return
        self._place(*span)

    def _place(self, start: int, end: int) -> None:
        x = self.event_x(np.array([max(start, 0), max(end, 0)]))
        self.region.setRegion((float(x[0]) if start >= 0 else float(x[0]) - 0.5, float(x[1])))
        self.region.setVisible(True)
