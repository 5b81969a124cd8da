"""Memory by allocation site over time: a hand-worked trace, the replay's allocated series and breakdown_at on real
files, the decimated samples against every event's exact value, and the blocks a band's mask picks."""

from __future__ import annotations

import pickle
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from gpumem_gui.assets import example_path
from gpumem_gui.core import BlockState, load_snapshot
from gpumem_gui.core.allocator.simulator import DeviceAllocatorSim
from gpumem_gui.core.analysis.breakdown import before_recording_mask, breakdown_at
from gpumem_gui.core.analysis.site_series import (
    GROUPINGS,
    OTHER_SITES,
    BandSeries,
    SiteSeries,
    block_mask,
    build_bands,
    build_site_series,
)
from gpumem_gui.core.analysis.timetravel import NEVER, DeviceTimeline, build_timeline
from gpumem_gui.core.rules.allocator_constants import MiB
from gpumem_gui.core.snapshot.model import Snapshot
from gpumem_gui.core.snapshot.stacks import BEFORE_RECORDING_SITE, stack_site_label
from tests.conftest import fixture_path

ATTN = [{"name": "attention_forward", "filename": "/work/model/attn.py", "line": 12}]
MLP = [{"name": "mlp_forward", "filename": "/work/model/mlp.py", "line": 40}]
A, B = "/work/model/attn.py:12:attention_forward", "/work/model/mlp.py:40:mlp_forward"

FIXTURES = [
    ("cranberrii_memory_snapshot.pickle", 0),
    ("magma27_memory_snapshot.pickle", 0),
    ("constructor_memory_snapshot.pickle", 1),
    ("constructor_memory_snapshot.pickle", 2),
]
EXAMPLES = ["fragmented_oom", "training_leak", "checkpointing_sqrt", "kv_cache_paged", "fragmented_expandable"]


def _hand_made() -> tuple[Snapshot, DeviceTimeline]:
    """a (3 MiB, attn) and b (5 MiB, mlp) allocated before recording began (their events cut from the trace), then:
    0 segment_alloc (stream 7)  1 alloc c 2 MiB mlp, stream 7   2 segment_alloc (small)  3 alloc d 1 MiB, no frames
    4 free_requested a   5 free_completed a   6 alloc 4 MiB attn   7 free_requested b   8 free_completed b
    9 alloc 512 B attn (small pool)."""
    sim = DeviceAllocatorSim(8 << 30)
    a = sim.malloc(3 * MiB, frames=ATTN)
    b = sim.malloc(5 * MiB, frames=MLP)
    sim.malloc(2 * MiB, stream=7, frames=MLP)
    sim.malloc(1 * MiB)
    sim.free(a)
    sim.malloc(4 * MiB, frames=ATTN)
    sim.free(b)
    sim.malloc(512, frames=ATTN)
    dump = sim.snapshot()
    dump["device_traces"][0] = dump["device_traces"][0][3:]  # recording began after a and b
    snapshot = load_snapshot(pickle.dumps(dump))
    return snapshot, build_timeline(snapshot, 0)


def _values(bands: BandSeries, key: object, n: int) -> list[int]:
    return [int(v) for v in bands.at(np.arange(-1, n))[bands.band_index(key)]]


def test_a_hand_made_trace_gives_the_hand_worked_bytes_of_each_band() -> None:
    snapshot, timeline = _hand_made()
    n = timeline.n_events
    assert n == 10
    series = build_site_series(snapshot, timeline)
    site = series.groupings["site"]
    # a and b are allocated before recording began, whatever stack their frees carry: the trace shows no
    # allocation whose free repeats its stack, so those stacks may be the lines that freed them
    #            event:  -1      0       1       2       3       4   5   6       7       8       9
    assert _values(site, A, n) == [0] * 7 + [4 * MiB] * 3 + [4 * MiB + 512]
    assert _values(site, B, n) == [0, 0] + [2 * MiB] * 9
    assert _values(site, BEFORE_RECORDING_SITE, n) == [8 * MiB] * 5 + [5 * MiB] * 3 + [0] * 3
    assert _values(site, "unknown", n) == [0] * 4 + [1 * MiB] * 7
    assert [(b.key, b.peak_bytes, b.peak_event) for b in site.bands] == [
        (A, 4 * MiB + 512, 9),
        (B, 2 * MiB, 1),
        (BEFORE_RECORDING_SITE, 8 * MiB, -1),
        ("unknown", 1 * MiB, 3),
    ]
    category = series.groupings["category"]
    assert _values(category, "before_recording", n) == [8 * MiB] * 5 + [5 * MiB] * 3 + [0] * 3
    stream = series.groupings["stream"]
    assert _values(stream, 7, n) == [0, 0] + [2 * MiB] * 9
    pool = series.groupings["pool"]
    assert _values(pool, "small", n) == [0] * 4 + [1 * MiB] * 6 + [1 * MiB + 512]
    assert _values(pool, "large", n) == [8 * MiB] * 2 + [10 * MiB] * 3 + [7 * MiB] * 2 + [11 * MiB] + [6 * MiB] * 3


