"""RichTextBox shows a rich text as a word-wrapped rich QLabel of its width shows it (Qt's own label is the oracle),
pixel for pixel, and asks for a new layout only when its height changes."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from PySide6 import QtCore, QtGui, QtWidgets

from gpumem_gui.views.common.rich_text import rich_text
from gpumem_gui.views.common.rich_text_box import RichTextBox

WIDTH = 260
TEXTS = [
    "plain words, enough of them to wrap over two or three lines at this width, and some more",
    '<table width="100%" cellspacing="0" cellpadding="4"><tr><td bgcolor="#fdecea" style="color: #b00020;">'
    "<b>alert</b> OOM at event 3: a request of 2.0 GiB failed</td></tr>"
    '<tr><td bgcolor="#fff4d6"><b>warning</b> 4.0 GiB (25%) of reserved is cached but free</td></tr></table>',
    rich_text("<b>note</b> 1\u202f610 / 620\u202f928 octets : un trou de 1,5\u00a0Gio"),
]


def _pixels(widget: QtWidgets.QWidget) -> np.ndarray:
    image = widget.grab().toImage().convertToFormat(QtGui.QImage.Format.Format_RGB32)
    return np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), image.width(), 4).copy()


@pytest.mark.parametrize("text", TEXTS)
def test_the_box_draws_what_a_wrapped_rich_label_draws(qtbot: Any, text: str) -> None:
    label = QtWidgets.QLabel()
    label.setWordWrap(True)
    label.setTextFormat(QtCore.Qt.TextFormat.RichText)
    label.setAlignment(QtCore.Qt.AlignmentFlag.AlignTop | QtCore.Qt.AlignmentFlag.AlignLeft)
    label.setText(text)
    box = RichTextBox()
    box.setText(text)
    for widget in (label, box):
        qtbot.addWidget(widget)
        widget.setFixedWidth(WIDTH)
    height = label.heightForWidth(WIDTH)
    assert box.heightForWidth(WIDTH) == height > 0
    for widget in (label, box):
        widget.setFixedHeight(height)
    assert np.array_equal(_pixels(box), _pixels(label))


class _LayoutRequests(QtCore.QObject):
    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def eventFilter(self, watched: QtCore.QObject, event: QtCore.QEvent) -> bool:
        if event.type() == QtCore.QEvent.Type.LayoutRequest:
            self.count += 1
        return False


def test_a_new_text_of_the_same_height_lays_nothing_out_again(qtbot: Any) -> None:
    holder = QtWidgets.QWidget()
    qtbot.addWidget(holder)
    layout = QtWidgets.QVBoxLayout(holder)
    box = RichTextBox()
    box.setFixedWidth(WIDTH)
    layout.addWidget(box)
    holder.show()
    box.setText("<b>one</b> line")
    QtWidgets.QApplication.processEvents()
    one_line = box.heightForWidth(WIDTH)
    requests = _LayoutRequests()
    holder.installEventFilter(requests)
    box.setText("<b>another</b> line")  # one line still
    QtWidgets.QApplication.processEvents()
    assert requests.count == 0 and box.text() == "<b>another</b> line"
    box.setText(TEXTS[0])  # three lines: the layout around it must give it room
    QtWidgets.QApplication.processEvents()
    assert requests.count >= 1
    assert box.heightForWidth(WIDTH) > one_line and box.height() == box.heightForWidth(WIDTH)
