"""light_plot: a pyqtgraph plot made without its options menu's widgets, its axes' labels laid out once per text."""

from __future__ import annotations

import weakref
from typing import Any

import pyqtgraph as pg
from pyqtgraph import functions as fn
from pyqtgraph import icons
from pyqtgraph.graphicsItems.ButtonItem import ButtonItem
from pyqtgraph.graphicsItems.LabelItem import LabelItem
from pyqtgraph.graphicsItems.PlotItem import plotConfigTemplate_generic as ui_template
from PySide6 import QtWidgets

from gpumem_gui.views.common.rich_text import rich_text

_SIDES = ("top", "bottom", "left", "right")


class CachedLabelAxis(pg.AxisItem):
    """An AxisItem that lays its label's rich text out only when the text changes: pyqtgraph sets it again on every
    range change, pen and font (some 40 layouts in the making of one plot, each a fraction of a ms)."""

    def _updateLabel(self) -> None:
        html = self.labelString()
        if html != getattr(self, "_label_html", None):
            self._label_html = html
            self.label.setHtml(rich_text(html))
        self._adjustSize()
        self.picture = None
        self.update()


class _Fixed:
    """One of the options menu's widgets as a value frozen at the menu's default: what PlotItem reads when an item is
    added. Setting it raises: that option needs the menu this plot was made without."""

    def __init__(self, checked: bool | None, value: int | None, maximum: int | None) -> None:
        self._checked, self._value, self._maximum = checked, value, maximum

    def isChecked(self) -> bool:
        assert self._checked is not None
        return self._checked

    def value(self) -> int:
        assert self._value is not None
        return self._value

    def maximum(self) -> int:
        assert self._maximum is not None
        return self._maximum

    def count(self) -> int:  # the average's parameter list: always empty
        return 0

    def clear(self) -> None:
        pass

    def findItems(self, *_args: Any) -> list[Any]:
        return []

    def __getattr__(self, name: str) -> Any:
        raise RuntimeError(f"{name}: this plot was made without pyqtgraph's options menu (LightPlotItem)")


_defaults: dict[str, _Fixed] = {}


def menu_defaults() -> dict[str, _Fixed]:
    """The options menu's widgets' defaults, read once from a menu made for it (so they follow pyqtgraph's own)."""
    if not _defaults:
        form = QtWidgets.QWidget()
        ctrl = ui_template.Ui_Form()
        ctrl.setupUi(form)
        for name, widget in vars(ctrl).items():
            if isinstance(widget, QtWidgets.QWidget):
                checkable = isinstance(widget, QtWidgets.QAbstractButton) or (
                    isinstance(widget, QtWidgets.QGroupBox) and widget.isCheckable()
                )
                ranged = isinstance(widget, QtWidgets.QAbstractSlider | QtWidgets.QSpinBox)
                _defaults[name] = _Fixed(
                    widget.isChecked() if checkable else None,  # type: ignore[attr-defined]
                    widget.value() if ranged else None,  # type: ignore[attr-defined]
                    widget.maximum() if ranged else None,  # type: ignore[attr-defined]
                )
        form.deleteLater()
    return _defaults


class _FixedControls:
    """PlotItem's `ctrl` for a plot without its menu: each widget's default (see _Fixed)."""

    def __init__(self) -> None:
        self.__dict__.update(menu_defaults())


