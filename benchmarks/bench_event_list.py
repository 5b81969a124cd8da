"""Event list repaint benchmark: what a travel costs the list, GUI thread CPU time per round (total, p50, p95 of one
travel): show_event scrolls to the event's row, then the list's posted paints are handled (its viewport, header, scroll
bar and frame: what the window repaints of it), for 100 random events (mostly a jump: every row new) and for 100 steps
of one event (the arrow keys: the selection moves, at most a row scrolls in). `viewport_*`: the viewport alone
repainted in full after each random travel (the cost of a jump's rows).

On the real-file-shape snapshot of bench_data.py (made there if missing) in $GPUMEM_GUI_BENCH_DIR or the cache,
opened in the window (offscreen unless QT_QPA_PLATFORM says otherwise).
Run: python benchmarks/bench_event_list.py [--events 3000000] [--rounds 4] [--size 1400x900] [FILE]
(a taller window, as a maximised one on a large screen, lists more rows: `--size 1600x1800` shows about 15)
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time
from pathlib import Path

from bench_data import shape_path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6 import QtWidgets  # (after the platform is chosen)

from gpumem_gui.app.launch import application
from gpumem_gui.app.window import MainWindow
from gpumem_gui.qt_start import throwaway_settings

TRAVELS = 100


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("file", nargs="?", type=Path)
    parser.add_argument("--events", type=int, default=3_000_000)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--size", default="1400x900", help="the window's width x height")
    args = parser.parse_args()
    path = args.file or shape_path("real", args.events)
    app = application()  # the window's own application (it hears a change of language without a filter)
    with throwaway_settings() as settings:  # the user's saved geometry and recent files stay as they were
        _measure(app, MainWindow(settings), path, args.rounds, args.size)


def _measure(app: QtWidgets.QApplication, window: MainWindow, path: Path, n_rounds: int, size: str) -> None:
    width, height = (int(n) for n in size.lower().split("x"))
    window.resize(width, height)
    window.show()
    window.open_files([str(path)])
    deadline = time.perf_counter() + 900
    doc = None
    while time.perf_counter() < deadline:
        app.processEvents()
        doc = window.current_document()
        if doc is not None and doc.event_list.model.row_count() and not window.jobs and not doc.pending:
            break
        time.sleep(0.01)
    assert doc is not None, "the file did not open"
    listed = doc.event_list
    viewport = listed.view.viewport()
    n = len(listed.model.indices)
    viewport.repaint()  # a first paint at this size: not a travel's cost
    app.processEvents()

    def painted() -> None:
        app.processEvents()  # the update requests show_event posted, painted into the backing store

    def steps(rng: random.Random) -> list[int]:
        start = rng.randrange(n - TRAVELS)  # a row's event; the steps go down from it, then back up
        return [int(listed.model.indices[start + i]) for i in (*range(TRAVELS // 2), *range(TRAVELS // 2, 0, -1))]

    def jumps(rng: random.Random) -> list[int]:
        return [int(listed.model.indices[rng.randrange(n)]) for _ in range(TRAVELS)]

    result: dict[str, object] = {"file": path.name, "rows": n, "viewport": list(viewport.size().toTuple())}
    for name, events_of, paint in (("travel", jumps, painted), ("step", steps, painted), ("viewport", jumps, None)):
        rounds = []
        for _ in range(n_rounds):
            events = events_of(random.Random(0))
            listed.show_event(events[0] - 1)
            painted()
            cpu = []
            for index in events:
                c = time.thread_time()
                listed.show_event(index)
                if paint is None:
                    viewport.repaint()
                else:
                    paint()
                cpu.append((time.thread_time() - c) * 1000)
            if paint is None:
                painted()
            cpu.sort()
            rounds.append((sum(cpu), statistics.median(cpu), cpu[int(TRAVELS * 0.95) - 1]))
        best = min(rounds)  # the round least disturbed by the machine's other work
        result[f"{name}_{TRAVELS}_cpu_ms"] = [round(r[0], 1) for r in rounds]
        result[f"{name}_best_round_p50_ms"] = round(best[1], 3)
        result[f"{name}_best_round_p95_ms"] = round(best[2], 3)
    print(json.dumps(result, indent=1))
    window.close()


if __name__ == "__main__":
    main()
