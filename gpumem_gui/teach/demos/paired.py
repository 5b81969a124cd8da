"""The two-view demos' analyses: contiguous beside paged KV cache, and a recorded run beside its what-if replay."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from gpumem_gui.core.allocator.replay import ReplayResult, replay
from gpumem_gui.core.analysis.timetravel import DeviceTimeline, build_timeline
from gpumem_gui.core.snapshot.convert import snapshot_from_object
from gpumem_gui.core.snapshot.model import B8, I64, Action, AllocatorState, BlockState, Snapshot, TraceTable
from gpumem_gui.teach.demos import captions
from gpumem_gui.teach.demos.focus import (
    GROW,
    RELEASE,
    DemoData,
    DemoFocus,
    Facts,
    demo_data,
    first_oom,
    make_focus,
    mark,
)
from gpumem_gui.teach.demos.plans import DemoError, DemoPlan, plan_for

KV_CACHE_SITE = "kv_cache"  # the KV cache's blocks are those allocated from a file whose path contains this
BLOCK_TABLE_SITE = "block_table"  # the paged run's block tables: int32 page numbers, one table per sequence


@dataclass(frozen=True)
class PairedRun:
    """A what-if replay, ready to show: the replay's figures, the replayed snapshot and its timeline."""

    result: ReplayResult
    snapshot: Snapshot
    timeline: DeviceTimeline = field(repr=False)


# -- Q5 PagedAttention ----------------------------------------------------------------------------------------


def _site_blocks(snapshot: Snapshot, state: AllocatorState, site: str) -> B8:
    """The allocated blocks whose allocation stack names a file whose path contains `site`."""
    stacks = snapshot.stacks
    sites = [i for i in range(len(stacks)) if any(site in f.filename for f in stacks.stack(i))]
    found: B8 = np.isin(state.blocks.stack, sites) & (state.blocks.state == BlockState.ALLOCATED)
    return found


def _kv_blocks(snapshot: Snapshot, state: AllocatorState) -> B8:
    """The allocated blocks whose allocation site is the KV cache's."""
    return _site_blocks(snapshot, state, KV_CACHE_SITE)


def _page_tables(data: DemoData, state: AllocatorState) -> tuple[int, I64]:
    """The paged run's pool size in pages, and each live sequence's pages, oldest request first.

    Block tables hold one int32 per page; the largest is the pool's own index of all its pages. A table's age is
    the last alloc event at its address, so the requests admitted after the contiguous run's last are last.
    """
    tables = np.flatnonzero(_site_blocks(data.snapshot, state, BLOCK_TABLE_SITE))
    if len(tables) < 2:
        raise DemoError(f"kv_cache: {data.snapshot.source} has no {BLOCK_TABLE_SITE} blocks for its pages")
    pages = state.blocks.requested_size[tables] // 4
    index = int(np.argmax(pages))
    pool_pages = int(pages[index])
    tables, pages = np.delete(tables, index), np.delete(pages, index)
    allocs = np.flatnonzero(data.trace.action == Action.ALLOC)
    last: dict[int, int] = dict(zip(data.trace.addr[allocs].tolist(), allocs.tolist(), strict=True))  # later wins
    order = np.argsort([last.get(int(a), -1) for a in state.blocks.address[tables]], kind="stable")
    return pool_pages, pages[order].astype(np.int64)


