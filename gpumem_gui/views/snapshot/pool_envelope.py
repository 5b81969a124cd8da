"""PoolEnvelopeView: memory by pool over the trace, each pool a grey envelope at its reserved size with its allocated
memory filled inside, stacked default pool first, as PyTorch's "Allocated Memory (incl. Private Pools)" draws them."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtWidgets

from gpumem_gui.core.analysis.pool_envelope import PoolEnvelope, pool_envelope
from gpumem_gui.core.analysis.site_series import TotalIndex, sample_events, total_index
from gpumem_gui.core.analysis.timetravel import DeviceTimeline
from gpumem_gui.core.snapshot.units import format_bytes
from gpumem_gui.document.curves import memory_unit
from gpumem_gui.views.common import palette
from gpumem_gui.views.common.language import Retranslated, filled, localized, translate, unit_word
from gpumem_gui.views.snapshot.light_plot import light_plot
from gpumem_gui.views.snapshot.step_bands import StepBand
from gpumem_gui.views.snapshot.timeline import MIN_PLOT_HEIGHT

_REDRAW_MS = 30
ENVELOPE = palette.SEGMENT_BAND_OTHER  # a pool's reserved memory, around its allocated fill


def pool_colour(row: int) -> str:
    """The fill of a pool's allocated memory: the default pool in the first hue, each private pool in the next."""
    return palette.SITE_HUES[row % len(palette.SITE_HUES)][0]


def _pool_name(name: str) -> str:
    """core.analysis.pool_envelope's name of a pool ("default pool", "private pool (1, 2)") in the window's language."""
    if name == "default pool":
        return translate("PoolEnvelope", "default pool")
    return translate("PoolEnvelope", "private pool {pool}").format(pool=name.removeprefix("private pool "))


