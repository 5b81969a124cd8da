"""A size typed into the window reads as the window's language writes it (fr "1,5 Gio", "2 048 o"; ro "1,5 GiB",
"1.024 MiB") and as English always ("1.5 GiB", "80GB"): the What-if dialog's capacity, the search's size ranges,
and the sizes the hints suggest. Every expected count is worked out by hand (GiB = 2**30, MiB = 2**20)."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Any
from xml.etree import ElementTree

import pytest
from PySide6 import QtTest

from gpumem_gui.core.rules.allocator_constants import MiB
from gpumem_gui.translations import FOLDER
from gpumem_gui.views.common import language
from tests.test_document import _hand_made

NBSP, NNBSP = "\u00a0", "\u202f"
GiB = 1 << 30


@pytest.fixture
def in_language(qapp: object) -> Iterator[Any]:
    """Switch the window's language for the test (the conftest puts English back after it)."""
    yield language.set_language


CASES = {
    "fr": [
        ("1,5 Gio", 1_610_612_736),  # 1.5 * 1,073,741,824
        ("1,5\u00a0Gio", 1_610_612_736),  # as the window writes it: tied by a no-break space
        (f"1,5{NNBSP}Gio", 1_610_612_736),
        ("512 Mio", 536_870_912),  # 512 * 1,048,576
        ("2 048 o", 2_048),  # grouped with a plain space, French's octets
        (f"2{NNBSP}048{NBSP}o", 2_048),  # grouped as the window groups (U+202F)
        (f"1{NBSP}610{NBSP}612{NBSP}736 octets", 1_610_612_736),  # an exact count copied, "bytes" translated
        ("80Gio", 85_899_345_920),  # the What-if hint's own example
        ("0,5 Kio", 512),
        ("1,500 Gio", 1_610_612_736),  # French reads its own decimal comma first: 1.5, not 1,500
        # English forms too: a script's, a value copied from the CLI
        ("1.5 GiB", 1_610_612_736),
        ("80GB", 80_000_000_000),
        ("64MiB", 67_108_864),
        ("1,610,612,736 bytes", 1_610_612_736),  # no French number: English's grouping
        ("1000000", 1_000_000),
    ],
    "ro": [
        ("1,5 GiB", 1_610_612_736),
        ("1,5\u00a0GiB", 1_610_612_736),
        ("1.024 MiB", 1_073_741_824),  # "." groups thousands in Romanian: 1024 MiB
        ("1.610.612.736 octeți", 1_610_612_736),
        ("1.5 GiB", 1_610_612_736),  # no Romanian grouping: English's decimal point
        ("512MiB", 536_870_912),
        ("80GB", 80_000_000_000),
    ],
    "en": [
        ("1.5 GiB", 1_610_612_736),
        ("80GB", 80_000_000_000),
        ("512MiB", 536_870_912),
        ("1.5g", 1_610_612_736),
        ("1,536 KiB", 1_572_864),  # 1536 * 1024
        ("1,610,612,736 bytes", 1_610_612_736),
        ("2 TiB", 2_199_023_255_552),
    ],
}


@pytest.mark.parametrize(
    ("lang", "text", "expected"), [(lang, *case) for lang, cases in CASES.items() for case in cases]
)
def test_a_size_reads_as_the_language_writes_it_and_as_english(
    in_language: Any, lang: str, text: str, expected: int
) -> None:
    in_language(lang)
    assert language.parse_size(text) == expected


REJECTED = {
    "fr": ["abc", "-1 GiB", "1,5,5 Gio", "20 48 o", "Gio", "1,5 Go", ""],
    "ro": ["abc", "-1 GiB", "1,5,5 GiB", "1.5.5 GiB", "1 536 B"],
    "en": ["abc", "-1 GiB", "1,5 GiB", "2 048 B", "1.5 Gio"],  # French is read in French only
}


@pytest.mark.parametrize(("lang", "text"), [(lang, text) for lang, texts in REJECTED.items() for text in texts])
def test_what_is_no_size_is_refused(in_language: Any, lang: str, text: str) -> None:
    in_language(lang)
    with pytest.raises(ValueError) as refused:
        language.parse_size(text)
    said = {"fr": "pas une taille", "ro": "nu este o mărime", "en": "not a size"}[lang]  # in the window's language
    assert str(refused.value).startswith(said)


def test_the_refusal_is_said_in_the_window_language_with_examples_it_reads(in_language: Any) -> None:
    in_language("fr")
    with pytest.raises(ValueError) as refused:
        language.parse_size("abc")
    said = str(refused.value)
    assert (
        said == f"pas une taille{NNBSP}: «{NNBSP}abc{NNBSP}» (essayez 80{NBSP}Gio, 1,5{NBSP}Gio ou un nombre d'octets)"
    )
    # the examples it suggests are sizes it reads
    assert language.parse_size(f"80{NBSP}Gio") == 80 * GiB and language.parse_size(f"1,5{NBSP}Gio") == 1_610_612_736
    in_language("ro")
    with pytest.raises(ValueError) as refused:
        language.parse_size("abc")
    assert str(refused.value) == f"nu este o mărime: „abc” (încercați 80{NBSP}GiB, 1,5{NBSP}GiB sau un număr de octeți)"


