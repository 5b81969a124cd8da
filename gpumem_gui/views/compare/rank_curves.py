"""RankCurves: every rank's reserved curve (its summary's min/max envelope) in a grid of small plots on one y scale,
with the bytes each of the folder's pins held on that rank over it (the summary's pinned series)."""

from __future__ import annotations

import html
import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtWidgets

from gpumem_gui.core.analysis.pinned_series import pin_id
from gpumem_gui.core.analysis.ranks import FileSummary
from gpumem_gui.document.pins import Pin
from gpumem_gui.views.common import palette
from gpumem_gui.views.common.language import num, unit_word
from gpumem_gui.views.compare.rank_pins import pin_colour

MAX_PLOTS = 256  # beyond that each plot is a few pixels wide: the first ones, and a line says how many are left out
PLOT_HEIGHT = 90


def rank_colour(flags: Sequence[str]) -> str:
    """The bars' colours: red for an OOM, orange for an outlier, blue otherwise."""
    if any(f.startswith("OOM") for f in flags):
        return palette.RANK_BAR_OOM
    if any(f.startswith("high") for f in flags):
        return palette.RANK_BAR_OUTLIER
    return palette.RANK_BAR


def flag_text(flag: str) -> str:
    """A flag as the table shows it, translated ("high res.", "OOM on device 1")."""
    shown = {
        "high res.": QtCore.QCoreApplication.translate("RanksView", "high res."),
        "high alloc.": QtCore.QCoreApplication.translate("RanksView", "high alloc."),
    }
    if flag.startswith("OOM on device "):
        return QtCore.QCoreApplication.translate("RanksView", "OOM on device {devices}").format(
            devices=flag.removeprefix("OOM on device ")
        )
    return shown.get(flag, flag)