class PoolEnvelopeView(Retranslated):
    """Stacked pool envelopes, a cursor that travels (event_selected), each pool's figures at the cursor."""

    event_selected = QtCore.Signal(int)

    def __init__(self, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        self.timeline: DeviceTimeline | None = None
        self.envelope: PoolEnvelope | None = None
        self._index: TotalIndex | None = None
        self.current_event = -1
        self.unit, self.unit_scale = memory_unit(0)
        self._drawn_events = np.zeros(0, np.float64)
        self._drawn_tops = np.zeros((0, 0))  # per curve (reserved, allocated of pool 0, then pool 1, ...)
        self.status = QtWidgets.QLabel()
        self.status.setStyleSheet(f"color: {palette.TEXT_MUTED}")
        self.status.setSizePolicy(QtWidgets.QSizePolicy.Policy.Ignored, QtWidgets.QSizePolicy.Policy.Preferred)
        self.figures = QtWidgets.QLabel()  # each pool at the cursor
        self.figures.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
        self.figures.setSizePolicy(QtWidgets.QSizePolicy.Policy.Ignored, QtWidgets.QSizePolicy.Policy.Preferred)
        self.plot = light_plot(palette.PLOT_BACKGROUND)  # neither its view box's menu nor its own made
        self.plot.setMinimumHeight(MIN_PLOT_HEIGHT)
        self.view_box = self.plot.getViewBox()
        self.view_box.setMouseEnabled(x=True, y=False)
        self.view_box.enableAutoRange(y=True)
        self.view_box.setAutoVisible(y=True)
        self.plot.getAxis("left").enableAutoSIPrefix(False)
        self._label_axes()
        self.curves: list[StepBand] = []
        self.cursor_line = pg.InfiniteLine(angle=90, movable=True, pen=pg.mkPen(palette.CURSOR, width=1))
        self.cursor_line.setZValue(10)
        self.cursor_line.sigPositionChanged.connect(self._cursor_moved)
        self.plot.addItem(self.cursor_line)
        self._emitting = True
        self._redraw = QtCore.QTimer(self, singleShot=True, interval=_REDRAW_MS)
        self._redraw.timeout.connect(self._draw)
        self.view_box.sigXRangeChanged.connect(self._redraw.start)
        self.view_box.sigResized.connect(self._redraw.start)
        # one line of text above the plot, as the segment timeline has: a taller tab would take room from the map
        top = QtWidgets.QHBoxLayout()
        self.title = QtWidgets.QLabel()
        top.addWidget(self.title)
        top.addWidget(self.figures, 3)
        top.addWidget(self.status, 2)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.plot, 1)
        self.retranslate()

    def retranslate(self) -> None:
        self.title.setText(translate("PoolEnvelope", "Memory by pool"))
        self.title.setToolTip(
            translate("PoolEnvelope", "Each pool's reserved memory is a grey envelope with its allocated memory inside")
        )
        self._label_axes()
        if self.envelope is not None:
            self._say_peaks()
            self._show_figures()

    def _label_axes(self) -> None:
        self.plot.setLabel("left", translate("PoolEnvelope", "memory ({unit})").format(unit=unit_word(self.unit)))
        self.plot.setLabel("bottom", translate("PoolEnvelope", "trace event"))

    def _say_peaks(self) -> None:
        env = self.envelope
        assert env is not None
        line = translate("PoolEnvelope", "{pool}: peak {peak} reserved")
        peaks = [
            line.format(pool=_pool_name(env.name(k)), peak=localized(format_bytes(int(env.reserved[k].max()))))
            for k in range(len(env.pools))
        ]
        none = "" if env.private else translate("PoolEnvelope", " (no private pool in this trace)")
        self.status.setText("; ".join(peaks) + none)

    def set_timeline(self, timeline: DeviceTimeline, event: int | None = None) -> None:
        """Show `timeline` by pool; the cursor at `event` (default: the end)."""
        self.timeline = timeline
        self.envelope = env = pool_envelope(timeline)
        self._index = total_index(timeline, "reserved")
        self.unit, self.unit_scale = memory_unit(timeline.series.peak("reserved"))
        self._label_axes()
        for curve in self.curves:
            curve.remove(self.plot)
        # a pool's envelope (reserved) from its floor, and its allocated fill over it from the same floor; a pool
        # over the ones above it in the stack (where a pool is empty, its edges lie under those of the pool beneath)
        count = 2 * len(env.pools)
        self.curves = [
            StepBand(self.plot, pg.mkBrush(brush), pg.mkPen(brush, width=1), -(2 * row + 1 - kind) / count)
            for row in range(len(env.pools))
            for kind, brush in ((0, ENVELOPE), (1, pool_colour(row)))
        ]
        self._say_peaks()
        self.view_box.setXRange(-1, max(timeline.n_events - 1, 0), padding=0.01)
        self.set_event(timeline.n_events - 1 if event is None else event, emit=False)
        self._draw()

    def _draw(self) -> None:
        """Re-sample the pools over the x range in view, a column every two pixels, drawn as steps."""
        env, index = self.envelope, self._index
        if env is None or index is None or not self.curves:
            return
        lo, hi = self.view_box.viewRange()[0]
        events = sample_events(index, lo, hi, max(int(self.view_box.width()) // 2, 100))
        columns = events + 1
        base = np.zeros(len(events))
        tops, floors = [], []
        for row in range(len(env.pools)):
            reserved = env.reserved[row, columns] / self.unit_scale
            tops += [base + reserved, base + env.allocated[row, columns] / self.unit_scale]
            floors += [base, base]
            base = base + reserved
        x = events.astype(np.float64)
        drawn = np.array(tops) if tops else np.zeros((0, 0))
        under = np.array(floors) if floors else np.zeros((0, 0))
        if len(x):
            x = np.append(x, max(hi, x[-1]))
            drawn = np.concatenate([drawn, drawn[:, -1:]], axis=1)
            under = np.concatenate([under, under[:, -1:]], axis=1)
        self._drawn_events, self._drawn_tops = x, drawn
        for curve, top, floor in zip(self.curves, drawn, under, strict=True):
            curve.set_steps(x, top, floor)

    def set_event(self, index: int, emit: bool = True) -> None:
        self._emitting = emit
        self.cursor_line.setValue(float(index))
        self._emitting = True
        self.current_event = index
        self._show_figures()

    def _cursor_moved(self) -> None:
        if self.timeline is None:
            return
        index = min(max(round(self.cursor_line.value()), -1), self.timeline.n_events - 1)
        self.current_event = index
        self._show_figures()
        if self._emitting:
            self.event_selected.emit(index)

    def _show_figures(self) -> None:
        env = self.envelope
        if env is None:
            return
        if self.current_event < 0:
            where = translate("PoolEnvelope", "before the first event")
        else:
            where = filled(translate("PoolEnvelope", "after event {event}"), {"event": f"{self.current_event:,}"})
        line = translate("PoolEnvelope", "{pool}: {reserved} reserved, {allocated} allocated")
        parts = [
            line.format(
                pool=_pool_name(name), reserved=localized(format_bytes(r)), allocated=localized(format_bytes(a))
            )
            for name, r, a in env.at(self.current_event)
        ]
        text = f"{where}: " + "; ".join(parts)
        self.figures.setText(text)
        self.figures.setToolTip(text)  # the line is cut where the tab is narrow
