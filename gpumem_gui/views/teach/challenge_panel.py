"""ChallengePanel: the debugging challenge's steps beside the OOM snapshot's map (teach/challenge.py grades them).

The panel prepares a challenge off the GUI thread (load, diagnose, replay every fix), then `ready` hands it to the
window, which opens its snapshot in a tab at the OOM (`challenge_tab`) and `attach`es the tab: a click on the tab's
map answers step 1. Steps 2 and 3 are buttons in the panel. Every word comes from resources/challenges.toml, in the
learner's language."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import numpy as np
from PySide6 import QtCore, QtGui, QtWidgets

from gpumem_gui.core.analysis.metrics import segment_free
from gpumem_gui.document.document import SnapshotDocument
from gpumem_gui.teach import challenge_texts as texts
from gpumem_gui.teach.challenge import CHALLENGES, Challenge, build_challenge
from gpumem_gui.teach.quiz import LANGUAGES
from gpumem_gui.views.common.palette import CARD, INK, PAGE
from gpumem_gui.views.common.tasks import TaskContext, TaskGroup
from gpumem_gui.views.snapshot.tab import SnapshotTab
from gpumem_gui.views.teach.quiz_markup import (
    breakable,
    push_button,
    rich,
    scroll_area,
    set_style_state,
    wrapped_label,
)
from gpumem_gui.views.teach.quiz_widgets import STYLE, ChoiceCard


def _prepare(name: str, ctx: TaskContext) -> Challenge:
    return build_challenge(name, ctx.check)


def challenge_tab(challenge: Challenge) -> SnapshotTab:
    """The challenge's snapshot in a tab of its own, at the state right after the OOM (every pool and stream)."""
    diagnosis = challenge.diagnosis
    document = SnapshotDocument(challenge.snapshot, {diagnosis.device: diagnosis.timeline}, device=diagnosis.device)
    tab = SnapshotTab(document)
    tab.travel_to(challenge.event)
    zoom_to_holes(tab)
    return tab


def zoom_to_holes(tab: SnapshotTab) -> None:
    """The map's rows from the first to the last segment with a hole: where the request looked for room (every
    such segment, not only those the pinning blocks keep), drawn tall enough to click a small block in."""
    state, layout = tab.map.state, tab.map.layout_info
    if state is None or layout is None or not len(layout):
        return
    free, _largest = segment_free(state)
    rows = np.flatnonzero(free[layout.row_segment] > 0)
    if not len(rows):
        return
    tab.map.view.setYRange(int(rows[0]), int(rows[-1]) + 1, padding=0.02)  # the view counts layout rows


