"""ExplainPanel: why memory ran out (or what holds the peak) at one moment, and which settings would have fitted,
each verified by replaying the recorded allocations; a remedy opens the what-if comparison at that moment."""

from __future__ import annotations

import html
from collections.abc import Callable

from PySide6 import QtCore, QtGui, QtWidgets

from gpumem_gui.core.allocator.remedies import Explanation, explain
from gpumem_gui.core.analysis.breakdown import SiteBytes
from gpumem_gui.core.analysis.diagnosis import Diagnosis, Moment, page_size_text
from gpumem_gui.core.analysis.explain_output import REPLAY_NOTE, pools_note
from gpumem_gui.core.analysis.timetravel import DeviceTimeline
from gpumem_gui.core.snapshot.model import Snapshot
from gpumem_gui.core.snapshot.units import format_bytes
from gpumem_gui.views.common import palette
from gpumem_gui.views.common.language import QT_TRANSLATE_NOOP, Retranslated, filled, localized, translate
from gpumem_gui.views.common.rich_text import rich_text
from gpumem_gui.views.common.sentences import said
from gpumem_gui.views.diagnosis.breakdown_view import share, summary_html, text_bar

TOP_SITES = 10  # sites listed in the panel (the breakdown view shows them all)


def explain_job(
    snapshot: Snapshot,
    device: int | None,
    at: int | None,
    timeline: DeviceTimeline | None,
    check: Callable[[], None] | None = None,
) -> Explanation:
    """The explanation, for a task off the GUI thread: replays one after another (forking from a process with
    threads may deadlock), `check()` between them (it raises to cancel), the document's timeline reused."""
    return explain(snapshot, device, at, parallel=False, timeline=timeline, check=check)


def moment_text(moment: Moment) -> str:
    """The moment in a few words: "OOM at event 203", "peak of allocated at event 12", "at the snapshot"."""
    event = localized(f"{moment.event:,}") if moment.event is not None else ""
    if moment.kind == "oom":
        return translate("ExplainPanel", "OOM at event {event}").format(event=event)
    if moment.kind == "peak":
        return translate("ExplainPanel", "peak of allocated at event {event}").format(event=event)
    if moment.kind == "snapshot" or moment.event is None:
        return translate("ExplainPanel", "at the snapshot")
    if moment.event < 0:
        return translate("ExplainPanel", "before the first event")
    return translate("ExplainPanel", "at event {event}").format(event=event)


class ExplainPanel(Retranslated):
    """The explanation of one moment as one selectable document: the moment (a link to it), what happened, the key
    figures, what holds the memory, and the remedies replayed, each with an "Open comparison" link."""

    travel_requested = QtCore.Signal(int)  # the moment's event, when its link is clicked
    remedy_chosen = QtCore.Signal(object, int, int)  # the Explanation, a remedy's index in it, the event to compare at
    site_selected = QtCore.Signal(str)  # a site's label, when it is clicked

    def __init__(self, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        self.explanation: Explanation | None = None
        self.text = QtWidgets.QTextBrowser()
        self.text.setOpenLinks(False)  # links are actions of the panel, not pages
        self.text.setWordWrapMode(QtGui.QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)  # long paths too
        self.text.anchorClicked.connect(self._clicked)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.text)
        self._shown: tuple[str, object] = ("clear", None)
        self.clear()

    def retranslate(self) -> None:
        kind, value = self._shown
        if kind == "running":
            self.show_running(str(value))
        elif kind == "error":
            self.show_error(str(value))
        elif kind == "explanation" and self.explanation is not None:
            self.show_explanation(self.explanation)
        else:
            self.clear()

    def clear(self) -> None:
        self.explanation = None
        self._shown = ("clear", None)
        hint = translate("ExplainPanel", "Explain an OOM or the peak to see why.")
        self._set_html(f'<p style="color: {palette.TEXT_MUTED};">{hint}</p>')

    def show_running(self, what: str = "") -> None:
        """Shown while the explanation's job runs (the replays take a while)."""
        self.explanation = None
        self._shown = ("running", what)
        if what:
            explaining = translate("ExplainPanel", "explaining {what}...").format(what=html.escape(what))
        else:
            explaining = translate("ExplainPanel", "explaining...")
        replayed = translate(
            "ExplainPanel",
            "The recorded allocations are replayed under each candidate setting; this takes a few seconds on long "
            "traces.",
        )
        self._set_html(f'<p><b>{explaining}</b></p><p style="color: {palette.TEXT_MUTED};">{replayed}</p>')

    def show_error(self, message: str) -> None:
        self.explanation = None
        self._shown = ("error", message)
        cannot = translate("ExplainPanel", "Could not explain:")
        self._set_html(f"<p><b>{cannot}</b> {html.escape(message)}</p>")

    def show_explanation(self, explanation: Explanation) -> None:
        self.explanation = explanation
        self._shown = ("explanation", None)
        d = explanation.diagnosis
        parts = [_header(d), _section(translate("ExplainPanel", "What happened")), _paragraphs(d.findings)]
        parts += [_section(translate("ExplainPanel", "What to try")), _remedies(explanation)]
        parts += [_section(translate("ExplainPanel", "Key figures")), _figures(d)]
        parts += [_section(translate("ExplainPanel", "What holds the memory")), _sites(d), summary_html(d.breakdown)]
        self._set_html("".join(parts))

    def text_content(self) -> str:
        return self.text.toPlainText()

    def _set_html(self, text: str) -> None:
        self.text.setHtml(rich_text(f'<div style="color: {palette.TEXT};">{text}</div>'))

    def _clicked(self, url: QtCore.QUrl) -> None:
        e = self.explanation
        if e is None:
            return
        kind, _, value = url.toString().partition(":")
        event = e.diagnosis.moment.event
        if kind == "event" and event is not None:
            self.travel_requested.emit(event)
        elif kind == "remedy":
            moment = e.diagnosis.timeline.n_events - 1 if event is None else event
            self.remedy_chosen.emit(e, int(value), moment)
        elif kind == "site":
            self.site_selected.emit(_sorted_sites(e.diagnosis)[int(value)].site)


