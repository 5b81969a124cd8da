"""SpanPanel: the side panel's span page: a list of spans to pick (the steps found, record_function ranges, one drawn
on a timeline) over the span's report: what it left behind, what held its peak, what it freed, its figures."""

from __future__ import annotations

import html

from PySide6 import QtCore, QtWidgets

from gpumem_gui.core.analysis.named_spans import STEP
from gpumem_gui.core.analysis.span import EVENTS, FIGURES, BlockSet, Span, SpanReport
from gpumem_gui.core.snapshot.units import format_bytes
from gpumem_gui.views.common.language import (
    QT_TRANSLATE_NOOP,
    Retranslated,
    filled,
    localized,
    site_words,
    translate,
)
from gpumem_gui.views.common.rich_text import rich_text

TOP_SITES = 8  # sites listed per set; the rest summed in one line
FIGURE_NAMES = {
    "allocated_bytes": QT_TRANSLATE_NOOP("SpanPanel", "allocated"),
    "reserved_bytes": QT_TRANSLATE_NOOP("SpanPanel", "reserved"),
    "active_bytes": QT_TRANSLATE_NOOP("SpanPanel", "active"),
    "requested_bytes": QT_TRANSLATE_NOOP("SpanPanel", "requested"),
    "segments": QT_TRANSLATE_NOOP("SpanPanel", "segments"),
}
# the figures' columns: right after the span's first moment, after its last, and the change
HEADS = (
    QT_TRANSLATE_NOOP("SpanPanel", "at its start"),
    QT_TRANSLATE_NOOP("SpanPanel", "at its end"),
    QT_TRANSLATE_NOOP("SpanPanel", "difference"),
)
HEAD = QT_TRANSLATE_NOOP("SpanPanel", "{title}: {amount}")  # a set of blocks' head: its name and its bytes
HINT = QT_TRANSLATE_NOOP("SpanPanel", "Pick a step or a range, or shift-drag across a timeline to select a span.")


def span_label(span: Span) -> str:
    """A span's name as the window says it (core's Span.label, in English, is the command line's): a step's name
    and its events in the window's language, the numbers as the language writes them; a record_function range's
    name as the file has it."""
    events = filled(translate("Span", EVENTS), {"first": f"{span.start + 1:,}", "last": f"{span.end:,}"})
    if not span.name:
        return events
    name = filled(translate("Span", STEP), {"k": f"{span.step:,}"}) if span.step else span.name
    return f"{name} ({events})"


def _amount(key: str, value: int, signed: bool = False) -> str:
    if key == "segments":
        return localized(f"{value:+,}" if signed else f"{value:,}")
    text = localized(format_bytes(abs(value)) if signed else format_bytes(value))
    return (("+" if value > 0 else "-" if value < 0 else "±") + text) if signed else text


def _block_set(title: str, what: str, blocks: BlockSet) -> str:
    fields = {"bytes": localized(format_bytes(blocks.bytes)), "blocks": f"{blocks.blocks:,}"}
    amount = filled(translate("SpanPanel", "{bytes} in {blocks} {blocks:block|blocks}"), fields)
    named = translate("SpanPanel", HEAD, {"title": translate("SpanPanel", title), "amount": amount})  # filled in
    head = f"<h4>{html.escape(named)}</h4>"
    if not blocks.blocks:
        return head + "<p>{}</p>".format(translate("SpanPanel", "none"))
    rows = "".join(
        f"<tr><td align='right'>{localized(format_bytes(s.bytes))}</td>"
        f"<td align='right'>{localized(f'{s.blocks:,}')}</td>"
        f"<td>{html.escape(site_words(s.site))}</td></tr>"
        for s in blocks.by_site[:TOP_SITES]
    )
    rest = blocks.by_site[TOP_SITES:]
    if rest:
        others = filled(translate("SpanPanel", "{n} other {n:site|sites}"), {"n": f"{len(rest):,}"})
        rows += (
            f"<tr><td align='right'>{localized(format_bytes(sum(s.bytes for s in rest)))}</td>"
            f"<td align='right'>{localized(f'{sum(s.blocks for s in rest):,}')}</td><td>{others}</td></tr>"
        )
    what = html.escape(translate("SpanPanel", what))
    return f"{head}<p><i>{what}</i></p><table cellspacing='0' cellpadding='2'>{rows}</table>"