def test_sites_outside_the_top_n_are_one_band() -> None:
    snapshot, timeline = _hand_made()
    site = build_bands(snapshot, timeline, "site", top=1)
    assert [b.key for b in site.bands] == [A, OTHER_SITES, BEFORE_RECORDING_SITE, "unknown"]
    n = timeline.n_events
    assert _values(site, OTHER_SITES, n) == [0, 0] + [2 * MiB] * 9
    assert site.bands[1].label == "other (1 site)"  # one site: the singular


@cache
def _loaded(name: str, device: int) -> tuple[Snapshot, DeviceTimeline, SiteSeries]:
    path = example_path(name) if "." not in name else fixture_path(name)
    snapshot = load_snapshot(Path(path))
    timeline = build_timeline(snapshot, device)
    return snapshot, timeline, build_site_series(snapshot, timeline)


CASES = [*FIXTURES, *((name, 0) for name in EXAMPLES)]


@pytest.mark.parametrize(("name", "device"), CASES)
def test_the_bands_add_up_to_the_allocated_series_at_every_event(name: str, device: int) -> None:
    _snapshot, timeline, series = _loaded(name, device)
    s = timeline.series
    expected = np.concatenate([[int(s.initial["allocated"])], s.allocated])
    for kind in GROUPINGS:
        values = series.groupings[kind].at(np.arange(-1, timeline.n_events))
        assert np.array_equal(values.sum(axis=0), expected), kind
        assert (values >= 0).all()


@pytest.mark.parametrize(("name", "device"), [*FIXTURES, ("fragmented_oom", 0), ("training_leak", 0)])
def test_each_band_holds_what_breakdown_at_finds_in_the_state(name: str, device: int) -> None:
    snapshot, timeline, series = _loaded(name, device)
    g = series.groupings
    for event in np.linspace(-1, timeline.n_events - 1, 6).astype(int).tolist():
        found = breakdown_at(snapshot, timeline, event)
        by_site = {x.site: x.bytes for x in found.by_site}
        site = dict(zip((b.key for b in g["site"].bands), g["site"].band_at(event).tolist(), strict=True))
        nameless = ("unknown", BEFORE_RECORDING_SITE)
        top = [k for k in site if k not in (OTHER_SITES, *nameless)]
        for key in top:
            assert site[key] == by_site.get(key, 0)
        assert site.get(OTHER_SITES, 0) == sum(v for k, v in by_site.items() if k not in top and k not in nameless)
        for key in nameless:
            assert site.get(key, 0) == by_site.get(key, 0)
        for kind, expected in (("category", found.by_category), ("stream", found.by_stream), ("pool", found.by_pool)):
            got = dict(zip((b.key for b in g[kind].bands), g[kind].band_at(event).tolist(), strict=True))
            assert {k: v for k, v in got.items() if v} == {k: v for k, v in expected.items() if v}, (kind, event)


def _dense(timeline: DeviceTimeline, bands: BandSeries) -> np.ndarray:
    """Every band's bytes after every event, lifetime by lifetime (a slice add each): the slow, plain oracle."""
    life = timeline.lifetimes
    out = np.zeros((len(bands.bands), timeline.n_events + 1), np.int64)
    for j in range(len(life.start)):
        stop = min(int(life.pend[j]), int(life.end[j]))
        stop = timeline.n_events + 1 if stop >= NEVER else stop + 1
        out[bands.lifetime_band[j], int(life.start[j]) + 1 : stop] += int(life.size[j])
    return out


