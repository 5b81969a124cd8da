"""Flame and icicle graphs of a cost over the user's stacks: a frame of rectangles the views draw as they are.

A stack's path is its Python frames (the user's, the libraries', PyTorch's), outermost first (top-down), or innermost
first (inverted, bottom-up: who allocates, then who calls it); a stack without a Python frame is one frame named by
its site (the backward work in words), and a block without a stack one frame naming why (stacks.NAMELESS_SITES).
The paths of every stack of a file are merged once into a trie, level by level with numpy; a cost is then summed per
stack over the block lifetimes (one bincount) and per node over the trie's elements (another), so a new cost, span or
cursor costs O(lifetimes + trie), never a loop in Python over blocks or frames.

Costs (COSTS), each over the lifetimes of the timeline (span.py's masks; a block is freed at the first of its
pending free and its free, as the allocated series counts it):
- live: bytes allocated right after the cursor;
- peak: bytes allocated right after the peak of allocated bytes (of the span, else of the trace);
- leaked: bytes allocated inside the span and still allocated at its end (the whole trace without a span);
- temporaries: bytes allocated and freed inside the span;
- count: allocations made inside the span.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from gpumem_gui.core.analysis.breakdown import lifetime_reasons
from gpumem_gui.core.analysis.span import Span, alive_mask, peak_in, span_masks
from gpumem_gui.core.analysis.timetravel import DeviceTimeline
from gpumem_gui.core.snapshot.frame_kinds import PYTHON_KINDS, frame_kind
from gpumem_gui.core.snapshot.marked import QT_TRANSLATE_NOOP
from gpumem_gui.core.snapshot.model import I64, Snapshot, StackTable
from gpumem_gui.core.snapshot.stacks import NAMELESS_SITES, NO_SITE, site_label, stack_sites

COSTS = ("live", "peak", "leaked", "temporaries", "count")
COST_LABELS = {
    "live": "bytes live at the cursor",
    "peak": "bytes live at the peak",
    "leaked": "bytes allocated in the span and still alive at its end",
    "temporaries": "bytes allocated and freed inside the span",
    "count": "allocations in the span",
}
ROOT = QT_TRANSLATE_NOOP("Flame", "all")  # the root rectangle's name
NO_PYTHON = QT_TRANSLATE_NOOP("Sites", "no Python frame")
B8 = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class StackTrie:
    """Every stack's path merged: node 0 is the root; a node's parent has a smaller id (ids are given level by level).

    Paths are the table's stacks, then one per nameless reason (stacks.NAMELESS_SITES) for blocks without a stack."""

    names: list[str]  # the vocabulary of node names (frames as site_label writes them, and the pseudo frames)
    parent: I64  # per node (-1 for the root)
    name: I64  # per node: index into names (-1 for the root)
    depth: I64  # per node: 0 for the root
    element_path: I64  # per (path, level) element: its path ...
    element_node: I64  # ... and the node it reaches; the root's element is left out
    n_paths: int
    level_start: I64  # the first node id of each depth (ids are given level by level), then the node count
    inverted: bool = False  # innermost frame first (bottom-up)

    def __len__(self) -> int:
        return len(self.parent)

    def node_totals(self, path_weight: npt.NDArray[np.float64]) -> I64:
        """Each node's cost: the sum of the weights of the paths through it (the root's: every path's)."""
        out = np.bincount(self.element_node, weights=path_weight[self.element_path], minlength=len(self))
        out[0] = path_weight.sum()
        totals: I64 = np.rint(out).astype(np.int64)
        return totals

    def paths_through(self, node: int) -> B8:
        """Per path: whether it passes through `node` (every path for the root)."""
        if node == 0:
            return np.ones(self.n_paths, bool)
        out = np.zeros(self.n_paths, bool)
        out[self.element_path[self.element_node == node]] = True
        return out

    def paths_matching(self, text: str) -> tuple[B8, B8]:
        """The nodes whose name holds `text` (case-insensitive), and the paths through any of them."""
        needle = text.casefold()
        hit_name = np.fromiter((needle in n.casefold() for n in self.names), bool, len(self.names))
        node_hit = np.zeros(len(self), bool)
        node_hit[1:] = hit_name[self.name[1:]]
        paths = np.zeros(self.n_paths, bool)
        paths[self.element_path[node_hit[self.element_node]]] = True
        return node_hit, paths


