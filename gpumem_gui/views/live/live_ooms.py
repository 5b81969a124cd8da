"""The live view's list of an attached job's out-of-memory errors: one row per OOM, its snapshot opened on demand."""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6 import QtCore, QtWidgets

from gpumem_gui.teach.translatable import QT_TRANSLATE_NOOP
from gpumem_gui.views.common import palette
from gpumem_gui.views.common.language import count, num, size

MAX_ROWS = 50  # a job that OOMs in a loop fills no memory here: the latest rows are kept, the rest counted
COLUMNS = (
    "#",
    QT_TRANSLATE_NOOP("OomList", "time"),
    QT_TRANSLATE_NOOP("OomList", "request"),
    "GPU",
    QT_TRANSLATE_NOOP("OomList", "snapshot"),
)


def _tr(text: str) -> str:
    return QtCore.QCoreApplication.translate("OomList", text)


@dataclass(frozen=True)
class OomCapture:
    """One OOM the probe announced: its ordinal in the job, when, what failed, and where its snapshot went."""

    ordinal: int  # the probe's own count: gaps show OOMs from before attaching or that were not delivered
    time: float  # the probe's clock, seconds since the epoch
    requested: int
    device: int
    path: str | None  # None: the probe wrote no snapshot (it writes a bounded number per job)

    @classmethod
    def from_event(cls, event: dict[str, Any], fallback_ordinal: int) -> OomCapture:
        def number(key: str, default: float, low: float, high: float) -> float:
            value = event.get(key, default)
            # the probe is another process: a field of the wrong type or out of range (JSON allows Infinity) is
            # shown as unknown, never raised in the GUI thread
            ok = isinstance(value, (int, float)) and not isinstance(value, bool) and low <= value <= high
            return value if ok else default

        path = event.get("path")
        now = time.time()
        return cls(
            ordinal=int(number("count", fallback_ordinal, 0, 2**63)),
            time=float(number("time", now, 0, 2**33)),  # within what localtime() can show
            requested=int(number("requested", 0, 0, 2**63)),
            device=int(number("device", 0, 0, 2**31)),
            path=str(path) if isinstance(path, str) and path else None,
        )


