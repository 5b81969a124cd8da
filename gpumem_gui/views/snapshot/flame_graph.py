"""The flame graph: a FlameFrame (core/analysis/flame.py, handed over by the document) drawn as it is.

Nothing is computed here but pixels: the rectangles in view are placed with numpy once per frame, size or zoom, kept
as one QRectF list per colour, and every repaint is a handful of batched drawRects calls and the labels of the
rectangles wide enough to hold one. An icicle (root at the top) or a flame (root at the bottom); a click picks a
rectangle (`picked`: its row of the frame, for the document to light its blocks), a double click zooms to it.
"""

from __future__ import annotations

import zlib

import numpy as np
import numpy.typing as npt
from PySide6 import QtCore, QtGui, QtWidgets

from gpumem_gui.core.analysis.flame import COST_LABELS, ROOT, FlameFrame
from gpumem_gui.core.snapshot.units import format_bytes, format_percent
from gpumem_gui.views.common import palette
from gpumem_gui.views.common.language import QT_TRANSLATE_NOOP, filled, localized, site_words, translate

ROW_HEIGHT = 18
MIN_LABEL_PX = 36  # narrower rectangles carry no text
F64 = npt.NDArray[np.float64]
SUMMARY = QT_TRANSLATE_NOOP("Flame", "{cost}: {total}")  # the line over the graph: what it weighs, and the whole
ALLOCATIONS = QT_TRANSLATE_NOOP("Flame", "{n} {n:allocation|allocations}")  # the "allocations in the span" cost
MIN_PX = 0.5  # narrower rectangles are not drawn (their parent's width already shows their cost)


