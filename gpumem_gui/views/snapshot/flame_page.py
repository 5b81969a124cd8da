"""FlamePage: the curves' flame tab: which cost, top-down or inverted, flame or icicle, a search, and the FlameGraph
of the frame its tab hands over (computed off the GUI thread); a click on a rectangle is passed on as `picked`."""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

from gpumem_gui.core.analysis.flame import COST_LABELS, COSTS, FlameFrame
from gpumem_gui.views.common.language import QT_TRANSLATE_NOOP, Retranslated, translate
from gpumem_gui.views.snapshot.flame_graph import FlameGraph

# core.analysis.flame's COST_LABELS (core is Qt-free), marked here for pyside6-lupdate
COST_WORDS = (
    QT_TRANSLATE_NOOP("Flame", "bytes live at the cursor"),
    QT_TRANSLATE_NOOP("Flame", "bytes live at the peak"),
    QT_TRANSLATE_NOOP("Flame", "bytes allocated in the span and still alive at its end"),
    QT_TRANSLATE_NOOP("Flame", "bytes allocated and freed inside the span"),
    QT_TRANSLATE_NOOP("Flame", "allocations in the span"),
)


class FlamePage(Retranslated):
    """`options_changed` asks its tab for another frame (options()); `picked(frame, row)` is a clicked rectangle."""

    options_changed = QtCore.Signal()
    picked = QtCore.Signal(object, int)

    def __init__(self, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        self.cost_box = QtWidgets.QComboBox()
        for cost in COSTS:
            self.cost_box.addItem(COST_LABELS[cost], cost)
        # a few characters wide, the full texts in the popup: the tab must not widen the curves' least width
        self.cost_box.setSizeAdjustPolicy(QtWidgets.QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.cost_box.setMinimumContentsLength(14)
        self.inverted_box = QtWidgets.QCheckBox()
        self.flame_box = QtWidgets.QCheckBox()
        self.search = QtWidgets.QLineEdit()
        self.summary = QtWidgets.QLabel()
        self.summary.setWordWrap(True)
        self.graph = FlameGraph()
        area = QtWidgets.QScrollArea()
        area.setWidgetResizable(True)
        area.setWidget(self.graph)
        row = QtWidgets.QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        for w in (self.cost_box, self.inverted_box, self.flame_box):
            row.addWidget(w)
        row.addWidget(self.search, 1)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(row)
        layout.addWidget(self.summary)
        layout.addWidget(area, 1)
        self.cost_box.currentIndexChanged.connect(lambda _i: self.options_changed.emit())
        self.inverted_box.toggled.connect(lambda _on: self.options_changed.emit())
        self.search.returnPressed.connect(self.options_changed.emit)
        self.flame_box.toggled.connect(lambda on: self.graph.set_icicle(not on))
        self.graph.picked.connect(self._picked)
        self._waiting = False
        self.retranslate()

    def retranslate(self) -> None:
        for i in range(self.cost_box.count()):
            self.cost_box.setItemText(i, translate("Flame", COST_LABELS[self.cost_box.itemData(i)]))
        self.inverted_box.setText(translate("Flame", "inverted"))
        self.inverted_box.setToolTip(translate("Flame", "the allocating line at the root, its callers above it"))
        self.flame_box.setText(translate("Flame", "root below"))
        self.flame_box.setToolTip(translate("Flame", "a flame graph (the root at the bottom) rather than an icicle"))
        self.search.setPlaceholderText(translate("Flame", "search frames"))
        if self.graph.frame is not None or not self._waiting:
            self.show_frame(self.graph.frame, self._waiting)

    def options(self) -> tuple[str, bool, str]:
        """The cost, inverted or not, and the search text the frame is wanted for."""
        return self.cost_box.currentData(), self.inverted_box.isChecked(), self.search.text().strip()

    def set_cost(self, cost: str) -> None:
        self.cost_box.setCurrentIndex(max(self.cost_box.findData(cost), 0))

    def show_frame(self, frame: FlameFrame | None, waiting: bool = False) -> None:
        """Draw `frame` (None: nothing to draw; `waiting`: it is being computed)."""
        self._waiting = waiting
        if waiting:
            self.summary.setText(translate("Flame", "computing the flame graph..."))
            return
        self.graph.set_frame(frame)
        summary = (
            self.graph.summary() if frame is not None else translate("Flame", "no flame graph while the trace is read")
        )
        self.summary.setText(summary)

    def _picked(self, row: int) -> None:
        if self.graph.frame is not None and row >= 0:
            self.picked.emit(self.graph.frame, row)
