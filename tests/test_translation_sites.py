"""Sites in Romanian and French: the site timeline (its legend, a picked band's details and the map's caption), the
site tree, the growth page, the block table and the map's hover line say core's words of a site ("unknown",
"allocated before recording began", "backward of mm", "other (N sites)") and the growth's phase in the window's
language, and write exact byte counts with one kind of separator."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import pytest
from PySide6 import QtCore, QtWidgets

from gpumem_gui.app.window import MainWindow
from gpumem_gui.assets import example_path
from gpumem_gui.core.snapshot.model import BlockState
from gpumem_gui.views.common import language
from gpumem_gui.views.diagnosis.breakdown_view import SITE
from gpumem_gui.views.snapshot.site_timeline import band_name
from gpumem_gui.views.snapshot.tab import SnapshotTab
from tests.conftest import fixture_path
from tests.translation_walk import english_left, opened_window, visible_texts, visit_every_page, wait_until
from tests.translation_walk import settle as _settle
from tests.translation_walk import snapshot_tabs as _tabs
from tests.translation_walk import switch_language as _switch

EXAMPLES = ("training_leak", "fragmented_oom")
FIXTURE = "felix_dump_a.pickle"  # resolved when the window opens, not at import (tests/test_suite_collects.py)
ALLOWED = ("inactive",)  # the block states as the snapshot format names them (active_allocated...): its words
# data, not the window's words, cut out before the texts are read
NOT_THESE = re.compile(
    "|".join(
        (
            r"^block\b",  # training_leak's own function named `block` (transformer.py:120)
            r"\S+ to \S+\.py:\d+",  # a folded stack's frames (file:line to file:line)
        )
    ),
    re.MULTILINE,
)


def _wait(done: Callable[[], object], what: str = "it") -> None:
    wait_until(done, what, seconds=90)


def _visit(tab: SnapshotTab) -> None:
    """Every page shown once (each left on its last), the site tree and the growth computed, the site timeline."""
    visit_every_page(tab, back_to_first=False)
    pages = tab.diagnosis
    pages.tabs.setCurrentWidget(pages.breakdown)
    _wait(lambda: pages.breakdown.model is not None, "the site tree")
    pages.tabs.setCurrentWidget(pages.growth)
    _wait(lambda: pages.growth.growth is not None, "the growth")
    _wait(tab.site_timeline.is_ready, "the site timeline")


@pytest.fixture(scope="module")
def window(qapp: QtWidgets.QApplication) -> Iterator[MainWindow]:
    with opened_window([*(str(example_path(n)) for n in EXAMPLES), str(fixture_path(FIXTURE))], _visit) as win:
        yield win


def _site_texts(tab: SnapshotTab) -> list[tuple[str, str]]:
    """What the pages of sites show: every band of the site timeline picked in turn (its details, its hover title,
    the map's caption), the site tree with a site picked, the growth page, the block table, the map's hover lines."""
    texts: list[tuple[str, str]] = []
    timeline = tab.site_timeline
    timeline.set_kind("site")
    bands = timeline.bands
    assert bands is not None and bands.bands
    _settle()
    x = float(max(bands.n_events - 1, 0))
    for i in range(len(bands.bands)):
        timeline.select_band(i)
        spotlight = tab.document.frame().spotlight
        assert spotlight is not None
        texts += [("band caption", spotlight.caption), ("band hover", timeline.band_stack(i, x)[0])]
        texts += visible_texts(timeline)
    pages = tab.diagnosis
    tree = pages.breakdown.tree
    texts += visible_texts(pages.breakdown)
    model = pages.breakdown.model
    assert model is not None
    leaf = model.index(0, SITE)
    while model.rowCount(leaf):
        leaf = model.index(0, SITE, leaf)
    tree.setCurrentIndex(leaf)  # a site picked: its blocks lit on the map
    _settle()
    spotlight = tab.document.frame().spotlight
    assert spotlight is not None
    texts.append(("site caption", spotlight.caption))
    texts += visible_texts(pages.growth)
    texts += visible_texts(tab.table)
    state = tab.document.frame().state
    live = [i for i in range(len(state.blocks)) if state.blocks.state[i] == BlockState.ALLOCATED]
    texts += [("map hover", tab.map.describe(i)) for i in live[:300]]
    return texts


def test_the_pages_of_sites_show_core_words_in_english_first(window: MainWindow) -> None:
    # what the walk below looks for is there: core's words of a site, and the growth's phase
    _switch(window, "en")
    shown = "\n".join(text for tab in _tabs(window) for _where, text in _site_texts(tab))
    for words in ("other (", "allocated before recording began", ": its blocks", "site "):
        assert words in shown, words
    growth = _tabs(window)[0].diagnosis.growth
    assert re.search(r"\b(forward|backward|optimizer)\b", growth.summary.text()), growth.summary.text()


@pytest.mark.parametrize("lang", ["ro", "fr"])
def test_no_english_is_left_in_the_pages_of_sites(window: MainWindow, lang: str) -> None:
    _switch(window, lang)
    kept = [(where, NOT_THESE.sub(" ", text)) for tab in _tabs(window) for where, text in _site_texts(tab)]
    left = english_left(kept, ALLOWED)
    assert left == [], f"{len(left)} texts in English after switching to {lang}:\n" + "\n".join(left)


@pytest.mark.parametrize(
    ("lang", "exact"),
    [
        ("en", "768.0 MiB (805,306,368 bytes) in 12 blocks"),
        ("ro", "768,0 MiB (805.306.368 octeți) în 12 blocuri"),
        ("fr", "768,0 Mio (805 306 368 octets) dans 12 blocs"),
    ],
)
def test_the_site_tree_writes_exact_bytes_as_the_language_does(window: MainWindow, lang: str, exact: str) -> None:
    # training_leak's top row at its last event: 12 blocks of 64 MiB (805,306,368 bytes, counted from the nodes)
    _switch(window, lang)
    model = _tabs(window)[0].diagnosis.breakdown.model
    assert model is not None
    rows, found = [model.index(0, SITE)], []
    while rows:
        index = rows.pop()
        if (model.node(index).bytes, model.node(index).blocks) == (805_306_368, 12):
            found.append(index)
        rows += [model.index(r, SITE, index) for r in range(model.rowCount(index))]
        if index.row() + 1 < model.rowCount(index.parent()):
            rows.append(index.siblingAtRow(index.row() + 1))
    assert found
    tip = str(model.data(found[0], QtCore.Qt.ItemDataRole.ToolTipRole))
    assert re.sub(r"[\u00a0\u202f]", " ", tip).endswith(exact), tip


@pytest.mark.parametrize(
    ("lang", "large", "private"),
    [
        ("en", "large pool", "private (1, 2) pool"),
        ("ro", "pool mare", "pool privat (1, 2)"),
        ("fr", "pool grand", "pool privé (1, 2)"),
    ],
)
def test_the_site_timeline_names_its_pool_bands_in_the_language(
    qapp: QtWidgets.QApplication, lang: str, large: str, private: str
) -> None:
    """The pool grouping's bands ("large", "private (1, 2)" as site_series names them) as the breakdown words them."""
    language.set_language(lang)
    try:
        assert band_name("pool", "large") == large
        assert band_name("pool", "private (1, 2)") == private
        assert band_name("stream", "stream 7") == "stream 7"  # the same word in the three languages
    finally:
        language.set_language("en")
