"""FiguresPanel: the core's metrics of the shown state, each in proportion, and the findings of a first look."""

from __future__ import annotations

import html
from collections.abc import Sequence

from PySide6 import QtCore, QtGui, QtWidgets

from gpumem_gui.core.analysis.first_look import NORMAL, SEVERITIES, Finding, first_look, fragmentation_note, share
from gpumem_gui.core.analysis.first_look import percent as share_percent
from gpumem_gui.core.analysis.metrics import Metrics
from gpumem_gui.core.snapshot.units import format_bytes, format_bytes_exact, format_percent
from gpumem_gui.views.common import palette

_ROWS = (
    (
        "reserved_bytes",
        "reserved",
        "Memory the caching allocator holds from CUDA (what nvidia-smi counts for PyTorch).",
    ),
    ("allocated_bytes", "allocated", "Memory in live tensors' blocks (torch.cuda.memory_allocated)."),
    ("requested_bytes", "requested", "What the program asked for; below allocated by the 512-byte rounding."),
    (
        "internal_waste_bytes",
        "rounding waste",
        "allocated - requested: lost inside blocks to rounding and unsplit remainders.",
    ),
    (
        "pending_free_bytes",
        "pending free",
        "Freed, but still used by another stream (record_stream): free once it syncs.",
    ),
    (
        "free_bytes",
        "cached free",
        "Reserved but unused: the holes. Large and useless? torch.cuda.empty_cache() returns whole free segments.",
    ),
    (
        "largest_free_block_bytes",
        "largest hole",
        "The biggest request the holes can serve at once; larger ones need a new cudaMalloc.",
    ),
    (
        "external_fragmentation",
        "fragmentation",
        "1 - largest hole / free. High with much free memory: try PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True.",
    ),
    (
        "inactive_split_bytes",
        "inactive split",
        "Free blocks inside segments that also hold live blocks: empty_cache cannot release them.",
    ),
    (
        "largest_allocation_that_fits",
        "largest that fits",
        "The largest allocation the cache can serve now, following the allocator's pool and split rules.",
    ),
    ("segments", "segments", "cudaMalloc'ed segments (or mapped runs of expandable segments)."),
    ("blocks", "blocks", "Blocks of all states in those segments."),
)


_BRACKETED = ("reserved_bytes", "allocated_bytes", "free_bytes", "pending_free_bytes")  # what the gap is made of


class GapBar(QtWidgets.QWidget):
    """Reserved memory as one bar, the allocated part and the rest, with a bracket over the rest and its label."""

    def __init__(self, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        self.reserved = 0
        self.allocated = 0
        self.label = ""
        self.setSizePolicy(QtWidgets.QSizePolicy.Policy.Expanding, QtWidgets.QSizePolicy.Policy.Fixed)

    def set_values(self, reserved: int, allocated: int, label: str) -> None:
        self.reserved, self.allocated, self.label = reserved, allocated, label
        self.setToolTip(
            f"reserved {format_bytes_exact(reserved)}\nallocated {format_bytes_exact(allocated)}\n"
            f"gap {format_bytes_exact(reserved - allocated)}"
        )
        self.updateGeometry()
        self.update()

    def split_x(self) -> float:
        """Where, from the bar's left end, the allocated part ends (a fraction of the bar)."""
        return min(max(self.allocated / self.reserved, 0.0), 1.0) if self.reserved > 0 else 0.0

    def _lines(self) -> tuple[list[str], list[str]]:
        """The label's lines (wrapped to the width) and the figures' lines (side by side when they fit)."""
        metrics = self.fontMetrics()
        width = max(self.width() - 8, 40)
        words, label_lines = self.label.split(), [""]
        for word in words:
            trial = f"{label_lines[-1]} {word}".strip()
            if metrics.horizontalAdvance(trial) <= width or not label_lines[-1]:
                label_lines[-1] = trial
            else:
                label_lines.append(word)
        left, right = f"allocated {format_bytes(self.allocated)}", f"reserved {format_bytes(self.reserved)}"
        fits = metrics.horizontalAdvance(f"{left}   {right}") <= width
        return label_lines, [f"{left}   {right}"] if fits else [left, right]

    def sizeHint(self) -> QtCore.QSize:
        label_lines, figure_lines = self._lines()
        line = self.fontMetrics().height()
        return QtCore.QSize(160, (len(label_lines) + len(figure_lines)) * line + 26)

    def minimumSizeHint(self) -> QtCore.QSize:
        return self.sizeHint()

    def resizeEvent(self, resize_event: QtGui.QResizeEvent) -> None:
        super().resizeEvent(resize_event)
        self.updateGeometry()  # a narrower panel wraps the label onto more lines

    def paintEvent(self, _paint_event: QtGui.QPaintEvent) -> None:
        p = QtGui.QPainter(self)
        p.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing)
        label_lines, figure_lines = self._lines()
        line = float(self.fontMetrics().height())
        left, right = 4.0, float(self.width() - 4)
        bar_top, bar_h = len(label_lines) * line + 8, 14.0
        split = left + (right - left) * self.split_x()
        p.fillRect(QtCore.QRectF(left, bar_top, split - left, bar_h), QtGui.QColor(palette.CURVES["allocated"]))
        p.fillRect(QtCore.QRectF(split, bar_top, right - split, bar_h), QtGui.QColor(palette.HOLE))
        # the bracket: a line over the gap with ticks down to the bar, its label above
        p.setPen(QtGui.QPen(QtGui.QColor(palette.FOCUS), 2))
        y = bar_top - 4
        p.drawLine(QtCore.QPointF(split, y), QtCore.QPointF(right, y))
        p.drawLine(QtCore.QPointF(split, y), QtCore.QPointF(split, bar_top))
        p.drawLine(QtCore.QPointF(right, y), QtCore.QPointF(right, bar_top))
        font = p.font()
        font.setBold(True)
        p.setFont(font)
        for k, text in enumerate(label_lines):
            p.drawText(QtCore.QRectF(left, k * line, right - left, line), QtCore.Qt.AlignmentFlag.AlignRight, text)
        font.setBold(False)
        p.setFont(font)
        p.setPen(QtGui.QColor(palette.TEXT))
        for k, text in enumerate(figure_lines):
            row = QtCore.QRectF(left, bar_top + bar_h + 2 + k * line, right - left, line)
            p.drawText(row, QtCore.Qt.AlignmentFlag.AlignRight if k else QtCore.Qt.AlignmentFlag.AlignLeft, text)
        p.end()


