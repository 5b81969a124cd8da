"""What-if replay: a recorded trace fed through the simulator under the recorded or other allocator settings."""

from __future__ import annotations

import dataclasses
import os
import time
import weakref
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from gpumem_gui.core.allocator import simulator
from gpumem_gui.core.allocator._feed import Feed
from gpumem_gui.core.allocator.inferred_pools import InferredPool, unnamed_pool_segment, with_inferred
from gpumem_gui.core.allocator.judged import unjudged_reason
from gpumem_gui.core.allocator.pool_rows import row_pools
from gpumem_gui.core.allocator.releases import capacity_bound, release_runs
from gpumem_gui.core.allocator.trace_transforms import ChangedTrace
from gpumem_gui.core.analysis.process_limit import process_limit
from gpumem_gui.core.analysis.timetravel import DeviceTimeline, build_timeline
from gpumem_gui.core.rules.alloc_conf import AllocConfError, parse_alloc_conf
from gpumem_gui.core.rules.allocator_constants import GiB
from gpumem_gui.core.rules.allocator_rules import DEFAULT_CONFIG, AllocatorConfig
from gpumem_gui.core.rules.torch_versions import (
    DEFAULT_RULES,
    TorchRules,
    format_release,
    modelled_release,
    nearest_modelled,
    parse_version,
)
from gpumem_gui.core.snapshot.convert import snapshot_from_object
from gpumem_gui.core.snapshot.model import Action, AllocatorState, BlockState, Snapshot, StackTable, TraceTable
from gpumem_gui.core.snapshot.safe_unpickle import gc_paused
from gpumem_gui.core.snapshot.units import format_bytes_exact

try:  # the compiled twins of simulator.py and _feed.py (setup.py compiles those very files); absent without a compiler
    from gpumem_gui.core.allocator import _cfeed, _sim  # type: ignore[attr-defined]
except ImportError:
    _cfeed = _sim = None

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
    first_divergence: int | None  # the first recorded event the replay did not do alike (see _feed.Feed)
    snapshot: dict[str, Any] = field(repr=False)
    simulate_seconds: float = 0.0  # CPU time spent feeding the events through the simulator
    address_hints: bool = True  # the simulator was offered the recorded device addresses
    explicit_releases: int = 0  # runs of frees replayed as empty_cache()
    allocator_releases: int = 0  # runs of frees left to the simulator to decide
    unjudged: str = ""  # why the trace cannot judge these settings (see judged.py); "" when it can
    # per recorded event, the replayed event of the same request (-1: before the first), see paired_events
    replayed_event: np.ndarray | None = field(default=None, repr=False)
    # private pools the trace does not name that the replay assumed, see inferred_pools.py: inferred by this replay
    # (the recorded trace under its recorded settings), else carried from that one's (pools_carried)
    inferred_pools: list[InferredPool] = field(default_factory=list)
    pools_carried: bool = False
    rules: TorchRules = DEFAULT_RULES  # the torch release whose allocator rules the replay followed
    rules_source: str = "assumed"  # "recorded" (by the probe), "given" or "assumed" (the default)
    device_memory: int = 0  # the device's total memory, the base of a memory fraction and of expandable reservations
    device_memory_source: str = "guessed"  # "recorded" (by the probe), "given" or "guessed" (= the capacity)
    capacity_source: str = "given"  # a key of CAPACITY_SOURCES: where the capacity came from

    def as_dict(self) -> dict[str, Any]:
        replayed = vars(self.replayed) | {"first_divergence": self.first_divergence}
        return {
            "settings": self.settings,
            "device": self.device,
            "capacity_bytes": self.capacity,
            "device_memory_bytes": self.device_memory,
            "device_memory_source": self.device_memory_source,
            "torch_version": format_release(self.rules.release),
            "torch_version_source": self.rules_source,
            "address_hints": self.address_hints,
            "releases": {"explicit_empty_cache": self.explicit_releases, "allocator": self.allocator_releases},
            "original": vars(self.original),
            "replayed": replayed,
            "judged": not self.unjudged,
            "reason": self.unjudged,
            "inferred_private_pools": [pool.as_dict() for pool in self.inferred_pools],
        }


