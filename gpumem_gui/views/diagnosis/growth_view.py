"""GrowthView: the allocation sites that grow from step to step (analysis.growth), and the stack of the one picked."""

from __future__ import annotations

from typing import Any

from PySide6 import QtCore, QtWidgets

from gpumem_gui.core.analysis.growth import MIN_GROWTH, MIN_INCREASING, PHASES_STEPS, GrowingSite, Growth
from gpumem_gui.core.snapshot.units import format_bytes, format_bytes_exact
from gpumem_gui.views.common import palette
from gpumem_gui.views.common.language import (
    QT_TRANSLATE_NOOP,
    Retranslated,
    filled,
    localized,
    site_words,
    translate,
)
from gpumem_gui.views.common.stack_view import StackView
from gpumem_gui.views.common.table_model import ColumnsModel, sortable_rows

COLUMNS = (
    QT_TRANSLATE_NOOP("Columns", "site"),
    QT_TRANSLATE_NOOP("Columns", "per step"),
    QT_TRANSLATE_NOOP("Columns", "steps"),
    QT_TRANSLATE_NOOP("Columns", "at first step"),
    QT_TRANSLATE_NOOP("Columns", "at last step"),
)
_SORT_ROLE = QtCore.Qt.ItemDataRole.UserRole
_RIGHT = QtCore.Qt.AlignmentFlag.AlignRight | QtCore.Qt.AlignmentFlag.AlignVCenter


class GrowthModel(ColumnsModel):
    """One row per growing site (at most analysis.growth.MAX_SITES of them), most growth per step first."""

    columns = COLUMNS

    def __init__(self) -> None:
        super().__init__()
        self.sites: list[GrowingSite] = []

    def set_sites(self, sites: list[GrowingSite]) -> None:
        self.beginResetModel()
        self.sites = list(sites)
        self.endResetModel()

    def row_count(self) -> int:
        return len(self.sites)

    def data(self, index: QtCore.QModelIndex | QtCore.QPersistentModelIndex, role: int = 0) -> Any:
        g = self.sites[index.row()]
        column = index.column()
        if role == QtCore.Qt.ItemDataRole.DisplayRole:
            return (
                site_words(g.site),
                localized(format_bytes(g.bytes_per_step)),
                str(g.steps),
                localized(format_bytes(g.first_bytes)),
                localized(format_bytes(g.last_bytes)),
            )[column]
        if role == _SORT_ROLE:
            return (g.site, g.bytes_per_step, g.steps, g.first_bytes, g.last_bytes)[column]
        if role == QtCore.Qt.ItemDataRole.TextAlignmentRole and column > 0:
            return _RIGHT
        if role == QtCore.Qt.ItemDataRole.ToolTipRole:
            fields = {
                "phase": translate("Growth", g.phase),  # growth.PHASE_WORDS
                "per_step": localized(format_bytes_exact(round(g.bytes_per_step))),
                "increases": str(g.increases),
                "steps": str(len(g.values) - 1),
                "first": localized(format_bytes_exact(g.first_bytes)),
                "last": localized(format_bytes_exact(g.last_bytes)),
            }
            tip = translate(
                "GrowthView",
                "allocated in: {phase}\ngrows by {per_step} per step (least squares over the steps)\nheld more after "
                "{increases} of the {steps} steps after the first measured\n{first} at the first step, {last} at the "
                "last",
            )
            return f"{site_words(g.site)}\n" + tip.format_map(fields)
        return None