def _section(title: str) -> str:
    return f'<h3 style="margin-top: 12px; margin-bottom: 4px;">{html.escape(title)}</h3>'


def _paragraphs(sentences: list[str]) -> str:
    # the core's sentences, in the window's language (said)
    return "".join(f'<p style="margin-bottom: 4px;">{html.escape(said(s))}</p>' for s in sentences)


def _header(d: Diagnosis) -> str:
    what = html.escape(moment_text(d.moment))
    if d.moment.event is not None:
        what = f'<a href="event:{d.moment.event}">{what}</a>'
    n = d.timeline.n_events
    of = (
        filled(translate("ExplainPanel", " (of {n} {n:event|events})"), {"n": f"{n:,}"})
        if n and d.moment.event is not None
        else ""
    )
    tip = translate("ExplainPanel", " Click the moment to travel there.") if d.moment.event is not None else ""
    device = translate("ExplainPanel", "Device {device}:").format(device=d.device)
    return f'<h2>{device} {what}{of}</h2><p style="color: {palette.TEXT_MUTED};">{html.escape(d.file)}.{tip}</p>'


def _figures(d: Diagnosis) -> str:
    m = d.report.metrics
    rows = [
        (translate("ExplainPanel", "allocated"), m.allocated_bytes),
        (translate("ExplainPanel", "reserved"), m.reserved_bytes),
        (translate("ExplainPanel", "free in the cache"), m.free_bytes),
        (translate("ExplainPanel", "largest free block"), m.largest_free_block_bytes),
    ]
    o = d.oom
    if o is not None:
        pool = translate("ExplainPanel", "small") if o.small_pool else translate("ExplainPanel", "large")
        needed = translate("ExplainPanel", "new segment needed")
        if o.expandable is not None:
            page = localized(page_size_text(o.expandable.page_bytes))
            needed = translate("ExplainPanel", "pages to map ({page} each)").format(page=page)
        in_pool = translate("ExplainPanel", "free in its pool ({pool}, stream {stream})")
        rows = [
            (translate("ExplainPanel", "request (rounded)"), o.request_bytes),
            (needed, o.segment_bytes),
            (translate("ExplainPanel", "device free (cudaMemGetInfo)"), o.device_free_bytes),
            (in_pool.format(pool=pool, stream=o.stream), o.pool_free_bytes),
            (translate("ExplainPanel", "largest hole in its pool"), o.largest_hole_bytes),
            (translate("ExplainPanel", "would have fitted up to"), o.fits_up_to_bytes),
            *rows,
        ]
    exact = translate("ExplainPanel", "{n} bytes")
    cells = "".join(
        f'<tr><td>{html.escape(name)}</td><td align="right"><b>{localized(format_bytes(v))}</b></td>'
        f'<td style="color: {palette.TEXT_MUTED};">{exact.format(n=localized(f"{v:,}"))}</td></tr>'
        for name, v in rows
    )
    return f'<table cellspacing="0" cellpadding="2">{cells}</table>'


