"""The diagnosis at the edges of the allocator's rules: a hole on another stream never serves a request, a hole
exactly as large as the request does and one a byte smaller does not, and holes that together make the request
exactly are named as split by live blocks. Each expectation is worked by hand from PyTorch's malloc
(c10/cuda/CUDACachingAllocator.cpp; /work/shared/docs/snapshot-format.md, section 3)."""

from __future__ import annotations

import json
import pickle
from pathlib import Path
from typing import Any

import pytest

from gpumem_gui.cli import main
from gpumem_gui.core.allocator.simulator import DeviceAllocatorSim
from gpumem_gui.core.analysis.diagnosis import diagnose
from gpumem_gui.core.snapshot.convert import snapshot_from_object
from gpumem_gui.core.snapshot.loader import load_snapshot

MiB = 1 << 20
BASE = 0x7F0000000000
STREAM_A = 0  # the default stream
STREAM_B = 123323568  # a side stream: a raw cudaStream_t as the snapshots hold it
SHOULD_HAVE_FITTED = "By these figures the request should have fitted"


def _segment(address: int, stream: int, blocks: list[tuple[str, int]]) -> dict[str, Any]:
    """A large-pool segment at `address` on `stream` holding `blocks` (state, bytes) in address order."""
    out, at = [], address
    for state, size in blocks:
        frames = [{"name": f"make_{at - address}", "filename": "train.py", "line": 7}] if state != "inactive" else []
        out.append({"address": at, "size": size, "requested_size": size, "state": state, "frames": frames})
        at += size
    return {
        "device": 0, "address": address, "total_size": at - address, "stream": stream, "segment_type": "large",
        "segment_pool_id": (0, 0), "is_expandable": False, "frames": [], "blocks": out,
    }  # fmt: skip


def _oom_dump(segments: list[dict[str, Any]], request: int, stream: int, device_free: int = 0) -> dict[str, Any]:
    oom = {"action": "oom", "size": request, "device_free": device_free, "stream": stream, "frames": []}
    return {"segments": segments, "device_traces": [[oom]]}


def _two_streams() -> dict[str, Any]:
    """A 40 MiB request on stream A, whose one segment has a 20 MiB hole between live blocks; stream B's segment
    has a 50 MiB hole, large enough, but a free block serves only its own stream's requests."""
    a = _segment(
        BASE, STREAM_A, [("active_allocated", 20 * MiB), ("inactive", 20 * MiB), ("active_allocated", 20 * MiB)]
    )
    b = _segment(BASE + (1 << 32), STREAM_B, [("inactive", 50 * MiB), ("active_allocated", 10 * MiB)])
    return _oom_dump([a, b], 40 * MiB, STREAM_A)


def test_a_hole_on_another_stream_does_not_serve_the_request() -> None:
    d = diagnose(snapshot_from_object(_two_streams(), "two-streams", "dump"))
    o = d.oom
    assert o is not None and o.stream == STREAM_A and o.request_bytes == 40 * MiB
    assert o.largest_hole_bytes == 20 * MiB  # stream A's; B's 50 MiB hole is not the request's
    assert o.pool_free_bytes == 20 * MiB and o.cache_free_bytes == 70 * MiB
    assert o.fits_up_to_bytes == 20 * MiB  # the device had nothing free: only A's hole counts
    # releasing A's segment (60 MiB, pinned by its two live blocks) would have made room for the 40 MiB segment
    assert o.splitter_rule == "pin"
    assert [s.address - BASE for s in o.splitters] == [0, 40 * MiB]
    assert not any(SHOULD_HAVE_FITTED in line for line in d.findings)


