"""The operations of sequence.py run through the allocator simulator, as one run record (the real run's shape)."""

from __future__ import annotations

from typing import Any

from benchmarks.gpu_check.sequence import Op
from gpumem_gui.core.allocator.simulator import Block, DeviceAllocatorSim, OutOfMemoryError
from gpumem_gui.core.rules.alloc_conf import parse_alloc_conf

SECOND_STREAM = 1  # the simulator's name for the stream that record_stream marks
PRIVATE_POOL_ID = (0, 1)  # what the snapshot's segment_pool_id says for the pool's segments (the first MemPool's id)
POOL_VA_BASE = 0x6F00_0000_0000  # the pool's simulator hands out addresses here, apart from the default pool's
# Assumption, checked by the comparison on the device: the allocator makes a private pool's segments with cudaMalloc
# even under expandable_segments:True (CUDACachingAllocator.cpp's alloc_block has kept expandable segments out of
# private pools, whose checkpointing does not handle them).
PRIVATE_POOL_EXPANDABLE = False

Handle = tuple[DeviceAllocatorSim, Block]


def _pool_settings(settings: str) -> str:
    if PRIVATE_POOL_EXPANDABLE:
        return settings
    kept = [part for part in settings.split(",") if part.split(":")[0].strip() != "expandable_segments"]
    return ",".join(kept)


class SimulatedDevice:
    """One simulated CUDA device with its default pool and one private pool: two simulators, since PyTorch keeps a
    private pool's blocks apart in BlockPools of its own as one simulator instance does, and one trace merged in the
    order of the calls. Every call's trace entries are in `trace` when it returns, and the peaks are updated."""

    def __init__(self, capacity: int, settings: str = "") -> None:
        parse_alloc_conf(settings)  # a bad settings string is refused before anything runs
        self.capacity = capacity
        self.settings = settings
        self.main = DeviceAllocatorSim(capacity, settings)
        self.pool = DeviceAllocatorSim(capacity, _pool_settings(settings))
        self.pool._next_va = POOL_VA_BASE
        self.trace: list[dict[str, Any]] = []
        self._seen = [0, 0]
        self.peak_allocated = self.peak_reserved = 0

    def _collect(self) -> None:
        for side, sim in enumerate((self.main, self.pool)):
            entries = sim.trace
            new = entries[self._seen[side] :]
            self._seen[side] = len(entries)
            self.trace.extend(new)
        self.peak_allocated = max(self.peak_allocated, self.main.allocated + self.pool.allocated)
        self.peak_reserved = max(self.peak_reserved, self.main.reserved + self.pool.reserved)

    def alloc(self, size: int, *, pool: bool = False) -> Handle:
        """A block of `size` bytes from the default pool or the private one; OutOfMemoryError as PyTorch's."""
        sim = self.pool if pool else self.main
        try:
            return sim, sim.malloc(size)
        finally:
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
        self.pool.empty_cache()
        self._collect()

    def set_memory_fraction(self, fraction: float) -> None:
        self.main.set_memory_fraction(fraction)

    def segments(self) -> list[dict[str, Any]]:
        pool_segments = self.pool.segment_dicts()
        for seg in pool_segments:
            seg["segment_pool_id"] = PRIVATE_POOL_ID
        return sorted(self.main.segment_dicts() + pool_segments, key=lambda s: s["address"])

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


def run_on_simulator(ops: list[Op], *, capacity: int, settings: str = "") -> dict[str, Any]:
    """Run `ops` on a simulated device of `capacity` bytes under PYTORCH_CUDA_ALLOC_CONF `settings`.

    Returns the run record: `snapshot` (the dict torch.cuda.memory._snapshot() would give), `peaks` (allocated and
    reserved, as memory_stats' .all.peak), `ooms_raised` (indices of the operations that raised out-of-memory) and
    `event_ops` (for each trace entry, the index of the operation that made it).
    """
    device = SimulatedDevice(capacity, settings)
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
