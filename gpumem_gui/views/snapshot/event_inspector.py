"""EventInspector: one trace event read out: what happened, where, how big (asked and given), when, from which code."""

from __future__ import annotations

from datetime import UTC, datetime

from PySide6 import QtCore, QtGui, QtWidgets

from gpumem_gui.core.snapshot.stacks import format_frame, fx_text
from gpumem_gui.core.snapshot.units import format_bytes, format_bytes_exact
from gpumem_gui.document.events import format_elapsed
from gpumem_gui.document.frame import EventInfo
from gpumem_gui.views.common.language import (
    QT_TRANSLATE_NOOP,
    Retranslated,
    add_tab,
    filled,
    localized,
    translate,
)
from gpumem_gui.views.common.one_line import HeldLabel
from gpumem_gui.views.common.stack_view import StackView

NONE = "—"
# the fields, always all of them in this order, so that moving from event to event never moves the layout
FIELDS = (
    ("action", QT_TRANSLATE_NOOP("EventInspector", "action")),
    ("address", QT_TRANSLATE_NOOP("EventInspector", "address")),
    ("size", QT_TRANSLATE_NOOP("EventInspector", "size")),
    ("block", QT_TRANSLATE_NOOP("EventInspector", "block")),
    ("stream", QT_TRANSLATE_NOOP("EventInspector", "stream")),
    ("time", QT_TRANSLATE_NOOP("EventInspector", "time")),
    ("device_free", QT_TRANSLATE_NOOP("EventInspector", "device free")),
    ("compile_context", QT_TRANSLATE_NOOP("EventInspector", "compile context")),
    ("user_metadata", QT_TRANSLATE_NOOP("EventInspector", "user metadata")),
    ("fx_node", QT_TRANSLATE_NOOP("EventInspector", "FX node")),
)
_NO_ADDRESS = {"oom": QT_TRANSLATE_NOOP("EventInspector", "(an OOM has no address)"), "snapshot": ""}
# document.events' words (the document is Qt-free): each action and what its size means, translated where shown
EVENT_WORDS = (
    QT_TRANSLATE_NOOP("EventWords", "allocation"),
    QT_TRANSLATE_NOOP("EventWords", "free requested"),
    QT_TRANSLATE_NOOP("EventWords", "free completed"),
    QT_TRANSLATE_NOOP("EventWords", "segment alloc (cudaMalloc)"),
    QT_TRANSLATE_NOOP("EventWords", "segment free (cudaFree)"),
    QT_TRANSLATE_NOOP("EventWords", "segment map"),
    QT_TRANSLATE_NOOP("EventWords", "segment unmap"),
    QT_TRANSLATE_NOOP("EventWords", "snapshot"),
    QT_TRANSLATE_NOOP("EventWords", "OOM"),
    QT_TRANSLATE_NOOP("EventWords", "annotation (user_defined)"),
    QT_TRANSLATE_NOOP("EventWords", "annotation"),
    QT_TRANSLATE_NOOP("EventWords", "unknown"),
    QT_TRANSLATE_NOOP("EventWords", "requested"),
    QT_TRANSLATE_NOOP("EventWords", "segment"),
    QT_TRANSLATE_NOOP("EventWords", "mapped range"),
    QT_TRANSLATE_NOOP("EventWords", "unmapped range"),
    QT_TRANSLATE_NOOP("EventWords", "active bytes then"),
    QT_TRANSLATE_NOOP("EventWords", "request (rounded)"),
    QT_TRANSLATE_NOOP("EventWords", "size"),
)


def event_word(text: str) -> str:
    """An action's label or a size's meaning (document.events) in the window's language."""
    return translate("EventWords", text)


def _sized(n: int) -> str:
    return localized(format_bytes_exact(n))


_SIZED_BLOCKS = {"alloc", "free_requested", "free_completed"}