def kv_cache_foci(
    contiguous: Snapshot,
    paged: Snapshot,
    timelines: Sequence[DeviceTimeline | None] = (None, None),
) -> tuple[DemoFocus, DemoFocus]:
    """The KV cache's blocks at the end of both runs, and what each wastes.

    Both runs served the same requests, and the contiguous run holds one buffer per live request, which counts
    them. The paged run allocated its pool of pages once at startup, as large as the contiguous run's peak, and
    tracks pages in block tables: its oldest tables are the same live requests, the others are the requests the
    pages saved admitted. Each sequence holds its tokens plus at most one partial page, so (contiguous buffers) -
    (the same requests' pages) is a lower bound of the contiguous run's unused bytes.
    """
    plan = plan_for("kv_cache")
    sides = []
    for snapshot, timeline in zip((contiguous, paged), timelines, strict=True):
        data = demo_data(snapshot, timeline)
        state = data.timeline.state_at(data.last)
        kv = _kv_blocks(snapshot, state)
        if not kv.any():
            raise DemoError(f"kv_cache: {snapshot.source} has no block allocated from a {KV_CACHE_SITE} file")
        sides.append((data, state, kv))
    (c_data, c_state, c_kv), (p_data, p_state, p_kv) = sides
    c_bytes, pool_bytes = int(c_state.blocks.size[c_kv].sum()), int(p_state.blocks.size[p_kv].sum())
    requests = int(c_kv.sum())
    buffer = int(np.median(c_state.blocks.size[c_kv]))
    pool_pages, seq_pages = _page_tables(p_data, p_state)
    page = pool_bytes // pool_pages
    pages = int(seq_pages[:requests].sum())
    p_bytes = pages * page  # what the same requests hold in the pool
    more = max(len(seq_pages) - requests, 0)
    pool_free = (pool_pages - int(seq_pages.sum())) * page
    c_unused_min = max(c_bytes - p_bytes, 0)
    p_unused_max = min(len(seq_pages) * page, p_bytes)
    shared: Facts = {
        "requests": requests,
        "contiguous_kv_bytes": c_bytes,
        "paged_kv_bytes": p_bytes,
        "pool_bytes": pool_bytes,
        "buffer_bytes": buffer,
        "page_bytes": page,
        "pages": pages,
        "pool_pages": pool_pages,
        "more_requests": more,
        "pool_free_bytes": pool_free,
        "contiguous_unused_min_bytes": c_unused_min,
        "paged_unused_max_bytes": p_unused_max,
    }

    def side_facts(state: AllocatorState, kv: B8, unused: int) -> Facts:
        blk = state.blocks
        return shared | {
            "kv_bytes": int(blk.size[kv].sum()),
            "kv_blocks": int(kv.sum()),
            "unused_bytes": unused,
            "cached_free_bytes": int(blk.size[blk.state == BlockState.INACTIVE].sum()),
            "reserved_bytes": int(state.segments.total_size.sum()),
        }

    c_caption = captions.kv_contiguous(requests, c_bytes, buffer, c_unused_min, p_bytes)
    p_caption = captions.kv_paged(
        requests, pages, page, paged_bytes=p_bytes, pool=pool_bytes, more=more, free=pool_free
    )
    c_facts = side_facts(c_state, c_kv, c_unused_min)
    p_facts = side_facts(p_state, p_kv, p_unused_max)
    return (
        make_focus(c_data, c_data.last, c_state, c_kv, demo=plan.demo, title=plan.titles[0], caption=c_caption,
                   facts=c_facts),
        make_focus(p_data, p_data.last, p_state, p_kv, demo=plan.demo, title=plan.titles[1], caption=p_caption,
                   facts=p_facts),
    )  # fmt: skip


# -- Q4 expandable segments -----------------------------------------------------------------------------------


def run_whatif(plan: DemoPlan, snapshot: Snapshot, *, capacity: int | None = None) -> PairedRun:
    """Replay `snapshot`'s trace under the plan's overrides (what the window's What if... does; blocking)."""
    if plan.kind != "whatif":
        raise DemoError(f"{plan.demo} is not a what-if demo")
    result = replay(snapshot, overrides=list(plan.overrides), capacity=capacity)
    replayed = snapshot_from_object(result.snapshot, f"{snapshot.source} ({result.settings})", "dump")
    return PairedRun(result, replayed, build_timeline(replayed, result.device))


def _requests(trace: TraceTable) -> I64:
    """The events where the program asked for memory: allocs, and the oom entries of the requests that failed."""
    return np.flatnonzero(np.isin(trace.action, (Action.ALLOC, Action.OOM))).astype(np.int64)