def merged_settings(recorded: str, overrides: list[str], rules: TorchRules = DEFAULT_RULES) -> str:
    """The recorded PYTORCH_CUDA_ALLOC_CONF with `key:value` overrides applied (later ones win); an override the
    release of `rules` refuses is refused in one line that names it and that release."""
    for override in overrides:
        try:
            parse_alloc_conf(override, rules)
        except AllocConfError as e:
            raise AllocConfError(f"{rules.name} refuses '{override}': {e}") from None
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
    try:
        parse_alloc_conf(result, rules)  # refuse bad values before replaying anything
    except AllocConfError as e:
        raise AllocConfError(f"{rules.name} refuses the settings '{result}': {e}") from None
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
                "segment_pool_id": state.pool_ids[int(seg.pool[i])],
                "is_expandable": bool(seg.is_expandable[i]),
                "frames": frames(int(seg.stack[i])),
                "blocks": blocks,
            }
        )
    return out


def capacity_guess(
    timeline: DeviceTimeline,
    bound: int | None = None,
    device_memory: int | None = None,
    *,
    config: AllocatorConfig | None = None,
    recorded_limit: int | None = None,
) -> tuple[int, str]:
    """The memory a replay lets the allocator get, and where it came from (a key of CAPACITY_SOURCES): what an OOM
    saw (reserved then plus free), else the device's total memory when known, else 80 GiB; no more than `bound`
    (what the allocator's own releases say, see releases.capacity_bound) or the device's total, never less than the
    peak.

    An OOM that the device's free memory had room for was refused by a limit of the process's own (a memory
    fraction the trace does not record, see process_limit.py): the replay takes the lowest limit the recording
    allows, so that the recorded OOM happens again and a remedy that fits fits under the real limit too. Not when
    the recorded settings (`config`) carry the fraction: the replay applies it. `recorded_limit`: that limit as the
    probe recorded it (Snapshot.memory_limit), taken where the whole recording stayed under it (a limit set lower
    late in the run cannot have held all along)."""
    config = config or DEFAULT_CONFIG
    fraction_set = bool(config.per_process_memory_fraction)
    s = timeline.series
    seen: list[int] = []
    limits: list[int] = []
    for o in timeline.ooms:
        limit = process_limit(timeline, o, config)
        if limit is not None:
            limits.append(limit.assumed_bytes)
        else:
            seen.append(int(s.reserved[o.index]) + o.device_free_bytes)
    peak = s.peak("reserved")
    if recorded_limit is not None and recorded_limit >= peak and not fraction_set:
        limits, source_of_limit = [recorded_limit], "recorded_limit"
    else:
        source_of_limit = "limit"
    if seen:
        guess, source = max(seen), "oom"
    elif device_memory:
        guess, source = device_memory, "device"
    else:
        guess, source = DEFAULT_CAPACITY, "default"
    for ceiling, why in ((bound, "releases"), (device_memory, "device"), (min(limits, default=None), source_of_limit)):
        if ceiling is not None and ceiling < guess:
            guess, source = ceiling, why
    return (guess, source) if guess >= peak else (peak, "peak")


CAPACITY_SOURCES = {
    "given": "given",
    "oom": "what the OOM saw: reserved memory then plus the device's free memory",
    "device": "the device's total memory",
    "default": "nothing in the file tells it; --capacity sets it",
    "releases": "under what the allocator's own releases say it could get",
    "limit": "the lowest limit of the process that the recording allows: an OOM was refused with room on the device"
    " (a memory fraction); --capacity sets it",
    "peak": "the recorded peak of reserved memory",
    "recorded_limit": "the process's memory fraction of the device, recorded by the gpumem-gui probe",
}


def replay_rules(snapshot: Snapshot, torch_version: str | None = None) -> tuple[TorchRules, str]:
    """The torch release whose rules a replay follows, and where it came from: the one given (refused when not
    modelled), else the one the probe recorded (the nearest modelled when it is outside), else the default."""
    if torch_version:
        return TorchRules(modelled_release(torch_version)), "given"
    if snapshot.torch_version:
        recorded = parse_version(snapshot.torch_version)
        nearest = nearest_modelled(recorded)
        if nearest != recorded:
            return TorchRules(nearest), f"recorded: {snapshot.torch_version}, simulated as the nearest modelled release"
        return TorchRules(recorded), "recorded"
    return DEFAULT_RULES, "assumed"


def replay_config(snapshot: Snapshot, settings: str, overrides: list[str], rules: TorchRules) -> AllocatorConfig:
    """The settings a replay runs under. The roundup table is the file's own, already expanded by the release that
    recorded it, unless an override sets roundup_power2_divisions (then the chosen release reads the list)."""
    config = parse_alloc_conf(settings, rules)
    recorded = snapshot.allocator_settings or {}
    if recorded.get("roundup_power2_divisions") and not any("roundup_power2_divisions" in o for o in overrides):
        table = AllocatorConfig.from_snapshot_settings(recorded).roundup_power2_divisions
        config = dataclasses.replace(config, roundup_power2_divisions=table)
    return config


