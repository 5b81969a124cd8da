"""The columnar snapshot model: segments, blocks and trace events as numpy arrays, stacks interned once."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import IntEnum
from typing import Any

import numpy as np
import numpy.typing as npt

from gpumem_gui.core.snapshot.errors import SnapshotError
from gpumem_gui.core.snapshot.sentences import QT_TRANSLATE_NOOP, say

I64 = npt.NDArray[np.int64]
I32 = npt.NDArray[np.int32]
I8 = npt.NDArray[np.int8]
B8 = npt.NDArray[np.bool_]

NO_STACK = -1  # stack index of an entry recorded without frames


class Action(IntEnum):
    """Trace entry actions (`TraceEntry::Action` in c10/core/CachingDeviceAllocator.h, plus older and newer ones)."""

    ALLOC = 0
    FREE_REQUESTED = 1
    FREE_COMPLETED = 2
    SEGMENT_ALLOC = 3
    SEGMENT_FREE = 4
    SEGMENT_MAP = 5
    SEGMENT_UNMAP = 6
    SNAPSHOT = 7
    OOM = 8
    USER_DEFINED = 9  # torch ~2.3-2.4 record_function markers, later moved to external_annotations
    ANNOTATE = 10  # post-2.13 `_annotate_memory`
    UNKNOWN = 11


ACTION_NAMES: dict[str, Action] = {a.name.lower(): a for a in Action if a is not Action.UNKNOWN}


class BlockState(IntEnum):
    INACTIVE = 0
    ALLOCATED = 1
    PENDING_FREE = 2


STATE_NAMES: dict[str, BlockState] = {
    "inactive": BlockState.INACTIVE,
    "active_allocated": BlockState.ALLOCATED,
    "active_pending_free": BlockState.PENDING_FREE,
    "active_awaiting_free": BlockState.PENDING_FREE,  # the name in the _snapshot docstring
}
STATE_LABELS = {
    BlockState.INACTIVE: "inactive",
    BlockState.ALLOCATED: "active_allocated",
    BlockState.PENDING_FREE: "active_pending_free",
}

DEFAULT_POOL: tuple[int, int] = (0, 0)


def distinct(values: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """The distinct values of an integer array, ascending: np.unique's answer without np.unique, whose first call
    imports numpy.ma (about 20 ms, a report's whole figures of the segments take less)."""
    ordered = np.sort(values)
    if len(ordered) < 2:
        return ordered
    keep = np.empty(len(ordered), bool)
    keep[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=keep[1:])
    return ordered[keep]


def distinct_few(values: npt.NDArray[Any], most: int = 8) -> npt.NDArray[Any]:
    """distinct(values) where they are expected few (a trace's streams: one to a handful over millions of pieces):
    one comparison pass per distinct value instead of a sort (a 3M-piece sort held the window 20-30 ms); past
    `most` of them, what is left is sorted after all."""
    found: list[Any] = []
    rest = values
    while len(rest) and len(found) < most:
        first = rest[0]
        found.append(first)
        rest = rest[rest != first]
    if len(rest):
        return distinct(np.concatenate([np.asarray(found, values.dtype), rest]))
    return np.sort(np.asarray(found, values.dtype))


@dataclass(frozen=True)
class Frame:
    name: str
    filename: str
    line: int


@dataclass(frozen=True)
class StackTable:
    """Unique stack traces: stack `i` is `frames[frame_ids[offsets[i]:offsets[i + 1]]]`, innermost frame first."""

    frames: list[Frame]
    offsets: I64
    frame_ids: I32
    # frame index -> the FX node (fx_frames.FxNode) of a frame in torch.compile's generated code, where the file
    # was dumped with augment_with_fx_traces=True
    fx: dict[int, Any] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.offsets) - 1

    def stack(self, index: int) -> list[Frame]:
        if index < 0:
            return []
        start, stop = int(self.offsets[index]), int(self.offsets[index + 1])
        return [self.frames[f] for f in self.frame_ids[start:stop]]

    def depth(self, index: int) -> int:
        return 0 if index < 0 else int(self.offsets[index + 1] - self.offsets[index])

    @classmethod
    def empty(cls) -> StackTable:
        return cls([], np.zeros(1, np.int64), np.zeros(0, np.int32))


