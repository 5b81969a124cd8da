"""What-if replay: a recorded trace fed through the simulator under the recorded or other allocator settings."""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from gpumem_gui.core.allocator.simulator import Block, DeviceAllocatorSim, OutOfMemoryError
from gpumem_gui.core.analysis.timetravel import DeviceTimeline, build_timeline
from gpumem_gui.core.rules.alloc_conf import parse_alloc_conf
from gpumem_gui.core.rules.allocator_constants import GiB
from gpumem_gui.core.snapshot.convert import snapshot_from_object
from gpumem_gui.core.snapshot.model import Action, AllocatorState, BlockState, Snapshot, StackTable, TraceTable

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
    first_divergence: int | None
    snapshot: dict[str, Any] = field(repr=False)
    simulate_seconds: float = 0.0  # CPU time spent feeding the events through the simulator

    def as_dict(self) -> dict[str, Any]:
        replayed = vars(self.replayed) | {"first_divergence": self.first_divergence}
        return {
            "settings": self.settings,
            "device": self.device,
            "capacity_bytes": self.capacity,
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


def guess_capacity(timeline: DeviceTimeline) -> int:
    """The device size a replay assumes: what an OOM saw (reserved then plus free), else 80 GiB."""
    s = timeline.series
    seen = [int(s.reserved[o.index]) + o.device_free_bytes for o in timeline.ooms]
    return max([*seen, DEFAULT_CAPACITY if not seen else 0, s.peak("reserved")])


def replay(
    snapshot: Snapshot,
    *,
    device: int | None = None,
    overrides: list[str] | None = None,
    capacity: int | None = None,
) -> ReplayResult:
    """Feed `device`'s recorded allocations and frees through the simulator from the state before the trace."""
    device = snapshot.default_device() if device is None else device
    trace = snapshot.trace(device)
    if not len(trace):
        raise ValueError(f"device {device} has no trace to replay")
    timeline = build_timeline(snapshot, device)
    recorded = (snapshot.allocator_settings or {}).get("PYTORCH_CUDA_ALLOC_CONF", "") or ""
    if not recorded and (snapshot.allocator_settings or {}).get("expandable_segments"):
        recorded = "expandable_segments:True"
    settings = merged_settings(str(recorded), overrides or [])
    capacity = capacity or guess_capacity(timeline)
    sim = DeviceAllocatorSim(capacity, settings, device=device)
    first = timeline.state_at(-1)
    handles = {b.addr: b for b in sim.load_segments(_segment_dicts(first, snapshot.stacks))}
    started = time.process_time()
    divergence = _feed(sim, trace, snapshot.stacks, handles)
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
    )


def _feed(sim: DeviceAllocatorSim, trace: TraceTable, stacks: StackTable, handles: dict[int, Block]) -> int | None:
    """Run the recorded events through `sim`; returns the first alloc placed at another address, or None."""
    actions, addrs, sizes, streams = (
        trace.action.tolist(),
        trace.addr.tolist(),
        trace.size.tolist(),
        trace.stream.tolist(),
    )
    stack_of = trace.stack.tolist()
    frame_cache: dict[int, list[dict[str, Any]]] = {}

    def frames(i: int) -> list[dict[str, Any]]:
        k = stack_of[i]
        if k not in frame_cache:
            frame_cache[k] = [{"name": f.name, "filename": f.filename, "line": f.line} for f in stacks.stack(k)]
        return frame_cache[k]

    n = len(actions)
    divergence: int | None = None
    pending = {addr for addr, block in handles.items() if block.event_count}  # pending since before the trace
    releasing = False  # inside a run of segment_free / segment_unmap: empty_cache (or the OOM path) ran here
    for i in range(n):
        a = actions[i]
        if a == Action.ALLOC:
            releasing = False
            try:
                block = sim.malloc(sizes[i], streams[i], frames(i))
            except OutOfMemoryError:
                divergence = i if divergence is None else divergence
                continue
            finally:
                sim.address_hint = None
            handles[addrs[i]] = block
            if block.addr != addrs[i] and divergence is None:
                divergence = i
        elif a == Action.FREE_REQUESTED:
            freed = handles.get(addrs[i])
            if freed is None or not freed.allocated:
                continue
            completes_now = i + 1 < n and actions[i + 1] == Action.FREE_COMPLETED and addrs[i + 1] == addrs[i]
            if not completes_now:  # other streams still used it: pending until its free_completed
                sim.record_stream(freed, -freed.addr)
                pending.add(addrs[i])
            sim.free(freed)
        elif a == Action.FREE_COMPLETED:
            done = handles.pop(addrs[i], None)
            if done is not None and addrs[i] in pending:
                pending.discard(addrs[i])
                sim.synchronize(-done.addr)
        elif a in (Action.SEGMENT_FREE, Action.SEGMENT_UNMAP):
            if not releasing:
                sim.empty_cache()
                releasing = True
        elif a in (Action.SEGMENT_ALLOC, Action.SEGMENT_MAP):
            releasing = False
            sim.address_hint = addrs[i]  # the recorded program got this address: take it if the replay agrees
        elif a == Action.OOM:
            releasing = False
            # the recorded request failed; under other settings it may fit (and is given back at once)
            with contextlib.suppress(OutOfMemoryError):
                sim.free(sim.malloc(sizes[i], streams[i], frames(i)))
    return divergence
