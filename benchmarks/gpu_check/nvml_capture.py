"""NVML as gpumem-gui shows it: the device view's reading as JSON, `attach --list` parsed, and the two checked against
each other and against the job's own figures."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from gpumem_gui.core.snapshot.units import parse_bytes
from gpumem_gui.sources.nvml import NA, NvmlSource, format_reading

# a row of `gpumem-gui attach --list` (cli._attach): pid, GPU memory (format_bytes or n/a), probe, command
_ROW = re.compile(
    r"^\s*(?P<pid>\d+)\s+(?P<used>n/a|-?\d+(?:\.\d+)? [KMGTP]?i?B)\s+(?P<probe>yes|no)\s*(?P<command>.*)$"
)
_HEADER = re.compile(r"^\s*PID\s+GPU memory\s+probe\s+command\s*$")
NO_JOBS = "no local GPU process and no running probe"


def device_view(source: NvmlSource | None = None) -> dict[str, Any]:
    """One NVML reading, as the device view gets it: every field, and the text the command line prints."""
    own = source is None
    src = NvmlSource() if source is None else source
    try:
        reading = src.read()
    finally:
        if own:
            src.close()
    return {
        "error": reading.error,
        "driver_version": reading.driver_version,
        "read_s": round(reading.read_s, 4),
        "devices": [dataclasses.asdict(d) for d in reading.devices],
        "text": format_reading(reading),
    }


def parse_attach_list(text: str) -> dict[str, Any]:
    """`attach --list`'s output as rows: {pid, gpu_memory (as printed), gpu_bytes (parsed back, to the printed
    precision; None for n/a), probe, command}; `note` is the line it prints when NVML is unavailable; `unparsed`
    holds any line that is none of these (a change of format shows up there, not as a silent loss)."""
    rows: list[dict[str, Any]] = []
    note = None
    unparsed: list[str] = []
    empty = False
    for line in text.splitlines():
        if not line.strip() or _HEADER.match(line):
            continue
        if line.strip() == NO_JOBS:
            empty = True
            continue
        if line.startswith("(") and line.rstrip().endswith(")") and not rows:
            note = line.strip()[1:-1]
            continue
        match = _ROW.match(line)
        if match is None:
            unparsed.append(line)
            continue
        used = match["used"]
        rows.append(
            {
                "pid": int(match["pid"]),
                "gpu_memory": used,
                "gpu_bytes": None if used == NA else parse_bytes(used),
                "probe": match["probe"] == "yes",
                "command": match["command"],
            }
        )
    return {"rows": rows, "note": note, "empty": empty, "unparsed": unparsed}


def cross_check(view: dict[str, Any], attach: dict[str, Any], pid: int, reserved: int | None = None) -> dict[str, Any]:
    """Where the job `pid` appears: in the device view (its NVML bytes), in attach --list (with its probe), and how
    NVML's figure compares with the allocator's reserved bytes (NVML adds the CUDA context, so it is larger)."""
    nvml_bytes = None
    for device in view.get("devices") or []:
        for process in device.get("processes") or []:
            if process["pid"] == pid:
                nvml_bytes = (nvml_bytes or 0) + (process.get("used_bytes") or 0)
    row = next((r for r in attach.get("rows") or [] if r["pid"] == pid), None)
    result: dict[str, Any] = {
        "pid": pid,
        "in_device_view": nvml_bytes is not None,
        "nvml_bytes": nvml_bytes,
        "in_attach_list": row is not None,
        "attach_probe": bool(row and row["probe"]),
        "attach_gpu_memory": row["gpu_memory"] if row else None,
        "torch_reserved": reserved,
    }
    if nvml_bytes is not None and row is not None and row["gpu_bytes"] is not None:
        # the list prints one decimal of the unit: the same bytes print the same text
        result["attach_agrees_with_view"] = abs(row["gpu_bytes"] - nvml_bytes) <= max(nvml_bytes, 1) * 0.05
    if nvml_bytes is not None and reserved is not None:
        result["nvml_minus_reserved"] = nvml_bytes - reserved
    return result
