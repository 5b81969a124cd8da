"""SpanPanel: the side panel's span page: a list of spans to pick (the steps found, record_function ranges, one drawn
on a timeline) over the span's report: what it left behind, what held its peak, what it freed, its figures."""

from __future__ import annotations

import html

from PySide6 import QtCore, QtWidgets

from gpumem_gui.core.analysis.span import FIGURES, BlockSet, Span, SpanReport
from gpumem_gui.core.snapshot.units import format_bytes

TOP_SITES = 8  # sites listed per set; the rest summed in one line
FIGURE_NAMES = {
    "allocated_bytes": "allocated",
    "reserved_bytes": "reserved",
    "active_bytes": "active",
    "requested_bytes": "requested",
    "segments": "segments",
}
HINT = "Pick a step or a range, or shift-drag across a timeline to select a span."


def _amount(key: str, value: int, signed: bool = False) -> str:
    if key == "segments":
        return f"{value:+,}" if signed else f"{value:,}"
    text = format_bytes(abs(value)) if signed else format_bytes(value)
    return (("+" if value > 0 else "-" if value < 0 else "±") + text) if signed else text


def _block_set(title: str, what: str, blocks: BlockSet) -> str:
    plural = "" if blocks.blocks == 1 else "s"
    head = f"<h4>{html.escape(title)}: {format_bytes(blocks.bytes)} in {blocks.blocks:,} block{plural}</h4>"
    if not blocks.blocks:
        return head + "<p>none</p>"
    rows = "".join(
        f"<tr><td align='right'>{format_bytes(s.bytes)}</td><td align='right'>{s.blocks:,}</td>"
        f"<td>{html.escape(s.site)}</td></tr>"
        for s in blocks.by_site[:TOP_SITES]
    )
    rest = blocks.by_site[TOP_SITES:]
    if rest:
        rows += (
            f"<tr><td align='right'>{format_bytes(sum(s.bytes for s in rest))}</td>"
            f"<td align='right'>{sum(s.blocks for s in rest):,}</td><td>{len(rest):,} other sites</td></tr>"
        )
    return f"{head}<p><i>{html.escape(what)}</i></p><table cellspacing='0' cellpadding='2'>{rows}</table>"


def span_report_html(report: SpanReport) -> str:
    """The report as the span page shows it."""
    span = report.span
    figures = "".join(
        f"<tr><td>{FIGURE_NAMES[key]}</td><td align='right'>{_amount(key, report.at_start[key])}</td>"
        f"<td align='right'>{_amount(key, report.at_end[key])}</td>"
        f"<td align='right'>{_amount(key, report.delta[key], signed=True)}</td></tr>"
        for key in FIGURES
    )
    start = "before the first event" if span.start < 0 else f"after event {span.start:,}"
    return (
        f"<h3>{html.escape(span.label)}</h3>"
        f"<table cellspacing='0' cellpadding='2'><tr><th></th><th>at its start</th><th>at its end</th>"
        f"<th>difference</th></tr>{figures}</table>"
        f"<p>from {start} to after event {span.end:,}</p>"
        + _block_set("Left behind", "allocated in the span and still alive at its end", report.left_behind)
        + _block_set(
            "Held the peak",
            f"what was allocated at the span's peak, {format_bytes(report.peak_bytes)} right after event "
            f"{report.peak_event:,}",
            report.peak_holders,
        )
        + _block_set("Freed", "freed in the span: its temporaries and what it released", report.freed)
        + _block_set("Temporaries", "allocated and freed inside the span", report.temporaries)
    )


class SpanPanel(QtWidgets.QWidget):
    """`span_chosen` gives the span picked from the list (None: the whole trace); `show_report` fills the page."""

    span_chosen = QtCore.Signal(object)

    def __init__(self, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        self.span_box = QtWidgets.QComboBox()
        self.span_box.setSizeAdjustPolicy(QtWidgets.QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.span_box.setMinimumContentsLength(12)
        self.span_box.setToolTip("the steps found and the record_function ranges; a span drawn on a timeline")
        self.whole_button = QtWidgets.QPushButton("Whole trace")
        self.whole_button.setToolTip("scope every view to the whole trace again")
        self.text = QtWidgets.QTextBrowser()
        self.text.setOpenLinks(False)
        self.text.setPlainText(HINT)
        self._spans: list[Span] = []
        self.report: SpanReport | None = None  # the report shown
        row = QtWidgets.QHBoxLayout()
        row.addWidget(self.span_box, 1)
        row.addWidget(self.whole_button)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(row)
        layout.addWidget(self.text, 1)
        self.span_box.activated.connect(self._picked)
        self.whole_button.clicked.connect(lambda: self.span_chosen.emit(None))

    def set_spans(self, spans: list[Span], current: Span | None) -> None:
        """The spans to pick from; `current` (one drawn on a timeline is listed too) picked, without telling."""
        self._spans = list(spans)
        if current is not None and current not in self._spans:
            self._spans.insert(0, current)
        self.span_box.blockSignals(True)
        self.span_box.clear()
        self.span_box.addItem("whole trace")
        for span in self._spans:
            self.span_box.addItem(span.label)
        self.span_box.setCurrentIndex(0 if current is None else self._spans.index(current) + 1)
        self.span_box.blockSignals(False)
        self.whole_button.setEnabled(current is not None)

    def _picked(self, index: int) -> None:
        self.span_chosen.emit(None if index <= 0 else self._spans[index - 1])

    def span_named(self, name: str) -> Span | None:
        """The listed span called `name` ("step 7"), if any."""
        return next((s for s in self._spans if s.name == name), None)

    def show_report(self, report: SpanReport | None, waiting: bool = False) -> None:
        """The span's report (None: no span; `waiting`: being computed)."""
        self.report = report
        if waiting:
            self.text.setPlainText("computing the span's report...")
        elif report is None:
            self.text.setPlainText(HINT)
        else:
            self.text.setHtml(span_report_html(report))
