"""The quiz's "Show me" demos: each plan's examples exist, each focus shows what its caption claims (checked on the
data, by other means than the focus used), and applying a focus changes the map, caption, timeline and figures."""

from __future__ import annotations

import contextlib
import pickle
import tomllib
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from gpumem_gui.assets import EXAMPLES, example_path
from gpumem_gui.core import load_snapshot
from gpumem_gui.core.allocator.simulator import DeviceAllocatorSim, OutOfMemoryError
from gpumem_gui.core.analysis.metrics import compute_metrics
from gpumem_gui.core.analysis.timetravel import build_timeline
from gpumem_gui.core.rules.allocator_constants import GiB, MiB
from gpumem_gui.core.snapshot.convert import snapshot_from_object
from gpumem_gui.core.snapshot.model import Action, BlockState, Snapshot
from gpumem_gui.core.snapshot.units import format_bytes
from gpumem_gui.teach import quiz
from gpumem_gui.teach.demos.captions import plural, sizes
from gpumem_gui.teach.quiz_demos import (
    DEMO_NAMES,
    KV_CACHE_SITE,
    DemoError,
    DemoFocus,
    foci_for,
    focus_for,
    kv_cache_foci,
    plan_for,
    run_whatif,
    whatif_foci,
)


def _load(name: str) -> Snapshot:
    return load_snapshot(example_path(name))


def _snapshot_of(sim: DeviceAllocatorSim, name: str) -> Snapshot:
    return snapshot_from_object(pickle.loads(pickle.dumps(sim.snapshot())), name, "dump")


def _state(focus: DemoFocus, snap: Snapshot) -> Any:
    return build_timeline(snap, focus.device).state_at(focus.event)


# -- plans ------------------------------------------------------------------------------------------------------


def test_every_demo_has_a_plan_whose_examples_exist() -> None:
    # one plan per demo the loader knows, in the order the memory quiz asks them (each of its questions has its own)
    assert set(DEMO_NAMES) == set(quiz.DEMOS)
    assert list(DEMO_NAMES) == [question.demo for question in quiz.find_quiz("gpu-memory").questions]
    index = tomllib.loads((EXAMPLES / "examples.toml").read_text(encoding="utf-8"))
    for demo in DEMO_NAMES:
        plan = plan_for(demo)
        assert plan.demo == demo
        if plan.kind == "lab":
            assert plan.examples == ()
            continue
        assert plan.examples, demo
        for name in plan.examples:
            assert example_path(name).is_file() and name in index, (demo, name)
        assert len(plan.titles) == (2 if plan.kind in ("pair", "whatif") else 1)
    assert plan_for("expandable_whatif").overrides == ("expandable_segments:True",)
    with pytest.raises(DemoError, match="unknown demo 'nope'"):
        plan_for("nope")


def test_caption_sizes_take_two_decimals_only_where_one_would_print_two_sizes_alike() -> None:
    assert sizes(3 * GiB, 512 * MiB) == ["3.0 GiB", "512.0 MiB"]
    assert sizes(1536 * MiB, 1530 * MiB, 2 * GiB) == ["1.50 GiB", "1.49 GiB", "2.00 GiB"]
    assert sizes(1536 * MiB, 1536 * MiB) == ["1.5 GiB", "1.5 GiB"]  # the same size twice is no ambiguity
    assert sizes(512, 300) == ["512 B", "300 B"]
    assert (plural(1, "hole"), plural(1200, "hole")) == ("1 hole", "1,200 holes")


def test_a_lab_or_a_pair_is_not_a_single_snapshot_demo() -> None:
    snap = _load("kv_cache_paged")
    with pytest.raises(DemoError, match="lab"):
        foci_for("checkpointing_lab", [snap])
    with pytest.raises(DemoError, match="pair"):
        focus_for("kv_cache", snap)
    with pytest.raises(DemoError, match="needs 2"):
        foci_for("kv_cache", [snap])
    with pytest.raises(DemoError, match="no OOM"):
        focus_for("fragmented_oom", _load("cache_reuse"))
    with pytest.raises(DemoError, match="no empty_cache"):
        focus_for("empty_cache_live_tensor", _load("cache_reuse"))


