"""Live mode's costs: a snapshot over the probe socket (fetch, parse, index), a stats request, and what a viewer
polling at 2 Hz / 1 Hz costs the job, all on the demo job's simulated backend in one process (CPU time ratios)."""

from __future__ import annotations

import shutil
import statistics
import tempfile
import threading
import time
from pathlib import Path

from gpumem_gui.core.analysis.timetravel import build_timeline
from gpumem_gui.core.rules.allocator_constants import GiB, MiB
from gpumem_gui.demo_job import SimulatorBackend
from gpumem_gui.probe.server import ProbeServer
from gpumem_gui.sources.live import LiveSession
from gpumem_gui.sources.probe_client import ProbeClient


def churn(backend: SimulatorBackend, ops: int) -> tuple[float, float]:
    """(thread CPU seconds, wall seconds) of `ops` malloc/free pairs: the job's own work."""
    start, wall = time.thread_time(), time.perf_counter()
    sizes = [(i * 7919) % 64 * MiB + 512 for i in range(64)]
    live = []
    for i in range(ops):
        live.append(backend.malloc(sizes[i % 64], []))
        if len(live) > 32:
            backend.free(live.pop(0))
    for block in live:
        backend.free(block)
    return time.thread_time() - start, time.perf_counter() - wall


def main() -> None:
    directory = Path(tempfile.mkdtemp())
    backend = SimulatorBackend(capacity=80 * GiB, max_entries=50_000)
    server = ProbeServer(backend, directory=directory)
    server.start()
    churn(backend, 30_000)  # a full ring buffer: 50,000 trace events
    with ProbeClient(server.path) as client:
        stats_ms = []
        for _ in range(200):
            t = time.perf_counter()
            client.stats()
            stats_ms.append((time.perf_counter() - t) * 1000)
        fetch = []
        for _ in range(5):
            t = time.perf_counter()
            data = client.snapshot_bytes()
            t1 = time.perf_counter()
            from gpumem_gui.core.snapshot.loader import load_snapshot

            snap = load_snapshot(data)
            t2 = time.perf_counter()
            build_timeline(snap, 0)
            t3 = time.perf_counter()
            fetch.append((t1 - t, t2 - t1, t3 - t2, len(data), len(snap.trace(0))))
    best = min(fetch, key=lambda f: sum(f[:3]))
    print(f"stats request: median {statistics.median(stats_ms):.2f} ms, p95 {sorted(stats_ms)[189]:.2f} ms")
    print(f"snapshot of {best[4]:,} events, {best[3] / 1e6:.1f} MB: pickle+transfer {best[0] * 1000:.0f} ms, "
          f"parse {best[1] * 1000:.0f} ms, index {best[2] * 1000:.0f} ms (best of 5)")  # fmt: skip

    # the job's cost of being watched: the same churn with and without a viewer (A B B A, thread CPU time)
    def watched(ops: int) -> tuple[float, float]:
        # the session's loops, in threads as the viewer's tasks run them; the updates are handed over and dropped
        session = LiveSession(server.path)
        loops = [
            threading.Thread(target=session.run, args=(lambda _update: session.delivered(),)),
            threading.Thread(target=session.listen),
        ]
        for loop in loops:
            loop.start()
        try:
            return churn(backend, ops)
        finally:
            session.stop()
            for loop in loops:
                loop.join()

    ops = 40_000
    runs: dict[str, list[tuple[float, float]]] = {"alone": [], "watched": []}
    for name in ("alone", "watched", "watched", "alone", "alone", "watched"):
        runs[name].append(churn(backend, ops) if name == "alone" else watched(ops))
    for i, what in ((0, "thread CPU"), (1, "wall")):
        alone, seen = min(r[i] for r in runs["alone"]), min(r[i] for r in runs["watched"])
        print(f"job {what} for {ops:,} malloc/free pairs: alone {alone:.2f} s, watched (stats 2 Hz, snapshot 1 Hz) "
              f"{seen:.2f} s = {seen / alone:.2f}x")  # fmt: skip
    server.stop()
    shutil.rmtree(directory, ignore_errors=True)
    time.sleep(1.5)
    left = [t.name for t in threading.enumerate() if t is not threading.main_thread()]
    print(f"threads left after the probe stopped: {left}")


if __name__ == "__main__":
    main()