def compiled_simulation_available() -> bool:
    return _sim is not None and _cfeed is not None


def compiled_simulation_chosen() -> bool:
    """Whether a replay now runs the compiled pair: wherever it was built and GPUMEM_GUI_PURE_PYTHON is not set (read
    on every replay). Both pairs give the same results, which tests/test_replay_twin.py checks."""
    return compiled_simulation_available() and not os.environ.get("GPUMEM_GUI_PURE_PYTHON")


def _simulation() -> tuple[type[simulator.DeviceAllocatorSim], type[Feed]]:
    """The simulator and the feed a replay runs: the compiled pair or the pure-Python one."""
    if compiled_simulation_chosen():
        return _sim.DeviceAllocatorSim, _cfeed.Feed
    return simulator.DeviceAllocatorSim, Feed


def recorded_settings(snapshot: Snapshot) -> str:
    """The PYTORCH_CUDA_ALLOC_CONF the file was recorded under, as far as its allocator settings tell it."""
    settings = snapshot.allocator_settings or {}
    text = str(settings.get("PYTORCH_CUDA_ALLOC_CONF", "") or "")
    if not text and settings.get("expandable_segments"):
        text = "expandable_segments:True"
    return text


@dataclass
class _Run:
    """A replay's simulation done: what both the full result and the lean outcome read."""

    sim: Any
    feed: Any
    trace: TraceTable  # the trace fed (the recorded one, or a changed one)
    timeline: DeviceTimeline  # the recorded timeline
    settings: str
    recorded: str
    capacity: int
    capacity_source: str  # a key of CAPACITY_SOURCES
    runs: list[Any]
    divergence: int | None
    simulate_seconds: float
    initial_reserved: int
    rules: TorchRules
    rules_source: str
    device_memory: int
    device_memory_source: str
    inferred_pools: list[InferredPool]
    pools_carried: bool


# per recorded trace (by identity, while it lives) and replay inputs, the private pools its replay under the recorded
# settings inferred: every replay of the same recording under other settings, or of a changed program, carries them
# (explain replays a dozen remedies, the window's What if… one per choice), and the inference costs replays
_INFERRED: dict[int, tuple[weakref.ref[TraceTable], dict[tuple[Any, ...], list[InferredPool]]]] = {}


def _cached_inference(trace: TraceTable, key: tuple[Any, ...]) -> list[InferredPool] | None:
    held = _INFERRED.get(id(trace))
    if held is None or held[0]() is not trace:
        return None
    return held[1].get(key)


def _remember_inference(trace: TraceTable, key: tuple[Any, ...], pools: list[InferredPool]) -> None:
    ident = id(trace)
    held = _INFERRED.get(ident)
    if held is None or held[0]() is not trace:

        def forget(ref: weakref.ref[TraceTable]) -> None:  # the trace is gone: its id may name another one
            if ident in _INFERRED and _INFERRED[ident][0] is ref:
                del _INFERRED[ident]

        held = (weakref.ref(trace, forget), {})
        _INFERRED[ident] = held
    held[1][key] = pools


def _inference_key(
    device: int, capacity: int | None, hints: bool, torch_version: str | None, device_memory: int | None
) -> tuple[Any, ...]:
    return (device, capacity, hints, torch_version, device_memory, compiled_simulation_chosen())


def recorded_inference(  # noqa: PLR0917 (replay's arguments, passed on)
    snapshot: Snapshot,
    device: int,
    timeline: DeviceTimeline | None,
    capacity: int | None = None,
    hints: bool = True,
    torch_version: str | None = None,
    device_memory: int | None = None,
) -> list[InferredPool]:
    """The private pools the trace does not name that its replay under the recorded settings infers (see
    inferred_pools.py), made once per snapshot, device and replay inputs."""
    found = _cached_inference(
        snapshot.trace(device), _inference_key(device, capacity, hints, torch_version, device_memory)
    )
    if found is None:  # the replay remembers what it inferred
        run = _simulate(snapshot, device, None, capacity, hints, None, timeline, torch_version, device_memory)
        found = run.inferred_pools
    return found


