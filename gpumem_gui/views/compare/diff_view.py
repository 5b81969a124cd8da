"""DiffView: two snapshots, or two moments of one, side by side: maps at one byte scale with the added and removed
blocks marked, the figures with their deltas, the sites that changed, and both timelines on one aligned axis."""

from __future__ import annotations

from typing import Any

import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

from gpumem_gui.core.analysis.diff import FIGURES, Diff
from gpumem_gui.core.snapshot.model import Snapshot
from gpumem_gui.document.compare import CompareDocument
from gpumem_gui.document.curves import Envelope, memory_unit
from gpumem_gui.document.document import SnapshotDocument
from gpumem_gui.teach.translatable import QT_TRANSLATE_NOOP
from gpumem_gui.views.common import palette
from gpumem_gui.views.common.language import num, signed_size, size, unit_word
from gpumem_gui.views.common.rich_text import rich_text
from gpumem_gui.views.common.table_model import ColumnsModel
from gpumem_gui.views.common.tasks import TaskGroup
from gpumem_gui.views.compare.whatif_view import KINDS, event_text, kind_name, shown_colour
from gpumem_gui.views.snapshot.map_view import SegmentMapView
from gpumem_gui.views.snapshot.site_timeline import short_label
from gpumem_gui.views.snapshot.timeline import MIN_PLOT_HEIGHT, ScrubViewBox

# the two sides' colours and pens on the shared timeline: A wide and translucent under B (as the what-if view draws
# the recorded and the replayed run), so that where they agree both stay visible
SIDE_PENS = (("A", palette.CURVES["reserved"], 6, 140), ("B", palette.LARGEST_HOLE, 2, 255))
_LABELS = {
    "reserved_bytes": QT_TRANSLATE_NOOP("DiffView", "reserved"),
    "allocated_bytes": QT_TRANSLATE_NOOP("DiffView", "allocated"),
    "free_bytes": QT_TRANSLATE_NOOP("DiffView", "free (cached)"),
    "segments": QT_TRANSLATE_NOOP("DiffView", "segments"),
    "blocks": QT_TRANSLATE_NOOP("DiffView", "blocks"),
}
_HEADERS = (
    QT_TRANSLATE_NOOP("DiffView", "site"),
    "B − A",
    QT_TRANSLATE_NOOP("DiffView", "added"),
    QT_TRANSLATE_NOOP("DiffView", "removed"),
)


def _tr(text: str) -> str:
    return QtCore.QCoreApplication.translate("DiffView", text)


class SiteDeltaModel(ColumnsModel):
    """The diff's sites with their deltas: a virtual model, one row per site that gained or lost a block."""

    columns = _HEADERS

    def __init__(self) -> None:
        super().__init__()
        self.diff: Diff | None = None

    def set_diff(self, diff: Diff) -> None:
        self.beginResetModel()
        self.diff = diff
        self.endResetModel()

    def headerData(self, section: int, orientation: Any, role: int = 0) -> Any:
        header = super().headerData(section, orientation, role)
        return _tr(header) if isinstance(header, str) else header

    def row_count(self) -> int:
        return 0 if self.diff is None else len(self.diff.by_site)

    def site(self, row: int) -> str:
        assert self.diff is not None
        return self.diff.by_site[row].site

    def data(self, index: QtCore.QModelIndex | QtCore.QPersistentModelIndex, role: int = 0) -> Any:
        if not index.isValid() or self.diff is None:
            return None
        s = self.diff.by_site[index.row()]
        col = index.column()
        if role == QtCore.Qt.ItemDataRole.DisplayRole:
            values = (
                short_label(s.site),
                signed_size(s.bytes_delta),
                size(s.added_bytes),
                size(s.removed_bytes),
            )
            return values[col]
        if role == QtCore.Qt.ItemDataRole.ToolTipRole:
            return f"{s.site}\nA {size(s.a_bytes)}, B {size(s.b_bytes)}"
        if role == QtCore.Qt.ItemDataRole.TextAlignmentRole and col > 0:
            return int(QtCore.Qt.AlignmentFlag.AlignRight | QtCore.Qt.AlignmentFlag.AlignVCenter)
        return None


