"""The one palette: every colour the views draw with, named by what it marks (map states, curves, focus, quiz)."""

from __future__ import annotations

import numpy as np

from gpumem_gui.core.analysis import rasterize as r
from gpumem_gui.core.analysis.block_age import AGE_BASE
from gpumem_gui.views.common.language import QT_TRANSLATE_NOOP

BACKGROUND = "#eceff3"
HOLE = "#e8112d"  # cached free blocks: the colour that must jump out
LARGEST_HOLE = "#ff8c00"
PENDING = "#9b4dca"
WASTE = "#2b2b2b"

# calm blues, greens and greys for allocated blocks, so that the holes stand out; two shades per hue
SITE_HUES = [
    ("#4c78a8", "#6a93c2"),
    ("#54a24b", "#74bd6b"),
    ("#2a9d8f", "#4cbcae"),
    ("#7d8fa3", "#9aabbd"),
    ("#3d5a80", "#5a78a0"),
    ("#8cb369", "#a6cc84"),
    ("#457b9d", "#6497b8"),
    ("#5e8c61", "#7aa87d"),
    ("#6c7a89", "#8896a5"),
    ("#1d7874", "#3a9692"),
    ("#4f6d7a", "#6c8a97"),
    ("#98a886", "#b1c19f"),
]

CURVES = {
    "reserved": "#3d5a80",
    "allocated": "#2a9d8f",
    "requested": "#8cb369",
    "free": HOLE,
    "largest_free": LARGEST_HOLE,
    "external_fragmentation": "#9b4dca",
}


# plots, text and lines around the data
PLOT_BACKGROUND = "#ffffff"
CURSOR = "#111"  # the event cursor of the timeline and the comparison
REFERENCE_LINE = "#888"  # a dotted marker that is not data (the lab's chosen N)
TEXT = "#333"  # labels drawn over plots and figures
TEXT_STRONG = "#222"
TEXT_MUTED = "#555"
LABEL_FILL = (255, 255, 255, 200)  # RGBA behind a label over a plot, so that curves under it do not hide it
LEGEND_FILL = (255, 255, 255, 210)
TRANSPARENT = (0, 0, 0, 0)

# record_function ranges on the timeline: the pending-free hue, faint, so that the curves stay on top
ANNOTATION = "#c9a6e0"  # the legend's swatch: the span's look over white
ANNOTATION_SPAN = (155, 77, 202, 30)

# a demo's focus, on the map, the timeline, the figures and the lab
FOCUS = "#8a6500"  # lines, underlines and labels: a dark gold that no curve or block state uses
FOCUS_BACKGROUND = "#fff3c4"
FOCUS_SPAN = (224, 168, 0, 40)  # RGBA of a marked span of the timeline

# live monitoring: memory that NVML sees but PyTorch does not hold, and the notice over a live view
OUTSIDE_PYTORCH = "#9aa3ad"
NOTICE_BACKGROUND, NOTICE_TEXT = "#fff3cd", "#5c4400"

# the attach dialog: the command hint and a warning about NVML
HINT_BACKGROUND = "#f4f6f8"
WARNING_TEXT = "#8a5a00"

# the quiz: green and red for the verdict's text, pale versions behind it; the accent marks a selected, unconfirmed
# choice; the cards are white on a light page whatever the desktop theme
RIGHT, RIGHT_BACK = "#2e7d32", "#e8f5e9"
WRONG, WRONG_BACK = "#c62828", "#fdecea"
ACCENT, ACCENT_BACK = "#3d5a80", "#eaf0f7"
INK, MUTED, LINE, CARD, PAGE = "#1f2933", "#5f6b7a", "#d5dbe3", "#ffffff", "#f3f5f8"
BADGE_BACK = "#e4e9f0"
ON_ACCENT = "white"  # text on an accent, right or wrong badge
EXPLAIN_BACK = "#f6f8fa"


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    h = hex_colour.lstrip("#")
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


DIMMED = (*_rgb(BACKGROUND), 190)  # a spotlight fades the blocks outside it towards the background
UNDERLINE = (*_rgb(FOCUS), 255)  # ... and underlines the blocks inside it in the blank image row


