"""PredictBox: the quiz's "Predict" step: the learner clicks the map or picks an option, then sees if it was right."""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial

import numpy as np
from PySide6 import QtCore, QtWidgets

from gpumem_gui.document.document import SnapshotDocument
from gpumem_gui.teach.fresh_cases import fresh_case
from gpumem_gui.teach.predict import MAP_KINDS, Case, Prediction, Predictions, make_case
from gpumem_gui.views.common.language import filled
from gpumem_gui.views.common.tasks import TaskContext, TaskGroup
from gpumem_gui.views.snapshot.map_view import SegmentMapView
from gpumem_gui.views.teach.quiz_markup import push_button, set_style_state, wrapped_label


def _stage(prediction: Prediction, seed: int | None, ctx: TaskContext) -> tuple[Case, SnapshotDocument | None]:
    """Off the GUI thread: the case (replays or lab measurements included; a fresh one for a seed) and a document
    showing its state (None for a lab case: it has no snapshot)."""
    case = make_case(prediction, ctx.check) if seed is None else fresh_case(prediction, seed, ctx.check)
    if case.snapshot is None or case.timeline is None:
        return case, None
    document = SnapshotDocument(case.snapshot, {case.device: case.timeline}, device=case.device)
    document.travel(case.event)
    document.frame()
    return case, document


