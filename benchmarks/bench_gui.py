"""GUI benchmark (offscreen): when each stage of a file's load reaches the window, the GUI thread's stalls, RSS.

Stages, from the call to open the file: the map (the final state), the curves of the trace read so far (drawn
while it is read), the timeline (its curves drawn), the event
list (filled), the site timeline (its bands; the bench picks its tab once the timeline shows, as a user would).
Stalls are the gaps of a 5 ms QTimer; with GPUMEM_GUI_BENCH_DETAIL=1 a thread samples the GUI thread's stack
meanwhile, so that each long stall names what it was doing (off by default: the sampler shares the GIL and the cores
with the thread it measures, and made stalls of its own beside the burners). RSS: the GUI process's and the loading
worker's peaks (sampled with psutil, and the kernel's high-water marks). Then the map's repaint at full view and
zoomed, and time-travel latency: travel_to alone, and travel_to with the window painted after it (what a user waits
for).

Issue 35's targets 1 and 2 are printed beside each figure ("targets"), with the machine's load average before and
after, and a yardstick from the same run: a gc-paused pickle.load of the same file in a process of its own (the
machine's speed at that moment; --no-yardstick skips it). --burn runs a CPU burner beside the window (a child process
spinning on every core) for the stalls under load.

On a snapshot of the real-file shape (design.md, "Benchmark data"), made once in $GPUMEM_GUI_BENCH_DIR.
Run: python benchmarks/bench_gui.py [--events N | --file PATH] [--blocks] [--burn] [--no-yardstick]
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import json
import os
import pickle
import random
import resource
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from types import FrameType
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import psutil
from bench_data import data_dir, shape_path, watch_process

# the loading worker (multiprocessing's spawn) runs this module again as __mp_main__ before its work: there without Qt
# and the window, as the app's worker, whose main module is gpumem_gui.cli (about 35 MB; with these, some 85 MB more
# of the worker's RSS that the app's worker never has)
if __name__ != "__mp_main__":
    from PySide6 import QtCore, QtWidgets

    from gpumem_gui.app import MainWindow, application
    from gpumem_gui.core.allocator.simulator import DeviceAllocatorSim
    from gpumem_gui.core.rules.allocator_constants import GiB
    from gpumem_gui.qt_start import collect_on_gui_thread, freeze_start_up, throwaway_settings
    from gpumem_gui.views.snapshot.partial_curves import PartialCurvesView

STALL_MS = 50.0  # the budget: a longer gap of the GUI thread is a stall worth naming
SETTLE_S = 1.0  # stalls still count for this long after the last stage
# issue 35, targets 1 and 2: (events at least, figure, most allowed); RSS in MB, the window's and the worker's together
TARGETS = (
    (3_000_000, "time_to_site_timeline_s", 3.0),
    (3_000_000, "total_peak_rss_mb", 1000),
    (3_000_000, "sum_of_peaks_rss_mb", 1000),
    (3_000_000, "longest_gui_stall_ms", STALL_MS),
    (3_000_000, "time_travel_repaint_p95_ms", 16.0),  # the window shows the event: its views redrawn
    (10_000_000, "time_to_timeline_s", 10.0),
    (10_000_000, "total_peak_rss_mb", 2500),
    (10_000_000, "sum_of_peaks_rss_mb", 2500),
)
# one per core: the other process of target 2 that keeps both cores busy; it stops when the benchmark does, however
# it ends (a benchmark killed by a timeout left its burners spinning, and every later run measured beside four)
BURNER = "import os\nparent = os.getppid()\nwhile os.getppid() == parent:\n    for _ in range(200_000): pass\n"
YARDSTICK = "import gc, pickle, sys, os\ngc.disable()\nwith open(sys.argv[1], 'rb') as f: pickle.load(f)\nos._exit(0)\n"


def many_blocks(path: Path, blocks: int = 100_000) -> None:
    sim = DeviceAllocatorSim(80 * GiB)
    frames = [{"name": "forward", "filename": "model.py", "line": 1}]
    live = [sim.malloc(4096 + (i % 97) * 1024, frames=frames) for i in range(blocks)]
    for block in live[::3]:
        sim.free(block)  # holes everywhere
    path.write_bytes(pickle.dumps(sim.snapshot(), protocol=4))


DETAIL = bool(os.environ.get("GPUMEM_GUI_BENCH_DETAIL"))  # each top stall's samples in order, deeper stacks
DEPTH = 7 if DETAIL else 3


def _where(frame: FrameType | None) -> str:
    """The GUI thread's stack as the project's frames, innermost first (the Qt event loop's frames dropped)."""
    parts = []
    while frame is not None:
        code = frame.f_code
        if "gpumem_gui" in code.co_filename or "pyqtgraph" in code.co_filename:
            module = Path(code.co_filename).stem
            parts.append(f"{module}.{code.co_name}:{frame.f_lineno}")
        frame = frame.f_back
    return " < ".join(parts[:DEPTH]) if parts else ""


class Sampler(threading.Thread):
    """Every 50 ms the GUI's and the worker's RSS; with GPUMEM_GUI_BENCH_DETAIL (or GPUMEM_GUI_BENCH_SAMPLE_MS), every
    few ms the GUI thread's innermost project frames too. A thread of the window's process, it takes the GIL and a
    core from the GUI thread it measures: sampling stacks every 3 ms and looking for the worker (psutil walks every
    process in /proc for a process's children) every 50 ms took up to 27 ms of CPU, most of it holding the GIL, in a
    130 ms stall beside the burners, so by default it samples no stacks and looks for children twice a second."""

    def __init__(self, gui_thread: int, ignore: set[int] | None = None) -> None:
        super().__init__(daemon=True)
        self.gui_thread = gui_thread
        self.ignore = ignore or set()  # the burners' pids: not the worker
        self.samples: list[tuple[float, str, str]] = []  # (when, the GUI thread's frames, the other threads')
        self.stop = threading.Event()
        self.gui_peak = 0
        self.worker_peak = 0
        self.total_peak = 0  # the window's and the worker's RSS summed at one moment
        self.total_split = (0, 0)  # the window's and the worker's RSS at that moment

    def run(self) -> None:
        me = psutil.Process()
        last_rss = last_children = 0.0
        children: list[psutil.Process] = []
        every = float(os.environ.get("GPUMEM_GUI_BENCH_SAMPLE_MS", "3" if DETAIL else "50")) / 1000
        while not self.stop.wait(min(every, 0.05)):
            now = time.perf_counter()
            if every < 0.05:
                frames = sys._current_frames()
                others = [_where(f) for ident, f in frames.items() if ident not in (self.gui_thread, self.ident)]
                self.samples.append((now, _where(frames.get(self.gui_thread)), "; ".join(o for o in others if o)))
                del frames
            if now - last_rss > 0.05:
                last_rss = now
                if now - last_children > 0.5:  # a walk of /proc: the worker found, then its RSS read alone
                    last_children = now
                    children = [c for c in me.children(recursive=True) if c.pid not in self.ignore]
                gui = me.memory_info().rss
                self.gui_peak = max(self.gui_peak, gui)
                workers = 0
                for child in children:
                    with contextlib.suppress(psutil.Error):  # the worker may be gone between the two calls
                        rss = child.memory_info().rss
                        self.worker_peak = max(self.worker_peak, rss)
                        workers += rss
                if gui + workers > self.total_peak:
                    self.total_peak, self.total_split = gui + workers, (gui, workers)

    def cause(self, start: float, end: float) -> str:
        """What the GUI thread was doing most often between start and end; when it was in Qt's own code (painting,
        or waiting for the GIL), what the other threads were doing."""
        if not self.samples:
            return "(stacks not sampled: GPUMEM_GUI_BENCH_DETAIL=1 samples them)"
        inside = [(gui, other) for t, gui, other in self.samples if start <= t <= end]
        if not inside:
            return "(no sample)"
        named = []
        for (gui, other), count in collections.Counter(inside).most_common(2):
            where = gui or f"Qt's own code (painting, or waiting for the GIL; meanwhile: {other or 'nothing'})"
            named.append(f"{where} ({count}/{len(inside)} samples)")
        return " | ".join(named)

    def sequence(self, start: float, end: float) -> list[str]:
        """The samples from start to end in order, a run of the same stacks as one line (GPUMEM_GUI_BENCH_DETAIL)."""
        runs: list[list[Any]] = []
        for t, gui, other in self.samples:
            if start <= t <= end:
                what = gui or f"(Qt; others: {other or 'nothing'})"
                if runs and runs[-1][1] == what:
                    runs[-1][2] = t
                else:
                    runs.append([t, what, t])
        return [f"{(a - start) * 1000:6.1f}-{(b - start) * 1000:6.1f} ms {what}" for a, what, b in runs]


def measure(path: Path, burn: bool = False, yardstick: bool = True) -> dict[str, Any]:
    """The window's figures of `path`, then the yardstick (the burners, with --burn, still spinning)."""
    app = application()
    collect_on_gui_thread()  # as the window's launch does: the cyclic collector on the GUI thread's timer
    burners = [subprocess.Popen([sys.executable, "-c", BURNER]) for _ in range(os.cpu_count() or 1) if burn]
    load_before = os.getloadavg()[0]
    try:
        with throwaway_settings() as settings:  # the user's saved geometry, layout and recent files stay as they were
            window = MainWindow(settings)
            freeze_start_up()  # as the window's launch does: the start-up's objects out of the collector's walks
            result = _measure(path, app, window, {b.pid for b in burners})
        result["load_avg_1m_after"] = os.getloadavg()[0]
        if yardstick:
            watched = watch_process([sys.executable, "-c", YARDSTICK, str(path)])
            result["yardstick"] = {
                "what": "gc-paused pickle.load of the same file, a process of its own, right after (same burners)",
                "seconds": round(watched["seconds"], 2),
                "cpu_seconds": round(watched["cpu_seconds"], 2),
                "peak_rss_mb": round(watched["peak_rss_tree_bytes"] / 1e6),
            }
    finally:
        for burner in burners:
            burner.kill()
            burner.wait()
    return {"burner": burn, "load_avg_1m_before": load_before, **result}


def with_targets(result: dict[str, Any]) -> dict[str, Any]:
    """`result` with issue 35's targets for its size (measured, target, met) and the ratio to its yardstick."""
    result["sum_of_peaks_rss_mb"] = result["gui_peak_rss_mb"] + result["worker_peak_rss_mb"]  # at worst
    targets = {}
    for events, figure, most in TARGETS:
        if result["events"] >= events and result.get(figure) is not None:
            targets[f"{figure} ({events // 1_000_000}M)"] = {
                "measured": result[figure],
                "target": most,
                "met": result[figure] <= most,
            }
    result["targets"] = targets
    seconds = result.get("yardstick", {}).get("seconds")
    for stage in ("timeline", "site_timeline"):
        if seconds and result.get(f"time_to_{stage}_s"):
            result[f"time_to_{stage}_over_pickle_load"] = round(result[f"time_to_{stage}_s"] / seconds, 2)
    return result


def _stages(window: MainWindow) -> dict[str, bool]:
    """Which stages are on screen now."""
    doc = window.current_document()
    if doc is None:
        return {}
    curves = doc._curves
    view = curves.timeline_view if curves is not None else None
    timeline = bool(view is not None and view._full and curves is not None and curves.isVisible() and not doc.pending)
    so_far = doc.findChild(PartialCurvesView)
    return {
        "map": doc.map.isVisible(),
        "curves_so_far": so_far is not None and so_far.isVisible() and so_far.n_events > 0,
        "timeline": timeline,
        "event_list": timeline and doc.event_list.model.row_count() > 0,
        "site_timeline": timeline
        and curves is not None
        and curves.site_timeline_for is not None
        and doc.site_timeline.is_ready(),
        "final": not window.jobs and not doc.pending,
    }


TRAVELS = 100  # random events travelled to (the same ones in every run)


def _painted(app: QtWidgets.QApplication) -> None:
    """The events a travel posted handled: the views' update requests painted (into the offscreen backing store, as
    on screen), and the turns it left for later run."""
    app.processEvents()
    app.processEvents()  # what the first round posted (a deferred turn's own updates)


def _travel(app: QtWidgets.QApplication, window: MainWindow, doc: Any, n_events: int) -> dict[str, Any]:
    """Time travel to random events: `doc.travel_to` alone, then with the window painted after it (what a user waits
    for); wall and the GUI thread's CPU time, p50 and p95 in ms. GPUMEM_GUI_BENCH_PROFILE=PATH: cProfile's stats of
    the painted travels written there."""
    if not n_events:
        return {}
    window.repaint()  # a first paint of everything at this size: not a travel's cost
    _painted(app)
    times: dict[str, list[float]] = {"": [], "_cpu": [], "_repaint": [], "_repaint_cpu": []}
    for painted in (False, True):
        rng = random.Random(0)
        key = "_repaint" if painted else ""
        profile = None
        if painted and os.environ.get("GPUMEM_GUI_BENCH_PROFILE"):
            import cProfile

            profile = cProfile.Profile()
            profile.enable()
        for _ in range(TRAVELS):
            index = rng.randrange(-1, n_events)
            t, c = time.perf_counter(), time.thread_time()
            doc.travel_to(index)
            if painted:
                _painted(app)
            times[key].append((time.perf_counter() - t) * 1000)
            times[key + "_cpu"].append((time.thread_time() - c) * 1000)
            if not painted:
                _painted(app)  # not timed: the next travel starts from a painted window
        if profile is not None:
            profile.disable()
            profile.dump_stats(os.environ["GPUMEM_GUI_BENCH_PROFILE"])
    result = {}
    for key, values in times.items():
        values.sort()
        result[f"time_travel{key}_p50_ms"] = round(statistics.median(values), 1)
        result[f"time_travel{key}_p95_ms"] = round(values[int(len(values) * 0.95) - 1], 1)
    return result


def _measure(path: Path, app: QtWidgets.QApplication, window: MainWindow, burners: set[int]) -> dict[str, Any]:
    window.resize(1400, 900)
    window.show()
    app.processEvents()
    gaps: list[tuple[float, float]] = []  # (start, end) of each tick's gap
    # the GUI thread's CPU time in each gap: what a turn of the event loop cost, whatever else the machine runs
    gaps_cpu: list[float] = []
    last = [time.perf_counter(), time.thread_time()]

    def tick() -> None:
        now, cpu = time.perf_counter(), time.thread_time()
        gaps.append((last[0], now))
        gaps_cpu.append(cpu - last[1])
        last[0], last[1] = now, cpu

    sampler = Sampler(threading.get_ident(), burners)
    sampler.start()
    timer = QtCore.QTimer(interval=5)
    timer.timeout.connect(tick)
    timer.start()
    cpu0 = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    window.open_files([str(path)])
    at: dict[str, float] = {}
    picked_site_tab = False
    deadline = t0 + float(os.environ.get("GPUMEM_GUI_BENCH_TIMEOUT", "900"))
    while time.perf_counter() < deadline:
        app.processEvents()
        now = time.perf_counter()
        for stage, shown in _stages(window).items():
            if shown and stage not in at:
                at[stage] = now - t0
                print(f"  {path.name}: {stage} at {at[stage]:.2f} s", file=sys.stderr, flush=True)
        doc = window.current_document()
        if "timeline" in at and not picked_site_tab and doc is not None:
            doc.curve_tabs.setCurrentWidget(doc.site_timeline)  # a user looks at the bands once there is a trace
            picked_site_tab = True
        if all(s in at for s in ("map", "timeline", "event_list", "site_timeline", "final")):
            if now > t0 + max(at.values()) + SETTLE_S:
                break
        elif window.tabs.count() and doc is None:
            break  # an error page
        time.sleep(0.002)
    total = time.perf_counter() - t0
    cpu1 = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    # CPU time, steadier than wall time on a busy machine: the window's process (every thread) and the worker's
    # (a child once it has left: counted when waited for)
    cpu = [b.ru_utime + b.ru_stime - a.ru_utime - a.ru_stime for a, b in zip(cpu0, cpu1, strict=True)]
    timer.stop()
    sampler.stop.set()
    sampler.join()
    doc = window.current_document()
    assert doc is not None, "the file did not open"
    doc.curve_tabs.setCurrentIndex(0)
    app.processEvents()
    long_gaps = sorted(gaps, key=lambda g: g[0] - g[1])[:3]
    top = [
        {"ms": round((end - start) * 1000, 1), "at_s": round(start - t0, 2), "cause": sampler.cause(start, end)}
        | ({"samples": sampler.sequence(start, end)} if DETAIL else {})
        for start, end in long_gaps
    ]
    viewport = doc.map.plot.viewport()

    def repaint_ms() -> float:
        times = []
        for _ in range(10):
            t = time.perf_counter()
            viewport.repaint()
            window.paint_now()  # the window gathers its paints into one a pass of the event loop: made here, now
            times.append((time.perf_counter() - t) * 1000)
        return statistics.median(times)

    full = repaint_ms()
    doc.map.view.setRange(QtCore.QRectF(100, 0, 50, 5), padding=0)
    app.processEvents()
    zoomed = repaint_ms()
    travel = _travel(app, window, doc, doc.timeline(doc.device).n_events)
    kb = 1024 if sys.platform != "darwin" else 1
    result = {
        "file": path.name,
        "blocks": len(doc.snapshot.state.blocks),
        "events": doc.timeline(doc.device).n_events,
        **{f"time_to_{stage}_s": round(at[stage], 2) if stage in at else None for stage in at},
        "longest_gui_stall_ms": round(max((e - s for s, e in gaps), default=0.0) * 1000, 1),
        "stalls_over_50ms": sum(1 for s, e in gaps if (e - s) * 1000 > STALL_MS),
        "stalls_over_50ms_at": [
            [round(s - t0, 2), round((e - s) * 1000)] for s, e in gaps if (e - s) * 1000 > STALL_MS
        ],
        # [seconds after opening, wall ms, the GUI thread's CPU ms] of each gap whose CPU time is over the budget
        "cpu_stalls_over_50ms_at": [
            [round(s - t0, 2), round((e - s) * 1000), round(c * 1000)]
            for (s, e), c in zip(gaps, gaps_cpu, strict=True)
            if c * 1000 > STALL_MS
        ],
        # the GUI thread's CPU in its longest gap, and the gaps over half the budget in CPU: with the cores shared with
        # a burner, the GUI thread gets about half a core, so a turn of 25 ms of CPU becomes a 50 ms stall
        "longest_gui_stall_cpu_ms": round(max(gaps_cpu, default=0.0) * 1000, 1),
        "cpu_over_25ms_at": [
            [round(s - t0, 2), round((e - s) * 1000), round(c * 1000)]
            for (s, e), c in zip(gaps, gaps_cpu, strict=True)
            if c * 1000 > STALL_MS / 2
        ],
        "top_stalls": top,
        # with GPUMEM_GUI_BENCH_DETAIL, what the GUI thread did in each of those
        **(
            {
                "cpu_stall_causes": [
                    [round(s - t0, 2), round(c * 1000), sampler.cause(s, e)]
                    for (s, e), c in zip(gaps, gaps_cpu, strict=True)
                    if c * 1000 > STALL_MS
                ]
            }
            if DETAIL
            else {}
        ),
        "gui_peak_rss_mb": round(max(sampler.gui_peak, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * kb) / 1e6),
        "worker_peak_rss_mb": round(
            max(sampler.worker_peak, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * kb) / 1e6
        ),
        "total_peak_rss_mb": round(sampler.total_peak / 1e6),  # sampled every 50 ms: the sum at one moment
        "total_peak_window_and_worker_mb": [round(x / 1e6) for x in sampler.total_split],
        "total_s": round(total, 2),
        "gui_cpu_s": round(cpu[0], 2),
        "worker_cpu_s": round(cpu[1], 2),
        "repaint_full_ms": round(full, 1),
        "repaint_zoomed_ms": round(zoomed, 1),
        **travel,
        # the layout the repaints and travels were measured in (the map's and the curves' heights, the side panel's
        # width...): a travel's repaint cost follows the map's and the figures' sizes
        "splitter_sizes": {name: doc._splitters.splitter(name).sizes() for name in doc.splitter_states()},
    }
    window.close()
    QtWidgets.QApplication.processEvents()
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=1_000_000, help="the real-shape file of this many events")
    parser.add_argument("--file", type=Path, help="this snapshot file instead")
    parser.add_argument("--blocks", action="store_true", help="also a snapshot of 100,000 blocks")
    parser.add_argument("--burn", action="store_true", help="a CPU burner spinning on every core beside the window")
    parser.add_argument("--no-yardstick", action="store_true", help="no pickle.load of the same file after the run")
    args = parser.parse_args()
    out = data_dir()
    paths = [args.file if args.file is not None else shape_path("real", args.events, out)]
    if args.blocks:
        blocks = out / "blocks_100000.pickle"
        if not blocks.exists():
            many_blocks(blocks)
        paths.append(blocks)
    for path in paths:
        result = with_targets(measure(path, args.burn, not args.no_yardstick))
        print(json.dumps(result, indent=2), flush=True)


if __name__ == "__main__":
    main()
