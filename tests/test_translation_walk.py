"""The window in Romanian and in French leaves no English: every page of a snapshot tab (the bundled fragmented OOM
and a real snapshot), its diagnosis pages, the menus and the start page, walked widget by widget after a switch."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from PySide6 import QtWidgets

from gpumem_gui.app.window import MainWindow
from gpumem_gui.assets import example_path
from gpumem_gui.views.common import language
from tests.conftest import fixture_path
from tests.translation_walk import (
    english_left,
    english_words,
    opened_window,
    shown_text,
    visible_texts,
    visit_every_page,
)
from tests.translation_walk import settle as _settle
from tests.translation_walk import switch_language as _switch

# what stays as it is in every language: data and names from the file (the example's and the fixture's frames,
# code names torch prints), none of them the window's own words
ALLOWED = ("inactive",)  # torch's name of a free block's state (active_allocated, active_pending_free are code)
FIXTURE = "felix_dump_a.pickle"


@pytest.fixture(scope="module")
def window(qapp: QtWidgets.QApplication) -> Iterator[MainWindow]:
    """One window for the module, with the example and a real snapshot open, every part of their tabs made."""
    with opened_window([str(example_path("fragmented_oom")), str(fixture_path(FIXTURE))], visit_every_page) as win:
        yield win


def _english_in(window: MainWindow) -> list[str]:
    return english_left(visible_texts(window) + visible_texts(window.start_page), ALLOWED)


@pytest.mark.parametrize("lang", ["ro", "fr"])
def test_no_english_is_left_in_the_window(window: MainWindow, lang: str) -> None:
    _switch(window, lang)
    assert language.current_language() == lang
    left = _english_in(window)
    assert left == [], f"{len(left)} texts in English after switching to {lang}:\n" + "\n".join(left)


def test_switching_back_to_english_shows_english_again(window: MainWindow) -> None:
    _switch(window, "fr")
    _switch(window, "en")
    assert window.file_menu.title() == "&File"
    texts = [text for _, text in visible_texts(window)]
    assert "cached free" in texts
    assert any(english_words(text) for text in texts)  # the walk sees English where there is English


def test_the_walk_finds_english_where_it_is_left(qtbot: Any) -> None:
    # a widget nobody translated is caught in every place the walk reads
    box = QtWidgets.QGroupBox("Memory by pool")
    qtbot.addWidget(box)
    QtWidgets.QLabel("<b>cached free:</b> a hole", box)
    QtWidgets.QComboBox(box).addItem("all streams")
    edit = QtWidgets.QLineEdit(box)
    edit.setPlaceholderText("search the stack")
    edit.setToolTip("torch.cuda.empty_cache() expandable_segments:True 1.5 GiB")  # code and units only
    left = english_left(visible_texts(box))
    assert [line.split(":")[0] for line in left] == ["QGroupBox", "QLabel", "QComboBox entry", "QLineEdit placeholder"]
    assert english_words("libre en cache : un trou de 1,5 Gio, empty_cache()") == []
    assert english_words("liber în cache: un gol de 1,5 GiB") == []


def test_the_quiz_and_the_window_share_one_language(window: MainWindow) -> None:
    panel = window.quiz_panel()
    _switch(window, "ro")
    assert panel.language == "ro" and panel.language_combo.currentData() == "ro"  # View > Language moves the quiz
    panel.language_combo.setCurrentIndex(panel.language_combo.findData("fr"))  # the quiz's combo moves the window
    _settle()
    assert language.current_language() == "fr"
    assert [a.data() for a in window.language_group.actions() if a.isChecked()] == ["fr"]
    assert window.file_menu.title() == "&Fichier"
    assert window.settings.value(language.SETTING) == "fr" and window.settings.value("quiz/language") == "fr"
    window.teach.quiz_dock.close()  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        # the example's OOM: event 203 of 204, a request of 1.5 GiB (its inspector says so in English)
        ("ro", ("alertă", "OOM la evenimentul 203", "o cerere de 1,5\u00a0GiB", "evenimentul 203 din 204: OOM")),
        (
            "fr",
            (
                "alerte",
                "OOM à l'événement 203\u202f:",
                "une demande de 1,5\u00a0Gio",
                "événement 203 sur 204\u202f: OOM",
            ),
        ),
    ],
)
def test_core_findings_and_figures_read_in_the_language(window: MainWindow, lang: str, said: tuple[str, ...]) -> None:
    _switch(window, lang)
    window.tabs.setCurrentIndex(0)
    tab = window.current_document()
    assert tab is not None
    labels = [tab.figures.findings_label, tab.inspector.heading, tab.notes.opened_line]
    shown = "\n".join(shown_text(label.text()) for label in labels)
    assert all(part in shown for part in said), shown
    assert tab.figures.values["reserved_bytes"].text() == ("15,3\u00a0Gio" if lang == "fr" else "15,3\u00a0GiB")
