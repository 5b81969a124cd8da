"""Shows a quiz demo's focus in the views: travel to its event, spotlight its blocks, caption the map, mark the
timeline, bracket the figures. The focus itself is computed in core/quiz_demos.py; nothing here decides what to show.

A focus belongs to the state it was computed for: travelling elsewhere (a click on the timeline, a pool filter)
ends the map's spotlight, caption and bracket, while the timeline keeps its marks until `clear_focus`.
"""

from __future__ import annotations

from collections.abc import Sequence

from gpumem_gui.core.snapshot.model import AllocatorState, StackTable
from gpumem_gui.teach.quiz_demos import DemoFocus
from gpumem_gui.views.document import DocumentView
from gpumem_gui.views.segment_map import SegmentMapView
from gpumem_gui.views.whatif import CompareView


def apply_focus(view: DocumentView, focus: DemoFocus) -> None:
    """Show `focus` in a DocumentView of the snapshot it was computed on."""
    if view.pending:
        raise RuntimeError("the trace is still being indexed: apply the focus once the timelines have arrived")
    # the focus's mask is over all pools and streams of its device: show them all
    for box in (view.pool_box, view.stream_box):
        if box.currentIndex() != 0:
            box.setCurrentIndex(0)
    if view.device != focus.device:
        view.set_device(focus.device)
    view.travel_to(focus.event)
    view.timeline_view.set_event(focus.event, emit=False)
    view.timeline_view.set_focus_marks(focus.timeline_marks)
    if view.state is not None:
        show_on_map(view.map, view.state, view.snapshot.stacks, focus, set_state=False)
    if focus.bracket is not None:
        view.figures.set_bracket(focus.bracket.reserved_bytes, focus.bracket.allocated_bytes, focus.bracket.label)


def clear_focus(view: DocumentView) -> None:
    """Take a focus off a DocumentView (the state shown stays)."""
    view.map.clear_focus()
    view.timeline_view.clear_focus_marks()
    view.figures.clear_bracket()


def show_on_map(
    map_view: SegmentMapView,
    state: AllocatorState,
    stacks: StackTable,
    focus: DemoFocus,
    *,
    set_state: bool = True,
) -> None:
    """Spotlight `focus` on any segment map showing `state` (the state at `focus.event`, possibly filtered)."""
    if set_state:
        map_view.set_state(state, stacks)
    map_view.set_focus(focus.mask_for(state), focus.caption)


def apply_compare_focus(view: CompareView, foci: Sequence[DemoFocus]) -> None:
    """A what-if comparison: each run's map at its own focus event (the recorded OOM, the replayed request), which
    are different event numbers, so the shared cursor is left at the recorded one without moving the maps."""
    if len(foci) != len(view.maps):
        raise ValueError(f"a comparison shows {len(view.maps)} runs, got {len(foci)} foci")
    snapshots = (view.original, view.replayed)
    for map_view, timeline, snapshot, focus in zip(view.maps, view.timelines, snapshots, foci, strict=True):
        show_on_map(map_view, timeline.state_at(focus.event), snapshot.stacks, focus)
    view.cursor_line.blockSignals(True)  # moving it would travel both maps to one event and end the foci
    view.cursor_line.setValue(foci[0].event)
    view.cursor_line.blockSignals(False)