def test_every_size_the_window_writes_reads_back(in_language: Any) -> None:
    for lang in ("en", "ro", "fr"):
        in_language(lang)
        for n in (512, 3 * 1024, 1_610_612_736, 80 * GiB):
            shown = language.size(n)  # one decimal: 1.5 GiB; 512 B; 3.0 KiB; 80.0 GiB, each exact here
            assert language.parse_size(shown) == n, (lang, shown)


def _translations(area: str, lang: str) -> dict[str, str]:
    root = ElementTree.parse(FOLDER / f"{area}_{lang}.ts").getroot()
    return {m.findtext("source") or "": m.findtext("translation") or "" for m in root.iter("message")}


# the hints that suggest a size to type, with the sizes each shows in fr and ro, worked out by hand
HINTS = [
    (
        "snapshot",
        "size? try 64MiB, 1.5 GiB, 1000000",
        {"64MiB": 64 * MiB, "1,5\u00a0{GiB}": 1_610_612_736, "1000000": 10**6},
    ),
    (
        "snapshot",
        "Only events of at least this size: 64MiB, 1.5 GiB, 1000000 (bytes)",
        {"64MiB": 64 * MiB, "1,5\u00a0{GiB}": 1_610_612_736, "1000000": 10**6},
    ),
    ("snapshot", "e.g. 64MiB", {"64MiB": 64 * MiB}),
    ("compare", "what an OOM saw, else 80GiB", {"80{GiB}": 80 * GiB}),
]


@pytest.mark.parametrize("lang", ["fr", "ro"])
def test_the_sizes_the_hints_suggest_are_read(in_language: Any, lang: str) -> None:
    in_language(lang)
    gib = {"fr": "Gio", "ro": "GiB"}[lang]
    for area, source, sizes in HINTS:
        hint = _translations(area, lang)[source]
        for shown, expected in sizes.items():
            example = shown.format(GiB=gib)
            assert example in hint, (lang, hint, example)
            assert language.parse_size(example) == expected
    search = _translations("snapshot", lang)["search: stack text, 0x or decimal address, or size range like 1MiB-20MiB"]
    assert "1MiB-20MiB" in search


def test_typing_a_french_size_into_the_what_if_dialog_gives_its_capacity(in_language: Any, qtbot: Any) -> None:
    from gpumem_gui.views.compare.whatif_view import WhatIfDialog  # noqa: PLC0415

    in_language("fr")
    dialog = WhatIfDialog()
    qtbot.addWidget(dialog)
    assert dialog.capacity.placeholderText() == "ce qu'a vu un OOM, sinon 80Gio"
    QtTest.QTest.keyClicks(dialog.capacity, "1,5 Gio")
    assert dialog.capacity_bytes() == 1_610_612_736
    dialog.capacity.clear()
    QtTest.QTest.keyClicks(dialog.capacity, "80Gio")  # what its hint suggests
    assert dialog.capacity_bytes() == 80 * GiB
    dialog.capacity.setText("40GiB")  # English, as a script or the CLI writes it
    assert dialog.capacity_bytes() == 40 * GiB
    dialog.capacity.setText("quarante")
    with pytest.raises(ValueError, match="pas une taille"):
        dialog.capacity_bytes()
    dialog.capacity.clear()
    assert dialog.capacity_bytes() is None


def test_a_search_range_reads_the_sizes_of_the_language_it_was_typed_in(in_language: Any, qtbot: Any) -> None:
    from gpumem_gui.document.document import LAYOUTS  # noqa: PLC0415
    from gpumem_gui.views.snapshot.tab import SnapshotTab  # noqa: PLC0415

    doc, _ = _hand_made()  # live blocks of 5 MiB and 2 MiB (the 3 MiB one freed)
    sizes = doc.frame().state.blocks.size
    # the document alone: English by default, the reader handed down otherwise
    english = doc.set_search("4MiB-6MiB").search_mask
    assert english is not None and sizes[english].tolist() == [5 * MiB]
    unread = doc.set_search("1,5 Mio-2 048 Kio").search_mask  # not English: searched as stack text, found nowhere
    assert unread is not None and not unread.any()
    french = doc.set_search("1,5 Mio-2 048 Kio", functools.partial(language.parse_size, lang="fr")).search_mask
    assert french is not None and sizes[french].tolist() == [2 * MiB]  # 1.5 MiB to 2 MiB
    # the tab hands down the window's language, fixed when the search is typed
    in_language("fr")
    tab = SnapshotTab(doc)
    qtbot.addWidget(tab)
    tab.search.setText("4,5 Mio-5 120 Kio")  # 4.5 MiB to 5 MiB
    tab.apply_search()
    mask = tab.document.frame().search_mask
    assert mask is not None and sizes[mask].tolist() == [5 * MiB]
    in_language("en")
    before = tab.document.frame()
    other = next(layout for layout in LAYOUTS if layout != tab.document.layout)
    again = tab.document.set_layout(*other)  # a new frame after the switch, searched again: the same blocks
    assert again is not before and again.search_mask is not None and sizes[again.search_mask].tolist() == [5 * MiB]
