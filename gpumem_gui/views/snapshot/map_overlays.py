"""The segment map's reading aids: segment labels in a gutter, a byte scale, lines between segments, rings."""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui

from gpumem_gui.core.analysis.rasterize import MapLayout
from gpumem_gui.core.snapshot.model import AllocatorState
from gpumem_gui.core.snapshot.units import format_bytes
from gpumem_gui.views.common import palette
from gpumem_gui.views.common.language import current_language, filled, localized, translate

LABEL_PIXELS = 10  # the labels' font size in pixels
FIT = 0.85  # a segment gets a label where its rows are this many lines of text tall: glyphs do not fill a line
GUTTER_LIMITS = (90, 380)  # the label gutter's width in pixels, whatever the labels
TICK_PIXELS = 110  # about this many screen pixels between two ticks of the byte scale
WORDED_LIMIT = 4096  # segment labels kept worded (a few hundred bytes each) before the gutter words them afresh


def pool_name(state: AllocatorState, seg: int) -> str:
    """The segment's pool in the window's language: "large pool", "private pool (1, 2), small"."""
    small = bool(state.segments.is_small[seg])
    pool = int(state.segments.pool[seg])
    if pool == 0:
        return translate("SegmentMap", "small pool") if small else translate("SegmentMap", "large pool")
    a, b = state.pool_ids[pool]
    private = (
        translate("SegmentMap", "private pool ({a}, {b}), small")
        if small
        else translate("SegmentMap", "private pool ({a}, {b}), large")
    )
    return private.format(a=a, b=b)


def segment_label(state: AllocatorState, seg: int) -> str:
    """`20.0 MiB @ 0x7f0000000000 · large pool · stream 0`: what a segment is, as its label on the map says it."""
    s = state.segments
    size, address, stream = int(s.total_size[seg]), int(s.address[seg]), int(s.stream[seg])
    where = translate("SegmentMap", "stream {stream}").format(stream=stream)
    return f"{localized(format_bytes(size))} @ {address:#x} · {pool_name(state, seg)} · {where}"


def segment_runs(layout: MapLayout) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each segment's rows in the layout (a segment's rows follow one another): (segment, first row, row count)."""
    rows = layout.row_segment
    if not len(rows):
        empty = np.zeros(0, np.int64)
        return empty, empty, empty
    first = np.flatnonzero(np.r_[True, rows[1:] != rows[:-1]])
    count = np.diff(np.r_[first, len(rows)])
    return rows[first].astype(np.int64), first, count


def boundary_lines(layout: MapLayout, row_pixels: int, min_rows: float = 0) -> tuple[np.ndarray, np.ndarray]:
    """Line segments (x, y pairs, for connect="pairs") across the map where a segment starts, but the first: in the
    blank strip under the row above, so that they cover no block. With `min_rows`, only between two segments of
    at least that many rows each (zoomed out, lines between thin segments would blacken the map)."""
    _, first, count = segment_runs(layout)
    keep = (count[:-1] >= min_rows) & (count[1:] >= min_rows)
    y = first[1:][keep] - 0.5 / row_pixels
    return np.tile([0.0, float(layout.width)], len(y)), np.repeat(y, 2).astype(float)


def outline_lines(ids: np.ndarray, row_pixels: int) -> tuple[np.ndarray, np.ndarray]:
    """Line segments (x, y pairs, for connect="pairs") around each block of an id image (rows x width, 0: none),
    as `block_ids` gives it: one outline per block, a block that goes on in the next row outlined as one shape with
    it (across the blank strip between the rows), so that its inside keeps its colours."""
    rows, width = ids.shape
    if not rows or not ids.any():
        return np.zeros(0), np.zeros(0)
    drawn = 1 - 1 / row_pixels  # the block's part of a row; the rest is the blank strip under it
    below = np.zeros_like(ids)
    below[:-1] = ids[1:]
    goes_on = (ids > 0) & (below == ids)
    strip = np.where(goes_on, ids, 0)  # the blank strip belongs to a block that goes on down there
    above = np.zeros_like(ids)
    above[1:] = ids[:-1]
    xs: list[np.ndarray] = []
    ys: list[np.ndarray] = []

    def horizontal(edge: np.ndarray, y_offset: float) -> None:
        # runs of edge cells in a row: one segment each
        padded = np.zeros((rows, width + 2), np.int8)
        padded[:, 1:-1] = edge
        steps = np.diff(padded, axis=1)
        r, start = np.nonzero(steps == 1)
        _, stop = np.nonzero(steps == -1)  # same rows, same order
        xs.append(np.stack([start, stop], axis=1).reshape(-1).astype(float))
        ys.append(np.repeat(r + y_offset, 2).astype(float))

    def vertical(image: np.ndarray, top: float, bottom: float) -> None:
        left = np.zeros((rows, width + 1), image.dtype)
        right = np.zeros((rows, width + 1), image.dtype)
        left[:, 1:] = image
        right[:, :-1] = image
        r, x = np.nonzero(left != right)  # a block starts or ends at column boundary x (0 .. width)
        xs.append(np.repeat(x, 2).astype(float))
        ys.append(np.stack([r + top, r + bottom], axis=1).reshape(-1).astype(float))

    horizontal((ids > 0) & (above != ids), 0.0)  # tops
    horizontal((ids > 0) & ~goes_on, drawn)  # bottoms, where a block does not go on down
    vertical(ids, 0.0, drawn)
    vertical(strip, drawn, 1.0)
    return np.concatenate(xs), np.concatenate(ys)


class Rings:
    """Outlines drawn over the map in two batched items: a wide dark halo and the coloured ring on it."""

    def __init__(self, plot: pg.PlotWidget, colour: str, width: float) -> None:
        self.halo = pg.PlotCurveItem(pen=pg.mkPen(palette.RING_HALO, width=width + 2), connect="pairs")
        self.ring = pg.PlotCurveItem(pen=pg.mkPen(colour, width=width), connect="pairs")
        for item in (self.halo, self.ring):
            plot.addItem(item, ignoreBounds=True)

    def set_lines(self, x: np.ndarray, y: np.ndarray) -> None:
        if not len(x) and self.ring.xData is None:
            return  # no rings before either: clearing again would repaint the map (each travel without a search)
        for item in (self.halo, self.ring):
            if len(x):
                item.setData(x=x, y=y, connect="pairs")
            else:
                item.clear()

    def count(self) -> int:
        """How many rectangles the rings draw."""
        x = self.ring.xData
        return 0 if x is None else len(x) // 8


def compact_bytes(n: float) -> str:
    """`1536` -> `1.5 KiB`, `2097152` -> `2 MiB`: a scale's tick, without trailing zeros."""
    value, unit = float(n), "B"
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if abs(value) < 1024 or unit == "TiB":
            break
        value /= 1024
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return localized(f"{text} {unit}")


