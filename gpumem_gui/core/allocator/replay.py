"""What-if replay: a recorded trace fed through the simulator under the recorded or other allocator settings."""

from __future__ import annotations

import bisect
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from gpumem_gui.core.allocator.releases import ReleaseRun, capacity_bound, release_runs
from gpumem_gui.core.allocator.simulator import Block, DeviceAllocatorSim, OutOfMemoryError
from gpumem_gui.core.analysis.timetravel import DeviceTimeline, build_timeline
from gpumem_gui.core.rules.alloc_conf import parse_alloc_conf
from gpumem_gui.core.rules.allocator_constants import GiB
from gpumem_gui.core.snapshot.convert import snapshot_from_object
from gpumem_gui.core.snapshot.model import Action, AllocatorState, BlockState, Snapshot, StackTable, TraceTable
from gpumem_gui.core.snapshot.safe_unpickle import gc_paused

DEFAULT_CAPACITY = 80 * GiB


@dataclass(frozen=True)
class RunFigures:
    peak_reserved_bytes: int
    final_reserved_bytes: int
    peak_allocated_bytes: int
    device_allocations: int  # segment_alloc + segment_map
    device_frees: int  # segment_free + segment_unmap
    oom_events: int
    max_external_fragmentation: float


@dataclass
class ReplayResult:
    settings: str
    device: int
    capacity: int
    original: RunFigures
    replayed: RunFigures
    first_divergence: int | None  # the first recorded event the replay did not do alike (see _Feed)
    snapshot: dict[str, Any] = field(repr=False)
    simulate_seconds: float = 0.0  # CPU time spent feeding the events through the simulator
    address_hints: bool = True  # the simulator was offered the recorded device addresses
    explicit_releases: int = 0  # runs of frees replayed as empty_cache()
    allocator_releases: int = 0  # runs of frees left to the simulator to decide

    def as_dict(self) -> dict[str, Any]:
        replayed = vars(self.replayed) | {"first_divergence": self.first_divergence}
        return {
            "settings": self.settings,
            "device": self.device,
            "capacity_bytes": self.capacity,
            "address_hints": self.address_hints,
            "releases": {"explicit_empty_cache": self.explicit_releases, "allocator": self.allocator_releases},
            "original": vars(self.original),
            "replayed": replayed,
        }


def merged_settings(recorded: str, overrides: list[str]) -> str:
    """The recorded PYTORCH_CUDA_ALLOC_CONF with `key:value` overrides applied (later ones win)."""
    items: dict[str, str] = {}
    for text in [recorded, *overrides]:
        depth, start = 0, 0
        parts = []
        for i, ch in enumerate(text + ","):
            depth += ch == "["
            depth -= ch == "]"
            if ch == "," and depth == 0:
                parts.append(text[start:i])
                start = i + 1
        for part in parts:
            if part.strip():
                key, _, value = part.partition(":")
                items[key.strip()] = value.strip()
    result = ",".join(f"{k}:{v}" for k, v in items.items())
    parse_alloc_conf(result)  # refuse bad values before replaying anything
    return result


def figures(timeline: DeviceTimeline, trace: TraceTable) -> RunFigures:
    s = timeline.series
    actions = trace.action
    frag = float(max(s.initial["external_fragmentation"], s.external_fragmentation.max(initial=0.0)))
    return RunFigures(
        peak_reserved_bytes=s.peak("reserved"),
        final_reserved_bytes=int(s.reserved[-1]) if len(s) else int(s.initial["reserved"]),
        peak_allocated_bytes=s.peak("allocated"),
        device_allocations=int(np.isin(actions, (Action.SEGMENT_ALLOC, Action.SEGMENT_MAP)).sum()),
        device_frees=int(np.isin(actions, (Action.SEGMENT_FREE, Action.SEGMENT_UNMAP)).sum()),
        oom_events=int((actions == Action.OOM).sum()),
        max_external_fragmentation=frag,
    )


def _refuse_overlaps(segments: list[dict[str, Any]], device: int) -> None:
    """The state the trace starts from must be one an allocator can hold: no two segments, and no two blocks of a
    segment, share an address, and every block lies inside its segment."""
    end, last = -1, None
    for seg in sorted(segments, key=lambda x: x["address"]):
        start = seg["address"]
        if start < end:
            raise ValueError(
                f"device {device}: the trace does not replay: before its first event segments at {last:#x} and "
                f"{start:#x} would overlap"
            )
        end, last = start + seg["total_size"], start
        at = start
        for block in seg["blocks"]:
            if block["address"] < at or block["address"] + block["size"] > end:
                raise ValueError(
                    f"device {device}: the trace does not replay: before its first event the block at "
                    f"{block['address']:#x} would overlap another or leave its segment at {start:#x}"
                )
            at = block["address"] + block["size"]