class DiffView(QtWidgets.QWidget):
    """A against B. A click or drag on the timeline travels both (B to the event aligned with A's); B's event box
    moves B alone, which makes a new alignment; a site picked in the table lights up its blocks on both maps."""

    event_changed = QtCore.Signal(int, int)  # A's event, B's event, once their diff is shown
    site_picked = QtCore.Signal(str)  # "" when the maps go back to the added and removed blocks

    def __init__(
        self, diff: Diff, doc_a: SnapshotDocument | Snapshot, doc_b: SnapshotDocument | Snapshot | None = None
    ) -> None:
        super().__init__()
        self.setFocusPolicy(QtCore.Qt.FocusPolicy.StrongFocus)
        docs = [d if isinstance(d, SnapshotDocument) else SnapshotDocument(d, device=side.device)
                for d, side in ((doc_a, diff.a), (doc_a if doc_b is None else doc_b, diff.b))]  # fmt: skip
        self.compare = CompareDocument(docs[0], docs[1], diff)
        self.tasks = TaskGroup(self)
        self.pending: tuple[int, int] | None = None  # the events a diff is being computed for

        self.titles = (QtWidgets.QLabel(), QtWidgets.QLabel())
        self.maps = (SegmentMapView(), SegmentMapView())
        maps = QtWidgets.QWidget()
        pair = QtWidgets.QHBoxLayout(maps)
        pair.setContentsMargins(0, 0, 0, 0)
        for title, view in zip(self.titles, self.maps, strict=True):
            title.setWordWrap(True)
            title.setTextFormat(QtCore.Qt.TextFormat.RichText)
            column = QtWidgets.QVBoxLayout()
            column.addWidget(title)
            column.addWidget(view, 1)
            pair.addLayout(column, 1)

        self.figures = QtWidgets.QLabel()
        self.figures.setTextFormat(QtCore.Qt.TextFormat.RichText)
        self.figures.setWordWrap(True)
        self.sites = SiteDeltaModel()
        self.site_table = QtWidgets.QTableView()
        self.site_table.setModel(self.sites)
        self.site_table.setSelectionBehavior(QtWidgets.QAbstractItemView.SelectionBehavior.SelectRows)
        self.site_table.setSelectionMode(QtWidgets.QAbstractItemView.SelectionMode.SingleSelection)
        self.site_table.verticalHeader().setVisible(False)
        self.site_table.setWordWrap(False)
        rows = self.site_table.verticalHeader()
        rows.setSectionResizeMode(QtWidgets.QHeaderView.ResizeMode.Fixed)
        rows.setDefaultSectionSize(self.site_table.fontMetrics().lineSpacing() + 6)
        self.site_table.setTextElideMode(QtCore.Qt.TextElideMode.ElideLeft)
        header = self.site_table.horizontalHeader()
        header.setSectionResizeMode(0, QtWidgets.QHeaderView.ResizeMode.Stretch)
        for col in range(1, len(_HEADERS)):
            header.setSectionResizeMode(col, QtWidgets.QHeaderView.ResizeMode.ResizeToContents)
        self.site_table.clicked.connect(lambda index: self.pick_site(self.sites.site(index.row())))
        self.changes_button = QtWidgets.QPushButton()
        self.changes_button.clicked.connect(lambda: self.pick_site(None))
        side_panel = QtWidgets.QWidget()
        side = QtWidgets.QVBoxLayout(side_panel)
        side.setContentsMargins(0, 0, 0, 0)
        side.addWidget(self.figures)
        self.sites_label = QtWidgets.QLabel()
        side.addWidget(self.sites_label)
        side.addWidget(self.site_table, 1)
        side.addWidget(self.changes_button)
        side_panel.setMinimumWidth(440)

        self.event_boxes = (QtWidgets.QSpinBox(), QtWidgets.QSpinBox())
        controls = QtWidgets.QHBoxLayout()
        self.event_labels = (QtWidgets.QLabel(), QtWidgets.QLabel())
        for label, box, n in zip(self.event_labels, self.event_boxes, self.compare.n_events, strict=True):
            box.setRange(-1, max(n - 1, -1))
            box.setKeyboardTracking(False)  # a number typed moves once, when it is whole
            controls.addWidget(label)
            controls.addWidget(box)
        self.event_boxes[0].valueChanged.connect(self.travel_to)
        self.event_boxes[1].valueChanged.connect(lambda j: self.show_events(self.compare.diff.a.event, j, True))
        self.status = QtWidgets.QLabel()
        self.status.setStyleSheet(f"color: {palette.TEXT_MUTED}")
        controls.addWidget(self.status, 1)

        self.view_box = ScrubViewBox()
        self.plot = pg.PlotWidget(viewBox=self.view_box, background=palette.PLOT_BACKGROUND)
        self.plot.setMenuEnabled(False)
        self.plot.setMinimumHeight(MIN_PLOT_HEIGHT)
        self.curves: list[tuple[pg.PlotDataItem, Envelope, int]] = []  # item, curve, 0 for A or 1 for B
        self._build_curves()
        self.cursor_line = pg.InfiniteLine(angle=90, movable=False, pen=pg.mkPen(palette.CURSOR, width=1))
        self.plot.addItem(self.cursor_line)
        self.view_box.scrubbed.connect(lambda x: self.travel_to(round(x)))
        self._refresh = QtCore.QTimer(self, singleShot=True, interval=0)
        self._refresh.timeout.connect(self._draw_curves)
        self.view_box.sigXRangeChanged.connect(self._refresh.start)
        self.view_box.sigResized.connect(self._refresh.start)
        self.legend = QtWidgets.QLabel()
        self.legend.setWordWrap(True)

        # the maps get the whole width (a map's scale and labels need it); the timeline, the figures and the sites
        # share the row under them
        timeline = QtWidgets.QVBoxLayout()
        timeline.addLayout(controls)
        timeline.addWidget(self.plot, 1)
        bottom = QtWidgets.QHBoxLayout()
        bottom.addLayout(timeline, 3)
        bottom.addWidget(side_panel, 2)
        layout = self.main_layout = QtWidgets.QVBoxLayout(self)
        layout.addWidget(maps, 3)
        layout.addLayout(bottom, 2)
        layout.addWidget(self.legend)
        self._fit_axis()
        self.retranslate()

    def retranslate(self) -> None:
        """Every text of the comparison in the window's language."""
        self.changes_button.setText(self.tr("Show added and removed"))
        self.sites_label.setText(rich_text(self.tr("<b>Sites that changed</b> (click one: its blocks on both maps)")))
        for label, text in zip(self.event_labels, (self.tr("A event"), self.tr("B event")), strict=True):
            label.setText(text)
        self.plot.setLabel("left", self.tr("memory ({unit})").format(unit=unit_word(self.unit)))
        self.plot.setLabel("bottom", self.tr("A's trace event (B aligned)"))
        self.legend.setText(rich_text(self._legend_html()))
        self.sites.headerDataChanged.emit(QtCore.Qt.Orientation.Horizontal, 0, len(_HEADERS) - 1)
        self._show(self.compare.frames())

    def changeEvent(self, event: QtCore.QEvent) -> None:
        if event.type() == QtCore.QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    # -- the timeline ---------------------------------------------------------------------------------------

    def _build_curves(self) -> None:
        docs = self.compare.docs
        peak = max(float(doc.timeline().series.peak("reserved")) for doc in docs)
        self.unit, self.unit_scale = memory_unit(peak)
        self.plot.getAxis("left").enableAutoSIPrefix(False)
        for i, (doc, (_name, colour, width, alpha)) in enumerate(zip(docs, SIDE_PENS, strict=True)):
            envelopes = doc.curve_envelopes()
            for kind, style in KINDS:
                pen_colour = pg.mkColor(colour)
                pen_colour.setAlpha(alpha)
                item = self.plot.plot([], [], pen=pg.mkPen(pen_colour, width=width, style=style))
                self.curves.append((item, envelopes[kind], i))

    def _fit_axis(self) -> None:
        n_a, n_b = self.compare.n_events
        lo, hi = min(-1, -1 + self.compare.shift), max(n_a - 1, n_b - 1 + self.compare.shift, 1)
        self.plot.setXRange(lo, hi, padding=0.01)

    def _draw_curves(self) -> None:
        """Each curve's step envelope over the range in view; B's drawn `shift` events to the right."""
        lo, hi = self.view_box.viewRange()[0]
        bins = max(int(self.view_box.width()) // 2, 300)
        for item, curve, side in self.curves:
            shift = self.compare.shift if side == 1 else 0
            xs, ys = curve.step_points(None, lo - shift, hi - shift, bins)
            item.setData(xs + shift, ys / self.unit_scale)

    def _legend_html(self) -> str:
        items = [
            f'<span style="color:{shown_colour(colour, alpha)}">{"&#9473;&#9473;" if k == 0 else "&#9477;&#9477;"}'
            f"</span> {name} {kind_name(kind)}"
            for name, colour, _w, alpha in SIDE_PENS
            for k, (kind, _style) in enumerate(KINDS)
        ]
        items.append(f'<span style="color:{palette.CURSOR}">&#9474;</span> ' + self.tr("the moments both maps show"))
        hint = self.tr("click or drag the timeline (or Left/Right) to travel both; B's event box moves B alone")
        return " &nbsp; ".join(items) + f' &nbsp; <span style="color:{palette.TEXT_MUTED}">{hint}</span>'

    # -- travel ---------------------------------------------------------------------------------------------

    def travel_to(self, event_a: int) -> None:
        """A to `event_a` and B to the event aligned with it."""
        self.show_events(*self.compare.aligned(event_a))

    def show_events(self, event_a: int, event_b: int, realign: bool = False) -> None:
        """Both sides at these events: the diff is computed off the GUI thread, then drawn (the newest move wins: an
        older one is cancelled); `realign` makes these events the new alignment."""
        n_a, n_b = self.compare.n_events
        event_a, event_b = min(max(event_a, -1), n_a - 1), min(max(event_b, -1), n_b - 1)
        diff = self.compare.diff
        if (event_a, event_b) == (diff.a.event, diff.b.event) and self.pending is None:
            return
        self.pending = (event_a, event_b)
        self.status.setText(self.tr("comparing A at {a} with B at {b}...").format(a=num(event_a), b=num(event_b)))
        self.tasks.start_latest(
            "compare",
            lambda _ctx: self.compare.diff_at(event_a, event_b),
            on_result=lambda found: self._arrived(found, realign),
            on_error=self.status.setText,
        )

    def _arrived(self, diff: Diff, realign: bool) -> None:
        self.pending = None
        self.status.setText("")
        self._show(self.compare.set_diff(diff, realign=realign))
        if realign:
            self._draw_curves()
        self.event_changed.emit(diff.a.event, diff.b.event)

    def pick_site(self, site: str | None) -> None:
        """Light up `site`'s blocks on both maps (None: the added and removed blocks again)."""
        self._show(self.compare.set_site(site))
        if site is None:
            self.site_table.clearSelection()
        self.site_picked.emit(site or "")

    def keyPressEvent(self, event: QtGui.QKeyEvent) -> None:
        step = {QtCore.Qt.Key.Key_Left: -1, QtCore.Qt.Key.Key_Right: 1}.get(QtCore.Qt.Key(event.key()))
        if step is None:
            super().keyPressEvent(event)
            return
        base = self.pending[0] if self.pending is not None else self.compare.diff.a.event
        self.travel_to(base + step)

    # -- drawing ----------------------------------------------------------------------------------------------

    def _show(self, frames: tuple[Any, Any]) -> None:
        diff = self.compare.diff
        for view, frame in zip(self.maps, frames, strict=True):
            view.show_frame(frame, keep_range=False)
        sides = (diff.a, diff.b)
        for title, side, frame, (name, colour, _w, _a) in zip(self.titles, sides, frames, SIDE_PENS, strict=True):
            file = side.file.replace("\\", "/").rsplit("/", 1)[-1]
            where = self.tr("GPU {device}, {event}").format(device=side.device, event=event_text(frame))
            title.setText(rich_text(f'<b style="color:{colour}">{name}</b> <b>{file}</b>, {where}'))
            title.setToolTip(side.file)
        for box, side in zip(self.event_boxes, (diff.a, diff.b), strict=True):
            box.blockSignals(True)  # showing the event must not travel again
            box.setValue(side.event)
            box.blockSignals(False)
        self.cursor_line.setValue(diff.a.event)
        self.sites.set_diff(diff)
        self._select_site_row()
        self.figures.setText(rich_text(figures_html(diff)))

    def _select_site_row(self) -> None:
        site = self.compare.site
        rows = [i for i, s in enumerate(self.compare.diff.by_site) if s.site == site] if site else []
        if rows:
            self.site_table.selectRow(rows[0])
        else:
            self.site_table.clearSelection()

    def resizeEvent(self, event: QtGui.QResizeEvent) -> None:
        # the wrapped legend's lines kept in the least height (see TimelineView.resizeEvent)
        margins = self.main_layout.contentsMargins()
        width = event.size().width() - margins.left() - margins.right()
        self.legend.setMinimumHeight(self.legend.heightForWidth(max(width, 1)))
        super().resizeEvent(event)


def figures_html(diff: Diff) -> str:
    """The figures side by side with their deltas (b minus a), and the blocks matched."""
    delta = diff.delta
    rows = []
    for key in FIGURES:
        a, b, d = getattr(diff.a, key), getattr(diff.b, key), delta[key]
        if key.endswith("_bytes"):
            cells: tuple[str, str, str] = (size(a), size(b), signed_size(d))
        else:
            cells = (num(a), num(b), ("+" if d > 0 else "−") + num(abs(d)) if d else "0")
        rows.append(
            f"<tr><td>{_tr(_LABELS[key])}</td>" + "".join(f'<td align="right">&nbsp;{c}</td>' for c in cells) + "</tr>"
        )
    head = "<tr><th></th><th align='right'>A</th><th align='right'>B</th><th align='right'>B − A</th></tr>"
    blocks = QtCore.QCoreApplication.translate(
        "DiffView",
        "allocated blocks: <b>{added}</b> added ({added_bytes}), <b>{removed}</b> removed ({removed_bytes}), {kept} "
        "kept",
    ).format(
        added=num(len(diff.added)),
        added_bytes=size(diff.added_bytes),
        removed=num(len(diff.removed)),
        removed_bytes=size(diff.removed_bytes),
        kept=num(len(diff.kept_a)),
    )
    return f"<table cellspacing='2'>{head}{''.join(rows)}</table>{blocks}"