# -- Q1 fragmentation -----------------------------------------------------------------------------------------


def test_fragmented_oom_request_exceeds_the_largest_hole_but_not_the_free_total() -> None:
    snap = _load("fragmented_oom")
    focus = focus_for("fragmented_oom", snap)
    timeline = build_timeline(snap, focus.device)
    assert snap.trace(focus.device).action[focus.event] == Action.OOM
    state = timeline.state_at(focus.event)
    m = compute_metrics(state)
    request = int(snap.trace(focus.device).size[focus.event])
    assert m.largest_free_block_bytes < request < m.free_bytes
    # the highlighted blocks are exactly the holes at the OOM
    assert np.array_equal(focus.block_mask, state.blocks.state == BlockState.INACTIVE)
    assert int(state.blocks.size[focus.block_mask].sum()) == m.free_bytes
    assert focus.facts["request_bytes"] == request
    assert focus.facts["largest_hole_bytes"] == m.largest_free_block_bytes
    assert focus.facts["holes"] == m.free_blocks
    for value in (request, m.largest_free_block_bytes, m.free_bytes):
        assert format_bytes(value) in focus.caption
    assert f"{m.free_blocks} holes" in focus.caption
    assert [(k.start, k.end) for k in focus.timeline_marks] == [(focus.event, focus.event)]


def test_fragmentation_focus_follows_the_data_it_is_given() -> None:
    # another program's OOM: the focus's event, figures and blocks are that program's, not the example's
    sim = DeviceAllocatorSim(1 * GiB)
    sim.free(sim.malloc(900 * MiB))  # one cached segment, which the next blocks split
    held = [sim.malloc(100 * MiB) for _ in range(9)]
    for block in held[::2]:
        sim.free(block)
    with contextlib.suppress(OutOfMemoryError):
        sim.malloc(300 * MiB)
    snap = _snapshot_of(sim, "made.pickle")
    focus = focus_for("fragmented_oom", snap)
    state = _state(focus, snap)
    holes = state.blocks.size[state.blocks.state == BlockState.INACTIVE]
    assert focus.event == len(snap.trace(0)) - 1
    assert focus.facts["request_bytes"] == 300 * MiB
    assert focus.facts["largest_hole_bytes"] == int(holes.max()) < 300 * MiB
    assert focus.facts["holes"] == len(holes) == int(focus.block_mask.sum())
    assert format_bytes(300 * MiB) in focus.caption


# -- Q2 caching -----------------------------------------------------------------------------------------------


def test_cache_reuse_has_far_more_allocations_than_cuda_mallocs() -> None:
    snap = _load("cache_reuse")
    focus = focus_for("cache_reuse", snap)
    trace = snap.trace(focus.device)
    allocs = int((trace.action == Action.ALLOC).sum())
    mallocs = int(np.isin(trace.action, (Action.SEGMENT_ALLOC, Action.SEGMENT_MAP)).sum())
    assert focus.facts["allocations"] == allocs and focus.facts["cuda_mallocs"] == mallocs
    assert allocs > 50 * mallocs
    assert focus.facts["served_from_cache"] == allocs - mallocs  # each cudaMalloc here served one allocation
    assert f"{allocs:,} allocations" in focus.caption and f"{mallocs} cudaMalloc calls" in focus.caption
    spans = [(k.start, k.end) for k in focus.timeline_marks]
    grows = np.flatnonzero(np.isin(trace.action, (Action.SEGMENT_ALLOC, Action.SEGMENT_MAP)))
    assert spans[0] == (int(grows[0]), int(grows[-1]))
    assert spans[1][1] == len(trace) - 1
    assert not np.isin(trace.action[spans[1][0] :], (Action.SEGMENT_ALLOC, Action.SEGMENT_MAP)).any()

    # the highlighted blocks are the live ones whose allocation found room in memory reserved before it
    state = _state(focus, snap)
    assert focus.block_mask.any()
    allocs_so_far = np.flatnonzero(trace.action[: focus.event + 1] == Action.ALLOC)
    for i in np.flatnonzero(state.blocks.state == BlockState.ALLOCATED):
        addr = int(state.blocks.address[i])
        alloc = int(allocs_so_far[trace.addr[allocs_so_far] == addr][-1])  # the event that made this block
        grew = alloc > 0 and trace.action[alloc - 1] in (Action.SEGMENT_ALLOC, Action.SEGMENT_MAP)
        assert bool(focus.block_mask[i]) == (not grew), addr
    assert not focus.block_mask[state.blocks.state != BlockState.ALLOCATED].any()


