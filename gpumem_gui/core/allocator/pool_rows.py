"""The private pool of each recorded event: the entry's pool_id, else the pool of the recorded segment it lies in."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from gpumem_gui.core.analysis.timetravel import Pieces
from gpumem_gui.core.snapshot.model import DEFAULT_POOL, Action, TraceTable


def row_pools(
    trace: TraceTable,
    pool_ids: list[tuple[int, int]],
    pieces: Pieces,
    at: npt.NDArray[np.int64] | None = None,
) -> list[tuple[int, int] | None]:
    """Per row of `trace`, the private pool its event belongs to (None: the default pool).

    torch 2.13 writes a `pool_id` on every entry; older traces do not, and then an event belongs to the pool of the
    recorded segment (one of the timeline's `pieces`) its address lies in while that segment lives: the final
    snapshot's `segment_pool_id` names the pool of every segment still there at the end. An oom entry, which has
    no address, takes the pool of the last allocation before it (a capture routes every request to its pool).
    `at`: per row, the recorded row it stands at (a changed trace's `source`); the rows themselves when None.
    """
    n = len(trace)
    times = np.arange(n, dtype=np.int64) if at is None else np.asarray(at, np.int64)
    index = np.where(trace.pool >= 0, trace.pool, 0).astype(np.int64)
    unknown = np.flatnonzero(trace.pool < 0)
    private = np.flatnonzero(pieces.pool != 0)
    if len(unknown) and len(private):
        addrs = trace.addr[unknown]
        order = np.argsort(addrs, kind="stable")
        by_addr = addrs[order]
        for k in private.tolist():
            lo = np.searchsorted(by_addr, pieces.addr[k], "left")
            hi = np.searchsorted(by_addr, pieces.addr[k] + pieces.size[k], "left")
            rows = unknown[order[lo:hi]]
            alive = (times[rows] >= pieces.start[k]) & (times[rows] <= pieces.end[k])
            index[rows[alive]] = pieces.pool[k]
    ooms = np.flatnonzero((trace.pool < 0) & (trace.action == Action.OOM))
    if len(ooms):
        allocs = np.flatnonzero(trace.action == Action.ALLOC)
        before = np.searchsorted(allocs, ooms) - 1
        index[ooms[before >= 0]] = index[allocs[before[before >= 0]]]
    named = [None if pool_ids[k] == DEFAULT_POOL else pool_ids[k] for k in range(len(pool_ids))]
    return [named[k] for k in index.tolist()]