class PredictBox(QtWidgets.QFrame):
    """One question's predict step. `predicted(question_id, right)` once the learner has answered it; the map
    (block and segment kinds) then spotlights the right blocks, the options mark the right ones."""

    predicted = QtCore.Signal(str, bool)

    def __init__(self, predictions: Predictions) -> None:
        super().__init__()
        self.setObjectName("card")
        self.predictions = predictions
        self.prediction: Prediction | None = None
        self.case: Case | None = None
        self.document: SnapshotDocument | None = None
        self.verdict: bool | None = None
        self.seed: int | None = None  # a retried question: its fresh case's seed
        self.lang = "en"
        self.tasks = TaskGroup(self)
        box = QtWidgets.QVBoxLayout(self)
        box.setContentsMargins(12, 10, 12, 10)
        box.setSpacing(6)
        self.title = wrapped_label("card_title")
        self.prompt = wrapped_label()
        self.start_button = push_button(self.start, primary=True)
        self.status = wrapped_label("muted")
        self.map = SegmentMapView()
        self.map.setMinimumHeight(180)
        # the wheel scrolls the quiz, never zooms this small map (a zoom left it at "0 B"); clicks still pick blocks
        self.map.view.setMouseEnabled(x=False, y=False)
        self.map.block_clicked.connect(self.pick_block)
        self.none_button = push_button(self.pick_none)
        self.options = QtWidgets.QVBoxLayout()
        self.option_buttons: list[QtWidgets.QPushButton] = []
        self.result = wrapped_label("verdict")
        self.reveal = wrapped_label()
        for w in (self.title, self.prompt, self.start_button, self.status, self.map, self.none_button):
            box.addWidget(w)
        box.addLayout(self.options)
        box.addWidget(self.result)
        box.addWidget(self.reveal)

    # -- what shows ----------------------------------------------------------------------------------------------

    def set_prediction(
        self, prediction: Prediction | None, lang: str, verdict: bool | None = None, seed: int | None = None
    ) -> None:
        """Show the predict step of a question (hidden when it has none); `verdict`: the one already given; `seed`:
        a fresh case of the same scenario (a retried question) instead of the bundled one."""
        if prediction is not self.prediction or seed != self.seed:
            self.tasks.cancel_all()
            self.prediction, self.case, self.document, self.seed = prediction, None, None, seed
            self.map.caption.clear()  # the block line of an earlier question's map is not this one's
            self.map.popup.unpin()
        self.verdict = verdict
        self.lang = lang
        self.setVisible(prediction is not None)
        self._render()

    def set_language(self, lang: str) -> None:
        self.lang = lang
        self._render()

    def start(self) -> None:
        """Prepare the case (load, index, replay) in a task; its map or options show when it is ready."""
        if self.prediction is None or self.case is not None or self.tasks.busy():
            return
        self.tasks.start(
            "predict", partial(_stage, self.prediction, self.seed), on_result=self._staged, on_error=self._failed
        )
        self._render()

    def wait(self, timeout_ms: int = 30_000) -> bool:
        return self.tasks.wait(timeout_ms)

    # -- answers -------------------------------------------------------------------------------------------------

    def pick_block(self, index: int) -> None:
        """A click on the map's block `index` (its frame's state): graded by the block's address."""
        case = self.case
        if case is None or self.verdict is not None or case.prediction.kind not in MAP_KINDS:
            return
        state = self.map.state
        if state is None:
            self._grade(case.grade_block(index))
            return
        self._grade(case.grade_address(int(state.blocks.address[index])))

    def pick_none(self) -> None:
        if self.case is not None and self.verdict is None:
            self._grade(self.case.grade_none())

    def pick_option(self, index: int) -> None:
        if self.case is not None and self.verdict is None and 0 <= index < len(self.case.option_labels(self.lang)):
            self._grade(self.case.grade_option(index))

    def _grade(self, right: bool) -> None:
        assert self.prediction is not None
        self.verdict = right
        self._render()
        self.predicted.emit(self.prediction.question, right)

    # -- drawing -------------------------------------------------------------------------------------------------

    def _staged(self, result: tuple[Case, SnapshotDocument | None]) -> None:
        case, document = result
        if self.prediction is not case.prediction:
            return  # another question since
        self.case, self.document = case, document
        if document is not None:
            self.map.show_frame(document.frame(), keep_range=False)
        self._render()

    def _failed(self, message: str) -> None:
        self.status.setText(message)
        self.status.show()

    def _render(self) -> None:
        p, case, lang = self.prediction, self.case, self.lang
        if p is None:
            return
        text = self.predictions.text
        self.title.setText(text("title", lang))
        self.start_button.setText(text("start", lang))
        self.start_button.setVisible(case is None and self.verdict is None)
        self.start_button.setEnabled(not self.tasks.busy())
        self.prompt.setText(case.prompt(lang, _fill) if case is not None else "")
        self.prompt.setVisible(case is not None)
        # the task still counts as busy while its result is handed over: a case that is there is no longer loading
        loading = self.tasks.busy() and case is None
        click = "click_segment" if p.kind == "segment" else "click_map"
        self.status.setText(text("loading", lang) if loading else text(click, lang))
        on_map = p.kind in MAP_KINDS
        self.status.setVisible(loading or (case is not None and on_map and self.verdict is None))
        self.map.setVisible(case is not None and on_map)
        # the legend names the colours ("cached free: a hole"): shown before the answer it would give it away
        self.map.legend.setVisible(self.verdict is not None)
        self.none_button.setVisible(case is not None and p.none is not None)
        self.none_button.setEnabled(self.verdict is None)
        if p.none is not None:
            self.none_button.setText(p.none[lang])
        self._render_options()
        self.result.setVisible(self.verdict is not None)
        self.reveal.setVisible(case is not None and self.verdict is not None)
        if self.verdict is not None:
            self.result.setText(text("right" if self.verdict else "wrong", lang))
            set_style_state(self.result, "verdict", "right" if self.verdict else "wrong")
        if case is not None and self.verdict is not None:
            reveal = case.reveal(lang, self.predictions, _fill)
            if on_map and self.document is not None:
                right = case.right_addresses  # matched by address: the frame's state may order blocks otherwise
                self.map.show_frame(
                    self.document.focus_at(case.event, lambda s: np.isin(s.blocks.address, right), reveal)
                )
                # the map's own caption says it: a second copy below would only crowd the card. When no block is
                # right ("no hole is large enough") nothing is highlighted, so the reveal says why instead
                shown = text("shown", lang) if case.right_blocks.any() else reveal
                self.result.setText(f"{self.result.text()} {shown}")
            self.reveal.setText(reveal)
            self.reveal.setVisible(not (on_map and self.document is not None))

    def _render_options(self) -> None:
        case = self.case
        labels = case.option_labels(self.lang, _fill) if case is not None else ()
        while len(self.option_buttons) > len(labels):
            button = self.option_buttons.pop()
            self.options.removeWidget(button)
            button.hide()  # deleted when the event loop next runs: until then it must not cover the verdict
            button.deleteLater()
        while len(self.option_buttons) < len(labels):
            button = push_button(partial(self.pick_option, len(self.option_buttons)))
            self.options.addWidget(button)
            self.option_buttons.append(button)
        for i, (button, label) in enumerate(zip(self.option_buttons, labels, strict=True)):
            mark = ""
            if case is not None and self.verdict is not None:
                mark = "  ✓" if case.grade_option(i) else "  ✗"
            button.setText(label + mark)
            button.setEnabled(self.verdict is None)


def _fill(template: str, lang: str, fields: Mapping[str, str]) -> str:
    """A prediction's template filled as the window fills every sentence: its figures by the window's one writer."""
    return filled(template, fields, lang)
