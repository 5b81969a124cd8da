"""Pinned tracks: a site, a category, a stream, a pool or a stack search pinned to the timeline as a track of its own
(Perfetto's pinned tracks): its allocated bytes over the trace, and the pins of a file as the settings keep them."""

from __future__ import annotations

import json
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from gpumem_gui.core.analysis.pinned_series import BAND_KINDS, PIN_KINDS, pinned_lifetimes
from gpumem_gui.core.analysis.site_series import BandSeries
from gpumem_gui.core.analysis.span import allocated_curve
from gpumem_gui.core.analysis.timetravel import DeviceTimeline
from gpumem_gui.core.snapshot.model import I64, Snapshot

__all__ = ["BAND_KINDS", "PIN_KINDS", "Pin", "pin_curve", "pin_mask", "pins_from_text", "pins_to_text"]


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
    already); see pinned_series.pinned_lifetimes."""
    return pinned_lifetimes(snapshot, timeline, pin.kind, pin.key, bands)


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