# -- Q3 OOM despite reserved memory ---------------------------------------------------------------------------


def test_split_blocks_oom_highlights_inactive_split_blocks() -> None:
    snap = _load("split_blocks_oom")
    focus = focus_for("split_blocks_oom", snap)
    state = _state(focus, snap)
    blk = state.blocks
    m = compute_metrics(state)
    assert focus.block_mask.any()
    for i in np.flatnonzero(focus.block_mask):
        assert blk.state[i] == BlockState.INACTIVE
        in_segment = blk.segment == blk.segment[i]
        assert (blk.state[in_segment] == BlockState.ALLOCATED).any()  # pinned by a live neighbour
    # and every such block is highlighted: torch's inactive_split figure is their sum
    assert int(blk.size[focus.block_mask].sum()) == m.inactive_split_bytes == focus.facts["inactive_split_bytes"]
    request = focus.facts["request_bytes"]
    assert m.largest_free_block_bytes < request < m.free_bytes
    assert focus.facts["largest_hole_bytes"] == m.largest_free_block_bytes
    assert format_bytes(m.largest_free_block_bytes) in focus.caption and format_bytes(request) in focus.caption


# -- Q4 expandable segments -----------------------------------------------------------------------------------


def test_expandable_replay_serves_the_request_the_recorded_run_failed() -> None:
    plan = plan_for("expandable_whatif")
    original = _load(plan.examples[0])
    run = run_whatif(plan, original)
    assert run.result.original.oom_events >= 1 and run.result.replayed.oom_events == 0
    assert build_timeline(original, 0).ooms and not run.timeline.ooms
    recorded, replayed = foci_for("expandable_whatif", [original, run.snapshot], [None, run.timeline])
    assert recorded.facts["ooms"] >= 1 and replayed.facts["ooms"] == 0 and replayed.facts["served"] == 1
    # the replayed focus is the same request, served: one allocated block of at least the request's size
    trace = run.snapshot.trace(replayed.device)
    assert trace.action[replayed.event] == Action.ALLOC
    assert int(trace.size[replayed.event]) == recorded.facts["request_bytes"]
    state = run.timeline.state_at(replayed.event)
    (block,) = np.flatnonzero(replayed.block_mask)
    assert state.blocks.state[block] == BlockState.ALLOCATED
    assert int(state.blocks.size[block]) >= recorded.facts["request_bytes"]
    assert "expandable_segments:True" in replayed.caption and "OOMs 1 -> 0" in replayed.caption
    # the recorded side is the OOM with its holes
    o_state = _state(recorded, original)
    assert np.array_equal(recorded.block_mask, o_state.blocks.state == BlockState.INACTIVE)
    assert whatif_foci(original, run.snapshot)[1].event == replayed.event
    assert focus_for("expandable_whatif", original).caption == recorded.caption  # shown before the replay is done


# -- Q5 PagedAttention ----------------------------------------------------------------------------------------


