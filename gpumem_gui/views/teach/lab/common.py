"""What the lab's plots share: policy and series colours, byte units for axes, focus rings and cell highlights."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

from gpumem_gui.teach import lab
from gpumem_gui.views.common import palette
from gpumem_gui.views.common.language import unit_word

POLICY_COLOURS = {
    "none": palette.HOLE,
    "every": palette.CURVES["reserved"],
    "sqrt": palette.LARGEST_HOLE,
    "selective": palette.CURVES["allocated"],
}


def short_label(policy: str) -> str:
    """A policy's name under its bars, translated."""
    labels = {
        "none": QtCore.QCoreApplication.translate("lab", "none"),
        "every": QtCore.QCoreApplication.translate("lab", "every layer"),
        "sqrt": QtCore.QCoreApplication.translate("lab", "every √N layers"),
        "selective": QtCore.QCoreApplication.translate("lab", "selective"),
    }
    return labels[policy]


# the bar series are not policies: neutral hues, so that no bar reads as a policy's curve
SERIES_COLOURS = (palette.SITE_HUES[3][0], palette.PENDING, palette.SITE_HUES[11][0])


def byte_unit(max_bytes: float) -> tuple[float, str]:
    """A byte unit that keeps the axis numbers readable, as the window's language writes it (fr: Mio)."""
    for divisor, name in ((1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")):
        if max_bytes >= 2 * divisor:
            return float(divisor), unit_word(name)
    return 1.0, unit_word("B")


def focus_rings(plot: pg.PlotWidget, size: int) -> pg.PlotDataItem:
    """Rings around measured points: a symbol-only item, so that it follows the plot's log mode."""
    return plot.plot([], [], pen=None, symbol="o", symbolSize=size, symbolPen=pg.mkPen(palette.FOCUS, width=3),
                     symbolBrush=palette.TRANSPARENT)  # fmt: skip


def policy_axis(plot: pg.PlotItem) -> None:
    ticks = [(i, short_label(p)) for i, p in enumerate(lab.POLICIES)]
    plot.getAxis("bottom").setTicks([ticks])
    plot.setXRange(-0.6, len(lab.POLICIES) - 0.4, padding=0)


def focus_brush() -> QtGui.QBrush:
    return QtGui.QBrush(QtGui.QColor(palette.FOCUS_BACKGROUND))


def clear_backgrounds(table: QtWidgets.QTableWidget) -> None:
    for r in range(table.rowCount()):
        for c in range(table.columnCount()):
            item = table.item(r, c)
            if item is not None:
                item.setBackground(QtGui.QBrush())


def relabel_legend(plot: pg.PlotWidget, named: list[tuple[pg.GraphicsObject, str]]) -> None:
    """Name the legend's entries again (a language switch): the items keep their curves, the legend their order."""
    legend = plot.getPlotItem().legend
    if legend is None:
        return
    legend.clear()
    for item, name in named:
        item.opts["name"] = name
        legend.addItem(item, name)
