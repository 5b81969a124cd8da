"""The bundled examples: current with the code that makes them, and each showing what it says it shows."""

from __future__ import annotations

import tomllib

import pytest

from gpumem_gui.assets import EXAMPLES as EXAMPLES_DIR
from gpumem_gui.assets import example_path
from gpumem_gui.core import load_snapshot
from gpumem_gui.core.allocator.examples import EXAMPLES, example_bytes, index_toml
from gpumem_gui.core.analysis.metrics import Metrics, compute_metrics
from gpumem_gui.core.analysis.timetravel import build_timeline
from gpumem_gui.core.rules.allocator_constants import GiB
from gpumem_gui.core.snapshot.model import Action


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.name for e in EXAMPLES])
def test_example_file_is_current(example: object) -> None:
    # `make examples` regenerates them; a change to the simulator or an example must come with new files
    assert example_path(example.name).read_bytes() == example_bytes(example)  # type: ignore[attr-defined]


def test_index_lists_every_example_with_a_description() -> None:
    text = (EXAMPLES_DIR / "examples.toml").read_text(encoding="utf-8")
    assert text == index_toml()
    index = tomllib.loads(text)
    assert list(index) == [e.name for e in EXAMPLES]
    assert all(len(entry["description"]) > 80 for entry in index.values())


def _figures(name: str) -> tuple[Metrics, dict[str, int], int]:
    snap = load_snapshot(example_path(name))
    trace = snap.trace(0)
    counts = {a.name.lower(): int((trace.action == a).sum()) for a in Action}
    return compute_metrics(snap.state), counts, build_timeline(snap, 0).series.peak("reserved")


def test_fragmented_oom_fails_with_more_free_than_asked() -> None:
    m, counts, _ = _figures("fragmented_oom")
    snap = load_snapshot(example_path("fragmented_oom"))
    oom = build_timeline(snap, 0).ooms[-1]
    assert counts["oom"] == 1
    assert m.free_bytes > oom.requested_bytes > m.largest_free_block_bytes
    assert m.inactive_split_bytes == m.free_bytes  # nothing the OOM path could release
    _, counts2, _ = _figures("fragmented_expandable")
    assert counts2["oom"] == 0 and counts2["segment_map"] > 0


def test_cache_reuse_serves_thousands_from_a_handful_of_segments() -> None:
    _, counts, _ = _figures("cache_reuse")
    assert counts["alloc"] >= 2500 and counts["segment_alloc"] <= 30


def test_empty_cache_keeps_the_live_block() -> None:
    m, counts, peak = _figures("empty_cache_live_tensor")
    assert counts["segment_free"] >= 4 and m.allocated_bytes > 0 and m.reserved_bytes < peak


def test_reserved_far_above_allocated_after_the_peak() -> None:
    m, _, _ = _figures("reserved_vs_allocated")
    assert m.reserved_bytes - m.allocated_bytes > 10 * GiB


def test_paged_kv_cache_needs_less_than_contiguous() -> None:
    contiguous, _, _ = _figures("kv_cache_contiguous")
    paged, _, _ = _figures("kv_cache_paged")
    assert paged.allocated_bytes < 0.8 * contiguous.allocated_bytes


def test_checkpointing_lowers_the_peak() -> None:
    _, _, off = _figures("checkpointing_off")
    _, _, sqrt = _figures("checkpointing_sqrt")
    assert sqrt < 0.6 * off


def test_split_blocks_oom() -> None:
    m, counts, _ = _figures("split_blocks_oom")
    assert counts["oom"] == 1 and m.inactive_split_bytes > 1.4 * GiB > m.largest_free_block_bytes