def test_kv_cache_contiguous_wastes_more_than_paged() -> None:
    contiguous, paged = _load("kv_cache_contiguous"), _load("kv_cache_paged")
    c, p = foci_for("kv_cache", [contiguous, paged])
    for focus, snap in ((c, contiguous), (p, paged)):
        state = _state(focus, snap)
        blk = state.blocks
        assert focus.block_mask.any()
        assert np.all(blk.state[focus.block_mask] == BlockState.ALLOCATED)
        for s in np.unique(blk.stack[focus.block_mask]):
            assert any(KV_CACHE_SITE in f.filename for f in snap.stacks.stack(int(s)))
        assert focus.facts["kv_bytes"] == int(blk.size[focus.block_mask].sum())
    # the paged run's KV cache is one pool allocated at startup, as large as the contiguous run's peak (25 buffers)
    assert p.facts["kv_blocks"] == 1 and p.facts["kv_bytes"] == (c.facts["kv_blocks"] + 1) * c.facts["buffer_bytes"]
    assert p.facts["pool_pages"] * p.facts["page_bytes"] == p.facts["kv_bytes"]
    assert c.facts["unused_bytes"] == c.facts["kv_bytes"] - p.facts["paged_kv_bytes"] > 0
    assert p.facts["paged_kv_bytes"] == p.facts["pages"] * p.facts["page_bytes"]
    live = c.facts["kv_blocks"] + p.facts["more_requests"]
    assert p.facts["unused_bytes"] == live * p.facts["page_bytes"]  # one partial page per request
    assert c.facts["unused_bytes"] > p.facts["unused_bytes"]
    assert c.facts["buffer_bytes"] > 100 * p.facts["page_bytes"]
    assert p.facts["more_requests"] > 0 and 0 <= p.facts["pool_free_bytes"] < c.facts["buffer_bytes"]
    assert p.facts["reserved_bytes"] - c.facts["reserved_bytes"] <= 2 * MiB  # the pool keeps reserved flat
    assert format_bytes(c.facts["unused_bytes"]) in c.caption
    assert format_bytes(p.facts["paged_kv_bytes"]) in p.caption and format_bytes(p.facts["kv_bytes"]) in p.caption
    assert kv_cache_foci(contiguous, paged)[0].caption == c.caption


# -- Q7 empty_cache with a live tensor ------------------------------------------------------------------------


def test_empty_cache_keeps_allocated_and_the_live_block_and_drops_reserved() -> None:
    snap = _load("empty_cache_live_tensor")
    focus = focus_for("empty_cache_live_tensor", snap)
    timeline = build_timeline(snap, focus.device)
    before_event, after_event = int(focus.facts["before_event"]), int(focus.facts["after_event"])
    assert after_event == focus.event
    trace = snap.trace(focus.device)
    assert np.all(trace.action[before_event + 1 : after_event + 1] == Action.SEGMENT_FREE)
    before, after = compute_metrics(timeline.state_at(before_event)), compute_metrics(timeline.state_at(after_event))
    assert before.allocated_bytes == after.allocated_bytes == focus.facts["allocated_after_bytes"]
    assert after.reserved_bytes < before.reserved_bytes
    assert focus.facts["released_bytes"] == before.reserved_bytes - after.reserved_bytes
    # the live block is there after, at the same address and size as before
    state, old = timeline.state_at(after_event), timeline.state_at(before_event)
    live = np.flatnonzero(state.blocks.state == BlockState.ALLOCATED)
    assert len(live) >= 1 and np.array_equal(np.flatnonzero(focus.block_mask), live)
    for i in live:
        j = np.flatnonzero(old.blocks.address == state.blocks.address[i])
        assert len(j) == 1 and old.blocks.size[j[0]] == state.blocks.size[i]
        assert old.blocks.state[j[0]] == BlockState.ALLOCATED
    assert format_bytes(before.reserved_bytes) in focus.caption
    assert format_bytes(after.reserved_bytes) in focus.caption


def test_empty_cache_focus_on_another_program() -> None:
    sim = DeviceAllocatorSim(8 * GiB)
    a, b = sim.malloc(30 * MiB), sim.malloc(600 * MiB)
    keep = [sim.malloc(4 * MiB), sim.malloc(64 * MiB)]
    sim.free(a)
    sim.free(b)
    sim.empty_cache()
    snap = _snapshot_of(sim, "made.pickle")
    focus = focus_for("empty_cache_live_tensor", snap)
    assert focus.facts["live_blocks"] == len(keep) == focus.facts["live_blocks_present_before"]
    assert focus.facts["live_bytes"] == 68 * MiB
    assert focus.facts["allocated_before_bytes"] == focus.facts["allocated_after_bytes"]
    assert focus.facts["released_bytes"] > 0 and "2 live blocks" in focus.caption


# -- Q8 reserved vs allocated ---------------------------------------------------------------------------------