@pytest.mark.parametrize(("name", "device"), [("cranberrii_memory_snapshot.pickle", 0), ("training_leak", 0)])
def test_samples_are_the_exact_values_and_keep_every_peak(name: str, device: int) -> None:
    _snapshot, timeline, series = _loaded(name, device)
    n = timeline.n_events
    rng = np.random.default_rng(7)
    for kind in ("site", "category"):
        bands = series.groupings[kind]
        dense = _dense(timeline, bands)
        total = dense.sum(axis=0)
        ranges = [(-1.0, n - 1.0)] + [tuple(sorted(rng.uniform(-5, n + 5, 2))) for _ in range(20)]
        for (lo, hi), bins in zip(ranges, [300, 7, 50, 1000, 2] * 5, strict=False):
            events, values = bands.sample(lo, hi, bins)
            assert (np.diff(events) > 0).all() and events[0] >= -1 and events[-1] <= n - 1
            assert np.array_equal(values, dense[:, events + 1])
            first, last = max(int(np.floor(lo)), -1), min(int(np.ceil(hi)), n - 1)
            if last < first:
                continue
            assert events[0] <= max(first, -1) and events[-1] >= last  # the view's edges are drawn
            assert len(events) <= 2 * bins + 2 or len(events) == last - first + 1
            inside = total[first + 1 : last + 2]
            assert values.sum(axis=0).max() >= inside.max()  # the highest total in view is a sample
            assert values.sum(axis=0).min() <= inside.min()


def test_a_band_s_own_peak_is_its_highest_value() -> None:
    _snapshot, timeline, series = _loaded("magma27_memory_snapshot.pickle", 0)
    for kind in GROUPINGS:
        bands = series.groupings[kind]
        dense = _dense(timeline, bands)
        for i, band in enumerate(bands.bands):
            assert band.peak_bytes == dense[i].max() > 0
            assert band.peak_event == int(np.argmax(dense[i])) - 1


@pytest.mark.parametrize(("name", "device"), [("cranberrii_memory_snapshot.pickle", 0), ("fragmented_oom", 0)])
def test_a_band_s_mask_selects_exactly_its_blocks(name: str, device: int) -> None:
    snapshot, timeline, series = _loaded(name, device)
    site = series.groupings["site"]
    top = {b.key for b in site.bands} - {OTHER_SITES, "unknown", BEFORE_RECORDING_SITE}
    for event in (timeline.n_events // 3, timeline.n_events - 1):
        state = timeline.state_at(event)
        blk = state.blocks
        labels = [stack_site_label(snapshot.stacks.stack(int(s))) if s >= 0 else None for s in blk.stack.tolist()]
        before = before_recording_mask(timeline, state, event).tolist()
        allocated = blk.state == BlockState.ALLOCATED
        for band in site.bands:
            if band.key == "unknown":
                expected = [lab is None and not b for lab, b in zip(labels, before, strict=True)]
            elif band.key == BEFORE_RECORDING_SITE:
                expected = [lab is None and b for lab, b in zip(labels, before, strict=True)]
            elif band.key == OTHER_SITES:
                expected = [lab is not None and lab not in top for lab in labels]
            else:
                expected = [lab == band.key for lab in labels]
            mask = block_mask(series, state, "site", band.key, event)
            assert np.array_equal(mask, allocated & np.asarray(expected, bool)), band.key
            assert int(blk.size[mask].sum()) == int(site.band_at(event)[site.band_index(band.key)])
        for kind in ("category", "stream", "pool"):  # every grouping: its masks' bytes are its bands' bytes
            bands = series.groupings[kind]
            masks = [series.mask_of(kind, b.key, event)(state) for b in bands.bands]
            assert not (np.sum(masks, axis=0) > 1).any()  # a block is in one band only
            assert [int(blk.size[m].sum()) for m in masks] == bands.band_at(event).tolist()


def test_a_file_without_a_trace_has_its_live_blocks_from_before_the_first_event() -> None:
    snapshot = load_snapshot(fixture_path("felix_dump_a.pickle"))
    timeline = build_timeline(snapshot, 0)
    series = build_site_series(snapshot, timeline)
    allocated = int(timeline.series.initial["allocated"])
    assert allocated > 0
    for kind in GROUPINGS:
        events, values = series.groupings[kind].sample(-1, 0, 100)
        assert events.tolist() == [-1] and int(values.sum()) == allocated
    assert [b.key for b in series.groupings["category"].bands] == ["before_recording"]
    with pytest.raises(ValueError, match="unknown grouping"):
        build_bands(snapshot, timeline, "colour")