class ByteScale(pg.AxisItem):
    """The map's bottom axis: bytes from a row's start where every row stands for the same bytes, else the share
    of each segment; ticks fall on powers of two of bytes, closer together as the map is zoomed in."""

    def __init__(self) -> None:
        super().__init__("bottom")
        # no units: the SI prefix is never shown, yet pyqtgraph would set the label's HTML again on each range change
        self.enableAutoSIPrefix(False)
        self.width_units = 1
        self.bytes_per_unit: float | None = None
        self.mode = ""
        self.row_bytes = 0

    def set_scale(self, layout: MapLayout) -> None:
        """One scale for the layout: bytes if all its rows span the same bytes, a share of the segment if not."""
        spans = layout.row_span
        same = len(spans) > 0 and bool(np.all(spans == spans[0]))
        scale = (
            layout.width,
            int(spans[0]) / layout.width if same else None,
            layout.mode,
            int(spans[0]) if len(spans) else 0,
        )
        if scale == (self.width_units, self.bytes_per_unit, self.mode, self.row_bytes):
            return  # the same scale (a travel, mostly): its label set again would lay the plot out again
        self.width_units, self.bytes_per_unit, self.mode, self.row_bytes = scale
        self.retranslate()

    def retranslate(self) -> None:
        """The axis's label in the window's language (the map calls it again on a switch)."""
        if self.bytes_per_unit is None:
            self.setLabel(
                translate(
                    "SegmentMap",
                    "share of each segment (each row is stretched to its segment: widths are not to scale)",
                )
            )
        elif self.mode == "address":
            self.setLabel(
                translate("SegmentMap", "bytes from the row's start (a row is {size})").format(
                    size=compact_bytes(self.row_bytes)
                )
            )
        else:
            label = translate("SegmentMap", "bytes from the segment's start (to scale: a full row is {size})")
            self.setLabel(label.format(size=compact_bytes(self.row_bytes)))
        self.picture = None
        self.update()

    def tickSpacing(self, minVal: float, maxVal: float, size: float) -> list[tuple[float, float]]:
        wanted = max(size / TICK_PIXELS, 1.0)
        extent = max(maxVal - minVal, 1e-9)
        if self.bytes_per_unit is None:
            step = extent / self.width_units * 100 / wanted  # percent per tick
            nice = next((s for s in (0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 25, 50) if s >= step), 100)
            return [(nice * self.width_units / 100, 0.0)]
        step_bytes = max(extent * self.bytes_per_unit / wanted, 1.0)
        nice_bytes = 2.0 ** math.ceil(math.log2(step_bytes))
        return [(nice_bytes / self.bytes_per_unit, 0.0)]

    def tickValues(self, minVal: float, maxVal: float, size: float) -> list[tuple[float, list[float]]]:
        # no tick left of the rows' start or right of their end (the view may be panned past them)
        return [
            (spacing, [v for v in values if -1e-6 <= v <= self.width_units + 1e-6])
            for spacing, values in super().tickValues(minVal, maxVal, size)
        ]

    def tickStrings(self, values: list[float], scale: float, spacing: float) -> list[str]:
        if self.bytes_per_unit is None:
            return [localized(f"{v / self.width_units * 100:.4g}%") for v in values]
        return [compact_bytes(round(v * self.bytes_per_unit)) for v in values]