class RankCurves(QtWidgets.QWidget):
    """One small plot per file, in the table's order, its title the rank (and step); the envelope of reserved between
    its minimum and maximum over each run of events, on the y range of the highest peak of all, so that the plots
    compare at a glance. An OOM rank's plot red, an outlier's orange (the bars' colours)."""

    def __init__(self, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        self.note = QtWidgets.QLabel()
        self.note.setStyleSheet(f"color:{palette.TEXT_MUTED};")
        self.grid = pg.GraphicsLayoutWidget()
        self.grid.setBackground(palette.PLOT_BACKGROUND)
        self.area = QtWidgets.QScrollArea()
        self.area.setWidgetResizable(True)
        self.area.setWidget(self.grid)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.note)
        layout.addWidget(self.area, 1)
        self.plots: list[Any] = []  # pyqtgraph's PlotItems, in the table's order
        self.colours: list[str] = []
        self.y_top = 0.0  # the shared y range's top, in the unit the plots are drawn in
        self.unit = 1  # bytes per unit of the y axis
        self.pinned_items: list[dict[Pin, Any]] = []  # per plot, each pin's drawn maximum (a PlotDataItem)

    def set_entries(
        self,
        entries: Sequence[FileSummary],
        flags: Sequence[Sequence[str]],
        curves: Mapping[str, Mapping[str, Any]],
        pinned: Mapping[str, Mapping[str, Mapping[str, list[int]]]] | None = None,
        pins: Sequence[Pin] = (),
    ) -> None:
        """`curves`: each file's summary curves (rank_summary: event, reserved_min, reserved_max), by its path; a file
        without (a summary file merged as it was) gets an empty plot. `pinned`: each file's pinned series (by
        pin_id: event, min, max), drawn for each of `pins` that the file's summary has."""
        self.grid.clear()
        self.plots, self.colours, self.pinned_items = [], [], []
        shown = list(zip(entries, flags, strict=True))[:MAX_PLOTS]
        top = max((e.peak_reserved_bytes for e in entries), default=0)
        unit, name = (2**30, "GiB") if top >= 2**30 else (2**20, "MiB")
        self.unit = unit
        self.y_top = max(top / unit, 1e-9) * 1.05
        columns = max(1, math.ceil(math.sqrt(len(shown))))
        for i, (entry, entry_flags) in enumerate(shown):
            colour = rank_colour(entry_flags)
            if entry.step is None:
                label = QtCore.QCoreApplication.translate("RanksView", "rank {rank}").format(rank=entry.rank)
            else:
                label = QtCore.QCoreApplication.translate("RanksView", "rank {rank} step {step}").format(
                    rank=entry.rank, step=entry.step
                )
            if entry_flags:
                label += f" ({', '.join(map(flag_text, entry_flags))})"
            plot = self.grid.addPlot(row=i // columns, col=i % columns, title=label)
            plot.titleLabel.setText(label, color=colour, size="8pt")
            plot.setMenuEnabled(False)
            plot.setMouseEnabled(x=False, y=False)
            plot.hideButtons()
            for side in ("left", "bottom"):
                plot.getAxis(side).setPen(palette.TEXT_MUTED)
                plot.getAxis(side).setTextPen(palette.TEXT_MUTED)
                plot.getAxis(side).setStyle(tickFont=self.font(), showValues=i % columns == 0 or side == "bottom")
            plot.getAxis("left").enableAutoSIPrefix(False)
            curve = curves.get(entry.file)
            if curve and curve.get("event"):
                x = np.asarray(curve["event"], dtype=np.float64)
                low = pg.PlotDataItem(x, np.asarray(curve["reserved_min"], dtype=np.float64) / unit, pen=colour)
                high = pg.PlotDataItem(x, np.asarray(curve["reserved_max"], dtype=np.float64) / unit, pen=colour)
                plot.addItem(low)
                plot.addItem(high)
                plot.addItem(pg.FillBetweenItem(low, high, brush=pg.mkBrush(colour)))
            self.pinned_items.append(_draw_pinned(plot, (pinned or {}).get(entry.file, {}), pins, unit))
            plot.setYRange(0, self.y_top, padding=0)
            self.plots.append(plot)
            self.colours.append(colour)
        self.grid.setMinimumHeight(PLOT_HEIGHT * math.ceil(len(shown) / columns))
        left_out = len(entries) - len(shown)
        text = QtCore.QCoreApplication.translate(
            "RanksView", "reserved ({unit}) over each rank's events, on one scale"
        ).format(unit=unit_word(name))
        if left_out:
            text += QtCore.QCoreApplication.translate(
                "RanksView", "; the first {shown} of {files} files (the table lists them all)"
            ).format(shown=num(len(shown)), files=num(len(entries)))
        text += "".join(
            f"; <span style='color:{pin_colour(i)}'>{pin.kind} {html.escape(pin.label)}</span>"
            + self._unpinned_ranks(sum(pin not in drawn for drawn in self.pinned_items))
            for i, pin in enumerate(pins)
        )
        self.note.setText(text)

    def _unpinned_ranks(self, missing: int) -> str:
        """What a pin's name adds when some ranks' summaries have no series of it (summary files written without
        it, or of version 2)."""
        if not missing:
            return ""
        return " " + self.tr("(none in {0} rank summaries: summarize them with --pin)").format(missing)


def _draw_pinned(
    plot: Any, series: Mapping[str, Mapping[str, list[int]]], pins: Sequence[Pin], unit: int
) -> dict[Pin, Any]:
    """Each pin's envelope on one rank's plot, a line at its maximum over a lighter band down to its minimum."""
    drawn: dict[Pin, Any] = {}
    for i, pin in enumerate(pins):
        found = series.get(pin_id(pin.kind, pin.key))
        if not found or not found.get("event"):
            continue
        colour = pin_colour(i)
        x = np.asarray(found["event"], dtype=np.float64)
        low = pg.PlotDataItem(x, np.asarray(found["min"], dtype=np.float64) / unit, pen=pg.mkPen(colour, width=1))
        high = pg.PlotDataItem(x, np.asarray(found["max"], dtype=np.float64) / unit, pen=pg.mkPen(colour, width=2))
        plot.addItem(low)
        plot.addItem(high)
        plot.addItem(pg.FillBetweenItem(low, high, brush=pg.mkBrush(colour + "60")))
        drawn[pin] = high
    return drawn
