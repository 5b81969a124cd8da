"""Pinned tracks whose pin bar went first say nothing more to it: the bar lives in the curves' tab corner and the
tracks under the timeline, two parents that can go apart (seen in the suite: a language switch reached a closed
tab's tracks, whose bar's buttons were gone, and raised in their changeEvent)."""

from __future__ import annotations

from typing import Any

import pyqtgraph as pg
from PySide6 import QtCore

from gpumem_gui.views.common.language import set_language
from gpumem_gui.views.snapshot.pinned_tracks import PinnedTracks


def test_a_language_switch_after_the_bar_went_reaches_no_gone_button(qtbot: Any) -> None:
    plot = pg.PlotWidget()
    qtbot.addWidget(plot)
    tracks = PinnedTracks(plot)  # no parent: a (hidden) window of its own, which a language switch reaches
    qtbot.addWidget(tracks)
    tracks.bar.deleteLater()  # its corner's tab widget went, and the bar with it
    QtCore.QCoreApplication.sendPostedEvents(None, QtCore.QEvent.Type.DeferredDelete)
    try:
        set_language("ro")  # an exception in a changeEvent fails the test (pytest-qt's capture)
        qtbot.wait(10)  # the LanguageChange Qt posts to each window
        assert tracks.pins() == []
    finally:
        set_language("en")