def _simulate(  # noqa: PLR0917 (replay's and replay_outcome's arguments, passed on)
    snapshot: Snapshot,
    device: int | None,
    overrides: list[str] | None,
    capacity: int | None,
    hints: bool,
    change: ChangedTrace | None,
    timeline: DeviceTimeline | None,
    torch_version: str | None = None,
    device_memory: int | None = None,
    pools_given: list[InferredPool] | None = None,
) -> _Run:
    """`pools_given`: the inferred private pools to carry (see replay); None: inferred here when the recorded trace
    replays under its recorded settings, else carried from that replay's (recorded_inference)."""
    device = snapshot.default_device() if device is None else device
    recorded_trace = snapshot.trace(device)
    if not len(recorded_trace):
        raise ValueError(f"device {device} has no trace to replay")
    if timeline is None or timeline.device != device:
        timeline = build_timeline(snapshot, device)
    # a replay under other settings, or of a changed program, is meant to part from the recording: it cannot tell
    # a pool; the one under the recorded settings can, and the program keeps that pool under any settings
    recorded_run = change is None and not overrides
    carried = pools_given is not None or not recorded_run
    inference_key = _inference_key(device, capacity, hints, torch_version, device_memory)
    if pools_given is None and recorded_run:  # its own pools, where an earlier replay inferred them (else below)
        pools_given = _cached_inference(recorded_trace, inference_key)
    elif pools_given is None:  # carried from the recorded run's (cached, or inferred by replaying it now)
        pools_given = recorded_inference(snapshot, device, timeline, capacity, hints, torch_version, device_memory)
    infer = pools_given is None
    rules, rules_source = replay_rules(snapshot, torch_version)
    recorded = recorded_settings(snapshot)
    settings = merged_settings(recorded, overrides or [], rules)
    config = replay_config(snapshot, settings, overrides or [], rules)
    recorded_runs = release_runs(recorded_trace, snapshot.stacks)
    memory_source = "given" if device_memory else "recorded"
    device_memory = device_memory or snapshot.device_memory.get(device)
    capacity_source = "given"
    if not capacity:  # the recorded run's device: a changed trace runs on the same one
        bound = None
        recorded_config = parse_alloc_conf(str(recorded), rules)
        if not recorded_config.garbage_collection_threshold:  # gc frees without a failure
            reserved = timeline.series.reserved
            bound = capacity_bound(recorded_trace, reserved, int(timeline.series.initial["reserved"]), recorded_runs)
        capacity, capacity_source = capacity_guess(
            timeline, bound, device_memory, config=recorded_config, recorded_limit=snapshot.memory_limit.get(device)
        )
    if not device_memory:  # at least what an OOM saw: more than the capacity under a memory fraction
        seen = [int(timeline.series.reserved[o.index]) + o.device_free_bytes for o in timeline.ooms]
        device_memory, memory_source = max([capacity, *seen]), "guessed"
    trace = change.trace if change is not None else recorded_trace
    runs = recorded_runs if change is None else release_runs(trace, snapshot.stacks)
    sim_class, feed_class = _simulation()
    segments = _segment_dicts(timeline.state_at(-1), snapshot.stacks)
    if change is not None and change.freed_at_start:
        segments = _freed(segments, change.freed_at_start)
    _refuse_overlaps(segments, device)

    def feed_through(pools: list[Any]) -> tuple[Any, Any, int | None, float, int]:
        sim = sim_class(capacity, config, device=device, device_memory=device_memory)
        handles = {b.addr: b for b in sim.load_segments(segments)}
        initial_reserved = int(sim.reserved)
        # the simulation makes a trace entry per event and a block per split, none of them in cycles: the cyclic
        # collector, walking every container made so far, would only cost time
        with gc_paused():
            started = time.process_time()
            feed = feed_class(sim, trace, snapshot.stacks, handles, runs=runs, hints=hints, pools=pools)
            for seg in segments:  # the state before the trace is restored at its own addresses
                feed.places.add(seg["address"], seg["total_size"], 0)
            divergence = feed.run()
            return sim, feed, divergence, time.process_time() - started, initial_reserved

    at = None if change is None else change.source
    inferred: list[InferredPool] = list(pools_given or [])
    # each inferred pool's segments go to it for their recorded lives, at the recorded rows the changed ones stand at
    if inferred:
        pools = with_inferred(trace, timeline, inferred, at)
    else:
        pools = row_pools(trace, timeline.pool_ids, timeline.pieces, at)
    sim, feed, divergence, simulate_seconds, initial_reserved = feed_through(pools)
    while infer and divergence is not None:
        step = unnamed_pool_segment(trace, pools, timeline, inferred, divergence, feed, sim)
        if step is None:
            break
        tried = with_inferred(trace, timeline, step, at)
        run_again = feed_through(tried)
        simulate_seconds += run_again[3]
        if run_again[2] is not None and run_again[2] <= divergence:
            break  # the assumed pool does not explain the recording: the replay without it stands
        inferred, pools = step, tried
        sim, feed, divergence, _, initial_reserved = run_again
    if infer:
        _remember_inference(recorded_trace, inference_key, inferred)
    return _Run(
        sim,
        feed,
        trace,
        timeline,
        settings,
        recorded,
        capacity,
        capacity_source,
        runs,
        divergence,
        simulate_seconds,
        initial_reserved,
        rules,
        rules_source,
        device_memory,
        memory_source,
        inferred,
        bool(inferred) and carried,
    )