@dataclass(frozen=True)
class FlameFrame:
    """The rectangles of one flame graph, in the order drawn (by depth, then left to right): each node of the trie
    with a cost, at `depth` rows from the root, from `x` to `x + width` in cost units (the root spans `total`)."""

    cost: str  # one of COSTS
    unit: str  # "bytes" or "allocations"
    inverted: bool
    span: Span | None
    total: int
    node: I64  # trie node ids (for paths_through: the blocks of a clicked frame)
    depth: I64
    x: I64
    width: I64
    self_cost: I64  # the part of `width` its own stacks end at (the innermost frame of top-down paths)
    name: I64  # index into names (-1: the root)
    names: list[str]
    search: str = ""
    matched: B8 | None = None  # per rectangle: its name holds the search text
    matched_cost: int = 0  # the cost of the stacks through any matched frame
    parent: I64 | None = None  # per rectangle: the row of its parent's (-1 for the root)

    def __len__(self) -> int:
        return len(self.node)

    @property
    def matched_share(self) -> float:
        """The share of the cost the search matched (0 without a search or a cost)."""
        return self.matched_cost / self.total if self.total else 0.0

    def label(self, i: int) -> str:
        return ROOT if self.name[i] < 0 else self.names[int(self.name[i])]

    def leaves(self) -> list[tuple[str, int]]:
        """(name, own cost) of the rectangles whose own stacks end there, most first: e.g. the lines that allocated
        the leaked bytes, top-down."""
        own = np.flatnonzero(self.self_cost > 0)
        found = [(self.label(int(i)), int(self.self_cost[i])) for i in own]
        return sorted(found, key=lambda p: (-p[1], p[0]))


def build_trie(stacks: StackTable, inverted: bool = False) -> StackTrie:
    """The trie of every stack's path of a stack table (see the module docstring)."""
    paths, names = _paths(stacks, inverted)
    return replace(_trie(*paths, names), inverted=inverted)


def _paths(stacks: StackTable, inverted: bool) -> tuple[tuple[I64, I64, I64], list[str]]:
    """Every path as elements (path, level, name), each path's elements together in level order, and the names."""
    frames = stacks.frames
    keep = np.fromiter((frame_kind(f) in PYTHON_KINDS for f in frames), bool, len(frames))
    names = [site_label(f) for f in frames]
    n_stacks = len(stacks)
    counts = np.diff(stacks.offsets)
    owner = np.repeat(np.arange(n_stacks, dtype=np.int64), counts)
    fid = stacks.frame_ids.astype(np.int64)
    kept = keep[fid] if len(fid) else np.zeros(0, bool)
    owner, fid = owner[kept], fid[kept]
    per_stack = np.bincount(owner, minlength=n_stacks)
    first = np.concatenate([[0], np.cumsum(per_stack)[:-1]]) if n_stacks else np.zeros(0, np.int64)
    rank = np.arange(len(owner)) - first[owner]  # 0 for the innermost Python frame
    level = rank if inverted else per_stack[owner] - 1 - rank
    if not inverted:  # each stack's frames reversed in place (a scatter: no sort of millions)
        ordered = np.empty_like(fid)
        ordered[first[owner] + level] = fid
        fid, level = ordered, rank
    # a stack without Python frames: one frame, its site (backward work in words), else "no Python frame"
    sites, site_labels = stack_sites(stacks)
    bare = np.flatnonzero(per_stack == 0)
    bare_name = np.where(sites[bare] != NO_SITE, len(names) + sites[bare], len(names) + len(site_labels))
    names += [*site_labels, NO_PYTHON, *NAMELESS_SITES]
    nameless = len(names) - len(NAMELESS_SITES) + np.arange(len(NAMELESS_SITES), dtype=np.int64)
    path = np.concatenate([owner, bare, n_stacks + np.arange(len(NAMELESS_SITES), dtype=np.int64)])
    lev = np.concatenate([level, np.zeros(len(bare) + len(NAMELESS_SITES), np.int64)])
    name = np.concatenate([fid, bare_name.astype(np.int64), nameless])
    # names numbered in alphabetical order: the trie's ids then put siblings in that order (see _trie)
    alphabetical = sorted(range(len(names)), key=names.__getitem__)
    name_rank = np.empty(len(names), np.int64)
    name_rank[alphabetical] = np.arange(len(names), dtype=np.int64)
    return (path, lev, name_rank[name]), [names[i] for i in alphabetical]


