"""QT_TRANSLATE_NOOP for core's texts a window shows: core imports no Qt, the view translates them where shown."""

from __future__ import annotations


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # the name pyside6-lupdate looks for
    """Marks `text` for the window's translations, in `context`; returns it as it is (English)."""
    return text