def _freed(segments: list[dict[str, Any]], addresses: frozenset[int]) -> list[dict[str, Any]]:
    """The segments with the blocks at `addresses` free, each joined to free neighbours (as the allocator merges)."""
    out = []
    for seg in segments:
        blocks: list[dict[str, Any]] = []
        for recorded in seg["blocks"]:
            block = {**recorded, "state": "inactive", "frames": []} if recorded["address"] in addresses else recorded
            if blocks and block["state"] == "inactive" and blocks[-1]["state"] == "inactive":
                blocks[-1] = {**blocks[-1], "size": blocks[-1]["size"] + block["size"]}
            else:
                blocks.append(block)
        out.append({**seg, "blocks": blocks})
    return out


def replay(
    snapshot: Snapshot,
    *,
    device: int | None = None,
    overrides: list[str] | None = None,
    capacity: int | None = None,
    hints: bool = True,
    change: ChangedTrace | None = None,
    timeline: DeviceTimeline | None = None,
    torch_version: str | None = None,
    device_memory: int | None = None,
    pools: list[InferredPool] | None = None,
) -> ReplayResult:
    """Feed `device`'s recorded allocations and frees through the simulator from the state before the trace.

    Only the program's own empty_cache() calls are replayed as such; where the allocator released cached memory
    itself (a request that did not fit, or an OOM), the simulator decides. With `hints`, each new segment is
    offered the address the recording got (taken when free); without, the simulator picks every address.
    `change`: the trace a changed program would record (trace_transforms.py), fed instead of the recorded one; the
    result's event pairing and first divergence then still count recorded events. `timeline`: the recorded
    device's, when the caller has it (not rebuilt). `torch_version` chooses the release whose rules apply
    (replay_rules); `device_memory` is the device's total memory (else what the probe recorded, else the capacity: a
    guess the result says it is).

    A private pool the trace does not name (inferred_pools.py) is inferred by the replay of the recorded trace under
    its recorded settings, and carried into every other replay of the same recording (other settings, a changed
    program): the program keeps the pool's memory apart from the default pool's under any settings. `pools`: the
    pools to carry instead (an explain that replayed the recorded settings already; [] carries none).
    """
    run = _simulate(snapshot, device, overrides, capacity, hints, change, timeline, torch_version, device_memory, pools)
    sim, feed, timeline = run.sim, run.feed, run.timeline
    device = timeline.device
    trace = snapshot.trace(device)
    with gc_paused():
        result_dict = sim.snapshot()
        result_dict["allocator_settings"]["PYTORCH_CUDA_ALLOC_CONF"] = run.settings
        replayed = snapshot_from_object(result_dict, f"{snapshot.source} (replayed)", "dump")
    replayed_timeline = build_timeline(replayed, device)
    paired = None
    if len(replayed.trace(device)) == len(sim._trace):  # one replayed event per simulator entry
        paired = paired_events(run.trace.action, replayed.trace(device).action, np.array(feed.marks, np.int64))
        if change is not None:  # per recorded event: the replayed event of the changed row standing for it
            paired = np.where(change.rows >= 0, paired[np.maximum(change.rows, 0)] if len(paired) else -1, -1)
    divergence = run.divergence if change is None else change.recorded_row(run.divergence)
    return ReplayResult(
        settings=run.settings,
        device=device,
        capacity=run.capacity,
        capacity_source=run.capacity_source,
        original=figures(timeline, trace),
        replayed=figures(replayed_timeline, replayed.trace(device)),
        first_divergence=divergence,
        snapshot=result_dict,
        simulate_seconds=run.simulate_seconds,
        address_hints=hints,
        explicit_releases=sum(r.explicit for r in run.runs),
        allocator_releases=sum(not r.explicit for r in run.runs),
        unjudged=unjudged_reason(trace, run.recorded, run.settings),
        replayed_event=paired,
        rules=run.rules,
        rules_source=run.rules_source,
        device_memory=run.device_memory,
        device_memory_source=run.device_memory_source,
        inferred_pools=run.inferred_pools,
        pools_carried=run.pools_carried,
    )


