"""Two snapshots, or two moments of one, block by block: what was added, removed and kept, and by which site.

Blocks are the allocated ones as metrics counts them (active_allocated; pending-free and free blocks are not), matched
by (address, size, allocation site); sites are compared by their label, so two files' sites meet by name. Every
figure is b minus a, and each site's bytes_delta is its added minus its removed bytes (kept blocks weigh the same on
both sides), so the sites' deltas add up to the delta of allocated bytes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from gpumem_gui.core.analysis.breakdown import allocated_mask, nameless_reasons
from gpumem_gui.core.analysis.metrics import compute_metrics
from gpumem_gui.core.analysis.timetravel import DeviceTimeline, build_timeline
from gpumem_gui.core.rules.allocator_rules import AllocatorConfig
from gpumem_gui.core.snapshot.model import I64, AllocatorState, Snapshot, StackTable
from gpumem_gui.core.snapshot.stacks import block_sites

FIGURES = ("reserved_bytes", "allocated_bytes", "free_bytes", "segments", "blocks")


@dataclass(frozen=True)
class Side:
    """One side's moment and its figures (the same numbers `report` gives for that device and event)."""

    file: str
    device: int
    event: int  # the state right after this event; n_events - 1 is the snapshot (-1 without a trace)
    n_events: int
    reserved_bytes: int
    allocated_bytes: int
    free_bytes: int
    segments: int
    blocks: int

    def as_dict(self) -> dict[str, Any]:
        return {"file": self.file, "device": self.device, "event": self.event, **{k: getattr(self, k) for k in FIGURES}}


class Moment(NamedTuple):
    """One side as the matching takes it: its figures, its state and the stacks its blocks index."""

    side: Side
    state: AllocatorState
    stacks: StackTable
    reasons: npt.NDArray[np.int8] | None = None  # per block: why its site may have no name (breakdown's)


@dataclass(frozen=True)
class SiteDelta:
    site: str
    bytes_delta: int  # b_bytes - a_bytes == added_bytes - removed_bytes
    added_bytes: int
    removed_bytes: int
    a_bytes: int  # the site's allocated bytes on each side
    b_bytes: int

    def as_dict(self) -> dict[str, Any]:
        return {
            "site": self.site,
            "bytes_delta": self.bytes_delta,
            "added_bytes": self.added_bytes,
            "removed_bytes": self.removed_bytes,
        }


@dataclass(frozen=True)
class Diff:
    """Side a, side b, their states, and the allocated blocks of each matched: rows of each side's block table."""

    a: Side
    b: Side
    state_a: AllocatorState
    state_b: AllocatorState
    added: I64  # rows of state_b: allocated blocks in b only
    removed: I64  # rows of state_a: allocated blocks in a only
    kept_a: I64  # rows of state_a matched in b
    kept_b: I64  # their partners in state_b, in the same order
    by_site: list[SiteDelta]  # sites with blocks added or removed, largest |bytes_delta| first

    @property
    def delta(self) -> dict[str, int]:
        return {key: int(getattr(self.b, key)) - int(getattr(self.a, key)) for key in FIGURES}

    @property
    def added_bytes(self) -> int:
        return int(self.state_b.blocks.size[self.added].sum())

    @property
    def removed_bytes(self) -> int:
        return int(self.state_a.blocks.size[self.removed].sum())

    def as_json(self) -> dict[str, Any]:
        return {
            "a": self.a.as_dict(),
            "b": self.b.as_dict(),
            "delta": self.delta,
            "blocks": {"added": len(self.added), "removed": len(self.removed), "kept": len(self.kept_a)},
            "by_site": [s.as_dict() for s in self.by_site],
        }

    def mask(self, side: str, rows: I64, state: AllocatorState) -> npt.NDArray[np.bool_]:
        """Rows of side `side`'s state (e.g. `added`) as a mask over `state`, the same moment as a view drew it:
        matched by address among the allocated blocks (addresses are unique among a device's live blocks)."""
        own = self.state_a if side == "a" else self.state_b
        if state is own:
            out = np.zeros(len(own.blocks), bool)
            out[rows] = True
            return out
        wanted = np.sort(own.blocks.address[rows])
        address = state.blocks.address
        at = np.minimum(np.searchsorted(wanted, address), max(len(wanted) - 1, 0))
        found = wanted[at] == address if len(wanted) else np.zeros(len(address), bool)
        return np.asarray(found & allocated_mask(state))


def diff_device(
    snapshot_a: Snapshot,
    snapshot_b: Snapshot,
    device: int | None = None,
    *,
    device_a: int | None = None,
    device_b: int | None = None,
) -> tuple[int, int]:
    """The devices to compare: `device_a` / `device_b` where given, else `device` on both sides, else each file's own
    default (Snapshot.default_device: the one with an OOM, else the most reserved at its high point), the device
    `report`, `explain` and the window open; the two may differ (see devices_note)."""
    dev_a = device_a if device_a is not None else device if device is not None else snapshot_a.default_device()
    dev_b = device_b if device_b is not None else device if device is not None else snapshot_b.default_device()
    return dev_a, dev_b


def devices_note(dev_a: int, dev_b: int) -> str:
    """The line that says each file's default device was taken and they differ ("" when they are the same)."""
    if dev_a == dev_b:
        return ""
    return (
        f"comparing device {dev_a} of A with device {dev_b} of B (each file's default); --device-a/--device-b to choose"
    )


