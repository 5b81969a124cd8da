"""The diagnosis beside the timeline, wired into the window: explain, open a remedy, what holds memory at the
cursor, a site lit up on the map; checked against the raw pickle and figures computed another way."""

from __future__ import annotations

from typing import Any

import numpy as np

from gpumem_gui.app import MainWindow
from gpumem_gui.assets import example_path
from gpumem_gui.core import load_snapshot
from gpumem_gui.core.analysis.breakdown import breakdown_at
from gpumem_gui.core.analysis.metrics import compute_metrics
from gpumem_gui.core.analysis.timetravel import build_timeline
from gpumem_gui.core.snapshot.model import Action
from gpumem_gui.views.compare.whatif_view import WhatIfView
from gpumem_gui.views.diagnosis.explain_panel import ExplainPanel
from gpumem_gui.views.snapshot.tab import SnapshotTab
from tests.conftest import fixture_path, load_raw


def _oom_entry(path: Any) -> tuple[int, dict[str, Any]]:
    trace = load_raw(path)["device_traces"][0]
    return next((i, e) for i, e in enumerate(trace) if e["action"] == "oom")


def _explained(qtbot: Any, path: Any) -> tuple[MainWindow, SnapshotTab, ExplainPanel]:
    """The window with `path` open and its OOM explained (View > Explain the OOM or Peak), the panel shown."""
    window = MainWindow()
    qtbot.addWidget(window)
    window.open_files([str(path)])
    window.wait_for_loads()
    doc = window.current_document()
    assert isinstance(doc, SnapshotTab)
    window.actions_on_tab.explain_current()
    panel = doc.diagnosis.explain_panel
    assert doc.side_tabs.currentWidget() is panel
    qtbot.waitUntil(lambda: panel.explanation is not None, timeout=30_000)
    return window, doc, panel


def test_explain_names_the_oom_and_a_remedy_opens_the_comparison_there(qtbot: Any) -> None:
    path = example_path("fragmented_oom")
    oom_at, oom = _oom_entry(path)
    window, doc, panel = _explained(qtbot, path)
    text = panel.text_content()
    assert f"event {oom_at}" in text and f"{oom['size']:,}" in text
    fits = [r for r in panel.explanation.remedies if r.settings == "expandable_segments:True"]
    assert fits and fits[0].fits
    chosen = panel.explanation.remedies.index(fits[0])
    doc.diagnosis.remedy_chosen.emit(panel.explanation, chosen, oom_at)  # the row's "Show"
    qtbot.waitUntil(lambda: isinstance(window.tabs.currentWidget(), WhatIfView), timeout=30_000)
    compare = window.tabs.currentWidget()
    assert isinstance(compare, WhatIfView) and compare.current_event == oom_at


def test_a_program_remedy_s_show_opens_its_changed_trace_beside_the_recording_at_the_oom(qtbot: Any) -> None:
    path = example_path("fragmented_oom")
    oom_at, oom = _oom_entry(path)
    window, doc, panel = _explained(qtbot, path)
    explanation = panel.explanation
    chosen = next(k for k, r in enumerate(explanation.remedies) if r.change.startswith("checkpoint") and r.fits)
    doc.diagnosis.remedy_chosen.emit(explanation, chosen, oom_at)  # the row's "Show"
    qtbot.waitUntil(lambda: isinstance(window.tabs.currentWidget(), WhatIfView), timeout=60_000)
    compare = window.tabs.currentWidget()
    assert isinstance(compare, WhatIfView) and compare.current_event == oom_at
    assert explanation.remedies[chosen].change in window.tabs.tabText(window.tabs.currentIndex())
    assert explanation.remedies[chosen].change in compare.summary.text()  # the header names the change, not settings
    replayed = compare.documents[1].snapshot.trace(0)
    assert not (replayed.action == Action.OOM).any()  # no OOM anywhere in the changed program's replay
    paired = int(compare.paired[oom_at])  # the recorded request, on the replayed side: there, and served
    assert int(replayed.size[paired]) == oom["size"] and int(replayed.action[paired]) == Action.ALLOC


def test_what_holds_memory_follows_the_cursor(qtbot: Any) -> None:
    path = fixture_path("magma27_memory_snapshot.pickle")
    snap = load_snapshot(path)
    view = SnapshotTab(snap)
    qtbot.addWidget(view)
    view.side_tabs.setCurrentWidget(view.diagnosis.breakdown)
    oracle = build_timeline(snap, 0)  # a timeline of its own: figures by another road than the view's
    for event in (100, 2500):
        view.travel_to(event)
        allocated = compute_metrics(oracle.state_at(event)).allocated_bytes

        def shown(event: int = event, allocated: int = allocated) -> bool:
            root = getattr(view.diagnosis.breakdown, "tree_root", None)
            return root is not None and root.bytes == allocated and view.diagnosis._breakdown_for == (0, event)

        qtbot.waitUntil(shown, timeout=30_000)


