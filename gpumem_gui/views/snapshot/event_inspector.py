"""EventInspector: one trace event read out: what happened, where, how big (asked and given), when, from which code."""

from __future__ import annotations

from datetime import UTC, datetime

from PySide6 import QtCore, QtGui, QtWidgets

from gpumem_gui.core.snapshot.stacks import format_frame, fx_text
from gpumem_gui.core.snapshot.units import format_bytes, format_bytes_exact
from gpumem_gui.document.events import format_elapsed
from gpumem_gui.document.frame import EventInfo
from gpumem_gui.views.common.language import QT_TRANSLATE_NOOP, add_tab
from gpumem_gui.views.common.stack_view import StackView

NONE = "—"
# the fields, always all of them in this order, so that moving from event to event never moves the layout
FIELDS = (
    ("action", "action"),
    ("address", "address"),
    ("size", "size"),
    ("block", "block"),
    ("stream", "stream"),
    ("time", "time"),
    ("device_free", "device free"),
    ("compile_context", "compile context"),
    ("user_metadata", "user metadata"),
    ("fx_node", "FX node"),
)
_NO_ADDRESS = {"oom": "(an OOM has no address)", "snapshot": ""}
_SIZED_BLOCKS = {"alloc", "free_requested", "free_completed"}


def field_texts(info: EventInfo) -> dict[str, str]:
    """What each field says for `info` (plain text)."""
    texts = {
        "action": info.label or info.action,
        "address": f"{info.address:#x}" if info.action not in _NO_ADDRESS else f"{NONE} {_NO_ADDRESS[info.action]}",
        "size": f"{format_bytes_exact(info.size)}, {info.size_meaning}",
        "block": _block_text(info),
        "stream": f"{info.stream}" + (" (the default stream)" if info.stream == 0 else ""),
        "time": NONE + " (this trace has no times)" if info.elapsed_us is None else _time_text(info.elapsed_us),
        "device_free": NONE if info.device_free is None else f"{format_bytes_exact(info.device_free)} (cudaMemGetInfo)",
        "compile_context": info.compile_context or NONE,
        "user_metadata": info.user_metadata or NONE,
        "fx_node": "; ".join(map(fx_text, info.fx_nodes)) or NONE,
    }
    return texts


def _block_text(info: EventInfo) -> str:
    if info.action not in _SIZED_BLOCKS:
        return NONE
    if info.block_size is None:
        return f"{NONE} (not known until the trace is indexed)"
    if info.block_size == info.size:
        return f"{format_bytes_exact(info.block_size)}, as requested"
    extra = info.block_size - info.size
    more = f"{extra:,} bytes" if abs(extra) < 1024 else f"{format_bytes(extra)} ({extra:,} bytes)"
    return f"{format_bytes_exact(info.block_size)}: {more} more than requested"


def _time_text(elapsed_us: int) -> str:
    return f"{format_elapsed(elapsed_us)} after the trace's first event"


def _wall_clock(time_us: int | None) -> str:
    if time_us is None:
        return ""
    try:
        return datetime.fromtimestamp(time_us / 1e6, tz=UTC).strftime("%Y-%m-%d %H:%M:%S.%f UTC")
    except (OverflowError, OSError, ValueError):  # a clock value no calendar holds: say nothing rather than fail
        return ""


NO_EVENT = "no event: before the first one, or the file has no trace"
NO_EVENT_PENDING = "no event yet: the trace is still being read"


