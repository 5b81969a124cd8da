"""First look: every rule on hand-worked figures, and the findings of real files against their raw pickles."""

from __future__ import annotations

import pickle
from typing import Any

import numpy as np
import pytest

from gpumem_gui import assets
from gpumem_gui.core import load_snapshot
from gpumem_gui.core.analysis.first_look import (
    HIGH_FRAGMENTATION,
    Finding,
    OomFigures,
    first_look,
    fragmentation_note,
    oom_figures,
    percent,
    share,
    upcoming_requests,
)
from gpumem_gui.core.analysis.metrics import Metrics, compute_metrics
from gpumem_gui.core.analysis.timetravel import build_timeline
from gpumem_gui.core.rules.allocator_constants import MiB
from gpumem_gui.core.snapshot.model import Action, AllocatorState, TraceTable
from tests.conftest import fixture_path, load_raw

GiB = 1 << 30
EXAMPLES = assets.EXAMPLES


def metrics(reserved: int, allocated: int, free: int, largest: int, *, split: int = 0, pending: int = 0) -> Metrics:
    """Figures as compute_metrics would give them for a state with these totals."""
    assert reserved == allocated + free + pending
    return Metrics(
        segments=1,
        blocks=3,
        reserved_bytes=reserved,
        allocated_bytes=allocated,
        requested_bytes=allocated,
        pending_free_bytes=pending,
        active_bytes=allocated + pending,
        free_bytes=free,
        internal_waste_bytes=0,
        largest_free_block_bytes=largest,
        external_fragmentation=1 - largest / free if free else 0.0,
        inactive_split_bytes=split,
        largest_allocation_that_fits=largest,
        free_blocks=1,
    )


def only(findings: list[Finding], word: str) -> Finding:
    hits = [f for f in findings if word in f.text]
    assert len(hits) == 1, [f.text for f in findings]
    return hits[0]


# -- proportions -------------------------------------------------------------------------------------------------


def test_percent_never_rounds_onto_nothing_or_everything() -> None:
    assert [percent(x) for x in (0, 0.0005, 0.005, 0.049, 0.25, 0.5, 0.992, 0.9999, 1)] == [
        "0%",
        "<0.1%",
        "0.5%",
        "4.9%",
        "25%",
        "50%",
        "99.2%",
        "99.9%",
        "100%",
    ]


def test_shares_name_their_whole() -> None:
    m = metrics(16 * GiB, 12 * GiB, 4 * GiB, 1 * GiB, split=2 * GiB)
    assert share(m, "allocated_bytes") == (0.75, "reserved")
    assert share(m, "free_bytes") == (0.25, "reserved")
    assert share(m, "largest_free_block_bytes") == (0.25, "free")
    assert share(m, "inactive_split_bytes") == (0.5, "free")
    assert share(m, "segments") is None
    assert share(metrics(GiB, GiB, 0, 0), "largest_free_block_bytes") is None  # nothing free: no share of it


# -- the rules, one by one ---------------------------------------------------------------------------------------


def test_large_cached_free_gap_whole_segments() -> None:
    m = metrics(16 * GiB, 12 * GiB, 4 * GiB, 4 * GiB)  # 4/16 = 25% and 4 GiB: both over the line
    f = only(first_look(m), "cached but free")
    assert f.severity == "warn" and f.subject == "free_bytes"
    assert f.text == "4.0 GiB (25%) of reserved is cached but free: empty_cache() would return it to CUDA."


def test_cached_free_gap_partly_in_split_segments() -> None:
    m = metrics(16 * GiB, 12 * GiB, 4 * GiB, 4 * GiB, split=1 * GiB)
    f = only(first_look(m), "cached but free")
    assert "empty_cache() would return 3.0 GiB; the other 1.0 GiB shares segments with live blocks" in f.text
    all_split = only(first_look(metrics(16 * GiB, 12 * GiB, 4 * GiB, 4 * GiB, split=4 * GiB)), "cached but free")
    assert "empty_cache() cannot return it" in all_split.text


