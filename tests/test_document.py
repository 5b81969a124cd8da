"""The document layer without Qt: frames, filters, every search form, travel, devices, live replacement, details.

Each frame is checked against what the core computes by another road (the raw pickle's trace, hand-built masks,
a per-segment loop), not against the document's own earlier output."""

from __future__ import annotations

import pickle
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

from gpumem_gui.core import BlockState, load_snapshot
from gpumem_gui.core.allocator.simulator import DeviceAllocatorSim
from gpumem_gui.core.analysis.metrics import compute_metrics
from gpumem_gui.core.analysis.timetravel import build_timeline
from gpumem_gui.core.rules.allocator_constants import MiB
from gpumem_gui.document import SnapshotDocument
from gpumem_gui.document.filters import Filters
from tests.conftest import fixture_path, load_raw

FRAMES_A = [{"name": "attention_forward", "filename": "/work/model/attn.py", "line": 12}]
FRAMES_B = [{"name": "mlp_forward", "filename": "/work/model/mlp.py", "line": 40}]


def _hand_made() -> tuple[SnapshotDocument, dict[str, Any]]:
    """Three blocks of known sizes on two streams, one freed: a layout worked out by hand."""
    sim = DeviceAllocatorSim(8 << 30)
    a = sim.malloc(3 * MiB, stream=0, frames=FRAMES_A)  # large pool: a 20 MiB segment, split
    b = sim.malloc(5 * MiB, stream=0, frames=FRAMES_B)
    c = sim.malloc(2 * MiB, stream=7, frames=FRAMES_B)  # another stream: a segment of its own
    sim.free(a)
    dump = sim.snapshot()
    blocks = {"a": a, "b": b, "c": c}
    return SnapshotDocument(load_snapshot(pickle.dumps(dump))), blocks


def test_the_document_layer_imports_no_qt() -> None:
    code = "import sys, gpumem_gui.document; print(sorted(m for m in sys.modules if m.split('.')[0] in BANNED))"
    banned = "BANNED = {'PySide6', 'pyqtgraph', 'torch'}; "
    out = subprocess.run([sys.executable, "-c", banned + code], capture_output=True, text=True, check=True, timeout=60)
    assert out.stdout.strip() == "[]"


def test_a_hand_made_layout_gives_the_hand_worked_frame() -> None:
    doc, blocks = _hand_made()
    frame = doc.frame()
    assert frame.position == "at the snapshot" and frame.event == frame.n_events - 1
    m = frame.metrics
    assert m.allocated_bytes == 5 * MiB + 2 * MiB  # a was freed
    assert m.reserved_bytes == int(frame.state.segments.total_size.sum())
    assert m.free_bytes == m.reserved_bytes - m.allocated_bytes
    # per segment: the 20 MiB segment of stream 0 holds b and two holes (a's 3 MiB, the 12 MiB tail)
    seg0 = int(np.flatnonzero(frame.state.segments.stream == 0)[0])
    assert frame.segments.free_bytes[seg0] == 3 * MiB + 12 * MiB
    assert frame.segments.largest_free[seg0] == 12 * MiB
    assert frame.segments.block_count[seg0] == 3
    # the event the frame is after: the free of a
    info = frame.event_info
    assert info is not None and info.action in ("free_completed", "free_requested")
    assert info.address == blocks["a"].addr and info.size == 3 * MiB


def test_filters_keep_exactly_the_segments_asked_for() -> None:
    doc, _ = _hand_made()
    everything = doc.frame().state
    frame = doc.set_stream(7)
    assert set(frame.state.segments.stream.tolist()) == {7}
    assert frame.metrics.allocated_bytes == 2 * MiB
    frame = doc.set_stream(None)
    assert len(frame.state.segments) == len(everything.segments)
    small = doc.set_pool("small").state
    assert not len(small.segments)  # nothing of ours is under 1 MiB
    large = doc.set_pool("large").state
    assert len(large.segments) == len(everything.segments)
    with pytest.raises(ValueError, match="unknown pool filter"):
        Filters("medium")  # type: ignore[arg-type]


