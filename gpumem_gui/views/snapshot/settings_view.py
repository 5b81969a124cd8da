"""SettingsView: the allocator settings a file recorded, a paragraph per key (value, default, what it does,
what what-if makes of it)."""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import Any

from PySide6 import QtWidgets

from gpumem_gui.document.settings_page import SettingsPage, settings_page
from gpumem_gui.views.common import palette
from gpumem_gui.views.common.language import Retranslated, translate
from gpumem_gui.views.common.rich_text import rich_text
from gpumem_gui.views.common.sentences import said


class SettingsView(Retranslated):
    """The page of one snapshot's settings, a paragraph per key (it reads in the narrow side panel as in a wide
    window); `set_what_if` adds what a replay's settings make of each."""

    def __init__(self, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        self.page: SettingsPage | None = None
        self._settings: Mapping[str, Any] | None = None
        self.text = QtWidgets.QTextBrowser()
        self.text.setObjectName("settings_from_document")  # document.settings_page's texts, translated here
        self.text.setOpenLinks(False)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.text)

    def set_settings(self, settings: Mapping[str, Any] | None, overrides: Sequence[str] = ()) -> None:
        """Show a snapshot's `allocator_settings` (None: the file has none), with what-if `overrides` if any."""
        self._settings = settings
        self.show_page(settings_page(settings, overrides))

    def set_what_if(self, overrides: Sequence[str]) -> None:
        """What a replay under `overrides` (PYTORCH_CUDA_ALLOC_CONF items) makes of each key."""
        self.show_page(settings_page(self._settings, overrides))

    def retranslate(self) -> None:
        if self.page is not None:
            self.show_page(self.page)

    def show_page(self, page: SettingsPage) -> None:
        self.page = page
        parts = [f'<p style="color:{palette.WARNING_TEXT}">{html.escape(said(note))}</p>' for note in page.notes]
        if page.recorded and not page.conf:
            parts.append("<p>{}</p>".format(translate("SettingsView", "PYTORCH_CUDA_ALLOC_CONF was not set.")))
        muted = f'style="color:{palette.TEXT_MUTED}"'
        default, what_if_word = translate("SettingsView", "default:"), translate("SettingsView", "what if:")
        for row, texts in zip(page.rows, self.row_texts(), strict=True):
            key, value, default_value, meaning, what_if = (html.escape(text) for text in texts)
            if row.set:
                value = f"<b>{value}</b>"
            if row.what_if_changes:
                what_if = f'<b style="background:{palette.FOCUS_BACKGROUND}">{what_if}</b>'
            parts.append(
                f"<p><b>{key}</b> = {value} <span {muted}>({default} {default_value})"
                f"</span><br>{meaning}<br><span {muted}>{what_if_word}</span> {what_if}</p>"
            )
        self.text.setHtml(rich_text("".join(parts)))

    def row_texts(self) -> list[tuple[str, ...]]:
        """Every key's texts as shown, in the window's language: (key, value, default, what it does, what if)."""
        rows = self.page.rows if self.page is not None else ()
        return [(r.key, said(r.value), said(r.default), said(r.meaning), said(r.what_if)) for r in rows]

    def plain_text(self) -> str:
        return self.text.toPlainText()
