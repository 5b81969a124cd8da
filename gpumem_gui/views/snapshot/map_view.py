"""SegmentMapView: the allocator's segments and blocks as one image, zoomable, with hover and click on blocks."""

from __future__ import annotations

import html
from typing import NamedTuple

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtWidgets

from gpumem_gui.core.analysis.block_age import AgeBin
from gpumem_gui.core.analysis.rasterize import MapLayout, block_at, block_ids, rasterize
from gpumem_gui.core.snapshot.model import STATE_LABELS, AllocatorState, BlockState, Frame, StackTable
from gpumem_gui.core.snapshot.stacks import NO_SITE, filter_frames, short_site, stack_sites
from gpumem_gui.core.snapshot.units import format_bytes
from gpumem_gui.document.frame import EventFrame
from gpumem_gui.views.common import palette
from gpumem_gui.views.common.hover_stack import StackPopup, host_point
from gpumem_gui.views.common.language import Retranslated, localized, site_words, translate
from gpumem_gui.views.common.rich_text import rich_text
from gpumem_gui.views.snapshot.age_legend import map_legend, site_legend
from gpumem_gui.views.snapshot.code_image import CodeImageItem
from gpumem_gui.views.snapshot.light_plot import light_plot
from gpumem_gui.views.snapshot.map_overlays import ByteScale, Rings, SegmentLabels, boundary_lines, outline_lines

ROW_PIXELS = 4  # each layout row is drawn this many image rows high, the last one blank: rows stay apart


class MapPlot(NamedTuple):
    """The map's plot and its two axes: the segments' labels at the left, the byte scale at the bottom."""

    plot: pg.PlotWidget
    labels: SegmentLabels
    scale: ByteScale


def map_plot() -> MapPlot:
    """The map's plot with its axes, alone: some 4 of the 7 ms of a map's making, made a turn before the rest where a
    tab is made over several turns."""
    labels, scale = SegmentLabels(), ByteScale()
    # without pyqtgraph's options menu (never shown here): its forty widgets were a third of the map's making
    plot = light_plot(palette.BACKGROUND, axisItems={"left": labels, "bottom": scale})
    for axis in (labels, scale):
        axis.setPen(pg.mkPen(palette.TEXT_MUTED))
        axis.setTextPen(pg.mkPen(palette.TEXT))
    return MapPlot(plot, labels, scale)


