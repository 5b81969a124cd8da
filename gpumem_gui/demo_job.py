"""`gpumem-gui demo-job`: a synthetic training job whose allocations go through the simulator, served by the real probe.

Live mode can be tried, and tested, without a GPU: the job runs the caching-allocator simulator in place of CUDA and
starts the very probe a real job runs, with a backend that reads the simulator instead of torch.cuda.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import shutil
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from gpumem_gui import probe
from gpumem_gui.core.allocator.examples import ATTENTION, GRAD, LOGITS, MLP, OPTIMIZER, WEIGHT
from gpumem_gui.core.allocator.simulator import Block, DeviceAllocatorSim, OutOfMemoryError
from gpumem_gui.core.rules.allocator_constants import GiB, MiB

CONTEXT_BYTES = 420 * MiB  # what a CUDA context and cuBLAS workspaces take outside PyTorch's allocator, roughly


class SimulatorBackend:
    """The probe's backend over one simulated device; the job calls malloc/free here instead of CUDA."""

    name = "simulator"

    def __init__(self, capacity: int = 12 * GiB, settings: str = "", max_entries: int = 50_000) -> None:
        # the context's share is not the allocator's to use, as on a real GPU
        self.sim = DeviceAllocatorSim(capacity - CONTEXT_BYTES, settings, max_entries=max_entries)
        self.total = capacity
        self.settings = settings
        self.lock = threading.RLock()  # the job's thread mutates, the probe's threads read
        self.requested = 0
        self.peaks = {"allocated": 0, "reserved": 0, "requested": 0}
        self.allocations = 0
        self._on_oom: Callable[[dict[str, Any]], None] | None = None

    def start(self, on_oom: Callable[[dict[str, Any]], None]) -> None:
        self._on_oom = on_oom

    # -- what the job calls ----------------------------------------------------------------------------------

    def malloc(self, size: int, frames: list[dict[str, Any]]) -> Block:
        with self.lock:
            self._tick()
            try:
                block = self.sim.malloc(size, frames=frames)
            except OutOfMemoryError as exc:
                oom, free = exc, max(self.sim.capacity - self.sim.reserved, 0)
            else:
                self.allocations += 1
                self.requested += block.requested
                self.peaks["allocated"] = max(self.peaks["allocated"], self.sim.allocated)
                self.peaks["reserved"] = max(self.peaks["reserved"], self.sim.reserved)
                self.peaks["requested"] = max(self.peaks["requested"], self.requested)
                return block
        # as torch does: observers run before the error is raised, with the allocator's lock released (the
        # probe's OOM capture reads the allocator; called under the lock, it deadlocked with a viewer's snapshot)
        if self._on_oom is not None:
            self._on_oom({"device": 0, "requested": size, "device_total": self.total, "device_free": free})
        raise oom

    def free(self, block: Block) -> None:
        with self.lock:
            self._tick()
            self.requested -= block.requested
            self.sim.free(block)

    def empty_cache(self) -> None:
        with self.lock:
            self._tick()
            self.sim.empty_cache()

    def _tick(self) -> None:
        # trace timestamps in wall-clock microseconds, like torch's, so viewers' marks line up with events
        self.sim.clock_us = max(self.sim.clock_us, time.time_ns() // 1000)

    # -- what the probe asks ---------------------------------------------------------------------------------

    def hello(self) -> dict[str, Any]:
        return {
            "pid": os.getpid(),
            "argv": list(sys.argv),
            "python": sys.version.split()[0],
            "torch": None,
            "cuda": False,
            "cuda_initialized": True,
            "simulated": True,
            "devices": [{"index": 0, "name": "simulated GPU (gpumem-gui demo job)", "total": self.total}],
            "allocator_settings": self.settings or None,
            "recording": f"on (ring buffer of {self.sim.max_entries:,} events)" if self.sim.record_history else "off",
            "problem": None,
        }

    def stats(self) -> dict[str, Any]:
        with self.lock:
            sim = self.sim
            stats = {
                "allocated_bytes.all.current": sim.allocated,
                "allocated_bytes.all.peak": self.peaks["allocated"],
                "reserved_bytes.all.current": sim.reserved,
                "reserved_bytes.all.peak": self.peaks["reserved"],
                "requested_bytes.all.current": self.requested,
                "requested_bytes.all.peak": self.peaks["requested"],
                "active_bytes.all.current": sim.allocated,
                "allocation.all.allocated": self.allocations,
                "segment.all.current": len(sim.segments) + len(sim.expandable_heads),
                "num_alloc_retries": sim.num_alloc_retries,
                "num_ooms": sim.num_ooms,
                "num_device_alloc": sim.num_device_alloc,
                "num_device_free": sim.num_device_free,
            }
            free = max(sim.capacity - sim.reserved, 0)
        return {"devices": [{"device": 0, "stats": stats, "free": free, "total": self.total}]}

    def snapshot(self, include_traces: bool) -> dict[str, Any]:
        with self.lock:
            snap = self.sim.snapshot()
        if not include_traces:
            snap["device_traces"] = [[] for _ in snap["device_traces"]]
        return snap

    def history(self, enabled: bool, max_entries: int | None, stacks: str | None) -> dict[str, Any]:
        with self.lock:
            self.sim.record_history = enabled
            if max_entries:
                self.sim.max_entries = max_entries
                self.sim._trace = type(self.sim._trace)(self.sim._trace, maxlen=max_entries)
        return {"recording": self.hello()["recording"]}


def run_training(backend: SimulatorBackend, *, seconds: float, seed: int = 0, spike_every: int = 12,
                 op_delay_s: float = 0.004, say: Callable[[str], None] = print) -> int:  # fmt: skip
    """Steps of a 24-layer model on batches of varying length; every `spike_every` steps a long batch that does
    not fit, as real jobs meet one. The OOM is caught and the batch skipped, as many training loops do.
    Returns the number of steps run."""
    rng = random.Random(seed)
    malloc, free = backend.malloc, backend.free
    weights = [malloc(48 * MiB, WEIGHT) for _ in range(24)]
    optimizer = [malloc(96 * MiB, OPTIMIZER) for _ in range(24)]
    kept: list[Block] = []  # e.g. losses and metrics kept for logging: they pin the segments they sit in
    deadline = time.monotonic() + seconds if seconds > 0 else float("inf")
    step = 0
    while time.monotonic() < deadline:
        step += 1
        spike = spike_every > 0 and step % spike_every == 0
        seq = 40960 if spike else rng.choice((512, 1024, 1536, 2048, 3072))
        live: list[Block] = []
        try:
            for _layer in range(24):
                live.append(malloc(seq * 4096 * 2, ATTENTION))
                live.append(malloc(seq * 1024 * 2 + rng.randrange(0, 64) * 512, MLP))
                time.sleep(op_delay_s)
            live.append(malloc(seq * 32_000 * 2 // 8, LOGITS))
            kept.append(malloc(rng.choice((2, 4, 8)) * MiB + 512 * rng.randrange(8), LOGITS))
            while live:  # backward: activations go in reverse, gradients come and go
                grad = malloc(live[-1].requested, GRAD)
                free(live.pop())
                free(grad)
                time.sleep(op_delay_s / 2)
            if len(kept) > 6:
                free(kept.pop(rng.randrange(len(kept))))
        except OutOfMemoryError as exc:
            say(f"step {step}: {str(exc).split('.')[0]} (batch of {seq} tokens skipped)")
            for block in reversed(live):
                free(block)
        time.sleep(op_delay_s * 5)
    for block in kept + optimizer + weights:
        free(block)
    return step


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="gpumem-gui demo-job", description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=120.0, help="how long to run (0: until stopped)")
    parser.add_argument("--capacity", default="12GiB", help="simulated GPU memory (default 12GiB)")
    parser.add_argument("--settings", default="", help="PYTORCH_CUDA_ALLOC_CONF for the simulated allocator")
    parser.add_argument("--spike-every", type=int, default=12, help="a batch that does not fit every N steps")
    parser.add_argument(
        "--oom-dir",
        help="keep the snapshot the probe writes at each OOM in this folder (default: a temporary folder, "
        "removed when the job exits)",
    )
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    from gpumem_gui.core.snapshot.units import parse_bytes  # noqa: PLC0415

    try:
        capacity = parse_bytes(args.capacity)
    except ValueError as exc:
        parser.error(f"--capacity {args.capacity!r}: {exc}")  # one line and exit 2
    backend = SimulatorBackend(capacity, args.settings)
    # a demo's OOM snapshots are throwaway: unless asked to keep them, they live and die with the job, so a
    # demo run leaves nothing in ~/.cache (a real job's probe keeps its own there, where the user looks later)
    oom_dir = Path(args.oom_dir) if args.oom_dir else Path(tempfile.mkdtemp(prefix="gpumem-gui-demo-oom-"))
    try:
        with _signals_end_the_job():
            return _serve_and_train(backend, args, oom_dir, temporary=not args.oom_dir)
    finally:
        probe.stop()  # before the folder goes: the probe writes no more snapshots into it
        if not args.oom_dir:
            shutil.rmtree(oom_dir, ignore_errors=True)


def _serve_and_train(backend: SimulatorBackend, args: argparse.Namespace, oom_dir: Path, *, temporary: bool) -> int:
    server = probe.start(backend=backend, oom_dir=oom_dir)
    if server is None:
        return 2  # the probe said why in one line (e.g. an untrusted socket folder): the CLI's bad-input code
    kept = "a temporary folder, removed when the job exits" if temporary else "kept"
    print(f"demo job: pid {os.getpid()}, a simulated GPU of {args.capacity}; watch it with "
          f"`gpumem-gui attach {os.getpid()}` (or Live > Attach in the app); OOM snapshots go to "
          f"{oom_dir} ({kept})", flush=True)  # fmt: skip
    try:
        steps = run_training(backend, seconds=args.seconds, seed=args.seed, spike_every=args.spike_every,
                             say=lambda line: print(f"demo job: {line}", flush=True))  # fmt: skip
    except KeyboardInterrupt:
        return 130
    print(f"demo job: done after {steps} steps", flush=True)
    return 0


@contextlib.contextmanager
def _signals_end_the_job() -> Iterator[None]:
    """SIGTERM and SIGHUP (kill, a closed terminal) end the job as Ctrl-C does, through its `finally` blocks,
    so its temporary OOM folder is removed; Python's default for them ends the process on the spot. SIGINT too
    where it was inherited ignored."""
    if threading.current_thread() is not threading.main_thread():
        yield  # signal handlers can only be set from the main thread (main() called from a script's thread)
        return

    def end(signum: int, _frame: object) -> None:
        raise SystemExit(128 + signum)

    wanted = [signal.SIGTERM] + ([signal.SIGHUP] if hasattr(signal, "SIGHUP") else [])
    previous = {signum: signal.signal(signum, end) for signum in wanted}
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        # started in the background by a shell without job control (or a CI runner), which ignores SIGINT for its
        # children: a `kill -INT` still ends the demo as Ctrl-C does, through its `finally` blocks
        previous[signal.SIGINT] = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
