"""The document layer, Qt-free: one SnapshotDocument per open snapshot hands the views one finished EventFrame."""

from gpumem_gui.document.document import SnapshotDocument
from gpumem_gui.document.frame import BlockDetails, EventFrame, EventInfo, SegmentSummaries

__all__ = ["BlockDetails", "EventFrame", "EventInfo", "SegmentSummaries", "SnapshotDocument"]
