"""Self-consistent synthetic snapshots (a training-like workload on a best-fit caching allocator) for tests and
benchmarks: the same dict `torch.cuda.memory._dump_snapshot` writes, made without a GPU.

The allocator here follows PyTorch's sizing, pool and split rules so that replaying its trace lands exactly on its
segments; the faithful simulator with every rule of the real one is `core.simulator`.
"""

from __future__ import annotations

import bisect
import copy
import random
from dataclasses import dataclass, field
from typing import Any

from gpumem_gui.core.rules.allocator_constants import GiB, MiB
from gpumem_gui.core.rules.allocator_rules import allocation_size, is_small_request, round_size, should_split
from gpumem_gui.core.snapshot.snapshot_dicts import block_dict, segment_dict

_SEGMENT_ALIGN = 2 * MiB


@dataclass
class _Block:
    addr: int
    size: int
    segment: int
    requested: int = 0
    allocated: bool = False
    pending: bool = False
    frames: list[dict[str, Any]] = field(default_factory=list)


class _BestFitAllocator:
    """A compact caching allocator: per (stream, pool) best fit, front split, merging frees, empty_cache on OOM."""

    def __init__(self, device: int, capacity: int, record: list[dict[str, Any]], clock: list[int]) -> None:
        self.device = device
        self.capacity = capacity
        self.trace = record
        self.clock = clock
        self.next_va = (0x7F00_0000_0000 + device * 0x0100_0000_0000) // _SEGMENT_ALIGN * _SEGMENT_ALIGN
        self.segments: dict[int, tuple[int, int, bool, list[dict[str, Any]]]] = {}  # start -> size, stream, small
        self.blocks: dict[int, _Block] = {}
        self.ends: dict[int, int] = {}  # block end -> block start (same segment only)
        self.free_sets: dict[tuple[int, bool], list[tuple[int, int]]] = {}
        self.reserved = 0

    def _emit(self, action: str, addr: int, size: int, stream: int, frames: list[dict[str, Any]] | None) -> None:
        self.clock[0] += 1
        entry: dict[str, Any] = {"action": action, "addr": addr, "size": size, "stream": stream}
        entry["time_us"] = self.clock[0]
        if frames is not None:
            entry["frames"] = frames
        self.trace.append(entry)

    def _pool_of(self, block: _Block) -> tuple[int, bool]:
        _, stream, small, _ = self.segments[block.segment]
        return stream, small

    def _insert_free(self, block: _Block) -> None:
        bisect.insort(self.free_sets.setdefault(self._pool_of(block), []), (block.size, block.addr))

    def _remove_free(self, block: _Block) -> None:
        entries = self.free_sets[self._pool_of(block)]
        del entries[bisect.bisect_left(entries, (block.size, block.addr))]

    def malloc(self, requested: int, stream: int, frames: list[dict[str, Any]]) -> int | None:
        size = round_size(requested)
        small = is_small_request(size)
        entries = self.free_sets.get((stream, small), [])
        index = bisect.bisect_left(entries, (size, 0))
        if index < len(entries):
            block = self.blocks[entries[index][1]]
            self._remove_free(block)
        else:
            seg_size = allocation_size(size)
            if self.reserved + seg_size > self.capacity:
                self.empty_cache(frames)  # the allocator's own release: PyTorch records the request's stack on it
            if self.reserved + seg_size > self.capacity:
                self.clock[0] += 1
                self.trace.append(
                    {
                        "action": "oom",
                        "size": size,
                        "stream": stream,
                        "device_free": self.capacity - self.reserved,
                        "time_us": self.clock[0],
                        "frames": frames,
                    }
                )
                return None
            start = self.next_va
            self.next_va += -(-seg_size // _SEGMENT_ALIGN) * _SEGMENT_ALIGN
            self.segments[start] = (seg_size, stream, small, frames)
            self.reserved += seg_size
            self._emit("segment_alloc", start, seg_size, stream, frames)
            block = _Block(start, seg_size, start)
            self.blocks[start] = block
            self.ends[start + seg_size] = start
        if should_split(block.size, size, small_pool=small, expandable=False):
            rest = _Block(block.addr + size, block.size - size, block.segment)
            del self.ends[block.addr + block.size]
            block.size = size
            self.ends[block.addr + size] = block.addr
            self.ends[rest.addr + rest.size] = rest.addr
            self.blocks[rest.addr] = rest
            self._insert_free(rest)
        block.allocated, block.requested, block.frames = True, requested, frames
        self._emit("alloc", block.addr, requested, stream, frames)
        return block.addr

    def free(self, addr: int, stream: int, *, pending: bool = False) -> None:
        block = self.blocks[addr]
        block.allocated = False
        self._emit("free_requested", addr, block.requested, stream, block.frames)
        if pending:
            block.pending = True
        else:
            self.complete(addr, stream)

    def complete(self, addr: int, stream: int) -> None:
        block = self.blocks[addr]
        block.pending = False
        self._emit("free_completed", addr, block.requested, stream, block.frames)
        block.frames = []
        seg_start = block.segment
        seg_end = seg_start + self.segments[seg_start][0]
        nxt = self.blocks.get(block.addr + block.size) if block.addr + block.size < seg_end else None
        if nxt is not None and not nxt.allocated and not nxt.pending:
            self._remove_free(nxt)
            del self.blocks[nxt.addr], self.ends[block.addr + block.size]
            block.size += nxt.size
            self.ends[block.addr + block.size] = block.addr
        prev_start = self.ends.get(block.addr) if block.addr > seg_start else None
        prev = self.blocks.get(prev_start) if prev_start is not None else None
        if prev is not None and not prev.allocated and not prev.pending:
            self._remove_free(prev)
            del self.blocks[block.addr], self.ends[block.addr]
            del self.ends[block.addr + block.size]
            prev.size += block.size
            self.ends[prev.addr + prev.size] = prev.addr
            block = prev
        self._insert_free(block)

    def empty_cache(self, frames: list[dict[str, Any]] | None = None) -> None:
        # like release_cached_blocks: wait for every outstanding stream use first, then free whole free segments
        for block in [b for b in self.blocks.values() if b.pending]:
            self.complete(block.addr, self.segments[block.segment][1])
        for start, (size, stream, _small, _frames) in list(self.segments.items()):
            block = self.blocks[start]
            if block.size == size and not block.allocated and not block.pending:
                self._remove_free(block)
                del self.blocks[start], self.ends[start + size], self.segments[start]
                self.reserved -= size
                self._emit("segment_free", start, size, stream, frames)

    def segments_dict(self) -> list[dict[str, Any]]:
        out = []
        for start in sorted(self.segments):
            size, stream, small, frames = self.segments[start]
            blocks: list[dict[str, Any]] = []
            addr = start
            while addr < start + size:
                b = self.blocks[addr]
                state = "active_allocated" if b.allocated else "active_pending_free" if b.pending else "inactive"
                blocks.append(block_dict(b.addr, b.size, b.requested, state, b.frames))
                addr += b.size
            out.append(
                segment_dict(
                    device=self.device,
                    address=start,
                    stream=stream,
                    small=small,
                    expandable=False,
                    frames=frames,
                    blocks=blocks,
                )
            )
        return out


def _make_stacks(rng: random.Random, count: int, depth: tuple[int, int]) -> list[list[dict[str, Any]]]:
    files = [f"/home/user/project/model/layer{i}.py" for i in range(40)] + [
        "/usr/lib/python3.11/site-packages/torch/nn/modules/module.py",
        "/usr/lib/python3.11/site-packages/torch/nn/functional.py",
        "train.py",
    ]
    frames = [
        {
            "name": f"{rng.choice(['forward', 'backward', 'step', 'attention', 'mlp', 'norm'])}_{i}",
            "filename": rng.choice(files),
            "line": rng.randint(1, 900),
        }
        for i in range(max(count * 4, 64))
    ]
    module = {"name": "<module>", "filename": "train.py", "line": 1}
    stacks = []
    for _ in range(count):
        body = rng.sample(frames, rng.randint(*depth) - 1)
        stacks.append([*body, module])
    return stacks


def synthetic_snapshot(events: int = 20_000, **options: Any) -> dict[str, Any]:
    """A `_dump_snapshot`-shaped dict whose last `events` trace entries per device follow a training-like workload.

    Blocks allocated during the warm-up (parameters, optimizer state) are live before the recorded trace starts,
    as when recording begins mid-run or the ring buffer has dropped the oldest entries. Options: see synthetic_run.
    """
    return synthetic_run(events, **options)[0]


def synthetic_run(
    events: int = 20_000,
    *,
    seed: int = 0,
    devices: int = 1,
    streams: int = 1,
    distinct_stacks: int = 300,
    stack_depth: tuple[int, int] = (6, 30),
    warmup_events: int | None = None,
    pending_fraction: float = 0.02,
    capacity: int = 16 * GiB,
    capture_every: int = 0,
) -> tuple[dict[str, Any], dict[int, dict[int, list[dict[str, Any]]]]]:
    """The snapshot of `synthetic_snapshot`, and with `capture_every` the generator's own segments every so many
    events: {device: {trace index: segments right after that event}}, the ground truth for time travel."""
    rng = random.Random(seed)
    stacks = _make_stacks(rng, distinct_stacks, stack_depth)
    if warmup_events is None:
        warmup_events = max(200, events // 20)
    traces = []
    segments: list[dict[str, Any]] = []
    clock = [1_700_000_000_000_000]
    captures: dict[int, dict[int, list[dict[str, Any]]]] = {}
    for device in range(devices):
        record: list[dict[str, Any]] = []
        alloc = _BestFitAllocator(device, capacity, record, clock)
        taken: dict[int, list[dict[str, Any]]] = {}
        next_capture = [capture_every]

        def capture(
            alloc: _BestFitAllocator = alloc,
            record: list[Any] = record,
            taken: dict[int, Any] = taken,
            next_capture: list[int] = next_capture,
        ) -> None:
            if capture_every and len(record) - 1 >= next_capture[0]:
                taken[len(record) - 1] = copy.deepcopy(alloc.segments_dict())
                next_capture[0] = len(record) - 1 + capture_every

        live: list[tuple[int, int]] = []  # (addr, stream) in allocation order
        pending: list[tuple[int, int, int]] = []  # (due event count, addr, stream)
        target = events + warmup_events
        params = 0
        while len(record) < target:
            if params < 40:  # long-lived parameters and optimizer state
                params += 1
                alloc.malloc(rng.choice([4, 16, 64]) * MiB + rng.randint(0, 4096), 0, list(rng.choice(stacks)))
                continue
            # one "iteration": activations grow, then are freed mostly in reverse order, with temporaries between
            depth = rng.randint(20, 120)
            for _ in range(depth):
                stream = rng.randrange(streams)
                kind = rng.random()
                if kind < 0.5:
                    size = rng.randint(1, 1 * MiB)
                elif kind < 0.9:
                    size = rng.randint(1 * MiB, 40 * MiB)
                else:
                    size = rng.randint(40 * MiB, 400 * MiB)
                addr = alloc.malloc(size, stream, list(rng.choice(stacks)))
                capture()
                if addr is not None:
                    live.append((addr, stream))
                if live and rng.random() < 0.3:  # a temporary dies at once
                    a, s = live.pop(rng.randrange(max(0, len(live) - 3), len(live)))
                    alloc.free(a, s)
                    capture()
            while len(live) > rng.randint(0, 10):
                a, s = live.pop()
                if rng.random() < pending_fraction:  # used on a side stream: the free waits for an event
                    alloc.free(a, s, pending=True)
                    pending.append((len(record) + rng.randint(2, 50), a, s))
                else:
                    alloc.free(a, s)
                capture()
                for item in [p for p in pending if p[0] <= len(record)]:
                    pending.remove(item)
                    if item[1] in alloc.blocks and alloc.blocks[item[1]].pending:  # not done by empty_cache
                        alloc.complete(item[1], item[2])
                        capture()
            if rng.random() < 0.01:
                alloc.empty_cache()
                capture()
        kept = record[-events:] if events else []
        offset = len(record) - len(kept)
        captures[device] = {i - offset: segs for i, segs in taken.items() if i >= offset}
        traces.append(kept)
        segments.extend(alloc.segments_dict())
    dump = {
        "segments": segments,
        "device_traces": traces,
        "allocator_settings": {
            "PYTORCH_CUDA_ALLOC_CONF": "",
            "max_split_size": -1,
            "garbage_collection_threshold": 0.0,
            "expandable_segments": False,
            "roundup_power2_divisions": {str(1 << i): 0 for i in range(16)},
        },
        "external_annotations": [],
    }
    return dump, captures


def unshare_frames(dump: dict[str, Any]) -> dict[str, Any]:
    """`dump` (changed in place) with frame dicts of its own at each frames list, as a tool that rewrote the file
    gives it: equal content, no frame dict shared between two lists (the lists themselves stay shared)."""
    fresh: dict[int, list[dict[str, Any]]] = {}

    def own(frames: Any) -> Any:
        if not frames:
            return frames
        if id(frames) not in fresh:
            fresh[id(frames)] = [dict(f) for f in frames]
        return fresh[id(frames)]

    for trace in dump["device_traces"]:
        for entry in trace:
            if "frames" in entry:
                entry["frames"] = own(entry["frames"])
    for segment in dump["segments"]:
        segment["frames"] = own(segment.get("frames"))
        for block in segment["blocks"]:
            block["frames"] = own(block.get("frames"))
    return dump
