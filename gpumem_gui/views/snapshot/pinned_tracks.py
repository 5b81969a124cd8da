"""PinnedTracks: the tracks pinned under the memory curves (a site, a category, a stream, a pool or a stack search,
each its allocated bytes over the trace on an axis of its own), their x linked to the curves' plot."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pyqtgraph as pg
import shiboken6
from PySide6 import QtCore, QtWidgets

from gpumem_gui.core.snapshot.model import I64
from gpumem_gui.core.snapshot.units import format_bytes
from gpumem_gui.document.curves import memory_unit, steps
from gpumem_gui.document.pins import Pin
from gpumem_gui.views.common import palette
from gpumem_gui.views.common.language import QT_TRANSLATE_NOOP, Retranslated, localized, translate, unit_word

TRACK_HEIGHT = 64


class Track(QtWidgets.QWidget):
    """One pinned track: its name, its peak, an unpin button, and its bytes as a filled step curve."""

    def __init__(self, pin: Pin, link: pg.PlotWidget, unpin: Callable[[Pin], None]) -> None:
        super().__init__()
        self.pin = pin
        self.title = QtWidgets.QLabel(f"{translate('PinnedTracks', pin.kind)}: {pin.label}")
        self.title.setToolTip(pin.label)
        close = QtWidgets.QToolButton(autoRaise=True)
        close.setText("✕")
        close.setToolTip(translate("PinnedTracks", "unpin this track"))
        close.clicked.connect(lambda: unpin(pin))
        self.plot = pg.PlotWidget(background=palette.PLOT_BACKGROUND, enableMenu=False)
        self.plot.setMenuEnabled(False)
        self.plot.setMouseEnabled(x=False, y=False)
        self.plot.hideButtons()
        self.plot.getAxis("bottom").setStyle(showValues=False)
        self.plot.showAxis("right")
        self.plot.getAxis("right").setStyle(showValues=False)
        # its axes as wide as the curves' own: the same event sits at the same pixel column in every track
        self._link = link
        for side in ("left", "right"):
            link.getAxis(side).geometryChanged.connect(self._match_axes)
        self._match_axes()
        self.plot.getAxis("left").enableAutoSIPrefix(False)  # the unit is in the label
        self.plot.setXLink(link.getViewBox())
        self.plot.setFixedHeight(TRACK_HEIGHT)
        colour = palette.FOCUS
        self.curve = pg.PlotCurveItem(pen=pg.mkPen(colour, width=1), fillLevel=0, brush=pg.mkBrush(colour + "80"))
        self.plot.addItem(self.curve)
        head = QtWidgets.QHBoxLayout()
        head.setContentsMargins(0, 0, 0, 0)
        head.addWidget(close)
        head.addWidget(self.title, 1)
        column = QtWidgets.QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        column.addLayout(head)
        column.addWidget(self.plot)

    def _match_axes(self) -> None:
        for side in ("left", "right"):
            self.plot.getAxis(side).setWidth(max(int(self._link.getAxis(side).width()), 1))

    def set_curve(self, x: np.ndarray, values: I64) -> None:
        """The bytes right after each change point at plot x `x` (the last held to the trace's end), on an axis in
        the unit of the track's own peak."""
        peak = int(values.max()) if len(values) else 0
        unit, scale = memory_unit(peak)
        self.curve.setData(*steps(x.astype(np.float64), values.astype(np.float64) / scale))
        line = translate("PinnedTracks", "{kind}: {label}, peak {peak}")
        kind = translate("PinnedTracks", self.pin.kind)
        self.title.setText(line.format(kind=kind, label=self.pin.label, peak=localized(format_bytes(peak))))
        self.plot.setYRange(0, max(peak / scale, 1e-9), padding=0.05)
        self.plot.setLabel("left", unit_word(unit))


# the kinds of pins (document.pins), marked for pyside6-lupdate
PIN_KINDS = (
    QT_TRANSLATE_NOOP("PinnedTracks", "site"),
    QT_TRANSLATE_NOOP("PinnedTracks", "category"),
    QT_TRANSLATE_NOOP("PinnedTracks", "stream"),
    QT_TRANSLATE_NOOP("PinnedTracks", "pool"),
    QT_TRANSLATE_NOOP("PinnedTracks", "metadata"),
    QT_TRANSLATE_NOOP("PinnedTracks", "search"),
)


class PinnedTracks(Retranslated):
    """The pinned tracks and the buttons that pin: `pin_band` (the band last picked on the site timeline) and
    `pin_search` (the search's text); `unpinned(pin)` says which track's ✕ was clicked."""

    unpinned = QtCore.Signal(object)

    def __init__(self, link: pg.PlotWidget, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        self.link = link
        self.tracks: dict[Pin, Track] = {}
        self.pin_band = QtWidgets.QPushButton()
        self.pin_band.setEnabled(False)
        self.pin_search = QtWidgets.QPushButton()
        self.search = QtWidgets.QLineEdit()
        # the buttons that pin live in `bar`, placed by the tab in the corner of the curves' tabs: no room is taken
        # from the curves (or the map over them) until a track is pinned
        self.bar = QtWidgets.QWidget()
        bar = QtWidgets.QHBoxLayout(self.bar)
        bar.setContentsMargins(0, 0, 0, 0)
        bar.addWidget(self.pin_band)
        bar.addWidget(self.search, 1)
        bar.addWidget(self.pin_search)
        self.column = QtWidgets.QVBoxLayout(self)
        self.column.setContentsMargins(0, 0, 0, 0)
        self.column.setSpacing(1)
        self.search.returnPressed.connect(self.pin_search.click)
        self.setVisible(False)
        self.retranslate()

    def retranslate(self) -> None:
        if not shiboken6.isValid(self.bar):  # the curves' tabs whose corner held it went first (a closed tab)
            return
        self.pin_band.setText(translate("PinnedTracks", "Pin band"))
        if not self.pin_band.isEnabled():
            self.pin_band.setToolTip(
                translate("PinnedTracks", "pin the site, category, stream or pool last picked on 'allocated by site'")
            )
        self.pin_search.setText(translate("PinnedTracks", "Pin search"))
        self.pin_search.setToolTip(translate("PinnedTracks", "pin the blocks whose stack holds the text typed here"))
        hint = translate("PinnedTracks", "text in a frame, e.g. x.py:160")
        self.search.setPlaceholderText(hint)
        self.search.setMinimumWidth(self.search.fontMetrics().horizontalAdvance(hint))

    def add(self, pin: Pin) -> Track:
        if pin not in self.tracks:
            track = Track(pin, self.link, self.unpinned.emit)
            self.tracks[pin] = track
            self.column.addWidget(track)
            self.setVisible(True)
        return self.tracks[pin]

    def remove(self, pin: Pin) -> None:
        track = self.tracks.pop(pin, None)
        if track is not None:
            self.column.removeWidget(track)
            track.deleteLater()
        self.setVisible(bool(self.tracks))  # hidden, no room (nor the layout's spacing) is taken from the curves

    def pins(self) -> list[Pin]:
        return list(self.tracks)
