"""Under expandable segments "would have fitted" is the free tail of a segment plus the pages the device could map,
checked against the replay (the simulator walks PyTorch's find_expandable_block step by step) by bisection."""

from __future__ import annotations

import json
from typing import Any

import pytest

from gpumem_gui.cli import main
from gpumem_gui.core.allocator.remedies import _with_smaller_request
from gpumem_gui.core.allocator.replay import replay
from gpumem_gui.core.allocator.simulator import DeviceAllocatorSim, OutOfMemoryError
from gpumem_gui.core.analysis.diagnosis import diagnose
from gpumem_gui.core.snapshot.convert import snapshot_from_object
from gpumem_gui.core.snapshot.loader import load_snapshot
from gpumem_gui.core.snapshot.model import Snapshot
from tests.conftest import fixture_path

MiB = 1 << 20


def _fits(snapshot: Snapshot, device: int, size: int) -> bool:
    """The oracle: the recorded run replayed with the first OOM's request made `size` bytes runs without an OOM."""
    return replay(_with_smaller_request(snapshot, device, size), device=device).replayed.oom_events == 0


def test_constructor_oom_fits_up_to_the_free_tail_plus_four_pages(capsys: Any) -> None:
    path = fixture_path("constructor_memory_snapshot.pickle")
    snapshot = load_snapshot(path)
    # the independent witness: the replay serves 99,790,848 bytes and not one byte more
    assert _fits(snapshot, 1, 99_790_848)
    assert not _fits(snapshot, 1, 99_790_849)

    assert main(["explain", str(path), "--device", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    oom = out["oom"]
    assert oom["fits_up_to_bytes"] == 99_790_848
    # the tail of the lowest segment plus four 20 MiB pages of the device's 95,682,560 free bytes
    room = oom["expandable"]
    assert room["page_bytes"] == 20 * MiB and room["pages_free"] == 95_682_560 // (20 * MiB) == 4
    assert room["fits_up_to"]["tail_bytes"] == 15_904_768
    assert room["fits_up_to"]["map_bytes"] == 4 * 20 * MiB
    sentence = next(s for s in out["findings"] if "would have fitted" in s)
    assert "99,790,848 bytes" in sentence and "4 pages of 20 MiB" in sentence and "15,904,768 bytes" in sentence
    assert "cudaMalloc" not in sentence and "new segment" not in sentence
    assert "Or the live set would have to shrink" in " ".join(out["findings"])
    assert "freed as whole 20 MiB pages" in " ".join(out["findings"])


def _two_runs(other_stream: int) -> Snapshot:
    """On a 140 MiB device, two mapped runs of one expandable segment split by two unmapped pages, `other_stream`
    bytes held by stream 1, then a request of 100 MiB.

    Pages of 20 MiB: a 30 MiB block maps [0, 40), a 10 MiB one fills its tail, 40 MiB maps [40, 80) and 45 MiB maps
    [80, 140) with 15 MiB free at its end. Freeing the 10 and 40 MiB blocks and empty_cache() unmaps [40, 80): the
    first run keeps a free tail of 10 MiB before two unmapped pages, the second one a tail of 15 MiB."""
    sim = DeviceAllocatorSim(140 * MiB, "expandable_segments:True")
    frames = [{"name": "step", "filename": "train.py", "line": 7}]
    sim.malloc(30 * MiB, frames=frames)
    ten = sim.malloc(10 * MiB, frames=frames)
    forty = sim.malloc(40 * MiB, frames=frames)
    sim.malloc(45 * MiB, frames=frames)
    sim.free(ten)
    sim.free(forty)
    sim.empty_cache()
    if other_stream:
        sim.malloc(other_stream, stream=1, frames=frames)
    with pytest.raises(OutOfMemoryError):
        sim.malloc(100 * MiB, frames=frames)
    return snapshot_from_object(sim.snapshot(), "two runs", "dump")


def test_the_first_segment_with_room_is_grown_not_the_one_with_the_largest_tail() -> None:
    # 100 MiB mapped on stream 0 and 20 on stream 1: one page free. A request up to 10 + 40 MiB stops at the first
    # run (its tail and the two unmapped pages after it are room enough) and may map one page there: 30 MiB. 35 MiB
    # would fit the second run's tail and one page, but the allocator never gets there.
    snapshot = _two_runs(20 * MiB)
    d = diagnose(snapshot)
    assert d.oom is not None and d.oom.expandable is not None
    assert d.oom.largest_hole_bytes == 15 * MiB
    assert d.oom.fits_up_to_bytes == 30 * MiB
    assert d.oom.expandable.limit.tail_bytes == 10 * MiB
    assert _fits(snapshot, 0, 30 * MiB)
    assert not _fits(snapshot, 0, 30 * MiB + 1)
    assert not _fits(snapshot, 0, 35 * MiB)


def test_a_reservation_ends_where_the_device_memory_does() -> None:
    # nothing on stream 1: two pages free. The reservation spans 1 1/8 of the 140 MiB device, 8 whole pages: the
    # second run's tail (15 MiB) has one unmapped page after it. Every request up to the first range's room (the
    # tail of 10 MiB and two pages) fits there; above it no range has room, and a new reservation maps only two
    # pages: 50 MiB, not the second tail plus two pages.
    snapshot = _two_runs(0)
    d = diagnose(snapshot)
    assert d.oom is not None and d.oom.expandable is not None
    assert d.oom.fits_up_to_bytes == 50 * MiB
    assert (d.oom.expandable.limit.tail_bytes, d.oom.expandable.limit.map_bytes) == (10 * MiB, 40 * MiB)
    assert _fits(snapshot, 0, 50 * MiB)
    assert not _fits(snapshot, 0, 50 * MiB + 1)
    # the request itself gets a new reservation: five pages, three more than the device had
    assert d.oom.expandable.request.segment == -1
    assert d.oom.segment_bytes == 5 * 20 * MiB
    assert d.oom.live_excess_bytes == 3 * 20 * MiB
    text = " ".join(d.findings)
    assert "5 pages of 20 MiB (100.0 MiB) mapped onto a new expandable segment" in text