def _trie(path: I64, level: I64, name: I64, names: list[str]) -> StackTrie:
    """Nodes made level by level: a node is a (parent node, name) pair, numbered in the order np.unique sorts them,
    by parent, then name: within a level, the children of an earlier parent come first, each parent's in name order."""
    n_paths = int(path.max()) + 1 if len(path) else 0
    node_of = np.zeros(len(path), np.int64)
    # each element's parent node: the node of the element before it on its path (the root at level 0)
    by_level = np.argsort(level, kind="stable")
    bounds = np.searchsorted(level[by_level], np.arange(int(level.max()) + 2 if len(level) else 1))
    parents: list[I64] = [np.array([-1], np.int64)]
    node_names: list[I64] = [np.array([-1], np.int64)]
    next_id = 1
    vocab = len(names) + 1
    for lv in range(len(bounds) - 1):
        rows = by_level[bounds[lv] : bounds[lv + 1]]
        if not len(rows):
            continue
        parent = node_of[rows - 1] if lv else np.zeros(len(rows), np.int64)
        key = parent * vocab + name[rows]
        unique, inverse = np.unique(key, return_inverse=True)
        node_of[rows] = next_id + inverse.reshape(-1)
        parents.append(unique // vocab)
        node_names.append(unique % vocab)
        next_id += len(unique)
    counts = np.array([len(p) for p in parents], np.int64)
    depth = np.repeat(np.arange(len(counts), dtype=np.int64), counts)
    level_start = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    parent = np.concatenate(parents)
    return StackTrie(names, parent, np.concatenate(node_names), depth, path, node_of, n_paths, level_start)


class FlameSource:
    """One device's lifetimes and the two tries of its snapshot: what every flame frame of it is computed from."""

    def __init__(self, snapshot: Snapshot, timeline: DeviceTimeline) -> None:
        self.snapshot = snapshot
        self.timeline = timeline
        life = timeline.lifetimes
        n_stacks = len(snapshot.stacks)
        self.path_of_lifetime: I64 = np.where(
            life.stack >= 0,
            life.stack.astype(np.int64),
            n_stacks + lifetime_reasons(snapshot, timeline).astype(np.int64),
        )
        self._tries: dict[bool, StackTrie] = {}

    def trie(self, inverted: bool) -> StackTrie:
        if inverted not in self._tries:
            self._tries[inverted] = build_trie(self.snapshot.stacks, inverted)
        return self._tries[inverted]

    def lifetime_weights(self, cost: str, span: Span | None, cursor: int) -> tuple[npt.NDArray[np.float64], str]:
        """Per lifetime, its part of `cost` (bytes, or 1 per allocation), and the unit."""
        tl = self.timeline
        life = tl.lifetimes
        start, end = (span.start, span.end) if span is not None else (-1, tl.n_events - 1)
        if cost == "live":
            mask = alive_mask(tl, cursor)
        elif cost == "peak":
            peak = peak_in(tl, start, end)[0] if tl.n_events else -1
            mask = alive_mask(tl, peak)
        elif cost in ("leaked", "temporaries"):
            mask = span_masks(tl, start, end)["left_behind" if cost == "leaked" else cost]
        elif cost == "count":
            born = (life.start > start) & (life.start <= end)
            return born.astype(np.float64), "allocations"
        else:
            raise ValueError(f"unknown cost {cost!r} (one of {', '.join(COSTS)})")
        return np.where(mask, life.size, 0).astype(np.float64), "bytes"

    def frame(
        self,
        cost: str,
        *,
        span: Span | None = None,
        cursor: int = -1,
        inverted: bool = False,
        search: str = "",
        min_share: float = 0.0,
    ) -> FlameFrame:
        """The flame graph of `cost` (see COSTS); rectangles under `min_share` of the total are left out (with their
        children: a view passes one pixel's share)."""
        trie = self.trie(inverted)
        weights, unit = self.lifetime_weights(cost, span, cursor)
        path_weight = np.bincount(self.path_of_lifetime, weights=weights, minlength=trie.n_paths).astype(np.float64)
        return flame_frame(trie, path_weight, cost, unit, span=span, search=search, min_share=min_share)

    def lifetimes_through(self, inverted: bool, node: int) -> B8:
        """Per lifetime: whether its path passes through `node` (a clicked frame's band on the site timeline)."""
        through: B8 = self.trie(inverted).paths_through(node)[self.path_of_lifetime]
        return through


def flame_frame(
    trie: StackTrie,
    path_weight: npt.NDArray[np.float64],
    cost: str,
    unit: str,
    *,
    span: Span | None = None,
    search: str = "",
    min_share: float = 0.0,
) -> FlameFrame:
    """The rectangles of a trie weighted per path (`path_weight`, in `unit`), those under `min_share` of the total
    left out with their children."""
    totals = trie.node_totals(path_weight)
    own = np.rint(np.bincount(_ends(trie), weights=path_weight, minlength=len(trie))).astype(np.int64)
    total = int(totals[0])
    keep = totals > max(min_share * total, 0)
    keep[0] = True
    x = _layout(trie, totals, keep)
    nodes = np.flatnonzero(keep)
    # ids are the drawing order already: by depth, then left to right (a parent's rank among its level, then name)
    matched, matched_cost = None, 0
    if search.strip():
        node_hit, paths = trie.paths_matching(search.strip())
        matched = node_hit[nodes]
        matched_cost = round(float(path_weight[paths].sum()))
    return FlameFrame(
        cost, unit, trie.inverted, span, total, nodes, trie.depth[nodes], x[nodes], totals[nodes], own[nodes],
        trie.name[nodes], trie.names, search.strip(), matched, matched_cost, _rows_of_parents(trie, nodes),
    )  # fmt: skip


def _rows_of_parents(trie: StackTrie, nodes: I64) -> I64:
    """Each kept node's parent as a row of the frame (-1 for the root)."""
    row = np.full(len(trie), -1, np.int64)
    row[nodes] = np.arange(len(nodes), dtype=np.int64)
    parent = trie.parent[nodes]
    out: I64 = np.where(parent >= 0, row[np.maximum(parent, 0)], -1)
    return out


def _ends(trie: StackTrie) -> I64:
    """The last node of every path (where its own cost sits)."""
    last = np.ones(len(trie.element_path), bool)
    if len(last):
        last[:-1] = trie.element_path[1:] != trie.element_path[:-1]
    out = np.zeros(trie.n_paths, np.int64)
    out[trie.element_path[last]] = trie.element_node[last]
    return out


def _layout(trie: StackTrie, totals: I64, keep: B8) -> I64:
    """Each kept node's left edge: its parent's, plus the costs of the kept siblings before it.

    Siblings are in alphabetical order, as flame graphs draw them, so that a frame keeps its place while the cursor
    or the cost changes; node ids are that order already (by parent, then name), so no sort is needed."""
    x = np.zeros(len(trie), np.int64)
    kids = np.flatnonzero(keep[1:]) + 1
    if not len(kids):
        return x
    parent = trie.parent[kids]
    heads = np.ones(len(kids), bool)
    heads[1:] = parent[1:] != parent[:-1]
    run = np.cumsum(totals[kids])
    group_start = np.maximum.accumulate(np.where(heads, np.arange(len(kids)), 0))
    before = np.where(group_start > 0, run[np.maximum(group_start - 1, 0)], 0)
    offset = run - totals[kids] - before
    x_offset = np.zeros(len(trie), np.int64)
    x_offset[kids] = offset
    # parents before children: ids are given level by level, so each level's slice reads placed parents
    starts = trie.level_start
    for a, b in zip(starts[1:-1].tolist(), starts[2:].tolist(), strict=True):
        x[a:b] = x[trie.parent[a:b]] + x_offset[a:b]
    return x
