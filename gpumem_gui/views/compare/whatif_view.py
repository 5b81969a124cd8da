"""What if: pick allocator settings, replay the trace through the simulator off the GUI thread, compare the runs."""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import TYPE_CHECKING

import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

from gpumem_gui.core.analysis.explain_output import SEGMENTS_LISTED  # as explain lists them
from gpumem_gui.document.curves import Envelope, memory_unit
from gpumem_gui.document.frame import EventFrame
from gpumem_gui.document.staging import WhatIfRun
from gpumem_gui.views.common import palette
from gpumem_gui.views.common.language import count, num, parse_size, pct, signed_size, size, unit_word
from gpumem_gui.views.common.rich_text import rich_text
from gpumem_gui.views.common.sentences import said
from gpumem_gui.views.common.travel_keys import page_step, travel_delta
from gpumem_gui.views.snapshot.map_view import SegmentMapView
from gpumem_gui.views.snapshot.timeline import MIN_PLOT_HEIGHT, ScrubViewBox

if TYPE_CHECKING:
    from gpumem_gui.teach.quiz_demos import DemoFocus

# the two runs' colours, and how each curve is drawn: the recorded run wide and translucent under the replayed one,
# so that where the runs agree both stay visible (the replayed line inside the recorded band)
RUNS = (("recorded", palette.CURVES["reserved"], 6, 140), ("replayed", palette.LARGEST_HOLE, 2, 255))


def _tr(text: str) -> str:
    return QtCore.QCoreApplication.translate("WhatIfView", text)


def run_name(name: str) -> str:
    """A run's name (recorded, replayed) in the window's language."""
    names = {
        "recorded": QtCore.QCoreApplication.translate("WhatIfView", "recorded"),
        "replayed": QtCore.QCoreApplication.translate("WhatIfView", "replayed"),
    }
    return names[name]


def kind_name(kind: str) -> str:
    names = {
        "reserved": QtCore.QCoreApplication.translate("WhatIfView", "reserved"),
        "allocated": QtCore.QCoreApplication.translate("WhatIfView", "allocated"),
    }
    return names[kind]


KINDS = (("reserved", QtCore.Qt.PenStyle.SolidLine), ("allocated", QtCore.Qt.PenStyle.DashLine))


class WhatIfDialog(QtWidgets.QDialog):
    """The settings to try; `overrides()` gives them as PYTORCH_CUDA_ALLOC_CONF items."""

    def __init__(self, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        form = QtWidgets.QFormLayout(self)
        self.expandable = QtWidgets.QComboBox()
        self.expandable.addItems(["", "True", "False"])
        self.max_split = QtWidgets.QLineEdit()
        self.divisions = QtWidgets.QLineEdit()
        self.gc = QtWidgets.QLineEdit()
        self.fraction = QtWidgets.QLineEdit()
        self.capacity = QtWidgets.QLineEdit()
        form.addRow("expandable_segments", self.expandable)
        form.addRow("max_split_size_mb", self.max_split)
        form.addRow("roundup_power2_divisions", self.divisions)
        form.addRow("garbage_collection_threshold", self.gc)
        form.addRow("per_process_memory_fraction", self.fraction)
        self.capacity_label = QtWidgets.QLabel()
        form.addRow(self.capacity_label, self.capacity)
        # buttons of its own, not standard ones: a button box words those again itself on a language switch, in
        # Qt's words ("OK"), over ours
        self.buttons = QtWidgets.QDialogButtonBox()
        self.replay_button = self.buttons.addButton("", QtWidgets.QDialogButtonBox.ButtonRole.AcceptRole)
        self.cancel_button = self.buttons.addButton("", QtWidgets.QDialogButtonBox.ButtonRole.RejectRole)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        form.addRow(self.buttons)
        self.retranslate()

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("What if..."))
        self.expandable.setItemText(0, self.tr("as recorded"))
        self.max_split.setPlaceholderText(self.tr("as recorded (MiB, >= 20)"))
        self.divisions.setPlaceholderText(self.tr("as recorded, e.g. 4 or [256:1,512:2,>:4]"))
        self.gc.setPlaceholderText(self.tr("as recorded, in (0, 1); needs a memory fraction"))
        self.fraction.setPlaceholderText(self.tr("none, in (0, 1]"))
        self.capacity.setPlaceholderText(self.tr("what an OOM saw, else 80GiB"))
        self.capacity_label.setText(self.tr("device capacity"))
        for field in (self.max_split, self.divisions, self.gc, self.fraction, self.capacity):
            # each hint whole: a field as wide as its hint, and the hint again as a tooltip
            hint = field.placeholderText()
            field.setMinimumWidth(field.fontMetrics().horizontalAdvance(hint) + 24)
            field.setToolTip(hint)
        self.replay_button.setText(self.tr("Replay"))
        self.cancel_button.setText(self.tr("Cancel"))

    def changeEvent(self, event: QtCore.QEvent) -> None:
        if event.type() == QtCore.QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

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
        """The capacity typed, as the window's language writes sizes ("80 Gio" in French) or as English; ValueError
        (in that language) for one it cannot read."""
        text = self.capacity.text().strip()
        return parse_size(text) if text else None


