"""Where this process sits in a distributed job: RANK, LOCAL_RANK and WORLD_SIZE, as the launcher or torch says.

torchrun, Slurm's srun (through the job's own setup), DeepSpeed and Accelerate export RANK, LOCAL_RANK and
WORLD_SIZE; a job that set up its process group another way is asked through torch.distributed, but only when the
job has already imported it and initialised its group (get_rank() is a local lookup, no message to other ranks).
Nothing here raises or waits: a probe never harms the job it lives in.
"""

from __future__ import annotations

import os
import sys
from typing import Any

KEYS = ("RANK", "LOCAL_RANK", "WORLD_SIZE")
RECORDED_WITH = "recorded_with"  # the snapshot key core/snapshot/recorded_with.py reads (torch does not write it)


def _count(text: str | None) -> int | None:
    if text is None or not text.strip().isdigit():
        return None
    return int(text)


def job_place(environ: dict[str, str] | None = None) -> dict[str, int]:
    """RANK, LOCAL_RANK and WORLD_SIZE where known ({} for a job of one process that says nothing)."""
    environ = dict(os.environ) if environ is None else environ
    found = {key: value for key in KEYS if (value := _count(environ.get(key))) is not None}
    if "RANK" not in found:
        found.update(_from_torch_distributed())
    return found


def _from_torch_distributed() -> dict[str, int]:
    distributed: Any = sys.modules.get("torch.distributed")  # imported by the job, never by us
    try:
        if distributed is None or not distributed.is_available() or not distributed.is_initialized():
            return {}
        return {"RANK": int(distributed.get_rank()), "WORLD_SIZE": int(distributed.get_world_size())}
    except Exception:  # a half-torn-down group at exit, a fake module: no rank, and the job goes on
        return {}


def oom_file_name(pid: int, stamp: str, count: int, place: dict[str, int]) -> str:
    """`oom-rankR-PID-STAMP-N.pickle` where the rank is known (`ranks` reads the rank from it), else
    `oom-PID-STAMP-N.pickle`."""
    rank = f"rank{place['RANK']}-" if "RANK" in place else ""
    return f"oom-{rank}{pid}-{stamp}-{count}.pickle"
