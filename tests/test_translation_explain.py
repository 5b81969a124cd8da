"""The diagnosis in Romanian and French: the explanation of an OOM or a peak, its remedies and what each assumes, the
file's notes and the category rules, sentences the Qt-free core writes (core/snapshot/sentences.py), leave no English
in the window; and every one of those templates keeps its fields and writes its figures as each language does."""

from __future__ import annotations

import copy
import html
import json
import pickle
import re
import string
import xml.etree.ElementTree as ET
from collections.abc import Iterator

import pytest
from PySide6 import QtCore, QtWidgets

from gpumem_gui.app.window import MainWindow
from gpumem_gui.assets import example_path
from gpumem_gui.core.analysis import explain_output, replay_warnings
from gpumem_gui.core.analysis.categories import RULE_TEXTS
from gpumem_gui.core.snapshot.origin import PROFILER_FORM, PROFILER_SENTENCE, SYNTHETIC_SPACE
from gpumem_gui.core.snapshot.sentences import Sentence, joined, say
from gpumem_gui.translations import FOLDER
from gpumem_gui.views.common import language
from gpumem_gui.views.common.sentences import said
from gpumem_gui.views.snapshot.tab import SnapshotTab
from tests.translation_walk import (
    english_left,
    english_words,
    opened_window,
    visible_texts,
    visit_every_page,
    wait_until,
)
from tests.translation_walk import settle as _settle
from tests.translation_walk import snapshot_tabs as _tabs
from tests.translation_walk import switch_language as _switch

EXAMPLES = ("fragmented_oom", "split_blocks_oom", "training_leak")
# widgets whose sentences another part of the work translates (document.settings_page), as test_translation_walk
ENGLISH_FROM_BELOW = ("settings_from_document",)
ALLOWED = ("inactive",)
# what this test does not hold to, cut out of the texts before they are read (each said why)
NOT_THESE = re.compile(
    "|".join(
        (
            r"^block\b",  # training_leak's own function named `block` (transformer.py:120), a site: data
            # the core's names of sites without a Python line (core/snapshot/stacks.py, backward_nodes.py,
            # site_tree.py, site_series.py): labels the views also use as keys (a site picked lights it up)
            r"native code \(no Python frame\)",
            r"accumulating a parameter's \.grad \(AccumulateGrad\), forward line not recorded",
            r"other \(\d+ sites\)",
            r"step \d+ \(events [\d,]+ to [\d,]+\)",  # the training steps in the span chooser: the span texts' work
            r"\S+ to \S+\.py:\d+",  # a folded stack's frames (file:line to file:line), data
        )
    ),
    re.MULTILINE,
)
# the contexts of the core's sentences (the .ts of the diagnosis area holds them)
CORE_CONTEXTS = ("Diagnosis", "Explain", "Remedies", "Warnings", "CategoryRules", "Growth")


def _visit(tab: SnapshotTab) -> None:
    """Every page of the side panel and the curves shown once; a categorized block's details; the explanation of
    the OOM (else the peak) computed and shown, with its remedies."""
    visit_every_page(tab)
    doc = tab.document
    live = [i for i in range(len(tab.state.blocks)) if doc.block_details(i).category]
    assert live, "no block with a category"
    tab.select_block(live[0])  # the block page: its category and the rule that chose it
    pages = tab.diagnosis
    pages.tabs.setCurrentWidget(pages.growth)
    wait_until(lambda: pages.growth.growth is not None, "the growth")
    pages.explain()
    wait_until(lambda: pages.explain_panel.explanation is not None, "the explanation")
    _settle()


@pytest.fixture(scope="module")
def window(qapp: QtWidgets.QApplication) -> Iterator[MainWindow]:
    with opened_window([str(example_path(name)) for name in EXAMPLES], _visit) as win:
        yield win