@pytest.mark.parametrize(
    ("reserved", "free", "large"),
    [
        (10 * GiB, 2 * GiB, True),  # exactly 20% and 2 GiB
        (100 * GiB, 19 * GiB, False),  # 19%: the cache doing its job
        (2 * GiB, GiB - MiB, False),  # half of reserved, but under 1 GiB
        (5 * GiB, GiB, True),  # exactly 1 GiB and 20%
    ],
)
def test_cached_free_thresholds(reserved: int, free: int, large: bool) -> None:
    found = first_look(metrics(reserved, reserved - free, free, free))
    assert any("cached but free" in f.text for f in found) == large


def test_fragmentation_matters_little_when_little_is_free() -> None:
    reserved, free, largest = int(16.1 * GiB), int(84.7 * MiB), 10 * MiB
    m = metrics(reserved, reserved - free, free, largest)
    frag = 1 - largest / free  # 0.8819...
    f = only(first_look(m), "Fragmentation")
    assert f.severity == "info" and f.subject == "external_fragmentation"
    # 84.7 MiB of 16.1 GiB = 84.7 / 16486.4 = 0.51%
    assert f.text == f"Fragmentation {round(frag * 100)}% matters little: only 84.7 MiB (0.5%) is free."
    assert f.text.startswith("Fragmentation 88%")
    assert fragmentation_note(m) == "high, little free"


def test_fragmentation_with_much_free_is_a_warning() -> None:
    m = metrics(10 * GiB, 6 * GiB, 4 * GiB, 1 * GiB)  # 1 - 1/4 = 75%
    f = only(first_look(m), "Fragmentation")
    assert f.severity == "warn"
    assert f.text == (
        "Fragmentation 75%: the largest hole is 1.0 GiB of 4.0 GiB free; a larger request needs new memory from CUDA."
    )
    assert fragmentation_note(m) == "high"


def test_fragmentation_between_little_and_large_is_a_note() -> None:
    m = metrics(10 * GiB, 8 * GiB + 512 * MiB, 1536 * MiB, 512 * MiB)  # 15% free, 1 - 512/1536 = 67%
    f = only(first_look(m), "Fragmentation")
    assert f.severity == "info" and "Fragmentation 67%" in f.text and "1.5 GiB free" in f.text


def test_low_fragmentation_says_nothing_and_a_calm_state_says_so() -> None:
    m = metrics(20 * GiB, 19 * GiB, 1 * GiB, 600 * MiB)  # 1 - 600/1024 = 41%, 5% free
    found = first_look(m)
    assert len(found) == 1 and found[0].severity == "info"
    assert found[0].text == "These figures look normal: 95% of reserved is allocated, 5.0% is cached free."
    assert fragmentation_note(m) == "normal"


def test_nothing_reserved() -> None:
    (f,) = first_look(metrics(0, 0, 0, 0))
    assert f.severity == "info" and "Nothing is reserved" in f.text


def test_oom_from_fragmentation_comes_first() -> None:
    oom = OomFigures(7, 3, 2 * GiB, 2560 * MiB, 600 * MiB, 100 * MiB)  # 2.5 GiB free, but no hole of 2 GiB
    found = first_look(metrics(16 * GiB, 12 * GiB, 4 * GiB, 4 * GiB), oom=oom)
    assert found[0].severity == "alert"
    assert found[0].text == (
        "OOM at event 7 (and 2 more): a request of 2.0 GiB failed with 2.5 GiB free in the cache "
        "(largest hole 600.0 MiB): enough in total, but no hole that large."
    )
    assert found[0].figures["oom_requested_bytes"] == 2 * GiB


def test_oom_with_too_little_free() -> None:
    oom = OomFigures(1234, 1, 2 * GiB, int(1.2 * GiB), 600 * MiB, 100 * MiB)
    (f,) = [f for f in first_look(metrics(GiB, GiB, 0, 0), oom=oom) if f.severity == "alert"]
    assert f.text == (
        "OOM at event 1,234: a request of 2.0 GiB failed with 1.2 GiB free in the cache (largest hole 600.0 MiB) "
        "and 100.0 MiB on the device: the memory was in use."
    )