def test_a_site_picked_lights_up_its_blocks_on_the_map(qtbot: Any) -> None:
    path = example_path("fragmented_oom")
    view = SnapshotTab(load_snapshot(path))
    qtbot.addWidget(view)
    raw = load_raw(path)
    # the site of the attention blocks, by the raw pickle: live blocks whose innermost user frame is attention.py:77
    expected = sum(
        b["size"]
        for seg in raw["segments"]
        for b in seg["blocks"]
        if b["state"] == "active_allocated" and b.get("frames") and b["frames"][0]["filename"].endswith("attention.py")
    )
    assert expected > 0
    site = next(s.site for s in _breakdown(view).by_site if "attention.py" in s.site)
    view.diagnosis.site_chosen.emit(site)
    spot = view.frame.spotlight
    assert spot is not None and int(view.frame.state.blocks.size[spot.mask].sum()) == expected


def _breakdown(view: SnapshotTab) -> Any:
    return breakdown_at(view.snapshot, view.document.timeline(), view.current_event)


def test_a_right_click_near_an_oom_mark_offers_to_explain_it(qtbot: Any) -> None:
    path = example_path("fragmented_oom")
    oom_at, _ = _oom_entry(path)
    view = SnapshotTab(load_snapshot(path))
    qtbot.addWidget(view)
    actions = view.timeline_view.explain_actions(float(oom_at) + 0.3)
    assert actions[0] == (f"Explain the OOM at event {oom_at:,}", oom_at)
    far = view.timeline_view.explain_actions(10.0)
    assert [event for _, event in far] == [10, -1]


def test_the_grows_page_names_the_leak_and_lights_up_what_it_kept(qtbot: Any) -> None:
    path = example_path("training_leak")
    view = SnapshotTab(load_snapshot(path))
    qtbot.addWidget(view)
    view.side_tabs.setCurrentWidget(view.diagnosis.growth)
    qtbot.waitUntil(lambda: view.diagnosis.growth.selected_site() is not None, timeout=30_000)
    picked = view.diagnosis.growth.selected_site()
    assert picked is not None and picked.site == "model/transformer.py:160:forward"
    site = picked.site
    # what the leak holds at the snapshot, by the raw pickle: live blocks allocated at transformer.py line 160
    kept = sum(
        b["size"]
        for seg in load_raw(path)["segments"]
        for b in seg["blocks"]
        if b["state"] == "active_allocated"
        and b.get("frames")
        and (b["frames"][0]["filename"], b["frames"][0]["line"]) == ("model/transformer.py", 160)
    )
    assert kept > 0
    view.diagnosis.growth.site_selected.emit(site)  # picking its row
    spot = view.frame.spotlight
    assert spot is not None and int(view.frame.state.blocks.size[spot.mask].sum()) == kept


def test_the_stacked_timeline_travels_and_a_band_lights_up_its_site(qtbot: Any) -> None:
    path = fixture_path("cranberrii_memory_snapshot.pickle")
    snap = load_snapshot(path)
    view = SnapshotTab(snap)
    qtbot.addWidget(view)
    view.curve_tabs.setCurrentWidget(view.site_timeline)
    qtbot.waitUntil(view.site_timeline.is_ready, timeout=30_000)
    oracle = build_timeline(snap, 0)
    view.travel_to(3000)
    assert view.site_timeline.current_event == 3000
    # the bands at the cursor add up to the allocated bytes there, computed by another road
    bands = view.site_timeline.bands
    assert bands is not None
    assert int(bands.at(np.array([3000])).sum()) == compute_metrics(oracle.state_at(3000)).allocated_bytes
    first = bands.bands[0]
    view.site_timeline.band_selected.emit("site", first.key, first.label)
    spot = view.frame.spotlight
    expected = next(s.bytes for s in breakdown_at(snap, oracle, 3000).by_site if s.site == first.label)
    assert spot is not None and int(view.frame.state.blocks.size[spot.mask].sum()) == expected
    view.site_timeline.event_selected.emit(1500)  # a click on the stacked plot travels the whole tab
    assert view.current_event == 1500