def recorded_oom(o: DemoData, plan: DemoPlan) -> DemoFocus:
    """The what-if's recorded side: the run at its OOM, the holes the request did not fit in."""
    event, request, _device_free = first_oom(o, plan.demo)
    o_state = o.timeline.state_at(event)
    free = o_state.blocks.state == BlockState.INACTIVE
    holes = o_state.blocks.size[free]
    largest = int(holes.max(initial=0))
    o_caption = captions.recorded_oom(request, event, int(holes.sum()), len(holes), largest)
    o_facts: Facts = {
        "oom_event": event,
        "request_bytes": request,
        "largest_hole_bytes": largest,
        "free_bytes": int(holes.sum()),
        "ooms": len(o.timeline.ooms),
    }
    o_marks = (mark(event, event, captions.oom_label(plan.demo, request, largest)),)
    return make_focus(
        o, event, o_state, free, demo=plan.demo, title=plan.titles[0], caption=o_caption, facts=o_facts, marks=o_marks
    )


def whatif_foci(
    original: Snapshot,
    replayed: Snapshot,
    plan: DemoPlan | None = None,
    replayed_timeline: DeviceTimeline | None = None,
    original_timeline: DeviceTimeline | None = None,
) -> tuple[DemoFocus, DemoFocus]:
    """The recorded run at its OOM (the free holes), and the replayed run at the same request (its block).

    The replay feeds the recorded requests in order, so the recorded OOM's request is the replayed trace's request
    of the same rank among allocs and oom entries.
    """
    plan = plan or plan_for("expandable_whatif")
    o = demo_data(original, original_timeline)
    r = demo_data(replayed, replayed_timeline)
    o_focus = recorded_oom(o, plan)
    event = o_focus.event
    request = int(o_focus.facts["request_bytes"])

    rank = int(np.searchsorted(_requests(o.trace), event))
    r_requests = _requests(r.trace)
    if rank >= len(r_requests):
        raise DemoError(f"{plan.demo}: the replay of {original.source} stops before the recorded OOM's request")
    at = int(r_requests[rank])
    r_state = r.timeline.state_at(at)
    r_blk = r_state.blocks
    served = bool(r.trace.action[at] == Action.ALLOC)
    if served:  # the block the request got
        r_mask = (r_blk.address == r.trace.addr[at]) & (r_blk.state == BlockState.ALLOCATED)
    else:  # it failed here too: the holes it did not fit in
        r_mask = r_blk.state == BlockState.INACTIVE
    # what the allocator did to serve it: the run of segment entries right before the request
    j = at - 1
    while j >= 0 and r.trace.action[j] in (*GROW, *RELEASE):
        j -= 1
    window = slice(j + 1, at)
    act, size = r.trace.action[window], r.trace.size[window]
    mapped = int(size[np.isin(act, GROW)].sum())
    unmapped = int(size[np.isin(act, RELEASE)].sum())
    r_oom_count = len(r.timeline.ooms)
    r_caption = captions.replayed(
        plan.overrides,
        request,
        at,
        served=served,
        mapped=mapped,
        unmapped=unmapped,
        ooms_recorded=len(o.timeline.ooms),
        ooms_replayed=r_oom_count,
    )
    r_facts: Facts = {
        "request_event": at,
        "request_bytes": int(r.trace.size[at]),
        "served": int(served),
        "ooms": r_oom_count,
        "original_ooms": len(o.timeline.ooms),
        "mapped_bytes": mapped,
        "unmapped_bytes": unmapped,
        "peak_reserved_bytes": r.timeline.series.peak("reserved"),
        "original_peak_reserved_bytes": o.timeline.series.peak("reserved"),
    }
    r_marks = (mark(at, at, captions.replayed_label(request, served)),)
    r_focus = make_focus(
        r, at, r_state, r_mask, demo=plan.demo, title=plan.titles[1], caption=r_caption, facts=r_facts, marks=r_marks
    )
    return o_focus, r_focus
