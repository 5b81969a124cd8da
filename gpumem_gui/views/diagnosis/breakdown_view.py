"""BreakdownView: the live bytes of one moment as a tree of allocation sites (module -> function -> line), with
each row's bytes and share, then the same bytes by category, stream and pool."""

from __future__ import annotations

import html
from typing import Any

from PySide6 import QtCore, QtGui, QtWidgets

from gpumem_gui.core.analysis.breakdown import Breakdown
from gpumem_gui.core.analysis.categories import CATEGORIES, CATEGORY_LABELS
from gpumem_gui.core.analysis.metadata_groups import NO_METADATA
from gpumem_gui.core.analysis.site_tree import NATIVE_MODULE, SiteNode
from gpumem_gui.core.snapshot.units import format_bytes, format_bytes_exact, format_percent
from gpumem_gui.views.common import palette
from gpumem_gui.views.common.language import (
    QT_TRANSLATE_NOOP,
    Retranslated,
    category_word,
    filled,
    localized,
    site_words,
    translate,
    translated_model,
)
from gpumem_gui.views.common.rich_text import rich_text

# the categories as the core names them, "unknown" said more plainly in a list of its own
BREAKDOWN_LABELS = {**CATEGORY_LABELS, "unknown": "unknown (no rule matched)"}
BAR_CELLS = 16  # the width of a text bar, in full block characters
_EIGHTHS = " ▏▎▍▌▋▊▉"

SITE, BYTES, SHARE, BLOCKS = range(4)
_HEADERS = (
    QT_TRANSLATE_NOOP("Columns", "site"),
    QT_TRANSLATE_NOOP("Columns", "bytes"),
    QT_TRANSLATE_NOOP("Columns", "share"),
    QT_TRANSLATE_NOOP("Columns", "blocks"),
)
_UNKNOWN = QT_TRANSLATE_NOOP("Categories", "unknown (no rule matched)")


def text_bar(fraction: float, cells: int = BAR_CELLS) -> str:
    """A bar of block characters `fraction` of `cells` long (eighths of a cell for the end)."""
    eighths = round(min(max(fraction, 0.0), 1.0) * cells * 8)
    full, rest = divmod(eighths, 8)
    return "█" * full + (_EIGHTHS[rest] if rest else "")


def share(part: int, whole: int) -> str:
    return localized(format_percent(part / whole) if whole else "0.0%")


def summary_html(b: Breakdown) -> str:
    """Categories, streams and pools of a breakdown as HTML tables: name, bytes, share and a bar."""
    total = b.allocated_bytes
    cats = [
        (category_word(BREAKDOWN_LABELS.get(k, k)), b.by_category.get(k, 0))
        for k in CATEGORIES
        if b.by_category.get(k, 0)
    ]
    cats.sort(key=lambda kv: -kv[1])
    stream = translate("Breakdown", "stream {stream}")
    streams = [(stream.format(stream=s), v) for s, v in sorted(b.by_stream.items(), key=lambda kv: -kv[1])]
    pool = translate("Breakdown", "{pool} pool")
    pools = [(pool.format(pool=pool_word(p)), v) for p, v in sorted(b.by_pool.items(), key=lambda kv: -kv[1])]
    metadata = sorted(b.by_metadata.items(), key=lambda kv: -kv[1])
    groups = [
        (translate("Breakdown", "By category"), cats),
        (translate("Breakdown", "By stream"), streams),
        (translate("Breakdown", "By pool"), pools),
    ]
    if len(metadata) > 1 or (metadata and metadata[0][0] != NO_METADATA):  # files without metadata: no table
        groups.append((translate("Breakdown", "By metadata"), metadata))
    out = []
    for title, rows in groups:
        out.append(f"<p><b>{title}</b></p>" + share_table(rows, total))
    return "".join(out)


def share_table(rows: list[tuple[str, int]], total: int) -> str:
    if not rows:
        nothing = translate("Breakdown", "nothing allocated")
        return f'<p style="color: {palette.TEXT_MUTED};">{nothing}</p>'
    cells = "".join(
        f'<tr><td align="right">{localized(format_bytes(v))}</td><td align="right">{share(v, total)}</td>'
        f'<td style="color: {palette.CURVES["allocated"]};">{text_bar(v / total if total else 0)}</td>'
        f"<td>{html.escape(name)}</td></tr>"
        for name, v in rows
    )
    return f'<table cellspacing="0" cellpadding="2">{cells}</table>'


def pool_word(pool: str) -> str:
    """core.analysis.breakdown's pool names ("small", "large", "private (1, 2)") in the window's language."""
    words = {"small": translate("Breakdown", "small"), "large": translate("Breakdown", "large")}
    if pool in words:
        return words[pool]
    if pool == "unknown":  # site_series.pool_names' last: blocks whose segment was not found
        return site_words(pool)
    return pool.replace("private", translate("Breakdown", "private"), 1)