def test_every_search_form() -> None:
    doc, blocks = _hand_made()
    state = doc.frame().state
    address = blocks["b"].addr
    inside = doc.set_search(f"{address + 100:#x}")
    assert inside.search_mask is not None and inside.search_mask.sum() == 1
    assert int(state.blocks.address[inside.search_mask][0]) == address
    assert list(inside.table_rows) == list(np.flatnonzero(inside.search_mask))
    sizes = doc.set_search("4MiB-6MiB").search_mask
    assert sizes is not None and state.blocks.size[sizes].tolist() == [5 * MiB]
    text = doc.set_search("mlp_forward").search_mask  # b and c, live; a's stack is attention
    assert text is not None and sorted(state.blocks.size[text].tolist()) == [2 * MiB, 5 * MiB]
    by_file = doc.set_search("ATTN.PY").search_mask  # a's block is free now: a search finds live blocks only
    assert by_file is not None and not by_file.any()
    bad_address = doc.set_search("0xzz").search_mask
    assert bad_address is not None and not bad_address.any()
    cleared = doc.set_search("  ")
    assert cleared.search_mask is None and len(cleared.table_rows) == len(state.blocks)


def test_a_search_stays_across_travel_and_a_selection_does_not() -> None:
    doc, _ = _hand_made()
    doc.set_search("mlp_forward")
    frame = doc.select_block(0)
    assert frame.highlight is not None and frame.highlight.tolist()[0] and frame.highlight.sum() == 1
    moved = doc.travel(1)
    assert moved.event == 1 and moved.search_mask is not None
    assert moved.highlight is moved.search_mask  # the pick ended, the search goes on


