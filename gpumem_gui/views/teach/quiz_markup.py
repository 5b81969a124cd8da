"""Quiz text to Qt: `code` in backticks to rich text, long identifiers made breakable; the labels, buttons and
scroll areas the quiz is built of."""

from __future__ import annotations

import html
import re
from collections.abc import Callable

from PySide6 import QtCore, QtWidgets

from gpumem_gui.views.common.rich_text import rich_text

_CODE = re.compile(r"`([^`]+)`")
_LONG_TOKEN = re.compile(r"\S{20,}")
_BREAK_AFTER = re.compile(r"[._=:/,(\[]")
ZERO_WIDTH_SPACE = "\u200b"


def breakable(text: str) -> str:
    """Let long identifiers wrap after their dots, underscores and the like.

    A word-wrapped label cannot break inside a word, so one `PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True`
    sets the minimum width of the whole dock; a zero-width space is a line-break opportunity and draws nothing.
    """

    def split(m: re.Match[str]) -> str:
        word = m.group(0)
        return _BREAK_AFTER.sub(lambda c: c.group(0) + ZERO_WIDTH_SPACE, word[:-1]) + word[-1]

    return _LONG_TOKEN.sub(split, text)


def rich(text: str) -> str:
    # quiz texts are plain, with `code` in backticks; escape everything else so a "<" stays a "<"
    parts = _CODE.split(html.escape(breakable(text), quote=False))
    return rich_text("".join(f"<code>{p}</code>" if i % 2 else p for i, p in enumerate(parts)))


def plain(text: str) -> str:
    return _CODE.sub(r"\1", text)


def wrapped_label(object_name: str = "", *, rich: bool = False) -> QtWidgets.QLabel:
    label = QtWidgets.QLabel()
    label.setWordWrap(True)
    label.setTextFormat(QtCore.Qt.TextFormat.RichText if rich else QtCore.Qt.TextFormat.PlainText)
    if object_name:
        label.setObjectName(object_name)
    return label


def set_style_state(widget: QtWidgets.QWidget, name: str, value: str) -> None:
    """Set a style property and re-apply the style sheet to the widget and its children (Qt does not do it)."""
    if widget.property(name) == value:
        return
    widget.setProperty(name, value)
    for w in [widget, *widget.findChildren(QtWidgets.QWidget)]:
        w.style().unpolish(w)
        w.style().polish(w)
        w.update()


def scroll_area(content: QtWidgets.QWidget) -> QtWidgets.QScrollArea:
    area = QtWidgets.QScrollArea()
    area.setWidgetResizable(True)
    area.setFrameShape(QtWidgets.QFrame.Shape.NoFrame)
    area.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    area.setWidget(content)
    return area


def push_button(slot: Callable[[], None], primary: bool = False) -> QtWidgets.QPushButton:
    """A button that calls `slot` with no arguments; a primary one is bold. It never takes Enter from the panel."""
    button = QtWidgets.QPushButton()
    button.setAutoDefault(False)
    button.clicked.connect(lambda _checked=False: slot())  # clicked(bool) would fill a slot's first default
    if primary:
        font = button.font()
        font.setBold(True)
        button.setFont(font)
    return button
