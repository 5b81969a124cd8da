"""Live bytes at one moment by allocation site, as a tree: module (file) -> function -> line of each site's frame.

A block's site is its stack's site frame (stacks.site_frame: the innermost user frame, else Python frame, else
autograd node), with a last level for what the site's label adds to it (the library line below, `via ...`, or the
backward work in words). Blocks allocated before recording began (no alloc event in the trace) hang under a node of
their own, named so (those without frames in a leaf "no stack recorded"); other blocks whose stack names no site are
one leaf, "unknown". The root holds every allocated block once,
so its bytes are metrics' allocated_bytes. Blocks are grouped with numpy per distinct stack, then per site: Python
only walks the few hundred sites.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from gpumem_gui.core.analysis.breakdown import BEFORE_RECORDING_SITE, allocated_mask, nameless_reasons
from gpumem_gui.core.analysis.timetravel import DeviceTimeline
from gpumem_gui.core.snapshot.frame_kinds import is_python_file
from gpumem_gui.core.snapshot.marked import QT_TRANSLATE_NOOP
from gpumem_gui.core.snapshot.model import Snapshot
from gpumem_gui.core.snapshot.stacks import NAMELESS_SITES, site_frame, site_label, sites_of, stack_sites

ROOT_LABEL = "allocated"
BEFORE_LABEL = BEFORE_RECORDING_SITE
# the leaf, under BEFORE_LABEL, of its blocks without frames
NO_STACK_LABEL = QT_TRANSLATE_NOOP("Sites", "no stack recorded")
LINE = QT_TRANSLATE_NOOP("Sites", "line {line}")  # a node of the tree: a line of its function
# the module of sites that are backward work without Python
NATIVE_MODULE = QT_TRANSLATE_NOOP("Sites", "native code (no Python frame)")


@dataclass(frozen=True)
class SiteNode:
    label: str
    bytes: int
    blocks: int
    children: tuple[SiteNode, ...] = ()  # most bytes first
    kind: str = "root"  # "root" | "before" | "module" | "function" | "line" | "via" | "unknown"
    site: str = ""  # on a leaf: the site label of its blocks (breakdown's SiteBytes.site); "" above the leaves

    def leaves(self) -> list[SiteNode]:
        """The nodes below (or this one) that stand for one site."""
        if not self.children:
            return [self]
        return [leaf for child in self.children for leaf in child.leaves()]


@dataclass
class _Branch:
    """A node being built: bytes and blocks summed on the way down."""

    bytes: int = 0
    blocks: int = 0
    children: dict[tuple[str, str], _Branch] = field(default_factory=dict)  # (kind, label) -> child
    site: str = ""

    def add(self, path: list[tuple[str, str]], nbytes: int, nblocks: int, site: str) -> None:
        self.bytes += nbytes
        self.blocks += nblocks
        if not path:
            self.site = site
            return
        self.children.setdefault(path[0], _Branch()).add(path[1:], nbytes, nblocks, site)

    def freeze(self, kind: str, label: str) -> SiteNode:
        kids = [b.freeze(k, lab) for (k, lab), b in self.children.items()]
        kids.sort(key=lambda n: (-n.bytes, n.label))
        return SiteNode(label, self.bytes, self.blocks, tuple(kids), kind, self.site)


def site_tree(snapshot: Snapshot, timeline: DeviceTimeline, event: int) -> SiteNode:
    """The allocated blocks of the timeline's device right after `event` (-1: before the first), as a site tree."""
    state = timeline.state_at(event)
    rows = np.flatnonzero(allocated_mask(state))
    size = state.blocks.size[rows]
    stack = state.blocks.stack[rows].astype(np.int64)
    reasons = nameless_reasons(snapshot, timeline, state, event)[rows]
    return tree_of_blocks(snapshot, stack, size, reasons)


def tree_of_blocks(
    snapshot: Snapshot,
    stack: npt.NDArray[np.int64],
    size: npt.NDArray[np.int64],
    reasons: npt.NDArray[np.int8] | npt.NDArray[np.bool_],
) -> SiteNode:
    """The tree of blocks given by their stacks (-1: none), sizes, and breakdown.nameless_reasons (1: allocated
    before recording, 2: in backward without frames; a bool array: whether allocated before recording)."""
    _sites, labels = stack_sites(snapshot.stacks)
    # per distinct (stack, reason) pair: bytes and blocks, with numpy
    key = (stack + 1) * 3 + np.asarray(reasons, np.int64)
    keys, inverse = np.unique(key, return_inverse=True)
    inverse = inverse.reshape(-1)
    pair_bytes = np.zeros(len(keys), np.int64)
    np.add.at(pair_bytes, inverse, size.astype(np.int64))
    pair_blocks = np.bincount(inverse, minlength=len(keys)).astype(np.int64)
    pair_stack = keys // 3 - 1
    pair_reason = keys % 3
    pair_site = sites_of(snapshot.stacks, pair_stack)
    # per distinct (site, before) pair, with a stack that has the site (to read its frame)
    skey = (pair_site + 1) * 3 + pair_reason
    skeys, sinverse = np.unique(skey, return_inverse=True)
    sinverse = sinverse.reshape(-1)
    site_bytes = np.zeros(len(skeys), np.int64)
    np.add.at(site_bytes, sinverse, pair_bytes)
    site_blocks = np.zeros(len(skeys), np.int64)
    np.add.at(site_blocks, sinverse, pair_blocks)
    a_stack = np.zeros(len(skeys), np.int64)
    a_stack[sinverse] = pair_stack  # any stack of the site will do: they share its site frame
    root = _Branch()
    for k, nbytes, nblocks, some_stack in zip(
        skeys.tolist(), site_bytes.tolist(), site_blocks.tolist(), a_stack.tolist(), strict=True
    ):
        site, reason = k // 3 - 1, k % 3
        path = [("before", BEFORE_LABEL)] if reason == 1 else []
        if site < 0:  # no frame names it: the trace's first event, backward's thread or nothing says why
            nameless = NAMELESS_SITES[reason]
            path.append(("unknown", NO_STACK_LABEL if reason == 1 else nameless))
            root.add(path, nbytes, nblocks, nameless)
            continue
        label = labels[site]
        frame = site_frame(snapshot.stacks.stack(some_stack))
        if frame is not None and is_python_file(frame.filename) and label.startswith(site_label(frame)):
            path += [("module", frame.filename), ("function", frame.name), ("line", LINE.format(line=frame.line))]
            rest = label[len(site_label(frame)) :].strip()
            if rest:  # the library line below the user's (`via ...`), or the backward work in words
                path.append(("via", rest))
        else:  # backward work without Python: its words are the site
            path += [("module", NATIVE_MODULE), ("function", label)]
        root.add(path, nbytes, nblocks, label)
    return root.freeze("root", ROOT_LABEL)
