"""BlockPage: a block picked on the map, in words (its segment's figures, its category and why, its metadata) over
its stack."""

from __future__ import annotations

import html
from collections.abc import Callable

from PySide6 import QtCore, QtWidgets

from gpumem_gui.core.analysis.categories import CATEGORY_LABELS
from gpumem_gui.core.snapshot.units import format_bytes_exact
from gpumem_gui.document.frame import BlockDetails
from gpumem_gui.views.common.language import category_word, filled, localized, translate
from gpumem_gui.views.common.rich_text import rich_text
from gpumem_gui.views.common.sentences import said
from gpumem_gui.views.common.stack_view import StackView


def block_details_html(description: str, d: BlockDetails) -> str:
    """`description` (the map's line on the block) and the rest of `d` as the block page's rich text."""
    segment = filled(
        translate("BlockPage", "{segment}: {size}, {blocks} {blocks:block|blocks},"),
        {
            "segment": f"{d.segment_address:#x}",
            "size": format_bytes_exact(d.segment_size),
            "blocks": str(d.segment_blocks),
        },
    )
    free = translate("BlockPage", "free {free}, largest hole {largest}").format(
        free=localized(format_bytes_exact(d.segment_free)),
        largest=localized(format_bytes_exact(d.segment_largest_free)),
    )
    words = {
        "segment": translate("BlockPage", "segment"),
        "category": translate("BlockPage", "category"),
        "no stack": translate("BlockPage", "no stack"),
        "user metadata": translate("BlockPage", "user metadata"),
        "annotation": translate("BlockPage", "annotation"),
    }
    what_why = translate("BlockPage", "{what}: {why}")  # a colon as the language writes it (fr: a narrow space before)
    lines = [description, "", f"<b>{words['segment']}</b> {segment}", free]
    if d.category:  # known once the trace is indexed
        label = html.escape(category_word(CATEGORY_LABELS.get(d.category, d.category)))
        rule = html.escape(said(d.category_rule))
        lines[1:1] = [f"<b>{words['category']}</b> " + what_why.format(what=label, why=rule)]
    if d.no_frames_cause:
        cause = translate("Frameless", d.no_frames_cause)  # core.analysis.frameless's FRAMELESS_WORDS
        lines[1:1] = [what_why.format(what=f"<b>{words['no stack']}</b>", why=html.escape(cause))]
    if d.user_metadata or d.annotations:
        tags = [f"<b>{words['user metadata']}</b> {html.escape(d.user_metadata)}"] if d.user_metadata else []
        tags += [f"<b>{words['annotation']}</b> {html.escape(a)}" for a in d.annotations]
        lines[1:1] = tags
    return "<br>".join(lines)


class BlockPage(QtWidgets.QSplitter):
    def __init__(self, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(QtCore.Qt.Orientation.Vertical, parent)
        self.details = QtWidgets.QTextEdit(readOnly=True)
        self.details.setPlaceholderText(translate("BlockPage", "Click a block for details."))
        self.stack = StackView()  # the picked block's stack: the user's frames first, all on request
        self.addWidget(self.details)
        self.addWidget(self.stack)
        self.setSizes([140, 300])
        self._shown: tuple[Callable[[], str], BlockDetails] | None = None  # worded again after a language switch
        self._empty = True  # nothing shown since the last clear: every travel clears the page, mostly hidden and empty

    def changeEvent(self, event: QtCore.QEvent) -> None:
        if event.type() == QtCore.QEvent.Type.LanguageChange:
            self.details.setPlaceholderText(translate("BlockPage", "Click a block for details."))
            if self._shown is not None:
                self.show_block(*self._shown)
        super().changeEvent(event)

    def show_block(self, describe: Callable[[], str], d: BlockDetails) -> None:
        """The block's details: `describe()` says what it is (in the window's language: called again on a switch)."""
        self._shown = (describe, d)
        self._empty = False
        title = translate("BlockPage", "stack") if d.recorded_frames else translate("BlockPage", "no stack recorded")
        self.stack.set_frames(d.recorded_frames, title)
        self.details.setHtml(rich_text(block_details_html(describe(), d)))

    def clear(self) -> None:
        if self._empty:  # its stack's clear alone relaid its labels (a travel's 1 %)
            return
        self._empty = True
        self._shown = None
        self.details.clear()
        self.stack.clear()
