"""DeviceView: every GPU NVML sees and the processes on it, refreshed by a polling task; draws readings only."""

from __future__ import annotations

import time
from typing import Any

from PySide6 import QtCore, QtGui, QtWidgets

from gpumem_gui.core.snapshot.sentences import Sentence
from gpumem_gui.sources.nvml import (
    MEMORY_UTIL_TIP,
    NA,
    NOTES_APART,
    GpuDevice,
    GpuProcess,
    NvmlPoller,
    NvmlReading,
    NvmlSource,
)
from gpumem_gui.teach.translatable import QT_TRANSLATE_NOOP
from gpumem_gui.views.common.language import count, num, pct, size
from gpumem_gui.views.common.sentences import said
from gpumem_gui.views.common.tasks import NVML_TASK, Task, TaskContext, TaskGroup

DEFAULT_INTERVAL_S = 1.0

# (header, header tooltip); GPU rows and their process rows share the columns
COLUMNS: tuple[tuple[str, str], ...] = (
    (
        QT_TRANSLATE_NOOP("DeviceView", "GPU / pid"),
        QT_TRANSLATE_NOOP(
            "DeviceView",
            "GPUs in NVML (PCI bus) order; CUDA numbers them alike only with CUDA_DEVICE_ORDER=PCI_BUS_ID.",
        ),
    ),
    (
        QT_TRANSLATE_NOOP("DeviceView", "name / command"),
        QT_TRANSLATE_NOOP("DeviceView", "The GPU's name; for a process its command line (from psutil)."),
    ),
    (
        QT_TRANSLATE_NOOP("DeviceView", "used"),
        QT_TRANSLATE_NOOP(
            "DeviceView", "Device memory in use; for a process, what NVML charges to it (its CUDA context included)."
        ),
    ),
    (QT_TRANSLATE_NOOP("DeviceView", "free"), QT_TRANSLATE_NOOP("DeviceView", "Device memory nobody holds.")),
    (
        QT_TRANSLATE_NOOP("DeviceView", "reserved"),
        QT_TRANSLATE_NOOP(
            "DeviceView",
            "Memory the driver and firmware set aside (NVML memory info v2). n/a where the driver only has v1: "
            "then 'used' includes it, which is why an idle GPU seems to use hundreds of MiB.",
        ),
    ),
    (QT_TRANSLATE_NOOP("DeviceView", "total"), QT_TRANSLATE_NOOP("DeviceView", "The device's memory.")),
    (
        QT_TRANSLATE_NOOP("DeviceView", "GPU util"),
        QT_TRANSLATE_NOOP(
            "DeviceView", "Fraction of the last sample period during which a kernel was running on the GPU."
        ),
    ),
    (QT_TRANSLATE_NOOP("DeviceView", "memory util"), MEMORY_UTIL_TIP),
    (QT_TRANSLATE_NOOP("DeviceView", "temp"), QT_TRANSLATE_NOOP("DeviceView", "GPU core temperature.")),
    (
        QT_TRANSLATE_NOOP("DeviceView", "user"),
        QT_TRANSLATE_NOOP(
            "DeviceView", "Owner of the process (from psutil); n/a when it has ended or may not be read."
        ),
    ),
    (
        QT_TRANSLATE_NOOP("DeviceView", "UUID / kind"),
        QT_TRANSLATE_NOOP(
            "DeviceView", "The GPU's UUID (stable across reboots, unlike indices); for a process its context kind."
        ),
    ),
)
_COL = {header: i for i, (header, _) in enumerate(COLUMNS)}
_MAX_COMMAND_WIDTH = 420
_NUMERIC = ("used", "free", "reserved", "total", "GPU util", "memory util", "temp")
_KEY_ROLE = QtCore.Qt.ItemDataRole.UserRole  # a process row's pid (int), or the text of an explanatory row


def _tr(text: str) -> str:
    return QtCore.QCoreApplication.translate("DeviceView", text)


