"""The operations of sequence.py run through the allocator simulator, as one run record (the real run's shape)."""

from __future__ import annotations

from typing import Any

from benchmarks.gpu_check.sequence import Op
from gpumem_gui.core.allocator.simulator import Block, DeviceAllocatorSim, OutOfMemoryError
from gpumem_gui.core.rules.alloc_conf import parse_alloc_conf

SECOND_STREAM = 1  # the simulator's name for the stream that record_stream marks
PRIVATE_POOL_ID = (0, 1)  # what the snapshot's segment_pool_id says for the pool's segments (the first MemPool's id)
POOL_VA_BASE = 0x6F00_0000_0000  # the pool's simulator hands out addresses here, apart from the default pool's
# A private pool follows the settings of the default ones, expandable_segments included: torch has mapped a MemPool's
# (and a CUDA graph's) memory in expandable segments since pytorch/pytorch#128068 (2.5), and the H200 run of
# 2026-12-04 (torch 2.11) showed it: segment_map, not segment_alloc, for the pool's first request.

Handle = tuple[DeviceAllocatorSim, Block]
ACQUIRES = ("segment_alloc", "segment_map")


def device_addresses(snapshot: dict[str, Any], device: int = 0) -> list[int]:
    """Where the real run's driver put each range the allocator asked it for (each cudaMalloc or page map), in order.

    The driver's choice of address is not the allocator's rule, but the rule depends on it: among free blocks of one
    size the allocator takes the lowest address (BlockComparatorSize), so with addresses of its own the simulator
    breaks such ties differently from the device (seen on the H200: two whole free 2 MiB segments, event 62)."""
    traces = snapshot.get("device_traces") or []
    trace = traces[device] if device < len(traces) else []
    return [int(e["addr"]) for e in trace if e.get("action") in ACQUIRES]


class SimulatedDevice:
    """One simulated CUDA device with its default pool and one private pool: two simulators, since PyTorch keeps a
    private pool's blocks apart in BlockPools of its own as one simulator instance does, and one trace merged in the
    order of the calls. Every call's trace entries are in `trace` when it returns, and the peaks are updated."""

    def __init__(self, capacity: int, settings: str = "") -> None:
        parse_alloc_conf(settings)  # a bad settings string is refused before anything runs
        self.capacity = capacity
        self.settings = settings
        self.main = DeviceAllocatorSim(capacity, settings)
        self.pool = DeviceAllocatorSim(capacity, settings)
        self.pool._next_va = POOL_VA_BASE
        self.pool.begin_allocate_to_pool(PRIVATE_POOL_ID)  # its rules are a private pool's (release order, pool id)
        self.trace: list[dict[str, Any]] = []
        self._seen = [0, 0]
        self.peak_allocated = self.peak_reserved = 0
        self.hints: list[int] = []  # device_addresses of the real run, when the simulator is to follow them
        self._acquired = 0  # device ranges asked for so far, on both simulators

    def _collect(self) -> None:
        for side, sim in enumerate((self.main, self.pool)):
            entries = sim.trace
            new = entries[self._seen[side] :]
            self._seen[side] = len(entries)
            self.trace.extend(new)
            self._acquired += sum(1 for e in new if e["action"] in ACQUIRES)
        self.peak_allocated = max(self.peak_allocated, self.main.allocated + self.pool.allocated)
        self.peak_reserved = max(self.peak_reserved, self.main.reserved + self.pool.reserved)

    def alloc(self, size: int, *, pool: bool = False) -> Handle:
        """A block of `size` bytes from the default pool or the private one; OutOfMemoryError as PyTorch's."""
        sim = self.pool if pool else self.main
        if self._acquired < len(self.hints):  # a new range, if this request needs one, goes where the device put it
            sim.address_hint = self.hints[self._acquired]
        try:
            return sim, sim.malloc(size)
        finally:
            sim.address_hint = None
            self._collect()

    def free(self, handle: Handle) -> None:
        handle[0].free(handle[1])
        self._collect()

    def record_stream(self, handle: Handle) -> None:
        handle[0].record_stream(handle[1], SECOND_STREAM)

    def synchronize(self) -> None:
        self.main.synchronize()
        self.pool.synchronize()
        self._collect()

    def empty_cache(self) -> None:
        self.main.empty_cache()
        self._collect()

    def release_pool(self) -> None:
        """The MemPool dropped: its destructor gives the pool's cached segments back (releasePool, then emptyCache
        of that pool)."""
        self.pool.end_allocate_to_pool(PRIVATE_POOL_ID)
        self.pool.release_pool(PRIVATE_POOL_ID)
        self.pool.empty_cache()
        self._collect()

    def set_memory_fraction(self, fraction: float) -> None:
        self.main.set_memory_fraction(fraction)

    def segments(self) -> list[dict[str, Any]]:
        return sorted(self.main.segment_dicts() + self.pool.segment_dicts(), key=lambda s: s["address"])

    def snapshot(self) -> dict[str, Any]:
        """What torch.cuda.memory._snapshot() returns for this device."""
        return {
            "segments": self.segments(),
            "device_traces": [list(self.trace)],
            "allocator_settings": self.main.config.snapshot_settings(),
            "external_annotations": [],
        }


def _do(device: SimulatedDevice, handles: dict[int, Handle], op: Op) -> None:
    kind = op["op"]
    if kind == "alloc":
        handles[op["id"]] = device.alloc(int(op["size"]), pool=bool(op.get("pool")))
    elif kind == "free":
        device.free(handles.pop(op["id"]))
    elif kind == "record_stream":
        device.record_stream(handles[op["id"]])
    elif kind == "sync":
        device.synchronize()
    elif kind == "empty_cache":
        device.empty_cache()
    elif kind == "pool_delete":
        device.release_pool()
    elif kind == "limit":
        device.set_memory_fraction(int(op["bytes"]) / device.capacity)
    elif kind not in ("pool_begin", "pool_end"):
        raise ValueError(f"unknown operation {kind!r}")


def run_on_simulator(
    ops: list[Op], *, capacity: int, settings: str = "", addresses: list[int] | None = None
) -> dict[str, Any]:
    """Run `ops` on a simulated device of `capacity` bytes under PYTORCH_CUDA_ALLOC_CONF `settings`; with
    `addresses` (device_addresses of a real run) each new device range is placed where the real run's driver put
    the range of the same rank, when that place is free in the simulator.

    Returns the run record: `snapshot` (the dict torch.cuda.memory._snapshot() would give), `peaks` (allocated and
    reserved, as memory_stats' .all.peak), `ooms_raised` (indices of the operations that raised out-of-memory) and
    `event_ops` (for each trace entry, the index of the operation that made it).
    """
    device = SimulatedDevice(capacity, settings)
    device.hints = list(addresses or [])
    handles: dict[int, Handle] = {}
    ooms: list[int] = []
    event_ops: list[int] = []
    for index, op in enumerate(ops):
        try:
            _do(device, handles, op)
        except OutOfMemoryError:
            ooms.append(index)
        event_ops.extend([index] * (len(device.trace) - len(event_ops)))
    return {
        "source": "simulator",
        "settings": settings,
        "device_total": capacity,
        "snapshot": device.snapshot(),
        "peaks": {"allocated": device.peak_allocated, "reserved": device.peak_reserved},
        "ooms_raised": ooms,
        "event_ops": event_ops,
    }
