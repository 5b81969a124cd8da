"""A flat table model whose columns are a tuple of titles: what the window's tables share (rows are theirs)."""

from __future__ import annotations

from typing import Any

from PySide6 import QtCore


class ColumnsModel(QtCore.QAbstractTableModel):
    """Columns named by `columns`; a subclass says how many rows it has (`row_count`) and what they hold (`data`)."""

    columns: tuple[str, ...] = ()

    def row_count(self) -> int:
        raise NotImplementedError

    def rowCount(self, parent: Any = None) -> int:
        return 0 if parent is not None and parent.isValid() else self.row_count()  # flat: no row has children

    def columnCount(self, parent: Any = None) -> int:
        return 0 if parent is not None and parent.isValid() else len(self.columns)

    def headerData(self, section: int, orientation: Any, role: int = 0) -> Any:
        if role == QtCore.Qt.ItemDataRole.DisplayRole and orientation == QtCore.Qt.Orientation.Horizontal:
            return self.columns[section]
        return None
