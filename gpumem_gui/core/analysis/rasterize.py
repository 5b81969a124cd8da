"""Segment maps as images: blocks rasterised into rows of state codes, so drawing costs pixels, not blocks.

Two layouts: by address (segments in address order, each starting a row and wrapping over rows of a fixed byte
span) and by segment (one row per segment, sorted by size or by free bytes, either stretched to the full width or
drawn to scale: the largest segment fills the row, the others a width proportional to their size). Layers are
painted allocated, rounding waste, pending, free, so a free hole smaller than a pixel still marks its pixel.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from gpumem_gui.core.snapshot.model import AllocatorState, BlockState, StackTable
from gpumem_gui.core.snapshot.stacks import sites_of

# state codes of the image (the views' palette gives each a colour)
BACKGROUND = 0
FREE = 1
PENDING = 2
WASTE = 3
LARGEST_FREE = 4
SITE_BASE = 8  # allocated blocks: SITE_BASE + (allocation site mod SITE_COLOURS)
SITE_COLOURS = 24

Mode = Literal["address", "segment"]
Sort = Literal["address", "size", "free"]


@dataclass(frozen=True)
class MapLayout:
    """Which bytes each image row shows: row r covers [row_start[r], row_start[r] + row_span[r]) of one segment."""

    mode: Mode
    width: int
    row_segment: np.ndarray  # segment index per row
    row_start: np.ndarray  # first byte address of the row
    row_span: np.ndarray  # bytes the full row width stands for
    row_used: np.ndarray  # bytes of the segment actually on the row (the rest is background)

    def __len__(self) -> int:
        return len(self.row_segment)

    def address_at(self, row: int, x: float) -> int | None:
        """The byte address under pixel column `x` of `row`, or None off the segment."""
        if not 0 <= row < len(self) or not 0 <= x < self.width:
            return None
        offset = int(x / self.width * int(self.row_span[row]))
        if offset >= int(self.row_used[row]):
            return None
        return int(self.row_start[row]) + offset


def layout_by_address(state: AllocatorState, width: int = 1024, row_bytes: int | None = None) -> MapLayout:
    seg = state.segments
    sizes = seg.total_size.astype(np.int64)
    if row_bytes is None:
        row_bytes = default_row_bytes(sizes)
    order = np.argsort(seg.address, kind="stable")
    rows_per = np.maximum(-(-sizes[order] // row_bytes), 1)
    row_segment = np.repeat(order, rows_per)
    first = np.repeat(np.cumsum(rows_per) - rows_per, rows_per)
    k = np.arange(len(row_segment)) - first  # row number within its segment
    row_start = seg.address[row_segment] + k * row_bytes
    row_used = np.minimum(row_bytes, seg.address[row_segment] + sizes[row_segment] - row_start)
    return MapLayout("address", width, row_segment, row_start, np.full(len(row_segment), row_bytes), row_used)


def default_row_bytes(sizes: np.ndarray) -> int:
    """A power of two that gives a few hundred rows at most for these segment sizes (at least 2 MiB)."""
    total = int(sizes.sum()) if len(sizes) else 0
    span = 2 << 20
    while total // span > 300:
        span *= 2
    return span


def layout_by_segment(
    state: AllocatorState, width: int = 1024, sort: Sort = "size", *, proportional: bool = False
) -> MapLayout:
    """One row per segment; `proportional`: every row stands for the largest segment's bytes, so that a segment's
    width is proportional to its size (sizes compare at a glance), else each row is its own segment, stretched."""
    seg = state.segments
    if sort == "size":
        order = np.lexsort((seg.address, -seg.total_size))
    elif sort == "free":
        free = np.bincount(
            state.blocks.segment,
            weights=np.where(state.blocks.state == BlockState.INACTIVE, state.blocks.size, 0),
            minlength=len(seg),
        )
        order = np.lexsort((seg.address, -free))
    else:
        order = np.argsort(seg.address, kind="stable")
    sizes = seg.total_size[order].astype(np.int64)
    spans = np.full(len(sizes), max(int(sizes.max()), 1) if len(sizes) else 1, np.int64) if proportional else sizes
    return MapLayout("segment", width, order, seg.address[order], spans.copy(), sizes.copy())


def site_codes(state: AllocatorState, stacks: StackTable | None = None) -> np.ndarray:
    """The code of each block as drawn when allocated: a hue per allocation site (the innermost frame of the user's
    code, so one line of the user's code is one hue whatever C++ path reached the allocator; the raw stack without
    `stacks`), and two shades that alternate from block to block, so that neighbours from one site are told apart."""
    key = state.blocks.stack.astype(np.int64)
    if stacks is not None and len(stacks):
        key = sites_of(stacks, key)
    hue = np.where(key >= 0, (key * 5) % (SITE_COLOURS // 2), SITE_COLOURS // 2 - 1)
    shade = np.arange(len(key)) % 2
    return (SITE_BASE + hue * 2 + shade).astype(np.uint8)


def rasterize(
    state: AllocatorState,
    layout: MapLayout,
    only: np.ndarray | None = None,
    stacks: StackTable | None = None,
    block_codes: np.ndarray | None = None,
) -> np.ndarray:
    """The image (rows x width, uint8 state codes) of `state` in `layout`.

    With `only` (a block mask), just those blocks are painted, with code 1 (an overlay: search matches).
    `block_codes`: the code of each allocated block (block_age's ages), instead of its site's hue.
    """
    rows, width = len(layout), layout.width
    image = np.zeros((rows, width), np.uint8)
    if rows == 0:
        return image
    blk = state.blocks
    if only is not None:
        ones = np.ones(len(blk), np.uint8)
        rows_of = _RowsOfSegments(layout, blk.segment)
        ends = blk.address + blk.size
        _paint(image.reshape(-1), layout, rows_of, mask=only, lo=blk.address, hi=ends, code=ones, blank=True)
        return image
    codes = site_codes(state, stacks) if block_codes is None else np.asarray(block_codes, np.uint8)
    state_code = blk.state
    starts = blk.address
    ends = blk.address + blk.size
    requested_end = np.where(state_code == BlockState.ALLOCATED, blk.address + blk.requested_size, ends)
    layers = [
        (state_code == BlockState.ALLOCATED, starts, np.minimum(requested_end, ends), codes),
        (state_code == BlockState.ALLOCATED, np.minimum(requested_end, ends), ends, np.full(len(blk), WASTE, np.uint8)),
        (state_code == BlockState.PENDING_FREE, starts, ends, np.full(len(blk), PENDING, np.uint8)),
        (state_code == BlockState.INACTIVE, starts, ends, np.full(len(blk), FREE, np.uint8)),
    ]
    free = np.flatnonzero(state_code == BlockState.INACTIVE)
    if len(free):
        largest = free[np.argmax(blk.size[free])]
        marker = np.zeros(len(blk), bool)
        marker[largest] = True
        layers.append((marker, starts, ends, np.full(len(blk), LARGEST_FREE, np.uint8)))
    flat = image.reshape(-1)
    rows_of = _RowsOfSegments(layout, blk.segment)
    for k, (mask, lo, hi, code) in enumerate(layers):
        _paint(flat, layout, rows_of, mask=mask & (hi > lo), lo=lo, hi=hi, code=code, blank=k == 0)
    return image


class _RowsOfSegments:
    """Each block's first image row, found once per picture rather than once per layer."""

    def __init__(self, layout: MapLayout, block_segment: np.ndarray) -> None:
        self.order = np.argsort(layout.row_segment, kind="stable")  # a segment's rows are consecutive here
        seg_sorted = layout.row_segment[self.order]
        self.first = np.searchsorted(seg_sorted, block_segment, "left")
        self.present = self.first < np.searchsorted(seg_sorted, block_segment, "right")


def _paint(
    flat: np.ndarray,
    layout: MapLayout,
    rows_of: _RowsOfSegments,
    *,
    mask: np.ndarray,
    lo: np.ndarray,
    hi: np.ndarray,
    code: np.ndarray,
    blank: bool = False,
) -> None:
    """Paint byte ranges [lo, hi) of the masked blocks: every pixel a range touches takes its code. `blank`: `flat`
    is all zeros yet (the first layer of a picture), so that the runs can be written as one strip."""
    idx = np.flatnonzero(mask & rows_of.present)
    if not len(idx):
        return
    width = layout.width
    seg_rows_order = rows_of.order
    first_row = rows_of.first[idx]
    # which of the segment's rows the range touches (rows of a segment are consecutive in byte order)
    seg_first = seg_rows_order[first_row]
    span = layout.row_span[seg_first]
    base = layout.row_start[seg_first]
    r0 = (lo[idx] - base) // span
    r1 = (hi[idx] - 1 - base) // span
    n_rows = np.maximum(r1 - r0 + 1, 1)
    rep = np.repeat(np.arange(len(idx)), n_rows)
    within = np.arange(len(rep)) - np.repeat(np.cumsum(n_rows) - n_rows, n_rows)
    row = seg_rows_order[np.repeat(first_row, n_rows) + np.repeat(r0, n_rows) + within]
    row_start = layout.row_start[row]
    row_span = layout.row_span[row]
    a = np.maximum(lo[idx][rep], row_start) - row_start
    b = np.minimum(hi[idx][rep], row_start + layout.row_used[row]) - row_start
    x0 = (a * width) // row_span
    x1 = np.maximum(-(-(b * width) // row_span), x0 + 1)  # at least one pixel: nothing vanishes
    x1 = np.minimum(x1, width)
    lengths = np.maximum(x1 - x0, 0)
    ends = np.cumsum(lengths)
    total = int(ends[-1])
    if total == 0:
        return
    # a strip where the runs cover much of the picture (its first layer: most of it; the holes' layer, often), a
    # pixel by pixel write of a few runs otherwise (the strip would move the pixels between them too)
    if (blank or total >= flat.size // 8) and _paint_dense(
        flat, row * width + x0, row * width + x0 + lengths, code[idx][rep], blank=blank
    ):
        return
    # pixel k of run j is run j's first pixel + (k - where run j starts among all the runs' pixels): one repeat of
    # each run's shift, added to one arange, rather than gathering a run's row and x0 for every pixel; int32 where
    # the image allows (half the bytes to move, the travel repaints this several times a step)
    index: type[np.signedinteger[Any]] = np.int32 if flat.size < 2**31 else np.int64
    shift = (row * width + x0 - (ends - lengths)).astype(index)
    pixels = np.arange(total, dtype=index)
    np.add(pixels, np.repeat(shift, lengths), out=pixels)
    flat[pixels] = np.repeat(code[idx][rep], lengths)  # a pixel two runs share takes the later run's code, as before


def _paint_dense(flat: np.ndarray, start: np.ndarray, end: np.ndarray, code: np.ndarray, *, blank: bool) -> bool:
    """Runs [start, end) painted as one strip: the runs in pixel order, each cut where the next begins (the later
    run takes a pixel two share), made by one np.repeat and written by one slice (`blank`: `flat` is all zeros yet,
    so the gaps between the runs are zeros too) or one copy where the runs are, rather than an index per pixel.
    False, with nothing written, where the runs are not in that order (a later run that starts inside another
    ends before it): the caller paints them pixel by pixel."""
    order = None if bool(np.all(start[1:] >= start[:-1])) else np.argsort(start, kind="stable")
    if order is not None:  # the segments' rows in another order than the blocks' (the layout by size)
        start, end, code = start[order], end[order], code[order]
    following = start[1:]
    cut = following < end[:-1]  # the next run begins inside this one: it must go on at least as far
    if cut.any():
        if not bool(np.all(end[1:][cut] >= end[:-1][cut])):
            return False
        if order is not None and not bool(np.all(order[1:][cut] > order[:-1][cut])):
            return False  # of two runs that share pixels, the one written later must come later here too
    stop = end.copy()
    np.minimum(stop[:-1], following, out=stop[:-1])
    n = len(start)
    values = np.zeros(2 * n - 1, flat.dtype)
    values[0::2] = code
    lengths = np.empty(2 * n - 1, np.int64)
    lengths[0::2] = stop - start
    lengths[1::2] = following - stop[:-1]
    strip = np.repeat(values, lengths)
    where = flat[int(start[0]) : int(stop[-1])]
    if blank:
        where[:] = strip
    else:
        runs = np.zeros(2 * n - 1, bool)
        runs[0::2] = True
        np.copyto(where, strip, where=np.repeat(runs, lengths))
    return True


def block_ids(state: AllocatorState, layout: MapLayout, mask: np.ndarray) -> np.ndarray:
    """Which of the masked blocks each pixel shows (rows x width, int32): 1 + the block's index, 0 for none; the
    very pixels `rasterize` paints for them (the map outlines search matches with these)."""
    image = np.zeros((len(layout), layout.width), np.int32)
    blk = state.blocks
    if not len(layout) or not len(blk):
        return image
    ids = np.arange(1, len(blk) + 1, dtype=np.int32)
    rows_of = _RowsOfSegments(layout, blk.segment)
    mask = np.asarray(mask, bool)
    ends = blk.address + blk.size
    _paint(image.reshape(-1), layout, rows_of, mask=mask, lo=blk.address, hi=ends, code=ids, blank=True)
    return image


def block_at(state: AllocatorState, layout: MapLayout, row: int, x: float) -> int:
    """The block under pixel (row, x), or -1."""
    addr = layout.address_at(row, x)
    if addr is None:
        return -1
    seg = int(layout.row_segment[row])
    start = int(state.segments.block_start[seg])
    count = int(state.segments.block_count[seg])
    addresses = state.blocks.address[start : start + count]
    j = int(np.searchsorted(addresses, addr, "right")) - 1
    return start + j if 0 <= j < count else -1
