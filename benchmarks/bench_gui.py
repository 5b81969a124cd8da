"""GUI benchmark (offscreen): time to first map, longest GUI-thread stall while a file loads, map repaint at full
view and zoomed, time-travel latency, GUI process RSS.

On a 1M-event snapshot of the real-file shape (design.md, "Benchmark data": about a thousand frame dicts shared by
every stack, a fresh frames list per allocation, stacks 40-160 deep), made here once, and a 100,000-block snapshot.
Run: python benchmarks/bench_gui.py [--events N]
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import random
import statistics
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import psutil
from bench_data import data_dir, shape_path
from PySide6 import QtCore, QtWidgets

from gpumem_gui.app import MainWindow, _application
from gpumem_gui.core.allocator.simulator import DeviceAllocatorSim
from gpumem_gui.core.rules.allocator_constants import GiB
from gpumem_gui.qt_start import throwaway_settings


def many_blocks(path: Path, blocks: int = 100_000) -> None:
    sim = DeviceAllocatorSim(80 * GiB)
    frames = [{"name": "forward", "filename": "model.py", "line": 1}]
    live = [sim.malloc(4096 + (i % 97) * 1024, frames=frames) for i in range(blocks)]
    for block in live[::3]:
        sim.free(block)  # holes everywhere
    path.write_bytes(pickle.dumps(sim.snapshot(), protocol=4))


def measure(path: Path) -> dict[str, Any]:
    app = _application()
    with throwaway_settings() as settings:  # the user's saved geometry, layout and recent files stay as they were
        return _measure(path, app, MainWindow(settings))


def _measure(path: Path, app: QtWidgets.QApplication, window: MainWindow) -> dict[str, Any]:
    window.resize(1400, 900)
    window.show()
    stalls: list[float] = []
    last = [time.perf_counter()]

    def tick() -> None:
        now = time.perf_counter()
        stalls.append(now - last[0])
        last[0] = now

    timer = QtCore.QTimer(interval=5)
    timer.timeout.connect(tick)
    timer.start()
    t0 = time.perf_counter()
    window.open_files([str(path)])
    first_map = None
    settled = None  # the load is over once the timeline is on screen; stalls count for a second after that

    def loading() -> bool:
        doc = window.current_document()
        return bool(window.jobs) or doc is None or doc.pending

    while settled is None or time.perf_counter() < settled + 1.0:
        app.processEvents()
        if first_map is None and window.tabs.count():
            first_map = time.perf_counter() - t0
        if settled is None and not loading():
            settled = time.perf_counter()
        time.sleep(0.002)
    everything = settled - t0
    timer.stop()
    doc = window.current_document()
    assert doc is not None
    app.processEvents()
    viewport = doc.map.plot.viewport()

    def repaint_ms() -> float:
        times = []
        for _ in range(10):
            t = time.perf_counter()
            viewport.repaint()
            times.append((time.perf_counter() - t) * 1000)
        return statistics.median(times)

    full = repaint_ms()
    doc.map.view.setRange(QtCore.QRectF(100, 0, 50, 5), padding=0)
    app.processEvents()
    zoomed = repaint_ms()
    tl = doc.timeline(doc.device)
    rng = random.Random(0)
    travel = []
    for _ in range(100 if tl.n_events else 0):
        t = time.perf_counter()
        doc.travel_to(rng.randrange(-1, tl.n_events))
        travel.append((time.perf_counter() - t) * 1000)
    travel.sort()
    result = {
        "file": path.name,
        "blocks": len(doc.snapshot.state.blocks),
        "events": tl.n_events,
        "time_to_first_map_s": first_map if first_map is not None else everything,
        "time_to_timeline_s": everything,
        "longest_gui_stall_ms": max(stalls, default=0.0) * 1000,
        "repaint_full_ms": full,
        "repaint_zoomed_ms": zoomed,
        "time_travel_p50_ms": statistics.median(travel) if travel else None,
        "time_travel_p95_ms": travel[int(len(travel) * 0.95) - 1] if travel else None,
        "gui_rss_mb": psutil.Process().memory_info().rss / 1e6,
    }
    window.close()
    QtWidgets.QApplication.processEvents()
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=1_000_000)
    args = parser.parse_args()
    out = data_dir()
    blocks = out / "blocks_100000.pickle"
    if not blocks.exists():
        many_blocks(blocks)
    real = shape_path("real", args.events, out)
    print(json.dumps([measure(p) for p in (real, blocks)], indent=2), flush=True)


if __name__ == "__main__":
    main()