class GrowthView(Retranslated):
    """How the steps were found and what grows over them; picking a row shows its stack and emits its site."""

    site_selected = QtCore.Signal(str)  # the site label (stacks.site_label) of the row picked

    def __init__(self, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        self.growth: Growth | None = None
        self.summary = QtWidgets.QLabel(wordWrap=True)
        self.summary.setStyleSheet(f"color:{palette.TEXT_STRONG};")
        self.summary.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
        self.model = GrowthModel()
        self.table, self.proxy = sortable_rows(
            self,
            self.model,
            _SORT_ROLE,
            sort=(1, QtCore.Qt.SortOrder.DescendingOrder),
            selection=QtWidgets.QAbstractItemView.SelectionMode.SingleSelection,
            elide=QtCore.Qt.TextElideMode.ElideLeft,  # a long path keeps its file:line:function
        )
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QtWidgets.QHeaderView.ResizeMode.Stretch)
        for column in range(1, len(COLUMNS)):
            header.setSectionResizeMode(column, QtWidgets.QHeaderView.ResizeMode.ResizeToContents)
        self.table.selectionModel().currentRowChanged.connect(self._current_changed)
        self.stack = StackView()
        splitter = QtWidgets.QSplitter(QtCore.Qt.Orientation.Vertical)
        splitter.addWidget(self.table)
        splitter.addWidget(self.stack)
        splitter.setStretchFactor(0, 1)
        splitter.setStretchFactor(1, 1)
        splitter.setChildrenCollapsible(False)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.summary)
        layout.addWidget(splitter, 1)
        self._error: str | None = None
        self.set_growth(None)

    def retranslate(self) -> None:
        if self._error is not None:
            self.show_error(self._error)
        else:
            self.summary.setText(_summary(self.growth))
            site = self.selected_site()
            if site is not None:  # the stack's title says how fast the site grows, in the new language
                self._show_stack(site)

    def set_growth(self, growth: Growth | None) -> None:
        """Show `growth` (None: nothing computed yet); the first row, the fastest growing, is picked."""
        self.growth, self._error = growth, None
        self.model.set_sites(growth.sites if growth is not None else [])
        self.summary.setText(_summary(growth))
        self.stack.clear()
        self.stack.setVisible(bool(self.proxy.rowCount()))  # no stack to show, not "no stack recorded"
        if self.proxy.rowCount():
            self.table.selectRow(0)

    def show_error(self, message: str) -> None:
        """Finding the growth failed: the page says so, not "not computed yet"."""
        self.set_growth(None)
        self._error = message
        self.summary.setText(
            translate("GrowthView", "Growth from step to step could not be found: {message}").format(message=message)
        )

    def selected_site(self) -> GrowingSite | None:
        index = self.table.currentIndex()
        if not index.isValid():
            return None
        return self.model.sites[self.proxy.mapToSource(index).row()]

    def _current_changed(self, current: QtCore.QModelIndex, _previous: QtCore.QModelIndex) -> None:
        if not current.isValid():
            self.stack.clear()
            return
        g = self.model.sites[self.proxy.mapToSource(current).row()]
        self._show_stack(g)
        self.site_selected.emit(g.site)

    def _show_stack(self, g: GrowingSite) -> None:
        more = translate("GrowthView", "{site}: {bytes} more per step")
        self.stack.set_frames(
            g.frames, more.format(site=site_words(g.site), bytes=localized(format_bytes(g.bytes_per_step)))
        )


def _summary(growth: Growth | None) -> str:
    if growth is None:
        return translate("GrowthView", "Growth from step to step: not computed yet.")
    steps = growth.steps
    fields = dict(steps.fields)
    if "name" in fields and steps.template == PHASES_STEPS:  # a phase's name (growth.PHASE_WORDS), not a range's
        fields["name"] = translate("Growth", fields["name"])
    how = filled(translate("Growth", steps.template), fields) if steps.template else steps.how
    template, fields = growth.summary_template()
    text = filled(translate("Growth", template), {**fields, "how": how}) if template != "{how}" else how
    text = text[0].upper() + text[1:]
    if not text.endswith("."):
        text += "."
    if growth.steps.found:
        rule = translate(
            "GrowthView", " A site counts as growing at {size} or more a step, holding more after {share} of the steps."
        )
        text += rule.format(size=localized(format_bytes(MIN_GROWTH)), share=localized(f"{MIN_INCREASING:.0%}"))
    return text
