"""JSON snapshots (issue 35, target 4): our load against gc-paused `json.load` of the same file, from one run.

The file: the unshared dump as JSON (bench_scale.json_path: a tool that rewrote the snapshot as JSON; 1M events
are 626 MB), or --file. Three measures, each beside its yardstick:
- in one process, CPU time of each load, alternated A B B A twice (so that a busy moment falls on both), with the
  collector paused for json.load as the other benchmarks pause it for pickle.load;
- the peak RSS (VmHWM) of a process that does only the one load, each kind run --rounds times alternately;
- with --report, the whole `gpumem-gui report FILE --json` process against a process that only does json.load
  (bench_scale.measure: wall and CPU time of each process tree, and its peak RSS).
Prints JSON: every figure, the ratios, the target (<= 1.0x the time, <= 0.5x the peak RSS) and whether it is met.
Run: python benchmarks/bench_json.py [--events N | --file PATH] [--rounds R] [--report]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

from bench_scale import TARGETS, json_path, measure

TARGET = TARGETS["json"]
# one load in a process of its own; prints its CPU and wall seconds and its peak RSS (VmHWM: this process's own)
_CHILD = """
import gc, json, sys, time
kind, path = sys.argv[1:]
if kind == "ours":
    from gpumem_gui.core.snapshot.loader import load_snapshot
cpu, wall = time.process_time(), time.perf_counter()
if kind == "json_load":
    gc.disable()
    with open(path, "rb") as f:
        json.load(f)
else:
    load_snapshot(path)
cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
status = open("/proc/self/status").read()
peak = int(status.split("VmHWM:")[1].split()[0]) * 1024
print(json.dumps({"cpu_seconds": cpu, "seconds": wall, "peak_rss_bytes": peak}))
"""
# both loads in one process, alternated A B B A twice; CPU seconds of each (waiting for a core is not in them)
_INTERLEAVED = """
import gc, json, sys, time
from gpumem_gui.core.snapshot.loader import load_snapshot
path = sys.argv[1]
times = {"json_load": [], "ours": []}

def json_load():
    gc.disable()
    t = time.process_time()
    with open(path, "rb") as f:
        obj = json.load(f)
    times["json_load"].append(time.process_time() - t)
    del obj
    gc.enable()

def ours():
    t = time.process_time()
    snap = load_snapshot(path)
    times["ours"].append(time.process_time() - t)
    del snap

for first, second in ((json_load, ours), (ours, json_load)) * 2:
    first()
    second()
print(json.dumps(times))
"""


def _python(code: str, *args: str) -> Any:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(Path(__file__).resolve().parent.parent), os.environ.get("PYTHONPATH", "")]),
    }
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, check=True, env=env)
    return json.loads(done.stdout)


def run(path: Path, rounds: int, report: bool) -> dict[str, Any]:
    interleaved = _python(_INTERLEAVED, str(path))
    alone: dict[str, list[dict[str, Any]]] = {"json_load": [], "ours": []}
    for _ in range(rounds):
        for kind, runs in alone.items():
            runs.append(_python(_CHILD, kind, str(path)))
    cpu = {kind: statistics.median(seconds) for kind, seconds in interleaved.items()}
    peak = {kind: statistics.median(r["peak_rss_bytes"] for r in runs) for kind, runs in alone.items()}
    ratios = {
        "cpu_seconds_in_one_process": cpu["ours"] / cpu["json_load"],
        "peak_rss_each_alone": peak["ours"] / peak["json_load"],
    }
    results: dict[str, Any] = {
        "file": str(path),
        "file_bytes": path.stat().st_size,
        "load_average": os.getloadavg(),
        "interleaved_cpu_seconds": interleaved,
        "alone": alone,
        "medians": {"cpu_seconds": cpu, "peak_rss_bytes": peak},
        "ratios": ratios,
    }
    if report:
        whole = measure(path, rounds)
        results["report_process"] = whole
        ratios["report_seconds_over_json_load"] = whole["ratios"]["report_seconds_over_load"]
        ratios["report_cpu_seconds_over_json_load"] = whole["ratios"]["report_cpu_seconds_over_load"]
        ratios["report_peak_rss_over_json_load"] = whole["ratios"]["report_peak_rss_over_load"]
    results["target"] = TARGET
    results["met"] = {
        "time": all(v <= TARGET["time"] for k, v in ratios.items() if "seconds" in k),
        "rss": all(v <= TARGET["rss"] for k, v in ratios.items() if "rss" in k),
    }
    results["load_average_after"] = os.getloadavg()
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--file", type=Path, help="measure this JSON file instead")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--report", action="store_true", help="also the whole report process (bench_scale)")
    args = parser.parse_args()
    path = args.file or json_path(args.events)
    print(json.dumps(run(path, args.rounds, args.report), indent=2))


if __name__ == "__main__":
    main()