class OomList(QtWidgets.QWidget):
    """The OOMs of the session, oldest first, at most `max_rows` of them. Nothing here takes the focus or opens
    a tab by itself: a row opens (double-click, Enter, or Open) only when the user asks, via `open_requested`."""

    open_requested = QtCore.Signal(str)  # the path of a captured OOM snapshot the user chose to open

    def __init__(self, max_rows: int = MAX_ROWS, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        self.max_rows = max_rows
        self.captures: deque[OomCapture] = deque(maxlen=max_rows)  # oldest first, as the table's rows
        self.received = 0
        self.summary = QtWidgets.QLabel(wordWrap=True)  # wraps rather than widening the pane as counts grow
        self.summary.setStyleSheet(f"color:{palette.TEXT_STRONG};")
        # why the last row asked for could not open: stays until the next attempt, not overwritten by new OOMs
        self.problem = QtWidgets.QLabel(wordWrap=True)
        self.problem.setStyleSheet(f"color:{palette.NOTICE_TEXT};")
        self.problem.setVisible(False)
        self.open_button = QtWidgets.QPushButton()
        self.open_button.setEnabled(False)
        self.open_button.clicked.connect(self.open_selected)
        self.table = QtWidgets.QTableWidget(0, len(COLUMNS))
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 6)  # more rows in view
        self.table.setEditTriggers(QtWidgets.QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QtWidgets.QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QtWidgets.QAbstractItemView.SelectionMode.SingleSelection)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.activated.connect(lambda index: self.open_row(index.row()))  # double-click or Enter
        self.table.itemSelectionChanged.connect(self._selection_changed)
        head = QtWidgets.QHBoxLayout()
        head.addWidget(self.summary, 1)
        head.addWidget(self.open_button)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(head)
        layout.addWidget(self.problem)
        layout.addWidget(self.table, 1)
        self.retranslate()

    def retranslate(self) -> None:
        """Headers, the button, the summary and every row in the window's language."""
        self.open_button.setText(self.tr("Open"))
        self.open_button.setToolTip(
            self.tr("Open the selected OOM's snapshot in a tab of its own (or double-click a row)")
        )
        self.table.setHorizontalHeaderLabels([_tr(c) for c in COLUMNS])
        for row in range(self.table.rowCount()):
            capture = self.capture_at(row)
            for column, (text, tip) in enumerate(self._cells(capture) if capture is not None else []):
                item = self.table.item(row, column)
                if item is not None:
                    item.setText(text)
                    item.setToolTip(tip)
        self._update_summary()

    def changeEvent(self, event: QtCore.QEvent) -> None:
        if event.type() == QtCore.QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    # -- rows ------------------------------------------------------------------------------------------------

    def add(self, capture: OomCapture) -> None:
        """A row for `capture` at the bottom; the oldest row, at the top, goes when there are `max_rows`. The rows
        on screen stay where they are (a new OOM at the top moved every row under the pointer, so that a click
        opened another OOM than aimed at), the selection stays on the OOM it was on, and the focus does not move."""
        self.received += 1
        self.captures.append(capture)
        row = self.table.rowCount()
        self.table.insertRow(row)
        for column, (text, tip) in enumerate(self._cells(capture)):
            item = QtWidgets.QTableWidgetItem(text)
            item.setToolTip(tip)
            if column in (0, 2, 3):
                item.setTextAlignment(QtCore.Qt.AlignmentFlag.AlignRight | QtCore.Qt.AlignmentFlag.AlignVCenter)
            self.table.setItem(row, column, item)
        bar = self.table.verticalScrollBar()
        per_item = self.table.verticalScrollMode() == QtWidgets.QAbstractItemView.ScrollMode.ScrollPerItem
        while self.table.rowCount() > self.max_rows:
            scrolled, height = bar.value(), 1 if per_item else self.table.rowHeight(0)
            self.table.removeRow(0)
            bar.setValue(scrolled - height)  # the rows below the one gone keep their place on screen, where they can
        self._update_summary()
        self._selection_changed()

    def capture_at(self, row: int) -> OomCapture | None:
        """The capture shown in table row `row` (row 0 is the oldest listed)."""
        if not 0 <= row < len(self.captures):
            return None
        return self.captures[row]

    @property
    def dropped(self) -> int:
        return self.received - len(self.captures)

    def refresh_files(self) -> None:
        """Mark the rows whose snapshot file has gone (a demo job removes its folder when it exits)."""
        for row in range(self.table.rowCount()):
            capture = self.capture_at(row)
            item = self.table.item(row, len(COLUMNS) - 1)
            if capture is not None and item is not None:
                text, tip = self._cells(capture)[-1]
                item.setText(text)
                item.setToolTip(tip)
        self._selection_changed()

    # -- opening ---------------------------------------------------------------------------------------------

    def open_selected(self) -> None:
        rows = self.table.selectionModel().selectedRows()
        if rows:
            self.open_row(rows[0].row())

    def open_row(self, row: int) -> str | None:
        """Ask for row `row`'s snapshot to be opened; returns why it cannot be (one line), None when asked."""
        capture = self.capture_at(row)
        if capture is None:
            return QtCore.QCoreApplication.translate("OomList", "no such OOM in the list")
        problem = _unopenable(capture)
        said = QtCore.QCoreApplication.translate("OomList", "OOM #{ordinal}: {problem}")
        self.problem.setText(said.format(ordinal=capture.ordinal, problem=problem) if problem else "")
        self.problem.setVisible(problem is not None)
        if problem is not None:
            self.refresh_files()
            return problem
        assert capture.path is not None
        self.open_requested.emit(capture.path)
        return None

    # -- inside ----------------------------------------------------------------------------------------------

    def _cells(self, capture: OomCapture) -> list[tuple[str, str]]:
        clock = time.strftime("%H:%M:%S", time.localtime(capture.time))
        day = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(capture.time))
        if capture.path is None:
            snapshot = (
                self.tr("none written"),
                self.tr("the probe writes a snapshot for the first OOMs of a job only"),
            )
        elif not Path(capture.path).exists():
            name = Path(capture.path).name
            snapshot = (self.tr("{name} (gone)").format(name=name), self.tr("{path} no longer exists").format(
                path=capture.path))  # fmt: skip
        else:
            tip = self.tr("{path}\ndouble-click to open it in a tab").format(path=capture.path)
            snapshot = (Path(capture.path).name, tip)
        exact = self.tr("{size} ({bytes} bytes)").format(size=size(capture.requested), bytes=num(capture.requested))
        return [
            (f"{capture.ordinal}", self.tr("the job's OOM number {n}").format(n=capture.ordinal)),
            (clock, day),
            (size(capture.requested), self.tr("the request that failed: {size}").format(size=exact)),
            (f"{capture.device}", f"GPU {capture.device}"),
            snapshot,
        ]

    def _update_summary(self) -> None:
        n = self.received
        if n == 0:
            self.summary.setText(self.tr("no out-of-memory error since attaching"))
            return
        text = self.tr("{n} out-of-memory {n:error|errors} since attaching").format(n=count(n))
        if self.dropped:
            text += self.tr("; the latest {listed} listed, {dropped} earlier dropped").format(
                listed=num(len(self.captures)), dropped=num(self.dropped)
            )
        self.summary.setText(text + self.tr(" (double-click one to open its snapshot)"))

    def _selection_changed(self) -> None:
        rows = self.table.selectionModel().selectedRows()
        capture = self.capture_at(rows[0].row()) if rows else None
        self.open_button.setEnabled(capture is not None and _unopenable(capture) is None)


def _unopenable(capture: OomCapture) -> str | None:
    if capture.path is None:
        return QtCore.QCoreApplication.translate(
            "OomList", "the probe wrote no snapshot for this OOM (it writes one for the first OOMs of a job only)"
        )
    if not Path(capture.path).exists():
        return QtCore.QCoreApplication.translate(
            "OomList", "its snapshot {path} no longer exists (a demo job removes its OOM folder when it exits)"
        ).format(path=capture.path)
    return None
