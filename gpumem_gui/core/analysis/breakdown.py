"""Live bytes at any moment of a device's trace, broken down by allocation site, category, stream and pool."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from gpumem_gui.core.analysis.categories import (
    BACKWARD,
    BEFORE_RECORDING,
    BEFORE_RECORDING_RULE,
    CATEGORIES,
    NO_RULE,
    RULE_TEXTS,
    UNKNOWN,
    categories_from_file,
    event_phases,
    lifetime_categories,
    lifetime_rules,
)
from gpumem_gui.core.analysis.metadata_groups import block_metadata, lifetime_metadata
from gpumem_gui.core.analysis.timetravel import DeviceTimeline
from gpumem_gui.core.snapshot.model import DEFAULT_POOL, I8, AllocatorState, BlockState, Snapshot
from gpumem_gui.core.snapshot.stacks import (
    BACKWARD_NO_FRAMES_SITE,
    BEFORE_RECORDING_SITE,
    NAMELESS_SITES,
    UNKNOWN_SITE,
    block_sites,
    filter_frames,
    format_frame,
)

__all__ = [
    "BACKWARD_NO_FRAMES_SITE",
    "BEFORE_RECORDING_SITE",
    "UNKNOWN_SITE",
]  # with the names defined here: what other modules import


@dataclass(frozen=True)
class SiteBytes:
    site: str
    bytes: int
    blocks: int
    frames: tuple[str, ...]  # "file:line:function", innermost first: the frames worth showing of its largest stack


@dataclass(frozen=True)
class RuleBytes:
    """The allocated bytes one rule of the categories table put in one category."""

    category: str  # a name of categories.CATEGORIES
    rule: str  # the rule in words (categories.RULE_TEXTS)
    bytes: int
    blocks: int


@dataclass(frozen=True)
class Breakdown:
    event: int  # -1 before the first event; n_events - 1 at the snapshot
    allocated_bytes: int  # metrics.compute_metrics(state).allocated_bytes
    by_site: list[SiteBytes]  # every allocated block once, most bytes first; no frames -> "unknown", or
    # "allocated before recording began" for a block the trace never saw allocated
    by_category: dict[str, int]  # every name of categories.CATEGORIES; sums to allocated_bytes
    by_stream: dict[int, int]
    by_pool: dict[str, int]  # "small", "large", "private (a, b)"
    by_rule: tuple[RuleBytes, ...] = ()  # each (category, rule) pair that holds bytes, most bytes first
    category_source: str = "rules"  # "file" where the trace carries its own categories (read before the rules)
    by_metadata: dict[str, int] = field(default_factory=dict)  # the user_metadata each block was allocated under


def allocated_mask(state: AllocatorState) -> npt.NDArray[np.bool_]:
    """The blocks metrics counts as allocated (active_allocated; pending-free blocks are not)."""
    return np.asarray(state.blocks.state == BlockState.ALLOCATED)


def before_recording_mask(timeline: DeviceTimeline, state: AllocatorState, event: int) -> npt.NDArray[np.bool_]:
    """The live blocks of `state` (the state right after `event`) that the trace never saw allocated: alive before
    its first event (every live block of a file without a trace)."""
    blk = state.blocks
    out = np.zeros(len(blk), bool)
    if timeline.n_events == 0:
        out[blk.state != BlockState.INACTIVE] = True
        return out
    rows, ids = _live_lifetimes(timeline, state, event)
    out[rows] = timeline.lifetimes.start[ids] < 0
    return out


def nameless_reasons(
    snapshot: Snapshot, timeline: DeviceTimeline, state: AllocatorState, event: int
) -> npt.NDArray[np.int8]:
    """Per block of `state` (the state right after `event`), why its site may have no name (stacks.block_sites'
    reasons): 1 allocated before recording began, 2 allocated in backward with no frame, else 0."""
    out = before_recording_mask(timeline, state, event).astype(np.int8)
    if timeline.n_events:
        rows, ids = _live_lifetimes(timeline, state, event)
        out[rows[lifetime_reasons(snapshot, timeline)[ids] == 2]] = 2
    return out


def lifetime_reasons(snapshot: Snapshot, timeline: DeviceTimeline) -> npt.NDArray[np.int8]:
    """nameless_reasons for every lifetime of the timeline: alive before the first event (1), or allocated without
    frames while backward ran (2: the event phases of categories.py say so from the events around it)."""
    life = timeline.lifetimes
    out = (life.start < 0).astype(np.int8)
    frameless = np.flatnonzero((life.start >= 0) & (life.stack < 0))
    if len(frameless):
        phase, _run = event_phases(snapshot, timeline)
        out[frameless[phase[life.start[frameless]] == BACKWARD]] = 2
    return out


def _live_lifetimes(
    timeline: DeviceTimeline, state: AllocatorState, event: int
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The live blocks of `state` that a lifetime live after `event` matches (block_lifetimes), and those lifetimes."""
    ids = block_lifetimes(timeline, state, event)
    rows = np.flatnonzero(ids >= 0)
    return rows, ids[rows]


