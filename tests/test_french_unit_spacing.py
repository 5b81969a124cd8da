"""A size in French (and Romanian) keeps its number and its unit on one line: the one figure writer ties them with a
no-break space (U+00A0), which Qt's HTML importer keeps and no wrapped label, plain or rich, breaks at; English
keeps its plain space (the CLI's and JSON's)."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest
from PySide6 import QtCore, QtGui, QtWidgets

import quizzes
import resources
from gpumem_gui.core.snapshot.units import format_bytes_exact, parse_bytes
from gpumem_gui.teach.demos.wording import localize
from gpumem_gui.translations import FOLDER
from gpumem_gui.views.common import language
from gpumem_gui.views.common.rich_text import rich_text

NBSP, NNBSP = "\u00a0", "\u202f"


@pytest.fixture
def french(qapp: object) -> Iterator[None]:
    language.set_language("fr")
    try:
        yield
    finally:
        language.set_language("en")


def test_sizes_are_tied_to_their_unit_in_french_and_romanian(french: None) -> None:
    # by hand: 1,610,612,736 B = 1.5 GiB; French counts octets and groups with U+202F, Romanian groups with "."
    assert language.size(1_610_612_736) == f"1,5{NBSP}Gio"
    assert language.size(512) == f"512{NBSP}o"
    assert language.signed_size(-3 * 2**20) == f"−3,0{NBSP}Mio"
    assert language.localized(format_bytes_exact(1_610_612_736)) == (
        f"1,5{NBSP}Gio (1{NNBSP}610{NNBSP}612{NNBSP}736{NBSP}octets)"  # "bytes" translated after its tied space
    )
    assert language.localized("12 MB") == f"12{NBSP}MB"  # max_split_size_mb's decimal megabytes: a size too
    assert language.unit_word("GiB") == "Gio" and language.unit_word("B") == "o"
    assert localize("1.5 GiB", "ro") == f"1,5{NBSP}GiB" and localize("2,520.0 KiB", "ro") == f"2.520,0{NBSP}KiB"
    assert localize("41.9%", "fr") == f"41,9{NBSP}%"  # CLDR's space before %, the same character
    # a count and its noun are words, not a size: left as they were
    assert localize("2,520", "fr") == f"2{NNBSP}520"


def test_english_keeps_its_plain_space(qapp: object) -> None:
    assert language.current_language() == "en"
    assert language.size(1_610_612_736) == "1.5 GiB" and language.size(512) == "512 B"
    assert localize("1.5 GiB (1,610,612,736 bytes)", "en") == "1.5 GiB (1,610,612,736 bytes)"


def test_a_size_copied_from_a_label_still_parses() -> None:
    assert parse_bytes(f"512{NBSP}MiB") == 512 * 2**20  # a Romanian label's "512 MiB", pasted into a size box
    assert parse_bytes(" 80 GiB ") == 80 * 2**30 and parse_bytes("1.5g") == 3 * 2**29


def _lines(layout: QtGui.QTextLayout, text: str) -> list[str]:
    return [text[layout.lineAt(i).textStart() :][: layout.lineAt(i).textLength()] for i in range(layout.lineCount())]


def plain_lines(text: str, width: float, font: QtGui.QFont) -> list[str]:
    """`text` laid out as a word-wrapped plain-text QLabel lays it (QStyle::drawItemText with Qt::TextWordWrap: a
    QTextLayout breaking at word boundaries only), `width` wide."""
    layout = QtGui.QTextLayout(text, font)
    option = QtGui.QTextOption()
    option.setWrapMode(QtGui.QTextOption.WrapMode.WordWrap)
    layout.setTextOption(option)
    layout.beginLayout()
    while (line := layout.createLine()).isValid():
        line.setLineWidth(width)
    layout.endLayout()
    return _lines(layout, text)


def rich_lines(html: str, width: float, font: QtGui.QFont) -> tuple[list[str], str]:
    """The lines of `html`'s one paragraph as a rich-text label's document lays it out, `width` wide, and its raw
    text (toPlainText would write U+00A0 as a plain space: Qt's export, not what is shown)."""
    doc = QtGui.QTextDocument()
    doc.setDefaultFont(font)
    doc.setDocumentMargin(0)
    option = doc.defaultTextOption()
    option.setWrapMode(QtGui.QTextOption.WrapMode.WordWrap)
    doc.setDefaultTextOption(option)
    doc.setHtml(rich_text(html))
    doc.setTextWidth(width)
    doc.size()  # lays it out
    block = doc.firstBlock()
    return _lines(block.layout(), block.text()), doc.toRawText()


def test_a_narrow_label_never_parts_a_french_size(french: None) -> None:
    shown = f"Réservé {language.size(1_610_612_736)}"
    assert shown == f"Réservé 1,5{NBSP}Gio"
    font = QtGui.QFont()
    metrics = QtGui.QFontMetricsF(font)
    # room for "Réservé 1,5" and not for "Réservé 1,5 Gio": where a breakable space would leave "Gio" alone
    width = metrics.horizontalAdvance("Réservé 1,5") + 2
    assert width < metrics.horizontalAdvance(shown)
    # the control, by hand: with a plain space the line ends at "1,5" and "Gio" starts the next one
    assert plain_lines("Réservé 1,5 Gio", width, font) == ["Réservé 1,5 ", "Gio"]
    assert rich_lines("<p><span style='color:#808080'>Réservé</span> 1,5 Gio</p>", width, font)[0] == [
        "Réservé 1,5 ",
        "Gio",
    ]
    # tied: the line breaks before the size, which moves whole to the next line
    assert plain_lines(shown, width, font) == ["Réservé ", f"1,5{NBSP}Gio"]
    lines, raw = rich_lines(
        f"<p><span style='color:#808080'>Réservé</span> {language.size(1_610_612_736)}</p>", width, font
    )
    assert lines == ["Réservé ", f"1,5{NBSP}Gio"]
    assert raw == shown  # Qt's HTML importer keeps U+00A0 as it is (unlike U+202F, which rich_text must keep)


def test_a_wrapped_qlabel_too_narrow_for_a_size_keeps_it_on_one_line(qtbot: Any, french: None) -> None:
    label = QtWidgets.QLabel()
    qtbot.addWidget(label)
    label.setWordWrap(True)
    label.setContentsMargins(0, 0, 0, 0)
    one_line = QtGui.QFontMetrics(label.font()).height()
    narrow = QtGui.QFontMetrics(label.font()).horizontalAdvance("1,5") + 2  # "1,5" fits, "1,5 Gio" does not
    for text_format in (QtCore.Qt.TextFormat.PlainText, QtCore.Qt.TextFormat.RichText):
        label.setTextFormat(text_format)
        label.setText("1,5 Gio")  # the control: a plain space wraps "Gio" onto a second line
        assert label.heightForWidth(narrow) == 2 * one_line, text_format
        label.setText(language.size(1_610_612_736))
        assert label.heightForWidth(narrow) == one_line, text_format  # one line, however narrow


# a size written in a text by hand (the quiz files, the lessons, the translations): a number, a space, a byte unit
_LOOSE_SIZE = re.compile(r"\d (?:[KMGTP]i?B|[KMGTP]?io|octets?|octeți)\b")


def _ro_fr_texts(obj: object, where: str) -> Iterator[tuple[str, str]]:
    if isinstance(obj, dict):
        for key, value in obj.items():
            if key in ("ro", "fr") and isinstance(value, str):
                yield f"{where}.{key}", value
            else:
                yield from _ro_fr_texts(value, f"{where}.{key}")
    elif isinstance(obj, list):
        for i, value in enumerate(obj):
            yield from _ro_fr_texts(value, f"{where}[{i}]")


def test_sizes_written_by_hand_are_tied_too() -> None:
    """The quiz files, the lessons and the translations write their own sizes ("1,5 Gio", "512 octets") as the figure
    writer does: tied by a no-break space in French and Romanian (48 plain spaces in the files, 18 in the
    translations, before this)."""
    files = sorted(Path(quizzes.__file__).parent.glob("*.toml")) + sorted(
        Path(resources.__file__).parent.rglob("*.toml")
    )
    texts = [t for f in files for t in _ro_fr_texts(tomllib.loads(f.read_text(encoding="utf-8")), f.name)]
    for ts in sorted(FOLDER.glob("*_ro.ts")) + sorted(FOLDER.glob("*_fr.ts")):
        texts += [(ts.name, t.text or "") for t in ElementTree.parse(ts).iter("translation")]
    assert len(texts) > 1000 and any("\u00a0Gio" in t for _, t in texts)
    loose = [(where, m.group(0)) for where, t in texts for m in _LOOSE_SIZE.finditer(t)]
    assert not loose, loose