class SegmentLabels(pg.AxisItem):
    """A gutter left of the map naming each segment beside its rows, for the segments on screen whose rows are
    tall enough for a line of text; labels never overlap (each stays within its own segment's rows)."""

    def __init__(self) -> None:
        super().__init__("left")
        self.enableAutoSIPrefix(False)  # no label, no units: as the scale's
        self.font = QtGui.QFont()
        self.font.setPixelSize(LABEL_PIXELS)
        self.metrics = QtGui.QFontMetricsF(self.font)
        self.state: AllocatorState | None = None
        self.runs = segment_runs_empty()
        self.row_pixels = 1
        self._content: tuple[object, ...] = ()  # what the labels are made of, as last set
        self._shown: tuple[tuple[object, ...], tuple[list[tuple[QtCore.QRectF, str]], ...]] | None = None
        # each segment's label as last worded, by what it says and the language: a segment keeps its address, size,
        # pool and stream over most of a trace, so a jump to another event finds most of its labels here
        self._worded: dict[tuple[object, ...], str] = {}

    def set_segments(self, state: AllocatorState, layout: MapLayout, row_pixels: int) -> None:
        runs = segment_runs(layout)
        s = state.segments
        # the labels' texts and places come from these alone: a travel that keeps them (most do) paints the gutter
        # as it is, so it is not painted again (its labels, a few dozen texts made and drawn, on every travel)
        content = (
            row_pixels,
            *(a.tobytes() for a in runs),
            *(a.tobytes() for a in (s.total_size, s.address, s.pool, s.is_small, s.stream)),
            tuple(map(tuple, state.pool_ids)),
        )
        self.state, self.runs, self.row_pixels = state, runs, row_pixels
        width = self.gutter_width(state)
        if width != self.fixedWidth:  # set again, the same width would lay the plot out again
            self.setWidth(width)
        if content != self._content:
            self._content = content
            self.update()

    def gutter_width(self, state: AllocatorState) -> int:
        """Room for the first line of the widest label the state can have: a template, not every label (there may
        be thousands of segments), its address as many of the widest hex digit as the highest address has digits,
        so that the width stays while a travel changes the segments (the highest address's own digits moved the
        map a few pixels sideways, and laid the plot out and painted it again, on most travels)."""
        s = state.segments
        if not len(s):
            return GUTTER_LIMITS[0]
        digits = len(f"{int(s.address.max()):x}")
        widest = max(self.metrics.horizontalAdvance(c) for c in "0123456789abcdef")
        width = int(self.metrics.horizontalAdvance("1023.9 MiB @ 0x") + digits * widest) + 12
        return max(GUTTER_LIMITS[0], min(width, GUTTER_LIMITS[1]))

    def visible_labels(self) -> tuple[list[tuple[QtCore.QRectF, str]], list[tuple[QtCore.QRectF, str]]]:
        """What the gutter shows now, boxes in this item's coordinates: the labels, and a hint over each run of
        segments too thin to label. A label is `size @ address`, with `pool · stream N` under it where its rows
        are two lines tall."""
        view = self.linkedView()
        segments = self.runs[0]
        if view is None or self.state is None or not len(segments):
            return [], []
        y_top, y_bottom = view.viewRange()[1]
        top_px = self.mapFromScene(view.mapViewToScene(QtCore.QPointF(0, y_top))).y()
        bottom_px = self.mapFromScene(view.mapViewToScene(QtCore.QPointF(0, y_bottom))).y()
        # the same segments in the same place, width and language: the labels made last time
        key = (self._content, y_top, y_bottom, top_px, bottom_px, self.width(), current_language())
        if self._shown is not None and self._shown[0] == key:
            labels, hints = self._shown[1]
            return list(labels), list(hints)
        labels, hints = self._made((y_top, y_bottom), (top_px, bottom_px))
        self._shown = (key, (labels, hints))
        return list(labels), list(hints)

    def _made(
        self, rows: tuple[float, float], pixels: tuple[float, float]
    ) -> tuple[list[tuple[QtCore.QRectF, str]], list[tuple[QtCore.QRectF, str]]]:
        """The labels and hints of the rows from rows[0] to rows[1], shown from pixels[0] to pixels[1] down."""
        assert self.state is not None
        segments, first, count = self.runs
        (y_top, y_bottom), (top_px, bottom_px) = rows, pixels
        px_per_row = (bottom_px - top_px) / max(y_bottom - y_top, 1e-9)
        if px_per_row <= 0:
            return [], []
        line = self.metrics.height()
        # the segments on screen, the part of their rows on screen, and which of them have a line's height of it
        lo = int(np.searchsorted(first + count, y_top, "right"))
        hi = int(np.searchsorted(first, y_bottom, "left"))
        seen = np.arange(lo, hi)
        start = np.maximum(first[seen], y_top)
        end = np.minimum(first[seen] + count[seen], y_bottom)
        height = (end - start) * px_per_row
        tall = height >= FIT * line
        width = self.width() - 8

        def box(y: float, lines: int) -> QtCore.QRectF:
            return QtCore.QRectF(4, top_px + (y - y_top) * px_per_row, width, lines * line)

        labels = []
        language, pool_ids, shown = current_language(), self.state.pool_ids, segments[seen[tall]]
        if len(self._worded) > WORDED_LIMIT:
            self._worded.clear()
        s = self.state.segments
        facts = zip(*(a[shown].tolist() for a in (s.total_size, s.address, s.stream, s.is_small, s.pool)), strict=True)
        for seg, fact, y, h in zip(shown.tolist(), facts, start[tall], height[tall], strict=True):
            said = (language, *fact, tuple(pool_ids[fact[-1]]) if fact[-1] else ())
            text = self._worded.get(said)
            if text is None:
                text = self._worded[said] = segment_label(self.state, seg)
            first_line, rest = text.split(" · ", 1)
            two = h >= 2 * FIT * line
            labels.append((box(y, 2 if two else 1), f"{first_line}\n{rest}" if two else first_line))
        # runs of thin segments between the labels: one hint each where the run is a line tall
        hints = []
        group = np.cumsum(tall)  # thin segments after the same number of labels belong together
        thin = np.flatnonzero(~tall)
        if len(thin):
            _, at = np.unique(group[thin], return_index=True)
            ends = np.r_[at[1:], len(thin)] - 1
            for a, b in zip(thin[at], thin[ends], strict=True):
                if (end[b] - start[a]) * px_per_row >= FIT * line:
                    n = b - a + 1
                    hint = self._worded.get((language, n))
                    if hint is None:
                        hint = translate("SegmentMap", "{n} {n:segment|segments}: zoom in to label")
                        hint = self._worded[(language, n)] = filled(hint, {"n": str(n)})
                    hints.append((box(start[a], 1), hint))
        return labels, hints

    def painted_texts(self) -> list[str]:
        """The texts the gutter paints now (for tests that read what the window shows)."""
        labels, hints = self.visible_labels()
        return [text for _box, text in labels + hints]

    def paint(self, p: QtGui.QPainter, opt: object, widget: object) -> None:
        labels, hints = self.visible_labels()
        p.setFont(self.font)
        flags = int(QtCore.Qt.AlignmentFlag.AlignLeft | QtCore.Qt.AlignmentFlag.AlignTop)
        p.setPen(pg.mkPen(palette.TEXT))
        for rect, text in labels:
            p.drawText(rect, flags, text)
        p.setPen(pg.mkPen(palette.TEXT_MUTED))
        for rect, text in hints:
            p.drawText(rect, flags, self.metrics.elidedText(text, QtCore.Qt.TextElideMode.ElideRight, rect.width()))


def segment_runs_empty() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    empty = np.zeros(0, np.int64)
    return empty, empty, empty
