"""EventListView: the device's trace as a filterable list; a row picked is the event to travel to.

The model holds only the filter's index array: rows are made when drawn, so three million events cost one array."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any, cast

import numpy as np
from PySide6 import QtCore, QtGui, QtWidgets

from gpumem_gui.core.analysis.timetravel import DeviceTimeline
from gpumem_gui.core.snapshot.model import Snapshot
from gpumem_gui.core.snapshot.units import format_bytes_exact
from gpumem_gui.document.event_list import COLUMNS, KINDS, EventFilter, EventKind, EventTable, Rows, row_of
from gpumem_gui.document.events import action_label
from gpumem_gui.views.common.language import (
    QT_TRANSLATE_NOOP,
    Retranslated,
    current_language,
    filled,
    localized,
    parse_size,
    site_words,
    translate,
)
from gpumem_gui.views.common.table_model import ColumnsModel

_RIGHT = {0, 1, 3, 5}  # the number columns
_SAMPLE = ("3,000,000", "+12 min 05.000 s", "segment unmap.", "1023.9 MiB", "0x7f0000000000", "stream")


def _size_text(n: int) -> str:
    """A size as the filter bar takes it back: `64MiB` where exact, else the byte count; empty for none."""
    if n <= 0:
        return ""
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n % scale == 0:
            return f"{n // scale}{unit}"
    return str(n)


_DECIMAL = re.compile(r"(?<=\d)\.(?=\d)")


def _time_text(elapsed: str) -> str:
    """A time since the first event ("+12 min 05.000 s") with the language's decimal mark, its zeros kept."""
    point = localized("0.5")[1]
    return elapsed if point == "." else _DECIMAL.sub(point, elapsed)


# document.event_list's COLUMNS and KINDS, marked here for pyside6-lupdate (the document is Qt-free)
_WORDS = (
    QT_TRANSLATE_NOOP("Columns", "#"),
    QT_TRANSLATE_NOOP("Columns", "time"),
    QT_TRANSLATE_NOOP("Columns", "action"),
    QT_TRANSLATE_NOOP("Columns", "size"),
    QT_TRANSLATE_NOOP("Columns", "address"),
    QT_TRANSLATE_NOOP("Columns", "stream"),
    QT_TRANSLATE_NOOP("Columns", "site"),
    QT_TRANSLATE_NOOP("EventListView", "all events"),
    QT_TRANSLATE_NOOP("EventListView", "allocations"),
    QT_TRANSLATE_NOOP("EventListView", "frees"),
    QT_TRANSLATE_NOOP("EventListView", "cudaMalloc/cudaFree (segments)"),
    QT_TRANSLATE_NOOP("EventListView", "segment map/unmap"),
    QT_TRANSLATE_NOOP("EventListView", "OOMs"),
    QT_TRANSLATE_NOOP("EventListView", "snapshots and annotations"),
)


_DISPLAY = int(QtCore.Qt.ItemDataRole.DisplayRole)
_TOOLTIP = int(QtCore.Qt.ItemDataRole.ToolTipRole)
_ALIGNMENT = int(QtCore.Qt.ItemDataRole.TextAlignmentRole)
_ALIGNMENTS = tuple(
    int(
        (QtCore.Qt.AlignmentFlag.AlignRight if column in _RIGHT else QtCore.Qt.AlignmentFlag.AlignLeft)
        | QtCore.Qt.AlignmentFlag.AlignVCenter
    )
    for column in range(len(COLUMNS))
)
_ROLES = frozenset((_DISPLAY, _TOOLTIP, _ALIGNMENT))  # the rest: Qt's defaults
_N_COLUMNS = len(COLUMNS)
_SHOWN_CACHE = 512  # rows kept worded: a screenful many times over (a travel scrolls back and forth among them)


