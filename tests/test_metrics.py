"""Metrics: exact definitions, cross-checked against torch.cuda._memory_viz.segsum on every real file."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from gpumem_gui.core import load_snapshot
from gpumem_gui.core.analysis.metrics import compute_metrics, metrics_by_group, segment_free_summary
from gpumem_gui.core.rules.allocator_constants import MiB
from gpumem_gui.core.rules.allocator_rules import AllocatorConfig
from gpumem_gui.core.snapshot.model import distinct
from tests.conftest import load_raw, segsum_totals


def test_metrics_agree_with_segsum(real_snapshot_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    raw = load_raw(real_snapshot_path)
    totals = segsum_totals(raw, monkeypatch)
    snap = load_snapshot(real_snapshot_path)
    m = compute_metrics(snap.state)
    assert totals["segments"] == len(snap.state.segments) == len(raw["segments"])
    assert m.reserved_bytes == totals["total_reserved"]
    assert m.requested_bytes == totals["total_allocated"]
    assert m.internal_waste_bytes == totals["internal"]
    assert m.free_bytes + m.pending_free_bytes == totals["external"]


def test_invariants_and_groups(real_snapshot_path: Path) -> None:
    snap = load_snapshot(real_snapshot_path)
    g = metrics_by_group(snap.state)
    t = g.total
    assert t.reserved_bytes == t.allocated_bytes + t.pending_free_bytes + t.free_bytes
    assert t.active_bytes == t.allocated_bytes + t.pending_free_bytes
    assert 0.0 <= t.external_fragmentation < 1.0
    assert t.largest_free_block_bytes <= t.free_bytes
    assert t.inactive_split_bytes <= t.free_bytes
    for groups in (g.by_device, g.by_pool, g.by_stream):
        assert sum(m.reserved_bytes for m in groups.values()) == t.reserved_bytes
        assert sum(m.free_bytes for m in groups.values()) == t.free_bytes
        assert max(m.largest_free_block_bytes for m in groups.values()) == t.largest_free_block_bytes
    assert sum(b.count for b in t.free_block_histogram) == t.free_blocks
    assert sum(b.bytes for b in t.free_block_histogram) == t.free_bytes


def _segment(address: int, blocks: list[tuple[int, str, int]], **extra: Any) -> dict[str, Any]:
    out, offset = [], address
    for size, state, requested in blocks:
        out.append({"address": offset, "size": size, "requested_size": requested, "state": state, "frames": []})
        offset += size
    seg = {
        "device": 0,
        "address": address,
        "total_size": offset - address,
        "stream": 0,
        "segment_type": "large",
        "segment_pool_id": (0, 0),
        "is_expandable": False,
        "blocks": out,
    }
    seg.update(extra)
    return seg


def test_hand_made_state() -> None:
    snap = load_snapshot(
        pickle.dumps(
            [
                _segment(
                    0,
                    [
                        (4 * MiB, "active_allocated", 4 * MiB - 100),
                        (6 * MiB, "inactive", 0),
                        (2 * MiB, "active_pending_free", 2 * MiB),
                        (8 * MiB, "inactive", 0),
                    ],
                ),
                _segment(64 * MiB, [(20 * MiB, "inactive", 0)]),  # a whole free segment: not "split"
                _segment(
                    128 * MiB,
                    [(1 * MiB, "active_allocated", 1000), (1 * MiB, "inactive", 0)],
                    segment_type="small",
                    stream=7,
                ),
                _segment(256 * MiB, [(30 * MiB, "inactive", 0)], segment_pool_id=(1, 2)),
            ]
        )
    )
    m = compute_metrics(snap.state)
    assert m.reserved_bytes == 20 * MiB + 20 * MiB + 2 * MiB + 30 * MiB
    assert m.allocated_bytes == 5 * MiB
    assert m.requested_bytes == 4 * MiB - 100 + 1000
    assert m.internal_waste_bytes == 100 + (1 * MiB - 1000)
    assert m.pending_free_bytes == 2 * MiB
    assert m.free_bytes == 6 * MiB + 8 * MiB + 20 * MiB + 1 * MiB + 30 * MiB
    assert m.largest_free_block_bytes == 30 * MiB
    assert m.external_fragmentation == pytest.approx(1 - 30 / 65)
    assert m.inactive_split_bytes == 6 * MiB + 8 * MiB + 1 * MiB
    assert m.largest_allocation_that_fits == 30 * MiB
    g = metrics_by_group(snap.state)
    assert g.by_pool["small"].largest_allocation_that_fits == 1 * MiB
    assert g.by_stream[7].free_bytes == 1 * MiB
    assert set(g.by_private_pool) == {(1, 2)}
    assert g.by_private_pool[(1, 2)].free_bytes == 30 * MiB
    top = segment_free_summary(snap.state)[0]
    assert top["address"] == 256 * MiB and top["largest_free_block_bytes"] == 30 * MiB
    # with power-of-two rounding a request may round past the largest hole
    four = AllocatorConfig(roundup_power2_divisions=(4,) * 16)
    assert compute_metrics(snap.state, four).largest_allocation_that_fits == 28 * MiB


def test_nothing_free_means_no_fragmentation() -> None:
    snap = load_snapshot(pickle.dumps([_segment(0, [(20 * MiB, "active_allocated", 20 * MiB)])]))
    m = compute_metrics(snap.state)
    assert m.free_bytes == 0 and m.external_fragmentation == 0.0 and m.largest_allocation_that_fits == 0


def test_distinct_is_np_unique() -> None:
    # model.distinct stands in for np.unique (whose first call imports numpy.ma) where the report groups segments
    rng = np.random.default_rng(3)
    cases = [np.zeros(0, np.int64), np.array([5], np.int32), np.array([2, 2, 2], np.int8)]
    cases += [rng.integers(-4, 6, n).astype(dtype) for n in (2, 7, 300) for dtype in (np.int64, np.int32, np.int8)]
    for values in cases:
        got = distinct(values)
        assert got.dtype == values.dtype and got.tolist() == np.unique(values).tolist()