class EventInspector(QtWidgets.QWidget):
    """A fixed grid of fields over the event's stack (and its forward stack, for backward allocations)."""

    def __init__(self, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        self.heading = QtWidgets.QLabel()
        bold = self.heading.font()
        bold.setBold(True)
        self.heading.setFont(bold)
        self.heading.setSizePolicy(QtWidgets.QSizePolicy.Policy.Ignored, QtWidgets.QSizePolicy.Policy.Fixed)
        self.values: dict[str, QtWidgets.QLabel] = {}
        grid = QtWidgets.QGridLayout()
        grid.setHorizontalSpacing(10)
        grid.setVerticalSpacing(2)
        name_width = max(self.fontMetrics().horizontalAdvance(name) for _key, name in FIELDS) + 4
        for row, (key, name) in enumerate(FIELDS):
            caption = QtWidgets.QLabel(name)
            caption.setFixedWidth(name_width)
            caption.setAlignment(QtCore.Qt.AlignmentFlag.AlignRight | QtCore.Qt.AlignmentFlag.AlignVCenter)
            value = QtWidgets.QLabel()
            value.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
            # a long value (a compile context) is cut at the edge, its whole text in the tooltip: never a wider pane
            value.setSizePolicy(QtWidgets.QSizePolicy.Policy.Ignored, QtWidgets.QSizePolicy.Policy.Fixed)
            grid.addWidget(caption, row, 0)
            grid.addWidget(value, row, 1)
            self.values[key] = value
        grid.setColumnStretch(1, 1)
        self.stack = StackView()  # the user's frames first; every recorded frame behind its "show all" box
        # the forward stack is text (a Python traceback's lines), not frames
        self.forward_stack = QtWidgets.QPlainTextEdit(readOnly=True)
        self.forward_stack.setFont(QtGui.QFontDatabase.systemFont(QtGui.QFontDatabase.SystemFont.FixedFont))
        self.forward_stack.setLineWrapMode(QtWidgets.QPlainTextEdit.LineWrapMode.NoWrap)
        self.stacks = QtWidgets.QTabWidget()
        add_tab(self.stacks, self.stack, QT_TRANSLATE_NOOP("Tabs", "stack"))
        add_tab(self.stacks, self.forward_stack, QT_TRANSLATE_NOOP("Tabs", "forward stack"))
        layout = QtWidgets.QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addLayout(grid)
        layout.addWidget(self.stacks, 1)
        self.info: EventInfo | None = None
        self.show_event(None)

    def show_event(self, info: EventInfo | None, pending: bool = False) -> None:
        """Read out `info`; None (before the first event, no trace, or a trace still being read: `pending`) empties
        every field."""
        self.info = info
        if info is None:
            self.heading.setText(NO_EVENT_PENDING if pending else NO_EVENT)
            for value in self.values.values():
                value.setText(NONE)
                value.setToolTip("")
            self.stack.clear()
            self.forward_stack.setPlainText("")
            self.stacks.setTabEnabled(1, False)
            return
        of = f" of {info.n_events:,}" if info.n_events else ""
        self.heading.setText(f"event {info.index:,}{of}: {info.label or info.action}")
        for key, text in field_texts(info).items():
            self.values[key].setText(text)
            self.values[key].setToolTip(text)
        self.values["action"].setToolTip(f"{info.action} in the trace")
        if info.fx_nodes:  # the user's code each node came from, as torch.compile recorded it
            self.values["fx_node"].setToolTip("\n\n".join(n.original_trace or fx_text(n) for n in info.fx_nodes))
        if info.time_us is not None:
            self.values["time"].setToolTip(f"{_wall_clock(info.time_us)} ({info.time_us:,} µs since the epoch)")
        self.stack.set_frames(info.recorded_frames or info.frames)
        forward = "\n".join(info.forward_frames) or "(no forward stack: not a backward allocation)"
        self.forward_stack.setPlainText(forward)
        self.stacks.setTabEnabled(1, bool(info.forward_frames))
        self.stacks.setTabText(
            1, f"forward stack ({len(info.forward_frames)})" if info.forward_frames else "forward stack"
        )
        if not info.forward_frames and self.stacks.currentIndex() == 1:
            self.stacks.setCurrentIndex(0)

    def text(self) -> str:
        """Everything shown, as plain text (for copying and tests)."""
        rows = [self.heading.text()]
        rows += [f"{name}: {self.values[key].text()}" for key, name in FIELDS]
        rows += ["stack:", *(format_frame(f) for f in self.stack.frames_shown())]
        rows += ["forward stack:", self.forward_stack.toPlainText()]
        if self.info is not None and self.info.fx_nodes:
            rows += ["FX original trace:", *(n.original_trace for n in self.info.fx_nodes)]
        return "\n".join(rows)