def test_oom_the_device_had_room_for_is_the_process_limit() -> None:
    # the H200 check's OOM: 1.9 GiB refused with 138.7 GiB free on the device, under a fraction allowing 1.9 GiB
    oom = OomFigures(6613, 1, 2_004_877_312, 32 * MiB, 10 * MiB, 148_968_177_664)
    (f,) = [f for f in first_look(metrics(GiB, GiB, 0, 0), oom=oom) if f.severity == "alert"]
    assert f.text == (
        "OOM at event 6,613: a request of 1.9 GiB failed while the device had 138.7 GiB free: a memory limit of "
        "this process (a memory fraction) refused it, not the device."
    )
    # 2 MiB short of the new 2.0 GiB segment the request needs: the device, not a limit
    short = OomFigures(5, 1, 2 * GiB - 512, 32 * MiB, 10 * MiB, 2 * GiB - 2 * MiB)
    (g,) = [f for f in first_look(metrics(GiB, GiB, 0, 0), oom=short) if f.severity == "alert"]
    assert g.text.endswith("on the device: the memory was in use.")


# -- the next allocations against the holes ----------------------------------------------------------------------


def _segment(address: int, blocks: list[tuple[int, str]], small: bool = False) -> dict[str, Any]:
    out, offset = [], address
    for size, state in blocks:
        requested = size if state == "active_allocated" else 0
        out.append({"address": offset, "size": size, "requested_size": requested, "state": state, "frames": []})
        offset += size
    return {
        "device": 0,
        "address": address,
        "total_size": offset - address,
        "stream": 0,
        "segment_type": "small" if small else "large",
        "segment_pool_id": (0, 0),
        "is_expandable": False,
        "blocks": out,
    }


def holey_state(small_holes: int) -> AllocatorState:
    """Three 1 GiB holes, `small_holes` holes of 256 MiB (large pool), one 1 MiB hole in the small pool."""
    segs = [_segment(k * 4 * GiB, [(GiB, "active_allocated"), (GiB, "inactive")]) for k in range(3)]
    segs += [
        _segment((100 + k) * GiB, [(256 * MiB, "active_allocated"), (256 * MiB, "inactive")])
        for k in range(small_holes)
    ]
    segs.append(_segment(1000 * GiB, [(MiB, "active_allocated"), (MiB, "inactive")], small=True))
    return load_snapshot(pickle.dumps(segs)).state


@pytest.mark.parametrize(("small_holes", "severity"), [(8, "info"), (16, "warn")])
def test_holes_too_small_for_the_next_allocations(small_holes: int, severity: str) -> None:
    state = holey_state(small_holes)
    m = compute_metrics(state)
    free = 3 * GiB + small_holes * 256 * MiB + MiB
    assert m.free_bytes == free
    upcoming = np.array([512 * MiB] * 99 + [GiB], np.int64)
    f = only(first_look(m, upcoming=upcoming, state=state), "next 100")
    useless = small_holes * 256 * MiB  # the large pool's holes under 512 MiB; the small pool is not asked
    assert f.severity == severity  # a warning once the useless holes are over half of free (and 1 GiB)
    assert f.text == (
        f"The next 100 allocations ask for up to 1.0 GiB; only 3 holes could take the largest; "
        f"{useless // GiB}.0 GiB ({round(100 * useless / free)}% of free) is in holes too small for any."
    )
    assert f.figures["holes_taking_largest"] == 3 and f.figures["unusable_free_bytes"] == useless


def test_next_allocations_larger_than_every_hole() -> None:
    state = holey_state(2)
    upcoming = np.array([2 * GiB, 100 * MiB, 512 * 1024], np.int64)  # the small request fits the small pool's hole
    f = only(first_look(compute_metrics(state), upcoming=upcoming, state=state), "next 3")
    assert f.text == (
        "The next 3 allocations ask for up to 2.0 GiB; 1 of them fits no hole now (the largest is 1.0 GiB)."
    )
    assert f.figures["requests_fitting_no_hole"] == 1 and f.figures["unusable_free_bytes"] == 0


