"""What one trace event is, read from the columns: action, address, size, stream, time, stack and annotations."""

from __future__ import annotations

from gpumem_gui.core.analysis.timetravel import DeviceTimeline
from gpumem_gui.core.snapshot.fx_frames import stack_fx_nodes
from gpumem_gui.core.snapshot.model import Action, Snapshot, TraceTable
from gpumem_gui.core.snapshot.stacks import filter_frames
from gpumem_gui.document.frame import EventInfo

# each action as a person reads it (the inspector's and the event list's words)
ACTION_LABELS: dict[int, str] = {
    Action.ALLOC: "allocation",
    Action.FREE_REQUESTED: "free requested",
    Action.FREE_COMPLETED: "free completed",
    Action.SEGMENT_ALLOC: "segment alloc (cudaMalloc)",
    Action.SEGMENT_FREE: "segment free (cudaFree)",
    Action.SEGMENT_MAP: "segment map",
    Action.SEGMENT_UNMAP: "segment unmap",
    Action.SNAPSHOT: "snapshot",
    Action.OOM: "OOM",
    Action.USER_DEFINED: "annotation (user_defined)",
    Action.ANNOTATE: "annotation",
    Action.UNKNOWN: "unknown",
}

# what the trace's `size` means for each action (snapshot-format.md, 1.5)
SIZE_MEANINGS: dict[int, str] = {
    Action.ALLOC: "requested",
    Action.FREE_REQUESTED: "requested",
    Action.FREE_COMPLETED: "requested",
    Action.SEGMENT_ALLOC: "segment",
    Action.SEGMENT_FREE: "segment",
    Action.SEGMENT_MAP: "mapped range",
    Action.SEGMENT_UNMAP: "unmapped range",
    Action.SNAPSHOT: "active bytes then",
    Action.OOM: "request (rounded)",
}


def action_label(trace: TraceTable, index: int) -> str:
    """Event `index`'s action in words; an action this program does not know keeps its name from the file."""
    code = int(trace.action[index])
    unknown = trace.unknown_actions.get(index)
    if unknown:
        return f"unknown ({unknown})"
    return ACTION_LABELS.get(code, "unknown")


def format_elapsed(us: int) -> str:
    """Microseconds since the trace's first event, readable: `+850 µs`, `+12.345 ms`, `+3.210 s`, `+2 min 5.000 s`."""
    sign = "-" if us < 0 else "+"
    us = abs(us)
    if us < 1_000:
        return f"{sign}{us} µs"
    if us < 1_000_000:
        return f"{sign}{us / 1e3:.3f} ms"
    seconds = us / 1e6
    if seconds < 60:
        return f"{sign}{seconds:.3f} s"
    minutes, seconds = divmod(seconds, 60)
    if minutes < 60:
        return f"{sign}{int(minutes)} min {seconds:06.3f} s"
    hours, minutes = divmod(int(minutes), 60)
    return f"{sign}{hours} h {minutes:02d} min {seconds:06.3f} s"


def describe_event(
    snapshot: Snapshot, device: int, index: int, *, timeline: DeviceTimeline | None = None
) -> EventInfo | None:
    """Event `index` of `device`'s trace; None for -1 (before the first event) or outside the trace.

    With the device's `timeline`, alloc and free events also carry the allocator's block size (the trace's size
    is the unrounded request)."""
    trace = snapshot.trace(device)
    if not 0 <= index < len(trace):
        return None
    code = int(trace.action[index])
    known = code in {int(a) for a in Action} and code != Action.UNKNOWN
    action = trace.unknown_actions.get(index) or (Action(code).name.lower() if known else "unknown")

    def text(string_index: int) -> str:
        return snapshot.strings[string_index] if 0 <= string_index < len(snapshot.strings) else ""

    recorded = snapshot.stacks.stack(int(trace.stack[index]))
    block_size = None
    if timeline is not None and index < len(timeline.block_sizes) and timeline.block_sizes[index] > 0:
        block_size = int(timeline.block_sizes[index])
    return EventInfo(
        index=index,
        action=action,
        address=int(trace.addr[index]),
        size=int(trace.size[index]),
        stream=int(trace.stream[index]),
        time_us=int(trace.time_us[index]) if trace.has_time else None,
        frames=tuple(filter_frames(recorded)),
        user_metadata=text(int(trace.user_metadata[index])),
        compile_context=text(int(trace.compile_context[index])),
        device_free=int(trace.device_free[index]) if code == Action.OOM else None,
        label=action_label(trace, index),
        size_meaning=SIZE_MEANINGS.get(code, "size"),
        block_size=block_size,
        elapsed_us=int(trace.time_us[index] - trace.time_us[0]) if trace.has_time else None,
        forward_frames=tuple(trace.forward_frames.get(index, ())),
        n_events=len(trace),
        recorded_frames=tuple(recorded),
        fx_nodes=tuple(stack_fx_nodes(snapshot.stacks, int(trace.stack[index]))),
    )
