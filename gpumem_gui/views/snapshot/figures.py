"""FiguresPanel: the core's metrics of the shown state, each in proportion, and the findings of a first look."""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence

from PySide6 import QtCore, QtGui, QtWidgets

from gpumem_gui.core.analysis.first_look import NORMAL, SEVERITIES, Finding, first_look, fragmentation_note, share
from gpumem_gui.core.analysis.first_look import percent as share_percent
from gpumem_gui.core.analysis.metrics import Metrics
from gpumem_gui.core.snapshot.units import format_bytes, format_bytes_exact, format_percent
from gpumem_gui.views.common import palette
from gpumem_gui.views.common.language import QT_TRANSLATE_NOOP, Retranslated, localized, translate
from gpumem_gui.views.common.one_line import HeldLabel
from gpumem_gui.views.common.rich_text import rich_text
from gpumem_gui.views.common.rich_text_box import RichTextBox
from gpumem_gui.views.common.sentences import said

_ROWS = (
    (
        "reserved_bytes",
        QT_TRANSLATE_NOOP("FiguresPanel", "reserved"),
        QT_TRANSLATE_NOOP(
            "FiguresPanel", "Memory the caching allocator holds from CUDA (what nvidia-smi counts for PyTorch)."
        ),
    ),
    (
        "allocated_bytes",
        QT_TRANSLATE_NOOP("FiguresPanel", "allocated"),
        QT_TRANSLATE_NOOP("FiguresPanel", "Memory in live tensors' blocks (torch.cuda.memory_allocated)."),
    ),
    (
        "requested_bytes",
        QT_TRANSLATE_NOOP("FiguresPanel", "requested"),
        QT_TRANSLATE_NOOP("FiguresPanel", "What the program asked for; below allocated by the 512-byte rounding."),
    ),
    (
        "internal_waste_bytes",
        QT_TRANSLATE_NOOP("FiguresPanel", "rounding waste"),
        QT_TRANSLATE_NOOP(
            "FiguresPanel", "allocated - requested: lost inside blocks to rounding and unsplit remainders."
        ),
    ),
    (
        "pending_free_bytes",
        QT_TRANSLATE_NOOP("FiguresPanel", "pending free"),
        QT_TRANSLATE_NOOP(
            "FiguresPanel", "Freed, but still used by another stream (record_stream): free once it syncs."
        ),
    ),
    (
        "free_bytes",
        QT_TRANSLATE_NOOP("FiguresPanel", "cached free"),
        QT_TRANSLATE_NOOP(
            "FiguresPanel",
            "Reserved but unused: the holes. Large and useless? torch.cuda.empty_cache() returns whole free segments.",
        ),
    ),
    (
        "largest_free_block_bytes",
        QT_TRANSLATE_NOOP("FiguresPanel", "largest hole"),
        QT_TRANSLATE_NOOP(
            "FiguresPanel", "The biggest request the holes can serve at once; larger ones need a new cudaMalloc."
        ),
    ),
    (
        "external_fragmentation",
        QT_TRANSLATE_NOOP("FiguresPanel", "fragmentation"),
        QT_TRANSLATE_NOOP(
            "FiguresPanel",
            "1 - largest hole / free. High with much free memory: try "
            "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True.",
        ),
    ),
    (
        "inactive_split_bytes",
        QT_TRANSLATE_NOOP("FiguresPanel", "inactive split"),
        QT_TRANSLATE_NOOP(
            "FiguresPanel", "Free blocks inside segments that also hold live blocks: empty_cache cannot release them."
        ),
    ),
    (
        "largest_allocation_that_fits",
        QT_TRANSLATE_NOOP("FiguresPanel", "largest that fits"),
        QT_TRANSLATE_NOOP(
            "FiguresPanel",
            "The largest allocation the cache can serve now, following the allocator's pool and split rules.",
        ),
    ),
    (
        "segments",
        QT_TRANSLATE_NOOP("FiguresPanel", "segments"),
        QT_TRANSLATE_NOOP("FiguresPanel", "cudaMalloc'ed segments (or mapped runs of expandable segments)."),
    ),
    (
        "blocks",
        QT_TRANSLATE_NOOP("FiguresPanel", "blocks"),
        QT_TRANSLATE_NOOP("FiguresPanel", "Blocks of all states in those segments."),
    ),
)
# a share's sentence by the whole it is a share of (first_look.SHARE_OF's names)
_SHARE_OF = {
    "reserved": QT_TRANSLATE_NOOP("FiguresPanel", "{share} of reserved"),
    "allocated": QT_TRANSLATE_NOOP("FiguresPanel", "{share} of allocated"),
    "free": QT_TRANSLATE_NOOP("FiguresPanel", "{share} of free"),
}
# a finding's figures, named in its tooltip
_FIGURE_NAMES = {
    "oom_requested_bytes": QT_TRANSLATE_NOOP("FiguresPanel", "oom requested"),
    "free_bytes": QT_TRANSLATE_NOOP("FiguresPanel", "free"),
    "largest_free_block_bytes": QT_TRANSLATE_NOOP("FiguresPanel", "largest free block"),
    "device_free_bytes": QT_TRANSLATE_NOOP("FiguresPanel", "device free"),
    "reserved_bytes": QT_TRANSLATE_NOOP("FiguresPanel", "reserved"),
    "allocated_bytes": QT_TRANSLATE_NOOP("FiguresPanel", "allocated"),
    "inactive_split_bytes": QT_TRANSLATE_NOOP("FiguresPanel", "inactive split"),
    "external_fragmentation": QT_TRANSLATE_NOOP("FiguresPanel", "external fragmentation"),
    "upcoming_requests": QT_TRANSLATE_NOOP("FiguresPanel", "upcoming requests"),
    "upcoming_max_bytes": QT_TRANSLATE_NOOP("FiguresPanel", "upcoming max"),
    "holes_taking_largest": QT_TRANSLATE_NOOP("FiguresPanel", "holes taking largest"),
    "requests_fitting_no_hole": QT_TRANSLATE_NOOP("FiguresPanel", "requests fitting no hole"),
    "unusable_free_bytes": QT_TRANSLATE_NOOP("FiguresPanel", "unusable free"),
}


