"""The probe's backend for a real PyTorch job: memory history, stats, snapshots and the OOM observer of torch.cuda.

It never creates a CUDA context the job would not have made: recording and the OOM observer are installed when
the job first initialises CUDA (torch.cuda._lazy_call), and per-device calls go only to devices the job uses.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import Any

from gpumem_gui.probe.job_place import RECORDED_WITH
from gpumem_gui.probe.server import RequestError
from gpumem_gui.probe.wire import MAX_HISTORY_ENTRIES as MAX_ENTRIES

STACK_CHOICES = ("python", "all", "none")


class TorchBackend:
    name = "torch"

    def __init__(self, *, max_entries: int = 50_000, stacks: str = "python", record: bool = True) -> None:
        if stacks not in STACK_CHOICES:
            raise ValueError(f"stacks must be one of {', '.join(STACK_CHOICES)}")
        if isinstance(max_entries, bool) or not isinstance(max_entries, int) or not 0 < max_entries <= MAX_ENTRIES:
            raise ValueError(f"max_entries must be a whole number from 1 to {MAX_ENTRIES:,}, not {max_entries!r}")
        self.max_entries = max_entries
        self.stacks = stacks
        self.record = record
        self.recording = "off"
        self.problem: str | None = None
        self._on_oom: Callable[[dict[str, Any]], None] | None = None
        self._torch: Any = None
        self._cuda = False  # torch is there and sees a CUDA device
        self._log: Callable[[str], None] = lambda message: print(f"gpumem-gui probe: {message}", file=sys.stderr)

    # -- start -----------------------------------------------------------------------------------------------

    def start(self, on_oom: Callable[[dict[str, Any]], None]) -> None:
        self._on_oom = on_oom
        try:
            import torch  # noqa: PLC0415 (the probe imports torch only once it is started in a torch job)
        except ImportError:
            self.problem = "PyTorch is not installed in this Python: there is no allocator to watch"
            return
        self._torch = torch
        self._cuda = bool(torch.cuda.is_available())
        if not self._cuda:
            self.problem = (
                f"torch {torch.__version__} sees no CUDA device (CUDA build: {torch.version.cuda or 'none'}): "
                "the probe answers, but there is no CUDA allocator to record"
            )
            return
        # queued until the job initialises CUDA itself, then run right after the allocator exists
        self._torch.cuda._lazy_call(self._on_cuda_ready)

    def _on_cuda_ready(self) -> None:
        # this runs inside the job's own CUDA initialisation: nothing may escape from here; and each part that
        # fails costs only itself (stats and snapshots work without recording, recording without the observer)
        problems = []
        if self.record:
            try:
                self._enable_history(self.max_entries, self.stacks, respect_existing=True)
            except Exception as exc:
                problems.append(f"could not set up recording: {type(exc).__name__}: {exc}")
        try:
            self._torch._C._cuda_attach_out_of_memory_observer(self._observer)
        except Exception as exc:
            problems.append(f"OOMs will not be captured: {type(exc).__name__}: {exc}")
        if problems:
            self.problem = "; ".join(problems)
            self._log(self.problem)

    def _enable_history(self, max_entries: int, stacks: str, *, respect_existing: bool) -> None:
        torch = self._torch
        is_enabled = getattr(torch._C, "_cuda_isHistoryEnabled", None)
        if respect_existing and is_enabled is not None and is_enabled():
            self.recording = "on (turned on by the program)"
            return
        context = None if stacks == "none" else "all"
        try:
            torch.cuda.memory._record_memory_history(
                "all", context=context, stacks="python" if stacks == "none" else stacks, max_entries=max_entries
            )
        except TypeError:  # torch 2.0 had only the boolean form
            torch.cuda.memory._record_memory_history(True, trace_alloc_max_entries=max_entries)
        self.recording = f"on (ring buffer of {max_entries:,} events, stacks: {stacks})"

    def _observer(self, device: int, requested: int, device_total: int, device_free: int) -> None:
        if self._on_oom is not None:
            self._on_oom(
                {
                    "device": int(device),
                    "requested": int(requested),
                    "device_total": int(device_total),  # the allowed maximum under a memory fraction
                    "device_free": int(device_free),
                }
            )

    # -- requests --------------------------------------------------------------------------------------------

    def _ready(self) -> bool:
        """The job has initialised CUDA: only then may the probe ask the allocator and the devices anything."""
        return self._cuda and bool(self._torch.cuda.is_initialized())

    def hello(self) -> dict[str, Any]:
        torch = self._torch
        hello: dict[str, Any] = {
            "pid": os.getpid(),
            "argv": list(sys.argv),
            "python": sys.version.split()[0],
            "torch": getattr(torch, "__version__", None),
            "cuda": self._cuda,
            "cuda_initialized": self._ready(),
            "devices": [],
            "allocator_settings": os.environ.get("PYTORCH_CUDA_ALLOC_CONF") or os.environ.get("PYTORCH_ALLOC_CONF"),
            "recording": self.recording,
            "problem": self.problem,
        }
        if self._cuda:
            for index in range(torch.cuda.device_count()):
                entry: dict[str, Any] = {"index": index}
                if self._ready():  # properties would create a context on an unused device otherwise
                    props = torch.cuda.get_device_properties(index)
                    entry.update(name=props.name, total=int(props.total_memory))
                hello["devices"].append(entry)
        return hello

    def stats(self) -> dict[str, Any]:
        if not self._ready():
            return {"devices": [], "note": self.problem or "CUDA is not initialised in the job yet"}
        torch = self._torch
        devices = []
        for index, stats in self._used_devices():
            free, total = torch.cuda.mem_get_info(index)
            devices.append({"device": index, "stats": _plain_numbers(stats), "free": int(free), "total": int(total)})
        return {"devices": devices}

    def _used_devices(self) -> list[tuple[int, dict[str, Any]]]:
        """(index, memory_stats) of the devices the job uses: asking another for its free memory would create a
        context there."""
        torch = self._torch
        current = torch.cuda.current_device()
        used = []
        for index in range(torch.cuda.device_count()):
            stats = torch.cuda.memory_stats(index)
            if index == current or stats.get("reserved_bytes.all.peak"):
                used.append((index, stats))
        return used

    def _recorded_with(self) -> dict[str, Any]:
        """What the snapshot does not say itself: the torch version (its allocator rules changed between releases)
        and each used device's total memory (cudaMemGetInfo's total, what a memory fraction is a fraction of)."""
        used = [index for index, _ in self._used_devices()]
        totals = {index: int(self._torch.cuda.mem_get_info(index)[1]) for index in used}
        recorded = {"torch_version": str(self._torch.__version__), "device_total_memory": totals}
        fractions = self._fractions(used)
        if fractions:
            recorded["memory_fraction"] = fractions
        return recorded

    def _fractions(self, used: list[int]) -> dict[int, float]:
        """Each used device's set_per_process_memory_fraction (torch 2.6 and newer say it): a trace does not record
        it, yet it decides an OOM the device had room for. Left out where torch cannot tell."""
        getter = getattr(self._torch.cuda, "get_per_process_memory_fraction", None)
        if getter is None:
            return {}
        out: dict[int, float] = {}
        for index in used:
            try:
                out[index] = float(getter(index))
            except Exception:  # a hint only: the snapshot goes out without it
                continue
        return out

    def snapshot(self, include_traces: bool) -> dict[str, Any]:
        if not self._cuda:
            raise RequestError(self.problem or "no CUDA in this job")
        if not self._ready():
            return {"segments": [], "device_traces": [], "external_annotations": []}
        torch = self._torch
        if not include_traces:
            try:  # torch 2.9 and newer can leave the trace out in C++, which is much faster
                snap = dict(torch._C._cuda_memorySnapshot((0, 0, False)))
                snap[RECORDED_WITH] = self._recorded_with()
                return snap
            except (TypeError, RuntimeError):
                pass
        snap = dict(torch.cuda.memory._snapshot())
        if not include_traces:
            snap["device_traces"] = [[] for _ in snap.get("device_traces", [])]
        snap[RECORDED_WITH] = self._recorded_with()
        return snap

    def history(self, enabled: bool, max_entries: int | None, stacks: str | None) -> dict[str, Any]:
        if not self._ready():
            raise RequestError(self.problem or "CUDA is not initialised in the job yet")
        if enabled:
            self.max_entries = max_entries or self.max_entries
            self.stacks = stacks or self.stacks
            self._enable_history(self.max_entries, self.stacks, respect_existing=False)
        else:
            try:
                self._torch.cuda.memory._record_memory_history(None)
            except TypeError:  # torch 2.0 had only the boolean form
                self._torch.cuda.memory._record_memory_history(False)
            self.recording = "off (stopped by a viewer)"
        return {"recording": self.recording}


def _plain_numbers(stats: dict[str, Any]) -> dict[str, int | float]:
    return {str(k): v for k, v in stats.items() if isinstance(v, (int, float)) and not isinstance(v, bool)}
