"""TabPins: a snapshot tab's pinned tracks: pinned from the site timeline's picked band or a stack search, each
track's bytes computed on the tab's TaskGroup, the pins kept per file in the settings and pinned again when the file
is opened."""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

import numpy as np
from PySide6 import QtCore, QtWidgets

from gpumem_gui.core.snapshot.model import I64
from gpumem_gui.document.pins import BAND_KINDS, Pin, pin_curve, pins_from_text, pins_to_text
from gpumem_gui.views.common.language import translate
from gpumem_gui.views.snapshot.owned import while_alive
from gpumem_gui.views.snapshot.pinned_tracks import PinnedTracks

if TYPE_CHECKING:
    from gpumem_gui.views.snapshot.tab_host import TabHost


def settings_key(source: str) -> str:
    """The setting of one file's pins (a digest: a path's slashes would be read as the settings' groups)."""
    return "pinned_tracks/" + hashlib.sha1(source.encode("utf-8", "surrogatepass")).hexdigest()[:20]


class TabPins(QtCore.QObject):
    def __init__(
        self, tab: TabHost, settings: QtCore.QSettings | None = None, parent: QtCore.QObject | None = None
    ) -> None:
        super().__init__(parent)
        self.tab = tab
        self.document = tab.document
        self.settings = settings if settings is not None else QtCore.QSettings()
        view = tab.timeline_view
        self.tracks = PinnedTracks(view.plot)
        column = view.layout()
        assert isinstance(column, QtWidgets.QVBoxLayout)
        column.insertWidget(1, self.tracks)  # under the curves, over their legend
        # beside the curves' tabs, no taller than they are: the curves and the map keep their room
        self.tracks.bar.setMaximumHeight(tab.curve_tabs.tabBar().sizeHint().height())
        tab.curve_tabs.setCornerWidget(self.tracks.bar)
        self.tracks.bar.show()  # a corner widget set once its tabs are shown is not shown with them
        self.picked: Pin | None = None  # the band last picked on the site timeline
        self.curves: dict[Pin, tuple[I64, I64]] = {}
        self._for: tuple[int, object] | None = None  # the (device, timeline) the tracks were computed for
        tab.site_timeline.band_selected.connect(self._band_picked)
        self.tracks.pin_band.clicked.connect(lambda: self.pin(self.picked) if self.picked is not None else None)
        self.tracks.pin_search.clicked.connect(self._pin_search)
        self.tracks.unpinned.connect(self.unpin)
        tab.axis_box.currentIndexChanged.connect(lambda _i: self._draw_all())
        for pin in pins_from_text(self.settings.value(self._key(), "")):
            self.tracks.add(pin)

    def _key(self) -> str:
        return settings_key(self.document.snapshot.source)

    def _band_picked(self, kind: str, key: object, label: str) -> None:
        if kind in BAND_KINDS and isinstance(key, str | int):
            self.picked = Pin(kind, key, label)
            self.tracks.pin_band.setEnabled(True)
            line = translate("PinnedTracks", "pin {kind} {label}")
            self.tracks.pin_band.setToolTip(line.format(kind=translate("PinnedTracks", kind), label=label))

    def _pin_search(self) -> None:
        text = self.tracks.search.text().strip()
        if text:
            self.pin(Pin("search", text, f"stack holds '{text}'"))

    def pin(self, pin: Pin) -> None:
        """Pin `pin` as a track (again: nothing new), computed in a task; the file's pins are saved."""
        if pin in self.tracks.tracks:
            return
        self.tracks.add(pin)
        self._save()
        self._compute([pin])

    def unpin(self, pin: Pin) -> None:
        self.tracks.remove(pin)
        self.curves.pop(pin, None)
        self._save()

    def _save(self) -> None:
        self.settings.setValue(self._key(), pins_to_text(self.tracks.pins()))

    def sync(self) -> None:
        """The tracks of the device shown (computed again for another device or snapshot)."""
        doc = self.document
        if doc.pending:
            return
        key = (doc.device, doc.timeline())
        if key != self._for:
            self._for = key
            self.curves.clear()
            self._compute(self.tracks.pins())

    def _compute(self, pins: list[Pin]) -> None:
        doc = self.document
        if doc.pending or not pins:
            return
        snapshot, timeline = doc.snapshot, doc.timeline()
        site = self.tab.site_timeline
        made = dict(site.groupings) if site.timeline is timeline else {}

        def curves(_ctx: object) -> dict[Pin, tuple[I64, I64]]:
            return {pin: pin_curve(snapshot, timeline, pin, made.get(pin.kind)) for pin in pins}

        shown = while_alive(self, lambda got: self._computed(timeline, got))
        self.tab.tasks.start("pinned tracks", curves, on_result=shown)

    def _computed(self, timeline: object, got: dict[Pin, tuple[I64, I64]]) -> None:
        if self.document.pending or timeline is not self.document.timeline():
            return  # of a device or snapshot no longer shown
        for pin, curve in got.items():
            if pin in self.tracks.tracks:
                self.curves[pin] = curve
        self._draw_all()

    def _draw_all(self) -> None:
        doc = self.document
        if doc.pending:
            return
        timeline = doc.timeline()
        view = self.tab.timeline_view
        end = max(timeline.n_events - 1, 0)
        for pin, (events, values) in self.curves.items():
            track = self.tracks.tracks.get(pin)
            if track is None:
                continue
            # from before the first change (nothing yet) to the trace's end, where the last value holds
            at = np.concatenate([[0], np.maximum(events, 0), [end]]).astype(np.int64)
            held = np.concatenate([[0], values, values[-1:] if len(values) else [0]]).astype(np.int64)
            track.set_curve(view.event_x(at), held)
