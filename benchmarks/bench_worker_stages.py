"""Where the loading worker's time goes: each stage of its work on one file, in CPU time (steadier than wall time on a
shared machine) and RSS after it, beside a gc-paused pickle.load of the same file's CPU time as the yardstick.

Stages, in the worker's order (sources/file_loader.py): read and convert (the map's state handed over on the way, the
running curves of the trace read so far sent as it goes), every device's timeline, the hand-over file of the whole
snapshot (with the window's digest of each timeline; each column freed, its pages given back, as it is written), that
file mapped again for the bands, the named spans, the site bands (each grouping written to the bands' hand-over file
as it is made). Each stage's CPU time, RSS after it and highest RSS during it (sampled every 20 ms). The worker is
one thread: on an idle machine its wall time is about this CPU time, and the window shows its timeline about when the
hand-over file is written.

Run: python benchmarks/bench_worker_stages.py [--events N | --file PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import psutil
from bench_data import shape_path, watch_process

YARDSTICK = "import gc, pickle, sys, os\ngc.disable()\nwith open(sys.argv[1], 'rb') as f: pickle.load(f)\nos._exit(0)\n"


def stages(path: Path, folder: str) -> dict[str, Any]:
    from gpumem_gui.core.analysis.named_spans import named_spans
    from gpumem_gui.core.analysis.running_curves import RunningCurves
    from gpumem_gui.core.analysis.timetravel import build_timeline
    from gpumem_gui.core.snapshot.loader import load_snapshot
    from gpumem_gui.sources.array_file import write_arrays
    from gpumem_gui.sources.file_loader import bands_input
    from gpumem_gui.sources.transfer import make_and_save_bands, parts

    out: dict[str, Any] = {}
    clock = [time.process_time()]
    me = psutil.Process()
    peak = [0]
    sampling = threading.Event()

    def sample() -> None:  # each stage's highest RSS, every 20 ms
        while not sampling.wait(0.02):
            peak[0] = max(peak[0], me.memory_info().rss)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()

    def done(stage: str) -> None:
        now = time.process_time()
        rss = me.memory_info().rss
        out[stage] = {
            "cpu_s": round(now - clock[0], 2),
            "rss_mb": round(rss / 1e6),
            "peak_rss_mb": round(max(peak[0], rss) / 1e6),
        }
        clock[0], peak[0] = now, rss

    curves = RunningCurves()
    snapshot = load_snapshot(path, on_rows=curves.add)
    done("read_and_convert (with the running curves)")
    timelines = {d: build_timeline(snapshot, d) for d in snapshot.devices()}
    done("timelines")
    whole = os.path.join(folder, "whole.arrays")
    arrays, meta = parts(snapshot, timelines)
    device = snapshot.default_device()
    out["events"] = sum(len(t) for t in snapshot.traces)
    del snapshot, timelines  # as the worker: each column freed as written, the bands read the file just written
    write_arrays(whole, arrays, meta, drain=True)
    out["hand_over_bytes"] = os.path.getsize(whole)
    done("hand_over_whole (with the window's digest)")
    snapshot, timeline = bands_input(whole, device)
    done("bands_input (the hand-over mapped)")
    named_spans(snapshot, timeline)
    done("named_spans")
    make_and_save_bands(os.path.join(folder, "bands.arrays"), snapshot, timeline)
    done("site_bands (each grouping written to its hand-over file as made)")
    sampling.set()
    out["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e3)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=3_000_000, help="the real-shape file of this many events")
    parser.add_argument("--file", type=Path, help="this snapshot file instead")
    args = parser.parse_args()
    path = args.file if args.file is not None else shape_path("real", args.events)
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="gpumem-gui-bench-") as folder:
        result = stages(path, folder)
    cpu = sum(v["cpu_s"] for v in result.values() if isinstance(v, dict))
    to_timeline = sum(
        v["cpu_s"] for k, v in result.items() if isinstance(v, dict) and k.startswith(("read", "time", "hand_over_w"))
    )
    watched = watch_process([sys.executable, "-c", YARDSTICK, str(path)])
    result |= {
        "file": str(path),
        "load_avg_1m_before": load_before,
        "load_avg_1m_after": os.getloadavg()[0],
        "cpu_s_to_whole_hand_over": round(to_timeline, 2),
        "cpu_s_all_stages": round(cpu, 2),
        "yardstick": {"what": "gc-paused pickle.load, a process of its own", "cpu_s": round(watched["cpu_seconds"], 2)},
        "to_whole_over_pickle_load_cpu": round(to_timeline / watched["cpu_seconds"], 2),
        "all_stages_over_pickle_load_cpu": round(cpu / watched["cpu_seconds"], 2),
    }
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
