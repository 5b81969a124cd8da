"""The panel beside a stacked-band plot: its table, a line on what is picked, and the picked thing's stack."""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

from gpumem_gui.views.common.stack_view import StackView


class BandSidePanel(QtWidgets.QWidget):
    """`table` above, `info` (selectable text, starting as `hint`) and `stack` (hidden until something is picked)."""

    def __init__(self, table: QtWidgets.QTableWidget, hint: str) -> None:
        super().__init__()
        self.info = QtWidgets.QLabel(hint)
        self.info.setWordWrap(True)
        self.info.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
        self.stack = StackView()
        self.stack.setVisible(False)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(table, 3)
        layout.addWidget(self.info)
        layout.addWidget(self.stack, 2)