def map_lut() -> np.ndarray:
    """RGBA lookup table (256 x 4) for the map image's state codes."""
    lut = np.zeros((256, 4), np.uint8)
    lut[:, 3] = 255
    lut[:, :3] = _rgb(BACKGROUND)
    lut[r.FREE, :3] = _rgb(HOLE)
    lut[r.LARGEST_FREE, :3] = _rgb(LARGEST_HOLE)
    lut[r.PENDING, :3] = _rgb(PENDING)
    lut[r.WASTE, :3] = _rgb(WASTE)
    for i, (dark, light) in enumerate(SITE_HUES):
        lut[r.SITE_BASE + 2 * i, :3] = _rgb(dark)
        lut[r.SITE_BASE + 2 * i + 1, :3] = _rgb(light)
    for i, colour in enumerate(AGE_HUES):  # the map coloured by age (block_age): youngest first
        lut[AGE_BASE + i, :3] = _rgb(colour)
    return lut


# the age colouring's ramp: churn in warm, light colours; older blocks darker and bluer; alive before recording grey
AGE_HUES = ("#fde725", "#a0da39", "#4ac16d", "#1fa187", "#277f8e", "#365c8d", "#46327e", "#8c8c8c")


# the map's legend: each entry's swatches (allocated blocks take any of the site hues: all of them are shown)
# the names are translated where the legend is written (QT_TRANSLATE_NOOP marks them for pyside6-lupdate)
LEGEND: list[tuple[str, tuple[str, ...]]] = [
    (QT_TRANSLATE_NOOP("Legend", "allocated (a hue per allocation site)"), tuple(dark for dark, _light in SITE_HUES)),
    (QT_TRANSLATE_NOOP("Legend", "rounding waste (size - requested)"), (WASTE,)),
    (QT_TRANSLATE_NOOP("Legend", "pending free (record_stream)"), (PENDING,)),
    (QT_TRANSLATE_NOOP("Legend", "cached free: a hole"), (HOLE,)),
    (QT_TRANSLATE_NOOP("Legend", "largest free block"), (LARGEST_HOLE,)),
]

# the timeline's horizontal grid: what pyqtgraph's grid at 20 % black shows on the white plot, drawn opaque
GRID = "#cccccc"

# the map's reading aids: the line between two segments (by address), the rings around search matches and around
# the block picked in the table (rings, not washes, so the blocks keep their state colours), the byte scale's text
SEGMENT_BOUNDARY = "#1f2933"
RING_HALO = "#111111"  # drawn wider under each ring, so that a ring shows on light and dark blocks alike
SEARCH_RING = "#ffe600"
SELECTION_RING = "#00e5ff"

# the figures' first look: a finding's text colour and the tint behind it, by severity (info, warn, alert)
FINDING = {"info": "#3d5a80", "warn": "#8a5a00", "alert": "#b71c1c"}
FINDING_BACK = {"info": "#eef2f7", "warn": "#fff3cd", "alert": "#fdecea"}

# stack views: the user's frames in ink, other frames worth showing muted, the frames hidden by default pale
STACK_USER = "#1f2933"
STACK_OTHER = "#5f6b7a"
STACK_HIDDEN = "#a3abb6"
STACK_LOCATION = "#3d5a80"  # the file:line after a user frame's function

# the site timeline's stacked bands: the top sites take the site hues (dark and light in turn, so that neighbours
# differ); the rest of the sites and the blocks without frames are greys; the band picked is outlined in the focus
SITE_BAND_OTHER = "#c3cad2"
SITE_BAND_UNKNOWN = "#e1e5ea"
SITE_BAND_EDGE = "#ffffff"  # a thin line between two bands

# the live overview's jobs, one line colour each (in turn; a ninth job reuses the first): distinct hues, none red,
# so that no job's line reads as the holes' colour
JOB_LINES = ["#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22"]

# the ranks view: a bar per rank file; OOM ranks in an alert red, outliers in orange, the others a calm blue; the
# bars of the rows picked in the table are outlined in ink
RANK_BAR = "#6a93c2"
RANK_BAR_OOM = "#c62828"
RANK_BAR_OUTLIER = "#f08c00"
RANK_BAR_PICKED = "#1f2933"

# the stack that follows the pointer over a block or a band (and stays when pinned): a pale card with a dark edge
POPUP_BACKGROUND = "#fffdf5"
POPUP_BORDER = "#1f2933"

# the cached-segment timeline: a segment's band takes a site hue in turn; the many small ones share a grey
SEGMENT_BAND_OTHER = "#c3cad2"

# the flame graph: warm hues per frame (by its name), the search's matches in the focus gold, the picked frame outlined
FLAME_HUES = ("#e8743b", "#f0a04b", "#d9534f", "#f2c14e", "#e07a5f", "#c8553d", "#f4a259", "#dd6e42")
FLAME_MATCH = "#7b2cbf"
FLAME_TEXT = "#1f1f1f"