# the widest texts each column must hold, so that the panel keeps one width whatever it shows (no jumping)
_WIDEST_VALUE = "1023.9 MiB"
_WIDEST_SHARES = ("99.9% of allocated", "<0.1% of allocated", "high, little free")
_SEVERITY_WORD = {"info": "note", "warn": "warning", "alert": "alert"}


class FiguresPanel(QtWidgets.QWidget):
    """The figures of the shown state, each with its share of the whole it belongs to, then the findings."""

    def __init__(self, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        outer = QtWidgets.QVBoxLayout(self)
        outer.setContentsMargins(6, 6, 6, 6)
        self.title = QtWidgets.QLabel()
        self.title.setWordWrap(True)
        outer.addWidget(self.title)
        grid = QtWidgets.QGridLayout()
        grid.setHorizontalSpacing(8)
        grid.setVerticalSpacing(2)
        outer.addLayout(grid)
        metrics = self.fontMetrics()
        value_width = metrics.horizontalAdvance(_WIDEST_VALUE) + 4
        share_width = max(metrics.horizontalAdvance(text) for text in _WIDEST_SHARES) + 4
        name_width = max(metrics.horizontalAdvance(label) for _key, label, _tip in _ROWS) + 4
        self.values: dict[str, QtWidgets.QLabel] = {}
        self.names: dict[str, QtWidgets.QLabel] = {}
        self.shares: dict[str, QtWidgets.QLabel] = {}
        self._tips: dict[str, str] = {}
        right = QtCore.Qt.AlignmentFlag.AlignRight | QtCore.Qt.AlignmentFlag.AlignVCenter
        for row, (key, label, meaning) in enumerate(_ROWS):
            tip = f"{meaning}\n{NORMAL[key]}" if key in NORMAL else meaning
            name, value, part = QtWidgets.QLabel(label), QtWidgets.QLabel("-"), QtWidgets.QLabel()
            name.setFixedWidth(name_width)
            value.setFixedWidth(value_width)
            value.setAlignment(right)
            part.setFixedWidth(share_width)
            part.setStyleSheet(f"color: {palette.TEXT_MUTED};")
            for widget in (name, value, part):
                widget.setToolTip(tip)
            grid.addWidget(name, row, 0)
            grid.addWidget(value, row, 1)
            grid.addWidget(part, row, 2)
            self.values[key], self.names[key], self.shares[key], self._tips[key] = value, name, part, tip
        grid.setColumnStretch(3, 1)  # a wider panel leaves its room right of the columns, which stay packed left
        self.content_width = name_width + value_width + share_width + 2 * grid.horizontalSpacing()
        self.title.setFixedWidth(self.content_width)
        self.gap_bar = GapBar()  # a demo's bracket of the reserved - allocated gap, shown only while it is set
        self.gap_bar.setVisible(False)
        outer.addWidget(self.gap_bar)
        self.findings_label = QtWidgets.QLabel()  # the findings, one coloured paragraph each
        self.findings_label.setWordWrap(True)
        self.findings_label.setTextFormat(QtCore.Qt.TextFormat.RichText)
        self.findings_label.setFixedWidth(self.content_width)
        self.findings_label.setAlignment(QtCore.Qt.AlignmentFlag.AlignTop | QtCore.Qt.AlignmentFlag.AlignLeft)
        outer.addWidget(self.findings_label)
        outer.addStretch(1)
        self.findings: list[Finding] = []
        self._flags: dict[str, str] = {}  # row key -> the style that marks it (a finding is about it)
        self._bracketed = False

    def set_bracket(self, reserved: int, allocated: int, label: str) -> None:
        """Bracket the gap between reserved and allocated (of the shown figures) and emphasise their rows."""
        self.gap_bar.set_values(reserved, allocated, label)
        self.gap_bar.setVisible(True)
        self._bracketed = True
        self._restyle()

    def clear_bracket(self) -> None:
        self.gap_bar.setVisible(False)
        self._bracketed = False
        self._restyle()

    def bracket_shown(self) -> bool:
        return not self.gap_bar.isHidden()

    def _restyle(self) -> None:
        bracket = f"background: {palette.FOCUS_BACKGROUND}; font-weight: bold;"
        for key in self.values:
            style = bracket if self._bracketed and key in _BRACKETED else ""
            self.names[key].setStyleSheet(style)
            self.values[key].setStyleSheet(style + self._flags.get(key, ""))

    def set_metrics(self, m: Metrics, title: str, findings: Sequence[Finding] | None = None) -> None:
        """Show `m` under `title`, with the findings about it (None: those the figures alone give)."""
        if self.bracket_shown():  # a bracket belongs to the figures it was drawn for
            self.gap_bar.setVisible(False)
            self._bracketed = False
        self.title.setText(f"<b>{html.escape(title)}</b>")
        figures = m.as_dict()
        for key, label in self.values.items():
            value = figures[key]
            tip = self._tips[key]
            if key == "external_fragmentation":
                label.setText(format_percent(value))
                self.shares[key].setText(fragmentation_note(m, findings or ()))
            elif key in ("segments", "blocks"):
                label.setText(f"{value:,}")
            else:
                label.setText(format_bytes(value))
                tip = f"{format_bytes_exact(value)}\n{tip}"
                part = share(m, key)
                self.shares[key].setText(f"{share_percent(part[0])} of {part[1]}" if part else "")
            for widget in (self.names[key], label, self.shares[key]):
                widget.setToolTip(tip)
        self.set_findings(first_look(m) if findings is None else findings)

    def set_findings(self, findings: Sequence[Finding]) -> None:
        """List the findings under the figures, coloured by severity, and mark the rows they are about."""
        self.findings = list(findings)
        self._flags = {}
        for f in sorted(self.findings, key=lambda f: SEVERITIES.index(f.severity)):  # the most severe wins
            if f.subject and f.severity != "info":
                self._flags[f.subject] = f"color: {palette.FINDING[f.severity]}; font-weight: bold;"
        self._restyle()
        rows = "".join(
            f'<tr><td bgcolor="{palette.FINDING_BACK[f.severity]}" style="color: {palette.FINDING[f.severity]};">'
            f"<b>{_SEVERITY_WORD[f.severity]}</b> {html.escape(f.text)}</td></tr>"
            for f in self.findings
        )
        self.findings_label.setText(f'<table width="100%" cellspacing="0" cellpadding="4">{rows}</table>')
        self.findings_label.setToolTip("\n".join(_figures_line(f) for f in self.findings))


def _figures_line(f: Finding) -> str:
    """A finding's figures, exact: what the sentence rounds."""
    parts = []
    for name, value in f.figures.items():
        if name.endswith("_bytes"):
            exact = format_bytes_exact(int(value))
        elif isinstance(value, float):
            exact = format_percent(value)
        else:
            exact = f"{value:,}"
        parts.append(f"{name.removesuffix('_bytes').replace('_', ' ')} {exact}")
    return f"{_SEVERITY_WORD[f.severity]}: " + ", ".join(parts)