def field_texts(info: EventInfo) -> dict[str, str]:
    """What each field says for `info` (plain text)."""
    no_address = translate("EventInspector", _NO_ADDRESS.get(info.action, "")) if info.action in _NO_ADDRESS else ""
    default = translate("EventInspector", " (the default stream)")
    texts = {
        "action": event_word(info.label) if info.label else info.action,
        "address": f"{info.address:#x}" if info.action not in _NO_ADDRESS else f"{NONE} {no_address}".rstrip(),
        "size": f"{_sized(info.size)}, {event_word(info.size_meaning)}",
        "block": _block_text(info),
        "stream": f"{info.stream}" + (default if info.stream == 0 else ""),
        "time": NONE + translate("EventInspector", " (this trace has no times)")
        if info.elapsed_us is None
        else _time_text(info.elapsed_us),
        "device_free": NONE if info.device_free is None else f"{_sized(info.device_free)} (cudaMemGetInfo)",
        "compile_context": info.compile_context or NONE,
        "user_metadata": info.user_metadata or NONE,
        "fx_node": "; ".join(map(fx_text, info.fx_nodes)) or NONE,
    }
    return texts


def _block_text(info: EventInfo) -> str:
    if info.action not in _SIZED_BLOCKS:
        return NONE
    if info.block_size is None:
        return NONE + translate("EventInspector", " (not known until the trace is indexed)")
    if info.block_size == info.size:
        return translate("EventInspector", "{size}, as requested").format(size=_sized(info.block_size))
    extra = info.block_size - info.size
    more = f"{extra:,} bytes" if abs(extra) < 1024 else f"{format_bytes(extra)} ({extra:,} bytes)"
    fields = {
        "size": _sized(info.block_size),
        "more": localized(more).replace("bytes", translate("EventInspector", "bytes")),
    }
    return translate("EventInspector", "{size}: {more} more than requested").format_map(fields)


def _time_text(elapsed_us: int) -> str:
    elapsed = localized(format_elapsed(elapsed_us))
    return translate("EventInspector", "{elapsed} after the trace's first event").format(elapsed=elapsed)


def _wall_clock(time_us: int | None) -> str:
    if time_us is None:
        return ""
    try:
        return datetime.fromtimestamp(time_us / 1e6, tz=UTC).strftime("%Y-%m-%d %H:%M:%S.%f UTC")
    except (OverflowError, OSError, ValueError):  # a clock value no calendar holds: say nothing rather than fail
        return ""


NO_EVENT = QT_TRANSLATE_NOOP("EventInspector", "no event: before the first one, or the file has no trace")
NO_EVENT_PENDING = QT_TRANSLATE_NOOP("EventInspector", "no event yet: the trace is still being read")


