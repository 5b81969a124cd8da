"""Flame graphs: a hand-made program whose tree is worked out by hand, the training_leak example's leaked step against
its raw frames, each cost's total against the timeline's series and the raw trace, search and clicked frames."""

from __future__ import annotations

import itertools
import pickle
from typing import Any

import numpy as np
import pytest

from gpumem_gui.assets import example_path
from gpumem_gui.core import load_snapshot
from gpumem_gui.core.allocator.simulator import DeviceAllocatorSim
from gpumem_gui.core.analysis.flame import ROOT, FlameFrame, FlameSource
from gpumem_gui.core.analysis.named_spans import step_spans
from gpumem_gui.core.analysis.span import Span
from gpumem_gui.core.analysis.timetravel import build_timeline
from gpumem_gui.core.rules.allocator_constants import MiB
from tests.conftest import fixture_path, load_raw
from tests.site_oracle import is_python

LEAK_SITE = "model/transformer.py:160:forward"


def _frame(name: str, line: int) -> dict[str, Any]:
    return {"name": name, "filename": "app.py", "line": line}


MAIN, F, G, H, K = _frame("main", 1), _frame("f", 2), _frame("g", 3), _frame("h", 4), _frame("k", 5)


def _program() -> tuple[Any, Any]:
    """main -> f -> g allocates 1 MiB, main -> f -> h 2 MiB, main -> k 4 MiB and a 8 MiB temporary, all kept but
    the temporary; innermost frame first, as the allocator records them."""
    sim = DeviceAllocatorSim(8 << 30)
    sim.malloc(1 * MiB, frames=[G, F, MAIN])
    sim.malloc(2 * MiB, frames=[H, F, MAIN])
    sim.malloc(4 * MiB, frames=[K, MAIN])
    sim.free(sim.malloc(8 * MiB, frames=[K, MAIN]))
    snap = load_snapshot(pickle.dumps(sim.snapshot()))
    return snap, build_timeline(snap, 0)


def _tree(frame: FlameFrame) -> dict[tuple[str, ...], tuple[int, int]]:
    """(path of labels from the root) -> (x, width), rebuilt from the rectangles' depths and edges."""
    out: dict[tuple[str, ...], tuple[int, int]] = {}
    placed: list[tuple[tuple[str, ...], int, int, int]] = []
    for i in range(len(frame)):
        depth, x, w = int(frame.depth[i]), int(frame.x[i]), int(frame.width[i])
        parent = next((p for p, d, px, pw in placed if d == depth - 1 and px <= x and x + w <= px + pw), ())
        path = (*parent, frame.label(i))
        placed.append((path, depth, x, w))
        out[path] = (x, w)
    return out


def test_a_hand_made_program_top_down_and_inverted() -> None:
    snap, tl = _program()
    source = FlameSource(snap, tl)
    end = tl.n_events - 1
    top = source.frame("live", cursor=end)
    main, f, g, h, k = (f"app.py:{fr['line']}:{fr['name']}" for fr in (MAIN, F, G, H, K))
    # children in alphabetical order (app.py:2:f before app.py:5:k), each starting where the sibling before it ends
    assert _tree(top) == {
        (ROOT,): (0, 7 * MiB),
        (ROOT, main): (0, 7 * MiB),
        (ROOT, main, f): (0, 3 * MiB),
        (ROOT, main, f, g): (0, 1 * MiB),
        (ROOT, main, f, h): (1 * MiB, 2 * MiB),
        (ROOT, main, k): (3 * MiB, 4 * MiB),
    }
    assert top.leaves() == [(k, 4 * MiB), (h, 2 * MiB), (g, 1 * MiB)]
    inverted = source.frame("live", cursor=end, inverted=True)
    assert _tree(inverted) == {
        (ROOT,): (0, 7 * MiB),
        (ROOT, g): (0, 1 * MiB),
        (ROOT, g, f): (0, 1 * MiB),
        (ROOT, g, f, main): (0, 1 * MiB),
        (ROOT, h): (1 * MiB, 2 * MiB),
        (ROOT, h, f): (1 * MiB, 2 * MiB),
        (ROOT, h, f, main): (1 * MiB, 2 * MiB),
        (ROOT, k): (3 * MiB, 4 * MiB),
        (ROOT, k, main): (3 * MiB, 4 * MiB),
    }
    whole = Span(-1, end)
    # a frame without cost takes no room: k's temporary is the whole row
    assert _tree(source.frame("temporaries", span=whole))[(ROOT, main, k)] == (0, 8 * MiB)
    assert source.frame("peak", span=whole).total == 15 * MiB  # the temporary on top of the kept 7
    count = source.frame("count", span=whole)
    assert count.unit == "allocations" and _tree(count)[(ROOT, main, k)] == (2, 2)
    found = source.frame("live", cursor=end, search=" F")  # case-insensitive, over the frames' labels
    assert found.matched is not None
    assert [found.label(i) for i in np.flatnonzero(found.matched)] == [f]
    assert found.matched_cost == 3 * MiB and found.matched_share == pytest.approx(3 / 7)
    # a clicked frame: the lifetimes whose stacks pass through it
    node = int(top.node[[top.label(i) for i in range(len(top))].index(f)])
    through = source.lifetimes_through(False, node)
    assert sorted(tl.lifetimes.size[through].tolist()) == [1 * MiB, 2 * MiB]


