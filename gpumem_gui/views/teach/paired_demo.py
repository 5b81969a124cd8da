"""A paired "Show me" (two runs of one concept, e.g. the contiguous and the paged KV cache): the two views one above
the other, each its map, figures and side panel, so that both fit the window's pane whole.

Side by side, two whole snapshot tabs needed 2,156 px beside the quiz dock's 868 (the second one was cut off until
one scrolled sideways); stacked whole they needed 1,096 px of 806. A demo's halves need neither the tab's controls
(device, pool, layout, search) nor the curves under the map: its concept is on the map and in the figures."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6 import QtCore, QtWidgets

from gpumem_gui.document.document import SnapshotDocument
from gpumem_gui.views.snapshot.tab import SnapshotTab


def paired_views(documents: Sequence[SnapshotDocument]) -> QtWidgets.QSplitter:
    """The documents' views stacked, the first on top, in a splitter the learner can drag."""
    splitter = QtWidgets.QSplitter(QtCore.Qt.Orientation.Vertical)
    splitter.setChildrenCollapsible(False)
    for document in documents:
        splitter.addWidget(SnapshotTab(document))
    return splitter


def compact_halves(splitter: QtWidgets.QSplitter) -> None:
    """Each view of a pair without its controls and curves (call once their foci are shown: a focus travels the
    timeline under the map, which makes it)."""
    for i in range(splitter.count()):
        view = splitter.widget(i)
        if isinstance(view, SnapshotTab):
            view.controls.hide()
            view.curves.hide()
