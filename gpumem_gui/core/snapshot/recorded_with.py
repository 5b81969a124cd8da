"""What the gpumem-gui probe adds to a snapshot it takes: the torch version, each device's total memory and limit.

torch's own `_snapshot()` records neither (snapshot-format.md 1.2): the allocator rules that changed between
releases, and the base a memory fraction is taken of, are known only for files the probe wrote.
"""

from __future__ import annotations

from typing import Any

from gpumem_gui.core.snapshot.checks import MAX_DEVICE, count, shown
from gpumem_gui.core.snapshot.errors import error
from gpumem_gui.core.snapshot.sentences import QT_TRANSLATE_NOOP, say

RECORDED_WITH_KEY = "recorded_with"  # top-level key; PyTorch's viewer ignores keys it does not know
RANK_KEYS = ("RANK", "LOCAL_RANK", "WORLD_SIZE")  # what the probe knew of the job's place (its "job" dict)


def read_recorded_with(value: Any) -> tuple[str | None, dict[int, int]]:
    """(torch version, {device: total bytes}) from the snapshot's `recorded_with` dict (absent: None and {})."""
    if value is None:
        return None, {}
    key = repr(RECORDED_WITH_KEY)
    if not isinstance(value, dict):
        raise error(QT_TRANSLATE_NOOP("SnapshotError", "{where} is {value}, not a dict"), where=key, value=shown(value))
    version = value.get("torch_version")
    if version is not None and not isinstance(version, str):
        raise error(
            QT_TRANSLATE_NOOP("SnapshotError", "{where} {key} is {value}, not a string"),
            where=key,
            key="'torch_version'",
            value=shown(version),
        )
    totals = value.get("device_total_memory") or {}
    if not isinstance(totals, dict):
        raise error(
            QT_TRANSLATE_NOOP("SnapshotError", "{where} {key} is {value}, not a dict of device: bytes"),
            where=key,
            key="'device_total_memory'",
            value=shown(totals),
        )
    memory: dict[int, int] = {}
    for device, total in totals.items():
        index = count(
            int(device) if isinstance(device, str) and device.isdigit() else device,
            say(QT_TRANSLATE_NOOP("SnapshotError", "{where} device"), where=key),
            MAX_DEVICE,
        )
        memory[index] = count(
            total,
            say(QT_TRANSLATE_NOOP("SnapshotError", "{where} total memory of device {device}"), where=key, device=index),
        )
    return version, memory


def read_recorded_limits(value: Any, totals: dict[int, int]) -> dict[int, int]:
    """{device: the bytes the process could hold}: its memory fraction (the "memory_fraction" dict, {device:
    fraction}, torch 2.6 and newer) times the device's total, for a fraction under 1 of a device whose total is
    known. A value that is not a fraction is left out (a hint, never a reason to refuse the file)."""
    fractions = value.get("memory_fraction") if isinstance(value, dict) else None
    if not isinstance(fractions, dict):
        return {}
    limits: dict[int, int] = {}
    for device, fraction in fractions.items():
        index = int(device) if isinstance(device, str) and device.isdigit() else device
        if type(index) is not int or index not in totals or type(fraction) not in (int, float):
            continue
        if 0 < fraction < 1:  # NaN fails both; 1 (the default) is no limit of its own
            limits[index] = int(totals[index] * fraction)
    return limits


def read_recorded_job(value: Any) -> dict[str, int]:
    """RANK, LOCAL_RANK and WORLD_SIZE from the `recorded_with` dict's "job" dict; a value that is not a count is
    left out (a hint of where the file comes from: never a reason to refuse the file)."""
    job = value.get("job") if isinstance(value, dict) else None
    if not isinstance(job, dict):
        return {}
    return {key: job[key] for key in RANK_KEYS if type(job.get(key)) is int and 0 <= job[key] <= MAX_DEVICE_RANK}


MAX_DEVICE_RANK = 2**24  # more ranks than any job has had, by far