def test_reserved_vs_allocated_gap_is_the_cached_blocks() -> None:
    snap = _load("reserved_vs_allocated")
    focus = focus_for("reserved_vs_allocated", snap)
    state = _state(focus, snap)
    m = compute_metrics(state)
    assert m.reserved_bytes > m.allocated_bytes
    assert focus.bracket is not None
    assert (focus.bracket.reserved_bytes, focus.bracket.allocated_bytes) == (m.reserved_bytes, m.allocated_bytes)
    assert np.all(state.blocks.state[focus.block_mask] != BlockState.ALLOCATED)
    assert int(state.blocks.size[focus.block_mask].sum()) == m.reserved_bytes - m.allocated_bytes
    assert focus.facts["gap_bytes"] == focus.bracket.gap_bytes == m.free_bytes + m.pending_free_bytes
    assert format_bytes(m.reserved_bytes - m.allocated_bytes) in focus.caption
    peak = focus.timeline_marks[0]
    assert peak.start == int(np.argmax(build_timeline(snap, 0).series.allocated))


def test_mask_for_matches_a_filtered_state_by_address() -> None:
    snap = _load("kv_cache_contiguous")  # one KV buffer per 512 MiB segment (the paged run has one pool)
    focus, _p = foci_for("kv_cache", [snap, _load("kv_cache_paged")])
    state = _state(focus, snap)
    assert focus.mask_for(state) is focus.block_mask
    keep = np.flatnonzero(state.segments.total_size == 512 * MiB)[::3]
    subset = state.take_segments(keep)
    mask = focus.mask_for(subset)
    expected = np.isin(subset.blocks.address, state.blocks.address[focus.block_mask])
    assert mask.any() and np.array_equal(mask, expected)


# -- views ------------------------------------------------------------------------------------------------------


def _document(snap: Snapshot, qtbot: Any) -> Any:
    from gpumem_gui.views.snapshot.tab import SnapshotTab  # noqa: PLC0415

    doc = SnapshotTab(snap, timelines={0: build_timeline(snap, 0)})
    qtbot.addWidget(doc)
    doc.resize(1400, 900)
    doc.show()
    qtbot.waitExposed(doc)
    return doc


def test_show_me_moves_the_map_and_spotlights_the_right_blocks(qtbot: Any, tmp_path: Path) -> None:
    from gpumem_gui.views.common.palette import DIMMED  # noqa: PLC0415
    from gpumem_gui.views.snapshot.map_view import ROW_PIXELS  # noqa: PLC0415
    from gpumem_gui.views.teach.demo_focus import apply_focus  # noqa: PLC0415

    snap = _load("cache_reuse")
    doc = _document(snap, qtbot)
    doc.pool_box.setCurrentIndex(1)  # a filter the focus must undo: its mask is over every pool
    before = doc.map.image_data.copy()
    assert doc.map.highlight is None and doc.map.focus_caption.isHidden()
    focus = focus_for("cache_reuse", snap)
    apply_focus(doc, focus)
    assert doc.pool_box.currentIndex() == 0
    assert doc.current_event == focus.event != len(snap.trace(0)) - 1
    expected = build_timeline(snap, 0).state_at(focus.event)
    assert doc.map.state is not None and np.array_equal(doc.map.state.blocks.address, expected.blocks.address)
    assert not np.array_equal(doc.map.image_data, before) or before.shape != doc.map.image_data.shape
    assert doc.map.spotlight and np.array_equal(doc.map.highlight, focus.block_mask)
    assert not doc.map.focus_caption.isHidden() and doc.map.focus_caption.text() == focus.caption
    assert doc.timeline_view.focus_marks == focus.timeline_marks and doc.timeline_view.focus_items
    assert abs(doc.timeline_view.cursor_line.value() - focus.event) < 0.5

    # the overlay fades what is outside the focus and leaves the focused blocks' own colours
    pixels = doc.map.highlight_pixels()
    rgba = doc.map.overlay.image
    assert pixels.any() and rgba.shape[:2] == pixels.shape
    block_rows = np.zeros(pixels.shape, bool)
    block_rows[np.arange(pixels.shape[0]) % ROW_PIXELS != ROW_PIXELS - 1] = True
    assert np.all(rgba[pixels & block_rows][:, 3] == 0)
    outside = (doc.map.image_data > 0) & ~pixels
    assert outside.any() and np.all(rgba[outside] == DIMMED)
    doc.grab().save(str(tmp_path / "cache_reuse_focus.png"))

    # travelling elsewhere ends the map's focus, the timeline keeps its marks
    doc.travel_to(10)
    assert doc.map.highlight is None and not doc.map.spotlight and doc.map.focus_caption.isHidden()
    assert doc.timeline_view.focus_marks == focus.timeline_marks


