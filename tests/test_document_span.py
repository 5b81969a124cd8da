"""The document's span, flame graphs and age colouring, driven without Qt on the training_leak example and checked
against its raw trace walked by hand."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from gpumem_gui.assets import example_path
from gpumem_gui.core import load_snapshot
from gpumem_gui.core.analysis.block_age import AGE_BASE, AGE_BINS, age_edges
from gpumem_gui.core.analysis.rasterize import SITE_BASE, SITE_COLOURS
from gpumem_gui.core.analysis.span import Span
from gpumem_gui.core.rules.allocator_constants import MiB
from gpumem_gui.core.snapshot.model import BlockState
from gpumem_gui.document.document import SnapshotDocument
from gpumem_gui.document.event_list import EventFilter, EventTable
from tests.conftest import fixture_path, load_raw
from tests.site_oracle import raw_site

LEAK_SITE = "model/transformer.py:160:forward"


@pytest.fixture
def doc() -> SnapshotDocument:
    return SnapshotDocument(load_snapshot(example_path("training_leak")))


@pytest.fixture(scope="module")
def raw() -> list[dict[str, Any]]:
    return list(load_raw(example_path("training_leak"))["device_traces"][0])


def _live_by_hand(raw: list[dict[str, Any]], event: int) -> dict[int, tuple[int, str]]:
    """addr -> (alloc event, site) of the blocks allocated right after `event`, walking the raw entries."""
    live: dict[int, tuple[int, str]] = {}
    for i, e in enumerate(raw[: event + 1]):
        if e["action"] == "alloc":
            live[e["addr"]] = (i, raw_site(e.get("frames", [])) or "unknown")
        elif e["action"] in ("free_requested", "free_completed"):
            live.pop(e["addr"], None)
    return live


def test_picking_a_step_scopes_the_report_the_flame_graph_and_the_event_list(
    doc: SnapshotDocument, raw: list[dict[str, Any]]
) -> None:
    names = [s.name for s in doc.named_spans()]
    assert names == [f"step {k}" for k in range(1, 7)]
    step = doc.named_spans()[2]
    frame = doc.set_span(step)
    assert frame.span == step and doc.span == step
    report = doc.span_report()
    assert report is not None
    assert [(s.site, s.bytes) for s in report.left_behind.by_site] == [(LEAK_SITE, 32 * MiB)]
    flame = doc.flame_frame("leaked")
    assert flame is not None and flame.leaves() == [(LEAK_SITE, 32 * MiB)]
    # the event list keeps the span's events only
    table = EventTable(doc.snapshot, doc.device, doc.timeline())
    span_events = doc.span_events()
    assert span_events == (step.start + 1, step.end)
    rows = table.filter(EventFilter(kind="allocations", span=span_events))
    assert rows.tolist() == [i for i in range(step.start + 1, step.end + 1) if raw[i]["action"] == "alloc"]
    assert table.filter(EventFilter(span=span_events)).tolist() == list(range(step.start + 1, step.end + 1))
    with pytest.raises(ValueError, match="not within the trace"):
        doc.set_span(Span(5, doc.n_events))
    assert doc.set_span(None).span is None and doc.span_report() is None


def test_a_clicked_flame_frame_lights_its_blocks_on_the_map(doc: SnapshotDocument, raw: list[dict[str, Any]]) -> None:
    step = doc.named_spans()[2]
    doc.set_span(step)
    doc.travel(step.end)
    flame = doc.flame_frame("live")
    assert flame is not None
    row = [flame.label(i) for i in range(len(flame))].index(LEAK_SITE)
    frame = doc.light_flame_frame(flame, row)
    assert frame.spotlight is not None
    lit = sorted(frame.state.blocks.address[frame.spotlight.mask].tolist())
    by_hand = sorted(a for a, (_, site) in _live_by_hand(raw, step.end).items() if site == LEAK_SITE)
    assert lit == by_hand and len(lit) == 3  # the hidden states of steps 1 to 3
    through = doc.flame_lifetimes(flame, row)
    assert int(through.sum()) == 6  # one per step over the whole trace
    # its band on the site timeline: the leak's bytes after every event where they change, as walked by hand
    events, values = doc.flame_band(flame, row)
    for event, value in zip(events.tolist(), values.tolist(), strict=True):
        held = sum(1 for _, site in _live_by_hand(raw, event).values() if site == LEAK_SITE)
        assert value == held * 32 * MiB
    assert values.tolist() == [32 * MiB * k for k in range(1, 7)]  # kept, never freed: one step each


def test_the_map_coloured_by_age(doc: SnapshotDocument, raw: list[dict[str, Any]]) -> None:
    event = 700
    doc.travel(event)
    site_frame = doc.frame()
    assert site_frame.colouring == "site" and site_frame.age_legend == ()
    frame = doc.set_colouring("age")
    assert frame.colouring == "age"
    legend = frame.age_legend
    assert [b.code for b in legend] == [*range(AGE_BASE, AGE_BASE + len(legend) - 1), AGE_BASE + AGE_BINS - 1]
    assert legend[0].low == 0 and legend[-2].high == event and legend[-1].label == "alive before recording began"
    codes = frame.codes
    assert not np.any((codes >= SITE_BASE) & (codes < SITE_BASE + SITE_COLOURS))  # no site hue is left
    # each allocated block's code, from its allocation event found in the raw trace
    live = _live_by_hand(raw, event)
    edges = age_edges(event)
    state = frame.state
    for address in state.blocks.address[state.blocks.state == BlockState.ALLOCATED].tolist():
        born, _site = live[address]
        code = AGE_BASE + int(np.searchsorted(edges, event - born, "right")) - 1
        bin_ = next(b for b in legend if b.code == code)
        assert bin_.low <= event - born <= bin_.high
    assert {AGE_BASE, AGE_BASE + len(legend) - 2} <= set(np.unique(codes).tolist())  # churn and the weights
    assert legend[0].seconds_ago is not None and legend[0].seconds_ago[0] == 0.0
    with pytest.raises(ValueError, match="unknown colouring"):
        doc.set_colouring("heat")


def test_a_file_without_a_trace_has_no_span_and_still_a_flame_graph() -> None:
    snap = load_snapshot(fixture_path("felix_dump_a.pickle"))
    doc = SnapshotDocument(snap)
    assert doc.n_events == 0 and doc.named_spans() == []
    with pytest.raises(ValueError, match="no trace"):
        doc.set_span(Span(-1, 0))
    flame = doc.flame_frame("live")
    state = doc.frame().state
    allocated = int(state.blocks.size[state.blocks.state == BlockState.ALLOCATED].sum())
    assert flame is not None and flame.total == allocated > 0
    leaked, count = doc.flame_frame("leaked"), doc.flame_frame("count")
    assert leaked is not None and count is not None and leaked.total == count.total == 0
    frame = doc.set_colouring("age")  # every block was alive before recording began
    codes = set(frame.codes[frame.codes >= AGE_BASE].tolist())
    assert codes == {AGE_BASE + AGE_BINS - 1}
