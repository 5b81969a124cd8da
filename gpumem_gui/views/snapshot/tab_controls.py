"""TabControls: the row over a snapshot tab's map: device, pool, stream, layout and colouring menus, the search,
the curves' axis, Play, and where the cursor is. It holds the widgets and fills the menus; the tab acts on their
choices."""

from __future__ import annotations

from collections.abc import Callable

from PySide6 import QtCore, QtWidgets

from gpumem_gui.document.document import LAYOUTS
from gpumem_gui.document.frame import EventFrame
from gpumem_gui.views.common.language import QT_TRANSLATE_NOOP, Retranslated, filled, translate

# the menus' entries (translated where they are shown), each with what it stands for
POOLS = (
    (QT_TRANSLATE_NOOP("TabControls", "all pools"), "all"),
    (QT_TRANSLATE_NOOP("TabControls", "small pool"), "small"),
    (QT_TRANSLATE_NOOP("TabControls", "large pool"), "large"),
    (QT_TRANSLATE_NOOP("TabControls", "private pools"), "private"),
)
COLOURING_LABELS = (
    (QT_TRANSLATE_NOOP("TabControls", "by site"), "site"),
    (QT_TRANSLATE_NOOP("TabControls", "by age"), "age"),
)
LAYOUT_LABELS = (
    QT_TRANSLATE_NOOP("TabControls", "by address"),
    QT_TRANSLATE_NOOP("TabControls", "by segment, largest first"),
    QT_TRANSLATE_NOOP("TabControls", "by segment, most free first"),
    QT_TRANSLATE_NOOP("TabControls", "by segment, to scale"),
)
AXES = (QT_TRANSLATE_NOOP("TabControls", "by event"), QT_TRANSLATE_NOOP("TabControls", "by time"))


def _tr(text: str) -> str:
    return translate("TabControls", text)


def frame_position(frame: EventFrame) -> str:
    """Where in the trace the frame is (EventFrame.position), in the window's language."""
    if frame.pending:
        return translate("TabControls", "indexing the trace...")
    if frame.event == frame.n_events - 1:
        return translate("TabControls", "at the snapshot")
    if frame.event == -1:
        return translate("TabControls", "before the first event")
    fields = {"event": f"{frame.event:,}", "events": f"{frame.n_events:,}"}
    return filled(translate("TabControls", "after event {event} of {events}"), fields)


def frame_title(frame: EventFrame) -> str:
    """The figures' heading (EventFrame.title), in the window's language."""
    where = translate("TabControls", "at the snapshot") if frame.pending else frame_position(frame)
    return translate("TabControls", "GPU {device}, {where}").format(device=frame.device, where=where)


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


class TabControls(Retranslated):
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
        self.search = QtWidgets.QLineEdit()
        self.search_count = QtWidgets.QLabel()  # how many blocks the search matches at the event shown
        self.axis_box = QtWidgets.QComboBox()
        self.axis_box.addItems(list(AXES))
        self.axis_box.setEnabled(False)
        self.play_button = QtWidgets.QPushButton()
        self.play_button.setCheckable(True)
        self.position = QtWidgets.QLabel()
        self._matches = -1
        self._frame: EventFrame | None = None
        self._devices: Callable[[], list[tuple[int, str]]] | None = None
        self._streams: tuple[list[int], int | None] | None = None
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
        self.retranslate()

    def retranslate(self) -> None:
        for box, labels in (
            (self.pool_box, [label for label, _ in POOLS]),
            (self.layout_box, list(LAYOUT_LABELS)),
            (self.colouring_box, [label for label, _ in COLOURING_LABELS]),
            (self.axis_box, list(AXES)),
        ):
            for i, label in enumerate(labels):
                box.setItemText(i, _tr(label))
        self.colouring_box.setToolTip(
            translate("TabControls", "colour allocated blocks by allocation site, or by how long ago they were made")
        )
        self.search.setPlaceholderText(
            translate("TabControls", "search: stack text, 0x or decimal address, or size range like 1MiB-20MiB")
        )
        self.play_button.setText(translate("TabControls", "Play"))
        metrics = self.fontMetrics()
        widest = filled(translate("TabControls", "{n} {n:match|matches}"), {"n": "100,000"})
        self.search_count.setFixedWidth(metrics.horizontalAdvance(widest) + 4)
        # the position's text changes width on every step: a fixed width keeps the bar's widgets where they are
        fields = {"event": "10,000,000", "events": "10,000,000"}
        self.position.setFixedWidth(
            metrics.horizontalAdvance(filled(translate("TabControls", "after event {event} of {events}"), fields))
        )
        # and the bar's height: a label of fixed size (the search's count too) asks no layout above it to be redone
        # when its text changes (else every travel step relaid the whole tab, and the file's tab widget repainted it)
        boxes = (self.device_box, self.pool_box, self.layout_box, self.search, self.axis_box, self.play_button)
        height = max(w.sizeHint().height() for w in boxes)
        for fixed in (self.position, self.search_count):
            fixed.setFixedHeight(height)
        if self._streams is not None:
            self.set_streams(*self._streams)
        self.show_matches(self._matches)
        if self._frame is not None:
            self.show_position(self._frame)
        if self._devices is not None:
            self.set_devices(self._devices, self.device_box.currentData())

    def show_position(self, frame: EventFrame) -> None:
        """Where in the trace `frame` is, in the window's language (again after a switch)."""
        self._frame = frame
        self.position.setText(frame_position(frame))

    def set_devices(self, labelled: Callable[[], list[tuple[int, str]]], current: int) -> None:
        """The device menu: each device with its words (device_label, asked again after a switch of language),
        `current` picked."""
        self._devices = labelled
        _quietly_set(self.device_box, [(label, device) for device, label in labelled()], current)
        self.device_box.setToolTip(self.device_box.currentText())  # the menu shows a few characters of it

    def set_streams(self, streams: list[int], current: int | None) -> None:
        """The stream menu (shown only where the device has more than one stream)."""
        self._streams = (streams, current)
        each = translate("TabControls", "stream {stream}")
        items: list[tuple[str, object]] = [
            (translate("TabControls", "all streams"), None),
            *((each.format(stream=s), s) for s in streams),
        ]
        _quietly_set(self.stream_box, items, current)
        self.stream_box.setVisible(len(streams) > 1)

    def show_matches(self, matches: int) -> None:
        """How many blocks the search matches (-1: no search)."""
        self._matches = matches
        self.search_count.setText(
            "" if matches < 0 else filled(translate("TabControls", "{n} {n:match|matches}"), {"n": f"{matches:,}"})
        )