def _segment_dicts(state: AllocatorState, stacks: StackTable) -> list[dict[str, Any]]:
    """Snapshot-format segments of a state (what the simulator restores)."""

    def frames(index: int) -> list[dict[str, Any]]:
        return [{"name": f.name, "filename": f.filename, "line": f.line} for f in stacks.stack(index)]

    seg, blk = state.segments, state.blocks
    names = {BlockState.INACTIVE: "inactive", BlockState.ALLOCATED: "active_allocated"}
    out = []
    for i in range(len(seg)):
        first, count = int(seg.block_start[i]), int(seg.block_count[i])
        blocks = [
            {
                "address": int(blk.address[j]),
                "size": int(blk.size[j]),
                "requested_size": int(blk.requested_size[j]),
                "state": names.get(BlockState(blk.state[j]), "active_pending_free"),
                "frames": frames(int(blk.stack[j])),
            }
            for j in range(first, first + count)
        ]
        out.append(
            {
                "address": int(seg.address[i]),
                "total_size": int(seg.total_size[i]),
                "stream": int(seg.stream[i]),
                "segment_type": "small" if seg.is_small[i] else "large",
                "is_expandable": bool(seg.is_expandable[i]),
                "frames": frames(int(seg.stack[i])),
                "blocks": blocks,
            }
        )
    return out


def guess_capacity(timeline: DeviceTimeline, bound: int | None = None) -> int:
    """The device size a replay assumes: what an OOM saw (reserved then plus free), else 80 GiB; no more than
    `bound` (what the allocator's own releases say, see releases.capacity_bound), never less than the peak."""
    s = timeline.series
    seen = [int(s.reserved[o.index]) + o.device_free_bytes for o in timeline.ooms]
    guess = max(seen) if seen else DEFAULT_CAPACITY
    if bound is not None:
        guess = min(guess, bound)
    return max(guess, s.peak("reserved"))


def replay(
    snapshot: Snapshot,
    *,
    device: int | None = None,
    overrides: list[str] | None = None,
    capacity: int | None = None,
    hints: bool = True,
) -> ReplayResult:
    """Feed `device`'s recorded allocations and frees through the simulator from the state before the trace.

    Only the program's own empty_cache() calls are replayed as such; where the allocator released cached memory
    itself (a request that did not fit, or an OOM), the simulator decides. With `hints`, each new segment is
    offered the address the recording got (taken when free); without, the simulator picks every address.
    """
    device = snapshot.default_device() if device is None else device
    trace = snapshot.trace(device)
    if not len(trace):
        raise ValueError(f"device {device} has no trace to replay")
    timeline = build_timeline(snapshot, device)
    recorded = (snapshot.allocator_settings or {}).get("PYTORCH_CUDA_ALLOC_CONF", "") or ""
    if not recorded and (snapshot.allocator_settings or {}).get("expandable_segments"):
        recorded = "expandable_segments:True"
    settings = merged_settings(str(recorded), overrides or [])
    runs = release_runs(trace, snapshot.stacks)
    if not capacity:
        bound = None
        if not parse_alloc_conf(str(recorded)).garbage_collection_threshold:  # gc frees memory without a failure
            bound = capacity_bound(trace, timeline.series.reserved, int(timeline.series.initial["reserved"]), runs)
        capacity = guess_capacity(timeline, bound)
    sim = DeviceAllocatorSim(capacity, settings, device=device)
    first = timeline.state_at(-1)
    segments = _segment_dicts(first, snapshot.stacks)
    _refuse_overlaps(segments, device)
    handles = {b.addr: b for b in sim.load_segments(segments)}
    # the simulation makes a trace entry per event and a block per split, and the result a dict per entry, none
    # of them in cycles: the cyclic collector, walking every container made so far, would only cost time
    with gc_paused():
        started = time.process_time()
        feed = _Feed(sim, trace, snapshot.stacks, handles, runs=runs, hints=hints)
        for seg in segments:  # the state before the trace is restored at its own addresses
            feed.places.add(seg["address"], seg["total_size"], 0)
        divergence = feed.run()
        simulate_seconds = time.process_time() - started
        result_dict = sim.snapshot()
        result_dict["allocator_settings"]["PYTORCH_CUDA_ALLOC_CONF"] = settings
        replayed = snapshot_from_object(result_dict, f"{snapshot.source} (replayed)", "dump")
    replayed_timeline = build_timeline(replayed, device)
    return ReplayResult(
        settings=settings,
        device=device,
        capacity=capacity,
        original=figures(timeline, trace),
        replayed=figures(replayed_timeline, replayed.trace(device)),
        first_divergence=divergence,
        snapshot=result_dict,
        simulate_seconds=simulate_seconds,
        address_hints=hints,
        explicit_releases=sum(r.explicit for r in runs),
        allocator_releases=sum(not r.explicit for r in runs),
    )


