"""The debugging challenge in the window: a click on the OOM's map, a line, a fix, each graded in the panel."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
import pytestqt  # noqa: F401  (a test dependency: missing, the suite fails rather than skips)
import shiboken6
from PySide6 import QtCore, QtWidgets

from gpumem_gui.app import MainWindow
from gpumem_gui.core.snapshot.model import BlockState
from gpumem_gui.views.common import language
from gpumem_gui.views.snapshot.tab import SnapshotTab
from gpumem_gui.views.teach.challenge_panel import ChallengePanel, challenge_tab


def _row(tab: SnapshotTab, address: int) -> int:
    state = tab.map.state
    assert state is not None
    return int(np.flatnonzero(state.blocks.address == address)[0])


def _text(label: QtWidgets.QLabel) -> str:
    """A label's text without the zero-width spaces that let its long names wrap."""
    return label.text().replace("\u200b", "")


def _card_of(cards: list, text: str) -> QtWidgets.QWidget:
    return next(card for card in cards if text in card.text.text().replace("\u200b", ""))


def test_a_challenge_played_through_in_the_panel(qtbot) -> None:
    panel = ChallengePanel("en")
    qtbot.addWidget(panel)
    panel.choose("fragmented_oom")
    panel.start()
    assert panel.status.isVisibleTo(panel) and "replaying every fix" in _text(panel.status)
    assert panel.wait()
    qtbot.waitUntil(lambda: panel.challenge is not None, timeout=30_000)
    c = panel.challenge
    tab = challenge_tab(c)
    qtbot.addWidget(tab)
    panel.attach(tab)
    panel.resize(430, 900)
    panel.show()
    tab.show()
    assert tab.current_event == c.event == 203
    # the map opens on the segments with holes (the last 5 of 47: 85 of its 250 rows), the pinning ones among them
    layout = tab.map.layout_info
    (top, bottom) = tab.map.view.viewRange()[1]
    holey = np.flatnonzero(np.isin(layout.row_segment, [42, 43, 44, 45, 46]))
    assert len(layout) == 250 and top == pytest.approx(holey[0] - 1.7, abs=0.1) and bottom < 252
    assert "At event 203 the program asked for 1.5 GiB" in _text(panel.oom)
    assert not panel.site_cards  # step 2 opens after step 1

    state = tab.map.state
    assert state is not None
    hole = int(np.flatnonzero(state.blocks.state == BlockState.INACTIVE)[0])
    tab.map.block_clicked.emit(hole)  # a hole is told apart and not graded
    assert panel.block is None and "is free" in _text(panel.block_verdict)
    holder = next(a for a, s in zip(state.blocks.address, state.blocks.size, strict=True) if s == 1536 * 2**20)
    pin = min(c.pinning)
    tab.map.block_clicked.emit(_row(tab, pin))
    assert panel.block == pin and _text(panel.block_verdict).startswith("✓ Right")
    tab.map.block_clicked.emit(_row(tab, int(holder)))  # step 1 is answered once
    assert panel.block == pin
    # the pinning blocks are outlined on the map, the verdict over it
    assert tab.map.spotlight and tab.map.highlight is not None
    assert set(tab.map.state.blocks.address[tab.map.highlight].tolist()) == set(c.pinning)

    assert len(panel.site_cards) == len(c.sites) == 3
    qtbot.mouseClick(_card_of(panel.site_cards, "transformer.py:171:lm_head"), QtCore.Qt.MouseButton.LeftButton)
    assert _text(panel.site_verdict).startswith("✓ Right: model/transformer.py:171:lm_head")
    assert len(panel.fix_cards) == len(c.fixes)
    card = _card_of(panel.fix_cards, "expandable_segments:True")
    qtbot.mouseClick(card, QtCore.Qt.MouseButton.LeftButton)
    assert "The OOM is gone" in _text(panel.fix_verdict) and "15.5 GiB" in _text(panel.fix_verdict)
    assert card.state == "right"
    assert _text(panel.score) == "Your score: 3 of 3 steps right."
    assert _text(panel.answers).startswith(f"{len(c.right_fixes)} of {len(c.fixes)} fixes replay without the OOM")
    # a setting's long name wraps: the panel never grows past the dock's width
    assert panel.area.widget().minimumSizeHint().width() <= panel.minimumWidth()
    gc = _card_of(panel.fix_cards, "garbage_collection_threshold")
    qtbot.mouseClick(gc, QtCore.Qt.MouseButton.LeftButton)  # another fix shows its grade; the score keeps the first
    assert "Still OOM at event 203: it asks for 1.5 GiB, the largest hole is 1.4 GiB" in _text(panel.fix_verdict)
    assert gc.state == "wrong" and panel.right_count == 3

    panel.set_language("ro")
    assert "La evenimentul 203 programul a cerut 1,5\u00a0GiB" in _text(panel.oom)
    assert _text(panel.block_verdict).startswith("✓ Corect")
    assert "Tot OOM la evenimentul 203" in _text(panel.fix_verdict)


