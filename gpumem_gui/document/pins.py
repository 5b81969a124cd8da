"""Pinned tracks: a site, a category, a stream, a pool or a stack search pinned to the timeline as a track of its own
(Perfetto's pinned tracks): its allocated bytes over the trace, and the pins of a file as the settings keep them."""

from __future__ import annotations

import json
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from gpumem_gui.core.analysis.flame import FlameSource
from gpumem_gui.core.analysis.site_series import BandSeries, build_bands
from gpumem_gui.core.analysis.span import allocated_curve
from gpumem_gui.core.analysis.timetravel import DeviceTimeline
from gpumem_gui.core.snapshot.model import I64, Snapshot

BAND_KINDS = ("site", "category", "stream", "pool")  # the site timeline's groupings a band can be pinned from
PIN_KINDS = (*BAND_KINDS, "search")


@dataclass(frozen=True)
class Pin:
    """What a track shows: a band of the site timeline's grouping `kind` (its key), or a search's text."""

    kind: str
    key: str | int
    label: str

    def as_dict(self) -> dict[str, str | int]:
        return {"kind": self.kind, "key": self.key, "label": self.label}


def pin_mask(
    snapshot: Snapshot, timeline: DeviceTimeline, pin: Pin, bands: BandSeries | None = None
) -> npt.NDArray[np.bool_]:
    """Per lifetime of the timeline: whether it belongs to the pin (`bands`: the pin's grouping, where it is made
    already). A search matches the frames of a block's stack, case-insensitive, as the flame graph's search does."""
    if pin.kind == "search":
        source = FlameSource(snapshot, timeline)
        _nodes, paths = source.trie(False).paths_matching(str(pin.key))
        found: npt.NDArray[np.bool_] = paths[source.path_of_lifetime]
        return found
    if pin.kind not in BAND_KINDS:
        raise ValueError(f"unknown pin kind {pin.kind!r} (one of {', '.join(PIN_KINDS)})")
    if bands is None or bands.kind != pin.kind:
        bands = build_bands(snapshot, timeline, pin.kind)
    try:
        band = bands.band_index(pin.key)
    except KeyError:  # not in this device's grouping: a track of nothing
        return np.zeros(len(bands.lifetime_band), bool)
    mask: npt.NDArray[np.bool_] = bands.lifetime_band == band
    return mask


def pin_curve(
    snapshot: Snapshot, timeline: DeviceTimeline, pin: Pin, bands: BandSeries | None = None
) -> tuple[I64, I64]:
    """The pin's allocated bytes over the trace as change points (span.allocated_curve). Pure numpy: off the GUI
    thread."""
    return allocated_curve(timeline, pin_mask(snapshot, timeline, pin, bands))


def pins_to_text(pins: list[Pin]) -> str:
    return json.dumps([p.as_dict() for p in pins])


def pins_from_text(text: object) -> list[Pin]:
    """The pins a setting kept (anything unreadable is dropped: a damaged setting never stops a file opening)."""
    try:
        items = json.loads(str(text)) if text else []
    except ValueError:
        return []
    pins = []
    for item in items if isinstance(items, list) else []:
        if isinstance(item, dict) and item.get("kind") in PIN_KINDS and isinstance(item.get("key"), str | int):
            pins.append(Pin(str(item["kind"]), item["key"], str(item.get("label", item["key"]))))
    return pins