def block_lifetimes(timeline: DeviceTimeline, state: AllocatorState, event: int) -> npt.NDArray[np.int64]:
    """The lifetime (index into timeline.lifetimes) of every block of `state`, the state right after `event`; -1
    for free blocks and live ones the replay does not know.

    Live blocks are matched to their lifetimes by address among the lifetimes live after `event` (addresses are
    unique among live blocks)."""
    blk = state.blocks
    out = np.full(len(blk), -1, np.int64)
    life = timeline.lifetimes
    if not len(blk) or not len(life.start):
        return out
    live_ids = np.flatnonzero((life.start <= event) & (life.end > event))
    live_ids = live_ids[np.argsort(life.addr[live_ids], kind="stable")]
    live_addr = life.addr[live_ids]
    rows = np.flatnonzero(blk.state != BlockState.INACTIVE)
    at = np.searchsorted(live_addr, blk.address[rows])
    at_ok = np.minimum(at, max(len(live_addr) - 1, 0))
    found = (at < len(live_addr)) & (live_addr[at_ok] == blk.address[rows]) if len(live_addr) else at < 0
    out[rows[found]] = live_ids[at_ok[found]]
    return out


def block_categories(snapshot: Snapshot, timeline: DeviceTimeline, state: AllocatorState, event: int) -> I8:
    """The category code (index into CATEGORIES) of every block of `state`, the state right after `event`: its
    lifetime's (block_lifetimes); free blocks, and live ones the replay does not know, are UNKNOWN."""
    return _per_block(lifetime_categories, snapshot, timeline, state, event, missing=UNKNOWN, no_trace=BEFORE_RECORDING)


def block_rules(snapshot: Snapshot, timeline: DeviceTimeline, state: AllocatorState, event: int) -> I8:
    """The rule (index into categories.RULE_TEXTS) that named every block of `state`, as block_categories."""
    return _per_block(lifetime_rules, snapshot, timeline, state, event, missing=NO_RULE, no_trace=BEFORE_RECORDING_RULE)


def _per_block(
    per_lifetime: Callable[[Snapshot, DeviceTimeline], I8],
    snapshot: Snapshot,
    timeline: DeviceTimeline,
    state: AllocatorState,
    event: int,
    *,
    missing: int,
    no_trace: int,
) -> I8:
    blk = state.blocks
    out = np.full(len(blk), missing, np.int8)
    if not len(timeline.lifetimes.start):
        if timeline.n_events == 0:  # no trace: nothing was recorded allocating
            out[blk.state != BlockState.INACTIVE] = no_trace
        return out
    ids = block_lifetimes(timeline, state, event)
    known = ids >= 0
    if known.any():
        out[known] = per_lifetime(snapshot, timeline)[ids[known]]
    return out


def breakdown_at(snapshot: Snapshot, timeline: DeviceTimeline, event: int) -> Breakdown:
    """What holds the allocated memory of the timeline's device right after `event`."""
    state = timeline.state_at(event)
    blk, seg = state.blocks, state.segments
    rows = np.flatnonzero(allocated_mask(state))
    size = blk.size[rows]
    total = int(size.sum())

    codes = block_categories(snapshot, timeline, state, event)[rows]
    per_cat = np.zeros(len(CATEGORIES), np.int64)
    np.add.at(per_cat, codes, size)  # integer sums: exact, as metrics' are
    by_category = {name: int(per_cat[i]) for i, name in enumerate(CATEGORIES)}
    rules = block_rules(snapshot, timeline, state, event)[rows]

    segment = blk.segment[rows]
    by_stream = _sum_by(seg.stream[segment], size)
    pool_of = np.where(seg.pool[segment] > 0, seg.pool[segment].astype(np.int64) + 1, seg.is_small[segment] * 1)
    by_pool = {_pool_name(state, int(k)): v for k, v in _sum_by(pool_of, size).items()}

    reasons = nameless_reasons(snapshot, timeline, state, event)[rows]
    by_site = _by_site(snapshot, blk.stack[rows], size, reasons)
    source = "file" if categories_from_file(snapshot, timeline.device) else "rules"
    lifetime_codes, labels = lifetime_metadata(snapshot, timeline)
    metadata = block_metadata(block_lifetimes(timeline, state, event)[rows], lifetime_codes)
    by_metadata = {labels[k]: v for k, v in _sum_by(metadata, size).items()}
    by_rule = _by_rule(codes, rules, size)
    return Breakdown(event, total, by_site, by_category, by_stream, by_pool, by_rule, source, by_metadata)


