"""The paged KV-cache example's pool read from the raw pickles: the oracle of the tests that check its figures."""

from __future__ import annotations

from typing import Any

from gpumem_gui.assets import example_path
from tests.conftest import load_raw


def kv_pool() -> tuple[int, list[int], list[int], int]:
    """The paged run's pool, from the raw pickles: (pool bytes, live pages of the contiguous run's requests, of
    the requests admitted after them, pool pages).

    The contiguous trace counts the requests (one KV alloc each); the paged trace's block-table allocs come in
    order: the pool's index of its pages first, then one table of int32 page numbers per request."""
    contiguous, paged = load_raw(example_path("kv_cache_contiguous")), load_raw(example_path("kv_cache_paged"))

    def site(e: dict[str, Any], s: str) -> bool:
        return any(s in f["filename"] for f in e.get("frames", []))

    served = sum(e["action"] == "alloc" and site(e, "kv_cache") for e in contiguous["device_traces"][0])
    live: dict[int, tuple[int, int]] = {}
    n = 0
    pool = 0
    for e in paged["device_traces"][0]:
        if e["action"] == "alloc" and site(e, "kv_cache"):
            pool += e["size"]
        elif e["action"] == "alloc" and site(e, "block_table"):
            live[e["addr"]] = (n, e["size"] // 4)
            n += 1
        elif e["action"] == "free_completed":
            live.pop(e["addr"], None)
    same = [p for i, p in live.values() if 1 <= i <= served]
    more = [p for i, p in live.values() if i > served]
    return pool, same, more, next(p for i, p in live.values() if i == 0)
