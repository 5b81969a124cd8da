"""A marker for texts the window translates: Qt's lupdate extracts `QT_TRANSLATE_NOOP("ctx", "text")` calls from any
Python file, so Qt-free code can name its labels here and the views translate them with the same context."""

from __future__ import annotations


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # the name lupdate looks for
    """`text` itself: the view shows `QCoreApplication.translate(context, text)`."""
    return text
