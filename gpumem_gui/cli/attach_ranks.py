"""`gpumem-gui attach [PID] --save-ranks DIR`: one snapshot of every local probe of a job, each named by its rank,
into one folder that `gpumem-gui ranks DIR` reads.

Every probe of this user on this machine, or, given the job's PID (torchrun's, or any launcher's), that process and
the processes below it. A file is `rankR.pickle` when the rank is known (the process's RANK, or what the probe says:
torch.distributed's rank), else `pidP.pickle`; the snapshot itself carries the rank too (`recorded_with.job`). A
probe that cannot answer is one line and the others are saved.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import psutil

from gpumem_gui.cli.common import EXIT_BAD_INPUT
from gpumem_gui.core.snapshot.errors import SnapshotError, printable
from gpumem_gui.core.snapshot.loader import load_snapshot
from gpumem_gui.core.snapshot.units import format_bytes
from gpumem_gui.sources.probe_client import ProbeEntry, ProbeError, list_probes
from gpumem_gui.sources.probe_socket import fetch_snapshot_into


def _below(pid: int, root: int) -> bool:
    """Whether process `pid` is `root` or one of its descendants."""
    try:
        process = psutil.Process(pid)
        return pid == root or any(parent.pid == root for parent in process.parents())
    except (psutil.Error, OSError):
        return False


def job_probes(root: int | None, directory: Path | None = None) -> list[ProbeEntry]:
    """The local probes, or those of the process `root` and below it."""
    return [p for p in list_probes(directory) if root is None or _below(p.pid, root)]


def rank_file_name(rank: int | None, pid: int, taken: set[str]) -> str:
    """`rankR.pickle`, `pidP.pickle` without a rank, `rankR-pidP.pickle` when two processes say the same rank."""
    name = f"rank{rank}.pickle" if rank is not None else f"pid{pid}.pickle"
    return f"rank{rank}-pid{pid}.pickle" if name in taken else name


def save_ranks(folder: str, root: int | None, *, timeout: float, include_traces: bool) -> int:
    def bad(message: str) -> int:
        print(f"gpumem-gui attach: {printable(message)}", file=sys.stderr)
        return EXIT_BAD_INPUT

    try:
        probes = job_probes(root)
    except ProbeError as e:
        return bad(str(e))
    if not probes:
        below = f" in process {root} or below it" if root is not None else ""
        return bad(f"no running gpumem-gui probe{below} (see `gpumem-gui attach --list`)")
    out = Path(folder)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        return bad(f"cannot make {folder}: {e.strerror or e}")
    taken: set[str] = set()
    failed = 0
    for entry in probes:
        part = out / f".pid{entry.pid}.part"
        try:
            with part.open("wb") as f:
                size, probe = fetch_snapshot_into(entry.path, f, include_traces=include_traces, timeout=timeout)
            rank = probe.rank if probe.rank is not None else _hello_rank(probe.hello)
            name = rank_file_name(rank, entry.pid, taken)
            load_snapshot(part, name=name)  # what was received must be a snapshot, read as files are
            os.replace(part, out / name)
        except (ProbeError, SnapshotError, OSError) as e:
            part.unlink(missing_ok=True)
            failed += 1
            print(f"gpumem-gui attach: pid {entry.pid}: {printable(str(e))}", file=sys.stderr)
            continue
        taken.add(name)
        print(f"wrote {printable(str(out / name))}: {format_bytes(size)} (pid {entry.pid})")
    print(f"{len(taken)} snapshot(s) in {printable(folder)}; read them with `gpumem-gui ranks {printable(folder)}`")
    return EXIT_BAD_INPUT if failed and not taken else 0


def _hello_rank(hello: dict[str, object]) -> int | None:
    job = hello.get("job")
    rank = job.get("RANK") if isinstance(job, dict) else None
    return rank if isinstance(rank, int) and not isinstance(rank, bool) else None
