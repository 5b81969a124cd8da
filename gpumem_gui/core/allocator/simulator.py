"""A CUDA caching-allocator simulator that follows PyTorch's rules, for snapshots without a GPU and what-if replay.

One `DeviceAllocatorSim` per device: best fit per (stream, pool), front split, merging frees, record_stream,
empty_cache, the OOM ladder, garbage collection under a memory fraction, expandable segments mapped page by
page, and private pools (CUDA graph pools, torch.cuda.MemPool) whose blocks serve only their own requests. Rules
are those of `c10/cuda/CUDACachingAllocator.cpp` (see ../shared/docs/snapshot-format.md section 3); names of the
methods follow the C++ functions so the two can be read side by side. `snapshot()` returns the dict
`torch.cuda.memory._dump_snapshot` writes.
"""

from __future__ import annotations

import bisect
import sys
from collections import deque
from dataclasses import dataclass
from typing import Any

# one class for both twins (see _sim.pxd), re-exported here where callers have always caught it
from gpumem_gui.core.allocator._oom import OutOfMemoryError as OutOfMemoryError  # noqa: PLC0414
from gpumem_gui.core.allocator._oom import format_size
from gpumem_gui.core.rules.alloc_conf import parse_alloc_conf
from gpumem_gui.core.rules.allocator_constants import (
    MIN_BLOCK_SIZE,
    SMALL_BUFFER,
    SMALL_SIZE,
    UNLIMITED,
    MiB,
)
from gpumem_gui.core.rules.allocator_rules import (
    AllocatorConfig,
    allocation_size,
    round_size,
    should_split,
)
from gpumem_gui.core.snapshot.snapshot_dicts import block_dict, segment_dict

PoolId = tuple[int, int]  # MempoolId_t; (0, 0) is the default pool
DEFAULT_POOL_ID: PoolId = (0, 0)

Frames = list[dict[str, Any]]
_bisect_left, _insort = bisect.bisect_left, bisect.insort  # module globals: one lookup less per call
_VA_ALIGN = 2 * MiB  # fake device addresses: cudaMalloc results are 2 MiB aligned for these sizes in practice


@dataclass(eq=False)
class _ExpandableSegment:
    """A virtual address reservation whose pages are mapped on demand (ExpandableSegment)."""

    ptr: int
    size: int
    page: int
    stream: int
    small: bool
    pool: Any = None  # the _Pool whose unmapped set holds its unmapped blocks


def _key(stream: int, size: int, addr: int) -> int:
    """A free block's place in its pool: (stream, size, address) packed in one int that sorts as that tuple would
    (sizes and addresses are below 2**64), since one int compares and hashes in a step where a tuple takes several."""
    return (stream << 128) + (size << 64) + addr


_NO_FRAMES: Frames = []  # shared default: frames lists are replaced, never appended to
_NO_STREAMS: frozenset[int] = frozenset()


class Block:
    """A block of a segment; also the handle `malloc` returns. A plain slotted class: the simulator makes one
    per split and a dataclass's __init__ costs a measurable share of a replay."""

    __slots__ = (
        "addr",
        "allocated",
        "event_count",
        "expandable",
        "frames",
        "gc_count_base",
        "mapped",
        "next",
        "pool",
        "pool_key",
        "prev",
        "requested",
        "segment_frames",
        "segment_head",
        "size",
        "small",
        "stream",
        "stream_uses",
    )  # fmt: skip

    def __init__(
        self,
        addr: int,
        size: int,
        stream: int,
        small: bool,
        segment_head: int,  # address of the cudaMalloc'ed segment, or of the reservation
        *,
        mapped: bool = True,
        expandable: _ExpandableSegment | None = None,
        segment_frames: Frames = _NO_FRAMES,
    ) -> None:
        self.addr = addr
        self.size = size
        self.stream = stream
        self.small = small
        self.segment_head = segment_head
        self.requested = 0
        self.allocated = False
        self.mapped = mapped
        self.event_count = 0  # pending frees: streams still using the block after free()
        self.stream_uses: frozenset[int] = _NO_STREAMS
        self.prev: Block | None = None
        self.next: Block | None = None
        self.expandable = expandable
        self.frames: Frames = _NO_FRAMES
        self.segment_frames = segment_frames
        self.gc_count_base = 0
        self.pool_key = 0  # its _key while it is in a pool: a pooled block's size and address stay as inserted
        self.pool: Any = None  # the _Pool it belongs to (free or not): the small or large pool, default or private

    def key(self) -> int:
        return _key(self.stream, self.size, self.addr)

    @property
    def is_split(self) -> bool:
        return self.prev is not None or self.next is not None


def _splice(block: Block, prev: Block | None, nxt: Block | None) -> None:
    """Link `block` into a segment's chain between `prev` and `nxt`."""
    block.prev, block.next = prev, nxt
    if prev is not None:
        prev.next = block
    if nxt is not None:
        nxt.prev = block


