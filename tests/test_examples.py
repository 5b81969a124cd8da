"""The bundled examples: current with the code that makes them, and each showing what it says it shows."""

from __future__ import annotations

import pickle
import tomllib
from typing import Any

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


def _raw(name: str) -> dict[str, Any]:
    with example_path(name).open("rb") as f:
        raw: dict[str, Any] = pickle.load(f)
    return raw


def _from(site: str, entry: dict[str, Any]) -> bool:
    return any(site in fr["filename"] for fr in entry.get("frames", []))


def test_paged_kv_cache_is_one_pool_that_serves_more_requests() -> None:
    # read from the raw pickles: the contiguous run's KV peak is the running sum of its KV allocs and frees
    c_trace = _raw("kv_cache_contiguous")["device_traces"][0]
    sign = {"alloc": 1, "free_completed": -1}
    running = 0
    c_peak = 0
    for e in c_trace:
        if e["action"] in sign and _from("kv_cache", e):
            running += sign[e["action"]] * e["size"]
            c_peak = max(c_peak, running)
    c_live = [b for s in _raw("kv_cache_contiguous")["segments"] for b in s["blocks"]
              if b["state"] == "active_allocated" and _from("kv_cache", b)]  # fmt: skip
    raw = _raw("kv_cache_paged")
    trace = raw["device_traces"][0]
    kv_allocs = [e for e in trace if e["action"] == "alloc" and _from("kv_cache", e)]
    assert len(kv_allocs) == 1 and kv_allocs[0]["size"] == c_peak  # one pool, as large as the contiguous peak
    assert not any(e["action"] == "free_completed" and _from("kv_cache", e) for e in trace)
    # reserved stays flat once the server runs: no segment is freed, and after the first request's block table
    # (one small segment) none is created
    first_table = next(i for i, e in enumerate(trace) if e["action"] == "alloc" and e["size"] < 2048)
    assert not any(e["action"] in ("segment_alloc", "segment_free") for e in trace[first_table + 1 :])
    tables = [b for s in raw["segments"] for b in s["blocks"]
              if b["state"] == "active_allocated" and _from("block_table", b)]  # fmt: skip
    pages = sorted(b["requested_size"] // 4 for b in tables)
    pool_pages = pages.pop()  # the pool's own index of its pages
    assert pool_pages * 16 * 2 * 32 * 8 * 128 * 2 == c_peak  # pages of 16 tokens, fp16 K and V
    assert len(pages) > len(c_live) and sum(pages) <= pool_pages  # more requests, in the same pool


def test_checkpointing_lowers_the_peak() -> None:
    _, _, off = _figures("checkpointing_off")
    _, _, sqrt = _figures("checkpointing_sqrt")
    assert sqrt < 0.6 * off


def test_split_blocks_oom() -> None:
    m, counts, _ = _figures("split_blocks_oom")
    assert counts["oom"] == 1 and m.inactive_split_bytes > 1.4 * GiB > m.largest_free_block_bytes