def test_the_diagnosis_pages_are_shown_in_english_first(window: MainWindow) -> None:
    # the walk below reads what these pages hold: the explanation's sentences, its remedies, the block's rule
    _switch(window, "en")
    for tab in _tabs(window):
        text = tab.diagnosis.explain_panel.text_content()
        assert "What happened" in text and "What to try" in text
        explanation = tab.diagnosis.explain_panel.explanation
        assert explanation is not None and explanation.remedies and explanation.notes
        assert all(isinstance(s, Sentence) for s in explanation.diagnosis.findings)
        assert explanation.diagnosis.findings[0].split(" ", 2)[:2] == ["Device", "0"]
        assert "category" in html.unescape(tab.block_page.details.toHtml())  # type: ignore[attr-defined]


@pytest.mark.parametrize("lang", ["ro", "fr"])
def test_no_english_is_left_in_the_diagnosis(window: MainWindow, lang: str) -> None:
    _switch(window, lang)
    texts = visible_texts(window)
    kept = [
        (where, NOT_THESE.sub(" ", text)) for where, text in texts if not any(n in where for n in ENGLISH_FROM_BELOW)
    ]
    left = english_left(kept, ALLOWED)
    # what a remedy assumes is its row's tooltip (a title in the panel's rich text, which the walk does not read)
    for tab in _tabs(window):
        explanation = tab.diagnosis.explain_panel.explanation
        assert explanation is not None
        for r in explanation.remedies:
            left += [f"remedy: {english_words(t, ALLOWED)} in {t!r}" for t in (said(r.what), said(r.assumes))]
        left += [f"rule: {t!r}" for t in map(said, RULE_TEXTS) if english_words(t, ALLOWED)]
    left = [line for line in left if "[]" not in line.split(" in ")[0]]
    assert left == [], f"{len(left)} texts in English after switching to {lang}:\n" + "\n".join(left)


@pytest.mark.parametrize(
    ("lang", "said_there"),
    [
        # fragmented_oom: the OOM at event 203 of 204, a request of 1.5 GiB (1,610,620,928 bytes)
        (
            "ro",
            (
                "Dispozitivul 0 a rămas fără memorie la evenimentul 203 din 204",
                "a cerut 1,5 GiB (1.610.620.928 octeți)",
            ),
        ),
        ("fr", ("manqué de mémoire à l'événement 203 sur 204", "a demandé 1,5 Gio (1 610 620 928")),
    ],
)
def test_the_explanation_reads_in_the_language_with_its_figures(
    window: MainWindow, lang: str, said_there: tuple[str, ...]
) -> None:
    _switch(window, lang)
    panel = _tabs(window)[0].diagnosis.explain_panel
    text = re.sub(r"[\u00a0\u202f]", " ", panel.text_content())  # French groups digits with a narrow space
    assert all(part in text for part in said_there), text[:2000]
    assert "model/attention.py:77:attention" in text  # data stays as it is


# -- every template of the core, filled in every language ------------------------------------------------------------


def _core_templates() -> list[tuple[str, str]]:
    tree = ET.parse(FOLDER / "diagnosis_fr.ts")
    return [
        (context.findtext("name") or "", message.findtext("source") or "")
        for context in tree.getroot().iter("context")
        if context.findtext("name") in CORE_CONTEXTS
        for message in context.iter("message")
    ]


def _fields(*templates: str) -> dict[str, str]:
    """Each field of the templates: a count where a plural form follows it in any of them, else a size."""
    parsed = [(name, spec or "") for t in templates for _, name, spec, _ in string.Formatter().parse(t) if name]
    counts = {name for name, spec in parsed if "|" in spec or name in ("n", "count")}
    return {name: "2,520" if name in counts else "1.5 GiB" for name, _ in parsed}


# a size (its unit tied by a no-break space in ro and fr) and a count as each language writes them, and English's
# own forms, which must not be left
LOCALIZED = {"en": ("1.5 GiB", "2,520"), "ro": ("1,5\u00a0GiB", "2.520"), "fr": ("1,5\u00a0Gio", "2\u202f520")}


def test_there_are_core_templates_to_check() -> None:
    contexts = {c for c, _ in _core_templates()}
    assert contexts == set(CORE_CONTEXTS)
    assert len(_core_templates()) > 150