@dataclass(frozen=True)
class SegmentTable:
    """One row per segment (one cudaMalloc, or one contiguous mapped run of an expandable segment)."""

    device: I32
    address: I64
    total_size: I64
    stream: I64
    is_small: B8  # segment_type == "small"
    pool: I32  # index into AllocatorState.pool_ids; 0 is the default pool (0, 0)
    is_expandable: B8
    stack: I32
    block_start: I64  # the segment's blocks are rows block_start .. block_start + block_count of BlockTable
    block_count: I64

    def __len__(self) -> int:
        return len(self.address)


@dataclass(frozen=True)
class BlockTable:
    """One row per block, segments' blocks one after another in address order."""

    segment: I32
    address: I64
    size: I64
    requested_size: I64  # meaningless for inactive blocks (stale in real files)
    state: I8  # BlockState
    stack: I32

    def __len__(self) -> int:
        return len(self.address)


@dataclass(frozen=True)
class AllocatorState:
    """Every segment and block of the caching allocator at one moment."""

    segments: SegmentTable
    blocks: BlockTable
    pool_ids: list[tuple[int, int]]

    def devices(self) -> list[int]:
        return [int(d) for d in distinct(self.segments.device)]

    def for_device(self, device: int) -> AllocatorState:
        """The same state with only `device`'s segments (block rows renumbered to match)."""
        keep = np.flatnonzero(self.segments.device == device)
        return self.take_segments(keep)

    def take_segments(self, rows: npt.NDArray[np.intp]) -> AllocatorState:
        seg = self.segments
        counts = seg.block_count[rows]
        starts = seg.block_start[rows]
        block_rows = (
            np.concatenate([np.arange(s, s + c) for s, c in zip(starts, counts, strict=True)])
            if len(rows)
            else np.zeros(0, np.int64)
        )
        new_start = np.zeros(len(rows), np.int64)
        if len(rows):
            new_start[1:] = np.cumsum(counts)[:-1]
        new_seg_index = np.repeat(np.arange(len(rows), dtype=np.int32), counts)
        b = self.blocks
        return AllocatorState(
            SegmentTable(
                seg.device[rows],
                seg.address[rows],
                seg.total_size[rows],
                seg.stream[rows],
                seg.is_small[rows],
                seg.pool[rows],
                seg.is_expandable[rows],
                seg.stack[rows],
                new_start,
                counts.copy(),
            ),
            BlockTable(
                new_seg_index,
                b.address[block_rows],
                b.size[block_rows],
                b.requested_size[block_rows],
                b.state[block_rows],
                b.stack[block_rows],
            ),
            self.pool_ids,
        )


@dataclass(frozen=True)
class TraceTable:
    """One device's trace entries, oldest first, as columns."""

    action: I8  # Action
    addr: I64  # 0 where the entry has none (oom)
    size: I64
    stream: I64
    time_us: I64  # 0 where absent; see has_time
    stack: I32
    device_free: I64  # oom entries only, else 0
    compile_context: I32  # index into Snapshot.strings, -1 where absent
    user_metadata: I32  # index into Snapshot.strings, -1 where absent
    pool: I32  # index into the snapshot's pool_ids, -1 where the entry has no pool_id
    has_time: bool = False
    forward_frames: dict[int, list[str]] = field(default_factory=dict)
    unknown_actions: dict[int, str] = field(default_factory=dict)  # row -> action name we do not know
    # row -> the entry's own 'category' (torch.cuda._memory_viz._profile_to_snapshot writes one on each alloc)
    categories: dict[int, str] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.action)

    @classmethod
    def empty(cls) -> TraceTable:
        z64 = np.zeros(0, np.int64)
        z32 = np.zeros(0, np.int32)
        return cls(np.zeros(0, np.int8), z64, z64, z64, z64, z32, z64, z32, z32, z32)


