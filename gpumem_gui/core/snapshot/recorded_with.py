"""What the gpumem-gui probe adds to a snapshot it takes: the torch version and each device's total memory.

torch's own `_snapshot()` records neither (snapshot-format.md 1.2): the allocator rules that changed between
releases, and the base a memory fraction is taken of, are known only for files the probe wrote.
"""

from __future__ import annotations

from typing import Any

from gpumem_gui.core.snapshot.checks import MAX_DEVICE, count, shown
from gpumem_gui.core.snapshot.errors import SnapshotError

RECORDED_WITH_KEY = "recorded_with"  # top-level key; PyTorch's viewer ignores keys it does not know
RANK_KEYS = ("RANK", "LOCAL_RANK", "WORLD_SIZE")  # what the probe knew of the job's place (its "job" dict)


def read_recorded_with(value: Any) -> tuple[str | None, dict[int, int]]:
    """(torch version, {device: total bytes}) from the snapshot's `recorded_with` dict (absent: None and {})."""
    if value is None:
        return None, {}
    where = RECORDED_WITH_KEY
    if not isinstance(value, dict):
        raise SnapshotError(f"'{where}' is {shown(value)}, not a dict")
    version = value.get("torch_version")
    if version is not None and not isinstance(version, str):
        raise SnapshotError(f"'{where}' 'torch_version' is {shown(version)}, not a string")
    totals = value.get("device_total_memory") or {}
    if not isinstance(totals, dict):
        raise SnapshotError(f"'{where}' 'device_total_memory' is {shown(totals)}, not a dict of device: bytes")
    memory: dict[int, int] = {}
    for device, total in totals.items():
        index = count(
            int(device) if isinstance(device, str) and device.isdigit() else device, f"'{where}' device", MAX_DEVICE
        )
        memory[index] = count(total, f"'{where}' total memory of device {index}")
    return version, memory


def read_recorded_job(value: Any) -> dict[str, int]:
    """RANK, LOCAL_RANK and WORLD_SIZE from the `recorded_with` dict's "job" dict; a value that is not a count is
    left out (a hint of where the file comes from: never a reason to refuse the file)."""
    job = value.get("job") if isinstance(value, dict) else None
    if not isinstance(job, dict):
        return {}
    return {key: job[key] for key in RANK_KEYS if type(job.get(key)) is int and 0 <= job[key] <= MAX_DEVICE_RANK}


MAX_DEVICE_RANK = 2**24  # more ranks than any job has had, by far