def span_report_html(report: SpanReport) -> str:
    """The report as the span page shows it."""
    span = report.span
    figures = "".join(
        f"<tr><td>{translate('SpanPanel', FIGURE_NAMES[key])}</td>"
        f"<td align='right'>{_amount(key, report.at_start[key])}</td>"
        f"<td align='right'>{_amount(key, report.at_end[key])}</td>"
        f"<td align='right'>{_amount(key, report.delta[key], signed=True)}</td></tr>"
        for key in FIGURES
    )
    fields = {"start": f"{span.start:,}", "end": f"{span.end:,}"}
    if span.start < 0:
        where = filled(translate("SpanPanel", "from before the first event to after event {end}"), fields)
    else:
        where = filled(translate("SpanPanel", "from after event {start} to after event {end}"), fields)
    heads = [html.escape(translate("SpanPanel", head)) for head in HEADS]
    peak = {"peak": localized(format_bytes(report.peak_bytes)), "event": f"{report.peak_event:,}"}
    held = filled(
        translate("SpanPanel", "what was allocated at the span's peak, {peak} right after event {event}"), peak
    )
    return (
        f"<h3>{html.escape(span_label(span))}</h3>"
        # the heads over their figures, right-aligned as they are, and apart: "au début à la fin" reads as one
        f"<table cellspacing='0' cellpadding='3'><tr><th></th><th align='right'>{heads[0]}</th>"
        f"<th align='right'>{heads[1]}</th><th align='right'>{heads[2]}</th></tr>{figures}</table>"
        f"<p>{where}</p>"
        + _block_set(
            _LEFT,
            QT_TRANSLATE_NOOP("SpanPanel", "allocated in the span and still alive at its end"),
            report.left_behind,
        )
        + _block_set(_HELD, held, report.peak_holders)
        + _block_set(
            _FREED,
            QT_TRANSLATE_NOOP("SpanPanel", "freed in the span: its temporaries and what it released"),
            report.freed,
        )
        + _block_set(
            _TEMPORARIES, QT_TRANSLATE_NOOP("SpanPanel", "allocated and freed inside the span"), report.temporaries
        )
    )


_LEFT = QT_TRANSLATE_NOOP("SpanPanel", "Left behind")
_HELD = QT_TRANSLATE_NOOP("SpanPanel", "Held the peak")
_FREED = QT_TRANSLATE_NOOP("SpanPanel", "Freed")
_TEMPORARIES = QT_TRANSLATE_NOOP("SpanPanel", "Temporaries")


class SpanPanel(Retranslated):
    """`span_chosen` gives the span picked from the list (None: the whole trace); `show_report` fills the page."""

    span_chosen = QtCore.Signal(object)

    def __init__(self, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        self.span_box = QtWidgets.QComboBox()
        self.span_box.setSizeAdjustPolicy(QtWidgets.QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.span_box.setMinimumContentsLength(12)
        self.whole_button = QtWidgets.QPushButton()
        self.text = QtWidgets.QTextBrowser()
        self.text.setOpenLinks(False)
        self._report: tuple[SpanReport | None, bool] = (None, False)
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
        self._current: Span | None = None
        self.retranslate()

    def retranslate(self) -> None:
        self.span_box.setToolTip(
            translate("SpanPanel", "the steps found and the record_function ranges; a span drawn on a timeline")
        )
        self.whole_button.setText(translate("SpanPanel", "Whole trace"))
        self.whole_button.setToolTip(translate("SpanPanel", "scope every view to the whole trace again"))
        if self.span_box.count():
            self.span_box.setItemText(0, translate("SpanPanel", "whole trace"))
            for i, span in enumerate(self._spans, 1):  # the steps' names and every span's events
                self.span_box.setItemText(i, span_label(span))
        self.show_report(*self._report)

    def set_spans(self, spans: list[Span], current: Span | None) -> None:
        """The spans to pick from; `current` (one drawn on a timeline is listed too) picked, without telling."""
        self._spans = list(spans)
        if current is not None and current not in self._spans:
            self._spans.insert(0, current)
        self.span_box.blockSignals(True)
        self.span_box.clear()
        self.span_box.addItem(translate("SpanPanel", "whole trace"))
        for span in self._spans:
            self.span_box.addItem(span_label(span))
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
        self._report = (report, waiting)
        if waiting:
            self.text.setPlainText(translate("SpanPanel", "computing the span's report..."))
        elif report is None:
            self.text.setPlainText(translate("SpanPanel", HINT))
        else:
            self.text.setHtml(rich_text(span_report_html(report)))
