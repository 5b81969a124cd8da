"""What if: pick allocator settings, replay the trace through the simulator off the GUI thread, compare the runs."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import pyqtgraph as pg
from PySide6 import QtWidgets

from gpumem_gui.core.snapshot.units import format_bytes, format_percent, parse_bytes
from gpumem_gui.document.staging import WhatIfRun
from gpumem_gui.views import palette
from gpumem_gui.views.segment_map import SegmentMapView

if TYPE_CHECKING:
    from gpumem_gui.teach.quiz_demos import DemoFocus

GiB = float(1 << 30)


class WhatIfDialog(QtWidgets.QDialog):
    """The settings to try; `overrides()` gives them as PYTORCH_CUDA_ALLOC_CONF items."""

    def __init__(self, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("What if...")
        form = QtWidgets.QFormLayout(self)
        self.expandable = QtWidgets.QComboBox()
        self.expandable.addItems(["as recorded", "True", "False"])
        self.max_split = QtWidgets.QLineEdit(placeholderText="as recorded (MiB, >= 20)")
        self.divisions = QtWidgets.QLineEdit(placeholderText="as recorded, e.g. 4 or [256:1,512:2,>:4]")
        self.gc = QtWidgets.QLineEdit(placeholderText="as recorded, in (0, 1); needs a memory fraction")
        self.fraction = QtWidgets.QLineEdit(placeholderText="none, in (0, 1]")
        self.capacity = QtWidgets.QLineEdit(placeholderText="what an OOM saw, else 80GiB")
        form.addRow("expandable_segments", self.expandable)
        form.addRow("max_split_size_mb", self.max_split)
        form.addRow("roundup_power2_divisions", self.divisions)
        form.addRow("garbage_collection_threshold", self.gc)
        form.addRow("per_process_memory_fraction", self.fraction)
        form.addRow("device capacity", self.capacity)
        buttons = QtWidgets.QDialogButtonBox(
            QtWidgets.QDialogButtonBox.StandardButton.Ok | QtWidgets.QDialogButtonBox.StandardButton.Cancel
        )
        buttons.button(QtWidgets.QDialogButtonBox.StandardButton.Ok).setText("Replay")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def overrides(self) -> list[str]:
        items = []
        if self.expandable.currentIndex() > 0:
            items.append(f"expandable_segments:{self.expandable.currentText()}")
        for key, field in (
            ("max_split_size_mb", self.max_split),
            ("roundup_power2_divisions", self.divisions),
            ("garbage_collection_threshold", self.gc),
            ("per_process_memory_fraction", self.fraction),
        ):
            if field.text().strip():
                items.append(f"{key}:{field.text().strip()}")
        return items

    def capacity_bytes(self) -> int | None:
        text = self.capacity.text().strip()
        return parse_bytes(text) if text else None


class CompareView(QtWidgets.QWidget):
    """The recorded and the replayed run side by side at the same event, their reserved curves on one timeline."""

    def __init__(self, run: WhatIfRun) -> None:
        super().__init__()
        self.documents = (run.original, run.replayed)
        result = run.result
        o, r = result.original, result.replayed
        diff = r.peak_reserved_bytes - o.peak_reserved_bytes
        where = "never" if result.first_divergence is None else f"first at event {result.first_divergence:,}"
        self.summary = QtWidgets.QLabel(
            f"<b>{result.settings or 'recorded settings'}</b> on {format_bytes(result.capacity)}: "
            f"peak reserved {format_bytes(o.peak_reserved_bytes)} &rarr; {format_bytes(r.peak_reserved_bytes)} "
            f"(<b>{'+' if diff >= 0 else '-'}{format_bytes(abs(diff))}</b>), "
            f"OOMs {o.oom_events} &rarr; {r.oom_events}, cudaMalloc/map calls {o.device_allocations} &rarr; "
            f"{r.device_allocations}, worst fragmentation {format_percent(o.max_external_fragmentation)} &rarr; "
            f"{format_percent(r.max_external_fragmentation)}; the replay differs from the recording {where}"
        )
        self.summary.setWordWrap(True)
        self.maps = (SegmentMapView(), SegmentMapView())
        titles = (QtWidgets.QLabel("<b>recorded</b>"), QtWidgets.QLabel("<b>replayed</b>"))
        pair = QtWidgets.QHBoxLayout()
        for title, view in zip(titles, self.maps, strict=True):
            column = QtWidgets.QVBoxLayout()
            column.addWidget(title)
            column.addWidget(view, 1)
            pair.addLayout(column, 1)
        self.plot = pg.PlotWidget(background=palette.PLOT_BACKGROUND)
        self.plot.setDownsampling(auto=True, mode="peak")
        self.plot.setClipToView(True)
        self.plot.setLabel("left", "reserved GiB")
        self.plot.setLabel("bottom", "trace event")
        self.plot.addLegend()
        for doc, colour, name in ((run.original, palette.CURVES["reserved"], "recorded"),
                                  (run.replayed, palette.LARGEST_HOLE, "replayed")):  # fmt: skip
            self.plot.plot(doc.timeline().series.reserved / GiB, pen=pg.mkPen(colour, width=2), name=name)
        self.cursor_line = pg.InfiniteLine(angle=90, movable=True, pen=pg.mkPen(palette.CURSOR))
        self.cursor_line.sigPositionChanged.connect(lambda: self.travel_to(round(self.cursor_line.value())))
        self.plot.addItem(self.cursor_line)
        layout = QtWidgets.QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addLayout(pair, 3)
        layout.addWidget(self.plot, 1)
        self.cursor_line.setValue(run.original.n_events - 1)  # moves both maps to the end

    def travel_to(self, index: int) -> None:
        """Both runs right after event `index` (each clamped to its own trace)."""
        for view, doc in zip(self.maps, self.documents, strict=True):
            view.show_frame(doc.travel(index))

    def show_foci(self, foci: Sequence[DemoFocus]) -> None:
        """A demo's focus on each run, each at its own event (the recorded OOM, the replayed request), which are
        different event numbers: the shared cursor goes to the recorded one without moving the maps."""
        if len(foci) != len(self.maps):
            raise ValueError(f"a comparison shows {len(self.maps)} runs, got {len(foci)} foci")
        for view, doc, focus in zip(self.maps, self.documents, foci, strict=True):
            view.show_frame(doc.focus_at(focus.event, focus.mask_for, focus.caption))
        self.cursor_line.blockSignals(True)  # moving it would travel both maps to one event and end the foci
        self.cursor_line.setValue(foci[0].event)
        self.cursor_line.blockSignals(False)