def test_next_allocations_that_fit_say_nothing() -> None:
    state = holey_state(2)
    upcoming = np.array([200 * MiB, GiB], np.int64)
    assert not [f for f in first_look(compute_metrics(state), upcoming=upcoming, state=state) if "next" in f.text]


def _trace(actions: Any, sizes: Any, streams: Any = None) -> TraceTable:
    """A trace of these actions, sizes and streams (the other columns zero)."""
    n = len(actions)
    z64, z32 = np.zeros(n, np.int64), np.zeros(n, np.int32)
    stream = z64 if streams is None else np.asarray(streams, np.int64)
    return TraceTable(
        np.asarray(actions, np.int8), z64, np.asarray(sizes, np.int64), stream, z64, z32, z64, z32, z32, z32
    )


def test_upcoming_requests_reads_allocations_after_the_cursor() -> None:
    a, f, s = Action.ALLOC, Action.FREE_REQUESTED, Action.SEGMENT_ALLOC
    trace = _trace([a, f, a, s, a, a, a], [100, 5, 2000, 9, 3 * MiB, 700, 4096], [0, 0, 0, 0, 1, 0, 0])
    assert upcoming_requests(trace, -1).tolist() == [512, 2048, 3 * MiB, 1024, 4096]  # rounded up to 512
    assert upcoming_requests(trace, 1).tolist() == [2048, 3 * MiB, 1024, 4096]
    assert upcoming_requests(trace, 1, 2).tolist() == [2048, 3 * MiB]
    assert upcoming_requests(trace, -1, stream=1).tolist() == [3 * MiB]
    assert upcoming_requests(trace, -1, small=False).tolist() == [3 * MiB]
    assert upcoming_requests(trace, 6).tolist() == []