def test_show_me_fragmented_oom_highlights_the_holes(qtbot: Any) -> None:
    from gpumem_gui.views.teach.demo_focus import apply_focus, clear_focus  # noqa: PLC0415

    snap = _load("fragmented_oom")
    doc = _document(snap, qtbot)
    doc.travel_to(5)
    focus = focus_for("fragmented_oom", snap)
    apply_focus(doc, focus)
    assert doc.current_event == focus.event
    assert doc.state is not None
    assert np.array_equal(doc.map.highlight, doc.state.blocks.state == BlockState.INACTIVE)
    assert "largest hole" in doc.map.focus_caption.text()
    clear_focus(doc)
    assert doc.map.highlight is None and doc.map.focus_caption.isHidden() and not doc.timeline_view.focus_items


def test_show_me_brackets_reserved_and_allocated(qtbot: Any, tmp_path: Path) -> None:
    from gpumem_gui.views.teach.demo_focus import apply_focus  # noqa: PLC0415

    snap = _load("reserved_vs_allocated")
    doc = _document(snap, qtbot)
    focus = focus_for("reserved_vs_allocated", snap)
    assert not doc.figures.bracket_shown()
    apply_focus(doc, focus)
    bar = doc.figures.gap_bar
    assert doc.figures.bracket_shown() and focus.bracket is not None
    assert (bar.reserved, bar.allocated) == (focus.bracket.reserved_bytes, focus.bracket.allocated_bytes)
    assert 0 < bar.split_x() < 0.5  # most of what is reserved is not allocated
    assert doc.figures.values["reserved_bytes"].styleSheet()  # the bracketed rows stand out
    assert int(doc.state.blocks.size[doc.map.highlight].sum()) == focus.bracket.gap_bytes
    doc.grab().save(str(tmp_path / "reserved_vs_allocated_focus.png"))
    doc.travel_to(3)
    assert not doc.figures.bracket_shown() and not doc.figures.values["reserved_bytes"].styleSheet()


def test_show_me_side_by_side_and_what_if(qtbot: Any) -> None:
    from gpumem_gui.document import SnapshotDocument  # noqa: PLC0415
    from gpumem_gui.document.staging import WhatIfRun  # noqa: PLC0415
    from gpumem_gui.views.compare.whatif_view import WhatIfView  # noqa: PLC0415
    from gpumem_gui.views.teach.demo_focus import apply_compare_focus, apply_focus  # noqa: PLC0415

    contiguous, paged = _load("kv_cache_contiguous"), _load("kv_cache_paged")
    for snap, focus in zip((contiguous, paged), foci_for("kv_cache", [contiguous, paged]), strict=True):
        doc = _document(snap, qtbot)
        apply_focus(doc, focus)
        assert np.array_equal(doc.map.highlight, focus.block_mask) and doc.map.focus_caption.text() == focus.caption

    plan = plan_for("expandable_whatif")
    original = _load("fragmented_oom")
    run = run_whatif(plan, original)
    o_timeline = build_timeline(original, 0)
    documents = (SnapshotDocument(original, {0: o_timeline}), SnapshotDocument(run.snapshot, {0: run.timeline}))
    compare = WhatIfView(WhatIfRun(run.result, *documents))
    qtbot.addWidget(compare)
    foci = whatif_foci(original, run.snapshot, plan, run.timeline, o_timeline)
    apply_compare_focus(compare, foci)
    for view, timeline, focus in zip(compare.maps, (o_timeline, run.timeline), foci, strict=True):
        assert view.state is not None
        assert np.array_equal(view.state.blocks.address, timeline.state_at(focus.event).blocks.address)
        assert np.array_equal(view.highlight, focus.block_mask) and view.focus_caption.text() == focus.caption
    assert abs(compare.cursor_line.value() - foci[0].event) < 0.5
    assert int(compare.maps[1].highlight.sum()) == 1