@dataclass(frozen=True)
class Outcome:
    """What a remedy's verdict needs of a replay: its OOMs and its peak of reserved memory (and the private pools
    the trace does not name that it inferred or carried)."""

    settings: str
    oom_events: int
    peak_reserved_bytes: int
    unjudged: str
    inferred_pools: tuple[InferredPool, ...] = ()


_GROW = {"segment_alloc": 1, "segment_map": 1, "segment_free": -1, "segment_unmap": -1}


def replay_outcome(
    snapshot: Snapshot,
    *,
    device: int | None = None,
    overrides: list[str] | None = None,
    change: ChangedTrace | None = None,
    timeline: DeviceTimeline | None = None,
    torch_version: str | None = None,
    device_memory: int | None = None,
    capacity: int | None = None,
    pools: list[InferredPool] | None = None,
) -> Outcome:
    """replay()'s OOM count and peak reserved, read off the simulator's own entries: no replayed snapshot is made
    and indexed (about half a replay's time on a long trace). `capacity` and `pools` as replay()'s."""
    run = _simulate(snapshot, device, overrides, capacity, True, change, timeline, torch_version, device_memory, pools)
    grow = _GROW
    reserved = peak = run.initial_reserved
    ooms = 0
    for entry in run.sim._trace:
        sign = grow.get(entry[0])
        if sign is not None:
            reserved += sign * entry[2]
            peak = max(peak, reserved)
        elif entry[0] == "oom":
            ooms += 1
    trace = snapshot.trace(run.timeline.device)
    unjudged = unjudged_reason(trace, run.recorded, run.settings)
    return Outcome(run.settings, ooms, peak, unjudged, tuple(run.inferred_pools))


def paired_events(recorded: np.ndarray, replayed: np.ndarray, marks: np.ndarray) -> np.ndarray:
    """For each recorded event, the replayed event of the same recorded request: the replay's own alloc (or OOM) for
    an alloc or an OOM, its free_requested for a free_requested, else the last entry the replay made up to that
    event (-1: none yet). `marks[i]`: how many replayed entries there were before recorded event i."""
    ends = np.append(marks[1:], len(replayed)).astype(np.int64)
    out = ends - 1
    made = ends > marks
    frees = made & (recorded == Action.FREE_REQUESTED)
    first = np.minimum(marks, max(len(replayed) - 1, 0))
    frees &= replayed[first] == Action.FREE_REQUESTED if len(replayed) else frees
    out[frees] = marks[frees]
    requests = made & np.isin(recorded, (Action.ALLOC, Action.OOM))
    last = replayed[np.maximum(out, 0)] if len(replayed) else np.zeros(0, replayed.dtype)
    for i in np.flatnonzero(requests & ~np.isin(last, (Action.ALLOC, Action.OOM))).tolist():
        found = np.flatnonzero(np.isin(replayed[marks[i] : ends[i]], (Action.ALLOC, Action.OOM)))
        if len(found):  # e.g. a smaller request that fitted: its alloc, before the free that gives it back
            out[i] = marks[i] + int(found[-1 if recorded[i] == Action.ALLOC else 0])
    return out


_VERSION_SOURCES = {
    "recorded": "recorded in the file by the gpumem-gui probe",
    "given": "given",
    "assumed": "assumed: the file does not record its torch version; --torch-version sets it",
}
_MEMORY_SOURCES = {
    "recorded": "recorded in the file by the gpumem-gui probe",
    "given": "given",
    "guessed": "guessed: the capacity, or what an OOM saw; --device-memory sets it",
}


def rules_lines(result: ReplayResult) -> list[str]:
    """Two lines for a replay's report: the torch release whose rules it followed and the device memory it took,
    each with where it came from (a guess says it is one)."""
    version_from = _VERSION_SOURCES.get(result.rules_source, result.rules_source)
    memory_from = _MEMORY_SOURCES.get(result.device_memory_source, result.device_memory_source)
    return [
        f"{'allocator rules':<21}{result.rules.name} ({version_from})",
        f"{'device memory':<21}{format_bytes_exact(result.device_memory)} ({memory_from})",
    ]
