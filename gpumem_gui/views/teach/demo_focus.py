"""Shows a quiz demo's focus in the views: travel to its event, spotlight its blocks, caption the map, mark the
timeline, bracket the figures, all in the learner's language. The focus itself is computed in teach/; the document
draws its spotlight.

A focus belongs to the state it was computed for: travelling elsewhere (a click on the timeline, a pool filter)
ends the map's spotlight and caption, while the timeline keeps its marks until `clear_focus`. Another language
re-captions what is still shown, from the focus's texts (nothing is recomputed, no view travels).
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6 import QtWidgets

from gpumem_gui.teach.quiz_demos import DemoFocus
from gpumem_gui.views.compare.whatif_view import WhatIfView
from gpumem_gui.views.snapshot.tab import SnapshotTab


def apply_focus(view: SnapshotTab, focus: DemoFocus, lang: str = "en") -> None:
    """Show `focus` in a SnapshotTab of the snapshot it was computed on, worded in `lang`."""
    show_focus(view, focus.in_language(lang))


def show_focus(view: SnapshotTab, focus: DemoFocus) -> None:
    """A quiz demo's focus: its device and event with every pool and stream, its blocks in the spotlight, its marks
    on the timeline, its bracket over the figures."""
    if view.pending:
        raise RuntimeError("the trace is still being indexed: show the focus once the timelines have arrived")
    if view.device != focus.device:
        view.set_device(focus.device)
    for box in (view.pool_box, view.stream_box):  # the focus's mask is over all pools and streams of its device
        box.blockSignals(True)
        box.setCurrentIndex(0)
        box.blockSignals(False)
    view.show_frame(view.document.focus_at(focus.event, focus.mask_for, focus.caption))
    view.timeline_view.set_event(focus.event, emit=False)
    view.timeline_view.set_focus_marks(focus.timeline_marks)
    if focus.bracket is not None:
        view.figures.set_bracket(focus.bracket.reserved_bytes, focus.bracket.allocated_bytes, focus.bracket.label)


def clear_focus(view: SnapshotTab) -> None:
    """Take a focus off a SnapshotTab (the state shown stays)."""
    view.show_frame(view.document.clear_spotlight())
    view.timeline_view.clear_focus_marks()
    view.figures.clear_bracket()


def apply_compare_focus(view: WhatIfView, foci: Sequence[DemoFocus], lang: str = "en") -> None:
    """A what-if comparison: each run's map at its own focus event."""
    view.show_foci([focus.in_language(lang) for focus in foci])


def document_views(widget: QtWidgets.QWidget) -> list[SnapshotTab]:
    """The SnapshotTabs of a demo tab: the view itself, or those side by side in its splitter."""
    inner = widget.widget() if isinstance(widget, QtWidgets.QScrollArea) else None
    if inner is not None:
        widget = inner  # two views side by side scroll in the window rather than widen it
    if isinstance(widget, SnapshotTab):
        return [widget]
    if isinstance(widget, QtWidgets.QSplitter):
        return [w for i in range(widget.count()) if isinstance(w := widget.widget(i), SnapshotTab)]
    return []


def show_demo_foci(widget: QtWidgets.QWidget, foci: Sequence[DemoFocus], lang: str) -> None:
    """A demo tab as the window builds it (a WhatIfView, a splitter of SnapshotTabs, or one SnapshotTab) at its
    foci, worded in `lang`."""
    if isinstance(widget, WhatIfView):
        apply_compare_focus(widget, foci, lang)
        return
    for view, focus in zip(document_views(widget), foci, strict=True):
        apply_focus(view, focus, lang)


def recaption(widget: QtWidgets.QWidget, foci: Sequence[DemoFocus], lang: str) -> None:
    """The learner picked `lang`: word the demo tab's captions, marks and bracket in it. A map that still shows its
    focus gets the caption; one the user has moved away from keeps its own state, and only the timeline's marks
    and the figures' bracket, which stay until the focus is cleared, change language."""
    if isinstance(widget, WhatIfView):
        if all(doc.frame().spotlight is not None for doc in widget.documents):
            apply_compare_focus(widget, foci, lang)
        return
    for view, focus in zip(document_views(widget), foci, strict=True):
        local = focus.in_language(lang)
        frame = view.frame
        if frame.spotlight is not None and frame.event == focus.event:
            show_focus(view, local)
            continue
        if view.timeline_view.focus_marks:
            view.timeline_view.set_focus_marks(local.timeline_marks)
        if local.bracket is not None and view.figures.bracket_shown():
            bracket = local.bracket
            view.figures.set_bracket(bracket.reserved_bytes, bracket.allocated_bytes, bracket.label)
