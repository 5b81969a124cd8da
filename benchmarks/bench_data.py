"""Where the benchmarks keep the data they generate (a cache folder of the user's, never the repository), and the
generators of the real-file shape and of its unshared-frames edge case.

Run: python benchmarks/bench_data.py --shape unshared --events 1000000 (writes into data_dir(), prints the path)
"""

from __future__ import annotations

import argparse
import os
import pickle
import sys
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


def unshare_frames(dump: dict[str, Any]) -> dict[str, Any]:
    """`dump` with every frames list given frame dicts of its own, as a file rewritten by a tool that copies each
    stack does (JSON keeps not even the lists shared): equal content, no dict shared between two lists."""
    fresh: dict[int, list[dict[str, Any]]] = {}

    def own(frames: Any) -> Any:
        if not frames:
            return frames
        if id(frames) not in fresh:
            fresh[id(frames)] = [dict(f) for f in frames]
        return fresh[id(frames)]

    for trace in dump["device_traces"]:
        for entry in trace:
            if "frames" in entry:
                entry["frames"] = own(entry["frames"])
    for segment in dump["segments"]:
        segment["frames"] = own(segment.get("frames"))
        for block in segment["blocks"]:
            if "frames" in block:
                block["frames"] = own(block["frames"])
    return dump


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
        dump = real_shape_dump(events) if shape == "real" else unshare_frames(real_shape_dump(events, UNSHARED_DEPTH))
        part = path.with_suffix(".part")
        with part.open("wb") as f:
            pickle.dump(dump, f, protocol=4)
        part.replace(path)
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shape", choices=("real", "unshared"), default="real")
    parser.add_argument("--events", type=int, default=1_000_000)
    args = parser.parse_args()
    print(shape_path(args.shape, args.events))


if __name__ == "__main__":
    main()
