"""The core's sentences (core/snapshot/sentences.py) in the window's language: the template translated, its
figures written as the language writes them ("1,5 Gio", "41,9 %", "2 520"), its data as it is."""

from __future__ import annotations

import re

from PySide6 import QtCore

from gpumem_gui.core.snapshot.sentences import Sentence
from gpumem_gui.teach.demos.wording import Count
from gpumem_gui.views.common.language import current_language, localized

_COUNT = re.compile(r"\d{1,3}(?:,\d{3})+|\d+")
# a figure as the core writes it: a number, a size ("1.5 GiB", "512 B"), a percentage ("41.9%", "<0.1%"), an exact
# size ("1.5 GiB (1,610,612,736 bytes)"); anything else (an address, a setting, a path) is data, said as it is
_FIGURE = re.compile(r"[<>~]?-?\d[\d,]*(?:\.\d+)?(?:%| [KMGTP]iB| B| bytes| MB)?(?: \([\d,]+ bytes\))?")


def said(text: str) -> str:
    """`text` in the window's language when it is a Sentence (in English: the sentence itself), else as it is."""
    if not isinstance(text, Sentence) or current_language() == "en":
        return str(text)
    template = QtCore.QCoreApplication.translate(text.context, text.template) if text.context else text.template
    if not text.fields:
        return template
    return template.format_map({name: _worded(value) for name, value in text.fields.items()})


class _Said(str):
    """A field already said in the window's language: `{x:capital}` writes it with a capital."""

    def __format__(self, spec: str) -> str:
        return self[:1].upper() + self[1:] if spec == "capital" else format(str(self), spec)


def _worded(value: str) -> object:
    if isinstance(value, Sentence):
        return _Said(said(value))
    if _COUNT.fullmatch(value):  # a count: grouped, and `{n:one|other}` takes its form
        return Count(int(value.replace(",", "")), current_language())
    if _FIGURE.fullmatch(value):
        return localized(value)
    return _Said(value)
