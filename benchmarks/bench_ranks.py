"""Ranks benchmark: a folder of rank files made with the allocator simulator (1,000 small ones, or 64 of 100k trace
events), and `gpumem-gui ranks DIR --json` timed three ways: the local process pool, a local Dask cluster
(`--scheduler`), and the summary cache on a second run; with the peak RSS of the merging process (the command's own)
and of the command with all its worker processes.

Rank 13 runs out of memory once; rank 42 keeps 30 % more activations (an outlier); the others differ by a few %.
The folder is made once and reused: $GPUMEM_GUI_BENCH_DIR, else a folder in the temporary directory (never the
user's home); the summary cache of each run is a fresh temporary folder.
Run: python benchmarks/bench_ranks.py [--ranks 1000] [--events 2000] [--out DIR] [--no-dask]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import pickle
import random
import shutil
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import psutil

OOM_RANK = 13
OUTLIER_RANK = 42
GPUS_PER_NODE = 8


def _stacks(rng: random.Random, count: int) -> list[list[dict[str, Any]]]:
    frames = [
        {"name": f"{rng.choice(['forward', 'backward', 'attention', 'mlp', 'norm'])}_{i}",
         "filename": f"/home/user/model/layer{i % 40}.py", "line": rng.randint(1, 900)}
        for i in range(count * 4)
    ]  # fmt: skip
    module = {"name": "<module>", "filename": "train.py", "line": 1}
    return [[*rng.sample(frames, rng.randint(19, 59)), module] for _ in range(count)]


def make_rank_file(path: Path, rank: int, events: int) -> None:
    """One rank's snapshot: parameters, then training steps of activations freed in reverse, until the ring buffer
    of `events` entries is full twice over (its oldest entries dropped, as in a real long run)."""
    from gpumem_gui.core.allocator.simulator import DeviceAllocatorSim, OutOfMemoryError
    from gpumem_gui.core.rules.allocator_constants import GiB, MiB

    rng = random.Random(1000)  # the same model on every rank: the same sizes, in the same order
    stacks = _stacks(rng, 400)
    sim = DeviceAllocatorSim(80 * GiB, device=rank % GPUS_PER_NODE, max_entries=events)
    scale = (1.3 if rank == OUTLIER_RANK else 1.0) * (1.0 + 0.02 * random.Random(rank).random())  # 2 % apart
    params = [
        sim.malloc(rng.choice([4, 16, 64]) * MiB + rng.randint(0, 4096), 0, rng.choice(stacks)) for _ in range(60)
    ]
    calls = 0
    late = False  # the step with the run's peak: bigger activations, and rank 13's OOM
    while calls < 2 * events:
        live = []
        for _ in range(rng.randint(40, 120)):
            size = int(rng.choice([rng.randint(1, MiB), rng.randint(MiB, 40 * MiB)]) * scale)
            live.append(sim.malloc(size, 0, list(rng.choice(stacks))))
            if rng.random() < 0.3:  # a temporary dies at once
                sim.free(live.pop())
        if calls > 1.9 * events and not late:  # near the end, so that the ring buffer keeps it
            late = True
            live += [sim.malloc(int(rng.randint(64, 256) * MiB * scale), 0, list(rng.choice(stacks))) for _ in range(4)]
            if rank == OOM_RANK:
                with contextlib.suppress(OutOfMemoryError):
                    sim.malloc(100 * GiB, 0, list(rng.choice(stacks)))
        calls += len(live) * 2
        for block in reversed(live):
            sim.free(block)
    del params
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".part")
    with tmp.open("wb") as f:
        pickle.dump(sim.snapshot(), f, protocol=4)
    tmp.replace(path)


def make_folder(folder: Path, ranks: int, events: int) -> list[Path]:
    paths = [folder / f"rank{r}_step100_memory_snapshot.pickle" for r in range(ranks)]
    todo = [(p, r) for r, p in enumerate(paths) if not p.exists()]
    if todo:
        print(f"making {len(todo)} rank files in {folder} ...", file=sys.stderr)
        with ProcessPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
            list(pool.map(make_rank_file, [p for p, _ in todo], [r for _, r in todo], [events] * len(todo)))
    return paths


def _rss(proc: psutil.Process) -> tuple[int, int]:
    """The RSS of `proc` alone and of it with all its children."""
    own = total = 0
    for p in [proc, *proc.children(recursive=True)]:
        with contextlib.suppress(psutil.Error):  # a worker that just left
            rss = p.memory_info().rss
            total += rss
            own = rss if p.pid == proc.pid else own
    return own, total


def measure(folder: Path, cache: Path, *args: str) -> dict[str, Any]:
    """Run the command once, sampling the RSS of it and all its children every 20 ms."""
    cmd = [sys.executable, "-m", "gpumem_gui", "ranks", str(folder), "--json", *args]
    env = dict(os.environ, GPUMEM_GUI_CACHE_DIR=str(cache))
    # the JSON of 1,000 ranks is more than a pipe holds: into files, so the command never waits on this sampler
    with tempfile.TemporaryFile() as stdout, tempfile.TemporaryFile() as stderr:
        t0 = time.perf_counter()
        proc = psutil.Popen(cmd, stdout=stdout, stderr=stderr, env=env)
        peak_own = peak_all = peak_procs = 0
        while proc.poll() is None:
            with contextlib.suppress(psutil.Error):
                own, total = _rss(proc)
                peak_own, peak_all = max(peak_own, own), max(peak_all, total)
                peak_procs = max(peak_procs, 1 + len(proc.children(recursive=True)))
            time.sleep(0.02)
        seconds = time.perf_counter() - t0
        stdout.seek(0)
        stderr.seek(0)
        out, err = stdout.read(), stderr.read()
    result = json.loads(out) if proc.returncode == 0 else {}
    return {
        "returncode": proc.returncode,
        "seconds": round(seconds, 2),
        "peak_rss_merging_process_bytes": peak_own,
        "peak_rss_all_processes_bytes": peak_all,
        "peak_processes": peak_procs,
        "ranks": len(result.get("ranks", [])),
        "oom_ranks": result.get("oom_ranks"),
        "outliers": sorted({o["rank"] for o in result.get("outliers", [])}),
        "stderr": err.decode()[-500:],
    }


def _dask(folder: Path, cache: Path) -> dict[str, Any]:
    """The command against a local Dask cluster of one single-threaded worker process per core."""
    try:
        import distributed
    except ImportError:
        return {"skipped": "Dask is not installed (pip install 'gpumem-gui[cluster]')"}
    workers = os.cpu_count() or 1
    with distributed.LocalCluster(
        n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0"
    ) as cluster:
        return {"workers": workers} | measure(folder, cache, "--no-cache", "--scheduler", cluster.scheduler_address)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ranks", type=int, default=1000)
    parser.add_argument("--events", type=int, default=2000)
    parser.add_argument("--out", type=Path, default=None, help="where the rank folder goes")
    parser.add_argument("--no-dask", action="store_true", help="leave the Dask cluster out")
    args = parser.parse_args()
    if args.out is None:
        base = Path(os.environ.get("GPUMEM_GUI_BENCH_DIR") or tempfile.gettempdir())
        args.out = base / f"gpumem-gui-bench-ranks-{args.ranks}x{args.events}"
    t0 = time.perf_counter()
    paths = make_folder(args.out, args.ranks, args.events)
    made = time.perf_counter() - t0
    size = sum(p.stat().st_size for p in paths)
    cache = Path(tempfile.mkdtemp(prefix="gpumem-gui-bench-cache-"))
    try:
        report: dict[str, Any] = {
            "folder": str(args.out),
            "files": len(paths),
            "events_per_file": args.events,
            "folder_bytes": size,
            "make_seconds": round(made, 1),
            "cpus": os.cpu_count(),
            "load_average": [round(x, 2) for x in os.getloadavg()],
            "local_pool": measure(args.out, cache, "--no-cache"),
        }
        if not args.no_dask:
            report["dask_local_cluster"] = _dask(args.out, cache)
        report["cache_first_run"] = measure(args.out, cache)
        report["cache_second_run"] = measure(args.out, cache)
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