def test_wrong_answers_are_scored_wrong(qtbot) -> None:
    panel = ChallengePanel("fr")
    qtbot.addWidget(panel)
    panel.choose("training_leak_oom")
    panel.start()
    assert panel.wait()
    qtbot.waitUntil(lambda: panel.challenge is not None, timeout=30_000)
    c = panel.challenge
    state = c.diagnosis.report.state
    live = state.blocks.state != BlockState.INACTIVE
    pairs = zip(state.blocks.address, live, strict=True)
    wrong = next(int(a) for a, is_live in pairs if is_live and a not in c.pinning)
    panel.pick_block(wrong)
    assert _text(panel.block_verdict).startswith("✗ Pas celui-ci")
    failed = next(i for i, s in enumerate(c.sites) if s.role != "pins")
    qtbot.mouseClick(panel.site_cards[failed], QtCore.Qt.MouseButton.LeftButton)
    assert _text(panel.site_verdict).startswith("✗ Pas tout à fait\u202f: le bloc qui bloque la demande vient de ")
    card = _card_of(panel.fix_cards, "expandable_segments:True")
    qtbot.mouseClick(card, QtCore.Qt.MouseButton.LeftButton)
    assert "Toujours un OOM à l'événement" in _text(panel.fix_verdict)
    assert panel.right_count == 0 and "0 étapes sur 3" in _text(panel.score)


@pytest.fixture
def window(qtbot):
    win = MainWindow()
    qtbot.addWidget(win)
    yield win
    if win.teach.quiz_dock is not None:  # the language is a setting: later tests expect the default one
        win.quiz_panel().set_language("en")
    win.shutdown()


def test_the_window_opens_a_challenge_from_the_quiz_chooser(qtbot, window: MainWindow) -> None:
    window.resize(1400, 900)
    window.show()
    quiz = window.open_quiz("")
    qtbot.mouseClick(quiz.challenge_card.button, QtCore.Qt.MouseButton.LeftButton)
    panel = window.teach.challenge_panel()
    assert panel.wait()
    qtbot.waitUntil(lambda: window.teach.challenge_tab is not None, timeout=30_000)
    tab = window.teach.challenge_tab
    assert isinstance(tab, SnapshotTab) and window.tabs.currentWidget() is tab
    assert tab.current_event == panel.challenge.event
    tab.map.block_clicked.emit(_row(tab, min(panel.challenge.pinning)))  # the tab's map answers the panel's step 1
    assert panel.block == min(panel.challenge.pinning)
    panel.next_challenge()  # the next one replaces the tab
    assert panel.wait()
    qtbot.waitUntil(lambda: window.teach.challenge_tab is not tab, timeout=30_000)
    # the replaced tab is gone from the tabs, or already deleted (deleteLater may have run while waiting)
    assert (not shiboken6.isValid(tab) or window.tabs.indexOf(tab) < 0) and panel.challenge.name == "split_blocks_oom"
    window.close_tab(window.tabs.indexOf(window.teach.challenge_tab))  # the panel lets a closed tab go
    assert panel.tab is None and window.teach.challenge_tab is None
    quiz.set_language("fr")  # the challenge follows the quiz's language
    assert _text(panel.heading) == "Défi de débogage"
    panel.language_combo.setCurrentIndex(1)  # and the quiz follows the challenge's
    assert quiz.language == "ro" and _text(panel.heading) == "Provocare de depanare"


def test_the_window_follows_the_challenge_s_language_without_a_quiz(qtbot, window: MainWindow) -> None:
    # `gpumem-gui challenge` opens no quiz: a French challenge once sat beside an English window
    panel = window.teach.challenge_panel()
    panel.language_combo.setCurrentIndex(2)  # Français
    assert language.current_language() == "fr"
    qtbot.waitUntil(lambda: window.file_menu.title() == "&Fichier", timeout=5_000)  # Qt posts LanguageChange
    language.choose("ro", window.settings)  # and a switch of the window's (View > Language) reaches the panel
    assert panel.lang == "ro" and _text(panel.heading) == "Provocare de depanare"


def test_challenge_command_refuses_an_unknown_name() -> None:
    result = subprocess.run([sys.executable, "-m", "gpumem_gui", "challenge", "nope"], capture_output=True, text=True,
                            timeout=60, check=False)  # fmt: skip
    assert result.returncode == 2 and "known: fragmented_oom, split_blocks_oom, training_leak_oom" in result.stderr
