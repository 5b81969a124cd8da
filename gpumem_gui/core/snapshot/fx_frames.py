"""FX node fields of a frame (`_dump_snapshot(augment_with_fx_traces=True)`, torch/_utils.py _augment_frames) and
the user's line its original trace names: what a frame inside torch.compile's generated code stands for."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from gpumem_gui.core.snapshot.model import Frame, StackTable

MAX_TRACE_TEXT = 16384  # an original trace is a formatted traceback: a few kB; more is cut, never refused
_TRACE_LINE = re.compile(r'File "([^"\n]*)", line (\d+), in ([^\n]*)')


@dataclass(frozen=True)
class FxNode:
    """The FX node a generated frame runs, as torch._utils._augment_frames writes it (all strings there)."""

    op: str  # fx_node_op: 'call_function', 'call_module', 'output', ...
    name: str  # fx_node_name: 'linear', 'relu_1'
    target: str  # fx_node_target: str(node.target)
    original_trace: str  # fx_original_trace: the traceback of the user's code that made the node ("" if none)

    def original_frames(self) -> list[Frame]:
        """The original trace's frames, innermost first (the text lists them outermost first, as Python does)."""
        found = [Frame(m[2].strip(), m[0], int(m[1])) for m in _TRACE_LINE.findall(self.original_trace)]
        return found[::-1]


def fx_node(frame: dict[Any, Any]) -> FxNode | None:
    """The FX fields of a frame dict; None when it has no node name or a field is not a string."""
    fields = [frame.get(key, "") for key in ("fx_node_op", "fx_node_name", "fx_node_target", "fx_original_trace")]
    if not fields[1] or not all(isinstance(v, str) for v in fields):
        return None
    op, name, target, trace = fields
    return FxNode(op[:200], name[:200], target[:500], trace[:MAX_TRACE_TEXT])


def stack_fx_nodes(stacks: StackTable, index: int) -> list[FxNode]:
    """The FX nodes of stack `index`'s frames, innermost first (none for a file dumped without FX fields)."""
    if not stacks.fx or index < 0:
        return []
    ids = stacks.frame_ids[int(stacks.offsets[index]) : int(stacks.offsets[index + 1])].tolist()
    return [stacks.fx[i] for i in ids if i in stacks.fx]
