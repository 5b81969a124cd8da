"""The one palette: colours of the map's state codes, the timeline's curves and the figures' warnings."""

from __future__ import annotations

import numpy as np

from gpumem_gui.core.analysis import rasterize as r

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


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    h = hex_colour.lstrip("#")
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


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
    return lut


LEGEND = [
    ("allocated (a hue per allocation site)", SITE_HUES[0][0]),
    ("rounding waste (size - requested)", WASTE),
    ("pending free (record_stream)", PENDING),
    ("cached free: a hole", HOLE),
    ("largest free block", LARGEST_HOLE),
]