def test_explain_says_a_hole_on_another_stream_could_not_serve_it(tmp_path: Path, capsys: Any) -> None:
    path = tmp_path / "two_streams.pickle"
    path.write_bytes(pickle.dumps(_two_streams()))
    assert main(["explain", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["oom"]["largest_hole_bytes"] == 20 * MiB and out["oom"]["fits_up_to_bytes"] == 20 * MiB
    text = " ".join(out["findings"])
    assert SHOULD_HAVE_FITTED not in text
    assert "would have fitted at 20.0 MiB (20,971,520 bytes) or less" in text


@pytest.mark.parametrize(
    ("hole", "fits_up_to"),
    [
        # a free block at least as large as the rounded request serves it: the hole of exactly 40 MiB would have
        (40 * MiB, 40 * MiB),
        # a byte less serves only requests that round (to 512 bytes) to at most 40 MiB - 1: 40 MiB - 512
        (40 * MiB - 1, 40 * MiB - 512),
    ],
)
def test_a_hole_of_the_requests_size_serves_it_and_a_byte_less_does_not(hole: int, fits_up_to: int) -> None:
    segment = _segment(BASE, STREAM_A, [("active_allocated", 2 * MiB), ("inactive", hole), ("active_allocated", MiB)])
    d = diagnose(snapshot_from_object(_oom_dump([segment], 40 * MiB, STREAM_A), "boundary", "dump"))
    o = d.oom
    assert o is not None and o.largest_hole_bytes == hole
    assert o.fits_up_to_bytes == fits_up_to
    assert o.splitter_rule == "pin"  # one hole, not holes split by live blocks: only releasing the segment helps
    said_it_fits = any(SHOULD_HAVE_FITTED in line for line in d.findings)
    assert said_it_fits == (fits_up_to >= 40 * MiB)
    if not said_it_fits:
        assert any(
            "would have fitted at 40.0 MiB (41,942,528 bytes) or less (512 B smaller)" in line for line in d.findings
        ), d.findings


@pytest.mark.parametrize(
    ("last_hole", "rule"),
    [
        # 30 + 20 MiB free in the segment: together exactly the 50 MiB request, so the live block between is named
        (20 * MiB, "split"),
        # 512 bytes short of it: no rearrangement of that segment's holes serves it; releasing the segment would
        (20 * MiB - 512, "pin"),
    ],
)
def test_holes_that_together_make_the_request_exactly_are_split_by_the_blocks_between(
    last_hole: int, rule: str
) -> None:
    layout = [("inactive", 30 * MiB), ("active_allocated", 10 * MiB), ("inactive", last_hole)]
    d = diagnose(snapshot_from_object(_oom_dump([_segment(BASE, STREAM_A, layout)], 50 * MiB, STREAM_A), "x", "dump"))
    assert d.oom is not None and d.oom.splitter_rule == rule
    assert [s.address - BASE for s in d.oom.splitters] == [30 * MiB]


def test_a_later_request_of_the_largest_holes_size_is_not_counted_larger() -> None:
    """The gap's "later requests larger than the largest hole": a request equal to the hole is served by it (a free
    block at least as large), one 512 bytes (the rounding step) larger is not."""
    sim = DeviceAllocatorSim(8 << 30)
    x = sim.malloc(40 * MiB)  # a 40 MiB segment of its own (over 10 MiB: rounded to 2 MiB)
    sim.free(x)
    kept = sim.malloc(24 * MiB)  # takes the cached segment, split: a 16 MiB hole after it
    moment = len(sim.trace) - 1
    sim.malloc(16 * MiB)  # exactly the hole: served by it
    sim.malloc(16 * MiB - 512)  # smaller
    sim.malloc(16 * MiB + 512)  # larger: a new segment
    assert kept.size == 24 * MiB
    d = diagnose(load_snapshot(pickle.dumps(sim.snapshot())), at=moment)
    g = d.gap
    assert g.largest_hole_bytes == 16 * MiB and g.split_bytes == 16 * MiB
    assert (g.later_requests, g.later_larger) == (3, 1)
    assert "1 of the 3 requests after this moment were larger than its largest cached hole (16.0 MiB)" in " ".join(
        d.findings
    )
