"""Load benchmark: a 1,000,000-event snapshot, timed phase by phase in fresh processes.

Prints JSON: plain pickle.load (gc on, gc paused), our load-and-convert, all series (build_timeline for every
device), state_at over 200 random events, time travel in the document (SnapshotDocument.travel, the whole frame,
p50/p95/p99 over 300 random events), the memory each keeps and the peak RSS of each process. Ratios are
computed from one run. --shape picks the file: "synthetic" (4,000 stacks 20-60 deep), "real" (the real-file shape,
design.md "Benchmark data") or "unshared" (its edge case: no frame dict shared between two stacks); --quick runs
only the phases the ratio, the peak RSS and the travel need.
Run: python benchmarks/bench_load.py [--events N] [--shape S] [--quick] [--out DIR] (default DIR: data_dir())
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import pickle
import random
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import psutil
from bench_data import data_dir, shape_path, time_travel


def _rss() -> int:
    return int(psutil.Process().memory_info().rss)


def _peak_rss() -> int:
    return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss) * 1024


def make_file(path: Path, events: int) -> None:
    from gpumem_gui.core.allocator.synthetic import synthetic_snapshot

    # thousands of distinct stacks, 20-60 frames deep, as with stacks="python" in a real model
    dump = synthetic_snapshot(events, seed=42, streams=2, distinct_stacks=4000, stack_depth=(20, 60))
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as f:
        pickle.dump(dump, f, protocol=4)


def phase(name: str, path: Path) -> dict[str, Any]:
    data = path.read_bytes()
    base = _rss()
    out: dict[str, Any] = {"phase": name}
    if name in ("pickle_gc_on", "pickle_gc_paused"):
        if name == "pickle_gc_paused":
            gc.disable()
        t0 = time.perf_counter()
        obj = pickle.loads(data)
        out["seconds"] = time.perf_counter() - t0
        gc.enable()
        del data
        gc.collect()
        out["kept_rss_bytes"] = _rss() - base
        del obj
    elif name == "load_and_convert":
        from gpumem_gui.core import load_snapshot

        t0 = time.perf_counter()
        snap = load_snapshot(data)
        out["seconds"] = time.perf_counter() - t0
        del data
        gc.collect()
        out["kept_rss_bytes"] = _rss() - base  # arenas the freed dicts leave behind may still count here
        out["events"] = sum(len(t) for t in snap.traces)
        out["stacks"] = len(snap.stacks)
    elif name == "interleaved_timing":
        # the ratios: both loads alternate in one process, so machine noise hits both alike; best of 3 each
        from gpumem_gui.core import load_snapshot
        from gpumem_gui.core.analysis.timetravel import build_timeline

        pickle_times, load_times, series_times = [], [], []

        def time_pickle() -> None:
            gc.disable()
            t0 = time.process_time()
            obj = pickle.loads(data)
            pickle_times.append(time.process_time() - t0)
            gc.enable()
            del obj

        def time_load() -> None:
            t0 = time.process_time()
            snap = load_snapshot(data)
            load_times.append(time.process_time() - t0)
            t0 = time.process_time()
            for d in snap.devices():
                build_timeline(snap, d)
            series_times.append(time.process_time() - t0)

        # A B B A A B B A: whichever runs first after a big free pays for the pages, so both orders count.
        # Times are CPU seconds of this process: on a shared machine, wall time also counts other tenants.
        for first, second in ((time_pickle, time_load), (time_load, time_pickle)) * 2:
            first()
            second()
        out["pickle_gc_paused_seconds"] = pickle_times
        out["load_and_convert_seconds"] = load_times
        out["series_seconds"] = series_times
    elif name in ("dicts_memory", "model_memory"):
        import tracemalloc

        from gpumem_gui.core import load_snapshot

        tracemalloc.start()
        kept = pickle.loads(data) if name == "dicts_memory" else load_snapshot(data)
        gc.collect()
        out["traced_bytes"] = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        del kept
    elif name == "series_and_state_at":
        from gpumem_gui.core import load_snapshot
        from gpumem_gui.core.analysis.timetravel import build_timeline

        snap = load_snapshot(data)
        del data
        t0 = time.perf_counter()
        timelines = [build_timeline(snap, d) for d in snap.devices()]
        out["series_seconds"] = time.perf_counter() - t0
        rng = random.Random(0)
        times = []
        for _ in range(200):
            tl = rng.choice(timelines)
            i = rng.randrange(-1, tl.n_events)
            t1 = time.perf_counter()
            tl.state_at(i)
            times.append(time.perf_counter() - t1)
        times.sort()
        out["state_at_median_ms"] = statistics.median(times) * 1000
        out["state_at_p95_ms"] = times[int(len(times) * 0.95) - 1] * 1000
        out["warnings"] = sum(len(t.warnings) for t in timelines)
    elif name == "travel":
        out.update(_travel(data))
    out["peak_rss_bytes"] = _peak_rss()
    return out


def _percentiles(prefix: str, seconds: list[float]) -> dict[str, float]:
    ordered = sorted(seconds)
    return {f"{prefix}_p{q}_ms": ordered[min(len(ordered) - 1, len(ordered) * q // 100)] * 1000 for q in (50, 95, 99)}


def _travel(data: bytes) -> dict[str, Any]:
    """Time travel as the window asks for it: SnapshotDocument.travel to 300 random events of the default device,
    the whole frame computed (state, map raster, metrics, findings, the event's description)."""
    from gpumem_gui.core import load_snapshot
    from gpumem_gui.core.analysis.timetravel import build_timeline
    from gpumem_gui.document.document import SnapshotDocument

    snap = load_snapshot(data)
    device = snap.default_device()
    timeline = build_timeline(snap, device)
    doc = SnapshotDocument(snap, {device: timeline})
    gc.collect()
    travel, state_at = time_travel(doc, timeline, 300)
    return {**_percentiles("travel", travel), **_percentiles("state_at", state_at), "events": timeline.n_events}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--out", type=Path, default=None, help="where the generated file is kept")
    parser.add_argument("--shape", choices=("synthetic", "real", "unshared"), default="synthetic")
    parser.add_argument("--quick", action="store_true", help="ratio, peak RSS and travel only")
    parser.add_argument("--phase")
    parser.add_argument("--file", type=Path)
    args = parser.parse_args()
    if args.phase:
        print(json.dumps(phase(args.phase, args.file)))
        return
    if args.shape != "synthetic":
        path = shape_path(args.shape, args.events, args.out)
    else:
        path = (args.out or data_dir()) / f"synthetic_{args.events}.pickle"
    if not path.exists():
        t0 = time.perf_counter()
        make_file(path, args.events)
        print(f"generated {path} in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    results: dict[str, Any] = {"file_bytes": path.stat().st_size, "events_per_device": args.events}
    phases = ["pickle_gc_on", "pickle_gc_paused", "load_and_convert", "series_and_state_at", "interleaved_timing"]
    phases.append("travel")
    if args.quick:
        phases = ["pickle_gc_paused", "load_and_convert", "interleaved_timing", "travel"]
    else:
        phases += ["dicts_memory", "model_memory"]
    for name in phases:
        proc = subprocess.run(
            [sys.executable, __file__, "--phase", name, "--file", str(path)],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": "0"},
        )
        results[name] = json.loads(proc.stdout)
        print(f"{name}: {results[name]}", file=sys.stderr)
    timing = results["interleaved_timing"]
    paused = min(timing["pickle_gc_paused_seconds"])
    results["ratios"] = {
        "load_and_convert_over_pickle_gc_paused": min(timing["load_and_convert_seconds"]) / paused,
        "series_over_pickle_gc_paused": min(timing["series_seconds"]) / paused,
        "peak_rss_load_over_pickle": results["load_and_convert"]["peak_rss_bytes"]
        / results["pickle_gc_paused"]["peak_rss_bytes"],
    }
    if not args.quick:
        results["ratios"]["gc_on_over_gc_paused"] = (
            results["pickle_gc_on"]["seconds"] / results["pickle_gc_paused"]["seconds"]
        )
        dicts = results["dicts_memory"]["traced_bytes"]
        results["ratios"]["model_memory_over_dicts"] = results["model_memory"]["traced_bytes"] / dicts
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
