"""DocumentView: one open snapshot: the segment map, the timeline to travel through, the figures and a block's stack."""

from __future__ import annotations

import numpy as np
from PySide6 import QtCore, QtWidgets

from gpumem_gui.core.analysis.metrics import compute_metrics
from gpumem_gui.core.analysis.timetravel import DeviceTimeline, build_timeline
from gpumem_gui.core.rules.allocator_rules import AllocatorConfig
from gpumem_gui.core.snapshot.annotations import annotation_ranges
from gpumem_gui.core.snapshot.model import AllocatorState, BlockState, Snapshot
from gpumem_gui.core.snapshot.stacks import filter_frames, format_frame
from gpumem_gui.core.snapshot.units import format_bytes_exact, parse_bytes
from gpumem_gui.views.block_table import BlockTable
from gpumem_gui.views.figures import FiguresPanel
from gpumem_gui.views.segment_map import SegmentMapView
from gpumem_gui.views.timeline import TimelineView


class DocumentView(QtWidgets.QWidget):
    """Shows a Snapshot; `event` is the trace event whose state the map shows (-1: before the first)."""

    def __init__(
        self,
        snapshot: Snapshot,
        parent: QtWidgets.QWidget | None = None,
        timelines: dict[int, DeviceTimeline] | None = None,
        pending: bool = False,
    ) -> None:
        super().__init__(parent)
        self.snapshot = snapshot
        self.config = AllocatorConfig.from_snapshot_settings(snapshot.allocator_settings)
        self.timelines: dict[int, DeviceTimeline] = dict(timelines or {})  # built by the loading worker
        self.pending = pending  # the worker is still indexing the trace: show the final state meanwhile
        self.device = snapshot.default_device()
        self.current_event = -1
        self.state: AllocatorState | None = None

        self.map = SegmentMapView()
        self.timeline_view = TimelineView()
        self.figures = FiguresPanel()
        self.details = QtWidgets.QTextEdit(readOnly=True)
        self.details.setPlaceholderText("Click a block for details.")
        self.table = BlockTable()
        self.table.block_selected.connect(self.select_block)
        self.side_tabs = QtWidgets.QTabWidget()
        self.side_tabs.addTab(self.details, "block")
        self.side_tabs.addTab(self.table, "blocks")
        self._search_mask: np.ndarray | None = None
        self.side_tabs.currentChanged.connect(lambda _i: self._refresh_table())
        self.pool_box = QtWidgets.QComboBox()
        for label, data in (("all pools", "all"), ("small pool", "small"), ("large pool", "large"),
                            ("private pools", "private")):  # fmt: skip
            self.pool_box.addItem(label, data)
        self.stream_box = QtWidgets.QComboBox()
        self.pool_box.currentIndexChanged.connect(lambda _i: self.travel_to(self.current_event))
        self.stream_box.currentIndexChanged.connect(lambda _i: self.travel_to(self.current_event))

        self.device_box = QtWidgets.QComboBox()
        for d in snapshot.devices() or [0]:
            self.device_box.addItem(f"GPU {d}", d)
        self.device_box.setCurrentIndex(max(self.device_box.findData(self.device), 0))
        self.device_box.currentIndexChanged.connect(lambda _i: self.set_device(self.device_box.currentData()))
        self.layout_box = QtWidgets.QComboBox()
        for label, data in (
            ("by address", ("address", "size")),
            ("by segment, largest first", ("segment", "size")),
            ("by segment, most free first", ("segment", "free")),
        ):
            self.layout_box.addItem(label, data)
        self.layout_box.currentIndexChanged.connect(lambda _i: self.map.set_layout(*self.layout_box.currentData()))
        self.search = QtWidgets.QLineEdit(
            placeholderText="search: stack text, 0x address, or size range like 1MiB-20MiB"
        )
        self.search.returnPressed.connect(self.apply_search)
        self.position = QtWidgets.QLabel()
        self.axis_box = QtWidgets.QComboBox()
        self.axis_box.addItems(["by event", "by time"])
        self.axis_box.currentIndexChanged.connect(lambda i: self.timeline_view.set_time_axis(i == 1))
        self.play_button = QtWidgets.QPushButton("Play")
        self.play_button.setCheckable(True)
        self.play_button.toggled.connect(self._play_toggled)
        self.play_timer = QtCore.QTimer(self, interval=40)
        self.play_timer.timeout.connect(self._play_step)

        bar = QtWidgets.QHBoxLayout()
        for w in (self.device_box, self.pool_box, self.stream_box, self.layout_box):
            bar.addWidget(w)
        bar.addWidget(self.search, 1)
        bar.addWidget(self.axis_box)
        bar.addWidget(self.play_button)
        bar.addWidget(self.position)

        side = QtWidgets.QSplitter(QtCore.Qt.Orientation.Vertical)
        side.addWidget(self.figures)
        side.addWidget(self.side_tabs)
        top = QtWidgets.QSplitter(QtCore.Qt.Orientation.Horizontal)
        top.addWidget(self.map)
        top.addWidget(side)
        top.setStretchFactor(0, 4)
        top.setStretchFactor(1, 1)
        main = QtWidgets.QSplitter(QtCore.Qt.Orientation.Vertical)
        main.addWidget(top)
        main.addWidget(self.timeline_view)
        main.setStretchFactor(0, 3)
        main.setStretchFactor(1, 1)
        layout = QtWidgets.QVBoxLayout(self)
        layout.addLayout(bar)
        layout.addWidget(main, 1)

        self.map.block_clicked.connect(self.show_block)
        self.map.block_clicked.connect(lambda _i: self.side_tabs.setCurrentWidget(self.details))
        self.timeline_view.event_selected.connect(self.travel_to)
        self.set_device(self.device)

    # -- navigation ------------------------------------------------------------------------------------------

    def timeline(self, device: int) -> DeviceTimeline:
        if device not in self.timelines:
            self.timelines[device] = build_timeline(self.snapshot, device, self.config)
        return self.timelines[device]

    def _refresh_table(self) -> None:
        # a table of 100,000 rows costs more than the map to refresh: only while it is shown
        if self.state is not None and self.side_tabs.currentWidget() is self.table:
            self.table.table_model.set_state(self.state, self.snapshot.stacks, self._search_mask)

    def _show_final(self) -> None:
        """While the trace is being indexed: the snapshot's own final state."""
        self.state = self.filtered(self.snapshot.state.for_device(self.device))
        self.map.set_state(self.state, self.snapshot.stacks)
        self._refresh_table()
        self.figures.set_metrics(compute_metrics(self.state, self.config), f"GPU {self.device}, at the snapshot")
        self.position.setText("indexing the trace...")
        self.timeline_view.setVisible(False)

    def set_timelines(self, timelines: dict[int, DeviceTimeline]) -> None:
        """The worker's timelines have arrived: the trace can be travelled now."""
        self.timelines.update(timelines)
        self.pending = False
        self.set_device(self.device)

    def set_snapshot(self, snapshot: Snapshot, timelines: dict[int, DeviceTimeline]) -> None:
        """A newer snapshot of the same job (live mode): the choices and the map's zoom stay, its last state shows."""
        self.snapshot = snapshot
        self.config = AllocatorConfig.from_snapshot_settings(snapshot.allocator_settings)
        self.timelines = dict(timelines)
        self.pending = False
        devices = snapshot.devices() or [0]
        if [self.device_box.itemData(i) for i in range(self.device_box.count())] != devices:
            self.device_box.blockSignals(True)
            self.device_box.clear()
            for d in devices:
                self.device_box.addItem(f"GPU {d}", d)
            self.device_box.blockSignals(False)
        if self.device not in devices:
            self.device = snapshot.default_device()
        stream = self.stream_box.currentData()
        self.set_device(self.device)
        if stream is not None and self.stream_box.findData(stream) >= 0:
            self.stream_box.setCurrentIndex(self.stream_box.findData(stream))  # travels again, filtered

    def set_device(self, device: int) -> None:
        self.device = device
        self.device_box.blockSignals(True)
        self.device_box.setCurrentIndex(max(self.device_box.findData(device), 0))
        self.device_box.blockSignals(False)
        if self.pending:
            self._show_final()
            return
        tl = self.timeline(device)
        self.timeline_view.set_timeline(tl, self.snapshot.trace(device), annotation_ranges(self.snapshot, device))
        self.timeline_view.setVisible(tl.n_events > 0)
        self.axis_box.setEnabled(tl.series.time_us is not None)
        streams = sorted({int(x) for x in tl.final.segments.stream} | {int(x) for x in tl.pieces.stream})
        self.stream_box.blockSignals(True)
        self.stream_box.clear()
        self.stream_box.addItem("all streams", None)
        for stream in streams:
            self.stream_box.addItem(f"stream {stream}", stream)
        self.stream_box.setVisible(len(streams) > 1)
        self.stream_box.blockSignals(False)
        self.travel_to(tl.n_events - 1)

    def travel_to(self, index: int) -> None:
        """Show the allocator state right after trace event `index`."""
        if self.pending:
            self._show_final()
            return
        tl = self.timeline(self.device)
        index = min(max(index, -1), tl.n_events - 1)
        self.current_event = index
        self.state = self.filtered(tl.state_at(index))
        self.map.highlight = None  # a highlight belongs to the blocks of one state
        self._search_mask = None
        self.map.set_state(self.state, self.snapshot.stacks)
        self._refresh_table()
        where = "at the snapshot" if index == tl.n_events - 1 else f"after event {index:,} of {tl.n_events:,}"
        if index == -1 and tl.n_events:
            where = "before the first event"
        self.position.setText(where)
        self.figures.set_metrics(compute_metrics(self.state, self.config), f"GPU {self.device}, {where}")
        if self.search.text():
            self.apply_search()

    def filtered(self, state: AllocatorState) -> AllocatorState:
        """The segments the pool and stream choices keep."""
        seg = state.segments
        keep = np.ones(len(seg), bool)
        pool = self.pool_box.currentData()
        if pool == "small":
            keep &= seg.is_small
        elif pool == "large":
            keep &= ~seg.is_small
        elif pool == "private":
            keep &= seg.pool != 0
        stream = self.stream_box.currentData()
        if stream is not None:
            keep &= seg.stream == stream
        return state if keep.all() else state.take_segments(np.flatnonzero(keep))

    def _play_toggled(self, on: bool) -> None:
        self.play_button.setText("Pause" if on else "Play")
        tl = self.timeline(self.device)
        if on and self.current_event >= tl.n_events - 1:
            self.travel_to(-1)
        self.play_timer.start() if on else self.play_timer.stop()

    def _play_step(self) -> None:
        """Through the trace in about ten seconds, whatever its length."""
        tl = self.timeline(self.device)
        stride = max(1, tl.n_events // 250)
        if self.current_event >= tl.n_events - 1:
            self.play_button.setChecked(False)
            return
        self.step(stride)

    def select_block(self, index: int) -> None:
        """Show block `index` (of the shown state): its details, and a highlight on the map."""
        assert self.state is not None
        mask = np.zeros(len(self.state.blocks), bool)
        mask[index] = True
        self.map.set_highlight(mask)
        self.show_block(index)

    def step(self, delta: int) -> None:
        self.travel_to(self.current_event + delta)
        self.timeline_view.set_event(self.current_event, emit=False)

    def keyPressEvent(self, event: object) -> None:
        key = event.key()  # type: ignore[attr-defined]
        if key == QtCore.Qt.Key.Key_Left:
            self.step(-1)
        elif key == QtCore.Qt.Key.Key_Right:
            self.step(1)
        else:
            super().keyPressEvent(event)  # type: ignore[arg-type]

    # -- details and search --------------------------------------------------------------------------------

    def show_block(self, index: int) -> None:
        assert self.state is not None
        b, s = self.state.blocks, self.state.segments
        seg = int(b.segment[index])
        first, count = int(s.block_start[seg]), int(s.block_count[seg])
        states = b.state[first : first + count]
        sizes = b.size[first : first + count]
        free = sizes[states == BlockState.INACTIVE]
        lines = [self.map.describe(index), "", "<b>stack</b> (allocator and interpreter frames hidden):"]
        frames = filter_frames(self.snapshot.stacks.stack(int(b.stack[index])))
        lines += [format_frame(f) for f in frames] or ["(no stack recorded)"]
        lines += [
            "",
            f"<b>segment</b> {int(s.address[seg]):#x}: {format_bytes_exact(int(s.total_size[seg]))}, {count} blocks,",
            f"free {format_bytes_exact(int(free.sum()))}, "
            f"largest hole {format_bytes_exact(int(free.max()) if len(free) else 0)}",
        ]
        self.details.setHtml("<br>".join(lines))

    def apply_search(self) -> None:
        if self.state is None:
            return
        mask = search_blocks(self.state, self.snapshot, self.search.text())
        self._search_mask = mask
        self.map.set_highlight(mask)
        if mask is not None:
            self.side_tabs.setCurrentWidget(self.table)
        self._refresh_table()


def search_blocks(state: AllocatorState, snapshot: Snapshot, text: str) -> np.ndarray | None:
    """Mask of the blocks matching `text`: a 0x address inside them, a size range a-b, or stack frame text."""
    text = text.strip()
    b = state.blocks
    if not text:
        return None
    if text.lower().startswith("0x"):
        try:
            addr = int(text, 16)
        except ValueError:
            return np.zeros(len(b), bool)
        return (b.address <= addr) & (addr < b.address + b.size)
    if "-" in text:
        lo, _, hi = text.partition("-")
        try:
            return (b.size >= parse_bytes(lo)) & (b.size <= parse_bytes(hi))
        except ValueError:
            pass
    needle = text.lower()
    stacks = snapshot.stacks
    matching = {
        i
        for i in range(len(stacks))
        if any(needle in f.name.lower() or needle in f.filename.lower() for f in stacks.stack(i))
    }
    return np.isin(b.stack, list(matching)) & (b.state != BlockState.INACTIVE)
