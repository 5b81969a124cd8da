"""Flame graph widget benchmark (offscreen): a frame of 100k distinct stacks, its trie and layout, the first paint
(placing and batching the rectangles) and then repaints (issue 32's target: p95 under 16 ms after the first), and a
re-layout after a zoom.

The stacks are made here: 100k distinct paths 12 to 40 frames deep, each level choosing among more frames than the
one before (so that paths share their outer frames as real programs' do), over 20k distinct frames.
Run: python benchmarks/bench_flame_view.py [--stacks 100000]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np
from PySide6 import QtWidgets

from gpumem_gui.app.launch import application
from gpumem_gui.core.analysis.flame import build_trie, flame_frame
from gpumem_gui.core.snapshot.model import Frame, StackTable
from gpumem_gui.views.snapshot.flame_graph import FlameGraph

FRAMES = 20_000


def synthetic_stacks(count: int, seed: int = 0) -> StackTable:
    """`count` distinct stacks, innermost frame first, as a StackTable."""
    rng = np.random.default_rng(seed)
    frames = [Frame(f"f{k}", f"/home/user/project/mod{k % 400}.py", 10 + k % 900) for k in range(FRAMES)]
    seen: set[tuple[int, ...]] = set()
    ids: list[np.ndarray] = []
    while len(ids) < count:
        depth = int(rng.integers(12, 41))
        width = np.minimum(3.0 ** np.arange(1, depth + 1), FRAMES)
        path = tuple(int(v) for v in (rng.random(depth) * width).astype(np.int64))
        if path not in seen:
            seen.add(path)
            ids.append(np.asarray(path[::-1], np.int32))  # innermost first
    offsets = np.concatenate([[0], np.cumsum([len(p) for p in ids])]).astype(np.int64)
    return StackTable(frames, offsets, np.concatenate(ids).astype(np.int32))


def measure(count: int, app: QtWidgets.QApplication) -> dict[str, Any]:
    stacks = synthetic_stacks(count)
    t = time.perf_counter()
    trie = build_trie(stacks)
    result: dict[str, Any] = {"stacks": count, "trie_s": round(time.perf_counter() - t, 3), "nodes": len(trie)}
    weights = np.random.default_rng(1).integers(1 << 10, 1 << 26, trie.n_paths).astype(np.float64)
    t = time.perf_counter()
    frame = flame_frame(trie, weights, "live", "bytes")
    result["frame_ms"] = round((time.perf_counter() - t) * 1000, 1)
    t = time.perf_counter()
    culled = flame_frame(trie, weights, "live", "bytes", min_share=1 / 1600)  # what a 1600-pixel view asks for
    result["frame_one_pixel_ms"] = round((time.perf_counter() - t) * 1000, 1)
    result["rectangles_one_pixel"] = len(culled)
    result["rectangles"] = len(frame)
    widget = FlameGraph()
    widget.resize(1600, 900)
    widget.show()
    app.processEvents()
    widget.set_frame(frame)
    t = time.perf_counter()
    widget.repaint()
    result["first_paint_ms"] = round((time.perf_counter() - t) * 1000, 1)
    times = []
    for _ in range(60):
        t = time.perf_counter()
        widget.repaint()
        times.append((time.perf_counter() - t) * 1000)
    times.sort()
    result["repaint_median_ms"] = round(statistics.median(times), 2)
    result["repaint_p95_ms"] = round(times[int(0.95 * len(times)) - 1], 2)
    widest_child = max(range(1, len(frame)), key=lambda i: int(frame.width[i]) if frame.depth[i] == 2 else -1)
    widget.zoom_to(widest_child)
    t = time.perf_counter()
    widget.repaint()
    result["zoom_paint_ms"] = round((time.perf_counter() - t) * 1000, 1)
    result["under_target"] = result["repaint_p95_ms"] < 16.0
    widget.close()
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stacks", type=int, nargs="+", default=[100_000])
    args = parser.parse_args()
    app = application()  # the window's own application (it hears a change of language without a filter)
    assert isinstance(app, QtWidgets.QApplication)
    print(json.dumps([measure(n, app) for n in args.stacks], indent=2))


if __name__ == "__main__":
    main()