@pytest.mark.parametrize("lang", ["en", "ro", "fr"])
def test_every_core_template_keeps_its_fields_and_localizes_its_figures(qapp: object, lang: str) -> None:
    language.set_language(lang)
    try:
        size, count = LOCALIZED[lang]
        for context, template in _core_templates():
            translated = QtCore.QCoreApplication.translate(context, template)
            fields = _fields(template, translated)
            sentence = Sentence(context, template, fields)
            text = said(sentence)
            assert "{" not in text and "}" not in text, (template, text)
            bare = {name for _, name, spec, _ in string.Formatter().parse(translated) if name and not spec}
            for name in bare:  # each field written bare shows its figure localized (a plural form shows a word)
                assert (size if fields[name] == "1.5 GiB" else count) in text, (name, template, text)
            if lang != "en":
                assert "1.5 GiB" not in text and "2,520" not in text, (template, text)
                assert text != template or not fields, text  # translated
            else:
                assert text == sentence  # the window's English is the CLI's
            # data (an address, a setting, a path) is said as it is, in every field written bare
            plural = [spec for t in (template, translated) for _, _, spec, _ in string.Formatter().parse(t) if spec]
            if not plural:
                data = said(Sentence(context, template, dict.fromkeys(fields, "expandable_segments:True")))
                assert data.count("expandable_segments:True") == len(
                    [1 for _, name, _, _ in string.Formatter().parse(translated) if name]
                ), (template, data)
    finally:
        language.set_language("en")


@pytest.mark.parametrize("lang", ["ro", "fr"])
def test_nested_sentences_glue_and_plural_forms(qapp: object, lang: str) -> None:
    language.set_language(lang)
    try:
        warning = replay_warnings.warning_text(replay_warnings.W_ALLOC_LIVE, 12345, 0xABC00)
        assert warning == "event 12345: alloc of 0xabc00, which is already live"
        assert (
            said(warning)
            == {
                "ro": "evenimentul 12.345: alocare la 0xabc00, care este deja activ",
                "fr": "événement 12\u202f345\u202f: allocation de 0xabc00, déjà vivant",
            }[lang]
        )
        pages = say(Sentence("Diagnosis", "{n} {n:page|pages} of {size}"), n="1", size="20 MiB")
        assert str(pages) == "1 page of 20 MiB"
        assert said(pages) == {"ro": "1 pagină de 20\u00a0MiB", "fr": "1 page de 20\u00a0Mio"}[lang]
        many = say(Sentence("Diagnosis", "{n} {n:page|pages} of {size}"), n="20", size="20 MiB")
        assert said(many) == {"ro": "20 de pagini de 20\u00a0MiB", "fr": "20 pages de 20\u00a0Mio"}[lang]
        glued = joined([pages, "train.py:12:step"], "; ")
        assert glued == "1 page of 20 MiB; train.py:12:step"
        assert said(glued).endswith("; train.py:12:step") and said(glued).startswith(said(pages))
        capital = Sentence("", "{what:capital}", {"what": Sentence("Remedies", "spread the work evenly over the GPUs")})
        assert capital == "Spread the work evenly over the GPUs"
        assert said(capital)[0].isupper() and english_words(said(capital)) == []
    finally:
        language.set_language("en")


def test_sentences_stay_the_english_strs_the_command_line_prints() -> None:
    assert f"This is a {PROFILER_FORM}: {SYNTHETIC_SPACE}." == PROFILER_SENTENCE
    assert isinstance(explain_output.REPLAY_NOTE, Sentence) and explain_output.REPLAY_NOTE.startswith("Each")
    s = say(Sentence("Diagnosis", "{n} {n:page|pages} of {size}"), n="2,520", size="20 MiB")
    assert s == "2,520 pages of 20 MiB" and json.dumps([s]) == '["2,520 pages of 20 MiB"]'
    for again in (pickle.loads(pickle.dumps(s)), copy.deepcopy(s)):
        assert isinstance(again, Sentence) and again == s and again.fields == s.fields
    assert re.fullmatch(r"[^{}]+", said(s))
