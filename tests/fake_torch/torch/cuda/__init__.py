"""torch.cuda of the fake: lazy initialisation as torch does it, devices, stats, and malloc/free for the job."""

from __future__ import annotations

import threading
import types
from typing import Any

import torch
from torch import _C
from torch.cuda import memory

__all__ = ["OutOfMemoryError", "memory"]

_initialized = False
_initialization_lock = threading.Lock()
_queued_calls: list[Any] = []


class OutOfMemoryError(RuntimeError):
    pass


def is_available() -> bool:
    return "nocuda" not in torch.OPTIONS


def is_initialized() -> bool:
    return _initialized


def _lazy_call(fn: Any, **kwargs: Any) -> None:
    with _initialization_lock:  # as torch: run now when CUDA is up, else queued for its initialisation
        if _initialized:
            fn()
        else:
            _queued_calls.append(fn)


def _lazy_init() -> None:
    global _initialized  # noqa: PLW0603 (module state, as torch.cuda keeps it)
    if _initialized:
        return
    with _initialization_lock:
        if _initialized:
            return
        if not is_available():
            raise RuntimeError("Torch not compiled with CUDA enabled")
        _C.log("cuda_init")  # the thread that made the context: the job's, never the probe's
        for call in _queued_calls:  # the queued calls run before is_initialized() turns true, as in torch
            call()
        _queued_calls.clear()
        _initialized = True


init = _lazy_init


def device_count() -> int:
    return _C.DEVICES if is_available() else 0


def current_device() -> int:
    _lazy_init()
    return 0


def get_device_properties(index: int) -> Any:
    _lazy_init()
    return types.SimpleNamespace(name=f"Fake GPU {index}", total_memory=_C.CAPACITY)


def memory_stats(index: int = 0) -> dict[str, Any]:
    if not _initialized:
        return {}
    reserved = _C.reserved(index)
    return {"reserved_bytes.all.current": reserved, "reserved_bytes.all.peak": reserved, "num_ooms": 0,
            "flag": True}  # fmt: skip


def mem_get_info(index: int = 0) -> tuple[int, int]:
    _lazy_init()
    _C.log("mem_get_info", device=index)  # asks the device itself: a context there if there was none
    return _C.CAPACITY - _C.reserved(index), _C.CAPACITY


def memory_reserved(index: int = 0) -> int:
    return _C.reserved(index)


_fractions: dict[int, float] = {}


def set_per_process_memory_fraction(fraction: float, device: int = 0) -> None:
    """Only remembered: the fake allocator does not enforce it (what the probe records is under test)."""
    _fractions[device] = float(fraction)


def get_per_process_memory_fraction(device: int = 0) -> float:
    return _fractions.get(device, 1.0)


def fake_malloc(size: int, device: int = 0) -> int:
    """What a tensor's allocation does to the allocator (the job's side of the fake)."""
    _lazy_init()
    return _C.malloc(device, size)


def fake_free(addr: int, device: int = 0) -> None:
    _C.free(device, addr)