class WhatIfView(QtWidgets.QWidget):
    """The recorded and the replayed run side by side at the same event, their reserved and allocated curves on one
    timeline. A click or drag on the timeline, or the keys (Left/Right one event, PageUp/PageDown a hundredth of
    the trace, Home/End), travel both runs together."""

    event_changed = QtCore.Signal(int)

    def __init__(self, run: WhatIfRun) -> None:
        super().__init__()
        self.setFocusPolicy(QtCore.Qt.FocusPolicy.StrongFocus)
        self.documents = (run.original, run.replayed)
        # the cursor counts the recorded events; the replayed map shows the replayed event of the same request
        self.paired = run.result.replayed_event
        self.n_events = run.original.n_events if self.paired is not None else max(d.n_events for d in self.documents)
        self.current_event = self.n_events - 1
        self.run = run
        self.summary = QtWidgets.QLabel()
        self.summary.setWordWrap(True)
        self.maps = (SegmentMapView(), SegmentMapView())
        self.titles = (QtWidgets.QLabel(), QtWidgets.QLabel())
        pair = QtWidgets.QHBoxLayout()
        for title, view in zip(self.titles, self.maps, strict=True):
            title.setWordWrap(True)
            column = QtWidgets.QVBoxLayout()
            column.addWidget(title)
            column.addWidget(view, 1)
            pair.addLayout(column, 1)
        self.view_box = ScrubViewBox()
        self.plot = pg.PlotWidget(viewBox=self.view_box, background=palette.PLOT_BACKGROUND)
        self.plot.setMenuEnabled(False)
        self.plot.setMinimumHeight(MIN_PLOT_HEIGHT)
        peak = max(float(doc.timeline().series.peak("reserved")) for doc in self.documents)
        self.unit, self.unit_scale = memory_unit(peak)
        self.plot.getAxis("left").enableAutoSIPrefix(False)
        self.curves: list[tuple[pg.PlotDataItem, Envelope]] = []
        for doc, (_name, colour, width, alpha) in zip(self.documents, RUNS, strict=True):
            envelopes = doc.curve_envelopes()
            for kind, style in KINDS:
                pen_colour = pg.mkColor(colour)
                pen_colour.setAlpha(alpha)
                item = self.plot.plot([], [], pen=pg.mkPen(pen_colour, width=width, style=style))
                self.curves.append((item, envelopes[kind]))
        self._refresh = QtCore.QTimer(self, singleShot=True, interval=0)
        self._refresh.timeout.connect(self._draw_curves)
        self.view_box.sigXRangeChanged.connect(self._refresh.start)
        self.view_box.sigResized.connect(self._refresh.start)
        self.plot.setXRange(0, max(self.n_events - 1, 1), padding=0.01)
        if peak <= 0:
            self.plot.setYRange(0, 1, padding=0.02)
        self.cursor_line = pg.InfiniteLine(angle=90, movable=True, pen=pg.mkPen(palette.CURSOR, width=1))
        self.cursor_line.sigPositionChanged.connect(lambda: self.travel_to(round(self.cursor_line.value())))
        self.plot.addItem(self.cursor_line)
        self.view_box.scrubbed.connect(lambda x: self.travel_to(round(x)))
        self.legend = QtWidgets.QLabel()  # under the plot: it hides no curve and wraps, never clipped
        self.legend.setWordWrap(True)
        layout = self.main_layout = QtWidgets.QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addLayout(pair, 3)
        layout.addWidget(self.plot, 1)
        layout.addWidget(self.legend)
        self._refresh.start()
        self.retranslate()
        self.travel_to(self.n_events - 1, force=True)

    def retranslate(self) -> None:
        """The header, axes, legend and map titles in the window's language."""
        self.summary.setText(rich_text(self.summary_text()))
        self.plot.setLabel("left", self.tr("memory ({unit})").format(unit=unit_word(self.unit)))
        self.plot.setLabel("bottom", self.tr("trace event"))
        self.legend.setText(rich_text(legend_html()))
        self._name_events()

    def changeEvent(self, event: QtCore.QEvent) -> None:
        if event.type() == QtCore.QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def summary_text(self) -> str:
        """The header: what was replayed, and how its peak, OOMs, device calls and fragmentation changed."""
        result = self.run.result
        o, r = result.original, result.replayed
        if result.first_divergence is None:
            where = self.tr("never")
        else:
            where = self.tr("first at event {event}").format(event=num(result.first_divergence))
        replayed = html.escape(said(self.run.change) or result.settings or self.tr("recorded settings"))
        text = self.tr(
            "<b>{replayed}</b> on {capacity}: peak reserved {peak_before} &rarr; {peak_after} (<b>{diff}</b>), OOMs "
            "{ooms_before} &rarr; {ooms_after}, cudaMalloc/map calls {calls_before} &rarr; {calls_after}, worst "
            "fragmentation {frag_before} &rarr; {frag_after}; the replay differs from the recording {where}"
        ).format(
            replayed=replayed,
            capacity=size(result.capacity),
            peak_before=size(o.peak_reserved_bytes),
            peak_after=size(r.peak_reserved_bytes),
            diff=signed_size(r.peak_reserved_bytes - o.peak_reserved_bytes),
            ooms_before=num(o.oom_events),
            ooms_after=num(r.oom_events),
            calls_before=num(o.device_allocations),
            calls_after=num(r.device_allocations),
            frag_before=pct(o.max_external_fragmentation, 1),
            frag_after=pct(r.max_external_fragmentation, 1),
            where=where,
        )
        if result.unjudged:
            text += self.tr(". <b>Note:</b> {note}.").format(note=html.escape(said(result.unjudged)))
        pools = self.pools_text()
        return text + f"<br>{pools}" if pools else text

    def pools_text(self) -> str:
        """The private pools the trace does not name that the replay assumed (inferred under the recorded settings,
        carried under others), said because nothing in the file records them; "" where it assumed none."""
        pools = self.run.result.inferred_pools
        if not pools:
            return ""
        sizes = [s.size for p in pools for s in p.segments]
        listed = (
            ", ".join(size(s) for s in sizes)
            if len(sizes) <= SEGMENTS_LISTED
            else self.tr("{total} in all").format(total=size(sum(sizes)))
        )
        fields = {"n": count(len(sizes)), "sizes": listed, "pools": count(len(pools))}
        if len(pools) == 1:
            return self.tr(
                "The replay assumed a private pool the trace does not name (a MemPool or CUDA graph freed before the"
                " snapshot), inferred from {n} {n:segment|segments} ({sizes}) the recorded allocator made although"
                " the default pool had room; each replay keeps that pool's memory apart."
            ).format_map(fields)
        return self.tr(
            "The replay assumed {pools} private pools the trace does not name (MemPools or CUDA graphs freed before"
            " the snapshot), inferred from {n} {n:segment|segments} ({sizes}) the recorded allocator made although"
            " the default pool had room; each replay keeps those pools' memory apart."
        ).format_map(fields)

    def resizeEvent(self, event: QtGui.QResizeEvent) -> None:
        # the wrapped legend's lines kept in the least height (see TimelineView.resizeEvent)
        margins = self.main_layout.contentsMargins()
        width = event.size().width() - margins.left() - margins.right()
        self.legend.setMinimumHeight(self.legend.heightForWidth(max(width, 1)))
        super().resizeEvent(event)

    def _draw_curves(self) -> None:
        """Each curve's step envelope over the x range in view (see TimelineView._draw_curves)."""
        lo, hi = self.view_box.viewRange()[0]
        bins = max(int(self.view_box.width()) // 2, 300)
        for item, curve in self.curves:
            xs, ys = curve.step_points(None, lo, hi, bins)
            item.setData(xs, ys / self.unit_scale)

    def travel_to(self, index: int, *, force: bool = False) -> None:
        """Both runs right after event `index` (clamped to the trace; each run to its own), the cursor on it."""
        index = min(max(index, -1), self.n_events - 1)
        self.cursor_line.blockSignals(True)  # the line snaps to the event; moving it must not travel again
        self.cursor_line.setValue(index)
        self.cursor_line.blockSignals(False)
        if index == self.current_event and not force:
            return
        self.current_event = index
        for view, doc, at in zip(self.maps, self.documents, (index, self.replayed_at(index)), strict=True):
            view.show_frame(doc.travel(at))
        self._name_events()
        self.event_changed.emit(index)

    def replayed_at(self, index: int) -> int:
        """The replayed event paired with recorded event `index` (the same request), -1 before the first."""
        if self.paired is None or index < 0 or not len(self.paired):
            return index
        return int(self.paired[min(index, len(self.paired) - 1)])

    def step(self, delta: int) -> None:
        self.travel_to(self.current_event + delta)

    def page(self) -> int:
        """The PageUp/PageDown step: a hundredth of the trace, at least ten events."""
        return page_step(self.n_events)

    def _name_events(self) -> None:
        """Each map's title says which run it is and which event it shows."""
        for title, doc, (name, colour, _w, _a) in zip(self.titles, self.documents, RUNS, strict=True):
            title.setText(rich_text(f'<b style="color:{colour}">{run_name(name)}</b>: {event_text(doc.frame())}'))

    def handle_key(self, key: int) -> bool:
        """Travel by a key (the shared travel keys); False for a key that does not travel."""
        delta = travel_delta(key, self.current_event, self.n_events)
        if delta is None:
            return False
        self.step(delta)
        return True

    def keyPressEvent(self, event: QtGui.QKeyEvent) -> None:
        # also the keys of the plots and maps inside: they leave the arrows and pages to their parent
        if not self.handle_key(event.key()):
            super().keyPressEvent(event)

    def show_foci(self, foci: Sequence[DemoFocus]) -> None:
        """A demo's focus on each run, each at its own event (the recorded OOM, the replayed request), which are
        different event numbers: the shared cursor goes to the recorded one without moving the maps."""
        if len(foci) != len(self.maps):
            raise ValueError(f"a comparison shows {len(self.maps)} runs, got {len(foci)} foci")
        for view, doc, focus in zip(self.maps, self.documents, foci, strict=True):
            view.show_frame(doc.focus_at(focus.event, focus.mask_for, focus.caption))
        self.current_event = foci[0].event
        self.cursor_line.blockSignals(True)  # moving it would travel both maps to one event and end the foci
        self.cursor_line.setValue(foci[0].event)
        self.cursor_line.blockSignals(False)
        self._name_events()


def event_text(frame: EventFrame) -> str:
    """Which event a map shows, as its title says it: the number, and what the event did."""
    if frame.event < 0:
        return QtCore.QCoreApplication.translate("WhatIfView", "before the first event")
    text = QtCore.QCoreApplication.translate("WhatIfView", "after event {event} of {events}").format(
        event=num(frame.event), events=num(frame.n_events)
    )
    info = frame.event_info
    if info is not None and info.label:
        text += f" ({info.label}{f', {size(info.size)}' if info.size else ''})"
    return text


def legend_html() -> str:
    """Every colour and line style the comparison's timeline draws, with what it means."""
    swatches = {QtCore.Qt.PenStyle.SolidLine: "&#9473;&#9473;", QtCore.Qt.PenStyle.DashLine: "&#9477;&#9477;"}
    items = [
        f'<span style="color:{shown_colour(colour, alpha)}">{swatches[style]}</span> '
        + QtCore.QCoreApplication.translate("WhatIfView", "{run} {kind}").format(
            run=run_name(name), kind=kind_name(kind)
        )
        for name, colour, _w, alpha in RUNS
        for kind, style in KINDS
    ]
    items.append(
        f'<span style="color:{palette.CURSOR}">&#9474;</span> '
        + QtCore.QCoreApplication.translate("WhatIfView", "the event both maps show")
    )
    hint = QtCore.QCoreApplication.translate(
        "WhatIfView", "click or drag the timeline, or use Left/Right, PageUp/PageDown, Home/End, to travel both runs"
    )
    return " &nbsp; ".join(items) + f' &nbsp; <span style="color:{palette.TEXT_MUTED}">{hint}</span>'


def shown_colour(colour: str, alpha: int) -> str:
    """How a translucent pen looks over the plot's background, as the legend's swatch must show it."""
    pen, back = pg.mkColor(colour), pg.mkColor(palette.PLOT_BACKGROUND)
    mix = [
        round((a * alpha + b * (255 - alpha)) / 255) for a, b in zip(pen.getRgb()[:3], back.getRgb()[:3], strict=True)
    ]
    return "#{:02x}{:02x}{:02x}".format(*mix)