_RELEASES = ("segment_free", "segment_unmap")
_ACQUIRES = ("segment_alloc", "segment_map")


class _Places:
    """Where the replay put each recorded device range: the offset from a recorded address to the replay's own.

    Ranges come from the state before the trace (offset 0) and from pairing each recorded cudaMalloc or page map
    with the one the simulator made for the same request; releases carve them out again.
    """

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.spans: dict[int, tuple[int, int]] = {}  # start -> (end, offset)

    def add(self, start: int, size: int, offset: int) -> None:
        self.remove(start, size)
        bisect.insort(self.starts, start)
        self.spans[start] = (start + size, offset)

    def remove(self, start: int, size: int) -> None:
        end = start + size
        i = max(bisect.bisect_right(self.starts, start) - 1, 0)
        while i < len(self.starts) and self.starts[i] < end:
            s = self.starts[i]
            e, offset = self.spans[s]
            if e <= start:
                i += 1
                continue
            del self.starts[i], self.spans[s]
            for lo, hi in ((s, start), (end, e)):  # the parts outside the removed range stay
                if lo < hi:
                    self.starts.insert(i, lo)
                    self.spans[lo] = (hi, offset)
                    i += 1

    def translate(self, addr: int) -> int | None:
        i = bisect.bisect_right(self.starts, addr) - 1
        if i >= 0:
            end, offset = self.spans[self.starts[i]]
            if addr < end:
                return addr + offset
        return None