class LightPlotItem(pg.PlotItem):
    """A PlotItem without its options menu: pyqtgraph builds the menu's forty widgets for every plot, even one whose
    menu is off, a third of a plot's making. Its axes are CachedLabelAxis. Everything the app asks of a plot (items,
    ranges, axes, labels, links, mouse) works as in a PlotItem; the options that only the menu sets (log mode, grid,
    downsampling, averaging, alpha, points) raise a RuntimeError when set."""

    def __init__(self, viewBox: pg.ViewBox | None = None, axisItems: dict[str, pg.AxisItem] | None = None) -> None:
        # PlotItem.__init__ up to its menu, the same steps in the same order (tests/test_light_plot.py checks that
        # the two have the same attributes, so that a newer pyqtgraph's additions are seen)
        pg.GraphicsWidget.__init__(self, None)
        self.setSizePolicy(QtWidgets.QSizePolicy.Policy.Expanding, QtWidgets.QSizePolicy.Policy.Expanding)
        self.autoBtn = ButtonItem(icons.getGraphPixmap("auto"), 14, self)
        self.autoBtn.mode = "auto"
        self.autoBtn.clicked.connect(self.autoBtnClicked)
        self.buttonsHidden = False
        self.mouseHovering = False
        self.layout = QtWidgets.QGraphicsGridLayout()
        self.layout.setContentsMargins(1, 1, 1, 1)
        self.setLayout(self.layout)
        self.layout.setHorizontalSpacing(0)
        self.layout.setVerticalSpacing(0)
        if viewBox is None:
            viewBox = pg.ViewBox(parent=self, enableMenu=False)
        self.vb = viewBox
        self.vb.sigStateChanged.connect(self.viewStateChanged)
        self.setMenuEnabled(False, None)
        self.vb.setMenuEnabled(False)
        self.vb.sigRangeChanged.connect(self.sigRangeChanged)
        self.vb.sigXRangeChanged.connect(self.sigXRangeChanged)
        self.vb.sigYRangeChanged.connect(self.sigYRangeChanged)
        self.vb.sigRangeChangedManually.connect(self.sigRangeChangedManually)
        self.layout.addItem(self.vb, 2, 1)
        self.alpha = 1.0
        self.autoAlpha = True
        self.spectrumMode = False
        self.legend = None
        self.axes: dict[str, Any] = {}
        given = axisItems or {}
        self.setAxisItems({side: given.get(side) or CachedLabelAxis(side) for side in _SIDES})
        for side in ("top", "right"):  # given axes are all shown: hidden as PlotItem's own at those sides are
            self.showAxis(side, False)
        self.titleLabel = LabelItem("", size="11pt", parent=self)
        self.layout.addItem(self.titleLabel, 0, 1)
        self.setTitle(None)
        for i in range(4):
            self.layout.setRowPreferredHeight(i, 0)
            self.layout.setRowMinimumHeight(i, 0)
            self.layout.setRowSpacing(i, 0)
            self.layout.setRowStretchFactor(i, 1)
        for i in range(3):
            self.layout.setColumnPreferredWidth(i, 0)
            self.layout.setColumnMinimumWidth(i, 0)
            self.layout.setColumnSpacing(i, 0)
            self.layout.setColumnStretchFactor(i, 1)
        self.layout.setRowStretchFactor(2, 100)
        self.layout.setColumnStretchFactor(1, 100)
        self.items: list[Any] = []
        self.curves: list[Any] = []
        self.itemMeta: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()
        self.dataItems: list[Any] = []
        self.paramList: dict[str, Any] = {}
        self.avgCurves: dict[str, Any] = {}
        self.avgPen = fn.mkPen((0, 200, 0))
        self.avgShadowPen = fn.mkPen((0, 0, 0), width=4)
        # the menu's widgets frozen at their defaults; an empty menu (close() and getMenu() expect one)
        self.ctrl = _FixedControls()
        self.ctrlMenu = QtWidgets.QMenu()
        self.stateGroup = None
        self.fileDialog = None


# LightPlotItem repeats the steps of PlotItem.__init__ as pyqtgraph 0.14 takes them; another release may take others
# (pyproject allows 0.13.7 and later), so it gets pyqtgraph's own PlotItem, menus off, a few ms slower to make
LIGHT_FOR = ("0.14.",)


def light_plot(
    background: Any = "default", viewBox: pg.ViewBox | None = None, axisItems: dict[str, pg.AxisItem] | None = None
) -> pg.PlotWidget:
    """A PlotWidget on a LightPlotItem (menus off: what its plot and view box would show on a right click is none),
    with `axisItems` at their sides (the others CachedLabelAxis); on a pyqtgraph whose PlotItem it was not checked
    against, on a stock PlotItem with its menu off."""
    if not pg.__version__.startswith(LIGHT_FOR):
        return pg.PlotWidget(background=background, viewBox=viewBox, axisItems=axisItems, enableMenu=False)
    return pg.PlotWidget(background=background, plotItem=LightPlotItem(viewBox, axisItems))
