"""The core's sentences (core/snapshot/sentences.py) in the window's language: the template translated, its
figures written as the language writes them ("1,5 Gio", "41,9 %", "2 520"), its data as it is."""

from __future__ import annotations

from PySide6 import QtCore

from gpumem_gui.core.snapshot.sentences import Sentence
from gpumem_gui.views.common.language import Shown, current_language, filled


def said(text: str) -> str:
    """`text` in the window's language when it is a Sentence (in English: the sentence itself), else as it is."""
    if not isinstance(text, Sentence) or current_language() == "en":
        return str(text)
    template = QtCore.QCoreApplication.translate(text.context, text.template) if text.context else text.template
    if not text.fields:
        return template
    # a field that is a Sentence is said in turn; figures are written as the language writes them, data as it is
    return filled(template, {k: Shown(said(v)) if isinstance(v, Sentence) else v for k, v in text.fields.items()})
