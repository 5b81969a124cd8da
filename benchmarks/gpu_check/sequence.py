"""A fixed, seeded list of allocator operations that runs alike on the real CUDA allocator and on the simulator.

Each operation is a plain dict (JSON as it is written to sequence.json):
  {"op": "alloc", "id": N, "size": BYTES}            torch.empty(BYTES, uint8) on the default stream
  {"op": "alloc", "id": N, "size": BYTES, "pool": true}   the same inside the private pool (use_mem_pool)
  {"op": "alloc", "id": N, "size": BYTES, "oom": true}    a request expected to fail (after a "limit")
  {"op": "free", "id": N}                            the tensor's last reference dropped
  {"op": "record_stream", "id": N}                   the tensor used on a second stream (Tensor.record_stream)
  {"op": "sync"}                                     torch.cuda.synchronize(): pending frees may complete
  {"op": "empty_cache"}                              torch.cuda.empty_cache()
  {"op": "pool_begin"} / {"op": "pool_end"}          entering / leaving torch.cuda.use_mem_pool(pool)
  {"op": "pool_delete"}                              the MemPool object dropped
  {"op": "limit", "bytes": B}                        set_per_process_memory_fraction(B / device total)
"""

from __future__ import annotations

import random
from typing import Any

MiB = 1 << 20
GiB = 1 << 30
SMALL_SIZE = 1 * MiB  # requests up to this go to the small pool (kSmallSize)
LIVE_BUDGET = 384 * MiB  # live bytes the sequence never exceeds: far below OOM_LIMIT, whatever the settings
OOM_LIMIT = 1 * GiB  # what the allocator may hold once the OOM is forced
OOM_REQUEST = 2 * GiB  # fails under OOM_LIMIT even after every cached segment is given back
DEFAULT_SEED = 36

Op = dict[str, Any]


def _size(rng: random.Random) -> int:
    """A request size: small-pool ones, ordinary large ones, and some over 64 MiB (oversize under
    max_split_size_mb:64), with odd byte counts so the 512-byte rounding shows."""
    draw = rng.random()
    if draw < 0.4:
        return rng.randrange(1, SMALL_SIZE + 1)
    if draw < 0.9:
        return rng.randrange(SMALL_SIZE + 1, 48 * MiB)
    return rng.randrange(65 * MiB, 120 * MiB)


class _Builder:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.ops: list[Op] = []
        self.live: dict[int, int] = {}  # id -> size, default pool
        self.pool_live: dict[int, int] = {}
        self.next_id = 0

    def live_bytes(self) -> int:
        return sum(self.live.values()) + sum(self.pool_live.values())

    def alloc(self, size: int, *, pool: bool = False) -> int:
        while self.live and self.live_bytes() + size > LIVE_BUDGET:  # room first, from the default pool's tensors
            self.free(self.rng.choice(sorted(self.live)))
        tensor_id, self.next_id = self.next_id, self.next_id + 1
        op: Op = {"op": "alloc", "id": tensor_id, "size": size}
        if pool:
            op["pool"] = True
            self.pool_live[tensor_id] = size
        else:
            self.live[tensor_id] = size
        self.ops.append(op)
        return tensor_id

    def free(self, tensor_id: int) -> None:
        (self.live if tensor_id in self.live else self.pool_live).pop(tensor_id)
        self.ops.append({"op": "free", "id": tensor_id})

    def churn(self, steps: int) -> None:
        """Allocations and frees of the default pool, interleaved at random, within the live budget."""
        for _ in range(steps):
            size = _size(self.rng)
            if self.live and (self.rng.random() < 0.45 or self.live_bytes() + size > LIVE_BUDGET):
                self.free(self.rng.choice(sorted(self.live)))
            else:
                self.alloc(size)

    def stream_use(self) -> None:
        """A block used on a second stream: its free waits for that stream, and only after a synchronize can the
        next request of the same size reuse it."""
        size = self.rng.randrange(8 * MiB, 32 * MiB)
        tensor_id = self.alloc(size)
        self.ops.append({"op": "record_stream", "id": tensor_id})
        self.free(tensor_id)
        self.ops.append({"op": "sync"})
        self.alloc(size)

    def private_pool(self) -> None:
        """Allocations routed to a private pool, some freed while the default pool is in use, then the pool dropped."""
        self.ops.append({"op": "pool_begin"})
        ids = [self.alloc(self.rng.randrange(1, SMALL_SIZE + 1), pool=True) for _ in range(2)]
        ids += [self.alloc(self.rng.randrange(SMALL_SIZE + 1, 40 * MiB), pool=True) for _ in range(4)]
        self.ops.append({"op": "pool_end"})
        self.rng.shuffle(ids)
        for tensor_id in ids[:3]:
            self.free(tensor_id)
        for _ in range(3):
            self.alloc(_size(self.rng))
        for tensor_id in ids[3:]:
            self.free(tensor_id)
        self.ops.append({"op": "pool_delete"})


def generate(seed: int = DEFAULT_SEED) -> list[Op]:
    """The operations for `seed`: the same list on every machine and every run."""
    b = _Builder(seed)
    b.churn(60)
    b.stream_use()
    b.churn(20)
    b.ops.append({"op": "empty_cache"})
    b.churn(40)
    b.private_pool()
    b.churn(20)
    b.ops.append({"op": "limit", "bytes": OOM_LIMIT})
    b.next_id += 1
    b.ops.append({"op": "alloc", "id": b.next_id - 1, "size": OOM_REQUEST, "oom": True})
    return b.ops


def without_private_pool(ops: list[Op]) -> list[Op]:
    """`ops` as a torch without MemPool runs them (real_run does so and says it did): the pool's allocations made in
    the default pool, its other operations doing nothing (the simulator's pool stays empty, so dropping it gives
    nothing back). Every operation keeps its index, so OOMs are named alike on both sides."""
    return [{k: v for k, v in op.items() if k != "pool"} for op in ops]
