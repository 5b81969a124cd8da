"""Changed traces: rows dropped, resized and inserted exactly where a hand-worked reading of the raw trace puts them."""

from __future__ import annotations

import pickle
from typing import Any

import numpy as np

from gpumem_gui.core import load_snapshot
from gpumem_gui.core.allocator.replay import replay
from gpumem_gui.core.allocator.simulator import DeviceAllocatorSim
from gpumem_gui.core.allocator.trace_transforms import LifetimeEdits, change_trace, live_bytes_at, unchanged
from gpumem_gui.core.analysis.timetravel import NEVER, build_timeline
from gpumem_gui.core.snapshot.model import Action

MiB = 1 << 20
BLOCK_EVENTS = ("alloc", "free_requested", "free_completed")


def _program() -> tuple[Any, dict[str, int], list[dict[str, Any]]]:
    """a, b and c made and freed in turn; `early` made before recording and freed in it. Returns the snapshot,
    each block's address, and the raw trace."""
    sim = DeviceAllocatorSim(1 << 30)
    sim.record_history = False
    early = sim.malloc(20 * MiB)
    sim.record_history = True
    a = sim.malloc(4 * MiB)
    b = sim.malloc(6 * MiB)
    addr = {"early": early.addr, "a": a.addr, "b": b.addr}  # read now: the simulator reuses a freed block's object
    sim.free(a)
    c = sim.malloc(8 * MiB)
    addr["c"] = c.addr
    sim.free(early)
    sim.free(b)
    sim.free(c)
    raw = sim.snapshot()
    return load_snapshot(pickle.dumps(raw)), addr, raw["device_traces"][0]


def _lifetime(timeline: Any, addr: int) -> int:
    return int(np.flatnonzero(timeline.lifetimes.addr == addr)[0])


def _rows(raw: list[dict[str, Any]], addr: int) -> list[int]:
    return [i for i, e in enumerate(raw) if e["action"] in BLOCK_EVENTS and e.get("addr") == addr]


def test_a_dropped_block_loses_its_three_rows_and_nothing_else() -> None:
    snapshot, addr, raw = _program()
    tl = build_timeline(snapshot, 0)
    edits = LifetimeEdits.none(len(tl.lifetimes.start))
    edits.drop[_lifetime(tl, addr["b"])] = True
    changed = change_trace(snapshot.trace(0), tl.lifetimes, edits)
    gone = _rows(raw, addr["b"])
    assert len(gone) == 3
    kept = [i for i in range(len(raw)) if i not in gone]
    assert changed.source.tolist() == kept
    assert np.array_equal(changed.trace.addr, snapshot.trace(0).addr[kept])
    # each recorded row is stood for by itself, or (a dropped one) by the kept row before it
    assert changed.rows[gone[0]] == changed.rows[gone[0] - 1]
    assert changed.rows[kept[-1]] == len(kept) - 1


def test_a_block_freed_for_a_while_is_freed_after_one_row_and_made_again_before_another() -> None:
    snapshot, addr, raw = _program()
    tl = build_timeline(snapshot, 0)
    life = tl.lifetimes
    k = _lifetime(tl, addr["b"])
    alloc_b, free_b = _rows(raw, addr["b"])[0], _rows(raw, addr["b"])[1]
    alloc_c = _rows(raw, addr["c"])[0]
    edits = LifetimeEdits.none(len(life.start))
    edits.hole_from[k] = alloc_c  # freed right after c is made, made again right before its own free
    edits.hole_to[k] = free_b
    changed = change_trace(snapshot.trace(0), life, edits)
    t = changed.trace
    assert len(t) == len(raw) + 3
    at = int(changed.rows[alloc_c])
    assert [Action(int(x)).name for x in t.action[at + 1 : at + 3]] == ["FREE_REQUESTED", "FREE_COMPLETED"]
    assert t.addr[at + 1] == t.addr[at + 2] == addr["b"]
    again = int(changed.rows[free_b]) - 1
    assert t.action[again] == Action.ALLOC and t.addr[again] == addr["b"] and t.size[again] == 6 * MiB
    # b is not held from right after c is made to right after the row before its free (made again between)
    for moment in range(alloc_c, free_b):
        assert live_bytes_at(life, moment) - live_bytes_at(life, moment, edits) == 6 * MiB
    assert live_bytes_at(life, alloc_c - 1, edits) == live_bytes_at(life, alloc_c - 1)
    assert alloc_b < alloc_c < free_b


def test_resized_blocks_round_up_to_512_bytes_on_their_alloc_and_frees() -> None:
    snapshot, addr, raw = _program()
    tl = build_timeline(snapshot, 0)
    k = _lifetime(tl, addr["a"])
    edits = LifetimeEdits.none(len(tl.lifetimes.start))
    edits.scale[k] = 1 / 3
    changed = change_trace(snapshot.trace(0), tl.lifetimes, edits)
    expected = 2731 * 512  # 4,194,304 / 3 = 1,398,101.3 -> 1,398,102 bytes -> 2,730.7 units of 512 -> 2,731
    for row in _rows(raw, addr["a"]):
        assert changed.trace.size[int(changed.rows[row])] == expected


def test_a_block_from_before_recording_is_free_in_the_replays_first_state() -> None:
    snapshot, addr, _raw = _program()
    tl = build_timeline(snapshot, 0)
    k = _lifetime(tl, addr["early"])
    assert tl.lifetimes.start[k] < 0 and tl.lifetimes.end[k] < NEVER
    edits = LifetimeEdits.none(len(tl.lifetimes.start))
    edits.drop[k] = True
    changed = change_trace(snapshot.trace(0), tl.lifetimes, edits)
    assert changed.freed_at_start == frozenset({addr["early"]})
    assert addr["early"] not in changed.trace.addr[np.isin(changed.trace.action, (1, 2))].tolist()
    result = replay(snapshot, device=0, change=changed, timeline=tl)
    replayed = result.snapshot["device_traces"][0]
    # a, b and c are made and freed; the 20 MiB block is never freed: it was free from the start
    assert [e["size"] for e in replayed if e["action"] == "free_requested"] == [4 * MiB, 6 * MiB, 8 * MiB]
    assert result.replayed.oom_events == 0


def test_the_unchanged_trace_replays_as_the_recording() -> None:
    snapshot, _addr, _raw = _program()
    plain = replay(snapshot, device=0)
    same = replay(snapshot, device=0, change=unchanged(snapshot.trace(0)))
    assert same.replayed == plain.replayed and same.first_divergence == plain.first_divergence
    assert same.replayed_event is not None and plain.replayed_event is not None
    assert np.array_equal(same.replayed_event, plain.replayed_event)
