"""The site tree: a hand-worked simulator layout, the real fixtures' sums against metrics, and its speed."""

from __future__ import annotations

import pickle
from typing import Any

import numpy as np
import pytest

from gpumem_gui.core import load_snapshot
from gpumem_gui.core.allocator.simulator import DeviceAllocatorSim
from gpumem_gui.core.analysis.breakdown import breakdown_at
from gpumem_gui.core.analysis.metrics import compute_metrics
from gpumem_gui.core.analysis.site_tree import BEFORE_LABEL, SiteNode, site_tree, tree_of_blocks
from gpumem_gui.core.analysis.timetravel import build_timeline
from gpumem_gui.core.rules.allocator_constants import MiB
from gpumem_gui.core.snapshot.model import Snapshot
from tests.conftest import fixture_path


def _frames(filename: str, line: int, name: str) -> list[dict[str, Any]]:
    return [{"name": name, "filename": filename, "line": line}]


def hand_made() -> Snapshot:
    """Six blocks of known sites; the first one's allocation is cut from the trace (live before recording)."""
    sim = DeviceAllocatorSim(8 << 30)
    sim.malloc(4 * MiB, frames=_frames("/work/model/load.py", 7, "load"))
    a = sim.malloc(3 * MiB, frames=_frames("/work/model/attn.py", 12, "attention_forward"))
    sim.malloc(5 * MiB, frames=_frames("/work/model/mlp.py", 40, "mlp_forward"))
    sim.malloc(2 * MiB, frames=_frames("/work/model/mlp.py", 44, "mlp_forward"))
    sim.malloc(1 * MiB, frames=_frames("/work/model/mlp.py", 60, "gelu"))
    sim.malloc(512)  # no frames: the "unknown" site
    sim.free(a)
    dump = sim.snapshot()
    trace = dump["device_traces"][0]
    assert [e["action"] for e in trace[:2]] == ["segment_alloc", "alloc"] and trace[1]["size"] == 4 * MiB
    dump["device_traces"][0] = trace[2:]  # the load's segment and block: before recording began
    return load_snapshot(pickle.dumps(dump))


def _shape(node: SiteNode) -> Any:
    """A tree as nested (label, bytes, blocks, [children]) tuples, to compare with a hand-written one."""
    return (node.label, node.bytes, node.blocks, [_shape(c) for c in node.children])


def test_a_hand_made_layout_gives_the_hand_worked_tree() -> None:
    snapshot = hand_made()
    timeline = build_timeline(snapshot, 0)
    # the trace, as cut: 0 alloc attn, 1 alloc mlp:40, 2 alloc mlp:44, 3 segment_alloc, 4 alloc gelu, 5 alloc 512,
    # 6 free_requested attn, 7 free_completed attn
    load = ("/work/model/load.py", 4 * MiB, 1, [("load", 4 * MiB, 1, [("line 7", 4 * MiB, 1, [])])])
    before = (BEFORE_LABEL, 4 * MiB, 1, [load])
    attn = ("/work/model/attn.py", 3 * MiB, 1, [("attention_forward", 3 * MiB, 1, [("line 12", 3 * MiB, 1, [])])])
    assert _shape(site_tree(snapshot, timeline, 0)) == ("allocated", 7 * MiB, 2, [before, attn])
    mlp = (
        "/work/model/mlp.py",
        8 * MiB,
        3,
        [
            ("mlp_forward", 7 * MiB, 2, [("line 40", 5 * MiB, 1, []), ("line 44", 2 * MiB, 1, [])]),
            ("gelu", 1 * MiB, 1, [("line 60", 1 * MiB, 1, [])]),
        ],
    )
    unknown = ("unknown", 512, 1, [])
    end = site_tree(snapshot, timeline, timeline.n_events - 1)
    assert _shape(end) == ("allocated", 12 * MiB + 512, 5, [mlp, before, unknown])
    assert [leaf.site for leaf in end.leaves()] == [
        "/work/model/mlp.py:40:mlp_forward",
        "/work/model/mlp.py:44:mlp_forward",
        "/work/model/mlp.py:60:gelu",
        "/work/model/load.py:7:load",
        "unknown",
    ]
    assert site_tree(snapshot, timeline, -1).bytes == 4 * MiB  # before the first event: only the load's block


def _check_sums(node: SiteNode) -> None:
    if node.children:
        assert node.bytes == sum(c.bytes for c in node.children)
        assert node.blocks == sum(c.blocks for c in node.children)
        assert [c.bytes for c in node.children] == sorted((c.bytes for c in node.children), reverse=True)
        for c in node.children:
            _check_sums(c)


@pytest.mark.parametrize("name", ["cranberrii_memory_snapshot.pickle", "magma27_memory_snapshot.pickle"])
def test_the_tree_holds_every_allocated_byte_of_real_files(name: str) -> None:
    snapshot = load_snapshot(fixture_path(name))
    device = snapshot.default_device()
    timeline = build_timeline(snapshot, device)
    n = timeline.n_events
    for event in (-1, n // 5, n // 2, (4 * n) // 5, n - 1):
        state = timeline.state_at(event)
        tree = site_tree(snapshot, timeline, event)
        assert tree.bytes == compute_metrics(state).allocated_bytes  # the oracle: metrics, not the tree's code
        _check_sums(tree)
        # the leaves per site against breakdown.py's own grouping; the before-recording node against its category
        b = breakdown_at(snapshot, timeline, event)
        leaves: dict[str, int] = {}
        for leaf in tree.leaves():
            leaves[leaf.site] = leaves.get(leaf.site, 0) + leaf.bytes
        assert leaves == {s.site: s.bytes for s in b.by_site}
        before = [c.bytes for c in tree.children if c.kind == "before"]
        assert sum(before) == b.by_category["before_recording"]


def test_many_blocks_make_one_tree_of_all_their_bytes() -> None:
    # its speed at 100k blocks: benchmarks/bench_budgets.py (site_tree)
    snapshot = load_snapshot(fixture_path("cranberrii_memory_snapshot.pickle"))
    rng = np.random.default_rng(0)
    n = 10_000
    stack = rng.integers(-1, len(snapshot.stacks), n).astype(np.int64)
    size = rng.integers(1, 1 << 20, n).astype(np.int64) * 512
    before = rng.random(n) < 0.1
    tree = tree_of_blocks(snapshot, stack, size, before)
    assert tree.bytes == int(size.sum()) and tree.blocks == n
    assert sum(c.bytes for c in tree.children if c.kind == "before") == int(size[before].sum())
