"""A replay keeps private pools apart: a hand-made CUDA-graph-like trace (weights in the default pool, a graph captured
into pool (1, 0), an eager request between, empty_cache() while the graph lives and after it is destroyed) replays to
its recorded segments and peaks, with and without pool_id on the entries, and what-if settings keep the pool's
blocks for the pool's requests."""

from __future__ import annotations

from typing import Any

import pytest

from gpumem_gui.core.allocator.replay import replay
from gpumem_gui.core.rules.allocator_constants import MiB
from gpumem_gui.core.snapshot.convert import snapshot_from_object
from gpumem_gui.core.snapshot.model import Snapshot
from tests.conftest import trace_entry

B = 0x7F00_0000_0000
POOL = (1, 0)
P1, P2, D2 = B + 40 * MiB, B + 52 * MiB, B + 72 * MiB  # the pool's two segments, then the eager one

# (action, addr, size, in the pool?)  rows 0-22; the graph's private pool is (1, 0)
ROWS: list[tuple[str, int, int, bool]] = [
    ("segment_alloc", B, 40 * MiB, False),  # 0 weights: 40 MiB >= 10 MiB, a segment of its own size
    ("alloc", B, 40 * MiB, False),
    ("segment_alloc", P1, 12 * MiB, True),  # 2 capture: activation a, 12 MiB
    ("alloc", P1, 12 * MiB, True),
    ("segment_alloc", P2, 20 * MiB, True),  # 4 b, 8 MiB (< 10 MiB): a 20 MiB segment, split 8 | 12
    ("alloc", P2, 8 * MiB, True),
    ("free_requested", P1, 12 * MiB, True),  # 6 a freed: P1 whole and free
    ("free_completed", P1, 12 * MiB, True),
    ("alloc", P1, 4 * MiB, True),  # 8 c (the graph's output): two free 12 MiB blocks, the lower address wins
    ("free_requested", P2, 8 * MiB, True),  # 9 b freed: P2 whole and free again
    ("free_completed", P2, 8 * MiB, True),
    ("segment_alloc", D2, 20 * MiB, False),  # 11 eager 4 MiB: the pool's free 8 and 20 MiB are not the default's
    ("alloc", D2, 4 * MiB, False),
    ("free_requested", D2, 4 * MiB, False),
    ("free_completed", D2, 4 * MiB, False),
    ("segment_free", D2, 20 * MiB, False),  # 15 empty_cache(): the pool is in use, its free P2 stays
    ("alloc", P2, 16 * MiB, True),  # 16 a second capture into the shared pool: best fit P2, split 16 | 4
    ("free_requested", P2, 16 * MiB, True),
    ("free_completed", P2, 16 * MiB, True),
    ("free_requested", P1, 4 * MiB, True),  # 19 the graphs are destroyed, their output freed
    ("free_completed", P1, 4 * MiB, True),
    ("segment_free", P1, 12 * MiB, True),  # 21 empty_cache(): the released pool's segments go, smaller first
    ("segment_free", P2, 20 * MiB, True),
]
GRAPH_ALIVE = 19  # rows before the graphs are destroyed


def _segment(address: int, pool: tuple[int, int], blocks: list[tuple[int, str]]) -> dict[str, Any]:
    out, at = [], address
    for size, state in blocks:
        out.append({"address": at, "size": size, "requested_size": size, "state": state, "frames": []})
        at += size
    return {
        "device": 0,
        "address": address,
        "total_size": at - address,
        "allocated_size": sum(s for s, st in blocks if st == "active_allocated"),
        "active_size": sum(s for s, st in blocks if st == "active_allocated"),
        "requested_size": sum(s for s, st in blocks if st == "active_allocated"),
        "stream": 0,
        "segment_type": "large",
        "segment_pool_id": pool,
        "is_expandable": False,
        "frames": [],
        "blocks": out,
    }


WEIGHTS = _segment(B, (0, 0), [(40 * MiB, "active_allocated")])
# after row 18: c alive at the front of P1, P2 whole and free (the pool's high-water mark, kept for the graph)
WHILE_ALIVE = [
    WEIGHTS,
    _segment(P1, POOL, [(4 * MiB, "active_allocated"), (8 * MiB, "inactive")]),
    _segment(P2, POOL, [(20 * MiB, "inactive")]),
]


def _snapshot(rows: int, segments: list[dict[str, Any]], *, pool_ids: bool) -> Snapshot:
    trace = []
    for t, (action, addr, size, pooled) in enumerate(ROWS[:rows]):
        entry = trace_entry(action, addr, size, 1_000 + t)
        if pool_ids:  # torch 2.13 names every entry's pool
            entry["pool_id"] = POOL if pooled else (0, 0)
        trace.append(entry)
    raw = {"segments": segments, "device_traces": [trace], "allocator_settings": {}}
    return snapshot_from_object(raw, "graph-like.pickle", "dump")


def _layout(segments: list[dict[str, Any]]) -> list[tuple[int, tuple[int, ...], list[tuple[int, str]]]]:
    return sorted(
        (s["address"], tuple(s["segment_pool_id"]), [(b["size"], b["state"]) for b in s["blocks"]]) for s in segments
    )


