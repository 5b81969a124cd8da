"""10M-event benchmark: does a snapshot of the real-file shape at 10,000,000 events (about 2.2 GB) open, and how
fast, on one machine: each phase in a fresh process, wall time and peak RSS of the whole process tree.

Phases: gc-paused `pickle.load` of the file (the yardstick); `gpumem-gui report FILE --json` as a whole process;
our load, `build_timeline` of the default device and time travel through `SnapshotDocument.travel` (the whole
frame) to 20 random events, p50/p95. The window is measured by `bench_gui.py --events 10000000`.
Run: python benchmarks/bench_10m.py [--events N] [--travel K] [--phase NAME --file PATH]
"""

from __future__ import annotations

import argparse
import gc
import json
import pickle
import resource
import sys
import time
from pathlib import Path
from typing import Any

import psutil
from bench_data import shape_path, time_travel, watch_process

HERE = Path(__file__).resolve().parent
GPUMEM_GUI = Path(sys.executable).with_name("gpumem-gui")


def _peak_rss() -> int:
    return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss) * 1024


def _percentiles(seconds: list[float]) -> dict[str, float]:
    ordered = sorted(seconds)
    return {f"p{q}_ms": ordered[min(len(ordered) - 1, len(ordered) * q // 100)] * 1000 for q in (50, 95)}


def phase(name: str, path: Path, travel: int) -> dict[str, Any]:
    out: dict[str, Any] = {"phase": name}
    if name == "pickle_gc_paused":
        gc.disable()
        t0 = time.perf_counter()
        with path.open("rb") as f:
            obj = pickle.load(f)
        out["seconds"] = time.perf_counter() - t0
        del obj
    elif name == "timeline_and_travel":
        from gpumem_gui.core import load_snapshot
        from gpumem_gui.core.analysis.timetravel import build_timeline
        from gpumem_gui.document.document import SnapshotDocument

        t0 = time.perf_counter()
        snap = load_snapshot(path)
        out["load_seconds"] = time.perf_counter() - t0
        device = snap.default_device()
        out["events"] = len(snap.trace(device))
        t0 = time.perf_counter()
        timeline = build_timeline(snap, device)
        out["timeline_seconds"] = time.perf_counter() - t0
        out["after_timeline_rss_bytes"] = int(psutil.Process().memory_info().rss)
        t0 = time.perf_counter()
        doc = SnapshotDocument(snap, {device: timeline})
        out["document_seconds"] = time.perf_counter() - t0
        seconds, state_at = time_travel(doc, timeline, travel)
        out["travel"] = _percentiles(seconds)
        out["state_at"] = _percentiles(state_at)
        out["peak_reserved_bytes"] = timeline.series.peak("reserved")
    out["peak_rss_bytes"] = _peak_rss()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=10_000_000)
    parser.add_argument("--travel", type=int, default=20)
    parser.add_argument("--phase")
    parser.add_argument("--file", type=Path)
    args = parser.parse_args()
    if args.phase:
        print(json.dumps(phase(args.phase, args.file, args.travel)))
        return
    path = shape_path("real", args.events)
    results: dict[str, Any] = {"file": str(path), "file_bytes": path.stat().st_size}
    me = [sys.executable, __file__, "--file", str(path), "--travel", str(args.travel), "--phase"]
    for name in ("pickle_gc_paused", "timeline_and_travel"):
        watched = watch_process([*me, name])
        results[name] = json.loads(watched.pop("stdout")) | watched
        print(f"{name}: {results[name]}", file=sys.stderr, flush=True)
    watched = watch_process([str(GPUMEM_GUI), "report", str(path), "--json"])
    report = json.loads(watched.pop("stdout"))
    results["report"] = watched | {"keys": sorted(report)}
    print(f"report: {results['report']}", file=sys.stderr, flush=True)
    paused = results["pickle_gc_paused"]
    results["ratios"] = {
        "report_seconds_over_pickle": results["report"]["seconds"] / paused["seconds"],
        "report_peak_rss_over_pickle": results["report"]["peak_rss_tree_bytes"] / paused["peak_rss_tree_bytes"],
    }
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