@dataclass(frozen=True)
class Snapshot:
    """A whole snapshot file, converted: the final allocator state, the trace of each device, and the extras."""

    source: str  # the file name, or a label for bytes
    state: AllocatorState
    traces: list[TraceTable]  # index = CUDA device
    stacks: StackTable
    strings: list[str]
    # strings index -> the (key, value text) pairs of a user_metadata the file gave as a dict (its line is the string)
    metadata: dict[int, tuple[tuple[str, str], ...]] = field(default_factory=dict)
    allocator_settings: dict[str, Any] | None = None
    external_annotations: list[dict[str, Any]] = field(default_factory=list)
    form: str = "dump"  # "dump" (dict of _dump_snapshot), "segments" (bare list), "json"
    legacy_blocks: bool = False
    warnings: list[str] = field(default_factory=list)  # what is odd but still shown (checks.check_layout)
    # recorded by the gpumem-gui probe only (recorded_with.py): torch's snapshots carry neither
    torch_version: str | None = None
    device_memory: dict[int, int] = field(default_factory=dict)  # device -> cudaMemGetInfo's total, bytes
    # device -> what the process could hold: its memory fraction of the total, where one under 1 was set
    memory_limit: dict[int, int] = field(default_factory=dict)
    job: dict[str, int] = field(default_factory=dict)  # RANK, LOCAL_RANK, WORLD_SIZE where the probe knew them
    # peak_reserved per device, made once: a pass over a 3M-event trace costs ~30 ms, and the window asks for every
    # device's on each device shown (not an init field, so dataclasses.replace with other traces starts afresh)
    _peaks: dict[int, float] = field(default_factory=dict, init=False, repr=False, compare=False)

    @property
    def has_traces(self) -> bool:
        """False for the early, state-only snapshot of a load (see load_snapshot's on_state) and for a file without."""
        return any(len(t) for t in self.traces)

    def seed_peaks(self, peaks: dict[int, float]) -> None:
        """Take peak_reserved of these devices as already found (the loading worker sends them with the file)."""
        self._peaks.update(peaks)

    def without_traces(self) -> Snapshot:
        """This snapshot's final state alone: what the window draws while the trace is still being read."""
        return replace(self, traces=[])

    def devices(self) -> list[int]:
        """Devices that have segments or a non-empty trace."""
        found = set(self.state.devices())
        found.update(d for d, t in enumerate(self.traces) if len(t))
        return sorted(found)

    def require_device(self, device: int | None) -> None:
        """A device the file has (segments or a trace), else the one line that says which it has."""
        if device is not None and device not in self.devices():
            found = self.devices()
            raise SnapshotError(
                say(
                    QT_TRANSLATE_NOOP(
                        "SnapshotError", "device {device} has no segments and no trace (devices: {found})"
                    ),
                    device=device,
                    found=str(found) if found else QT_TRANSLATE_NOOP("SnapshotError", "none"),
                ),
                self.source,
            )

    def trace(self, device: int) -> TraceTable:
        return self.traces[device] if 0 <= device < len(self.traces) else TraceTable.empty()

    def default_device(self) -> int:
        """The device a person opens the file for: the one with an OOM, else the one with the most memory reserved
        at its high point (PyTorch's viewer picks the longest trace, which can be a device with nothing on it)."""
        devices = self.devices()
        if not devices:
            return 0
        return max(devices, key=lambda d: (self.oom_count(d) > 0, self.peak_reserved(d), -d))

    def oom_count(self, device: int) -> int:
        return int(np.count_nonzero(self.trace(device).action == Action.OOM))

    def peak_reserved(self, device: int) -> float:
        """The most bytes `device` held in segments: the final segments, or more at some point of the trace.

        From the segment events alone (no replay): the trace's cudaMalloc/map add, cudaFree/unmap subtract, and the
        state before the trace is the final one minus their sum. A float: only used to rank devices."""
        if device not in self._peaks:
            self._peaks[device] = self._peak_reserved(device)
        return self._peaks[device]

    def _peak_reserved(self, device: int) -> float:
        seg = self.state.segments
        final = float(seg.total_size[seg.device == device].sum(dtype=np.float64))
        trace = self.trace(device)
        # the segment events alone (thousands among millions): the running sum between them stays what it was, so
        # its values there are all it takes (and the 0 before the first is `before`, below)
        action = trace.action
        grows = (action == Action.SEGMENT_ALLOC) | (action == Action.SEGMENT_MAP)
        rows = np.flatnonzero(grows | (action == Action.SEGMENT_FREE) | (action == Action.SEGMENT_UNMAP))
        if not len(rows):
            return final
        sign = np.where(grows[rows], 1.0, -1.0)
        running = np.cumsum(sign * trace.size[rows])
        before = final - float(running[-1])
        return max(final, before + float(running.max()), before)
