"""BlockTableModel / BlockTableView: the blocks of the shown state as a sortable table backed by numpy columns."""

from __future__ import annotations

from typing import Any

import numpy as np
from PySide6 import QtCore, QtWidgets

from gpumem_gui.core.snapshot.model import STATE_LABELS, AllocatorState, BlockState, StackTable
from gpumem_gui.core.snapshot.stacks import NO_SITE, short_site, stack_sites
from gpumem_gui.core.snapshot.units import format_bytes
from gpumem_gui.views.common.language import QT_TRANSLATE_NOOP, localized, site_words, translate
from gpumem_gui.views.common.table_model import ColumnsModel

_HEADERS = (
    QT_TRANSLATE_NOOP("Columns", "address"),
    QT_TRANSLATE_NOOP("Columns", "size"),
    QT_TRANSLATE_NOOP("Columns", "requested"),
    QT_TRANSLATE_NOOP("Columns", "state"),
    QT_TRANSLATE_NOOP("Columns", "stream"),
    QT_TRANSLATE_NOOP("Columns", "pool"),
    QT_TRANSLATE_NOOP("Columns", "site"),
)


class BlockTableModel(ColumnsModel):
    """Rows are block indices of the state (all of them, or the search matches), in the current sort order."""

    columns = _HEADERS

    def __init__(self) -> None:
        super().__init__()
        self.state: AllocatorState | None = None
        self.stacks: StackTable | None = None
        self.rows = np.zeros(0, np.int64)

    def set_state(self, state: AllocatorState, stacks: StackTable, mask: np.ndarray | None = None) -> None:
        self.beginResetModel()
        self.state, self.stacks = state, stacks
        self.rows = np.flatnonzero(mask) if mask is not None else np.arange(len(state.blocks))
        self.endResetModel()

    def set_rows(self, state: AllocatorState, stacks: StackTable, rows: np.ndarray) -> None:
        """Show the blocks `rows` of `state` (a document frame's table rows), in that order."""
        self.beginResetModel()
        self.state, self.stacks = state, stacks
        self.rows = np.asarray(rows, np.int64)
        self.endResetModel()

    def row_count(self) -> int:
        return len(self.rows)

    def data(self, index: QtCore.QModelIndex | QtCore.QPersistentModelIndex, role: int = 0) -> Any:
        if role != QtCore.Qt.ItemDataRole.DisplayRole or self.state is None or self.stacks is None:
            return None
        i = int(self.rows[index.row()])
        b, s = self.state.blocks, self.state.segments
        seg = int(b.segment[i])
        column = index.column()
        if column == 0:
            return f"{int(b.address[i]):#x}"
        if column == 1:
            return localized(format_bytes(int(b.size[i])))
        if column == 2:
            return "" if b.state[i] == BlockState.INACTIVE else localized(format_bytes(int(b.requested_size[i])))
        if column == 3:
            return STATE_LABELS[BlockState(int(b.state[i]))]
        if column == 4:
            return str(int(s.stream[seg]))
        if column == 5:
            return translate("Breakdown", "small") if s.is_small[seg] else translate("Breakdown", "large")
        # the line it is charged to, as every list names it (the user's code that asked, not torch's plumbing)
        stack = int(b.stack[i])
        sites, labels = stack_sites(self.stacks)
        site = int(sites[stack]) if 0 <= stack < len(self.stacks) else NO_SITE
        return site_words(short_site(labels[site])) if site != NO_SITE else ""

    def sort(self, column: int, order: Any = QtCore.Qt.SortOrder.AscendingOrder) -> None:
        if self.state is None:
            return
        b = self.state.blocks
        columns: dict[int, np.ndarray] = {
            0: b.address,
            1: b.size,
            2: b.requested_size,
            3: b.state,
            4: self.state.segments.stream[b.segment],
            5: self.state.segments.is_small[b.segment],
            6: b.stack,
        }
        keys = columns[column][self.rows]
        order_index = np.argsort(keys, kind="stable")
        if order == QtCore.Qt.SortOrder.DescendingOrder:
            order_index = order_index[::-1]
        self.layoutAboutToBeChanged.emit()
        self.rows = self.rows[order_index]
        self.layoutChanged.emit()


class BlockTableView(QtWidgets.QTableView):
    """Emits the block index of the selected row."""

    block_selected = QtCore.Signal(int)

    def __init__(self, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        self.table_model = BlockTableModel()
        self.setModel(self.table_model)
        self.setSortingEnabled(True)
        self.setSelectionBehavior(QtWidgets.QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QtWidgets.QAbstractItemView.SelectionMode.SingleSelection)
        self.verticalHeader().setVisible(False)
        self.horizontalHeader().setStretchLastSection(True)
        self.clicked.connect(self._clicked)

    def _clicked(self, index: QtCore.QModelIndex) -> None:
        self.block_selected.emit(int(self.table_model.rows[index.row()]))
