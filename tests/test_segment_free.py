"""A segment's free bytes and largest hole, computed in one place (metrics.segment_free) for the map, the report,
the OOM's explanation and the gap analysis: checked against the raw pickle's blocks, segment by segment."""

from __future__ import annotations

import pytest

from gpumem_gui.core import load_snapshot
from gpumem_gui.core.analysis.metrics import segment_free, segment_free_summary
from gpumem_gui.document.document import segment_summaries
from tests.conftest import fixture_path, load_raw


@pytest.mark.parametrize("name", ["magma27_memory_snapshot.pickle", "silmont_mem_snapshot.pickle"])
def test_free_bytes_and_largest_hole_match_the_raw_blocks(name: str) -> None:
    path = fixture_path(name)
    raw = load_raw(path)
    # the oracle: each raw segment's inactive blocks, by (device, address)
    expected = {}
    for seg in raw["segments"]:
        holes = [b["size"] for b in seg["blocks"] if b["state"] == "inactive"]
        expected[(seg["device"], seg["address"])] = (sum(holes), max(holes, default=0))
    state = load_snapshot(path).state
    free, largest = segment_free(state)
    keys = list(zip(state.segments.device.tolist(), state.segments.address.tolist(), strict=True))
    got = {key: (int(f), int(m)) for key, f, m in zip(keys, free, largest, strict=True)}
    assert got == expected and any(m for _f, m in expected.values())
    # the map's summaries and the report's table read the same figures
    summaries = segment_summaries(state)
    assert summaries.free_bytes.tolist() == free.tolist() and summaries.largest_free.tolist() == largest.tolist()
    table = {
        (r["device"], r["address"]): (r["free_bytes"], r["largest_free_block_bytes"])
        for r in segment_free_summary(state)
    }
    assert table == expected
