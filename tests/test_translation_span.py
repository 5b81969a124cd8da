"""A time span reads in Romanian and in French: made with two marks in a window (the bundled fragmented OOM and
training_leak examples), its page, its name in the list, the steps listed, the map's caption of what it left
behind, the event list scoped to it, the flame graph of it and a clicked rectangle's caption, the marks' menus:
walked widget by widget after a switch, no English left, and the figures in them written as the language writes
them."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import pytest
from PySide6 import QtWidgets

from gpumem_gui.app.window import MainWindow
from gpumem_gui.assets import example_path
from gpumem_gui.core.analysis.span import Span
from gpumem_gui.views.snapshot.tab import SnapshotTab
from tests.translation_walk import english_left, opened_window, visible_texts, wait_until
from tests.translation_walk import settle as _settle
from tests.translation_walk import switch_language as _switch

ALLOWED = ("inactive",)  # torch's name of a free block's state, as in test_translation_walk
ENGLISH_FROM_BELOW = ("settings_from_document",)  # as in test_translation_walk: the allocator settings' page
# the spans made: (example, first mark, second mark); training_leak's ends past event 1,000, a grouped number
SPANS = (("fragmented_oom", 50, 150), ("training_leak", 99, 1070))
# a code frame as the block table names it, `function (file.py:line)`: the file's, not the window's words
FRAME = re.compile(r"^\w+ \([\w.]+:\d+\)$")
NARROW = "\u202f"  # French groups thousands and puts before a colon a narrow no-break space


@pytest.fixture(scope="module")
def window(qapp: QtWidgets.QApplication) -> Iterator[MainWindow]:
    with opened_window([str(example_path(name)) for name, _a, _b in SPANS], size=(1500, 950)) as win:
        yield win


def _wait(done: Callable[[], object], what: str) -> None:
    wait_until(done, what, seconds=30)


def _span_made(window: MainWindow, index: int) -> SnapshotTab:
    """Tab `index` scoped to its span, made anew with two marks (M, then M) while the window is in English; its
    span page, event list and flame page visited, the report and the flame graph in."""
    name, first, second = SPANS[index]
    window.tabs.setCurrentIndex(index)
    tab = window.tabs.widget(index)
    assert isinstance(tab, SnapshotTab)
    _wait(lambda: not tab.settling() and tab.scope is not None, f"{name}'s tab")
    scope = tab.scope
    assert scope is not None
    scope.marks.clear()
    _settle()
    for event in (first, second):
        tab.travel_to(event)
        tab.timeline_view.set_event(event, emit=False)
        scope.marks.set_mark()  # what M does
    span = Span(first, second)
    assert tab.document.span == span
    panel = scope.span_panel
    _wait(lambda: panel.report is not None and panel.report.span == span, "the span's report")
    _wait(lambda: tab.frame.spotlight is not None, "the map's light on what the span left behind")
    tab.side_tabs.setCurrentWidget(tab.event_list)
    _settle()
    tab.curve_tabs.setCurrentWidget(scope.flame_page)
    _wait(lambda: scope.flame_frame is not None and not scope.flame_page._waiting, "the flame graph")
    tab.side_tabs.setCurrentWidget(panel)
    _settle()
    return tab


def _english_in(window: MainWindow, tab: SnapshotTab) -> list[str]:
    scope = tab.scope
    assert scope is not None
    texts = visible_texts(window)
    texts += [("curves' right click", text) for text, _act in scope.marks.actions_at(tab.current_event)]
    frame = scope.flame_frame
    assert frame is not None and len(frame) > 1
    texts += [("flame tooltip", scope.flame_page.graph.tooltip_of(row)) for row in range(min(len(frame), 5))]
    kept = [
        (where, text)
        for where, text in texts
        if not any(name in where for name in ENGLISH_FROM_BELOW) and not FRAME.match(text)
    ]
    return english_left(kept, ALLOWED)


@pytest.mark.parametrize("lang", ["ro", "fr"])
@pytest.mark.parametrize("index", [0, 1], ids=[name for name, _a, _b in SPANS])
def test_a_span_leaves_no_english(window: MainWindow, lang: str, index: int) -> None:
    _switch(window, "en")
    tab = _span_made(window, index)
    _switch(window, lang)  # made in English, worded again on the switch
    left = _english_in(window, tab)
    assert left == [], f"{len(left)} texts in English around a span in {lang}:\n" + "\n".join(left)
    # a clicked flame rectangle's caption over the map
    scope = tab.scope
    assert scope is not None and scope.flame_frame is not None
    scope.light(scope.flame_frame, 1)
    _settle()
    caption = tab.map.focus_caption.text()
    assert caption and english_left([("map caption", caption)], ALLOWED) == [], caption


@pytest.mark.parametrize(
    ("lang", "events", "unit"),
    [
        # events 100 to 1,070 of training_leak, the thousands grouped as the language groups them; sizes with a
        # decimal comma, French counting octets
        ("ro", "evenimentele 100 până la 1.070", "GiB"),
        ("fr", f"événements 100 à 1{NARROW}070", "Gio"),
    ],
)
def test_a_span_s_figures_are_written_as_the_language_writes_them(
    window: MainWindow, lang: str, events: str, unit: str
) -> None:
    _switch(window, "en")
    tab = _span_made(window, 1)
    _switch(window, lang)
    scope = tab.scope
    assert scope is not None
    page = scope.span_panel.text.toPlainText()  # (toPlainText makes U+00A0 a plain space; U+202F stays, kept)
    caption = tab.map.focus_caption.text()
    assert events in page  # the narrow no-break space survives the rich text (views/common/rich_text)
    assert events in caption and events in scope.span_panel.span_box.currentText()
    assert "1,070" not in page + caption  # no English grouping left
    assert re.search(rf"^[+-]?\d+,\d {unit}$", page, re.MULTILINE), page  # the figures' table: "+1,2 Gio"
    assert "GiB" not in page if unit == "Gio" else "Gio" not in page
    colon = f"{NARROW}:" if lang == "fr" else ":"
    assert caption.startswith(events + colon), caption  # French puts a narrow no-break space before a colon
    summary = scope.flame_page.summary.text()  # the flame graph's line: its cost and what it weighs
    assert colon + " " in summary and re.search(rf"\d,\d\u00a0{unit}$", summary), summary
    # the event list scoped to the span: its last event's number and its time as the language writes them
    model = tab.event_list.model
    last = model.index(model.rowCount() - 1, 0)
    assert model.data(last) == events.rsplit(" ", 1)[1]
    time = model.data(last.siblingAtColumn(1))
    assert re.fullmatch(r"\+[\d ]*\d+,\d+ \w+", time.replace("min ", "")), time
    listed = [scope.span_panel.span_box.itemText(i) for i in range(scope.span_panel.span_box.count())]
    steps = [text for text in listed if text.endswith(")")]
    step = "pasul 6 (evenimentele 916 până la 1.079)" if lang == "ro" else f"pas 6 (événements 916 à 1{NARROW}079)"
    assert len(steps) == 6 and steps[-1] == step, listed
