"""Replay benchmark: events per second through the simulator on a 1,000,000-event trace (the simulation alone, and
the whole replay with the analysis of both runs), and the fidelity table of every real fixture (peak reserved,
device allocations and frees, OOMs, releases, first divergence) under its recorded settings, with address hints and
without.
Run: python benchmarks/bench_replay.py [--events N] [--set key:value ...] (e.g. --set expandable_segments:True);
GPUMEM_GUI_PURE_PYTHON=1 times the pure-Python simulation instead of the compiled one (setup.py build_ext).
"""

from __future__ import annotations

import argparse
import json
import pickle
import time
from pathlib import Path
from typing import Any

from bench_data import data_dir

from gpumem_gui.core import load_snapshot
from gpumem_gui.core.allocator.replay import compiled_simulation_chosen, replay
from gpumem_gui.core.allocator.synthetic import synthetic_snapshot

HERE = Path(__file__).resolve().parent
FIXTURES = HERE.parent.parent / "shared" / "fixtures" / "snapshots"


def fidelity() -> list[dict[str, Any]]:
    rows = []
    for path in sorted(FIXTURES.glob("*.pickle")):
        snap = load_snapshot(path)
        for device in snap.devices():
            if not len(snap.trace(device)):
                continue
            for hints in (True, False):
                r = replay(snap, device=device, hints=hints)
                o, q = r.original, r.replayed
                rows.append(
                    {
                        "file": path.name,
                        "device": device,
                        "address_hints": hints,
                        "events": len(snap.trace(device)),
                        "peak_reserved_recorded": o.peak_reserved_bytes,
                        "peak_reserved_replayed": q.peak_reserved_bytes,
                        "peak_error_percent": 100
                        * abs(q.peak_reserved_bytes - o.peak_reserved_bytes)
                        / max(o.peak_reserved_bytes, 1),
                        "device_allocations_recorded": o.device_allocations,
                        "device_allocations_replayed": q.device_allocations,
                        "device_frees_recorded": o.device_frees,
                        "device_frees_replayed": q.device_frees,
                        "ooms_recorded": o.oom_events,
                        "ooms_replayed": q.oom_events,
                        "releases_explicit": r.explicit_releases,
                        "releases_by_the_allocator": r.allocator_releases,
                        "first_divergence": r.first_divergence,
                    }
                )
    return rows


def speed(events: int, overrides: list[str]) -> dict[str, Any]:
    path = data_dir() / f"replay_{events}.pickle"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(pickle.dumps(synthetic_snapshot(events, seed=5, streams=2, distinct_stacks=1000), protocol=4))
    snap = load_snapshot(path)
    t0 = time.process_time()
    result = replay(snap, overrides=overrides)
    seconds = time.process_time() - t0
    return {
        "events": events,
        "simulation": "compiled" if compiled_simulation_chosen() else "pure Python",  # GPUMEM_GUI_PURE_PYTHON=1
        "settings": result.settings,
        "seconds": seconds,
        "events_per_second": events / seconds,
        "simulate_seconds": result.simulate_seconds,
        "simulated_events_per_second": events / result.simulate_seconds,
        "first_divergence": result.first_divergence,
        "peak_reserved_recorded": result.original.peak_reserved_bytes,
        "peak_reserved_replayed": result.replayed.peak_reserved_bytes,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--set", action="append", default=[], help="an allocator setting to replay under")
    args = parser.parse_args()
    print(json.dumps({"speed": speed(args.events, args.set), "fidelity": fidelity()}, indent=2))


if __name__ == "__main__":
    main()