class FlameGraph(QtWidgets.QWidget):
    """One flame frame as rectangles; `picked` gives the row clicked (-1: none)."""

    picked = QtCore.Signal(int)

    def __init__(self, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        self.frame: FlameFrame | None = None
        self.icicle = True  # root at the top
        self.zoom: tuple[float, float] = (0.0, 1.0)  # the part of the root's width in view, as fractions
        self.selected = -1
        self._batches: list[tuple[QtGui.QColor, list[QtCore.QRectF]]] = []
        self._labels: list[tuple[QtCore.QRectF, str]] = []
        self._placed: tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64]] | None = None
        self._hues = [QtGui.QColor(c) for c in palette.FLAME_HUES]
        self._hue_of: npt.NDArray[np.int64] = np.zeros(0, np.int64)  # per rectangle of the frame
        self.setMouseTracking(True)
        self.setMinimumHeight(4 * ROW_HEIGHT)

    # -- what is shown ------------------------------------------------------------------------------------

    def set_frame(self, frame: FlameFrame | None) -> None:
        """Show `frame` (None: nothing); the zoom and the pick are kept only for the same layout of stacks."""
        if frame is None or self.frame is None or frame.inverted != self.frame.inverted:
            self.zoom = (0.0, 1.0)
        self.frame = frame
        self.selected = -1
        self._hue_of = _hues(frame) if frame is not None else np.zeros(0, np.int64)
        self._invalidate()

    def changeEvent(self, event: QtCore.QEvent) -> None:
        if event.type() == QtCore.QEvent.Type.LanguageChange:  # the root's and the sites' words drawn again
            self._invalidate()
        super().changeEvent(event)

    def set_icicle(self, icicle: bool) -> None:
        if icicle != self.icicle:
            self.icicle = icicle
            self._invalidate()

    def zoom_to(self, row: int) -> None:
        """Widen rectangle `row` to the whole width (the root's row: everything again)."""
        frame = self.frame
        if frame is None or not frame.total or not 0 <= row < len(frame):
            return
        self.zoom = (float(frame.x[row]) / frame.total, float(frame.x[row] + frame.width[row]) / frame.total)
        self._invalidate()

    def summary(self) -> str:
        """The line above the graph: the cost and its total, and the search's share of it."""
        frame = self.frame
        if frame is None:
            return ""
        total = self.cost_text(frame.total)
        text = translate(
            "Flame", SUMMARY, {"cost": translate("Flame", COST_LABELS.get(frame.cost, frame.cost)), "total": total}
        )
        if frame.search:
            matches = translate("Flame", "; '{search}' matches {share} of the cost")
            text += matches.format(search=frame.search, share=localized(format_percent(frame.matched_share)))
        return text

    def tooltip_of(self, row: int) -> str:
        frame = self.frame
        if frame is None or not 0 <= row < len(frame):
            return ""
        cost = int(frame.width[row])
        share = localized(format_percent(cost / frame.total) if frame.total else "0%")
        return f"{self.label_of(frame, row)}\n{self.cost_text(cost)} ({share})"

    def cost_text(self, cost: float) -> str:
        """A cost in the frame's unit as the window's language writes it: bytes, or a count of allocations."""
        if self.frame is None or self.frame.unit == "bytes":
            return localized(format_bytes(cost))
        return filled(translate("Flame", ALLOCATIONS), {"n": f"{int(cost):,}"})

    @staticmethod
    def label_of(frame: FlameFrame, row: int) -> str:
        """Rectangle `row`'s name in the window's language: the root's word, a site's words (a frame's code as the
        file has it)."""
        return translate("Flame", ROOT) if frame.name[row] < 0 else site_words(frame.label(row))

    def painted_texts(self) -> list[str]:
        """The names drawn in the rectangles (for tests that read the window)."""
        if self.frame is not None and self.frame.total and not self._batches:
            self._batch()
        return [text for _rect, text in self._labels]

    # -- geometry -----------------------------------------------------------------------------------------

    def sizeHint(self) -> QtCore.QSize:
        rows = int(self.frame.depth.max()) + 1 if self.frame is not None and len(self.frame) else 4
        return QtCore.QSize(600, rows * ROW_HEIGHT)

    def _invalidate(self) -> None:
        self._placed = None
        self._batches, self._labels = [], []
        self.updateGeometry()
        self.update()

    def _place(self) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """Each rectangle's left and right pixel and top, for the widget's size and the zoom (numpy)."""
        if self._placed is None:
            frame = self.frame
            if frame is None or not frame.total:
                empty = np.zeros(0)
                self._placed = (empty, empty, empty)
                return self._placed
            lo, hi = self.zoom
            scale = self.width() / max((hi - lo) * frame.total, 1e-12)
            left: F64 = (frame.x - lo * frame.total).astype(np.float64) * scale
            right: F64 = left + frame.width.astype(np.float64) * scale
            rows = max(self.height() // ROW_HEIGHT, 1)
            depth = frame.depth.astype(np.float64)
            top: F64 = depth * ROW_HEIGHT if self.icicle else (rows - 1 - depth) * ROW_HEIGHT
            self._placed = (left, right, top)
        return self._placed

    def resizeEvent(self, event: QtGui.QResizeEvent) -> None:
        self._placed = None
        self._batches, self._labels = [], []
        super().resizeEvent(event)

    def row_at(self, x: float, y: float) -> int:
        """The rectangle under pixel (x, y), or -1."""
        left, right, top = self._place()
        hit = np.flatnonzero((left <= x) & (x < right) & (top <= y) & (y < top + ROW_HEIGHT) & (right - left >= MIN_PX))
        return int(hit[-1]) if len(hit) else -1

    # -- drawing ------------------------------------------------------------------------------------------

    def _batch(self) -> None:
        """The rectangles in view, one QRectF list per colour, and the labels that fit (made once per layout)."""
        frame = self.frame
        left, right, top = self._place()
        width = self.width()
        seen = np.flatnonzero((right - left >= MIN_PX) & (right > 0) & (left < width) & (top < self.height()))
        assert frame is not None
        hue = self._hue_of[seen]
        lit = frame.matched[seen] if frame.matched is not None else np.zeros(len(seen), bool)
        groups = np.where(lit, len(self._hues), hue)
        colours = [*self._hues, QtGui.QColor(palette.FLAME_MATCH)]
        x0 = np.maximum(left[seen], -1.0)
        x1 = np.minimum(right[seen], width + 1.0)
        self._batches = []
        for g in np.unique(groups).tolist():
            pick = np.flatnonzero(groups == g)
            rects = [
                QtCore.QRectF(a, t, max(b - a - 1, 0.5), ROW_HEIGHT - 1)
                for a, b, t in zip(x0[pick].tolist(), x1[pick].tolist(), top[seen][pick].tolist(), strict=True)
            ]
            self._batches.append((colours[g], rects))
        wide = seen[(x1 - x0) >= MIN_LABEL_PX]
        self._labels = [
            (QtCore.QRectF(max(left[i], 0.0) + 3, top[i], min(right[i], width) - max(left[i], 0.0) - 6, ROW_HEIGHT),
             self.label_of(frame, int(i)))
            for i in wide.tolist()
        ]  # fmt: skip

    def paintEvent(self, _event: QtGui.QPaintEvent) -> None:
        painter = QtGui.QPainter(self)
        painter.fillRect(self.rect(), QtGui.QColor(palette.PLOT_BACKGROUND))
        if self.frame is None or not self.frame.total:
            painter.end()
            return
        if not self._batches:
            self._batch()
        painter.setPen(QtCore.Qt.PenStyle.NoPen)
        for colour, rects in self._batches:
            painter.setBrush(colour)
            painter.drawRects(rects)
        painter.setPen(QtGui.QColor(palette.FLAME_TEXT))
        metrics = painter.fontMetrics()
        align = QtCore.Qt.AlignmentFlag.AlignLeft | QtCore.Qt.AlignmentFlag.AlignVCenter
        for rect, text in self._labels:
            painter.drawText(
                rect, align, metrics.elidedText(text, QtCore.Qt.TextElideMode.ElideMiddle, int(rect.width()))
            )
        if 0 <= self.selected < len(self.frame):
            left, right, top = self._place()
            painter.setBrush(QtCore.Qt.BrushStyle.NoBrush)
            painter.setPen(QtGui.QPen(QtGui.QColor(palette.FOCUS), 2))
            i = self.selected
            painter.drawRect(QtCore.QRectF(left[i], top[i], right[i] - left[i] - 1, ROW_HEIGHT - 1))
        painter.end()

    # -- the mouse ----------------------------------------------------------------------------------------

    def mousePressEvent(self, event: QtGui.QMouseEvent) -> None:
        if event.button() == QtCore.Qt.MouseButton.LeftButton:
            row = self.row_at(event.position().x(), event.position().y())
            self.selected = row
            self.update()
            self.picked.emit(row)
        super().mousePressEvent(event)

    def mouseDoubleClickEvent(self, event: QtGui.QMouseEvent) -> None:
        row = self.row_at(event.position().x(), event.position().y())
        if row >= 0:
            self.zoom_to(row)
        super().mouseDoubleClickEvent(event)

    def mouseMoveEvent(self, event: QtGui.QMouseEvent) -> None:
        self.setToolTip(self.tooltip_of(self.row_at(event.position().x(), event.position().y())))
        super().mouseMoveEvent(event)


def _hues(frame: FlameFrame) -> npt.NDArray[np.int64]:
    """Each rectangle's colour: the same for one file's frames wherever they appear (the root's is the first); each
    distinct name is hashed once."""
    names, inverse = np.unique(frame.name, return_inverse=True)
    hue = [
        0
        if n < 0
        else zlib.crc32(frame.names[n].rsplit(":", 2)[0].encode("utf-8", "surrogatepass")) % len(palette.FLAME_HUES)
        for n in names.tolist()
    ]
    out: npt.NDArray[np.int64] = np.asarray(hue, np.int64)[inverse.reshape(-1)]
    return out
