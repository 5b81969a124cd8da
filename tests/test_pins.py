"""Pinned tracks on the bundled training_leak example: a site's, a search's and a stream's bytes over the trace,
checked against the raw trace walked by hand and the allocated series; the pins kept per file in a real tab."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from PySide6 import QtCore

from gpumem_gui.assets import example_path
from gpumem_gui.core import load_snapshot
from gpumem_gui.core.analysis.timetravel import build_timeline
from gpumem_gui.core.rules.allocator_constants import MiB
from gpumem_gui.document.pins import Pin, pin_curve, pins_from_text, pins_to_text
from gpumem_gui.views.snapshot.tab_pins import settings_key
from tests.conftest import load_raw
from tests.site_oracle import raw_site
from tests.test_tab_scope import leak_tab

LEAK_SITE = "model/transformer.py:160:forward"


@pytest.fixture(scope="module")
def leak() -> Any:
    snapshot = load_snapshot(example_path("training_leak"))
    return snapshot, build_timeline(snapshot, 0)


def _leak_allocs() -> list[int]:
    raw = list(load_raw(example_path("training_leak"))["device_traces"][0])
    return [i for i, e in enumerate(raw) if e["action"] == "alloc" and raw_site(e.get("frames", [])) == LEAK_SITE]


def test_a_pinned_site_and_a_search_for_its_line_are_its_blocks_bytes(leak: Any) -> None:
    snapshot, timeline = leak
    allocs = _leak_allocs()
    assert len(allocs) == 6  # one per step, never freed
    for pin in (Pin("site", LEAK_SITE, LEAK_SITE), Pin("search", "TRANSFORMER.py:160", "search")):
        events, values = pin_curve(snapshot, timeline, pin)
        assert events.tolist() == allocs
        assert values.tolist() == [32 * MiB * k for k in range(1, 7)]


def test_a_pinned_stream_is_the_allocated_series_of_its_blocks(leak: Any) -> None:
    snapshot, timeline = leak
    events, values = pin_curve(snapshot, timeline, Pin("stream", 0, "stream 0"))
    allocated = timeline.series.allocated
    assert values.tolist() == allocated[events].tolist()  # every block of this file is on stream 0
    assert pin_curve(snapshot, timeline, Pin("site", "no such site", "x"))[0].tolist() == []


def test_pins_kept_as_text_and_junk_dropped() -> None:
    pins = [Pin("site", LEAK_SITE, "leak"), Pin("stream", 7, "stream 7")]
    assert pins_from_text(pins_to_text(pins)) == pins
    assert pins_from_text("not json") == []
    assert pins_from_text('[{"kind": "nope", "key": 1}, 3, {"kind": "pool", "key": [1]}]') == []


def test_a_band_pinned_in_the_tab_draws_its_track_and_is_kept_for_the_file(qtbot: Any) -> None:
    tab = leak_tab(qtbot)
    assert tab.scope is not None
    pins = tab.scope.pins
    pins.settings.remove(settings_key(tab.snapshot.source))
    assert pins.tracks.bar.isVisible() and not pins.tracks.isVisible()  # the buttons shown, no track yet
    tab.curve_tabs.setCurrentWidget(tab.site_timeline)
    qtbot.waitUntil(tab.site_timeline.is_ready, timeout=10_000)
    tab.site_timeline.select_band(tab.site_timeline.bands.band_index(LEAK_SITE))  # type: ignore[union-attr]
    assert pins.tracks.pin_band.isEnabled()
    pins.tracks.pin_band.click()
    pin = Pin("site", LEAK_SITE, LEAK_SITE)
    qtbot.waitUntil(lambda: pin in pins.curves, timeout=10_000)
    track = pins.tracks.tracks[pin]
    tab.curve_tabs.setCurrentIndex(0)  # the memory curves, the track under them
    assert track.isVisible()
    _x, y = track.curve.getData()
    assert y is not None and float(np.max(y)) * MiB == pytest.approx(6 * 32 * MiB)  # in the MiB of its own peak
    assert track.plot.getAxis("left").labelText == "MiB"
    assert "peak 192.0 MiB" in track.title.text()
    # the next tab of the same file pins it again
    again = leak_tab(qtbot)
    assert again.scope is not None
    qtbot.waitUntil(lambda: pin in again.scope.pins.curves, timeout=10_000)  # type: ignore[union-attr]
    # unpinned with its ✕: gone from the settings too
    again.scope.pins.unpin(pin)
    assert again.scope.pins.tracks.pins() == []
    assert pins_from_text(pins.settings.value(settings_key(tab.snapshot.source), "")) == []
    assert QtCore.QSettings().value(settings_key(tab.snapshot.source), "") == "[]"
