"""The lab's main plot: the peak over forward + backward against N, one curve per policy (dashed: the bytes kept at
the end of the forward), and c·√N fitted to the sqrt peaks."""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui

from gpumem_gui.teach import lab
from gpumem_gui.views.common import palette
from gpumem_gui.views.common.language import size
from gpumem_gui.views.teach.lab.common import POLICY_COLOURS, byte_unit, focus_rings, relabel_legend


def _tr(text: str) -> str:
    return QtCore.QCoreApplication.translate("lab", text)


class SavedBytesPlot:
    """Peak bytes against N per policy, kept bytes dashed beside them; the focus thickens a curve, rings its points
    at N and zooms to it. The peak is what decides an OOM; the kept bytes are what the forward leaves for backward.

    Holds its PlotWidget (`plot`) rather than being one: pyqtgraph is untyped, and a typed class cannot extend it.
    """

    def __init__(self) -> None:
        self.plot = pg.PlotWidget(background=palette.PLOT_BACKGROUND)
        self.sweep: lab.LabSweep | None = None
        self.divisor = 1.0  # bytes per unit of the y axis
        self.log = False
        self.plot.showGrid(x=True, y=True, alpha=0.2)
        self.plot.getAxis("left").enableAutoSIPrefix(False)  # the unit is in the label already: no "(x0.001)"
        self.plot.addLegend(offset=(10, 10), brush=palette.LEGEND_FILL)
        self.curves: dict[str, pg.PlotDataItem] = {}
        self.kept_curves: dict[str, pg.PlotDataItem] = {}
        for policy in lab.POLICIES:
            colour = POLICY_COLOURS[policy]
            self.kept_curves[policy] = self.plot.plot(
                [], [], pen=pg.mkPen(colour, width=1, style=QtCore.Qt.PenStyle.DashLine), symbol="x", symbolSize=5,
                symbolBrush=colour, symbolPen=colour,
            )  # fmt: skip
            self.curves[policy] = self.plot.plot(
                [], [], pen=pg.mkPen(colour, width=2), symbol="o", symbolSize=6, symbolBrush=colour,
                symbolPen=colour, name=policy,
            )  # fmt: skip
        self.sqrt_reference = self.plot.plot(
            [], [], pen=self._reference_pen(1), name="c·√N",
        )  # fmt: skip
        self.n_line = pg.InfiniteLine(angle=90, pen=pg.mkPen(palette.REFERENCE_LINE, style=QtCore.Qt.PenStyle.DotLine))
        self.plot.addItem(self.n_line)
        self.marks = focus_rings(self.plot, 16)
        self.label = pg.TextItem(color=palette.FOCUS, anchor=(0, 1))
        self.plot.addItem(self.label)
        # an empty plot says what is being measured (a cold start waits on torch's import for seconds): in the middle
        # of the view box whatever its range, not at a data point
        self.waiting = pg.LabelItem("", color=palette.TEXT_MUTED)
        self.waiting.setParentItem(self.plot.getPlotItem().vb)
        self.waiting.anchor(itemPos=(0.5, 0.5), parentPos=(0.5, 0.5))
        self.unit = "B"
        self.marked: list[str] = []
        self.retranslate()

    def retranslate(self) -> None:
        self.plot.setTitle(
            QtCore.QCoreApplication.translate(
                "lab", "peak over forward + backward (solid) and kept at the end of forward (dashed) against N"
            )
        )
        self.plot.setLabel("bottom", QtCore.QCoreApplication.translate("lab", "layers N"))
        self.plot.setLabel(
            "left", QtCore.QCoreApplication.translate("lab", "activation bytes ({unit})").format(unit=self.unit)
        )
        named = [(self.curves[p], _tr(lab.POLICY_LABELS[p])) for p in lab.POLICIES]
        relabel_legend(
            self.plot,
            [*named, (self.sqrt_reference, QtCore.QCoreApplication.translate("lab", "c·√N fitted to the sqrt peaks"))],
        )
        if self.marked:
            self.mark(self.marked)

    def set_waiting(self, text: str) -> None:
        """The line an empty plot shows ("" once the first figures are drawn)."""
        self.waiting.setText(text if self.sweep is None else "")

    @staticmethod
    def _reference_pen(width: int) -> QtGui.QPen:
        pen: QtGui.QPen = pg.mkPen(POLICY_COLOURS["sqrt"], width=width, style=QtCore.Qt.PenStyle.DashLine)
        return pen

    def show_sweep(self, sweep: lab.LabSweep) -> None:
        self.sweep = sweep
        top = max(m.peak for m in sweep.points)
        divisor, self.unit = byte_unit(top)
        self.waiting.setText("")
        self.plot.setLabel(
            "left", QtCore.QCoreApplication.translate("lab", "activation bytes ({unit})").format(unit=self.unit)
        )
        for policy, curve in self.curves.items():
            ns, peak = sweep.curve(policy, "peak")
            curve.setData(ns, peak / divisor)
            ns, kept = sweep.curve(policy, "kept")
            self.kept_curves[policy].setData(ns, kept / divisor)
        dense = np.linspace(min(sweep.n_values), max(sweep.n_values), 200)
        self.sqrt_reference.setData(dense, sweep.sqrt_reference(dense) / divisor)
        self.divisor = divisor
        self.n_line.setValue(self._pos(sweep.n_layers, 1)[0])

    def set_log(self, on: bool) -> None:
        self.log = on
        self.plot.setLogMode(x=on, y=on)
        if self.sweep is not None:
            self.n_line.setValue(self._pos(self.sweep.n_layers, 1)[0])

    def _pos(self, x: float, y: float) -> tuple[float, float]:
        """Where a point goes for items that do not follow the plot's log mode (lines, text)."""
        if self.log:
            return math.log10(max(x, 1e-12)), math.log10(max(y, 1e-12))
        return float(x), float(y)

    def clear_highlights(self) -> None:
        self.zoom(None)
        for policy, curve in self.curves.items():
            curve.setPen(pg.mkPen(POLICY_COLOURS[policy], width=2))
        self.sqrt_reference.setPen(self._reference_pen(1))
        self.marks.setData([], [])
        self.label.setText("")
        self.marked = []

    def zoom(self, policy: str | None) -> None:
        """Fit the y axis to one policy's curve (the others run off the top), or to all of them."""
        plot = self.plot.getPlotItem()
        if policy is None or self.sweep is None or self.log:
            plot.enableAutoRange()
            return
        _, peak = self.sweep.curve(policy, "peak")
        plot.setYRange(0, 2.5 * float(peak.max()) / self.divisor, padding=0)

    def thicken(self, policy: str) -> None:
        self.curves[policy].setPen(pg.mkPen(POLICY_COLOURS[policy], width=5))

    def thicken_reference(self) -> None:
        self.sqrt_reference.setPen(self._reference_pen(3))

    def mark(self, policies: list[str]) -> np.ndarray:
        """Ring the measured peaks at the chosen N and write the highest beside it; (N, peak bytes) of each."""
        sweep = self.sweep
        assert sweep is not None
        points = np.array([(sweep.n_layers, sweep.at(p).peak) for p in policies], float)
        self.marks.setData(points[:, 0], points[:, 1] / self.divisor)
        top = int(points[:, 1].argmax())
        self.label.setText(
            "  " + QtCore.QCoreApplication.translate("lab", "peak {size}").format(size=size(points[top, 1]))
        )
        self.marked = policies
        self.label.setPos(*self._pos(points[top, 0], points[top, 1] / self.divisor))
        return points
