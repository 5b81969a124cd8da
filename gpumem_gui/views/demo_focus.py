"""Shows a quiz demo's focus in the views: travel to its event, spotlight its blocks, caption the map, mark the
timeline, bracket the figures. The focus itself is computed in teach/; the document draws its spotlight.

A focus belongs to the state it was computed for: travelling elsewhere (a click on the timeline, a pool filter)
ends the map's spotlight and caption, while the timeline keeps its marks until `clear_focus`.
"""

from __future__ import annotations

from collections.abc import Sequence

from gpumem_gui.teach.quiz_demos import DemoFocus
from gpumem_gui.views.document import DocumentView
from gpumem_gui.views.whatif import CompareView


def apply_focus(view: DocumentView, focus: DemoFocus) -> None:
    """Show `focus` in a DocumentView of the snapshot it was computed on."""
    view.show_focus(focus)


def clear_focus(view: DocumentView) -> None:
    """Take a focus off a DocumentView (the state shown stays)."""
    view.clear_focus()


def apply_compare_focus(view: CompareView, foci: Sequence[DemoFocus]) -> None:
    """A what-if comparison: each run's map at its own focus event."""
    view.show_foci(foci)
