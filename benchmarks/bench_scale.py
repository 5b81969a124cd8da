"""Whole-process benchmark at scale: `gpumem-gui report FILE --json` against a process that only does gc-paused
`pickle.load` (`json.load` for JSON) of the same file, run alternately, with the peak RSS of each process tree.

Files: the real-file shape (design.md, "Benchmark data") at --events, its edge cases "unshared" (no frame dict
shared between two stacks, as rewritten pickles) and "json" (the unshared dump as JSON, gzip too with --gzip).
Each process is timed from its start to its exit (interpreter, imports and all), so a ratio is what a user waits
for; the CPU time of each process tree is the steadier figure on a shared machine. Prints JSON: each round's
seconds, CPU seconds and peak RSS, the medians, their ratios, issue 35's targets and whether they are met.
Run: python benchmarks/bench_scale.py [--events N] [--shape real|unshared|json] [--rounds R]
"""

from __future__ import annotations

import argparse
import json
import pickle
import statistics
import sys
from pathlib import Path
from typing import Any

from bench_data import shape_path, watch_process

GPUMEM_GUI = Path(sys.executable).with_name("gpumem-gui")
YARDSTICK = (
    "import gc, sys, {module}\n"
    "gc.disable()\n"
    "with open(sys.argv[1], 'rb') as f:\n"
    "    {module}.load(f)\n"
    "import os; os._exit(0)\n"  # as the report leaves: nobody waits for the objects to be freed
)

# issue 35's targets, as ratios to the yardstick: report --json at 0.7x pickle.load's time (target 3); a JSON
# snapshot at 1.0x json.load's time and 0.5x its peak RSS (target 4)
TARGETS = {"pickle": {"time": 0.7, "rss": 0.5}, "json": {"time": 1.0, "rss": 0.5}}


def json_path(events: int) -> Path:
    """The unshared dump at `events` as JSON (what a tool that rewrote the snapshot as JSON gives), made once."""
    source = shape_path("unshared", events)
    path = source.with_suffix(".json")
    if not path.exists():
        with source.open("rb") as f:
            dump = pickle.load(f)
        part = path.with_suffix(".part")
        part.write_text(json.dumps(dump))
        part.replace(path)
    return path


def measure(path: Path, rounds: int) -> dict[str, Any]:
    module = "json" if path.suffix == ".json" else "pickle"
    yardstick = [sys.executable, "-c", YARDSTICK.format(module=module), str(path)]
    report = [str(GPUMEM_GUI), "report", str(path), "--json"]
    runs: dict[str, list[dict[str, Any]]] = {f"{module}_load": [], "report": []}
    for _ in range(rounds):  # alternately, so that a busy moment of the machine falls on both
        for name, command in ((f"{module}_load", yardstick), ("report", report)):
            watched = watch_process(command)
            stdout = watched.pop("stdout")
            runs[name].append(watched | {"stdout_bytes": len(stdout)})
    keys = ("seconds", "cpu_seconds", "peak_rss_tree_bytes")
    medians = {name: {key: statistics.median(r[key] for r in rows) for key in keys} for name, rows in runs.items()}
    base, ours = medians[f"{module}_load"], medians["report"]
    ratios = {
        "report_seconds_over_load": ours["seconds"] / base["seconds"],
        "report_cpu_seconds_over_load": ours["cpu_seconds"] / base["cpu_seconds"],
        "report_peak_rss_over_load": ours["peak_rss_tree_bytes"] / base["peak_rss_tree_bytes"],
    }
    targets = TARGETS[module]
    met = {
        "time": ratios["report_seconds_over_load"] <= targets["time"],
        "rss": ratios["report_peak_rss_over_load"] <= targets["rss"],
    }
    return {
        "file": str(path),
        "file_bytes": path.stat().st_size,
        "yardstick": f"gc-paused {module}.load, whole process",
        "runs": runs,
        "medians": medians,
        "ratios": ratios,
        "targets": targets,
        "met": met,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--shape", choices=("real", "unshared", "json"), default="real")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--file", type=Path, help="measure this file instead")
    args = parser.parse_args()
    path = args.file or (json_path(args.events) if args.shape == "json" else shape_path(args.shape, args.events))
    print(json.dumps(measure(path, args.rounds), indent=2))


if __name__ == "__main__":
    main()
