"""The library: snapshot model, loader, metrics and time travel. Pure Python + numpy: no Qt, no torch."""

from gpumem_gui.core.snapshot.errors import SnapshotError
from gpumem_gui.core.snapshot.loader import load_snapshot
from gpumem_gui.core.snapshot.model import Action, AllocatorState, BlockState, Snapshot, StackTable, TraceTable

__all__ = [
    "Action",
    "AllocatorState",
    "BlockState",
    "Snapshot",
    "SnapshotError",
    "StackTable",
    "TraceTable",
    "load_snapshot",
]
