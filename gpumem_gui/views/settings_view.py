"""SettingsView: the allocator settings a file recorded, a row per key (value, default, what it does, what-if)."""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import Any

from PySide6 import QtCore, QtGui, QtWidgets

from gpumem_gui.document.settings_page import SettingsPage, settings_page
from gpumem_gui.views import palette

COLUMNS = ("setting", "recorded", "default", "what it does", "what if")


class SettingsView(QtWidgets.QWidget):
    """The page of one snapshot's settings; `set_what_if` fills the last column with a replay's values."""

    def __init__(self, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        self.page: SettingsPage | None = None
        self._settings: Mapping[str, Any] | None = None
        self.heading = QtWidgets.QLabel()
        self.heading.setWordWrap(True)
        self.heading.setTextFormat(QtCore.Qt.TextFormat.RichText)
        self.heading.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
        self.table = QtWidgets.QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels(list(COLUMNS))
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QtWidgets.QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setWordWrap(True)
        header = self.table.horizontalHeader()
        for column in (0, 1, 2):
            header.setSectionResizeMode(column, QtWidgets.QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(3, QtWidgets.QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(4, QtWidgets.QHeaderView.ResizeMode.Interactive)
        header.resizeSection(4, 200)
        self.table.verticalHeader().setSectionResizeMode(QtWidgets.QHeaderView.ResizeMode.ResizeToContents)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.heading)
        layout.addWidget(self.table, 1)

    def set_settings(self, settings: Mapping[str, Any] | None, overrides: Sequence[str] = ()) -> None:
        """Show a snapshot's `allocator_settings` (None: the file has none), with what-if `overrides` if any."""
        self._settings = settings
        self.show_page(settings_page(settings, overrides))

    def set_what_if(self, overrides: Sequence[str]) -> None:
        """The what-if column for a replay under `overrides` (PYTORCH_CUDA_ALLOC_CONF items)."""
        self.show_page(settings_page(self._settings, overrides))

    def show_page(self, page: SettingsPage) -> None:
        self.page = page
        conf = f"PYTORCH_CUDA_ALLOC_CONF = <b>{html.escape(page.conf)}</b>" if page.conf else ""
        if page.recorded and not conf:
            conf = "PYTORCH_CUDA_ALLOC_CONF was not set: every key has PyTorch's default unless the row says else."
        notes = "".join(f'<p style="color:{palette.WARNING_TEXT}">{html.escape(n)}</p>' for n in page.notes)
        self.heading.setText(notes + conf)
        self.table.setRowCount(len(page.rows))
        bold = self.font()
        bold.setBold(True)
        for row, setting in enumerate(page.rows):
            cells = (setting.key, setting.value, setting.default, setting.meaning, setting.what_if)
            for column, text in enumerate(cells):
                item = QtWidgets.QTableWidgetItem(text)
                item.setToolTip(text)
                if column == 1 and setting.set:  # set away from its default: the row to read first
                    item.setFont(bold)
                if column == 4 and setting.what_if_changes:
                    item.setFont(bold)
                    item.setBackground(QtGui.QColor(palette.FOCUS_BACKGROUND))
                self.table.setItem(row, column, item)
        self.table.resizeRowsToContents()

    def row_texts(self) -> list[tuple[str, ...]]:
        """Every row's cells as shown (for tests and a copy of the page)."""
        rows = []
        for row in range(self.table.rowCount()):
            items = (self.table.item(row, column) for column in range(self.table.columnCount()))
            rows.append(tuple(item.text() if item is not None else "" for item in items))
        return rows
