"""HeldLabel: a new text lays the window out again only where the label's size hints change."""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

from gpumem_gui.views.common.one_line import HeldLabel


class _Requests(QtCore.QObject):
    """Counts the layout requests a widget gets (a child's updateGeometry posts one to its parent)."""

    def __init__(self, widget: QtWidgets.QWidget) -> None:
        super().__init__()
        self.count = 0
        widget.installEventFilter(self)

    def eventFilter(self, obj: QtCore.QObject, event: QtCore.QEvent) -> bool:
        if event.type() == QtCore.QEvent.Type.LayoutRequest:
            self.count += 1
        return False


def _panel(qapp: QtWidgets.QApplication) -> tuple[QtWidgets.QWidget, HeldLabel, HeldLabel]:
    panel = QtWidgets.QWidget()
    layout = QtWidgets.QVBoxLayout(panel)
    value = QtWidgets.QLabel("1.0 GiB")
    value.setSizePolicy(QtWidgets.QSizePolicy.Policy.Ignored, QtWidgets.QSizePolicy.Policy.Fixed)
    wrapped = QtWidgets.QLabel("short")
    wrapped.setWordWrap(True)
    held_value, held_wrapped = HeldLabel(value), HeldLabel(wrapped)
    held_wrapped.setFixedWidth(120)
    layout.addWidget(held_value)
    layout.addWidget(held_wrapped)
    layout.addStretch(1)
    panel.resize(300, 400)
    panel.show()
    qapp.processEvents()
    return panel, held_value, held_wrapped


def test_a_one_line_value_changes_without_a_layout(qapp: QtWidgets.QApplication) -> None:
    panel, held_value, _ = _panel(qapp)
    requests = _Requests(panel)
    held_value.set_text("a much longer value than before, 123,456,789 bytes")
    qapp.processEvents()
    assert requests.count == 0
    assert held_value.label.text() == "a much longer value than before, 123,456,789 bytes"
    assert held_value.label.geometry() == held_value.rect()  # it still fills its box
    panel.close()


def test_new_lines_make_the_box_taller(qapp: QtWidgets.QApplication) -> None:
    panel, held_value, held_wrapped = _panel(qapp)
    line = held_value.height()
    held_value.set_text("first line\nsecond line")
    held_wrapped.set_text("a sentence long enough to wrap over several lines at this width, surely")
    qapp.processEvents()
    assert held_value.height() == held_value.label.sizeHint().height() > line
    assert held_wrapped.height() == held_wrapped.label.heightForWidth(120) > line
    assert held_wrapped.label.height() == held_wrapped.height()
    panel.close()