def _notes(note: str) -> list[str]:
    """A device's notes on its process lists, one by one: the parts of the Sentence that joins them, else split."""
    if isinstance(note, Sentence) and not note.context:
        return list(note.fields.values())
    return note.split(NOTES_APART)


def _bytes(n: int | None) -> str:
    return NA if n is None else size(n)


def _percent(n: int | None) -> str:
    return NA if n is None else pct(n / 100)


def _child(item: QtWidgets.QTreeWidgetItem, i: int) -> QtWidgets.QTreeWidgetItem:
    child = item.child(i)
    assert child is not None  # i < childCount(): the binding's optional return cannot be None here
    return child


class DeviceView(QtWidgets.QWidget):
    """Call start() to poll NVML in a task (or set_reading() with any reading) and stop() before closing."""

    interval_changed = QtCore.Signal(float)  # the user changed the polling interval (seconds)
    process_activated = QtCore.Signal(int)  # a process row was double-clicked: its pid

    def __init__(self, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        self.reading: NvmlReading | None = None
        self.poller: NvmlPoller | None = None
        self.poll_task: Task | None = None
        # no Qt parent: a task that ends after this widget is deleted still finds its group alive (the task
        # holds it), where a child group would be deleted with the widget under the task's last signal
        self.tasks = TaskGroup()
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)

        self.banner = QtWidgets.QLabel()
        self.banner.setVisible(False)
        self.banner.setFrameShape(QtWidgets.QFrame.Shape.StyledPanel)
        self.banner.setAutoFillBackground(True)
        self.banner.setBackgroundRole(QtGui.QPalette.ColorRole.ToolTipBase)
        self.banner.setForegroundRole(QtGui.QPalette.ColorRole.ToolTipText)
        self.banner.setMargin(6)
        self.banner.setSizePolicy(QtWidgets.QSizePolicy.Policy.Preferred, QtWidgets.QSizePolicy.Policy.Maximum)
        self.banner.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.banner)

        row = QtWidgets.QHBoxLayout()
        self.status = QtWidgets.QLabel()
        row.addWidget(self.status, 1)
        self.refresh_label = QtWidgets.QLabel()
        row.addWidget(self.refresh_label)
        self.interval_box = QtWidgets.QDoubleSpinBox(
            minimum=0.1, maximum=60.0, singleStep=0.5, decimals=1, value=DEFAULT_INTERVAL_S, suffix=" s"
        )
        self.interval_box.valueChanged.connect(self._interval_edited)
        row.addWidget(self.interval_box)
        layout.addLayout(row)

        self.tree = QtWidgets.QTreeWidget(columnCount=len(COLUMNS))
        self.tree.setUniformRowHeights(True)
        self.tree.setAlternatingRowColors(True)
        header_item = QtWidgets.QTreeWidgetItem([h for h, _ in COLUMNS])
        for i in range(len(COLUMNS)):
            if COLUMNS[i][0] in _NUMERIC:
                header_item.setTextAlignment(i, QtCore.Qt.AlignmentFlag.AlignRight)
        self.tree.setHeaderItem(header_item)
        self.tree.itemDoubleClicked.connect(self._double_clicked)
        layout.addWidget(self.tree, 1)
        layout.addStretch(0)  # takes the room when the tree is hidden, so the banner stays one line at the top

        self._gpu_items: dict[str, QtWidgets.QTreeWidgetItem] = {}
        self.retranslate()

    def retranslate(self) -> None:
        """Headers, tooltips and the status in the window's language; the rows worded again."""
        header_item = self.tree.headerItem()
        for i, (header, tip) in enumerate(COLUMNS):
            header_item.setText(i, _tr(header))
            header_item.setToolTip(i, _tr(tip))
        self.refresh_label.setText(self.tr("refresh every"))
        self.interval_box.setToolTip(
            self.tr("How often NVML is read. NVML's own utilisation samples cover 1/6 s to 1 s.")
        )
        if self.reading is None:
            self.status.setText(self.tr("NVML: not polled yet"))
        else:
            self.set_reading(self.reading)

    def changeEvent(self, event: QtCore.QEvent) -> None:
        if event.type() == QtCore.QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    # -- polling --------------------------------------------------------------------------------------------

    @property
    def interval_s(self) -> float:
        return float(self.interval_box.value())

    def start(self, source: Any = None, interval_s: float | None = None) -> None:
        """Poll `source` (default: a new NvmlSource, closed by stop()) every `interval_s` (default: the spin box's
        value). Anything with read() -> NvmlReading and close() will do."""
        self.stop()
        if interval_s is not None:
            self.interval_box.blockSignals(True)
            self.interval_box.setValue(interval_s)
            self.interval_box.blockSignals(False)
        own = source is None
        poller = NvmlPoller(NvmlSource() if source is None else source, self.interval_s, own_source=own)

        def poll(ctx: TaskContext) -> None:
            ctx.on_cancel(poller.request_stop)
            # the progress value only says "a reading waits": take() gives the newest, so none pile up
            poller.run(lambda: ctx.progress(poller))

        self.poller = poller
        self.poll_task = self.tasks.start(NVML_TASK, poll, on_progress=self._take_reading, on_error=self._poll_failed)

    def stop(self, timeout_s: float = 2.0) -> bool:
        """Cancel the polling task; True once its loop has ended (a driver call that hangs can outlast the wait)."""
        poller, self.poller = self.poller, None
        task, self.poll_task = self.poll_task, None
        if task is not None:
            task.cancel()
        return True if poller is None else poller.stop(timeout_s)

    def _take_reading(self, poller: NvmlPoller) -> None:
        reading = poller.take() if poller is self.poller else None
        if reading is not None:
            self.set_reading(reading)

    def _poll_failed(self, message: str) -> None:
        # the loop itself failed (not a reading: those carry their own error): one line, where readings show theirs
        self.poller = self.poll_task = None
        self.set_reading(NvmlReading((), self.tr("NVML polling stopped: {message}").format(message=message),
                                     taken_at=time.time()))  # fmt: skip

    def _interval_edited(self, value: float) -> None:
        if self.poller is not None:
            self.poller.interval_s = value
        self.interval_changed.emit(float(value))

    def _double_clicked(self, item: QtWidgets.QTreeWidgetItem, _column: int) -> None:
        key = item.data(0, _KEY_ROLE) if item.parent() is not None else None
        if isinstance(key, int):
            self.process_activated.emit(key)

    # -- drawing --------------------------------------------------------------------------------------------

    def set_reading(self, reading: NvmlReading) -> None:
        """Show one reading. Rows are updated in place, so what the user expanded, collapsed or selected stays."""
        self.reading = reading
        self.banner.setVisible(reading.error is not None)
        self.banner.setText(said(reading.error) if reading.error else "")
        self.tree.setVisible(reading.error is None)
        stamp = time.strftime("%H:%M:%S", time.localtime(reading.taken_at)) if reading.taken_at else NA
        if reading.error is None:
            n = len(reading.devices)
            self.status.setText(
                self.tr("NVIDIA driver {driver}: {n} {n:GPU|GPUs}; read at {time} in {ms} ms").format(
                    driver=reading.driver_version or NA, n=count(n), time=stamp, ms=num(reading.read_s * 1000)
                )
            )
        else:
            self.status.setText(self.tr("NVML: checked at {time}").format(time=stamp))

        keys = [d.uuid or f"#{d.index}" for d in reading.devices]
        changed = keys != list(self._gpu_items)
        if changed:
            self.tree.clear()
            self._gpu_items = {}
            for key in keys:
                item = QtWidgets.QTreeWidgetItem()
                self.tree.addTopLevelItem(item)
                item.setExpanded(True)
                self._gpu_items[key] = item
        for key, device in zip(keys, reading.devices, strict=True):
            changed |= self._fill_gpu(self._gpu_items[key], device)
        if changed:  # not on every reading: that would undo the user's own column widths each second
            for i in range(len(COLUMNS)):
                self.tree.resizeColumnToContents(i)
            # command lines can be thousands of characters: the tooltip has them whole
            name = _COL["name / command"]
            self.tree.setColumnWidth(name, min(self.tree.columnWidth(name), _MAX_COMMAND_WIDTH))

    def _fill_gpu(self, item: QtWidgets.QTreeWidgetItem, d: GpuDevice) -> bool:
        values = {
            "GPU / pid": f"GPU {d.index}",
            "name / command": d.name or NA,
            "used": _bytes(d.used) if d.used_fraction is None else f"{_bytes(d.used)} ({pct(d.used_fraction)})",
            "free": _bytes(d.free),
            "reserved": _bytes(d.reserved),
            "total": _bytes(d.total),
            "GPU util": _percent(d.gpu_util),
            "memory util": _percent(d.mem_util),
            "temp": NA if d.temperature is None else f"{d.temperature} °C",
            "user": "",
            "UUID / kind": d.uuid or (d.error and f"{NA}: {said(d.error)}") or NA,
        }
        self._set_texts(item, values)
        font = item.font(0)
        font.setBold(True)
        for i in range(len(COLUMNS)):
            item.setFont(i, font)
        for header, value in (("used", d.used), ("free", d.free), ("reserved", d.reserved), ("total", d.total)):
            if value is not None:
                item.setToolTip(
                    _COL[header], self.tr("{size} ({bytes} bytes)").format(size=size(value), bytes=num(value))
                )
        item.setToolTip(_COL["memory util"], _tr(MEMORY_UTIL_TIP))
        if d.memory_version == 1:
            item.setToolTip(
                _COL["reserved"],
                self.tr("This driver has only memory info v1: 'used' includes driver-reserved memory."),
            )
        return self._fill_processes(item, d)

    def _fill_processes(self, item: QtWidgets.QTreeWidgetItem, d: GpuDevice) -> bool:
        """Process rows under a GPU row; True when the rows changed (not only their values)."""
        # (key, cell texts, tooltip): a pid, or the text of a row that explains an empty list
        rows: list[tuple[int | str, dict[str, str], str]] = [
            (p.pid, self._process_values(p), f"{p.pid}: {p.command or NA}") for p in d.processes
        ]
        if d.processes_note:
            note = self.tr("; ").join(said(n) for n in _notes(d.processes_note))
            rows.append((d.processes_note, {"name / command": note}, note))
        elif not d.processes and d.error is None:
            none = self.tr("no processes")
            rows.append(("no processes", {"name / command": none}, self.tr("NVML lists no process on this GPU.")))
        wanted = [key for key, _, _ in rows]
        changed = wanted != [_child(item, i).data(0, _KEY_ROLE) for i in range(item.childCount())]
        if changed:
            selected = {c.data(0, _KEY_ROLE) for c in item.takeChildren() if c.isSelected()}
            for key in wanted:
                child = QtWidgets.QTreeWidgetItem()
                child.setData(0, _KEY_ROLE, key)
                item.addChild(child)
                child.setSelected(key in selected)
        for i, (_, values, tip) in enumerate(rows):
            child = _child(item, i)
            self._set_texts(child, {h: values.get(h, "") for h, _ in COLUMNS})
            child.setToolTip(_COL["name / command"], tip)
        return changed

    @staticmethod
    def _process_values(p: GpuProcess) -> dict[str, str]:
        return {
            "GPU / pid": str(p.pid),
            "name / command": p.command or NA,
            "used": _bytes(p.used_bytes),
            "user": p.user or NA,
            "UUID / kind": p.kind,
        }

    @staticmethod
    def _set_texts(item: QtWidgets.QTreeWidgetItem, values: dict[str, str]) -> None:
        for header, text in values.items():
            column = _COL[header]
            if item.text(column) != text:
                item.setText(column, text)
            if header in _NUMERIC:
                item.setTextAlignment(column, QtCore.Qt.AlignmentFlag.AlignRight | QtCore.Qt.AlignmentFlag.AlignVCenter)