class _Pool:
    """A BlockPool: free blocks ordered by (stream, size, address) (their _key), and unmapped ones by (stream,
    address)."""

    def __init__(self, small: bool, owner: PoolId | None = None) -> None:
        self.small = small
        self.owner = owner  # the private pool's id, None for the default pools
        self.keys: list[int] = []
        self.by_key: dict[int, Block] = {}
        self.unmapped: list[tuple[int, int]] = []
        self.unmapped_blocks: dict[tuple[int, int], Block] = {}
        self.get_free_blocks_call_count = 0

    def insert(self, block: Block) -> None:
        key = _key(block.stream, block.size, block.addr)
        _insort(self.keys, key)
        self.by_key[key] = block
        block.pool_key = key  # erase finds it by this, without making it again
        block.gc_count_base = self.get_free_blocks_call_count

    def erase(self, block: Block) -> None:
        key = block.pool_key
        keys = self.keys
        del keys[_bisect_left(keys, key)]
        del self.by_key[key]

    def insert_unmapped(self, block: Block) -> None:
        key = (block.stream, block.addr)
        bisect.insort(self.unmapped, key)
        self.unmapped_blocks[key] = block

    def erase_unmapped(self, block: Block) -> None:
        key = (block.stream, block.addr)
        del self.unmapped[bisect.bisect_left(self.unmapped, key)]
        del self.unmapped_blocks[key]

    def free_blocks(self) -> list[Block]:
        return [self.by_key[k] for k in self.keys]


class _PrivatePool:
    """A PrivatePool: the small and large BlockPools of one CUDA graph pool or MemPool, and how many graphs or
    pools still use it. Its cached memory goes back only once `use_count` is 0 (releasePool), at the next
    release_cached_blocks (empty_cache or an allocation's last retry)."""

    def __init__(self, pool_id: PoolId) -> None:
        self.id = pool_id
        self.small = _Pool(True, pool_id)
        self.large = _Pool(False, pool_id)
        self.use_count = 1


