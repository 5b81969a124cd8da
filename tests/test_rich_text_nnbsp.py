"""French typography in rich text: the narrow no-break space (U+202F) the translations and the number formatting
write before : ; ? ! and in grouped numbers stays in every rich-text document of the window, and no line breaks at
it (Qt's HTML importer makes it an ordinary breakable space unless views/common/rich_text keeps it)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from PySide6 import QtGui

from gpumem_gui.assets import example_path
from gpumem_gui.core import load_snapshot
from gpumem_gui.core.analysis.first_look import Finding, first_look
from gpumem_gui.core.analysis.timetravel import build_timeline
from gpumem_gui.views.common import language
from gpumem_gui.views.common.language import translate
from gpumem_gui.views.common.rich_text import rich_text
from gpumem_gui.views.common.sentences import said
from gpumem_gui.views.diagnosis.explain_panel import ExplainPanel, explain_job
from gpumem_gui.views.snapshot.figures import FiguresPanel
from gpumem_gui.views.teach.quiz_markup import rich
from tests.test_figures_panel import GiB, metrics

NN = "\u202f"
WIDTHS = range(60, 400, 7)  # narrow panels: many lines, many places a line could break


def document(html: str, width: float | None = None) -> QtGui.QTextDocument:
    """`html` as a rich-text label or browser holds it; laid out at `width` where given, breaking at word boundaries
    only (a word wider than the line may otherwise break anywhere: an emergency, not the break looked for)."""
    doc = QtGui.QTextDocument()
    option = doc.defaultTextOption()
    option.setWrapMode(QtGui.QTextOption.WrapMode.WordWrap)
    doc.setDefaultTextOption(option)
    doc.setHtml(html)
    if width is not None:
        doc.setTextWidth(width)
        doc.size()  # lays it out
    return doc


def breaks_beside_narrow_spaces(doc: QtGui.QTextDocument) -> list[str]:
    """Each line of a paragraph that starts at a U+202F or right after one (a break where French glues), with the text
    around it. Table cells are left out: a column squeezed narrower than a word breaks anywhere, an emergency."""
    found = []
    block = doc.begin()
    while block.isValid():
        text, layout = block.text(), block.layout()
        starts = {layout.lineAt(i).textStart() for i in range(1, layout.lineCount())}
        if QtGui.QTextCursor(block).currentTable() is None:
            found += [text[max(0, p - 10) : p + 10] for p in starts if NN in text[p - 1 : p + 1]]
        block = block.next()
    return found


def test_qt_collapses_it_and_rich_text_keeps_it(qtbot: Any) -> None:
    sentence = f"Périphérique{NN}0{NN}: OOM, il reste 2{NN}520{NN}Mio"
    html = f"<p><b>Alerte</b> {sentence}</p>"
    assert document(html).toRawText() == "Alerte " + sentence.replace(NN, " ")  # Qt's importer: a plain space
    assert document(rich_text(html)).toRawText() == "Alerte " + sentence
    # an entity goes the same way as the character; an attribute is left as it is (a link keeps its target)
    assert NN not in document("a&#8239;: b").toRawText()
    linked = document(rich_text(f'<a href="x{NN}y">Ouvrir{NN}?</a>'))
    it = linked.begin().begin()
    assert it.fragment().charFormat().anchorHref() == f"x{NN}y" and linked.toRawText() == f"Ouvrir{NN}?"
    assert rich_text("<b>2 520</b>") == "<b>2 520</b>"


def test_no_line_breaks_at_it(qtbot: Any) -> None:
    sentence = f"<p>Le périphérique{NN}0 a manqué de mémoire{NN}: il reste 1{NN}501{NN}573{NN}632 octets{NN}!</p>"
    # where Qt's plain space lets a line break, the kept character does not
    plain_breaks = 0
    for w in WIDTHS:
        doc = document(sentence.replace(NN, " "), w)
        ends = [doc.begin().layout().lineAt(i).textStart() for i in range(1, doc.begin().layout().lineCount())]
        plain_breaks += sum(sentence.replace("<p>", "")[p - 1] == NN for p in ends)
        kept = document(rich_text(sentence), w)
        assert kept.toRawText().count(NN) == sentence.count(NN) and breaks_beside_narrow_spaces(kept) == [], w
    assert plain_breaks > 0  # the widths do make lines break where the space is, without the fix


@pytest.fixture(scope="module")
def fragmented() -> Any:
    snapshot = load_snapshot(example_path("fragmented_oom"))
    return explain_job(snapshot, None, None, build_timeline(snapshot, 0))


def _flat(text: str) -> str:
    return re.sub(r"[ \n]+", " ", text)


def test_explain_panel_in_french_keeps_it(qtbot: Any, fragmented: Any) -> None:
    language.set_language("fr")
    panel = ExplainPanel()
    qtbot.addWidget(panel)
    panel.show_error("rien")
    cannot = translate("ExplainPanel", "Could not explain:")
    assert cannot.endswith(f"{NN}:")  # the translation writes it
    assert panel.text.document().toRawText().startswith(f"{cannot} rien")
    panel.show_explanation(fragmented)
    doc = panel.text.document().clone()  # laid out here at each width (the browser lays its own out lazily)
    raw = _flat(doc.toRawText())
    findings = [said(s) for s in fragmented.diagnosis.findings]
    french = [f for f in findings if NN in f]
    assert french, "no finding with a narrow no-break space: the test would prove nothing"
    for finding in french:
        assert _flat(finding) in raw  # each one as the translation and the figures wrote it
    for width in range(240, 900, 9):  # wide enough for every glued run: no word is broken anywhere
        doc.setTextWidth(width)
        doc.size()
        assert breaks_beside_narrow_spaces(doc) == [], width


def test_figures_findings_in_french_keep_it(qtbot: Any) -> None:
    language.set_language("fr")
    p = FiguresPanel()
    qtbot.addWidget(p)
    m = metrics(16 * GiB, 12 * GiB, 4 * GiB, GiB)
    found = [Finding("alert", f"Périphérique{NN}0{NN}: 2{NN}520 blocs", {}), *first_look(m)]
    p.set_metrics(m, "GPU 0", found)
    raw = _flat(document(p.findings_label.text()).toRawText())  # what the label's document holds
    texts = [said(f.text) for f in found]
    assert sum(NN in t for t in texts) >= 2  # ours and at least one of first_look's figures ("75 %", "2 520")
    for text in texts:
        assert _flat(text) in raw
    for width in WIDTHS:
        assert breaks_beside_narrow_spaces(document(p.findings_label.text(), width)) == [], width


def test_quiz_text_keeps_it(qtbot: Any) -> None:
    text = f"Que vaut `max_split_size_mb`{NN}? Environ 2{NN}520{NN}Mio."
    raw = document(rich(text)).toRawText()
    assert raw == f"Que vaut max_split_size_mb{NN}? Environ 2{NN}520{NN}Mio."