@pytest.fixture(scope="module")
def leak() -> tuple[Any, Any, FlameSource]:
    snap = load_snapshot(example_path("training_leak"))
    tl = build_timeline(snap, 0)
    return snap, tl, FlameSource(snap, tl)


def test_the_leaked_cost_of_one_step_is_the_kept_hidden_state(leak: Any) -> None:
    snap, tl, source = leak
    span = step_spans(snap, tl)[2]
    frame = source.frame("leaked", span=span, search="transformer.py:160")
    assert frame.total == 32 * MiB and frame.leaves() == [(LEAK_SITE, 32 * MiB)]
    assert frame.matched_share == 1.0
    # its path: the Python frames of the raw allocation, outermost first
    raw = load_raw(example_path("training_leak"))["device_traces"][0]
    entry = next(e for e in raw[span.start + 1 : span.end + 1] if e["action"] == "alloc" and e["size"] == 32 * MiB)
    expected = [(f["line"], f["name"]) for f in reversed(entry["frames"]) if is_python(f)]
    path = [frame.label(i) for i in range(1, len(frame))]
    assert [tuple(p.rsplit(":", 2)[1:]) for p in path] == [(str(a), b) for a, b in expected]
    inverted = source.frame("leaked", span=span, inverted=True)
    assert inverted.label(1) == LEAK_SITE and int(inverted.depth[1]) == 1


def test_each_cost_s_total_against_the_series_and_the_raw_trace(leak: Any) -> None:
    snap, tl, source = leak
    raw = load_raw(example_path("training_leak"))["device_traces"][0]
    for cursor in (0, 300, tl.n_events - 1):
        assert source.frame("live", cursor=cursor).total == int(tl.series.allocated[cursor])
    span = step_spans(snap, tl)[1]
    allocs = sum(e["action"] == "alloc" for e in raw[span.start + 1 : span.end + 1])
    assert source.frame("count", span=span).total == allocs
    assert source.frame("peak", span=span).total == int(tl.series.allocated[span.start + 1 : span.end + 1].max())
    assert source.frame("peak").total == tl.series.peak("allocated")
    with pytest.raises(ValueError, match="unknown cost"):
        source.frame("bytes")


def _nested(frame: FlameFrame, whole: bool) -> None:
    """Every rectangle lies inside its parent one row up, siblings do not overlap, and (`whole`: none left out) a
    parent is its children plus its own cost."""
    assert frame.parent is not None and frame.parent[0] == -1
    assert np.lexsort((frame.x, frame.depth)).tolist() == list(range(len(frame)))  # drawn by depth, left to right
    kids: dict[int, list[int]] = {}
    for i in range(1, len(frame)):
        p = int(frame.parent[i])
        assert frame.depth[p] == frame.depth[i] - 1
        assert frame.x[p] <= frame.x[i] and frame.x[i] + frame.width[i] <= frame.x[p] + frame.width[p]
        kids.setdefault(p, []).append(i)
    for p, children in kids.items():
        edges = sorted((int(frame.x[c]), int(frame.width[c])) for c in children)
        assert all(a + w <= b for (a, w), (b, _) in itertools.pairwise(edges))
        inside = sum(w for _, w in edges) + int(frame.self_cost[p])
        assert inside == int(frame.width[p]) if whole else inside <= int(frame.width[p])


def test_a_real_fixture_s_rectangles_nest() -> None:
    snap = load_snapshot(fixture_path("cranberrii_memory_snapshot.pickle"))
    tl = build_timeline(snap, snap.default_device())
    source = FlameSource(snap, tl)
    for inverted in (False, True):
        frame = source.frame("peak", inverted=inverted)
        assert frame.total == tl.series.peak("allocated")
        _nested(frame, whole=True)
        culled = source.frame("peak", inverted=inverted, min_share=0.01)
        _nested(culled, whole=False)
        assert all(culled.width[1:] > 0.01 * culled.total) and len(culled) < len(frame)
