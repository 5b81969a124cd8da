"""The lab's recompute and bf16 tabs: grouped bars, one group per policy, at the chosen N."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore

from gpumem_gui.teach import lab
from gpumem_gui.teach.translatable import QT_TRANSLATE_NOOP
from gpumem_gui.views.common import palette
from gpumem_gui.views.common.language import num, pct
from gpumem_gui.views.teach.lab.common import SERIES_COLOURS, byte_unit, policy_axis


def _tr(text: str) -> str:
    return QtCore.QCoreApplication.translate("lab", text)


class PolicyBarPlot:
    """Grouped bars with their values written above; the focus outlines the bars of some policies.

    Holds its PlotWidget (`plot`) rather than being one: pyqtgraph is untyped, and a typed class cannot extend it.
    """

    def __init__(self, title: str, headroom: float = 1.25, legend_left: bool = True) -> None:
        self.plot = pg.PlotWidget(background=palette.PLOT_BACKGROUND)
        self.headroom = headroom  # the y range over the tallest bar: room for the values and the legend
        self.scale = 1.0  # the measured unit (bytes, percent) per unit of the y axis
        self.title = title  # untranslated: retranslate() words it
        self.plot.setMouseEnabled(x=False, y=False)
        self.plot.getAxis("left").enableAutoSIPrefix(False)
        # the legend sits over the group of shortest bars: "none" on the left where it recomputes nothing
        self.plot.addLegend(offset=(10 if legend_left else -10, 10), brush=palette.LEGEND_FILL)
        self.sweep: lab.LabSweep | None = None
        self.retranslate()

    def retranslate(self) -> None:
        """The title and policy names in the window's language; the bars of a sweep drawn again."""
        self.plot.setTitle(_tr(self.title))
        policy_axis(self.plot.getPlotItem())
        if self.sweep is not None:
            self.show_sweep(self.sweep)

    def show_sweep(self, sweep: lab.LabSweep) -> None:
        raise NotImplementedError

    def draw(self, series: list[tuple[str, str, list[float]]], fmt: Callable[[float], str]) -> None:
        """One bar per policy in each (name, colour, values) series, the value written above each bar; the legend says
        the name translated, the bars' object name is the name itself."""
        item = self.plot.getPlotItem()
        for old in [i for i in item.items if isinstance(i, pg.BarGraphItem | pg.TextItem)]:
            item.removeItem(old)
        if item.legend is not None:
            item.legend.clear()
        width = 0.8 / len(series)
        for j, (name, colour, values) in enumerate(series):
            x = np.arange(len(values)) + (j - (len(series) - 1) / 2) * width
            bars = pg.BarGraphItem(
                x=x, height=values, width=width * 0.9, brush=colour, pen=pg.mkPen(colour), name=_tr(name)
            )
            bars.setObjectName(name)
            self.plot.addItem(bars)
            for xi, v in zip(x, values, strict=True):
                text = pg.TextItem(fmt(v), color=palette.TEXT, anchor=(0.5, 1))
                text.setPos(float(xi), float(v))
                self.plot.addItem(text)
        top = max((v for _, _, values in series for v in values), default=1.0)
        self.plot.setYRange(0, max(top, 1e-9) * self.headroom, padding=0)

    def bar_items(self) -> list[pg.BarGraphItem]:
        return [i for i in self.plot.getPlotItem().items if isinstance(i, pg.BarGraphItem)]

    def mark(self, policies: list[str], series: str | None = None) -> np.ndarray:
        """A thick outline on the bars of these policies (in one series, or all); (x, measured value) of each."""
        indices = [lab.POLICIES.index(p) for p in policies]
        points = []
        for bars in self.bar_items():
            if series is not None and bars.objectName() != series:
                continue
            heights = bars.opts["height"]
            pens = [
                pg.mkPen(palette.FOCUS, width=3) if i in indices else pg.mkPen(bars.opts["brush"])
                for i in range(len(heights))
            ]
            bars.setOpts(pens=pens)
            points += [(float(bars.opts["x"][i]), float(heights[i]) * self.scale) for i in indices]
        return np.array(points, float).reshape(-1, 2)

    def clear_highlights(self) -> None:
        for bars in self.bar_items():
            bars.setOpts(pens=None, pen=pg.mkPen(bars.opts["brush"]))


class RecomputePlot(PolicyBarPlot):
    """The work recomputed in backward per policy, as a share of one forward (counted ops, not a clock)."""

    def __init__(self) -> None:
        super().__init__(QT_TRANSLATE_NOOP("lab", "recomputed in backward"), headroom=1.7)

    def show_sweep(self, sweep: lab.LabSweep) -> None:
        self.sweep = sweep
        rows = [sweep.at(p) for p in lab.POLICIES]
        series = [
            (QT_TRANSLATE_NOOP("lab", "matmul FLOPs"), SERIES_COLOURS[0], [100 * m.extra_flops_fraction for m in rows]),
            (
                QT_TRANSLATE_NOOP("lab", "pointwise ops"),
                SERIES_COLOURS[1],
                [100 * m.recomputed_pointwise / max(1, m.forward_pointwise) for m in rows],
            ),
        ]
        self.draw(series, lambda v: pct(v / 100))
        self.plot.setTitle(
            QtCore.QCoreApplication.translate("lab", "recomputed in backward at N={n}").format(n=num(sweep.n_layers))
        )
        self.plot.setLabel("left", QtCore.QCoreApplication.translate("lab", "% of the forward's own"))


PRECISION_COLOURS = {"fp32": SERIES_COLOURS[0], "bf16": palette.CURVES["requested"], "autocast": SERIES_COLOURS[1]}


class Bf16Plot(PolicyBarPlot):
    """The bytes each policy holds for backward in fp32, as a pure-bf16 model, and under bf16 autocast."""

    def __init__(self) -> None:
        title = QT_TRANSLATE_NOOP("lab", "held for backward: fp32, pure bf16, autocast bf16")
        super().__init__(title, headroom=1.7, legend_left=False)

    def show_sweep(self, sweep: lab.LabSweep) -> None:
        self.sweep = sweep
        measured = [d for d in lab.PRECISIONS if sweep.has(d)]
        values = {d: [sweep.at(p, d).saved_bytes for p in lab.POLICIES] for d in measured}
        divisor, unit = byte_unit(max(max(v) for v in values.values()))
        self.scale = divisor
        self.draw(
            [(lab.PRECISION_LABELS[d], PRECISION_COLOURS[d], [b / divisor for b in values[d]]) for d in measured],
            lambda v: num(v) if v >= 10 else num(v, 1),
        )
        self.plot.setLabel(
            "left", QtCore.QCoreApplication.translate("lab", "held for backward ({unit})").format(unit=unit)
        )
        self.plot.setTitle(
            QtCore.QCoreApplication.translate("lab", "held for backward at N={n}").format(n=num(sweep.n_layers))
        )
