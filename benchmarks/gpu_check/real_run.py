"""The operations of sequence.py on the real CUDA allocator, with memory history on: a snapshot and a run record.

    python -m benchmarks.gpu_check.real_run OPS.json SNAPSHOT.pickle RECORD.json   (PYTORCH_CUDA_ALLOC_CONF as set)
    python -m benchmarks.gpu_check.real_run --device-info                          (one JSON line: torch, the GPU)

torch is handed in (`run_on_device(ops, torch)`), so the order of the calls is tested with a stand-in.
"""

from __future__ import annotations

import gc
import json
import os
import pickle
import sys
from typing import Any

HISTORY_ENTRIES = 100_000  # far more than the sequence makes: the trace is whole, from the first allocation on


def device_info(torch: Any) -> dict[str, Any]:
    """What the check needs to know before it starts: torch, its CUDA build, and the first GPU."""
    info: dict[str, Any] = {
        "torch": str(torch.__version__),
        "cuda_build": getattr(torch.version, "cuda", None),
        "cuda": bool(torch.cuda.is_available()),
        "python": sys.version.split()[0],
    }
    if info["cuda"]:
        props = torch.cuda.get_device_properties(0)
        info.update(devices=int(torch.cuda.device_count()), name=str(props.name), total_memory=int(props.total_memory))
    return info


def _out_of_memory_errors(torch: Any) -> tuple[type[BaseException], ...]:
    found = [getattr(torch, "OutOfMemoryError", None), getattr(torch.cuda, "OutOfMemoryError", None)]
    return tuple({e for e in found if isinstance(e, type)}) or (RuntimeError,)


def run_on_device(ops: list[dict[str, Any]], torch: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """Run `ops` on cuda:0 in this (fresh) process. Returns (run record, snapshot dict); the record has the shape of
    sim_run.run_on_simulator's, less the snapshot."""
    torch.cuda.init()
    total = int(torch.cuda.mem_get_info(0)[1])  # what set_per_process_memory_fraction multiplies
    # history first: the trace must hold every allocation the sequence makes
    torch.cuda.memory._record_memory_history("all", context="all", stacks="python", max_entries=HISTORY_ENTRIES)
    torch.cuda.reset_peak_memory_stats(0)
    second_stream = torch.cuda.Stream()
    has_pool = hasattr(torch.cuda, "MemPool") and hasattr(torch.cuda, "use_mem_pool")  # torch 2.6 and later
    pool = torch.cuda.MemPool() if has_pool else None
    pool_context: Any = None
    oom_errors = _out_of_memory_errors(torch)
    tensors: dict[int, Any] = {}
    ooms: list[int] = []
    messages: list[str] = []
    for index, op in enumerate(ops):
        kind = op["op"]
        if kind == "alloc":
            try:
                tensors[op["id"]] = torch.empty(int(op["size"]), dtype=torch.uint8, device="cuda")
            except oom_errors as e:
                ooms.append(index)
                messages.append(str(e).splitlines()[0][:300] if str(e) else type(e).__name__)
        elif kind == "free":
            del tensors[op["id"]]
        elif kind == "record_stream":
            with torch.cuda.stream(second_stream):
                tensors[op["id"]].fill_(1)  # work on the second stream that the free must wait for
            # no local name for the tensor: one would keep it alive past its "free" operation
            tensors[op["id"]].record_stream(second_stream)
        elif kind == "sync":
            torch.cuda.synchronize()
        elif kind == "empty_cache":
            torch.cuda.empty_cache()
        elif kind == "pool_begin" and has_pool:
            pool_context = torch.cuda.use_mem_pool(pool)
            pool_context.__enter__()
        elif kind == "pool_end" and pool_context is not None:
            pool_context.__exit__(None, None, None)
            pool_context = None
        elif kind == "pool_delete":
            pool = None
            gc.collect()  # the MemPool goes now, not whenever a cycle collection would find it
        elif kind == "limit":
            torch.cuda.set_per_process_memory_fraction(min(1.0, int(op["bytes"]) / total), 0)
    stats = torch.cuda.memory_stats(0)
    snapshot = dict(torch.cuda.memory._snapshot())
    torch.cuda.memory._record_memory_history(None)
    record = {
        "source": "cuda",
        "settings": os.environ.get("PYTORCH_CUDA_ALLOC_CONF", ""),
        "torch": str(torch.__version__),
        "device_total": total,
        "peaks": {
            "allocated": int(stats.get("allocated_bytes.all.peak", 0)),
            "reserved": int(stats.get("reserved_bytes.all.peak", 0)),
        },
        "ooms_raised": ooms,
        "oom_messages": messages,
        "private_pool": has_pool,  # False: torch has no MemPool; the pool's allocations went to the default pool
        "live_tensors": len(tensors),
    }
    return record, snapshot


def main(argv: list[str]) -> int:
    import torch  # here, not at the top: the tests and the orchestrator import this module without torch

    if argv == ["--device-info"]:
        print(json.dumps(device_info(torch)))
        return 0
    if len(argv) != 3:
        print("usage: python -m benchmarks.gpu_check.real_run OPS.json SNAPSHOT.pickle RECORD.json", file=sys.stderr)
        return 2
    ops_path, snapshot_path, record_path = argv
    with open(ops_path) as f:
        ops = json.load(f)
    record, snapshot = run_on_device(ops, torch)
    with open(snapshot_path, "wb") as f:
        pickle.dump(snapshot, f, protocol=4)
    with open(record_path, "w") as f:
        json.dump(record, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