def diff_states(  # noqa: PLR0917 (the two sides' file, device and event, as the command line gives them)
    snap_a: Snapshot,
    dev_a: int,
    event_a: int | None,
    snap_b: Snapshot,
    dev_b: int,
    event_b: int | None,
    *,
    timelines: tuple[DeviceTimeline | None, DeviceTimeline | None] = (None, None),
) -> Diff:
    """A's device `dev_a` right after `event_a` against b's (None: the last event, the snapshot's own state).
    `timelines` reuses timelines already built (a window's documents); an event outside a trace is an IndexError."""
    sides = []
    inputs = (("A", snap_a, dev_a, event_a, timelines[0]), ("B", snap_b, dev_b, event_b, timelines[1]))
    for name, snap, dev, event, built in inputs:
        config = AllocatorConfig.from_snapshot_settings(snap.allocator_settings)
        timeline = build_timeline(snap, dev, config) if built is None else built
        at = timeline.n_events - 1 if event is None else event
        try:
            state = timeline.state_at(at)
        except IndexError as e:
            raise IndexError(f"{name}: {e} ({snap.source}, device {dev})") from None
        reasons = nameless_reasons(snap, timeline, state, at)
        sides.append(Moment(side_of(snap, timeline, at, state), state, snap.stacks, reasons))
    return diff_of(sides[0], sides[1])


def side_of(snapshot: Snapshot, timeline: DeviceTimeline, event: int, state: AllocatorState) -> Side:
    """The figures of `state`, the state of `timeline` right after `event`."""
    m = compute_metrics(state)  # the figures used here do not depend on the allocator's settings
    return Side(
        snapshot.source,
        timeline.device,
        event,
        timeline.n_events,
        m.reserved_bytes,
        m.allocated_bytes,
        m.free_bytes,
        m.segments,
        m.blocks,
    )


def block_site_labels(
    state: AllocatorState, stacks: StackTable, reasons: npt.NDArray[np.int8] | None = None
) -> tuple[npt.NDArray[np.int64], list[str]]:
    """Each block's site as an index into the labels returned (stacks.block_sites: the last ones name the blocks
    whose stack names nothing, as `reasons`, breakdown.nameless_reasons, tells them apart)."""
    return block_sites(stacks, state.blocks.stack, reasons)


def diff_of(first: Moment, second: Moment) -> Diff:
    """The matching itself, with numpy: both sides' allocated blocks sorted together by (address, size, site)."""
    (a, state_a, stacks_a, reasons_a), (b, state_b, stacks_b, reasons_b) = first, second
    rows_a = np.flatnonzero(allocated_mask(state_a))
    rows_b = np.flatnonzero(allocated_mask(state_b))
    site_a, labels_a = block_site_labels(state_a, stacks_a, reasons_a)
    site_b, labels_b = block_site_labels(state_b, stacks_b, reasons_b)
    names = list(dict.fromkeys([*labels_a, *labels_b]))  # one vocabulary: sites meet by their label
    code_of = {name: i for i, name in enumerate(names)}
    code_a = np.array([code_of[x] for x in labels_a], np.int64)[site_a[rows_a]]
    code_b = np.array([code_of[x] for x in labels_b], np.int64)[site_b[rows_b]]
    addr = np.concatenate([state_a.blocks.address[rows_a], state_b.blocks.address[rows_b]])
    size = np.concatenate([state_a.blocks.size[rows_a], state_b.blocks.size[rows_b]])
    code = np.concatenate([code_a, code_b])
    side = np.repeat(np.array([0, 1], np.int64), [len(rows_a), len(rows_b)])
    row = np.concatenate([rows_a, rows_b])
    order = np.lexsort((side, code, size, addr))
    addr, size, code, side, row = addr[order], size[order], code[order], side[order], row[order]
    n = len(order)
    new_key = np.ones(n, bool)
    new_key[1:] = (addr[1:] != addr[:-1]) | (size[1:] != size[:-1]) | (code[1:] != code[:-1])
    group = np.cumsum(new_key) - 1
    n_groups = int(group[-1]) + 1 if n else 0
    count = np.zeros((2, n_groups), np.int64)
    np.add.at(count, (side, group), 1)
    # a block's rank among the blocks of its key on its side (a key repeats only in odd files): the first
    # min(count a, count b) of each side are kept, the rest added (b) or removed (a)
    run_start = np.ones(n, bool)
    run_start[1:] = new_key[1:] | (side[1:] != side[:-1])
    run_first = np.maximum.accumulate(np.where(run_start, np.arange(n), 0))
    rank = np.arange(n) - run_first
    kept = rank < count[1 - side, group]
    in_a, in_b = side == 0, side == 1
    kept_a, kept_b = row[kept & in_a], row[kept & in_b]
    added, removed = row[~kept & in_b], row[~kept & in_a]

    k = len(names)
    a_bytes = _sum_by(code[in_a], size[in_a], k)
    b_bytes = _sum_by(code[in_b], size[in_b], k)
    added_bytes = _sum_by(code[~kept & in_b], size[~kept & in_b], k)
    removed_bytes = _sum_by(code[~kept & in_a], size[~kept & in_a], k)
    changed = np.flatnonzero((added_bytes > 0) | (removed_bytes > 0))
    by_site = [
        SiteDelta(
            names[i],
            int(added_bytes[i] - removed_bytes[i]),
            int(added_bytes[i]),
            int(removed_bytes[i]),
            int(a_bytes[i]),
            int(b_bytes[i]),
        )
        for i in changed.tolist()
    ]
    by_site.sort(key=lambda s: (-abs(s.bytes_delta), -s.added_bytes - s.removed_bytes, s.site))
    return Diff(a, b, state_a, state_b, np.sort(added), np.sort(removed), kept_a, kept_b, by_site)


def _sum_by(keys: npt.NDArray[np.int64], values: npt.NDArray[np.int64], n: int) -> npt.NDArray[np.int64]:
    out = np.zeros(n, np.int64)
    np.add.at(out, keys, values)  # integer sums: exact, as metrics' are
    return out