def test_upcoming_requests_past_long_stretches_on_3m_events() -> None:
    n = 3_000_000
    actions = np.full(n, int(Action.FREE_COMPLETED), np.int8)
    rng = np.random.default_rng(1)
    allocs = np.sort(rng.choice(n, 200_000, replace=False))
    actions[allocs] = Action.ALLOC
    actions[10:20_000] = Action.FREE_COMPLETED  # a long stretch without allocations, past the first windows
    sizes = rng.integers(1, 1 << 30, n)
    trace = _trace(actions, sizes)
    expected_idx = np.flatnonzero(actions[6:] == Action.ALLOC)[:100] + 6
    assert np.array_equal(upcoming_requests(trace, 5), (sizes[expected_idx] + 511) // 512 * 512)
    alloc_idx = np.flatnonzero(actions == Action.ALLOC)
    for c in [*rng.integers(0, n, 10).tolist(), int(alloc_idx[-50])]:  # its speed: bench_budgets.py (upcoming)
        after = alloc_idx[alloc_idx > c][:100]
        assert np.array_equal(upcoming_requests(trace, c), (sizes[after] + 511) // 512 * 512), c


# -- real files against their raw pickles -----------------------------------------------------------------------


def _raw_blocks(raw: Any) -> tuple[int, list[int], int]:
    """reserved, the free block sizes, and the free bytes in segments that also hold other blocks."""
    segments = raw["segments"] if isinstance(raw, dict) else raw
    reserved = sum(s["total_size"] for s in segments)
    free = [b["size"] for s in segments for b in s["blocks"] if b["state"] == "inactive"]
    split = sum(
        b["size"]
        for s in segments
        if len(s["blocks"]) > 1 and not s.get("is_expandable")
        for b in s["blocks"]
        if b["state"] == "inactive"
    )
    return reserved, free, split


def test_fragmented_oom_example() -> None:
    path = EXAMPLES / "fragmented_oom.pickle"
    raw = load_raw(path)
    trace = raw["device_traces"][0]
    (oom_at,) = [i for i, e in enumerate(trace) if e["action"] == "oom"]
    assert oom_at == len(trace) - 1  # so the final segments are the cache the request met
    _reserved, holes, _split = _raw_blocks(raw)
    request, free, largest = trace[oom_at]["size"], sum(holes), max(holes)
    assert free >= request > largest  # what the example is about
    snap = load_snapshot(path)
    tl = build_timeline(snap, 0)
    oom = oom_figures(tl, len(trace) - 1)
    assert oom == OomFigures(oom_at, 1, request, free, largest, trace[oom_at]["device_free"])
    assert oom_figures(tl, 10) == oom  # before it: the first OOM to come
    state = tl.state_at(len(trace) - 1)
    found = first_look(compute_metrics(state), oom=oom, upcoming=upcoming_requests(snap.trace(0), oom_at), state=state)
    assert found[0].severity == "alert"
    assert found[0].text == (
        f"OOM at event {oom_at}: a request of {request / GiB:.1f} GiB failed with {free / GiB:.1f} GiB free in the "
        f"cache (largest hole {largest / GiB:.1f} GiB): enough in total, but no hole that large."
    )


def test_fragmentation_at_a_fragmentation_oom_is_not_called_normal() -> None:
    """Review fact 7 (GPU Q1's show-me): 1 - largest hole / free is low at this OOM because one hole is large, yet
    that hole is smaller than the request. At the OOM's own state the note says fragmentation caused it; elsewhere
    (before the OOM, whose cache differs) the ratio keeps its usual word."""
    path = EXAMPLES / "fragmented_oom.pickle"
    raw = load_raw(path)
    trace = raw["device_traces"][0]
    (oom_at,) = [i for i, e in enumerate(trace) if e["action"] == "oom"]
    _reserved, holes, _split = _raw_blocks(raw)
    assert sum(holes) >= trace[oom_at]["size"] > max(holes)  # the raw frames: enough free, no hole that large
    assert 1 - max(holes) / sum(holes) < HIGH_FRAGMENTATION  # so the ratio alone reads "normal"
    snap = load_snapshot(path)
    tl = build_timeline(snap, 0)
    oom = oom_figures(tl, oom_at)
    m = compute_metrics(tl.state_at(oom_at))
    assert fragmentation_note(m) == "normal"
    found = first_look(m, oom=oom)
    assert found[0].subject == "external_fragmentation"
    assert fragmentation_note(m, found) == "caused this OOM"
    early = compute_metrics(tl.state_at(10))
    assert fragmentation_note(early, first_look(early, oom=oom)) != "caused this OOM"


def test_real_file_with_much_cached_free() -> None:
    path = fixture_path("silmont_mem_snapshot.pickle")
    reserved, holes, split = _raw_blocks(load_raw(path))
    free = sum(holes)
    assert 0.99 < free / reserved < 1 and 0 < split < free
    snap = load_snapshot(path)
    f = only(first_look(compute_metrics(snap.state)), "cached but free")
    gib, mib = free / GiB, split / MiB
    assert f.text == (
        f"{gib:.1f} GiB ({100 * free / reserved:.1f}%) of reserved is cached but free: empty_cache() would return "
        f"{(free - split) / GiB:.1f} GiB; the other {mib:.1f} MiB shares segments with live blocks."
    )
    frag = only(first_look(compute_metrics(snap.state)), "Fragmentation")
    assert frag.severity == "warn" and f"Fragmentation {round(100 * (1 - max(holes) / free))}%" in frag.text


def test_real_file_with_little_free() -> None:
    path = fixture_path("muduard_dump_snapshot_a.pickle")
    reserved, holes, _split = _raw_blocks(load_raw(path))
    free = sum(holes)
    assert free / reserved < 0.05 and 1 - max(holes) / free > 0.5
    (f,) = [f for f in first_look(compute_metrics(load_snapshot(path).state)) if "Fragmentation" in f.text]
    assert f.severity == "info"
    assert f.text == (
        f"Fragmentation {round(100 * (1 - max(holes) / free))}% matters little: only {free / MiB:.1f} MiB "
        f"({100 * free / reserved:.1f}%) is free."
    )
