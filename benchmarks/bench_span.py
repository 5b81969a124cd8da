"""Span and flame-graph benchmark: once the trace is loaded and its timeline built, the time to re-scope to a span
(its report: left behind, temporaries, released, peak and its holders, by site) and to compute each flame graph
frame (every cost, top-down and inverted), first call (tries and site names made) and then again.

On the real-file-shape snapshot of bench_data.py (made there if missing) in $GPUMEM_GUI_BENCH_DIR or the cache.
Issue 32's target: re-scoping and the flame graph under 300 ms after the trace is loaded (both run off the GUI thread).
Run: python benchmarks/bench_span.py [--events 1000000]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from typing import Any

from bench_data import shape_path

from gpumem_gui.core.analysis.flame import COSTS
from gpumem_gui.core.analysis.span import Span
from gpumem_gui.core.snapshot.loader import load_snapshot
from gpumem_gui.document.document import SnapshotDocument

TARGET_MS = 300.0


def _ms(run: Callable[[], object]) -> float:
    t = time.perf_counter()
    run()
    return round((time.perf_counter() - t) * 1000, 1)


def _median_ms(run: Callable[[], object], repeat: int = 5) -> float:
    return round(statistics.median(_ms(run) for _ in range(repeat)), 1)


def measure(events: int) -> dict[str, Any]:
    path = shape_path("real", events)
    t = time.perf_counter()
    snapshot = load_snapshot(path)
    doc = SnapshotDocument(snapshot)
    timeline = doc.timeline()
    result: dict[str, Any] = {
        "file": path.name,
        "events": timeline.n_events,
        "lifetimes": len(timeline.lifetimes.start),
    }
    result["load_and_timeline_s"] = round(time.perf_counter() - t, 2)
    n = timeline.n_events
    result["named_spans_first_ms"] = _ms(doc.named_spans)
    result["steps"] = sum(s.name.startswith("step") for s in doc.named_spans())
    spans = [Span(n // 3, 2 * n // 3), Span(n // 2, n // 2 + n // 10), Span(-1, n - 1)]

    def rescope(span: Span) -> object:
        doc.set_span(span)
        return doc.span_report()

    # the first span of a document pays for the lifetimes' site names; each later one is one pass over the masks
    result["span_first_ms"] = _ms(lambda: rescope(spans[0]))
    result["span_ms"] = max(_ms(lambda s=s: rescope(s)) for s in spans[1:])
    doc.set_span(spans[0])
    flame: dict[str, dict[str, float]] = {}
    for inverted in (False, True):
        side = "inverted" if inverted else "top_down"
        # the first frame of a side builds its trie of every stack's path
        flame[side] = {"first_ms": _ms(lambda inv=inverted: doc.flame_frame("live", inverted=inv))}
        for cost in COSTS:
            flame[side][cost] = _median_ms(lambda c=cost, inv=inverted: doc.flame_frame(c, inverted=inv))
        flame[side]["search_ms"] = _median_ms(
            lambda inv=inverted: doc.flame_frame("leaked", inverted=inv, search="py:")
        )
    result["flame_ms"] = flame
    sample = doc.flame_frame("peak")
    result["flame_rectangles"] = len(sample) if sample is not None else 0
    first_total = result["span_first_ms"] + max(f["first_ms"] for f in flame.values())
    result["rescope_and_flame_first_ms"] = round(first_total, 1)
    worst = result["span_ms"] + max(v for f in flame.values() for k, v in f.items() if k != "first_ms")
    result["rescope_and_flame_ms"] = round(worst, 1)
    result["under_target"] = first_total < TARGET_MS
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, nargs="+", default=[1_000_000])
    args = parser.parse_args()
    print(json.dumps([measure(n) for n in args.events], indent=2))


if __name__ == "__main__":
    main()
