"""The local jobs one can attach to: GPU processes seen by NVML merged with the processes that run a probe."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import psutil

from gpumem_gui.sources.probe_client import ProbeError, list_probes
from gpumem_gui.sources.words import error_text


@dataclass(frozen=True)
class LocalJob:
    pid: int
    command: str
    gpu_bytes: int | None  # NVML's used memory of the process over all GPUs; None where NVML cannot tell
    probe: Path | None  # its probe socket, if it runs one


@dataclass(frozen=True)
class LocalJobs:
    jobs: tuple[LocalJob, ...]
    nvml_error: str | None  # one line when NVML is unavailable (no driver): the probed jobs are still listed
    probe_error: str | None = None  # one line when the socket folder cannot be trusted: no probe is listed


def _command(pid: int) -> str:
    try:
        return " ".join(psutil.Process(pid).cmdline()) or "?"
    except (psutil.Error, OSError):
        return "?"


def local_jobs(socket_dir: Path | None = None) -> LocalJobs:
    from gpumem_gui.sources.nvml import NvmlSource  # noqa: PLC0415 (pynvml loads only when asked)

    source = NvmlSource()
    try:
        reading = source.read()
    finally:
        source.close()
    gpu: dict[int, int | None] = {}
    for device in reading.devices:
        for proc in device.processes:
            used = proc.used_bytes
            before = gpu.get(proc.pid)
            gpu[proc.pid] = None if used is None and before is None else (before or 0) + (used or 0)
    probe_error = None
    try:
        probes = {entry.pid: entry for entry in list_probes(socket_dir)}
    except ProbeError as exc:
        probes, probe_error = {}, error_text(exc)
    jobs = []
    for pid in sorted(set(gpu) | set(probes)):
        probe = probes.get(pid)
        jobs.append(
            LocalJob(pid, probe.command if probe else _command(pid), gpu.get(pid), probe.path if probe else None)
        )
    return LocalJobs(tuple(jobs), reading.error, probe_error)