@pytest.mark.usefixtures("twin")
@pytest.mark.parametrize(
    ("rows", "final", "pool_ids"),
    [
        (len(ROWS), [WEIGHTS], True),  # the whole life, every entry naming its pool
        (GRAPH_ALIVE, WHILE_ALIVE, False),  # no pool_id: the pool comes from the final segments'
        (GRAPH_ALIVE, WHILE_ALIVE, True),
    ],
)
def test_a_graph_pool_trace_replays_to_its_recorded_segments_and_peaks(
    rows: int, final: list[dict[str, Any]], pool_ids: bool
) -> None:
    snap = _snapshot(rows, final, pool_ids=pool_ids)
    result = replay(snap)
    assert result.first_divergence is None
    assert _layout(result.snapshot["segments"]) == _layout(final)
    # hand-worked: reserved 40, 52, 72, then 92 MiB with the eager segment (row 11); allocated 40+12+8 = 60 MiB at
    # row 5, and again 40+4+16 at row 16
    assert result.original.peak_reserved_bytes == result.replayed.peak_reserved_bytes == 92 * MiB
    assert result.original.peak_allocated_bytes == result.replayed.peak_allocated_bytes == 60 * MiB
    final_reserved = sum(s["total_size"] for s in final)
    assert result.replayed.final_reserved_bytes == final_reserved
    # the eager segment at row 15, and the pool's two at the end when the graphs are destroyed
    assert result.replayed.device_frees == result.original.device_frees == (3 if rows == len(ROWS) else 1)


@pytest.mark.usefixtures("twin")
def test_what_if_keeps_the_pool_blocks_for_the_pool() -> None:
    """Under expandable segments the default pool and the graph's pool each map pages of their own reservation.
    Hand-worked (20 MiB pages): weights 40; a maps a pool page (60), b takes its 8 MiB rest, c the front of a's
    12 MiB; the eager 4 MiB cannot use the pool's free 16 MiB and maps a default page (80); the first empty_cache
    unmaps it (60) but not the pool's page, in use; d fits the pool's 16 MiB; the last empty_cache unmaps the
    released pool's page (40). Were the pool's blocks the default pool's, the eager request would have fit: 60."""
    snap = _snapshot(len(ROWS), [WEIGHTS], pool_ids=True)
    result = replay(snap, overrides=["expandable_segments:True"])
    assert result.replayed.peak_reserved_bytes == 80 * MiB
    assert result.replayed.final_reserved_bytes == 40 * MiB
    replayed = result.snapshot["device_traces"][0]
    pooled = [e.get("pool_id") == POOL for e in replayed if e["action"] == "alloc"]
    assert pooled == [pooled_row for action, _, _, pooled_row in ROWS if action == "alloc"]


def test_explain_names_the_private_pools_share() -> None:
    """At the peak of allocated memory (row 5: weights 40, a 12, b 8 MiB), the pool's two segments hold 32 of the
    72 MiB reserved."""
    from gpumem_gui.core.allocator.remedies import explain  # noqa: PLC0415

    explanation = explain(_snapshot(GRAPH_ALIVE, WHILE_ALIVE, pool_ids=True), parallel=False)
    note = next(n for n in explanation.notes if n.startswith("Private pools"))
    assert "hold 32.0 MiB of the 72.0 MiB reserved" in note and "32.0 MiB in pool (1, 0)" in note


def test_explain_does_not_offer_a_pool_in_use_to_empty_cache() -> None:
    """The devlog's graph pool at its OOM: the eight free 16 MiB segments are the pool's, which empty_cache() leaves
    while the graphs use it, so they are not 'wholly free segments empty_cache() would give back', and the
    empty_cache() change would return nothing."""
    from gpumem_gui.assets import example_path  # noqa: PLC0415
    from gpumem_gui.core import load_snapshot  # noqa: PLC0415
    from gpumem_gui.core.allocator.remedies import explain  # noqa: PLC0415
    from gpumem_gui.core.analysis.diagnosis import diagnose  # noqa: PLC0415

    snapshot = load_snapshot(example_path("graph_pool_order"))
    gap = diagnose(snapshot).gap
    assert (gap.pool_bytes, gap.pool_segments, gap.whole_bytes, gap.split_bytes) == (128 * MiB, 8, 0, 0)
    explanation = explain(snapshot, parallel=False)
    assert "8 wholly free segment(s) of private pools" in " ".join(explanation.diagnosis.findings)
    assert any("empty_cache() at this moment (it would return 0 B" in s for s in explanation.remedy_sentences)


def test_the_oom_of_a_graph_pool_is_explained_in_its_pool() -> None:
    """The failing request's pool is the oom entry's pool_id, or, for a trace without one, the pool of the segment
    holding the allocation before it: the holes counted are that pool's, and the allocator's own release spares it."""
    from gpumem_gui.assets import example_path  # noqa: PLC0415
    from gpumem_gui.core import load_snapshot  # noqa: PLC0415
    from gpumem_gui.core.analysis.diagnosis import diagnose  # noqa: PLC0415
    from tests.conftest import load_raw  # noqa: PLC0415

    named = load_snapshot(example_path("graph_pool_order"))
    raw = load_raw(example_path("graph_pool_order"))
    for entry in raw["device_traces"][0]:
        entry.pop("pool_id", None)
    for snapshot in (named, snapshot_from_object(raw, "no pool ids", "dump")):
        oom = diagnose(snapshot).oom
        assert oom is not None and oom.private_pool == POOL
        assert (oom.pool_free_bytes, oom.largest_hole_bytes) == (128 * MiB, 16 * MiB)
        findings = " ".join(diagnose(snapshot).findings)
        assert "from the large pool of private pool (1, 0) on stream 0" in findings
        assert "pool (1, 0) keeps its own until the program releases it" in findings