class _Feed:
    """Runs the recorded events through the simulator and finds the first one the replay did not do alike.

    A divergence is a recorded device call (cudaMalloc or page map, or their release) that the replay did not
    make for the same request, or one it made that the recording did not (compared by size, and by address
    through the ranges both runs got); an OOM where the recording had none, or none where it had one; or a
    block placed elsewhere within its segment. Addresses are compared through `_Places`, so a replay without
    address hints is held to the same layout, only not to the same device addresses.
    """

    def __init__(
        self,
        sim: DeviceAllocatorSim,
        trace: TraceTable,
        stacks: StackTable,
        handles: dict[int, Block],
        *,
        runs: list[ReleaseRun],
        hints: bool,
    ) -> None:
        self.sim, self.trace, self.stacks, self.handles, self.hints = sim, trace, stacks, handles, hints
        self.explicit = {r.start: r.stop for r in runs if r.explicit}
        # PyTorch's release first waits for every pending free (synchronize_and_free_events): the free_completed
        # rows right before the allocator's own release are its doing, so the replay lets that release (or, where
        # the simulator needs none, the end of the request) complete them, not the row before the request
        actions = trace.action
        self.synced: set[int] = set()
        for run in runs:
            j = run.start - 1
            while not run.explicit and j >= 0 and actions[j] == Action.FREE_COMPLETED:
                self.synced.add(j)
                j -= 1
        self.deferred: list[int] = []  # streams (-address) of pending frees left to the next request
        self.places = _Places()
        self.divergence: int | None = None
        self.expected: list[tuple[int, int, int, int]] = []  # (row, +1 acquire / -1 release, addr, size)
        self._frames: dict[int, list[dict[str, Any]]] = {}

    def frames(self, k: int) -> list[dict[str, Any]]:
        if k not in self._frames:
            self._frames[k] = [{"name": f.name, "filename": f.filename, "line": f.line} for f in self.stacks.stack(k)]
        return self._frames[k]

    def diverge(self, row: int) -> None:
        if self.divergence is None:
            self.divergence = row

    def run(self) -> int | None:
        sim, handles, trace = self.sim, self.handles, self.trace
        actions, addrs, sizes = trace.action.tolist(), trace.addr.tolist(), trace.size.tolist()
        streams, stack_of = trace.stream.tolist(), trace.stack.tolist()
        n = len(actions)
        pending = {addr for addr, block in handles.items() if block.event_count}  # pending since before the trace
        skip_until = 0  # rows of an explicit empty_cache() already replayed
        # the hot loop's names as locals: an attribute or enum lookup per event is a measurable share of a replay
        alloc, free_requested, free_completed = (
            int(Action.ALLOC),
            int(Action.FREE_REQUESTED),
            int(Action.FREE_COMPLETED),
        )
        malloc, free, cached_frames, frames_of = sim.malloc, sim.free, self._frames, self.frames
        translate, history, deferred = self.places.translate, sim._trace, self.deferred
        for i in range(n):
            a = actions[i]
            if a == alloc:
                mark, calls = len(history), sim.num_device_alloc + sim.num_device_free
                k = stack_of[i]
                frames = cached_frames[k] if k in cached_frames else frames_of(k)
                try:
                    block = malloc(sizes[i], streams[i], frames)
                except OutOfMemoryError:
                    self.diverge(self.expected[0][0] if self.expected else i)
                    self.expected.clear()
                    continue
                finally:
                    sim.address_hint = None
                    if deferred:
                        self.complete_deferred()
                handles[addrs[i]] = block
                if self.divergence is not None:
                    continue  # only the first divergence is reported: the rest is simulation alone
                if self.expected or sim.num_device_alloc + sim.num_device_free != calls:
                    self.settle(i, mark)
                if translate(addrs[i]) != block.addr:
                    self.diverge(i)
            elif a == free_requested:
                freed = handles.get(addrs[i])
                if freed is None or not freed.allocated:
                    continue
                completes_now = i + 1 < n and actions[i + 1] == free_completed and addrs[i + 1] == addrs[i]
                if not completes_now:  # other streams still used it: pending until its free_completed
                    sim.record_stream(freed, -freed.addr)
                    pending.add(addrs[i])
                free(freed)
            elif a == free_completed:
                done = handles.pop(addrs[i], None)
                if done is not None and addrs[i] in pending:
                    pending.discard(addrs[i])
                    if i in self.synced:
                        self.deferred.append(-done.addr)
                    else:
                        sim.synchronize(-done.addr)
            elif a in (Action.SEGMENT_FREE, Action.SEGMENT_UNMAP):
                if i in self.explicit:  # the program's empty_cache(): replayed as such
                    skip_until = self.explicit[i]
                    mark = sim.trace_length
                    sim.empty_cache(self.frames(stack_of[i]))
                    self.expected = [(j, -1, addrs[j], sizes[j]) for j in range(i, skip_until)]
                    self.settle(i, mark)
                elif i >= skip_until:  # the allocator's own: the simulator decides at the next request
                    self.expected.append((i, -1, addrs[i], sizes[i]))
            elif a in (Action.SEGMENT_ALLOC, Action.SEGMENT_MAP):
                if self.hints and not any(sign > 0 for _, sign, _, _ in self.expected):
                    sim.address_hint = addrs[i]  # the recorded program got this address: take it if free
                self.expected.append((i, 1, addrs[i], sizes[i]))
            elif a == Action.OOM:
                # the recorded request failed; under other settings it may fit (and is given back at once)
                mark = sim.trace_length
                try:
                    sim.free(sim.malloc(sizes[i], streams[i], self.frames(stack_of[i])))
                    self.diverge(i)
                except OutOfMemoryError:
                    pass
                finally:
                    sim.address_hint = None
                    self.complete_deferred()
                self.settle(i, mark)
        return self.divergence

    def complete_deferred(self) -> None:
        for stream in self.deferred:  # no-ops where the simulator's own release already completed them
            self.sim.synchronize(stream)
        self.deferred.clear()

    def settle(self, row: int, mark: int) -> None:
        """Compare the device calls the simulator made since `mark` with the recorded ones of this request."""
        expected, self.expected = self.expected, []
        if self.divergence is not None:
            return
        made = self.sim.entries_since(mark)
        first = expected[0][0] if expected else row
        places = self.places
        recorded_out = [(addr, size) for _, sign, addr, size in expected if sign < 0]
        made_out = sorted((addr, size) for action, addr, size in made if action in _RELEASES)
        recorded_in = [(addr, size) for _, sign, addr, size in expected if sign > 0]
        made_in = [(addr, size) for action, addr, size in made if action in _ACQUIRES]
        where = [places.translate(addr) for addr, _ in recorded_out]
        if None in where:  # a range the replay never paired: sizes are all there is to compare
            same_out = sorted(s for _, s in recorded_out) == sorted(s for _, s in made_out)
        else:
            same_out = sorted(zip(where, (s for _, s in recorded_out), strict=True)) == made_out
        if not same_out or [s for _, s in recorded_in] != [s for _, s in made_in]:
            self.diverge(first)
            return
        for addr, size in recorded_out:
            places.remove(addr, size)
        for (addr, size), (own, _) in zip(recorded_in, made_in, strict=True):
            places.add(addr, size, own - addr)
