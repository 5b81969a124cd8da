"""What the window's tables share: a flat model whose columns are a tuple of titles, and a sortable read-only view."""

from __future__ import annotations

from typing import Any

from PySide6 import QtCore, QtWidgets

from gpumem_gui.views.common.language import translated_model


class ColumnsModel(QtCore.QAbstractTableModel):
    """Columns named by `columns`; a subclass says how many rows it has (`row_count`) and what they hold (`data`)."""

    columns: tuple[str, ...] = ()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        translated_model(self)  # its titles (and a subclass's cells) are worded again after a language switch

    def row_count(self) -> int:
        raise NotImplementedError

    def rowCount(self, parent: Any = None) -> int:
        return 0 if parent is not None and parent.isValid() else self.row_count()  # flat: no row has children

    def columnCount(self, parent: Any = None) -> int:
        return 0 if parent is not None and parent.isValid() else len(self.columns)

    def headerData(self, section: int, orientation: Any, role: int = 0) -> Any:
        if role == QtCore.Qt.ItemDataRole.DisplayRole and orientation == QtCore.Qt.Orientation.Horizontal:
            # the titles are marked QT_TRANSLATE_NOOP("Columns", ...) where each table names them
            return QtCore.QCoreApplication.translate("Columns", self.columns[section])
        return None


def sortable_rows(
    owner: QtWidgets.QWidget,
    model: QtCore.QAbstractItemModel,
    sort_role: int,
    *,
    sort: tuple[int, QtCore.Qt.SortOrder],
    selection: QtWidgets.QAbstractItemView.SelectionMode,
    elide: QtCore.Qt.TextElideMode,
) -> tuple[QtWidgets.QTableView, QtCore.QSortFilterProxyModel]:
    """A read-only table of whole rows over `model`, sorted by `sort_role` through a proxy: rows one line tall, no
    row numbers, no editing, one line per cell with long texts elided as `elide` says."""
    proxy = QtCore.QSortFilterProxyModel(owner)
    proxy.setSourceModel(model)
    proxy.setSortRole(sort_role)
    table = QtWidgets.QTableView()
    table.setModel(proxy)
    table.setSortingEnabled(True)
    table.sortByColumn(*sort)
    table.verticalHeader().setVisible(False)
    table.verticalHeader().setDefaultSectionSize(owner.fontMetrics().height() + 6)
    table.setEditTriggers(QtWidgets.QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setSelectionBehavior(QtWidgets.QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(selection)
    table.setWordWrap(False)
    table.setTextElideMode(elide)
    return table, proxy