class ChallengePanel(QtWidgets.QWidget):
    """The three steps of one challenge at a time; `ready(challenge)` once one is prepared."""

    ready = QtCore.Signal(object)
    language_changed = QtCore.Signal(str)  # the learner picked another language in this panel

    def __init__(self, lang: str = "en", parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("challenge_panel")
        self.lang = lang if lang in LANGUAGES else "en"
        self.challenge: Challenge | None = None
        self.tab: SnapshotTab | None = None
        self.block: int | None = None  # the address of the first live block clicked
        self.last_click: str = ""  # the verdict of the last click (a free block says so and is not graded)
        self.site: int | None = None
        self.fix: int | None = None  # the first fix picked: the one scored
        self.shown_fix: int | None = None  # the last fix picked: whose grade shows
        self.tasks = TaskGroup(self)
        self.setMinimumWidth(320)
        # the quiz's sheet; a verdict here is a paragraph, not a line: normal weight
        self.setStyleSheet(STYLE + "QLabel#verdict { font-size: 10pt; font-weight: 400; }")
        palette = self.palette()  # light colours whatever the desktop theme, as the quiz's
        for role, colour in (
            (QtGui.QPalette.ColorRole.Window, PAGE),
            (QtGui.QPalette.ColorRole.WindowText, INK),
            (QtGui.QPalette.ColorRole.Base, CARD),
        ):
            palette.setColor(role, QtGui.QColor(colour))
        self.setPalette(palette)
        self.setAutoFillBackground(True)

        content = QtWidgets.QWidget()
        box = QtWidgets.QVBoxLayout(content)
        box.setContentsMargins(0, 0, 4, 0)
        box.setSpacing(8)
        self.heading = wrapped_label("heading")
        top = QtWidgets.QHBoxLayout()
        self.language_label = QtWidgets.QLabel()
        self.language_label.setObjectName("muted")
        self.language_combo = QtWidgets.QComboBox()
        for code in LANGUAGES:
            self.language_combo.addItem(texts.text("language_name", code), code)
        self.language_combo.setCurrentIndex(LANGUAGES.index(self.lang))
        self.language_combo.currentIndexChanged.connect(self._language_picked)
        top.addStretch(1)
        top.addWidget(self.language_label)
        top.addWidget(self.language_combo)
        row = QtWidgets.QHBoxLayout()
        self.choose_label = wrapped_label("muted")
        self.combo = QtWidgets.QComboBox()
        # a title's length must not widen the dock past its pane (the labels below would be cut off at the right)
        self.combo.setSizeAdjustPolicy(QtWidgets.QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.combo.setMinimumContentsLength(12)
        for name in CHALLENGES:
            self.combo.addItem(name, name)
        self.start_button = push_button(self.start, primary=True)
        row.addWidget(self.combo, 1)
        row.addWidget(self.start_button)
        self.story = wrapped_label()
        self.status = wrapped_label("muted")
        self.oom = wrapped_label()
        self.step_block = wrapped_label("card_title")
        self.block_verdict = wrapped_label("verdict")
        self.step_site = wrapped_label("card_title")
        self.site_cards: list[ChoiceCard] = []
        self.sites = QtWidgets.QVBoxLayout()
        self.site_verdict = wrapped_label("verdict")
        self.step_fix = wrapped_label("card_title")
        self.fix_cards: list[ChoiceCard] = []
        self.fixes = QtWidgets.QVBoxLayout()
        self.fix_verdict = wrapped_label("verdict")
        self.answers = wrapped_label()
        self.score = wrapped_label("card_title")
        self.next_button = push_button(self.next_challenge)
        box.addLayout(top)
        box.addWidget(self.heading)
        box.addWidget(self.choose_label)
        box.addLayout(row)
        for w in (self.story, self.status, self.oom, self.step_block, self.block_verdict, self.step_site):
            box.addWidget(w)
        box.addLayout(self.sites)
        box.addWidget(self.site_verdict)
        box.addWidget(self.step_fix)
        box.addLayout(self.fixes)
        for part in (self.fix_verdict, self.answers, self.score, self.next_button):
            box.addWidget(part)
        box.addStretch(1)
        outer = QtWidgets.QVBoxLayout(self)
        outer.setContentsMargins(10, 10, 10, 10)
        self.area = scroll_area(content)
        outer.addWidget(self.area)
        self.combo.currentIndexChanged.connect(lambda _i: self._render())
        self._render()

    # -- preparing -----------------------------------------------------------------------------------------------

    def choose(self, name: str) -> None:
        index = self.combo.findData(name)
        if index >= 0:
            self.combo.setCurrentIndex(index)

    def start(self) -> None:
        """Prepare the chosen challenge (load, diagnose, replay every fix) in a task."""
        name = str(self.combo.currentData())
        self.tasks.cancel_all()
        self.challenge = None
        self.block = self.site = self.fix = self.shown_fix = None
        self.last_click = ""
        self.tasks.start("challenge", partial(_prepare, name), on_result=self._prepared, on_error=self._failed)
        self._render()

    def wait(self, timeout_ms: int = 60_000) -> bool:
        return self.tasks.wait(timeout_ms)

    def next_challenge(self) -> None:
        self.combo.setCurrentIndex((self.combo.currentIndex() + 1) % self.combo.count())
        self.start()

    def _prepared(self, challenge: Challenge) -> None:
        self.challenge = challenge
        self._render()
        self.ready.emit(challenge)

    def _failed(self, message: str) -> None:
        self.status.setText(texts.text("failed", self.lang, error=message))
        self.status.show()

    def attach(self, tab: SnapshotTab) -> None:
        """The tab showing the challenge's snapshot: a click on its map answers step 1."""
        self.tab = tab
        tab.map.block_clicked.connect(self._map_clicked)

    def _language_picked(self, index: int) -> None:
        lang = LANGUAGES[index]
        if lang != self.lang:
            self.set_language(lang)
            self.language_changed.emit(lang)

    def detach(self) -> None:
        """The tab was closed: let it go (a click can no longer answer step 1 until the next challenge's tab)."""
        if self.tab is not None:
            self.tab.map.block_clicked.disconnect(self._map_clicked)
            self.tab = None

    def set_language(self, lang: str) -> None:
        if lang in LANGUAGES:
            self.lang = lang
            if self.language_combo.currentIndex() != LANGUAGES.index(lang):
                self.language_combo.blockSignals(True)
                self.language_combo.setCurrentIndex(LANGUAGES.index(lang))
                self.language_combo.blockSignals(False)
            if self.block is not None:
                self.last_click = texts.block_verdict(self.challenge, self.block, lang) if self.challenge else ""
            self._render()
            self._spotlight()

    # -- answers -------------------------------------------------------------------------------------------------

    def _map_clicked(self, index: int) -> None:
        state = self.tab.map.state if self.tab is not None else None
        if state is not None and 0 <= index < len(state.blocks):
            self.pick_block(int(state.blocks.address[index]))

    def pick_block(self, address: int) -> None:
        """Step 1: the block at `address` of the OOM's state. A free block is told apart and not graded."""
        c = self.challenge
        if c is None or self.block is not None:
            return
        self.last_click = texts.block_verdict(c, address, self.lang)
        if c.grade_block(address).live:
            self.block = address
            self._spotlight()
        self._render()
        self._bring(self.step_site if self.block is not None else self.block_verdict)

    def pick_site(self, index: int) -> None:
        if self.challenge is not None and self.block is not None and self.site is None:
            self.site = index
            self._render()
            self._bring(self.step_fix)

    def pick_fix(self, index: int) -> None:
        """Step 3: a fix; the first one picked is scored, any other one picked after shows its grade too."""
        if self.challenge is None or self.site is None:
            return
        if self.fix is None:
            self.fix = index
        self.shown_fix = index
        self._render()
        self._bring(self.fix_verdict)

    def _bring(self, widget: QtWidgets.QWidget) -> None:
        """Scroll the panel so that what a step just opened is at its top, once the layout has placed it."""

        def scroll() -> None:
            content = self.area.widget()
            if content is None:
                return
            layout = content.layout()
            if layout is not None:  # the cards a step added are placed and the content grown before it scrolls
                layout.activate()
            content.resize(content.width(), max(content.heightForWidth(content.width()), content.height()))
            self.area.verticalScrollBar().setValue(widget.mapTo(content, QtCore.QPoint(0, 0)).y() - 8)

        QtCore.QTimer.singleShot(0, self, scroll)

    def _spotlight(self) -> None:
        """After step 1, the blocks that pin the failure outlined on the map, the verdict over it."""
        c, tab = self.challenge, self.tab
        if c is None or tab is None or self.block is None or tab.pending:
            return
        pins = np.fromiter(c.pinning, np.int64)
        frame = tab.document.focus_at(c.event, lambda s: np.isin(s.blocks.address, pins), self.last_click)
        tab.show_frame(frame)

    @property
    def right_count(self) -> int:
        c = self.challenge
        if c is None:
            return 0
        steps = [
            self.block is not None and c.grade_block(self.block).right,
            self.site is not None and c.grade_site(self.site),
            self.fix is not None and c.grade_fix(self.fix).fits,
        ]
        return sum(steps)

    # -- rendering -----------------------------------------------------------------------------------------------

    def _render(self) -> None:
        lang, c = self.lang, self.challenge
        name = str(self.combo.currentData())
        self.heading.setText(texts.text("title", lang))
        self.language_label.setText(texts.text("language", lang))
        self.choose_label.setText(texts.text("choose", lang))
        for i, key in enumerate(CHALLENGES):
            self.combo.setItemText(i, texts.title(key, lang))
        self.start_button.setText(texts.text("start", lang))
        self.story.setText(texts.story(name, lang))
        busy = self.tasks.busy() and c is None
        self.status.setText(texts.text("loading", lang) if busy else "")
        self.status.setVisible(busy)
        shown = c is not None and c.name == name
        self.oom.setVisible(shown)
        self.step_block.setVisible(shown)
        if c is None or not shown:
            for w in (self.block_verdict, self.step_site, self.site_verdict, self.step_fix, self.fix_verdict):
                w.hide()
            for part in (self.answers, self.score, self.next_button):
                part.hide()
            self._cards(self.site_cards, self.sites, [], self.pick_site)
            self._cards(self.fix_cards, self.fixes, [], self.pick_fix)
            return
        self.oom.setText(breakable(texts.oom_text(c, lang)))
        self.step_block.setText(texts.text("step_block", lang))
        self._verdict(self.block_verdict, self.last_click, self.block is not None and c.grade_block(self.block).right)
        self.block_verdict.setVisible(bool(self.last_click))
        self._render_sites(c)
        self._render_fixes(c)
        done = self.fix is not None
        self.answers.setVisible(done)
        # a setting's name is one long word: it must wrap, or the dock grows past its pane
        self.answers.setText(breakable("\n".join(texts.answer_lines(c, lang))) if done else "")
        self.score.setVisible(done)
        self.score.setText(texts.text("score", lang, right=self.right_count))
        self.next_button.setVisible(done)
        self.next_button.setText(texts.text("next", lang))

    def _render_sites(self, c: Challenge) -> None:
        lang = self.lang
        open_ = self.block is not None
        self.step_site.setVisible(open_)
        self.step_site.setText(texts.text("step_site", lang))
        labels = [texts.site_label(choice.site) for choice in c.sites] if open_ else []
        self._cards(self.site_cards, self.sites, labels, self.pick_site)
        for i, card in enumerate(self.site_cards):
            card.setToolTip(c.sites[i].site)
            if self.site is None:
                card.set_state("idle")
            else:
                card.set_state("right" if c.grade_site(i) else "wrong" if i == self.site else "dim")
        self.site_verdict.setVisible(self.site is not None)
        if self.site is not None:
            self._verdict(self.site_verdict, texts.site_verdict(c, self.site, lang), c.grade_site(self.site))

    def _render_fixes(self, c: Challenge) -> None:
        lang = self.lang
        open_ = self.site is not None
        self.step_fix.setVisible(open_)
        self.step_fix.setText(texts.text("step_fix", lang))
        labels = [texts.fix_label(f, lang) for f in c.fixes] if open_ else []
        self._cards(self.fix_cards, self.fixes, labels, self.pick_fix)
        for i, card in enumerate(self.fix_cards):
            # once one is picked, every fix shows its replay's verdict
            card.set_state("idle" if self.fix is None else "right" if c.grade_fix(i).fits else "wrong")
        self.fix_verdict.setVisible(self.shown_fix is not None)
        if self.shown_fix is not None:
            fix = c.fixes[self.shown_fix]
            verdict = f"{texts.fix_label(fix, lang)}: {texts.fix_verdict(fix, lang)}"
            self._verdict(self.fix_verdict, verdict, fix.grade.fits)

    @staticmethod
    def _verdict(label: QtWidgets.QLabel, text: str, right: bool) -> None:
        label.setText(breakable(text))
        set_style_state(label, "verdict", "right" if right else "wrong")

    @staticmethod
    def _cards(
        cards: list[ChoiceCard], layout: QtWidgets.QVBoxLayout, labels: list[str], pick: Callable[[int], None]
    ) -> None:
        """As many choice cards as labels, numbered, each calling pick(its index) when clicked (its text wraps)."""
        while len(cards) > len(labels):
            card = cards.pop()
            layout.removeWidget(card)
            card.hide()
            card.deleteLater()
        while len(cards) < len(labels):
            card = ChoiceCard(len(cards) + 1)
            card.clicked.connect(partial(pick, len(cards)))
            layout.addWidget(card)
            cards.append(card)
        for card, label in zip(cards, labels, strict=True):
            card.text.setText(rich(f"`{label}`" if label.startswith("PYTORCH_CUDA_ALLOC_CONF=") else label))


class ChallengeCard(QtWidgets.QFrame):
    """The quiz chooser's card for the debugging challenge: what it is, and a button that opens it."""

    def __init__(self, open_challenge: Callable[[], None]) -> None:
        super().__init__()
        self.setObjectName("card")
        inner = QtWidgets.QVBoxLayout(self)
        inner.setContentsMargins(12, 10, 12, 10)
        inner.setSpacing(6)
        self.title = wrapped_label("card_title")
        self.intro = wrapped_label()
        self.button = push_button(open_challenge, primary=True)
        row = QtWidgets.QHBoxLayout()
        row.addStretch(1)
        row.addWidget(self.button)
        inner.addWidget(self.title)
        inner.addWidget(self.intro)
        inner.addLayout(row)

    def refresh(self, lang: str) -> None:
        self.title.setText(texts.text("title", lang))
        self.intro.setText(texts.text("card_intro", lang))
        self.button.setText(texts.text("open", lang))