def _by_rule(codes: I8, rules: I8, size: npt.NDArray[np.int64]) -> tuple[RuleBytes, ...]:
    """Bytes and blocks per (category, rule) pair: a file's own categories share one rule over several categories."""
    if not len(codes):
        return ()
    pair = codes.astype(np.int64) * len(RULE_TEXTS) + rules
    pairs, inverse = np.unique(pair, return_inverse=True)
    sums = np.zeros(len(pairs), np.int64)
    np.add.at(sums, inverse.reshape(-1), size)
    blocks = np.bincount(inverse.reshape(-1), minlength=len(pairs))
    out = [
        RuleBytes(CATEGORIES[p // len(RULE_TEXTS)], RULE_TEXTS[p % len(RULE_TEXTS)], b, k)
        for p, b, k in zip(pairs.tolist(), sums.tolist(), blocks.tolist(), strict=True)
    ]
    return tuple(sorted(out, key=lambda r: (-r.bytes, r.category, r.rule)))


def _by_site(
    snapshot: Snapshot, stack: npt.NDArray[np.int32], size: npt.NDArray[np.int64], reasons: npt.NDArray[np.int8]
) -> list[SiteBytes]:
    site, labels = block_sites(snapshot.stacks, stack, reasons)
    n_named = len(labels) - len(NAMELESS_SITES)
    if not len(site):
        return []
    # bytes per (site, stack) pair, with numpy: a site's frames are those of the stack holding most of its bytes
    pair = (site + 1) * (len(snapshot.stacks) + 1) + (stack.astype(np.int64) + 1)
    pairs, inverse = np.unique(pair, return_inverse=True)
    pair_bytes = np.zeros(len(pairs), np.int64)
    np.add.at(pair_bytes, inverse.reshape(-1), size)
    pair_blocks = np.bincount(inverse.reshape(-1), minlength=len(pairs))
    pair_site = pairs // (len(snapshot.stacks) + 1) - 1
    pair_stack = pairs % (len(snapshot.stacks) + 1) - 1
    order = np.lexsort((-pair_bytes, pair_site))  # by site, its largest stack first
    heads = order[np.r_[True, pair_site[order][1:] != pair_site[order][:-1]]]
    sites, owner = np.unique(pair_site, return_inverse=True)
    site_bytes = np.zeros(len(sites), np.int64)
    np.add.at(site_bytes, owner.reshape(-1), pair_bytes)
    site_blocks = np.bincount(owner.reshape(-1), weights=pair_blocks, minlength=len(sites)).astype(np.int64)
    out: list[SiteBytes] = []
    for j, (s, head) in enumerate(zip(sites.tolist(), heads.tolist(), strict=True)):
        frames: tuple[str, ...] = ()
        if s < n_named:
            frames = tuple(format_frame(f) for f in filter_frames(snapshot.stacks.stack(int(pair_stack[head]))))
        out.append(SiteBytes(labels[s], int(site_bytes[j]), int(site_blocks[j]), frames))
    out.sort(key=lambda x: (-x.bytes, x.site))
    return out


def _sum_by(keys: npt.NDArray[np.int64], size: npt.NDArray[np.int64]) -> dict[int, int]:
    if not len(keys):
        return {}
    distinct, inverse = np.unique(keys, return_inverse=True)
    sums = np.zeros(len(distinct), np.int64)
    np.add.at(sums, inverse.reshape(-1), size)
    return {int(k): int(v) for k, v in zip(distinct.tolist(), sums.tolist(), strict=True)}


def _pool_name(state: AllocatorState, key: int) -> str:
    """0 small, 1 large (the default pool), k + 1 the private pool state.pool_ids[k]."""
    if key <= 1:
        return "small" if key else "large"
    pool_id = state.pool_ids[key - 1]
    return "large" if pool_id == DEFAULT_POOL else f"private {pool_id}"