class SegmentMapView(Retranslated):
    """Draws a document's EventFrame; emits the block index under the mouse on hover and click."""

    block_clicked = QtCore.Signal(int)
    block_hovered = QtCore.Signal(int)

    def __init__(self, parent: QtWidgets.QWidget | None = None, *, plot: MapPlot | None = None) -> None:
        """`plot`: its plot made in an earlier turn of the event loop (`map_plot`)."""
        super().__init__(parent)
        pg.setConfigOptions(imageAxisOrder="row-major", antialias=False)
        self.state: AllocatorState | None = None
        self.stacks: StackTable | None = None
        self.layout_info: MapLayout | None = None
        self.image_data = np.zeros((1, 1), np.uint8)
        self.highlight: np.ndarray | None = None  # the frame's highlight: the table's pick, else the search matches
        self.search: np.ndarray | None = None  # block mask of the search matches, ringed
        self.selection: np.ndarray | None = None  # block mask of the block picked in the table, ringed apart
        self.spotlight = False  # draw `highlight` as a demo's focus: the rest faded, the blocks underlined

        self.plot, self.labels, self.scale = plot if plot is not None else map_plot()
        self.plot.setMenuEnabled(False)
        # pyqtgraph caches the background in a pixmap: a plain colour, blitted over the whole viewport on each paint
        # (threads and all) costs more than filling it
        self.plot.setCacheMode(QtWidgets.QGraphicsView.CacheModeFlag.CacheNone)
        self.view = self.plot.getViewBox()
        self.view.invertY(True)
        self.view.setMouseEnabled(x=True, y=True)
        self.image = CodeImageItem(palette.map_lut())
        self.plot.addItem(self.image)
        self.overlay = pg.ImageItem()
        self.plot.addItem(self.overlay)
        self.boundaries = pg.PlotCurveItem(pen=pg.mkPen(palette.SEGMENT_BOUNDARY, width=2), connect="pairs")
        self.plot.addItem(self.boundaries, ignoreBounds=True)
        self.search_rings = Rings(self.plot, palette.SEARCH_RING, 1.5)
        self.selection_rings = Rings(self.plot, palette.SELECTION_RING, 2.5)
        self.caption = QtWidgets.QLabel()
        self._hover_pos: QtCore.QPointF | None = None  # where the pointer is over the map (scene coordinates)
        self.caption.setTextFormat(QtCore.Qt.TextFormat.RichText)
        self.caption.setWordWrap(True)
        # the hover's readout keeps three lines of room whether it shows anything or not: a readout that grew would
        # shrink the map and move its rows under the pointer, so that a click would pick another block than named
        self.caption.setFixedHeight(3 * self.caption.fontMetrics().lineSpacing() + 4)
        self.caption.setAlignment(QtCore.Qt.AlignmentFlag.AlignLeft | QtCore.Qt.AlignmentFlag.AlignTop)
        self.legend = QtWidgets.QLabel(site_legend())
        self.legend.setWordWrap(True)
        self.focus_caption = QtWidgets.QLabel()  # a demo's one-line caption, over the map while its focus is shown
        self.focus_caption.setTextFormat(QtCore.Qt.TextFormat.PlainText)
        self.focus_caption.setWordWrap(True)
        self.focus_caption.setStyleSheet(
            f"background: {palette.FOCUS_BACKGROUND}; border-left: 4px solid {palette.FOCUS}; padding: 4px 8px;"
        )
        self.focus_caption.setVisible(False)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.focus_caption)
        layout.addWidget(self.plot, 1)
        layout.addWidget(self.legend)
        layout.addWidget(self.caption)
        self.view.sigYRangeChanged.connect(self._draw_boundaries)
        self.view.sigResized.connect(self._draw_boundaries)
        self.plot.scene().sigMouseMoved.connect(self._on_move)
        self.plot.scene().sigMouseClicked.connect(self._on_click)
        self.popup = StackPopup(self)  # the stack of the block under the pointer; a click pins it
        self._legend_of: tuple[str, tuple[AgeBin, ...]] = ("site", ())
        self._image_rect = QtCore.QRectF()  # the image's rect as last set
        self._boundaries_shown: tuple[int, np.ndarray, np.ndarray] | None = None  # pen width, x, y as last set
        self._empty = False
        self.retranslate()

    def retranslate(self) -> None:
        """The legend, the axis, the segment labels and the readout in the window's language."""
        self.legend.setText(map_legend(*self._legend_of))
        self.scale.retranslate()
        self.labels.update()
        if self._empty:
            self.caption.setText(translate("SegmentMap", "no segment here"))
        elif self.state is not None:
            self._rehover()

    # -- data -------------------------------------------------------------------------------------------------

    def set_focus_caption(self, text: str | None) -> None:
        """One line over the map saying what the focus shows (None hides it)."""
        self.focus_caption.setText(text or "")
        self.focus_caption.setVisible(bool(text))

    def highlight_pixels(self) -> np.ndarray:
        """Which pixels of the image the highlight covers (False everywhere when nothing is highlighted)."""
        if (
            self.state is None
            or self.layout_info is None
            or not len(self.layout_info)
            or self.highlight is None
            or len(self.highlight) != len(self.state.blocks)
        ):
            return np.zeros(self.image_data.shape, bool)
        rows = rasterize(self.state, self.layout_info, only=self.highlight)
        return np.repeat(rows > 0, ROW_PIXELS, axis=0)

    def show_frame(self, frame: EventFrame, *, keep_range: bool = True) -> None:
        """Draw a document's frame: its layout and codes as they are, its highlight or its demo's spotlight."""
        keep_range = keep_range and self.state is not None and len(frame.state.segments) == len(self.state.segments)
        self.state, self.stacks = frame.state, frame.stacks
        spotlight = frame.spotlight
        self.highlight = spotlight.mask if spotlight is not None else frame.highlight
        self.spotlight = spotlight is not None
        self.search = frame.search_mask if spotlight is None else None
        picked = frame.highlight is not None and frame.highlight is not frame.search_mask
        self.selection = frame.highlight if picked and spotlight is None else None
        self.set_focus_caption(spotlight.caption if spotlight is not None else None)
        self._legend_of = (frame.colouring, frame.age_legend)
        self.legend.setText(map_legend(frame.colouring, frame.age_legend))  # by age: its scale moves with the cursor
        self._draw(frame.layout, frame.codes, keep_range)

    def _draw(self, layout: MapLayout, rows: np.ndarray, keep_range: bool) -> None:
        self.layout_info = layout
        width = layout.width
        empty = not len(rows)
        if empty:  # nothing to show (a filter left no segment): one empty row keeps the view sane
            rows = np.zeros((1, width), np.uint8)
        image = np.repeat(rows, ROW_PIXELS, axis=0)
        image[ROW_PIXELS - 1 :: ROW_PIXELS] = 0
        self.image_data = image
        self.image.setImage(image, autoLevels=False)
        rect = QtCore.QRectF(0, 0, width, len(rows))
        if rect != self._image_rect:  # the same rect set again tells the view its bounds changed: each travel
            self._image_rect = rect
            self.image.setRect(rect)
        if self.state is not None:
            self.labels.set_segments(self.state, layout, ROW_PIXELS)
        self.scale.set_scale(layout)
        self._draw_boundaries()
        self._draw_overlay()
        self._draw_rings()
        if not keep_range:
            self.view.setRange(QtCore.QRectF(0, 0, width, max(len(rows), 1)), padding=0.01)
        self._empty = bool(empty)
        if empty:
            self.caption.setText(translate("SegmentMap", "no segment here"))
        else:
            self._rehover()  # in the range just set

    def _draw_boundaries(self, *_args: object) -> None:
        """Lines between the segments of the address layout, as many as the zoom leaves room for: all of them where
        rows are 3 pixels tall or more, else only those between segments of 6 pixels or more."""
        layout = self.layout_info
        if layout is None or layout.mode != "address" or len(layout) < 2:
            if self._boundaries_shown is not None:
                self._boundaries_shown = None
                self.boundaries.clear()
            return
        row_px = 1 / max(self.view.viewPixelSize()[1], 1e-9)
        min_rows = 0.0 if row_px >= 3 else 6 / row_px
        pen_width = 2 if row_px >= 8 else 1
        x, y = boundary_lines(layout, ROW_PIXELS, min_rows)
        shown = self._boundaries_shown
        # a travel keeps the layout's segments mostly: the same lines set again would recompute the item's bounds
        if shown is not None and shown[0] == pen_width and np.array_equal(shown[1], x) and np.array_equal(shown[2], y):
            return
        self._boundaries_shown = (pen_width, x, y)
        self.boundaries.setPen(pg.mkPen(palette.SEGMENT_BOUNDARY, width=pen_width))
        self.boundaries.setData(x, y, connect="pairs")

    def _draw_overlay(self) -> None:
        if (
            self.state is None
            or self.layout_info is None
            or not len(self.layout_info)
            or self.highlight is None
            or len(self.highlight) != len(self.state.blocks)
            or not self.highlight.any()
            or not self.spotlight
        ):
            if self.overlay.image is not None:  # cleared again, the item would be repainted for nothing
                self.overlay.clear()
            return
        mask = self.highlight_pixels()
        rgba = np.zeros((*mask.shape, 4), np.uint8)
        # the focused blocks keep their own colours (a hole stays red), the rest fades; the blank image row under
        # the focus's lowest rows underlines it, so that blocks of a pixel or two are still found
        rgba[(self.image_data > 0) & ~mask] = palette.DIMMED
        rows = mask[ROW_PIXELS - 2 :: ROW_PIXELS]  # one image row per layout row
        bottom = rows.copy()
        bottom[:-1] &= ~rows[1:]  # a block that goes on in the next row is underlined there
        under = np.zeros_like(mask)
        under[ROW_PIXELS - 1 :: ROW_PIXELS] = bottom
        rgba[under] = palette.UNDERLINE
        self.overlay.setImage(rgba, autoLevels=False)
        self.overlay.setRect(QtCore.QRectF(0, 0, self.layout_info.width, len(self.layout_info)))

    def _draw_rings(self) -> None:
        """Rings around the search matches and, apart, the block picked in the table: outlines over the image, so
        that the blocks keep their state colours (a matched pending free must not look like a hole)."""
        for rings, mask in ((self.search_rings, self.search), (self.selection_rings, self.selection)):
            if self.state is None or self.layout_info is None or mask is None or len(mask) != len(self.state.blocks):
                rings.set_lines(np.zeros(0), np.zeros(0))
                continue
            rings.set_lines(*outline_lines(block_ids(self.state, self.layout_info, mask), ROW_PIXELS))

    # -- mouse --------------------------------------------------------------------------------------------

    def block_at_scene(self, pos: QtCore.QPointF) -> int:
        if self.state is None or self.layout_info is None:
            return -1
        point = self.view.mapSceneToView(pos)
        row = int(np.floor(point.y()))
        return block_at(self.state, self.layout_info, row, point.x())

    def _on_move(self, pos: QtCore.QPointF) -> None:
        self._hover_pos = pos
        index = self.block_at_scene(pos)
        self.caption.setText(rich_text(self.describe(index)) if index >= 0 else "")
        if index >= 0:
            self.popup.hover(index, *self.stack_of(index), self._widget_point(pos), empty=self._no_stack(index))
            self.block_hovered.emit(index)
        else:
            self.popup.leave()

    def _on_click(self, event: object) -> None:
        pos = event.scenePos()  # type: ignore[attr-defined]
        index = self.block_at_scene(pos)
        if index >= 0:
            self.pin_block(index, self._widget_point(pos))
            self.block_clicked.emit(index)
        else:
            self.popup.unpin()

    def _rehover(self) -> None:
        """A new state drawn (travel, a device, a filter): the readout names the block now under the pointer, or
        nothing, never the block of the state before, which may be gone or elsewhere."""
        pos = self._hover_pos
        index = self.block_at_scene(pos) if pos is not None else -1
        self.caption.setText(rich_text(self.describe(index)) if index >= 0 else "")

    def leaveEvent(self, event: QtCore.QEvent) -> None:
        self._hover_pos = None
        self.popup.leave()
        super().leaveEvent(event)

    def _widget_point(self, scene_pos: QtCore.QPointF) -> QtCore.QPoint:
        return host_point(self.plot, self, scene_pos)

    def pin_block(self, index: int, at: QtCore.QPoint | None = None) -> None:
        """Pin block `index`'s stack over the map (at `at`, in the map's coordinates; default: by the block)."""
        if at is None:
            at = self.block_point(index)
        self.popup.pin(index, *self.stack_of(index), at, empty=self._no_stack(index))

    def block_point(self, index: int) -> QtCore.QPoint:
        """Where block `index` begins on the map, in the map's coordinates (its first pixel's centre)."""
        assert self.state is not None and self.layout_info is not None
        pixels = np.argwhere(block_ids(self.state, self.layout_info, np.arange(len(self.state.blocks)) == index))
        if not len(pixels):
            return QtCore.QPoint(0, 0)
        row, column = pixels[0]
        return self._widget_point(self.view.mapViewToScene(QtCore.QPointF(column + 0.5, row + 0.5)))

    def stack_of(self, index: int) -> tuple[str, list[Frame]]:
        """The popup's title for block `index` and its stack's frames."""
        assert self.state is not None and self.stacks is not None
        b = self.state.blocks
        state = BlockState(int(b.state[index]))
        size = localized(format_bytes(int(b.size[index])))
        title = f"<b>{int(b.address[index]):#x}</b> &nbsp; {size} &nbsp; {STATE_LABELS[state]}"
        stack = int(b.stack[index])
        return title, list(self.stacks.stack(stack)) if 0 <= stack < len(self.stacks) else []

    def _no_stack(self, index: int) -> str:
        assert self.state is not None
        free = int(self.state.blocks.state[index]) == BlockState.INACTIVE
        return (
            translate("SegmentMap", "a free block: no stack") if free else translate("SegmentMap", "no stack recorded")
        )

    def describe(self, index: int) -> str:
        """One line for the block: address, size, requested, state, stream, pool, top frames."""
        assert self.state is not None and self.stacks is not None
        b, s = self.state.blocks, self.state.segments
        seg = int(b.segment[index])
        state = BlockState(int(b.state[index]))
        parts = [
            f"<b>{int(b.address[index]):#x}</b>",
            translate("SegmentMap", "size {size}").format(size=localized(format_bytes(int(b.size[index])))),
            f"<b>{STATE_LABELS[state]}</b>",
            translate("SegmentMap", "stream {stream}").format(stream=int(s.stream[seg])),
            translate("SegmentMap", "small pool") if s.is_small[seg] else translate("SegmentMap", "large pool"),
        ]
        if state != BlockState.INACTIVE:
            requested = localized(format_bytes(int(b.requested_size[index])))
            parts.insert(2, translate("SegmentMap", "requested {size}").format(size=requested))
        text = " &nbsp; ".join(parts)
        stack = int(b.stack[index])
        site = stack_sites(self.stacks)[0][stack] if 0 <= stack < len(self.stacks) else NO_SITE
        if site != NO_SITE:  # the line it is charged to, as every list names it (its stack is in the stack pane)
            text += "<br><b>{}</b> ".format(translate("SegmentMap", "site")) + html.escape(
                site_words(short_site(stack_sites(self.stacks)[1][site]))
            )
        elif frames := filter_frames(self.stacks.stack(stack))[:3] if stack >= 0 else []:
            shown = (f"{f.name} ({f.filename.rsplit('/', 1)[-1]}:{f.line})" for f in frames)
            text += "<br>" + " &lt; ".join(map(html.escape, shown))
        return text