class EventListModel(ColumnsModel):
    """Rows are trace indices (the filter's ascending array); each row's cells come from the EventTable on demand.

    Every travel scrolls the list and repaints it: a row's texts are worded once (per language) and kept, the counts
    kept, so a paint is a lookup. The list's EventCellDelegate reads the kept texts (`_row`) itself; data() answers
    the stock delegate's seven roles a cell (tooltips, accessibility, the cells the style draws itself). (One multiData
    call per cell instead measured no faster: reading its span item by item costs what the calls saved.)"""

    columns = COLUMNS

    def __init__(self) -> None:
        super().__init__()
        self.table: EventTable | None = None
        self.indices: Rows = np.zeros(0, np.int64)
        self._count = 0  # rowCount is asked dozens of times per paint: no Python call beyond it
        self._shown: dict[int, tuple[str, ...]] = {}  # row -> its cells as shown, in self._language (set_rows empties)
        self._language = ""

    def set_rows(self, table: EventTable | None, indices: Rows) -> None:
        self.beginResetModel()
        self.table = table
        self.indices = indices  # a RowRange stays one: the unfiltered list of millions has no array
        self._count = len(indices)
        self._shown.clear()
        self.endResetModel()

    def row_count(self) -> int:
        return self._count

    def rowCount(self, parent: Any = None) -> int:
        return 0 if parent is not None and parent.isValid() else self._count

    def columnCount(self, parent: Any = None) -> int:
        return 0 if parent is not None and parent.isValid() else _N_COLUMNS

    def _row(self, row: int) -> tuple[str, ...]:
        """Row `row`'s cells as the window's language writes them (made once, while the rows and language stay)."""
        assert self.table is not None
        language = current_language()
        if language != self._language:  # a switch words every row again
            self._shown.clear()
            self._language = language
        found = self._shown.get(row)
        if found is None:
            if len(self._shown) >= _SHOWN_CACHE:
                self._shown.clear()
            cells = self.table.cells(int(self.indices[row]))
            found = self._shown[row] = (
                localized(cells[0]),  # the event's number and a size as the window's language writes them
                _time_text(cells[1]),
                translate("EventWords", cells[2]),  # the action in words (EventWords, in event_inspector)
                localized(cells[3]),
                cells[4],
                cells[5],
                site_words(cells[6]),
            )
        return found

    def _tooltip(self, row: int, column: int) -> str | None:
        assert self.table is not None
        if column == 3:
            event = int(self.indices[row])
            size = int(self.table.trace.size[event])
            block = self.table.block_size(event)
            if block is None or block == size:
                return localized(format_bytes_exact(size))
            fields = {"size": localized(format_bytes_exact(size)), "block": localized(format_bytes_exact(block))}
            return translate("EventListView", "{size}; block {block}").format_map(fields)
        if column == 2:
            return translate("EventWords", action_label(self.table.trace, int(self.indices[row])))
        if column == 6:
            return self._row(row)[6]
        return None

    def data(self, index: QtCore.QModelIndex | QtCore.QPersistentModelIndex, role: int = 0) -> Any:
        if role not in _ROLES or self.table is None or not index.isValid():
            return None  # a painted cell is asked for seven roles: four are answered before anything else
        if role == _DISPLAY:
            return self._row(index.row())[index.column()]
        if role == _ALIGNMENT:
            return _ALIGNMENTS[index.column()]
        if role == _TOOLTIP:
            return self._tooltip(index.row(), index.column())
        return None


# the option's state bits the cells' drawing reads, as ints: a PySide flag operation costs a microsecond a cell
_ENABLED = QtWidgets.QStyle.StateFlag.State_Enabled.value
_ACTIVE = QtWidgets.QStyle.StateFlag.State_Active.value
_SELECTED = QtWidgets.QStyle.StateFlag.State_Selected.value
# what the style draws of its own: the current cell's focus frame, an editor (one cell at most)
_OWN_LOOK = QtWidgets.QStyle.StateFlag.State_HasFocus.value | QtWidgets.QStyle.StateFlag.State_Editing.value
_RIGHT_ALIGNED = tuple(column in _RIGHT for column in range(_N_COLUMNS))
# the styles that draw a plain text item as QCommonStyle does (highlight, text, nothing of their own): their cells are
# ours to draw; any other (a platform's, a style sheet's, a proxy) draws every cell itself
_PLAIN_STYLES = frozenset(("QFusionStyle", "QWindowsStyle"))
_WIDTHS_KEPT = 8192  # texts measured: the repeating ones (actions, sizes, sites, streams) stay measured