class EventInspector(Retranslated):
    """A fixed grid of fields over the event's stack (and its forward stack, for backward allocations)."""

    def __init__(self, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        self.heading = QtWidgets.QLabel()
        bold = self.heading.font()
        bold.setBold(True)
        self.heading.setFont(bold)
        self.heading.setSizePolicy(QtWidgets.QSizePolicy.Policy.Ignored, QtWidgets.QSizePolicy.Policy.Fixed)
        # the heading and the values in boxes of their own: a travel's new texts do not lay the panel out again
        self._held_heading = HeldLabel(self.heading)
        self.values: dict[str, QtWidgets.QLabel] = {}
        self._held: dict[str, HeldLabel] = {}
        grid = QtWidgets.QGridLayout()
        grid.setHorizontalSpacing(10)
        grid.setVerticalSpacing(2)
        self.captions: list[QtWidgets.QLabel] = []
        for row, (key, _name) in enumerate(FIELDS):
            caption = QtWidgets.QLabel()
            self.captions.append(caption)
            caption.setAlignment(QtCore.Qt.AlignmentFlag.AlignRight | QtCore.Qt.AlignmentFlag.AlignVCenter)
            value = QtWidgets.QLabel()
            value.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
            # a long value (a compile context) is cut at the edge, its whole text in the tooltip: never a wider pane
            value.setSizePolicy(QtWidgets.QSizePolicy.Policy.Ignored, QtWidgets.QSizePolicy.Policy.Fixed)
            grid.addWidget(caption, row, 0)
            self._held[key] = HeldLabel(value)
            grid.addWidget(self._held[key], row, 1)
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
        layout.addWidget(self._held_heading)
        layout.addLayout(grid)
        layout.addWidget(self.stacks, 1)
        self.info: EventInfo | None = None
        self._pending = False
        self._forward = ""  # the forward stack's text as set
        self.show_event(None)
        self.retranslate()

    def retranslate(self) -> None:
        names = [translate("EventInspector", name) for _key, name in FIELDS]
        width = max(self.fontMetrics().horizontalAdvance(name) for name in names) + 4
        for caption, name in zip(self.captions, names, strict=True):
            caption.setText(name)
            caption.setFixedWidth(width)
        self.show_event(self.info, self._pending)

    def show_event(self, info: EventInfo | None, pending: bool = False) -> None:
        """Read out `info`; None (before the first event, no trace, or a trace still being read: `pending`) empties
        every field."""
        self.info, self._pending = info, pending
        if info is None:
            self._held_heading.set_text(translate("EventInspector", NO_EVENT_PENDING if pending else NO_EVENT))
            for key, value in self.values.items():
                self._held[key].set_text(NONE)
                value.setToolTip("")
            self.stack.clear()
            self._forward = ""
            self.forward_stack.setPlainText("")
            self.stacks.setTabEnabled(1, False)
            return
        what = event_word(info.label) if info.label else info.action
        fields = {"event": f"{info.index:,}", "events": f"{info.n_events:,}", "what": what}
        if info.n_events:
            self._held_heading.set_text(
                filled(translate("EventInspector", "event {event} of {events}: {what}"), fields)
            )
        else:
            self._held_heading.set_text(filled(translate("EventInspector", "event {event}: {what}"), fields))
        tips = field_texts(info)
        for key, text in tips.items():
            self._held[key].set_text(text)
        tips["action"] = translate("EventInspector", "{action} in the trace").format(action=info.action)
        if info.fx_nodes:  # the user's code each node came from, as torch.compile recorded it
            tips["fx_node"] = "\n\n".join(n.original_trace or fx_text(n) for n in info.fx_nodes)
        if info.time_us is not None:
            since = translate("EventInspector", "{clock} ({us} µs since the epoch)")
            tips["time"] = filled(since, {"clock": _wall_clock(info.time_us), "us": f"{info.time_us:,}"})
        for key, tip in tips.items():
            if self.values[key].toolTip() != tip:  # each set is an event through the window's filters
                self.values[key].setToolTip(tip)
        self.stack.set_frames(info.recorded_frames or info.frames)
        forward = "\n".join(info.forward_frames) or translate(
            "EventInspector", "(no forward stack: not a backward allocation)"
        )
        if forward != self._forward:  # mostly the same words (none): a set lays the hidden page's document out again
            self._forward = forward
            self.forward_stack.setPlainText(forward)
        # the tab bar only where it changes: a tab's text or state set again relays the bar, and its QTabWidget
        # repaints the whole stack pane
        if self.stacks.isTabEnabled(1) != bool(info.forward_frames):
            self.stacks.setTabEnabled(1, bool(info.forward_frames))
        title = translate("Tabs", "forward stack")
        title = f"{title} ({len(info.forward_frames)})" if info.forward_frames else title
        if self.stacks.tabText(1) != title:
            self.stacks.setTabText(1, title)
        if not info.forward_frames and self.stacks.currentIndex() == 1:
            self.stacks.setCurrentIndex(0)

    @property
    def pending(self) -> bool:
        """Whether what is shown is of a trace still being read (show_event's `pending`)."""
        return self._pending

    def text(self) -> str:
        """Everything shown, as plain text (for copying and tests)."""
        rows = [self.heading.text()]
        rows += [f"{translate('EventInspector', name)}: {self.values[key].text()}" for key, name in FIELDS]
        rows += ["stack:", *(format_frame(f) for f in self.stack.frames_shown())]
        rows += ["forward stack:", self.forward_stack.toPlainText()]
        if self.info is not None and self.info.fx_nodes:
            rows += ["FX original trace:", *(n.original_trace for n in self.info.fx_nodes)]
        return "\n".join(rows)