def _node_label(label: str) -> str:
    """A tree node's label in the window's language: the tree's own words (no stack, before recording, native code,
    "line 12") and a site's core words translated, the code it names as it is."""
    return translate("Breakdown", label) if label in _NODE_WORDS else site_words(label)


# core.analysis.breakdown's names of the rows that are no site, marked for pyside6-lupdate
_NODE_WORDS = (
    QT_TRANSLATE_NOOP("Breakdown", "allocated before recording began"),
    QT_TRANSLATE_NOOP("Breakdown", "no stack recorded"),
)


class SiteTreeModel(QtCore.QAbstractItemModel):
    """A SiteNode tree as a Qt model (read straight from the nodes: no item per row is made)."""

    def __init__(self, root: SiteNode, parent: QtCore.QObject | None = None) -> None:
        super().__init__(parent)
        translated_model(self)
        self.root = root
        # every node once, its number the internal id of its indices; its parent's number and its row
        self._nodes: list[SiteNode] = [root]
        self._up: list[tuple[int, int]] = [(-1, 0)]
        k = 0
        while k < len(self._nodes):
            for row, child in enumerate(self._nodes[k].children):
                self._nodes.append(child)
                self._up.append((k, row))
            k += 1
        self._first_child = [0] * len(self._nodes)  # the number of each node's first child (children are adjacent)
        for number in range(len(self._nodes) - 1, 0, -1):
            self._first_child[self._up[number][0]] = number

    def node(self, index: QtCore.QModelIndex | QtCore.QPersistentModelIndex) -> SiteNode:
        return self._nodes[index.internalId()] if index.isValid() else self.root

    def index(self, row: int, column: int, parent: Any = None) -> QtCore.QModelIndex:
        number = parent.internalId() if parent is not None and parent.isValid() else 0
        if not 0 <= row < len(self._nodes[number].children) or not 0 <= column < len(_HEADERS):
            return QtCore.QModelIndex()
        return self.createIndex(row, column, self._first_child[number] + row)

    def parent(self, child: Any = None) -> Any:
        if child is None:  # QObject.parent()
            return super().parent()
        if not child.isValid():
            return QtCore.QModelIndex()
        up = self._up[child.internalId()][0]
        if up <= 0:
            return QtCore.QModelIndex()
        return self.createIndex(self._up[up][1], 0, up)

    def rowCount(self, parent: Any = None) -> int:
        if parent is None or not parent.isValid():
            return len(self.root.children)
        return 0 if parent.column() != 0 else len(self.node(parent).children)

    def columnCount(self, _parent: Any = None) -> int:
        return len(_HEADERS)

    def headerData(self, section: int, orientation: QtCore.Qt.Orientation, role: int = 0) -> Any:
        if orientation == QtCore.Qt.Orientation.Horizontal and role == QtCore.Qt.ItemDataRole.DisplayRole:
            return translate("Columns", _HEADERS[section])
        return None

    def data(self, index: QtCore.QModelIndex | QtCore.QPersistentModelIndex, role: int = 0) -> Any:
        if not index.isValid():
            return None
        node = self.node(index)
        col = index.column()
        if role == QtCore.Qt.ItemDataRole.DisplayRole:
            if col == SITE:  # a module by its last folders and file: the full path is in the tooltip
                if node.kind == "module" and node.label != NATIVE_MODULE:
                    return "/".join(node.label.replace("\\", "/").split("/")[-2:])
                return _node_label(node.label)
            if col == BYTES:
                return localized(format_bytes(node.bytes))
            if col == SHARE:
                return share(node.bytes, self.root.bytes)
            return localized(f"{node.blocks:,}")
        if role == QtCore.Qt.ItemDataRole.UserRole:  # the share as a fraction, for the bar
            return node.bytes / self.root.bytes if self.root.bytes else 0.0
        if role == QtCore.Qt.ItemDataRole.TextAlignmentRole and col != SITE:
            return int(QtCore.Qt.AlignmentFlag.AlignRight | QtCore.Qt.AlignmentFlag.AlignVCenter)
        if role == QtCore.Qt.ItemDataRole.ToolTipRole:
            where = node.site or node.label
            # the exact bytes written once, by the language (filled leaves a Shown figure as it is)
            fields = {"bytes": localized(format_bytes_exact(node.bytes)), "blocks": f"{node.blocks:,}"}
            return f"{_node_label(where)}\n" + filled(
                translate("Breakdown", "{bytes} in {blocks} {blocks:block|blocks}"), fields
            )
        if role == QtCore.Qt.ItemDataRole.ForegroundRole and node.kind in ("before", "unknown"):
            return QtGui.QColor(palette.TEXT_MUTED)
        return None