class _PaintPass:
    """What every cell of one repaint shares, read once from the view: the style's text margin, the colours of each
    state, where the text's baseline sits in a row, the elide mode, the row being painted (cell by cell)."""

    __slots__ = ("baseline", "colours", "elide", "enabled", "margin", "metrics", "palette", "row", "texts", "widths")

    def __init__(self, view: QtWidgets.QTableView, metrics: QtGui.QFontMetricsF, widths: dict[str, float]) -> None:
        style = view.style()
        # QCommonStyle's viewItemDrawText pads the text by the focus frame's margin and a pixel, each side
        self.margin = style.pixelMetric(QtWidgets.QStyle.PixelMetric.PM_FocusFrameHMargin, None, view) + 1
        self.metrics = metrics
        self.widths = widths
        self.elide = view.textElideMode()
        self.palette = view.palette()
        self.enabled = view.isEnabled()
        self.colours: dict[int, tuple[QtGui.QBrush | None, QtGui.QColor]] = {}
        self.baseline: dict[int, float] = {}  # a cell's height -> its text's baseline below the cell's top
        self.row = -1
        self.texts: tuple[str, ...] = ()

    def colours_of(self, state: int) -> tuple[QtGui.QBrush | None, QtGui.QColor]:
        """The highlight (None: not selected) and the text's colour of a cell in `state`, as QCommonStyle picks
        them: the disabled group, else the inactive one in a window not active, else the normal one (the text's
        group by the cell's state, the highlight's by whether the view is enabled)."""
        roles = QtGui.QPalette.ColorRole
        text = self._group(bool(state & _ENABLED), state)
        if not state & _SELECTED:
            found: tuple[QtGui.QBrush | None, QtGui.QColor] = (None, self.palette.color(text, roles.Text))
        else:
            highlight = self.palette.brush(self._group(self.enabled, state), roles.Highlight)
            found = (highlight, self.palette.color(text, roles.HighlightedText))
        self.colours[state] = found
        return found

    @staticmethod
    def _group(enabled: bool, state: int) -> QtGui.QPalette.ColorGroup:
        if not enabled:
            return QtGui.QPalette.ColorGroup.Disabled
        return QtGui.QPalette.ColorGroup.Normal if state & _ACTIVE else QtGui.QPalette.ColorGroup.Inactive

    def baseline_of(self, height: int) -> float:
        """QCommonStyle's place for the line: its box (ascent + descent, rounded) centred in the cell by C++'s
        integer halving, the baseline an ascent below the box's top."""
        metrics = self.metrics
        found = self.baseline[height] = int((height - round(metrics.height())) / 2) + metrics.ascent()
        return found


class EventCellDelegate(QtWidgets.QStyledItemDelegate):
    """Draws a cell of the event list from its model's worded row, as the style draws a plain text item.

    The stock delegate asks the model for seven roles per cell, each a Python call with an index made for it, and the
    style lays the text out in a QTextLayout: a jump repaints every visible cell, the list's largest cost in a
    travel. Here a cell is one Python call: the row's kept texts, the highlight, the text elided as the style elides
    it and drawn where the style draws it, its width measured once per text. What the style draws of its own (the
    focus frame of the current cell; every cell of another style, or right to left) is left to the stock delegate,
    as is a cell painted outside the table's repaint."""

    def __init__(self, model: EventListModel, parent: QtWidgets.QTableView) -> None:
        super().__init__(parent)
        self._model = model
        self.shared: _PaintPass | None = None  # set by EventTableView for the length of one repaint
        self._font: QtGui.QFont | None = None  # the font the kept widths were measured in
        self._metrics: QtGui.QFontMetricsF | None = None
        self._widths: dict[str, float] = {}

    def begin(self, view: QtWidgets.QTableView) -> None:
        """A repaint of `view` begins: its cells are drawn here if its style draws them as QCommonStyle does."""
        style = view.style()
        if (
            style.metaObject().className() not in _PLAIN_STYLES
            or view.isRightToLeft()
            or self._model.table is None
            or view.viewport().font() != view.font()  # the style writes in the view's font, the painter in this one
        ):
            self.shared = None
            return
        font = view.font()
        if self._metrics is None or font != self._font:
            self._font = font
            self._metrics = QtGui.QFontMetricsF(font)
            self._widths = {}
        elif len(self._widths) > _WIDTHS_KEPT:
            self._widths.clear()
        self.shared = _PaintPass(view, self._metrics, self._widths)

    def paint(self, painter: QtGui.QPainter, option: QtWidgets.QStyleOptionViewItem, index: Any) -> None:
        shared = self.shared
        state = option.state.value
        if shared is None or state & _OWN_LOOK:
            super().paint(painter, option, index)
            return
        row = index.row()
        if row != shared.row:  # the view paints a row's cells one after the other
            shared.row = row
            shared.texts = self._model._row(row)
        column = index.column()
        text = shared.texts[column]
        rect = option.rect
        x, y, width, height = cast(tuple[int, int, int, int], rect.getRect())  # (PySide's stub says object)
        margin = shared.margin
        room = width - 2 * margin
        used = shared.widths.get(text)
        if used is None:
            used = shared.widths[text] = shared.metrics.horizontalAdvance(text)
        if used > room:  # elided as the style elides a line wider than its cell
            text = shared.metrics.elidedText(text, shared.elide, room)
            used = shared.metrics.horizontalAdvance(text)
            if used > room:  # not even "…" fits: the style draws it clipped to the cell
                super().paint(painter, option, index)
                return
        highlight, colour = shared.colours.get(state) or shared.colours_of(state)
        if highlight is not None:
            painter.fillRect(rect, highlight)
        if text:
            left = x + margin + room - used if _RIGHT_ALIGNED[column] else x + margin
            painter.setPen(colour)
            baseline = shared.baseline.get(height) or shared.baseline_of(height)
            painter.drawText(QtCore.QPointF(left, y + baseline), text)


