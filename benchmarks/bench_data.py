"""Where the benchmarks keep the data they generate (a cache folder of the user's, never the repository), the
generators of the real-file shape and of its unshared-frames edge case (synthetic.unshare_frames), and what the
benchmarks share to time them.

Run: python benchmarks/bench_data.py --shape unshared --events 1000000 (writes into data_dir(), prints the path)
"""

from __future__ import annotations

import argparse
import contextlib
import os
import pickle
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ENV = "GPUMEM_GUI_BENCH_DIR"
UNSHARED_DEPTH = (4, 8)  # about 2M distinct frame dicts at 1M events, the file issue 20 measured


def _user_cache() -> Path:
    try:
        from platformdirs import user_cache_dir
    except ImportError:  # a virtualenv made before platformdirs was a dependency: the same folder, by hand
        if sys.platform == "darwin":
            return Path.home() / "Library" / "Caches" / "gpumem-gui"
        if sys.platform == "win32":
            return Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local") / "gpumem-gui" / "Cache"
        return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "gpumem-gui"
    return Path(user_cache_dir("gpumem-gui", appauthor=False))


def data_dir() -> Path:
    """$GPUMEM_GUI_BENCH_DIR if set, else the user's cache folder's gpumem-gui/benchmarks (made if missing).

    The files are generated once (hundreds of MB, minutes to make) and reused by later runs; delete the folder to
    get the space back."""
    chosen = os.environ.get(ENV)
    folder = Path(chosen).expanduser() if chosen else _user_cache() / "benchmarks"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def real_shape_dump(events: int, depth: tuple[int, int] = (40, 160)) -> dict[str, Any]:
    """A snapshot of the real-file shape (design.md, "Benchmark data"): 250 distinct stacks over ~1,000 shared
    frame dicts, each allocation its own frames list (shared with its frees), stacks `depth` frames deep."""
    from gpumem_gui.core.allocator.synthetic import synthetic_snapshot

    return synthetic_snapshot(events, seed=42, streams=2, distinct_stacks=250, stack_depth=depth)


def time_travel(doc: Any, timeline: Any, count: int, seed: int = 0) -> tuple[list[float], list[float]]:
    """Seconds per move to `count` random events: the document's whole frame (as the window asks for it) and the
    timeline's state_at alone, each event timed both ways."""
    import random
    import time

    rng = random.Random(seed)
    travel, state_at = [], []
    for _ in range(count):
        event = rng.randrange(-1, timeline.n_events)
        t0 = time.perf_counter()
        timeline.state_at(event)
        state_at.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        doc.travel(event)
        travel.append(time.perf_counter() - t0)
    return travel, state_at


def shape_path(shape: str, events: int, folder: Path | None = None) -> Path:
    """The file of `shape` ("real" or "unshared") at `events` events, generated first if missing."""
    path = (folder or data_dir()) / f"{'real_shape' if shape == 'real' else 'unshared_frames'}_{events}.pickle"
    if not path.exists():
        from gpumem_gui.core.allocator.synthetic import unshare_frames

        dump = real_shape_dump(events) if shape == "real" else unshare_frames(real_shape_dump(events, UNSHARED_DEPTH))
        part = path.with_suffix(".part")
        with part.open("wb") as f:
            pickle.dump(dump, f, protocol=4)
        part.replace(path)
    return path


def watch_process(command: list[str]) -> dict[str, Any]:
    """Run `command`: wall time to its exit, CPU time (user and system) of its process tree, the peak of the tree's
    summed RSS (polled every 10 ms) and its standard output; a failure raises with the end of its standard error.
    On a shared machine the CPU time is the steadier figure: waiting for a core is not in it."""
    import resource

    import psutil

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    peak = 0
    done = threading.Event()

    def poll() -> None:
        nonlocal peak
        root = psutil.Process(proc.pid)
        while not done.is_set():
            with contextlib.suppress(psutil.Error):  # the process has just left
                peak = max(peak, sum(p.memory_info().rss for p in [root, *root.children(recursive=True)]))
            time.sleep(0.01)

    watcher = threading.Thread(target=poll, daemon=True)
    watcher.start()
    stdout, stderr = proc.communicate()
    seconds = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)  # the tree's, as each process waits for its children
    done.set()
    watcher.join()
    if proc.returncode != 0:
        raise RuntimeError(f"{command[:3]} failed ({proc.returncode}): {stderr.decode()[-2000:]}")
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return {"seconds": seconds, "cpu_seconds": cpu, "peak_rss_tree_bytes": peak, "stdout": stdout.decode()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shape", choices=("real", "unshared"), default="real")
    parser.add_argument("--events", type=int, default=1_000_000)
    args = parser.parse_args()
    print(shape_path(args.shape, args.events))


if __name__ == "__main__":
    main()