class ShareDelegate(QtWidgets.QStyledItemDelegate):
    """The share column: a bar under the percentage, as long as the row's share of all allocated bytes."""

    def paint(
        self,
        painter: QtGui.QPainter,
        option: QtWidgets.QStyleOptionViewItem,
        index: QtCore.QModelIndex | QtCore.QPersistentModelIndex,
    ) -> None:
        fraction = float(index.data(QtCore.Qt.ItemDataRole.UserRole) or 0.0)
        rect = option.rect.adjusted(2, 3, -2, -3)
        painter.save()
        painter.fillRect(rect, QtGui.QColor(palette.BACKGROUND))
        bar = QtCore.QRect(rect)
        bar.setWidth(max(int(rect.width() * fraction), 1 if fraction > 0 else 0))
        colour = QtGui.QColor(palette.CURVES["allocated"])
        colour.setAlpha(110)  # the percentage stays readable over it
        painter.fillRect(bar, colour)
        painter.restore()
        super().paint(painter, option, index)


class BreakdownView(Retranslated):
    """The site tree of a moment (children most bytes first), then its categories, streams and pools."""

    site_selected = QtCore.Signal(str)  # a leaf's site label (breakdown's SiteBytes.site) when its row is picked

    def __init__(self, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        self.tree_root: SiteNode | None = None
        self.title = QtWidgets.QLabel()
        self.title.setWordWrap(True)
        self.title.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
        self.tree = QtWidgets.QTreeView()
        self.tree.setUniformRowHeights(True)  # fast with many rows
        self.tree.setAlternatingRowColors(True)
        self.tree.setTextElideMode(QtCore.Qt.TextElideMode.ElideMiddle)  # a long path keeps its file name
        self.tree.setItemDelegateForColumn(SHARE, ShareDelegate(self.tree))
        self.summary = QtWidgets.QTextBrowser()
        self.summary.setOpenLinks(False)
        self.summary.setWordWrapMode(QtGui.QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        splitter = QtWidgets.QSplitter(QtCore.Qt.Orientation.Vertical)
        splitter.addWidget(self.tree)
        splitter.addWidget(self.summary)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 1)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.title)
        layout.addWidget(splitter, 1)
        self.model: SiteTreeModel | None = None
        self._shown: tuple[SiteNode, Breakdown] | str | None = None
        self.retranslate()

    def retranslate(self) -> None:
        self.tree.setToolTip(
            translate(
                "Breakdown", "Live bytes by allocation site: module, function, line. Pick a line to mark its blocks."
            )
        )
        if isinstance(self._shown, tuple):
            self._say(*self._shown)
        elif isinstance(self._shown, str):
            self.show_error(self._shown)
        else:
            self.title.setText(translate("Breakdown", "No breakdown yet."))

    def show_breakdown(self, tree: SiteNode, breakdown: Breakdown) -> None:
        """Show `tree` (site_tree's) and the summaries of `breakdown` (breakdown_at's, of the same moment)."""
        self.tree_root = tree
        old, old_selection = self.model, self.tree.selectionModel()
        self.model = SiteTreeModel(tree, self)
        self.tree.setModel(self.model)
        for gone in (old, old_selection):  # setModel leaves both to their owner
            if gone is not None:
                gone.deleteLater()
        self.tree.selectionModel().currentChanged.connect(self._picked)
        header = self.tree.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(SITE, QtWidgets.QHeaderView.ResizeMode.Stretch)
        widest = {BYTES: "1023.9 MiB", SHARE: "100.0%", BLOCKS: "99,999"}  # the figures' widths, the rest to sites
        for col, text in widest.items():
            header.setSectionResizeMode(col, QtWidgets.QHeaderView.ResizeMode.Interactive)
            header.resizeSection(col, self.fontMetrics().horizontalAdvance(text) + 16)
        self.tree.expandToDepth(1)  # modules and functions open: every line shows at once
        self._say(tree, breakdown)

    def _say(self, tree: SiteNode, breakdown: Breakdown) -> None:
        """The title and the summaries, in the window's language."""
        self._shown = (tree, breakdown)
        fields = {
            "event": f"{breakdown.event:,}",
            "bytes": localized(format_bytes(tree.bytes)),
            "blocks": f"{tree.blocks:,}",
            "sites": str(len(tree.leaves())),
        }
        if breakdown.event < 0:
            when = translate("Breakdown", "Live bytes before the first event:")
        else:
            when = filled(translate("Breakdown", "Live bytes after event {event}:"), fields)
        line = translate("Breakdown", "{bytes} allocated in {blocks} {blocks:block|blocks}, {sites} {sites:site|sites}")
        self.title.setText(rich_text(f"<b>{when}</b> " + filled(line, fields)))
        self.summary.setHtml(rich_text(summary_html(breakdown)))

    def show_error(self, message: str) -> None:
        """The breakdown's task failed: the page says so (what it showed before is of another moment)."""
        self.tree_root = None
        self.tree.setModel(None)
        self.model = None
        self._shown = message
        cannot = translate("Breakdown", "Could not find what holds the memory:")
        self.title.setText(rich_text(f"<b>{cannot}</b> {html.escape(message)}"))
        self.summary.clear()

    def _picked(self, current: QtCore.QModelIndex, _previous: QtCore.QModelIndex) -> None:
        if self.model is None or not current.isValid():
            return
        node = self.model.node(current)
        if node.site:
            self.site_selected.emit(node.site)