def _sorted_sites(d: Diagnosis) -> list[SiteBytes]:
    return sorted(d.breakdown.by_site, key=lambda s: -s.bytes)


def _sites(d: Diagnosis) -> str:
    sites = _sorted_sites(d)
    total = d.breakdown.allocated_bytes
    if not sites:
        return "<p>{}</p>".format(translate("ExplainPanel", "Nothing is allocated at this moment."))
    cells = "".join(
        f'<tr><td align="right">{localized(format_bytes(s.bytes))}</td><td align="right">{share(s.bytes, total)}</td>'
        f'<td style="color: {palette.CURVES["allocated"]};">{text_bar(s.bytes / total if total else 0, 8)}</td>'
        f'<td align="right">{s.blocks:,}</td><td><a href="site:{k}">{html.escape(s.site)}</a></td></tr>'
        for k, s in enumerate(sites[:TOP_SITES])
    )
    largest = translate("ExplainPanel", " (the {top} largest of {n})").format(top=TOP_SITES, n=len(sites))
    more = largest if len(sites) > TOP_SITES else ""
    names = [translate("Columns", c) for c in ("bytes", "share", "blocks", "site")]
    head = (
        f'<tr><th align="right">{names[0]}</th><th align="right">{names[1]}</th><th></th>'
        f'<th align="right">{names[2]}</th><th align="left">{names[3]}{more}</th></tr>'
    )
    by_site = translate("ExplainPanel", "By site")
    return f'<p><b>{by_site}</b></p><table cellspacing="0" cellpadding="2">{head}{cells}</table>'


def _remedies(e: Explanation) -> str:
    note_word = translate("ExplainPanel", "Note:")
    replayed = html.escape(said(REPLAY_NOTE))
    note = f'<p style="background-color: {palette.FOCUS_BACKGROUND};"><b>{note_word}</b> {replayed}</p>'
    out = [note]
    if e.baseline:
        out.append(_paragraphs([e.baseline]))
    assumed = pools_note(e.pools)  # a private pool the trace does not name, assumed by every replay here
    if assumed is not None:
        out.append(_paragraphs([assumed]))
    if e.remedies:
        rows = []
        cannot, yes = translate("ExplainPanel", "cannot judge"), translate("ExplainPanel", "yes")
        no, show = translate("ExplainPanel", "no"), translate("ExplainPanel", "Show")
        for k, r in enumerate(e.remedies):
            fits = (
                f'<span style="color: {palette.TEXT_MUTED};">{cannot}</span>'
                if not r.judged
                else f'<b style="color: {palette.RIGHT};">{yes}</b>'
                if r.fits
                else f'<b style="color: {palette.WRONG};">{no}</b>'
            )
            # what the changed trace assumes of the program change, on hover (the JSON's `assumes`)
            same = translate("ExplainPanel", "the program makes the same requests in the same order")
            assumes = html.escape(said(r.assumes) if r.assumes else same, quote=True)
            frees = "" if r.frees_bytes is None else localized(format_bytes(r.frees_bytes))
            what = html.escape(said(r.what))
            rows.append(
                f"<tr><td title=\"{assumes}\">{what}</td><td align='right'>{frees}</td><td>{fits}</td>"
                f"<td align='right'>{r.oom_events}</td>"
                f"<td align='right'>{localized(format_bytes(r.peak_reserved_bytes))}</td>"
                f'<td><a href="remedy:{k}" title="{assumes}">{show}</a></td></tr>'
            )
        words = [translate("ExplainPanel", w) for w in _REMEDY_COLUMNS]
        head = (
            f"<tr><th align='left'>{words[0]}</th><th align='right'>{words[1]}</th><th align='left'>{words[2]}</th>"
            f"<th align='right'>{words[3]}</th><th align='right'>{words[4]}</th><th></th></tr>"
        )
        out.append(f'<table cellspacing="0" cellpadding="3" border="1">{head}{"".join(rows)}</table>')
    out.append(_paragraphs(e.notes))
    return "".join(out)


_REMEDY_COLUMNS = (
    QT_TRANSLATE_NOOP("ExplainPanel", "change"),
    QT_TRANSLATE_NOOP("ExplainPanel", "frees now"),
    QT_TRANSLATE_NOOP("ExplainPanel", "fits"),
    QT_TRANSLATE_NOOP("ExplainPanel", "OOMs"),
    QT_TRANSLATE_NOOP("ExplainPanel", "peak reserved"),
)
