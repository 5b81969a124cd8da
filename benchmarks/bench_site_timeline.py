"""Site timeline benchmark (offscreen): precompute per grouping, re-sampling a range, time to the first drawn
bands after the timeline is ready, the longest GUI-thread stall while the bands are computed, and paint time.

On the real-file-shape snapshots of bench_gui.py (made there if missing) in $GPUMEM_GUI_BENCH_DIR or the cache.
Run: python benchmarks/bench_site_timeline.py [--events 1000000 3000000]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from bench_data import shape_path
from PySide6 import QtCore, QtWidgets

from gpumem_gui.app.launch import application
from gpumem_gui.core.analysis.site_series import GROUPINGS, build_bands, total_index
from gpumem_gui.core.analysis.timetravel import build_timeline
from gpumem_gui.core.snapshot.loader import load_snapshot
from gpumem_gui.views.snapshot.site_timeline import SiteTimelineView


def _median_ms(run: Any, repeat: int = 9) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        run()
        times.append((time.perf_counter() - t) * 1000)
    return round(statistics.median(times), 2)


def measure(path: Path, app: QtWidgets.QApplication) -> dict[str, Any]:
    t = time.perf_counter()
    snapshot = load_snapshot(path)
    load_s = time.perf_counter() - t
    t = time.perf_counter()
    timeline = build_timeline(snapshot, 0)
    timeline_s = time.perf_counter() - t
    n = timeline.n_events
    result: dict[str, Any] = {"file": path.name, "events": n, "lifetimes": len(timeline.lifetimes.start)}
    result["load_s"], result["timeline_s"] = round(load_s, 2), round(timeline_s, 2)

    # the widget first, while nothing is cached: bands computed on its worker thread, the GUI thread's ticks
    # timed meanwhile
    view = SiteTimelineView()
    view.resize(1400, 500)
    view.show()
    app.processEvents()
    ticks: list[float] = []
    last = [time.perf_counter()]

    def tick() -> None:
        now = time.perf_counter()
        ticks.append(now - last[0])
        last[0] = now

    timer = QtCore.QTimer(interval=5)
    timer.timeout.connect(tick)
    timer.start()
    t0 = time.perf_counter()
    view.set_document(snapshot, timeline)
    first_drawn = None
    while not all(k in view.groupings for k in GROUPINGS) or time.perf_counter() < t0 + 0.5:
        app.processEvents()
        if first_drawn is None and len(view._drawn_events):
            view.plot.viewport().repaint()  # on screen: painted, not only set
            first_drawn = time.perf_counter() - t0
        time.sleep(0.001)
    all_in = time.perf_counter() - t0
    timer.stop()
    result["widget"] = {
        "first_bands_drawn_s": round(first_drawn or all_in, 3),
        "all_groupings_in_s": round(all_in, 3),
        "longest_gui_stall_ms": round(max(ticks, default=0.0) * 1000, 1),
    }
    viewport = view.plot.viewport()
    result["widget"]["paint_full_view_ms"] = _median_ms(viewport.repaint)
    result["widget"]["redraw_full_view_ms"] = _median_ms(view._draw)  # re-sample and hand the curves their points
    view.view_box.setXRange(n / 3, n / 3 + n / 100, padding=0)
    app.processEvents()
    result["widget"]["redraw_zoomed_ms"] = _median_ms(view._draw)
    result["widget"]["paint_zoomed_ms"] = _median_ms(viewport.repaint)
    view.set_kind("category")
    app.processEvents()
    result["widget"]["switch_grouping_ms"] = _median_ms(
        lambda: view.set_kind("site" if view.kind != "site" else "pool")
    )
    view.close()
    app.processEvents()
    # the Qt-free part, on this thread, from a timeline built anew (its categories are cached per timeline)
    timeline = build_timeline(snapshot, 0)
    t = time.perf_counter()
    index = total_index(timeline)
    result["total_index_ms"] = round((time.perf_counter() - t) * 1000, 1)
    precompute = {}
    for kind in GROUPINGS:
        t = time.perf_counter()
        bands = build_bands(snapshot, timeline, kind, index=index)
        precompute[kind] = round((time.perf_counter() - t) * 1000, 1)
        if kind == "site":
            site = bands
    result["precompute_ms"] = precompute
    result["resample_ms"] = {
        "full view": _median_ms(lambda: site.sample(-1, n, 800)),
        "1% of the trace": _median_ms(lambda: site.sample(n / 3, n / 3 + n / 100, 800)),
        "1,000 events": _median_ms(lambda: site.sample(n / 2, n / 2 + 1000, 800)),
    }

    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, nargs="+", default=[1_000_000, 3_000_000])
    args = parser.parse_args()
    app = application()  # the window's own application (it hears a change of language without a filter)
    assert isinstance(app, QtWidgets.QApplication)
    for events in args.events:
        print(json.dumps(measure(shape_path("real", events), app), indent=2), flush=True)


if __name__ == "__main__":
    main()