def _tr(text: str) -> str:
    return QtCore.QCoreApplication.translate("FiguresPanel", text)


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
            self.tr("reserved {reserved}\nallocated {allocated}\ngap {gap}").format(
                reserved=localized(format_bytes_exact(reserved)),
                allocated=localized(format_bytes_exact(allocated)),
                gap=localized(format_bytes_exact(reserved - allocated)),
            )
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
        left = self.tr("allocated {size}").format(size=localized(format_bytes(self.allocated)))
        right = self.tr("reserved {size}").format(size=localized(format_bytes(self.reserved)))
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
_SEVERITY_WORD = {
    "info": QT_TRANSLATE_NOOP("FiguresPanel", "note"),
    "warn": QT_TRANSLATE_NOOP("FiguresPanel", "warning"),
    "alert": QT_TRANSLATE_NOOP("FiguresPanel", "alert"),
}


class _MeasuredLabel(QtWidgets.QLabel):
    """A wrapped label that measures its height at a width once per text: a layout of its text each time asked
    otherwise (its box's hints on a new text, then the panel's layout asking again in the same travel)."""

    def __init__(self) -> None:
        super().__init__()
        self._measured: tuple[tuple[str, int, str, str], int] | None = None

    def heightForWidth(self, width: int) -> int:
        key = (self.text(), width, self.font().key(), self.styleSheet())
        if self._measured is None or self._measured[0] != key:
            self._measured = (key, super().heightForWidth(width))
        return self._measured[1]


