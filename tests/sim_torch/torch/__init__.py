"""A stand-in for torch whose CUDA allocator is the simulator: the calls benchmarks/gpu_check/real_run.py makes.

Put its folder first on PYTHONPATH (or pass this module to real_run.run_on_device) and the GPU check's real run
goes through its own code path with no GPU: each torch.empty is a simulator malloc, a dropped tensor a free, a
MemPool routes to the private pool. SIM_TORCH=nocuda makes a build without CUDA. The device's size is
SIM_TORCH_CAPACITY bytes (default 80 GiB); the allocator settings are PYTORCH_CUDA_ALLOC_CONF's.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

from benchmarks.gpu_check.sim_run import Handle, SimulatedDevice
from gpumem_gui.core.allocator.simulator import OutOfMemoryError as _SimOutOfMemory

__version__ = "0.0+simulated"
uint8 = "uint8"
CAPACITY = int(os.environ.get("SIM_TORCH_CAPACITY") or 80 << 30)
_CUDA = os.environ.get("SIM_TORCH") != "nocuda"


class _State:
    device: SimulatedDevice | None = None  # made by torch.cuda.init()
    in_pool = False  # inside use_mem_pool


_state = _State()
calls: list[str] = []  # the order in which the allocator was asked things (tests read it)


class OutOfMemoryError(RuntimeError):
    pass


def _dev() -> SimulatedDevice:
    if _state.device is None:
        raise RuntimeError("CUDA is not initialised (torch.cuda.init() was not called)")
    return _state.device


class Tensor:
    def __init__(self, handle: Handle) -> None:
        self.handle = handle

    def fill_(self, value: int) -> Tensor:
        calls.append("fill")
        return self

    def record_stream(self, stream: Any) -> None:
        calls.append("record_stream")
        _dev().record_stream(self.handle)

    def __del__(self) -> None:  # the last reference gone: the caching allocator's free
        calls.append("free")
        _dev().free(self.handle)


def empty(size: int, *, dtype: Any, device: str) -> Tensor:
    assert dtype is uint8 and device == "cuda"
    calls.append("alloc_in_pool" if _state.in_pool else "alloc")
    try:
        return Tensor(_dev().alloc(size, pool=_state.in_pool))
    except _SimOutOfMemory as e:
        raise OutOfMemoryError(str(e)) from None


def _init() -> None:
    if _state.device is None:
        _state.device = SimulatedDevice(CAPACITY, os.environ.get("PYTORCH_CUDA_ALLOC_CONF", ""))
        calls.append("init")


def _record_memory_history(enabled: Any, **kwargs: Any) -> None:
    calls.append("history on" if enabled else "history off")


def _snapshot() -> dict[str, Any]:
    calls.append("snapshot")
    return _dev().snapshot()


class MemPool:
    def __init__(self) -> None:
        calls.append("mempool")

    def __del__(self) -> None:
        calls.append("mempool deleted")
        if _state.device is not None:
            _state.device.release_pool()


@contextlib.contextmanager
def use_mem_pool(pool: MemPool) -> Iterator[None]:
    _state.in_pool = True
    try:
        yield
    finally:
        _state.in_pool = False


@contextlib.contextmanager
def _stream(stream: Any) -> Iterator[None]:
    yield


def _fraction(fraction: float, device: int = 0) -> None:
    calls.append(f"fraction {fraction:.6f}")
    _dev().set_memory_fraction(fraction)


def _memory_stats(device: int = 0) -> dict[str, int]:
    dev = _dev()
    return {"allocated_bytes.all.peak": dev.peak_allocated, "reserved_bytes.all.peak": dev.peak_reserved}


def _sync() -> None:
    calls.append("synchronize")
    _dev().synchronize()


def _empty_cache() -> None:
    calls.append("empty_cache")
    _dev().empty_cache()


version = SimpleNamespace(cuda="12.0" if _CUDA else None)
cuda = SimpleNamespace(
    is_available=lambda: _CUDA,
    init=_init,
    device_count=lambda: 1,
    get_device_properties=lambda index: SimpleNamespace(name="Simulated GPU", total_memory=CAPACITY),
    mem_get_info=lambda device=0: (CAPACITY - _dev().main.reserved - _dev().pool.reserved, CAPACITY),
    reset_peak_memory_stats=lambda device=0: None,
    memory_stats=_memory_stats,
    Stream=object,
    stream=_stream,
    synchronize=_sync,
    empty_cache=_empty_cache,
    set_per_process_memory_fraction=_fraction,
    MemPool=MemPool,
    use_mem_pool=use_mem_pool,
    OutOfMemoryError=OutOfMemoryError,
    memory=SimpleNamespace(_record_memory_history=_record_memory_history, _snapshot=_snapshot),
)