class HandleScrollBar(QtWidgets.QScrollBar):
    """A scroll bar whose value change repaints the handle's old and new places, not the whole bar.

    Every travel moves the list, so the bar: Fusion fills its whole groove again (a gradient the raster engine hands to
    its thread pool), a third of a travel's CPU in the list. Nothing else of it depends on the value while no button
    is held on it (a held page or arrow is drawn pressed: then, and in any other style, the whole bar is repainted)."""

    def __init__(self, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(QtCore.Qt.Orientation.Vertical, parent)
        self._handle: QtCore.QRect | None = None  # where the handle was last drawn or asked to be
        self._pressed = False

    def handle_rect(self) -> QtCore.QRect:
        option = QtWidgets.QStyleOptionSlider()
        self.initStyleOption(option)
        return self.style().subControlRect(
            QtWidgets.QStyle.ComplexControl.CC_ScrollBar, option, QtWidgets.QStyle.SubControl.SC_ScrollBarSlider, self
        )

    def sliderChange(self, change: QtWidgets.QAbstractSlider.SliderChange) -> None:
        old = self._handle
        if (
            change != QtWidgets.QAbstractSlider.SliderChange.SliderValueChange
            or old is None
            or self._pressed
            or self.style().metaObject().className() not in _PLAIN_STYLES
        ):
            self._handle = None  # known again at the next paint
            super().sliderChange(change)
            return
        new = self._handle = self.handle_rect()
        if new != old:  # a step in a long list seldom moves the handle a pixel: nothing to repaint then
            self.update(QtGui.QRegion(old.adjusted(-1, -1, 1, 1)) | QtGui.QRegion(new.adjusted(-1, -1, 1, 1)))

    def paintEvent(self, event: QtGui.QPaintEvent) -> None:
        super().paintEvent(event)
        self._handle = self.handle_rect()

    def mousePressEvent(self, event: QtGui.QMouseEvent) -> None:
        self._pressed = True
        super().mousePressEvent(event)

    def mouseReleaseEvent(self, event: QtGui.QMouseEvent) -> None:
        super().mouseReleaseEvent(event)
        self._pressed = bool(event.buttons())
        self.update()  # the pressed control drawn raised again, wherever the handle went

    def hideEvent(self, event: QtGui.QHideEvent) -> None:
        self._pressed = False
        self._handle = None
        super().hideEvent(event)


class EventTableView(QtWidgets.QTableView):
    """The list's table: each repaint reads what its cells share once, for the EventCellDelegate that draws them;
    its scroll bar repaints only where the handle moves."""

    def __init__(self, model: EventListModel) -> None:
        super().__init__()
        self.setModel(model)
        self.cells = EventCellDelegate(model, self)
        self.setItemDelegate(self.cells)
        self.setVerticalScrollBar(HandleScrollBar(self))

    def paintEvent(self, event: QtGui.QPaintEvent) -> None:
        self.cells.begin(self)
        try:
            super().paintEvent(event)
        finally:
            self.cells.shared = None


class EventListView(Retranslated):
    """A filter bar (kind, least size, stream) over a virtual table of the trace's events.

    `event_chosen(index)` is emitted when the user picks a row (click, keys); `show_event(index)` follows the
    timeline without emitting."""

    event_chosen = QtCore.Signal(int)

    def __init__(self, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        self.table: EventTable | None = None
        self.filter = EventFilter()
        self._shown = -1  # the event the window shows (the list's row is it, or the last match before it)
        self._following = False  # show_event is moving the row: that is no pick of the user's
        self.kind_box = QtWidgets.QComboBox()
        for kind, (label, _actions) in KINDS.items():
            self.kind_box.addItem(label, kind)
        # a narrow side panel must not be widened by the longest kind: the menu that drops down shows it whole
        self.kind_box.setSizeAdjustPolicy(QtWidgets.QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.kind_box.setMinimumContentsLength(len("allocations") + 2)
        self.kind_box.view().setMinimumWidth(self.kind_box.view().sizeHintForColumn(0) + 24)
        self.size_edit = QtWidgets.QLineEdit()
        self.size_edit.setFixedWidth(self.fontMetrics().horizontalAdvance("0000.00 GiB") + 16)
        self.stream_box = QtWidgets.QComboBox()
        self.count = QtWidgets.QLabel()  # under the table: its length changes with the filter, the bar's must not
        self._size_timer = QtCore.QTimer(self, singleShot=True, interval=300)  # refilter once typing pauses
        self._size_timer.timeout.connect(self._filter_changed)
        self.kind_box.currentIndexChanged.connect(lambda _i: self._filter_changed())
        self.stream_box.currentIndexChanged.connect(lambda _i: self._filter_changed())
        self.size_edit.textChanged.connect(lambda _t: self._size_timer.start())
        self.size_edit.returnPressed.connect(self._filter_changed)

        self.model = EventListModel()
        self.view = EventTableView(self.model)
        self.view.setSelectionBehavior(QtWidgets.QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setSelectionMode(QtWidgets.QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setWordWrap(False)
        self.view.setCornerButtonEnabled(False)
        rows = self.view.verticalHeader()
        rows.setVisible(False)
        # fixed heights: the view never measures a row, whatever the count (uniform rows, as a QTreeView's)
        rows.setSectionResizeMode(QtWidgets.QHeaderView.ResizeMode.Fixed)
        rows.setDefaultSectionSize(self.fontMetrics().height() + 6)
        columns = self.view.horizontalHeader()
        columns.setStretchLastSection(True)
        columns.setHighlightSections(False)
        # the header's own selection, never changed: on the view's, every travel's row selection (all columns) asked
        # the header to repaint all its sections, unhighlighted, so unchanged (a tenth of the list's travel)
        columns.setSelectionModel(QtCore.QItemSelectionModel(self.model, columns))
        for column, sample in enumerate(_SAMPLE):  # widths from samples: measuring 3M rows' contents would stall
            self.view.setColumnWidth(column, self.fontMetrics().horizontalAdvance(sample) + 14)
        self.view.selectionModel().currentRowChanged.connect(self._current_changed)
        self.view.clicked.connect(self._clicked)

        bar = QtWidgets.QHBoxLayout()
        bar.addWidget(self.kind_box)
        self.size_label = QtWidgets.QLabel()
        bar.addWidget(self.size_label)
        bar.addWidget(self.size_edit)
        bar.addWidget(self.stream_box)
        bar.addStretch(1)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addLayout(bar)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.count)
        self._streams: list[int] = []
        self._fill_streams([])
        self._refilter()
        self.retranslate()

    def retranslate(self) -> None:
        for i in range(self.kind_box.count()):
            self.kind_box.setItemText(i, translate("EventListView", KINDS[self.kind_box.itemData(i)][0]))
        self.size_edit.setPlaceholderText(translate("EventListView", "e.g. 64MiB"))
        self.size_edit.setToolTip(
            translate("EventListView", "Only events of at least this size: 64MiB, 1.5 GiB, 1000000 (bytes)")
        )
        self.size_label.setText(translate("EventListView", "size ≥"))
        self._fill_streams(self._streams)
        if self.table is not None:
            self._show_count()

    # -- what the window calls ------------------------------------------------------------------------------

    def set_document(self, snapshot: Snapshot, device: int, timeline: DeviceTimeline | None = None) -> None:
        """List `device`'s trace (the timeline adds block sizes to the size tooltips); the filter stays."""
        self.set_table(EventTable(snapshot, device, timeline))

    def set_table(self, table: EventTable, indices: Rows | None = None) -> None:
        """List `table` (made by document.event_list.prepared_table in a task, with `indices` its rows under the
        filter: nothing per event is left to do here)."""
        self.table = table
        streams = self.table.streams()
        if self.filter.stream is not None and self.filter.stream not in streams:
            self.filter = replace(self.filter, stream=None)
        self._fill_streams(streams)
        self.view.setColumnHidden(1, not self.table.trace.has_time)  # a trace without times: no empty column
        self._shown = -1
        self._refilter(indices)

    def clear(self, text: str = "") -> None:
        """No trace listed (yet): `text` says why under the empty table."""
        self.table = None
        self.model.set_rows(None, np.zeros(0, np.int64))
        self.count.setText(text)

    def show_event(self, index: int) -> None:
        """Select the row of trace event `index` (or of the last shown event before it) and scroll to it, without
        emitting event_chosen; -1 (before the first event) selects nothing."""
        self._shown = index
        row = row_of(self.model.indices, index)
        selection = self.view.selectionModel()
        if row < 0:
            selection.clear()
            self.view.scrollToTop()
            return
        at = self.model.index(row, 0)
        flags = QtCore.QItemSelectionModel.SelectionFlag.ClearAndSelect | QtCore.QItemSelectionModel.SelectionFlag.Rows
        self._following = True
        try:
            selection.setCurrentIndex(at, flags)
        finally:
            self._following = False
        self.view.scrollTo(at, QtWidgets.QAbstractItemView.ScrollHint.EnsureVisible)

    def set_filter(self, flt: EventFilter) -> None:
        """Show only what `flt` keeps (the filter bar follows)."""
        for box, data in ((self.kind_box, flt.kind), (self.stream_box, flt.stream)):
            box.blockSignals(True)
            box.setCurrentIndex(max(box.findData(data), 0))
            box.blockSignals(False)
        self.size_edit.blockSignals(True)
        self.size_edit.setText(_size_text(flt.min_size))
        self.size_edit.blockSignals(False)
        self.filter = flt
        self._refilter()

    @property
    def indices(self) -> Rows:
        """The trace indices listed, in row order (a RowRange where every event of the trace or span is)."""
        return self.model.indices

    # -- inside -------------------------------------------------------------------------------------------------

    def _fill_streams(self, streams: list[int]) -> None:
        self.stream_box.blockSignals(True)
        self._streams = list(streams)
        self.stream_box.clear()
        self.stream_box.addItem(translate("EventListView", "all streams"), None)
        for stream in streams:
            self.stream_box.addItem(translate("EventListView", "stream {stream}").format(stream=stream), stream)
        self.stream_box.setCurrentIndex(max(self.stream_box.findData(self.filter.stream), 0))
        self.stream_box.setVisible(len(streams) > 1)
        self.stream_box.blockSignals(False)

    def _filter_changed(self) -> None:
        self._size_timer.stop()
        text = self.size_edit.text().strip()
        try:
            min_size = parse_size(text) if text else 0  # as the window's language writes sizes, or English
        except ValueError:
            self.count.setText(translate("EventListView", "size? try 64MiB, 1.5 GiB, 1000000"))
            return
        kind: EventKind = self.kind_box.currentData()
        flt = EventFilter(kind, min_size, self.stream_box.currentData(), self.filter.span)  # the span stays
        if flt != self.filter:
            self.filter = flt
            self._refilter()
        else:
            self._show_count()

    def _refilter(self, indices: Rows | None = None) -> None:
        if indices is None:
            indices = self.table.filter(self.filter) if self.table is not None else np.zeros(0, np.int64)
        self.model.set_rows(self.table, indices)
        self._show_count()
        if self._shown >= 0:
            self.show_event(self._shown)

    def _show_count(self) -> None:
        total = len(self.table) if self.table is not None else 0
        fields = {"shown": f"{len(self.model.indices):,}", "total": f"{total:,}"}
        self.count.setText(filled(translate("EventListView", "{shown} of {total} {total:event|events}"), fields))

    def _current_changed(self, current: QtCore.QModelIndex, _previous: QtCore.QModelIndex) -> None:
        if current.isValid() and not self._following:
            self._pick(int(self.model.indices[current.row()]))

    def _clicked(self, index: QtCore.QModelIndex) -> None:
        # a click on the row already current (the last match before the shown event) still travels to it
        if index.isValid():
            self._pick(int(self.model.indices[index.row()]))

    def _pick(self, event: int) -> None:
        if event != self._shown:
            self._shown = event
            self.event_chosen.emit(event)
