"""What one trace event is, read from the columns: action, address, size, stream, time, stack and annotations."""

from __future__ import annotations

from gpumem_gui.core.snapshot.model import Action, Snapshot
from gpumem_gui.core.snapshot.stacks import filter_frames
from gpumem_gui.document.frame import EventInfo


def describe_event(snapshot: Snapshot, device: int, index: int) -> EventInfo | None:
    """Event `index` of `device`'s trace; None for -1 (before the first event) or outside the trace."""
    trace = snapshot.trace(device)
    if not 0 <= index < len(trace):
        return None
    code = int(trace.action[index])
    known = code in {int(a) for a in Action} and code != Action.UNKNOWN
    action = trace.unknown_actions.get(index) or (Action(code).name.lower() if known else "unknown")

    def text(string_index: int) -> str:
        return snapshot.strings[string_index] if 0 <= string_index < len(snapshot.strings) else ""

    return EventInfo(
        index=index,
        action=action,
        address=int(trace.addr[index]),
        size=int(trace.size[index]),
        stream=int(trace.stream[index]),
        time_us=int(trace.time_us[index]) if trace.has_time else None,
        frames=tuple(filter_frames(snapshot.stacks.stack(int(trace.stack[index])))),
        user_metadata=text(int(trace.user_metadata[index])),
        compile_context=text(int(trace.compile_context[index])),
        device_free=int(trace.device_free[index]) if code == Action.OOM else None,
    )