def test_travel_clamps_and_agrees_with_time_travel_on_a_real_file() -> None:
    snap = load_snapshot(fixture_path("cranberrii_memory_snapshot.pickle"))
    doc = SnapshotDocument(snap)
    tl = build_timeline(snap, doc.device)
    for event in (-5, -1, 0, tl.n_events // 3, tl.n_events - 1, tl.n_events + 10):
        frame = doc.travel(event)
        expected = tl.state_at(min(max(event, -1), tl.n_events - 1))
        assert frame.event == min(max(event, -1), tl.n_events - 1)
        assert np.array_equal(frame.state.blocks.address, expected.blocks.address)
        assert frame.metrics == compute_metrics(expected, doc.config)
    assert doc.travel(-1).position == "before the first event"
    assert doc.travel(10).position == f"after event 10 of {tl.n_events:,}"


def test_event_info_reads_what_the_pickle_says() -> None:
    path = fixture_path("cranberrii_memory_snapshot.pickle")
    raw = load_raw(path)
    doc = SnapshotDocument(load_snapshot(path))
    trace = raw["device_traces"][doc.device]
    for event in (0, 17, len(trace) // 2, len(trace) - 1):
        info = doc.travel(event).event_info
        entry = trace[event]
        assert info is not None and info.index == event
        assert (info.action, info.address, info.size, info.stream) == (
            entry["action"], entry["addr"], entry["size"], entry["stream"],
        )  # fmt: skip
        assert info.time_us == entry.get("time_us")
        names = {f["name"] for f in entry.get("frames", [])}
        assert {f.name for f in info.frames} <= names
    assert doc.travel(-1).event_info is None


def test_devices_and_a_two_gpu_file_opens_on_the_busy_one() -> None:
    snap = load_snapshot(fixture_path("constructor_memory_snapshot.pickle"))
    doc = SnapshotDocument(snap)
    assert doc.devices() == snap.devices() and doc.device == snap.default_device()
    other = next(d for d in doc.devices() if d != doc.device)
    frame = doc.set_device(other)
    assert frame.device == other and frame.event == len(snap.trace(other)) - 1
    assert set(frame.state.segments.device.tolist()) <= {other}


def test_pending_shows_the_final_state_until_the_timelines_arrive() -> None:
    snap = load_snapshot(fixture_path("cranberrii_memory_snapshot.pickle"))
    doc = SnapshotDocument(snap, pending=True)
    frame = doc.frame()
    assert frame.pending and frame.position == "indexing the trace..." and frame.event_info is None
    assert frame.title == f"GPU {doc.device}, at the snapshot"
    final = snap.state.for_device(doc.device)
    assert np.array_equal(frame.state.blocks.address, final.blocks.address)
    tl = build_timeline(snap, doc.device)
    after = doc.set_timelines({doc.device: tl})
    assert not after.pending and after.event == tl.n_events - 1 and after.position == "at the snapshot"


def test_live_replacement_keeps_the_choices_that_still_apply() -> None:
    doc, _ = _hand_made()
    doc.set_stream(7)
    doc.set_layout("segment", "free")
    newer, _ = _hand_made()
    frame = doc.replace_snapshot(newer.snapshot, {})
    assert doc.filters.stream == 7 and frame.layout.mode == "segment" and doc.layout == ("segment", "free")
    sim = DeviceAllocatorSim(8 << 30)
    sim.malloc(3 * MiB, stream=0, frames=FRAMES_A)
    only_stream_0 = load_snapshot(pickle.dumps(sim.snapshot()))
    frame = doc.replace_snapshot(only_stream_0, {})
    assert doc.filters.stream is None and len(frame.state.segments) == 1  # stream 7 is gone: all streams


def test_spotlight_belongs_to_one_frame_and_details_read_the_segment() -> None:
    doc, blocks = _hand_made()
    frame = doc.set_spotlight(lambda state: state.blocks.state == BlockState.INACTIVE, "the holes")
    assert frame.spotlight is not None and frame.spotlight.caption == "the holes"
    assert frame.spotlight.mask.tolist() == (frame.state.blocks.state == BlockState.INACTIVE).tolist()
    index = int(np.flatnonzero(frame.state.blocks.address == blocks["b"].addr)[0])
    details = doc.block_details(index)
    assert details.frames[0].name == "mlp_forward"
    assert (details.segment_size, details.segment_blocks) == (20 * MiB, 3)
    assert (details.segment_free, details.segment_largest_free) == (15 * MiB, 12 * MiB)
    assert doc.travel(0).spotlight is None


def test_layouts_and_codes_cover_every_segment() -> None:
    snap = load_snapshot(fixture_path("cranberrii_memory_snapshot.pickle"))
    doc = SnapshotDocument(snap)
    for mode, sort in (("address", "size"), ("segment", "size"), ("segment", "free")):
        frame = doc.set_layout(mode, sort)
        assert frame.layout.mode == mode and frame.codes.shape == (len(frame.layout), frame.layout.width)
        assert set(np.unique(frame.layout.row_segment).tolist()) == set(range(len(frame.state.segments)))


def test_warnings_name_a_segment_whose_blocks_fall_short_and_the_view_shows_them(qtbot: Any) -> None:
    from gpumem_gui.views.snapshot.tab import SnapshotTab  # noqa: PLC0415

    sim = DeviceAllocatorSim(8 << 30)
    sim.malloc(3 * MiB, frames=FRAMES_A)
    dump = sim.snapshot()
    segment = dump["segments"][0]
    dropped = segment["blocks"].pop()  # the 17 MiB free tail: the segment's blocks now cover 3 of its 20 MiB
    assert dropped["state"] == "inactive" and dropped["size"] == 17 * MiB
    doc = SnapshotDocument(load_snapshot(pickle.dumps(dump)))
    notes = doc.warnings()
    assert len(notes) == 1 and f"{segment['address']:#x}" in notes[0]
    view = SnapshotTab(doc)
    qtbot.addWidget(view)
    assert view.notice.isVisibleTo(view) and notes[0] in view.notice.text()
    clean, _ = _hand_made()
    other = SnapshotTab(clean)
    qtbot.addWidget(other)
    assert clean.warnings() == [] and not other.notice.isVisibleTo(other)


def test_focus_at_shows_every_pool_and_stream_at_the_event_with_its_spotlight() -> None:
    doc, _ = _hand_made()
    doc.set_stream(7)
    doc.set_pool("small")
    frame = doc.focus_at(1, lambda state: state.blocks.state == BlockState.ALLOCATED, "live ones")
    assert doc.filters == Filters() and frame.event == 1
    assert np.array_equal(frame.state.blocks.address, doc.timeline().state_at(1).blocks.address)
    assert frame.spotlight is not None and frame.spotlight.caption == "live ones"
    assert frame.spotlight.mask.tolist() == (frame.state.blocks.state == BlockState.ALLOCATED).tolist()
    assert doc.focus_at(10**6, lambda s: s.blocks.size > 0, "").event == frame.n_events - 1  # clamped like travel
