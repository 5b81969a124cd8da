"""LightPlotItem: a plot without pyqtgraph's options menu behaves as a PlotItem in all that the app asks of it."""

from __future__ import annotations

from typing import Any

import numpy as np
import pyqtgraph as pg
import pytest

from gpumem_gui.views.snapshot import light_plot as module
from gpumem_gui.views.snapshot.light_plot import CachedLabelAxis, LightPlotItem, light_plot


def test_same_attributes_as_a_plot_item(qapp: Any) -> None:
    # its __init__ is PlotItem's without the menu: a newer pyqtgraph that adds an attribute fails here, not later
    real, light = pg.PlotItem(enableMenu=False), LightPlotItem()
    assert set(vars(light)) == set(vars(real))
    assert set(light.axes) == set(real.axes) == {"top", "bottom", "left", "right"}
    assert all(isinstance(a["item"], CachedLabelAxis) for a in light.axes.values())
    assert not light.menuEnabled() and not light.vb.menuEnabled() and light.vb.menu is None


def test_items_added_as_in_a_plot_item(qapp: Any) -> None:
    real, light = pg.PlotItem(enableMenu=False), LightPlotItem()
    # what addItem reads from the menu's widgets: their defaults, the same as a real menu's
    assert light.downsampleMode() == real.downsampleMode()
    assert light.clipToViewMode() == real.clipToViewMode()
    assert light.alphaState() == real.alphaState()
    assert light.pointMode() == real.pointMode()
    for plot in (real, light):
        item = plot.plot([0, 1, 2], [3, 5, 4], pen="r")
        assert isinstance(item, pg.PlotDataItem) and item in plot.items
        _xs, ys = item.getData()
        assert list(ys) == [3, 5, 4]
        plot.removeItem(item)
        assert item not in plot.items


def test_menu_options_refuse_to_be_set(qapp: Any) -> None:
    # those options live in the menu this plot has not: a call fails loudly rather than doing nothing
    light = LightPlotItem()
    with pytest.raises(RuntimeError, match="options menu"):
        light.setLogMode(x=True)
    with pytest.raises(RuntimeError, match="options menu"):
        light.showGrid(y=True)


def test_axis_label_as_in_a_plot_item(qapp: Any) -> None:
    real, light = pg.PlotWidget(), light_plot()
    for plot in (real, light):
        plot.setLabel("left", "memory (GiB)")
        plot.getAxis("right").setLabel("fragmentation (%)", color="#d62728")
        plot.setXRange(0, 1000)
        plot.setYRange(0, 1e9)  # a range change sets the label again in pyqtgraph: the same text here
    for side in ("left", "right"):
        assert light.getAxis(side).label.toHtml() == real.getAxis(side).label.toHtml()
        assert light.getAxis(side).labelString() == real.getAxis(side).labelString()
    light.setLabel("left", "memory (MiB)")  # a new text is laid out
    assert "memory (MiB)" in light.getAxis("left").label.toPlainText()
    assert np.isclose(light.getAxis("left").width(), real.getAxis("left").width())


def test_axes_shown_as_in_a_plot_item(qapp: Any) -> None:
    real, light = pg.PlotItem(enableMenu=False), LightPlotItem()
    for side in ("top", "bottom", "left", "right"):
        assert light.getAxis(side).isVisible() == real.getAxis(side).isVisible(), side


def test_other_pyqtgraph_releases_get_the_stock_plot(qapp: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A pyqtgraph whose PlotItem.__init__ LightPlotItem was not checked against gets pyqtgraph's own plot."""
    monkeypatch.setattr(module, "LIGHT_FOR", ("0.99.",))
    box = pg.ViewBox(enableMenu=False)
    item = module.light_plot("w", box).getPlotItem()
    assert type(item) is pg.PlotItem and item.vb is box
    assert not item.menuEnabled()
    assert type(module.light_plot().getPlotItem()) is pg.PlotItem
    monkeypatch.setattr(module, "LIGHT_FOR", (pg.__version__,))
    assert type(module.light_plot().getPlotItem()) is LightPlotItem