class DeviceAllocatorSim:
    """The caching allocator of one device under PYTORCH_CUDA_ALLOC_CONF `settings`: `capacity` bytes are what
    cudaMalloc can get before it fails (the device's free memory when the program started), `device_memory` the
    device's total (cudaMemGetInfo's total, default `capacity`), which a memory fraction and expandable reservations
    are sized by."""

    def __init__(
        self,
        capacity: int,
        settings: str | AllocatorConfig = "",
        *,
        device: int = 0,
        record_history: bool = True,
        max_entries: int = sys.maxsize,
        device_memory: int | None = None,
    ) -> None:
        self.config = settings if isinstance(settings, AllocatorConfig) else parse_alloc_conf(settings)
        self.capacity = capacity
        self.device_memory = device_memory or capacity
        self.device = device
        self.record_history = record_history
        self.max_entries = max_entries
        self.small_pool = _Pool(small=True)
        self.large_pool = _Pool(small=False)
        self.segments: dict[int, Block] = {}  # head address -> head block (non-expandable segments)
        self.expandable_segments: list[_ExpandableSegment] = []
        self.expandable_heads: dict[int, Block] = {}  # reservation address -> its first block
        self.reserved = 0  # total_allocated_memory: bytes obtained from cudaMalloc or mapped
        self.allocated = 0
        self.fraction = self.config.per_process_memory_fraction or 0.0
        self._plain_rounding = not any(d > 1 for d in self.config.roundup_power2_divisions)
        # the settings every request reads, kept as attributes of the simulator's own (C fields in the compiled
        # twin, see _sim.pxd): a field of the frozen config is a dict lookup per read. The config never changes.
        self._expandable = self.config.expandable_segments
        self._max_split_size = self.config.max_split_size
        self._gc_threshold = self.config.garbage_collection_threshold
        # (action, addr, size, stream, frames, time_us, device_free, pool_id); the ring buffer drops the oldest
        self._trace: deque[tuple[str, int, int, int, Frames, int, int, PoolId | None]] = deque(maxlen=max_entries)
        self.num_alloc_retries = 0
        self.num_ooms = 0
        self.num_device_alloc = 0
        self.num_device_free = 0
        self._next_va = 0x7F00_0000_0000 + device * 0x0100_0000_0000
        self.clock_us = 1_767_225_600_000_000  # trace timestamps: 1 us per event from 2026-01-01
        self._pending: list[Block] = []  # freed while other streams still use them
        self._va: dict[int, int] = {}  # start -> end of every live segment and reservation
        self.address_hint: int | None = None  # where the next cudaMalloc or reservation should go, if free
        self.private_pools: dict[PoolId, _PrivatePool] = {}  # graph_pools
        self._captures: list[tuple[PoolId, int | None]] = []  # captures_underway: (pool, its stream; None: all)

    # -- public API ----------------------------------------------------------------------------------------

    @property
    def allowed_memory(self) -> int:
        """allowed_memory_maximum: the fraction of the device's total memory, the whole of it without a fraction."""
        return int(self.device_memory * self.fraction) if self.fraction > 0 else self.device_memory

    def set_memory_fraction(self, fraction: float) -> None:
        if not 0.0 <= fraction <= 1.0:
            raise ValueError(f"Invalid fraction value: {fraction}. Allowed range: 0~1")
        self.fraction = fraction

    def malloc(self, size: int, stream: int = 0, frames: Frames | None = None, pool_id: PoolId | None = None) -> Block:
        """Allocate `size` bytes on `stream`; raise OutOfMemoryError as PyTorch would. `pool_id` names the private
        pool the request goes to (what a trace entry's pool_id says); without it, the pool of a capture under way
        on `stream` (begin_allocate_to_pool), else the default pools."""
        frames = frames or _NO_FRAMES
        self.process_events()
        if self._plain_rounding:  # the common case, inline: 512-byte multiples
            rounded = MIN_BLOCK_SIZE if size < MIN_BLOCK_SIZE else -(-size // MIN_BLOCK_SIZE) * MIN_BLOCK_SIZE
        else:
            rounded = round_size(size, self.config)
        if pool_id is None and not self._captures:
            pool = self.small_pool if rounded <= SMALL_SIZE else self.large_pool  # is_small_request, inline
        else:
            pool = self.get_pool(rounded, stream, pool_id)
        block = self.get_free_block(pool, stream, rounded)
        if block is None:
            alloc_size = allocation_size(rounded, self.config)
            if self.fraction > 0 and self._gc_threshold > 0:
                self.garbage_collect_cached_blocks(frames)
            block = self.alloc_block(pool, stream, rounded, alloc_size, frames)
            if block is None and self.release_available_cached_blocks(pool, stream, rounded, frames):
                block = self.alloc_block(pool, stream, rounded, alloc_size, frames)
            if block is None:
                # the frees this releases carry the request's stack, as PyTorch's do: that is how a trace tells
                # them from an explicit empty_cache() (core/allocator/releases.py)
                self.release_cached_blocks(frames)
                self.num_alloc_retries += 1
                block = self.alloc_block(pool, stream, rounded, alloc_size, frames)
            if block is None:
                raise self._out_of_memory(rounded, alloc_size, stream, frames, pool.owner)
        return self.alloc_found_block(block, pool, size, rounded, frames)

    def free(self, block: Block, frames: Frames | None = None) -> None:
        if not block.allocated:
            raise ValueError(f"block {block.addr:#x} is not allocated")
        block.allocated = False
        self.allocated -= block.size
        context = frames or block.frames
        if self.record_history:  # _record, inline: it runs for every event
            self.clock_us += 1
            owner = block.pool.owner
            self._trace.append(
                ("free_requested", block.addr, block.requested, block.stream, context, self.clock_us, 0, owner)
            )
        if block.stream_uses:
            block.event_count = len(block.stream_uses)  # one event per stream that used it
            self._pending.append(block)
        else:
            self.free_block(block, context)

    def record_stream(self, block: Block, stream: int) -> None:
        if stream != block.stream:
            block.stream_uses = block.stream_uses | {stream}

    def synchronize(self, stream: int | None = None) -> None:
        """Complete the pending frees waiting for `stream` (every stream when None)."""
        for block in list(self._pending):
            if stream is None or stream in block.stream_uses:
                block.stream_uses = _NO_STREAMS if stream is None else block.stream_uses - {stream}
                block.event_count = len(block.stream_uses)
                if block.event_count == 0:
                    self._pending.remove(block)
                    self.free_block(block, block.frames)

    def process_events(self) -> None:
        """Frees whose streams are done; in the simulator only synchronize() finishes a stream's work."""

    def empty_cache(self, frames: Frames | None = None, pool_id: PoolId | None = None) -> None:
        """torch.cuda.empty_cache() called from `frames`; without them the frees show each segment's own stack.
        Private pools still in use keep their cached memory (release_pool first). With `pool_id`, emptyCache of
        that pool alone (what deleting a MemPool does): the default pools and other private pools keep theirs."""
        if pool_id is None:
            self.release_cached_blocks(frames)
            return
        self.synchronize()
        private = self.private_pools.get(pool_id)
        if private is not None and private.use_count == 0:
            self.release_blocks(private.small, frames)
            self.release_blocks(private.large, frames)
            if not self._holds_memory(private):
                del self.private_pools[pool_id]

    # -- private pools -------------------------------------------------------------------------------------------

    def begin_allocate_to_pool(self, pool_id: PoolId, stream: int | None = None) -> None:
        """Route the requests of `stream` (every stream when None) to the private pool `pool_id` (a CUDA graph
        capture, or torch.cuda.use_mem_pool), making the pool if it is new; a capture into an existing pool
        shares it (its use count goes up)."""
        if any(p == pool_id for p, _ in self._captures):
            raise ValueError(f"beginAllocateToPool: already recording to mempool_id {pool_id}")
        if pool_id in self.private_pools:
            self.private_pools[pool_id].use_count += 1
        else:
            self.private_pools[pool_id] = _PrivatePool(pool_id)
        self._captures.append((pool_id, stream))

    def end_allocate_to_pool(self, pool_id: PoolId) -> None:
        for i, (p, _) in enumerate(self._captures):
            if p == pool_id:
                del self._captures[i]
                return
        raise ValueError(f"endAllocatePool: not currently recording to mempool_id {pool_id}")

    def release_pool(self, pool_id: PoolId) -> None:
        """A graph using the pool was destroyed (or the MemPool deleted): at a use count of 0 the next
        release_cached_blocks may cudaFree the pool's unsplit cached segments."""
        pool = self.private_pools[pool_id]
        if pool.use_count <= 0:
            raise ValueError(f"private pool {pool_id} is already released")
        pool.use_count -= 1

    def get_pool(self, size: int, stream: int, pool_id: PoolId | None = None) -> _Pool:
        """The BlockPool a rounded request of `size` bytes goes to: the named private pool's, else a capture's on
        `stream`, else the default small or large pool."""
        if pool_id is None:
            for captured, on in self._captures:
                if on is None or on == stream:
                    pool_id = captured
                    break
        if pool_id is None or pool_id == DEFAULT_POOL_ID:
            return self.small_pool if size <= SMALL_SIZE else self.large_pool
        private = self.private_pools.get(pool_id)
        if private is None:  # a pool first met in a trace: made as a capture would make it
            private = self.private_pools[pool_id] = _PrivatePool(pool_id)
        return private.small if size <= SMALL_SIZE else private.large

    def pool_reserved(self, pool_id: PoolId = DEFAULT_POOL_ID) -> int:
        """Bytes the segments of one pool hold (what the devlog's `reserved(pool)` sums from memory_snapshot)."""
        return sum(seg["total_size"] for seg in self.segment_dicts() if tuple(seg["segment_pool_id"]) == tuple(pool_id))

    # -- finding a block ---------------------------------------------------------------------------------------

    def get_free_block(self, pool: _Pool, stream: int, size: int) -> Block | None:
        if self._gc_threshold > 0 and self.fraction > 0:
            pool.get_free_blocks_call_count += 1
        keys = pool.keys
        i = _bisect_left(keys, (stream << 128) + (size << 64))  # _key(stream, size, 0), one addition less
        if i >= len(keys):
            return None
        key = keys[i]
        if key >> 128 != stream:
            return None
        block = pool.by_key[key]
        if block.expandable is not None and self._expandable:
            # best fit counts a block by what it can grow to (its size plus the unmapped space right after it),
            # so the growing tail of a segment is taken only when nothing else fits
            while block.expandable is not None and i + 1 < len(keys) and keys[i + 1] >> 128 == stream:
                nxt = pool.by_key[keys[i + 1]]
                if self._expandable_size(nxt) >= self._expandable_size(block):
                    break
                i += 1
                block = nxt
        elif block.expandable is not None:  # expandable segments switched off since these blocks were made
            while block.expandable is not None:
                i += 1
                if i >= len(keys) or keys[i] >> 128 != stream:
                    return None
                block = pool.by_key[keys[i]]
        max_split = self._max_split_size
        if size < max_split and block.size >= max_split:
            return None  # oversize cached blocks only serve oversize requests
        if size >= max_split and block.size >= size + self.config.max_non_split_rounding_size:
            return None
        # pool.erase, inline: the block is the one at position i (each walk above moves the two together)
        del keys[i], pool.by_key[block.pool_key]
        return block

    @staticmethod
    def _expandable_size(block: Block) -> int:
        nxt = block.next
        return block.size + (nxt.size if nxt is not None and not nxt.mapped else 0)

    def alloc_block(self, pool: _Pool, stream: int, size: int, alloc_size: int, frames: Frames) -> Block | None:
        # the fraction's limit comes first, on the allocation size, with expandable segments too (alloc_block:
        # set_fraction && total_allocated_memory + size > allowed_memory_maximum), though pages may map fewer bytes
        if self.fraction > 0 and self.reserved + alloc_size > self.allowed_memory:
            return None
        if self._expandable:
            return self.try_allocate_expandable_block(pool, stream, size, frames)
        if self.reserved + alloc_size > self.capacity:  # cudaMalloc fails
            return None
        addr = self._take_va(alloc_size, _VA_ALIGN)
        block = Block(addr, alloc_size, stream, pool.small, addr, segment_frames=frames)
        block.pool = pool
        self.segments[addr] = block
        self.reserved += alloc_size
        self.num_device_alloc += 1
        self._record("segment_alloc", addr, alloc_size, stream, frames, pool.owner)
        return block

    def _take_va(self, size: int, align: int) -> int:
        """Device addresses for a new segment or reservation: the hint if that range is free, else fresh ones."""
        hint, self.address_hint = self.address_hint, None
        if hint is not None:
            self._shrink_reservation_before(hint)
        if hint is not None and hint % align == 0 and all(e <= hint or s >= hint + size for s, e in self._va.items()):
            start = hint
        else:
            start = -(-self._next_va // align) * align
        self._next_va = max(self._next_va, start + size)
        self._va[start] = start + size
        return start

    def _shrink_reservation_before(self, addr: int) -> None:
        """A device the recording ran on reserved less than 9/8 of our capacity: when the recorded program got
        `addr` inside the unmapped tail of one of our reservations, that reservation really ended before it."""
        for es in self.expandable_segments:
            if not es.ptr < addr < es.ptr + es.size:
                continue
            tail = self.expandable_heads[es.ptr]
            while tail.next is not None:
                tail = tail.next
            if tail.mapped or tail.addr > addr or tail.prev is None:
                return  # mapped memory lies past addr (the hint is wrong, not the reservation), or nothing to keep
            pool = es.pool
            keep = (addr - tail.addr) // es.page * es.page
            pool.erase_unmapped(tail)
            if keep:
                tail.size = keep
                pool.insert_unmapped(tail)
            else:
                tail.prev.next = None
            es.size = tail.addr + keep - es.ptr
            self._va[es.ptr] = es.ptr + es.size
            return

    def should_split(self, block: Block, size: int, small: bool) -> bool:
        # the flag, not the block: with expandable segments on, every pool splits at 512 bytes
        return should_split(
            block.size, size, small_pool=small, expandable=self.config.expandable_segments, config=self.config
        )

    def alloc_found_block(self, block: Block, pool: _Pool, requested: int, size: int, frames: Frames) -> Block:
        # should_split (allocator_rules), inline: this runs for every allocation
        remaining = block.size - size
        if (
            remaining >= MIN_BLOCK_SIZE
            if pool.small or self._expandable
            else size < self._max_split_size and remaining > SMALL_SIZE
        ):
            # positional arguments, then the two fields set: a keyword call costs the compiled twin a dict per split
            rest = Block(block.addr + size, remaining, block.stream, pool.small, block.segment_head)
            rest.expandable, rest.mapped, rest.pool = block.expandable, block.mapped, pool
            nxt = block.next
            rest.prev, rest.next, block.next = block, nxt, rest  # _splice(rest, block, nxt), inline
            if nxt is not None:
                nxt.prev = rest
            block.size = size
            pool.insert(rest)
        block.allocated = True
        block.requested = requested
        block.frames = frames
        self.allocated += block.size
        if self.record_history:  # _record, inline
            self.clock_us += 1
            self._trace.append(("alloc", block.addr, requested, block.stream, frames, self.clock_us, 0, pool.owner))
        return block

    # -- freeing -------------------------------------------------------------------------------------------------

    def free_block(self, block: Block, frames: Frames) -> None:
        pool = block.pool
        if self.record_history:  # _record, inline
            self.clock_us += 1
            self._trace.append(
                ("free_completed", block.addr, block.requested, block.stream, frames, self.clock_us, 0, pool.owner)
            )
        block.frames = _NO_FRAMES
        # _try_merge's first test, inline: most neighbours are allocated or absent
        prev = block.prev
        if prev is not None and not prev.allocated:
            self._try_merge(block, prev, pool)
        nxt = block.next
        if nxt is not None and not nxt.allocated:
            self._try_merge(block, nxt, pool)
        pool.insert(block)

    def _try_merge(self, block: Block, neighbour: Block | None, pool: _Pool) -> None:
        if neighbour is None or neighbour.allocated or neighbour.event_count or neighbour.stream_uses:
            return
        if neighbour.mapped != block.mapped:
            return
        if neighbour.mapped:
            pool.erase(neighbour)
        else:
            pool.erase_unmapped(neighbour)
        if neighbour is block.prev:
            block.addr = neighbour.addr
            block.prev = neighbour.prev
            if block.prev is not None:
                block.prev.next = block
            block.segment_frames = neighbour.segment_frames or block.segment_frames
            if block.prev is None and block.expandable is None:
                self.segments[block.addr] = block
            if block.prev is None and block.expandable is not None:
                self.expandable_heads[block.expandable.ptr] = block
        else:
            block.next = neighbour.next
            if block.next is not None:
                block.next.prev = block
        block.size += neighbour.size

    # -- giving memory back ------------------------------------------------------------------------------------

    def release_cached_blocks(self, frames: Frames | None = None) -> None:
        self.synchronize()
        for pool in (self.large_pool, self.small_pool):
            self.release_blocks(pool, frames)
        for pool_id in [p for p, private in self.private_pools.items() if private.use_count == 0]:
            private = self.private_pools[pool_id]
            self.release_blocks(private.small, frames)
            self.release_blocks(private.large, frames)
            if not self._holds_memory(private):  # nothing of it left: the pool itself goes (graph_pools.erase)
                del self.private_pools[pool_id]

    def _holds_memory(self, private: _PrivatePool) -> bool:
        own = (private.small, private.large)
        if any(head.pool in own for head in self.segments.values()):
            return True
        return any(es.pool in own for es in self.expandable_segments)

    def release_blocks(self, pool: _Pool, frames: Frames | None = None) -> None:
        for block in pool.free_blocks():
            if block.expandable is not None:
                self.unmap_block(block, pool, frames)
            elif not block.is_split:
                self.release_block(block, pool, frames)
        for es in list(self.expandable_segments):
            head = self.expandable_heads[es.ptr]
            if es.pool is pool and not head.mapped and head.next is None:
                pool.erase_unmapped(head)  # a wholly unmapped reservation goes back, without a trace event
                self.expandable_segments.remove(es)
                del self.expandable_heads[es.ptr]
                self._va.pop(es.ptr, None)

    def release_block(self, block: Block, pool: _Pool, frames: Frames | None = None) -> None:
        # cudaFree takes whole segments only: expandable memory goes back page by page (unmap_block)
        assert self._freeable(block), f"block {block.addr:#x} is not a whole cudaMalloc'ed segment"
        pool.erase(block)
        del self.segments[block.addr]
        self._va.pop(block.addr, None)
        self.reserved -= block.size
        self.num_device_free += 1
        self._record("segment_free", block.addr, block.size, block.stream, frames or block.segment_frames, pool.owner)

    @staticmethod
    def _freeable(block: Block) -> bool:
        """A free block cudaFree can give back: a whole cudaMalloc'ed segment, not a page run of a reservation."""
        return block.expandable is None and block.prev is None and block.next is None

    def release_available_cached_blocks(
        self, pool: _Pool, stream: int, size: int, frames: Frames | None = None
    ) -> bool:
        """Free the smallest cached block of at least max(size, max_split_size), else the largest oversize ones.

        Blocks of expandable segments are never freed here (PyTorch >= 2.5, pytorch/pytorch#134338; before that
        the allocator failed an assert): when the best candidate is one, the search falls back to the oversize
        blocks below it, and those it skips. Their pages go back only through release_cached_blocks. Split
        blocks are skipped alike: PyTorch never meets one this large, but a replay restored from a recording made
        under another max_split_size can.
        """
        max_split = self.config.max_split_size
        if max_split >= UNLIMITED:
            return False
        key = max(size, max_split)
        keys = pool.keys
        i = bisect.bisect_left(keys, _key(stream, key, 0))
        if i < len(keys) and keys[i] >> 128 == stream and self._freeable(pool.by_key[keys[i]]):
            self.release_block(pool.by_key[keys[i]], pool, frames)
            return True
        # no single block is large enough: free oversize blocks, the largest first
        released = 0
        j = i - 1
        while released < key and j >= 0 and keys[j] >> 128 == stream:
            block = pool.by_key[keys[j]]
            j -= 1
            if block.size < max_split:
                break
            if self._freeable(block):
                released += block.size
                self.release_block(block, pool, frames)
        return released >= key

    def garbage_collect_cached_blocks(self, frames: Frames | None = None) -> None:
        threshold = int(self.config.garbage_collection_threshold * self.allowed_memory)
        if self.reserved <= threshold:
            return
        target = self.reserved - threshold
        pool = self.large_pool
        freed = 0
        while freed < target:
            # PyTorch averages the age over every unsplit free block, expandable ones included, but frees only
            # those cudaFree can take
            candidates = [b for b in pool.free_blocks() if not b.is_split]
            if not candidates:
                return
            ages = [pool.get_free_blocks_call_count - b.gc_count_base for b in candidates]
            average = sum(ages) / len(ages)
            released_now = 0
            for block, age in zip(candidates, ages, strict=True):
                if age >= average and block.expandable is None:
                    released_now += block.size
                    self.release_block(block, pool, frames)
            if released_now == 0:
                return
            freed += released_now

    # -- expandable segments -----------------------------------------------------------------------------------

    def try_allocate_expandable_block(self, pool: _Pool, stream: int, size: int, frames: Frames) -> Block | None:
        candidate = self._find_expandable_block(pool, stream, size)
        if not candidate.mapped and not self._map_block(candidate, min(candidate.size, size), pool, frames):
            return None
        while candidate.size < size:
            nxt = candidate.next
            assert nxt is not None
            if not self._map_block(nxt, min(size - candidate.size, nxt.size), pool, frames):
                return None
            candidate = nxt  # map_block merged it with the free block before it
        pool.erase(candidate)
        return candidate

    @staticmethod
    def _allocatable(block: Block | None) -> bool:
        return block is not None and not block.allocated and block.event_count == 0 and not block.stream_uses

    def _find_expandable_block(self, pool: _Pool, stream: int, size: int) -> Block:
        i = bisect.bisect_left(pool.unmapped, (stream, 0))
        while i < len(pool.unmapped) and pool.unmapped[i][0] == stream:
            candidate = pool.unmapped_blocks[pool.unmapped[i]]
            if candidate.prev is not None and self._allocatable(candidate.prev):
                candidate = candidate.prev
            room = 0
            walk: Block | None = candidate
            while room < size and walk is not None and self._allocatable(walk):
                room += walk.size
                walk = walk.next
            if room >= size:
                return candidate
            i += 1
        page = self._page(pool.small)
        va_size = self._reservation_size(page)
        ptr = self._take_va(va_size, _VA_ALIGN)  # reserved at the 2 MiB granularity; pages count from its start
        es = _ExpandableSegment(ptr, va_size, page, stream, pool.small, pool)
        self.expandable_segments.append(es)
        block = Block(ptr, va_size, stream, pool.small, ptr, mapped=False, expandable=es)
        block.pool = pool
        self.expandable_heads[ptr] = block
        pool.insert_unmapped(block)
        return block

    def _page(self, small: bool) -> int:
        """The page of an expandable segment: 2 MiB small, the large segment size large (20 MiB unless
        large_segment_size_mb, torch 2.13, sets it)."""
        return SMALL_BUFFER if small else self.config.large_segment_size

    def _reservation_size(self, page: int) -> int:
        """9/8 of the device's total memory in whole pages (ExpandableSegment's max_handles_)."""
        return -(-(self.device_memory * 9 // 8) // page) * page

    def _map_block(self, block: Block, size: int, pool: _Pool, frames: Frames) -> bool:
        es = block.expandable
        assert es is not None and not block.mapped
        mapped = -(-size // es.page) * es.page
        if self.reserved + mapped > self.capacity:  # cuMemCreate fails; the fraction was checked in alloc_block
            return False
        pool.erase_unmapped(block)
        block.mapped = True
        if mapped < block.size:
            rest = Block(block.addr + mapped, block.size - mapped, block.stream, pool.small, es.ptr, mapped=False)
            rest.expandable, rest.pool = es, pool
            _splice(rest, block, block.next)
            block.size = mapped
            pool.insert_unmapped(rest)
        start = block.addr
        for neighbour in (block.prev, block.next):
            self._try_merge(block, neighbour, pool)
        pool.insert(block)
        self.reserved += mapped
        self.num_device_alloc += 1
        self._record("segment_map", start, mapped, block.stream, frames, pool.owner)
        if block.prev is None or not block.prev.mapped:
            block.segment_frames = block.segment_frames or frames
        return True

    def unmap_block(self, block: Block, pool: _Pool, frames: Frames | None = None) -> None:
        es = block.expandable
        assert es is not None
        # whole pages only, counted from the reservation's start
        lo = es.ptr + -(-(block.addr - es.ptr) // es.page) * es.page
        hi = es.ptr + (block.addr + block.size - es.ptr) // es.page * es.page
        if hi <= lo:
            return
        pool.erase(block)
        if lo > block.addr:
            before = Block(block.addr, lo - block.addr, block.stream, pool.small, es.ptr, expandable=es)
            before.pool = pool
            _splice(before, block.prev, block)
            pool.insert(before)
        if hi < block.addr + block.size:
            after = Block(hi, block.addr + block.size - hi, block.stream, pool.small, es.ptr, expandable=es)
            after.pool = pool
            _splice(after, block, block.next)
            pool.insert(after)
        if block.prev is None:
            self.expandable_heads[es.ptr] = block
        block.addr, block.size, block.mapped = lo, hi - lo, False
        for neighbour in (block.prev, block.next):
            self._try_merge(block, neighbour, pool)
        pool.insert_unmapped(block)
        self.reserved -= hi - lo
        self.num_device_free += 1
        self._record("segment_unmap", lo, hi - lo, block.stream, frames or block.segment_frames, pool.owner)

    # -- out of memory ----------------------------------------------------------------------------------------

    def _out_of_memory(
        self, rounded: int, alloc_size: int, stream: int, frames: Frames, pool_id: PoolId | None = None
    ) -> OutOfMemoryError:
        """Record the oom event and make PyTorch's exception."""
        device_free = max(self.capacity - self.reserved, 0)  # what this program could still get
        self.num_ooms += 1
        if self.record_history:
            self.clock_us += 1
            self._trace.append(("oom", 0, rounded, stream, frames, self.clock_us, device_free, pool_id))
        unallocated = self.reserved - self.allocated
        allowed = f" {format_size(self.allowed_memory)} allowed;" if self.fraction > 0 else ""
        return OutOfMemoryError(
            f"CUDA out of memory. Tried to allocate {format_size(alloc_size)}. GPU {self.device} has a total "
            f"capacity of {format_size(self.device_memory)} of which {format_size(device_free)} is free.{allowed} "
            f"Of the allocated memory {format_size(self.allocated)} is allocated by PyTorch, and "
            f"{format_size(unallocated)} is reserved by PyTorch but unallocated. If reserved but unallocated "
            "memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid "
            "fragmentation.  See documentation for Memory Management  "
            "(https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)"
        )

    # -- restoring a state ----------------------------------------------------------------------------------------

    def load_segments(self, segments: list[dict[str, Any]]) -> list[Block]:
        """Make the allocator hold exactly `segments` (snapshot-format dicts of this device), recording nothing.

        Returns the live blocks. A pending-free block waits on a stream of its own (-its address), so that
        `synchronize(-addr)` completes just that one. Expandable runs become the reservations they were mapped in
        (see _reservations): unmapped gaps between the runs, and an unmapped tail after the last, so that a run
        grows in place as it did in the program. A segment whose `segment_pool_id` names a private pool goes to
        that pool (made in use, as by a capture that has not ended its graph's life).
        """
        live: list[Block] = []
        ordered = sorted(segments, key=lambda x: x["address"])
        reservation_of = self._reservations(ordered)
        last: dict[int, Block] = {}  # reservation address -> its last block so far
        for seg in ordered:
            start, size, stream = int(seg["address"]), int(seg["total_size"]), int(seg.get("stream", 0))
            small = seg.get("segment_type") == "small"
            pool = self._segment_pool(seg)
            es = reservation_of.get(id(seg))
            prev: Block | None = None
            if es is None:
                self._va[start] = start + size
            else:
                prev = last.get(es.ptr)
                if prev is not None and prev.addr + prev.size < start:  # the unmapped pages between two runs
                    gap_at = prev.addr + prev.size
                    gap = Block(gap_at, start - gap_at, stream, small, es.ptr, mapped=False, expandable=es)
                    gap.pool = pool
                    _splice(gap, prev, None)
                    pool.insert_unmapped(gap)
                    prev = gap
            self._next_va = max(self._next_va, start + size)
            first = True
            for b in seg["blocks"]:
                block = Block(int(b["address"]), int(b["size"]), stream, small, es.ptr if es else start, expandable=es)
                block.pool = pool
                block.prev = prev
                if first:
                    block.segment_frames = list(seg.get("frames") or [])
                    first = False
                if prev is not None:
                    prev.next = block
                elif es is None:
                    self.segments[start] = block
                else:
                    self.expandable_heads[es.ptr] = block
                prev = block
                if b["state"] == "inactive":
                    pool.insert(block)
                    continue
                block.allocated = b["state"] == "active_allocated"
                block.requested = int(b.get("requested_size", b["size"]))
                block.frames = list(b.get("frames") or [])
                if block.allocated:
                    self.allocated += block.size
                else:
                    block.stream_uses = frozenset({-block.addr})
                    block.event_count = 1
                    self._pending.append(block)
                live.append(block)
            if es is not None and prev is not None:
                last[es.ptr] = prev
            self.reserved += size
        for es in self.expandable_segments:  # the unmapped tail of each restored reservation
            tail_at = last[es.ptr].addr + last[es.ptr].size
            if tail_at < es.ptr + es.size:
                pool = es.pool
                tail = Block(tail_at, es.ptr + es.size - tail_at, es.stream, es.small, es.ptr, mapped=False)
                tail.expandable, tail.pool = es, pool
                _splice(tail, last[es.ptr], None)
                pool.insert_unmapped(tail)
            self._va[es.ptr] = es.ptr + es.size
            self._next_va = max(self._next_va, es.ptr + es.size)
        return live

    def _segment_pool(self, seg: dict[str, Any]) -> _Pool:
        """The BlockPool a snapshot segment belongs to, by its type and `segment_pool_id`."""
        pool_id = seg.get("segment_pool_id")
        small = seg.get("segment_type") == "small"
        if pool_id is None or tuple(pool_id) == DEFAULT_POOL_ID:
            return self.small_pool if small else self.large_pool
        key = (int(pool_id[0]), int(pool_id[1]))
        private = self.private_pools.get(key)
        if private is None:
            private = self.private_pools[key] = _PrivatePool(key)
        return private.small if small else private.large

    def _reservations(self, ordered: list[dict[str, Any]]) -> dict[int, _ExpandableSegment]:
        """The reservation (by id of its segment dict) each expandable run of `ordered` (sorted by address) lies in.

        A snapshot reports each mapped run of a reservation as a segment of its own. Runs that follow one another,
        on the same stream and pool, a whole number of pages apart and within one reservation's size (9/8 of the
        device), are taken for one reservation starting at the first; any other segment between them ends it. Its
        unmapped tail reaches to the reservation's size or the next segment, whichever comes first.
        """
        found: dict[int, _ExpandableSegment] = {}
        current: _ExpandableSegment | None = None
        for i, seg in enumerate(ordered):
            start, size = int(seg["address"]), int(seg["total_size"])
            if not seg.get("is_expandable"):
                current = None
                continue
            stream, small, pool = int(seg.get("stream", 0)), seg.get("segment_type") == "small", self._segment_pool(seg)
            page = self._page(small)
            full = self._reservation_size(page)
            if (
                current is None
                or (current.stream, current.small, current.pool) != (stream, small, pool)
                or (start - current.ptr) % page
                or start + size - current.ptr > full
            ):
                current = _ExpandableSegment(start, size, page, stream, small, pool)
                self.expandable_segments.append(current)
            found[id(seg)] = current
            following = int(ordered[i + 1]["address"]) if i + 1 < len(ordered) else None
            end = current.ptr + full if following is None else min(current.ptr + full, following)
            current.size = max(start + size - current.ptr, (end - current.ptr) // page * page)
        return found

    # -- trace and snapshot ------------------------------------------------------------------------------------

    def _record(  # noqa: PLR0917 (the C++ record_trace's arguments, in its order)
        self, action: str, addr: int, size: int, stream: int, frames: Frames, pool_id: PoolId | None = None
    ) -> None:
        if self.record_history:
            self.clock_us += 1
            self._trace.append((action, addr, size, stream, frames, self.clock_us, 0, pool_id))

    @property
    def trace_length(self) -> int:
        """How many trace entries are kept so far (a replay's bookmark before one call)."""
        return len(self._trace)

    def entries_since(self, start: int) -> list[tuple[str, int, int]]:
        """(action, addr, size) of the entries kept from position `start` on: what the calls since did."""
        entries = self._trace  # indexed from its right end: a few recent entries cost a few steps
        return [entries[j][:3] for j in range(start, len(entries))]

    @property
    def trace(self) -> list[dict[str, Any]]:
        """The recorded trace entries, oldest first, as _snapshot() gives them. Entries of a private pool carry its
        `pool_id` (as torch 2.13's do); the default pool's leave it out, as older releases did."""
        out: list[dict[str, Any]] = []
        append = out.append
        for action, addr, size, stream, frames, time_us, device_free, pool_id in self._trace:
            # dict displays, keys in the order PyTorch writes them
            entry: dict[str, Any] = (
                {"action": action, "device_free": device_free, "size": size, "stream": stream, "time_us": time_us}
                if action == "oom"
                else {"action": action, "addr": addr, "size": size, "stream": stream, "time_us": time_us}
            )
            if frames:
                entry["frames"] = frames
            if pool_id is not None:
                entry["pool_id"] = pool_id
            append(entry)
        return out

    def segment_dicts(self) -> list[dict[str, Any]]:
        """The `segments` of a snapshot: each cudaMalloc'ed segment, and each mapped run of a reservation."""
        heads: list[Block] = list(self.segments.values())
        for head in self.expandable_heads.values():
            b: Block | None = head
            while b is not None:
                if b.mapped and (b.prev is None or not b.prev.mapped):
                    heads.append(b)
                b = b.next
        out = []
        for head in sorted(heads, key=lambda h: h.addr):
            blocks: list[dict[str, Any]] = []
            b = head
            while b is not None and b.mapped:
                state = (
                    "active_allocated"
                    if b.allocated
                    else "active_pending_free"
                    if b.event_count or b.stream_uses
                    else "inactive"
                )
                blocks.append(block_dict(b.addr, b.size, b.requested, state, b.frames))
                b = b.next
                if head.expandable is None and b is not None and b.segment_head != head.segment_head:
                    break
            out.append(
                segment_dict(
                    device=self.device,
                    address=head.addr,
                    stream=head.stream,
                    small=head.small,
                    expandable=head.expandable is not None,
                    frames=head.segment_frames,
                    blocks=blocks,
                    pool_id=head.pool.owner or DEFAULT_POOL_ID,
                )
            )
        return out

    def snapshot(self) -> dict[str, Any]:
        """What `torch.cuda.memory._snapshot()` returns for this one device."""
        traces: list[list[dict[str, Any]]] = [[] for _ in range(self.device)] + [self.trace]
        return {
            "segments": self.segment_dicts(),
            "device_traces": traces,
            "allocator_settings": self.config.snapshot_settings(),
            "external_annotations": [],
        }
