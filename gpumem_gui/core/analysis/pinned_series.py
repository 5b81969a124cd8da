"""What a pin holds: the lifetimes of a site, a category, a stream, a pool or a stack search, and their allocated
bytes right after every event of the trace (a pinned track, and a rank summary's pinned series)."""

from __future__ import annotations

import json

import numpy as np
import numpy.typing as npt

from gpumem_gui.core.analysis.breakdown import lifetime_reasons
from gpumem_gui.core.analysis.flame import FlameSource
from gpumem_gui.core.analysis.site_series import BandSeries, build_bands
from gpumem_gui.core.analysis.span import allocated_curve
from gpumem_gui.core.analysis.timetravel import DeviceTimeline
from gpumem_gui.core.snapshot.model import I64, Snapshot
from gpumem_gui.core.snapshot.stacks import block_sites

BAND_KINDS = ("site", "category", "stream", "pool")  # the site timeline's groupings a band can be pinned from
PIN_KINDS = (*BAND_KINDS, "search")


def pin_id(kind: str, key: str | int) -> str:
    """A pin's name in a rank summary's `pinned` (JSON keys are text; a stream's key is a number)."""
    return json.dumps([kind, key])


def parse_pin(text: str) -> tuple[str, str]:
    """`KIND:KEY` (site:model.py:12:forward, category:activation, search:lm_head) as (kind, key); ValueError, in
    one line, for anything else. Streams and pools are not offered: their numbers differ from rank to rank."""
    kind, _colon, key = text.partition(":")
    if kind not in ("site", "category", "search") or not key.strip():
        raise ValueError(f"--pin {text!r}: give KIND:KEY, KIND one of site, category, search")
    return kind, key.strip()


def pinned_lifetimes(
    snapshot: Snapshot, timeline: DeviceTimeline, kind: str, key: str | int, bands: BandSeries | None = None
) -> npt.NDArray[np.bool_]:
    """Per lifetime of the timeline: whether the pin (`kind`, `key`) holds it (`bands`: the grouping, where it is
    made already). A search matches the frames of a block's stack, case-insensitive, as the flame graph's search
    does; a site is looked for among every site, not only the bands' largest (another rank's top site may be in this
    one's "other")."""
    if kind == "search":
        source = FlameSource(snapshot, timeline)
        _nodes, paths = source.trie(False).paths_matching(str(key))
        found: npt.NDArray[np.bool_] = paths[source.path_of_lifetime]
        return found
    if kind not in BAND_KINDS:
        raise ValueError(f"unknown pin kind {kind!r} (one of {', '.join(PIN_KINDS)})")
    if bands is not None and bands.kind == kind:
        try:
            mask: npt.NDArray[np.bool_] = bands.lifetime_band == bands.band_index(key)
            return mask
        except KeyError:
            if kind != "site":
                return np.zeros(len(bands.lifetime_band), bool)
    if kind == "site":
        life = timeline.lifetimes
        code, labels = block_sites(snapshot.stacks, life.stack, lifetime_reasons(snapshot, timeline))
        if key not in labels:
            return np.zeros(len(life.start), bool)
        site_mask: npt.NDArray[np.bool_] = code == labels.index(str(key))
        return site_mask
    return pinned_lifetimes(snapshot, timeline, kind, key, build_bands(snapshot, timeline, kind))


def pinned_bytes(snapshot: Snapshot, timeline: DeviceTimeline, kind: str, key: str | int) -> I64:
    """The pin's allocated bytes right after each event of the trace (one value per event)."""
    events, values = allocated_curve(timeline, pinned_lifetimes(snapshot, timeline, kind, key))
    # the value of the last change at or before each event (none yet: 0)
    at = np.searchsorted(events, np.arange(timeline.n_events), side="right") - 1
    out: I64 = np.where(at >= 0, np.concatenate([values, [0]])[at], 0).astype(np.int64)
    return out