class FiguresPanel(Retranslated):
    """The figures of the shown state, each with its share of the whole it belongs to, then the findings."""

    def __init__(self, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        outer = QtWidgets.QVBoxLayout(self)
        outer.setContentsMargins(6, 6, 6, 6)
        self.title = _MeasuredLabel()
        self.title.setWordWrap(True)
        # plain text in a bold font, not <b> rich text: the same pixels, and a new title (each travel) is measured
        # for its height without a rich text document's layout
        self.title.setTextFormat(QtCore.Qt.TextFormat.PlainText)
        bold = self.title.font()
        bold.setBold(True)
        self.title.setFont(bold)
        # the labels a travel changes in boxes of their own: their new texts lay the panel out again only where a
        # label's size hints change (a QLabel's setText would ask for the whole panel, each wrapped label measured)
        self._held: dict[QtWidgets.QLabel, HeldLabel] = {self.title: HeldLabel(self.title)}
        outer.addWidget(self._held[self.title])
        grid = QtWidgets.QGridLayout()
        grid.setHorizontalSpacing(8)
        grid.setVerticalSpacing(2)
        outer.addLayout(grid)
        self.grid = grid
        self.values: dict[str, QtWidgets.QLabel] = {}
        self.names: dict[str, QtWidgets.QLabel] = {}
        self.shares: dict[str, QtWidgets.QLabel] = {}
        self._tips: dict[str, str] = {}
        right = QtCore.Qt.AlignmentFlag.AlignRight | QtCore.Qt.AlignmentFlag.AlignVCenter
        for row, (key, _label, _meaning) in enumerate(_ROWS):
            name, value, part = QtWidgets.QLabel(), QtWidgets.QLabel("-"), QtWidgets.QLabel()
            value.setAlignment(right)
            part.setStyleSheet(f"color: {palette.TEXT_MUTED};")
            self._held[value], self._held[part] = HeldLabel(value), HeldLabel(part)
            grid.addWidget(name, row, 0)
            grid.addWidget(self._held[value], row, 1)
            grid.addWidget(self._held[part], row, 2)
            self.values[key], self.names[key], self.shares[key] = value, name, part
        grid.setColumnStretch(3, 1)  # a wider panel leaves its room right of the columns, which stay packed left
        self.gap_bar = GapBar()  # a demo's bracket of the reserved - allocated gap, shown only while it is set
        self.gap_bar.setVisible(False)
        outer.addWidget(self.gap_bar)
        self.findings_label = RichTextBox()  # the findings, one coloured paragraph each
        outer.addWidget(self.findings_label)
        outer.addStretch(1)
        self.findings: list[Finding] = []
        self._flags: dict[str, str] = {}  # row key -> the style that marks it (a finding is about it)
        self._bracketed = False
        self._shown: tuple[Metrics, str | Callable[[], str], Sequence[Finding] | None] | None = (
            None  # redrawn in a new language
        )
        self.retranslate()

    def retranslate(self) -> None:
        """The rows' names and meanings, the columns' widths (each language's widest texts), the figures shown."""
        metrics = self.fontMetrics()
        value_width = metrics.horizontalAdvance(localized(_WIDEST_VALUE)) + 4
        shares = [_tr(_SHARE_OF["allocated"]).format(share=localized(s)) for s in ("99.9%", "<0.1%")]
        notes = [
            QtCore.QCoreApplication.translate("Findings", note)
            for note in ("high, little free", "caused this OOM", "normal", "high")
        ]
        share_width = max(metrics.horizontalAdvance(text) for text in shares + notes) + 4
        name_width = max(metrics.horizontalAdvance(_tr(label)) for _key, label, _tip in _ROWS) + 4
        for key, label, meaning in _ROWS:
            normal = QtCore.QCoreApplication.translate("Findings", NORMAL[key]) if key in NORMAL else ""
            self._tips[key] = f"{_tr(meaning)}\n{normal}" if normal else _tr(meaning)
            self.names[key].setText(_tr(label))
            self.names[key].setFixedWidth(name_width)
            self._held[self.values[key]].setFixedWidth(value_width)
            self._held[self.shares[key]].setFixedWidth(share_width)
            for widget in (self.names[key], self.values[key], self.shares[key]):
                widget.setToolTip(self._tips[key])
        self.content_width = name_width + value_width + share_width + 2 * self.grid.horizontalSpacing()
        self._held[self.title].setFixedWidth(self.content_width)
        self.findings_label.setFixedWidth(self.content_width)
        if self._shown is not None:
            self.set_metrics(*self._shown)

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
            _set_style(self.names[key], style)
            if _set_style(self.values[key], style + self._flags.get(key, "")):
                self._held[self.values[key]].hints_changed(font=True)  # a bold font may be taller

    def set_metrics(
        self, m: Metrics, title: str | Callable[[], str], findings: Sequence[Finding] | None = None
    ) -> None:
        """Show `m` under `title` (or what it returns, asked again after a switch of language), with the findings
        about it (None: those the figures alone give)."""
        if self.bracket_shown():  # a bracket belongs to the figures it was drawn for
            self.gap_bar.setVisible(False)
            self._bracketed = False
        self._shown = (m, title, findings)
        self._held[self.title].set_text(title if isinstance(title, str) else title())
        for key, label in self.values.items():
            value = getattr(m, key)  # (not as_dict: it copies the free-block histogram's bins too, each travel)
            tip = self._tips[key]
            if key == "external_fragmentation":
                self._held[label].set_text(localized(format_percent(value)))
                note = fragmentation_note(m, findings or ())
                self._held[self.shares[key]].set_text(
                    QtCore.QCoreApplication.translate("Findings", note) if note else ""
                )
            elif key in ("segments", "blocks"):
                self._held[label].set_text(localized(f"{value:,}"))
            else:
                self._held[label].set_text(localized(format_bytes(value)))
                tip = f"{localized(format_bytes_exact(value))}\n{tip}"
                part = share(m, key)
                of = _tr(_SHARE_OF[part[1]]).format(share=localized(share_percent(part[0]))) if part else ""
                self._held[self.shares[key]].set_text(of)
            for widget in (self.names[key], label, self.shares[key]):
                if widget.toolTip() != tip:  # each set is an event through the window's filters
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
            f"<b>{_tr(_SEVERITY_WORD[f.severity])}</b> {html.escape(said(f.text))}</td></tr>"
            for f in self.findings
        )
        self.findings_label.setText(rich_text(f'<table width="100%" cellspacing="0" cellpadding="4">{rows}</table>'))
        self.findings_label.setToolTip("\n".join(_figures_line(f) for f in self.findings))


def _set_style(widget: QtWidgets.QWidget, style: str) -> bool:
    """Qt polishes a widget again on every setStyleSheet, even to the same sheet: each travel step restyles them all.
    True where the sheet changed."""
    if widget.styleSheet() == style:
        return False
    widget.setStyleSheet(style)
    return True


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
        named = _tr(_FIGURE_NAMES[name]) if name in _FIGURE_NAMES else name.removesuffix("_bytes").replace("_", " ")
        parts.append(f"{named} {localized(exact)}")
    return translate("FiguresPanel", "{severity}: {figures}").format(
        severity=_tr(_SEVERITY_WORD[f.severity]), figures=", ".join(parts)
    )
