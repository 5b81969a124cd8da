"""The fake's "C++ side": one toy caching allocator per device, its history ring buffer and its OOM observers."""

from __future__ import annotations

import collections
import json
import os
import threading
from typing import Any

import torch

CAPACITY = 1 << 30
DEVICES = 2
_lock = threading.RLock()  # the allocator's mutex; as in torch, it is released before OOM observers run
_observers: list[Any] = []
_segments: list[list[dict[str, Any]]] = [[] for _ in range(DEVICES)]
_traces: list[collections.deque[dict[str, Any]]] = [collections.deque(maxlen=None) for _ in range(DEVICES)]
_history: dict[str, Any] = {"enabled": None, "context": None, "stacks": "python", "max_entries": 0}
_next_address = [0x7F0000000000 + (d << 40) for d in range(DEVICES)]
_clock = [1_700_000_000_000_000]


def log(call: str, **details: Any) -> None:
    path = os.environ.get("FAKE_TORCH_LOG")
    if path:
        with open(path, "a") as f:
            f.write(json.dumps({"call": call, "thread": threading.current_thread().name, **details}) + "\n")


if "no_observer" not in torch.OPTIONS:  # a build without the hook: OOMs go uncaptured, all else works

    def _cuda_attach_out_of_memory_observer(observer: Any) -> None:
        _observers.append(observer)


def _cuda_record_memory_history(enabled: str | None, context: str | None, stacks: str, max_entries: int) -> None:
    if "broken_history" in torch.OPTIONS:
        raise RuntimeError("recording is not supported by this allocator backend")
    log("record_memory_history", enabled=enabled, context=context, stacks=stacks, max_entries=max_entries)
    with _lock:
        _history.update(enabled=enabled, context=context, stacks=stacks, max_entries=max_entries)
        for d in range(DEVICES):
            _traces[d] = collections.deque(_traces[d], maxlen=max_entries if enabled else None)


if "old" not in torch.OPTIONS:  # torch 2.0 could not tell whether recording was on

    def _cuda_isHistoryEnabled() -> bool:
        return _history["enabled"] is not None


def _cuda_memorySnapshot(*args: Any) -> dict[str, Any]:
    if "old" in torch.OPTIONS and args:
        raise TypeError("_cuda_memorySnapshot(): incompatible function arguments")
    mempool = args[0] if args else None
    if mempool is not None and (not isinstance(mempool, tuple) or len(mempool) not in (2, 3)):
        raise TypeError("_cuda_memorySnapshot(): incompatible function arguments")
    include_traces = True if mempool is None or len(mempool) == 2 else bool(mempool[2])
    log("memory_snapshot", include_traces=include_traces)
    with _lock:
        return {
            "segments": [dict(s, blocks=[dict(b) for b in s["blocks"]]) for d in range(DEVICES) for s in _segments[d]],
            "device_traces": [list(t) if include_traces else [] for t in _traces],
        }


def _record(device: int, action: str, addr: int, size: int) -> None:
    if _history["enabled"] != "all":
        return
    _clock[0] += 1
    entry: dict[str, Any] = {"action": action, "addr": addr, "size": size, "stream": 0, "time_us": _clock[0]}
    if _history["context"] is not None:
        entry["frames"] = [{"filename": "job.py", "line": 7, "name": "step"}]
    _traces[device].append(entry)


def reserved(device: int) -> int:
    return sum(s["total_size"] for s in _segments[device])


def malloc(device: int, size: int) -> int:
    """One segment per allocation (enough for the probe's tests); the observers, then the error, when full."""
    size = max(512, -(-size // 512) * 512)
    with _lock:
        free = CAPACITY - reserved(device)
        if size <= free:
            addr = _next_address[device]
            _next_address[device] += size
            block = {"address": addr, "size": size, "requested_size": size, "state": "active_allocated", "frames": []}
            _segments[device].append({
                "device": device, "address": addr, "total_size": size, "allocated_size": size, "active_size": size,
                "requested_size": size, "stream": 0, "segment_type": "large", "segment_pool_id": (0, 0),
                "is_expandable": False, "frames": [], "blocks": [block],
            })  # fmt: skip
            _record(device, "segment_alloc", addr, size)
            _record(device, "alloc", addr, size)
            return addr
        if _history["enabled"] == "all":
            _clock[0] += 1
            _traces[device].append({"action": "oom", "size": size, "stream": 0, "device_free": free,
                                    "time_us": _clock[0]})  # fmt: skip
    for observer in list(_observers):  # outside the allocator's lock, as CUDACachingAllocator does
        observer(device, size, CAPACITY, free)
    raise torch.cuda.OutOfMemoryError(f"CUDA out of memory. Tried to allocate {size} bytes")


def free(device: int, addr: int) -> None:
    with _lock:
        for segment in _segments[device]:
            if segment["address"] == addr:
                _segments[device].remove(segment)
                _record(device, "free_requested", addr, segment["total_size"])
                _record(device, "free_completed", addr, segment["total_size"])
                _record(device, "segment_free", addr, segment["total_size"])
                return
    raise RuntimeError(f"free of unknown address {addr:#x}")
