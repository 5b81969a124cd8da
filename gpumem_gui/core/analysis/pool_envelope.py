"""Reserved and allocated memory per pool over a device's trace: the default pool and each private pool (CUDA graph
pools, torch.cuda.MemPool), as PyTorch's viewer draws "Allocated Memory (incl. Private Pools)" with each pool an
envelope at its reserved size."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gpumem_gui.core.analysis.timetravel import NEVER, DeviceTimeline
from gpumem_gui.core.snapshot.model import DEFAULT_POOL, I64


@dataclass(frozen=True)
class PoolEnvelope:
    """Per pool, its segments' bytes (reserved) and its allocated blocks' bytes right after each event: column j is
    the state right after event j - 1 (column 0: before the first event). Row 0 is the default pool, then the
    private pools in order of their ids."""

    pools: tuple[tuple[int, int], ...]
    reserved: I64  # shape (pools, n_events + 1)
    allocated: I64

    def name(self, row: int) -> str:
        pool = self.pools[row]
        return "default pool" if pool == DEFAULT_POOL else f"private pool {pool}"

    def at(self, event: int) -> list[tuple[str, int, int]]:
        """(pool name, reserved, allocated) right after `event` (-1: before the first)."""
        column = event + 1
        rows = range(len(self.pools))
        return [(self.name(k), int(self.reserved[k, column]), int(self.allocated[k, column])) for k in rows]

    @property
    def private(self) -> bool:
        return len(self.pools) > 1


def _spans(rows: I64, start: I64, end: I64, size: I64, shape: tuple[int, int]) -> I64:
    """Sum of `size` over [start + 1, end + 1) per row, by a running sum of +size / -size steps."""
    delta = np.zeros((shape[0], shape[1] + 1), np.int64)
    stop = np.where(end == NEVER, shape[1], np.minimum(end + 1, shape[1]))
    np.add.at(delta, (rows, start + 1), size)
    np.add.at(delta, (rows, stop), -size)
    return np.cumsum(delta, axis=1)[:, : shape[1]]


def pool_envelope(timeline: DeviceTimeline) -> PoolEnvelope:
    """Every pool's reserved and allocated bytes at every event (numpy over the timeline's segment pieces and block
    lifetimes). A block is its pool's from its allocation to its free (pending frees are no longer allocated), and
    belongs to the pool of the segment piece that holds it when it is allocated."""
    pieces, life = timeline.pieces, timeline.lifetimes
    used = sorted({int(p) for p in pieces.pool.tolist()} | {0})
    ids = [timeline.pool_ids[p] for p in used]
    order = [0, *sorted(range(1, len(used)), key=lambda k: ids[k])]
    row_of = np.full(max(used) + 1, 0, np.int64)
    for row, k in enumerate(order):
        row_of[used[k]] = row
    shape = (len(used), timeline.n_events + 1)
    reserved = _spans(row_of[pieces.pool], pieces.start, pieces.end, pieces.size, shape)
    block_rows = np.zeros(len(life.addr), np.int64)
    private = np.flatnonzero(pieces.pool != 0)
    if len(private) and len(life.addr):
        by_addr = np.argsort(life.addr, kind="stable")
        addrs = life.addr[by_addr]
        for k in private.tolist():
            lo = np.searchsorted(addrs, pieces.addr[k], "left")
            hi = np.searchsorted(addrs, pieces.addr[k] + pieces.size[k], "left")
            inside = by_addr[lo:hi]
            alive = (life.start[inside] >= pieces.start[k]) & (life.start[inside] <= pieces.end[k])
            block_rows[inside[alive]] = row_of[pieces.pool[k]]
    freed = np.where(life.pend == NEVER, life.end, life.pend)
    allocated = _spans(block_rows, life.start, freed, life.size, shape)
    return PoolEnvelope(tuple(ids[k] for k in order), reserved, allocated)
