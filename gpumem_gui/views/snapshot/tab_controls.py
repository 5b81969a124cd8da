"""TabControls: the row over a snapshot tab's map: device, pool, stream, layout and colouring menus, the search,
the curves' axis, Play, and where the cursor is. It holds the widgets and fills the menus; the tab acts on their
choices."""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

from gpumem_gui.document.document import LAYOUTS

POOLS = (("all pools", "all"), ("small pool", "small"), ("large pool", "large"), ("private pools", "private"))
COLOURING_LABELS = (("by site", "site"), ("by age", "age"))
LAYOUT_LABELS = ("by address", "by segment, largest first", "by segment, most free first", "by segment, to scale")


def _quietly_set(box: QtWidgets.QComboBox, items: list[tuple[str, object]], current: object) -> None:
    """Refill `box` (only where its entries changed) and pick `current`, without telling anyone."""
    box.blockSignals(True)
    if [box.itemData(i) for i in range(box.count())] != [data for _text, data in items]:
        box.clear()
        for text, data in items:
            box.addItem(text, data)
    for i, (text, _data) in enumerate(items):
        box.setItemText(i, text)
    box.setCurrentIndex(max(box.findData(current), 0))
    box.blockSignals(False)


class TabControls(QtWidgets.QWidget):
    def __init__(self, layout_index: int, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        self.device_box = QtWidgets.QComboBox()
        self.pool_box = QtWidgets.QComboBox()
        for label, data in POOLS:
            self.pool_box.addItem(label, data)
        self.stream_box = QtWidgets.QComboBox()
        self.layout_box = QtWidgets.QComboBox()
        for layout_label, layout_data in zip(LAYOUT_LABELS, LAYOUTS, strict=True):
            self.layout_box.addItem(layout_label, layout_data)
        self.layout_box.setCurrentIndex(layout_index)
        self.colouring_box = QtWidgets.QComboBox()  # the map's allocated blocks: a hue per site, or by age
        for label, colouring in COLOURING_LABELS:
            self.colouring_box.addItem(label, colouring)
        self.colouring_box.setToolTip("colour allocated blocks by allocation site, or by how long ago they were made")
        self.search = QtWidgets.QLineEdit(
            placeholderText="search: stack text, 0x or decimal address, or size range like 1MiB-20MiB"
        )
        self.search_count = QtWidgets.QLabel()  # how many blocks the search matches at the event shown
        self.search_count.setFixedWidth(self.search_count.fontMetrics().horizontalAdvance("100,000 matches"))
        self.axis_box = QtWidgets.QComboBox()
        self.axis_box.addItems(["by event", "by time"])
        self.axis_box.setEnabled(False)
        self.play_button = QtWidgets.QPushButton("Play")
        self.play_button.setCheckable(True)
        self.position = QtWidgets.QLabel()
        # the position's text changes width on every step: a fixed width keeps the bar's widgets where they are
        self.position.setFixedWidth(
            self.position.fontMetrics().horizontalAdvance("after event 10,000,000 of 10,000,000")
        )
        self.position.setAlignment(QtCore.Qt.AlignmentFlag.AlignRight | QtCore.Qt.AlignmentFlag.AlignVCenter)

        bar = QtWidgets.QHBoxLayout(self)
        bar.setContentsMargins(0, 0, 0, 0)
        for w in (self.device_box, self.pool_box, self.stream_box, self.layout_box, self.colouring_box):
            # sized by a few characters, not their longest entry: a tab must fit beside the quiz dock, and two of
            # them side by side in a demo, without pushing the window past the screen (full texts in the popup)
            w.setSizeAdjustPolicy(QtWidgets.QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            w.setMinimumContentsLength(9)
            bar.addWidget(w)
        bar.addWidget(self.search, 1)
        bar.addWidget(self.search_count)
        bar.addWidget(self.axis_box)
        bar.addWidget(self.play_button)
        bar.addWidget(self.position)

    def set_devices(self, labelled: list[tuple[int, str]], current: int) -> None:
        """The device menu: each device with its words (device_label), `current` picked."""
        _quietly_set(self.device_box, [(label, device) for device, label in labelled], current)
        self.device_box.setToolTip(self.device_box.currentText())  # the menu shows a few characters of it

    def set_streams(self, streams: list[int], current: int | None) -> None:
        """The stream menu (shown only where the device has more than one stream)."""
        items: list[tuple[str, object]] = [("all streams", None), *((f"stream {s}", s) for s in streams)]
        _quietly_set(self.stream_box, items, current)
        self.stream_box.setVisible(len(streams) > 1)

    def show_matches(self, matches: int) -> None:
        """How many blocks the search matches (-1: no search)."""
        self.search_count.setText("" if matches < 0 else f"{matches:,} match{'es' if matches != 1 else ''}")
