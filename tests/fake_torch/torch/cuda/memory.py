"""torch.cuda.memory of the fake: recording history and taking snapshots, in torch 2.0's API or today's."""

from __future__ import annotations

import sys
from typing import Any

import torch
from torch import _C

if "old" in torch.OPTIONS:

    def _record_memory_history(  # noqa: PLR0917 (torch 2.0: a boolean and the trace_alloc_* names)
        enabled: bool,
        record_context: bool = True,
        trace_alloc_max_entries: int = 1,
        trace_alloc_record_context: bool = False,
        device: Any = None,
        record_context_cpp: bool = False,
    ) -> None:
        if not isinstance(enabled, bool):
            raise TypeError("_cuda_record_memory_history(): incompatible function arguments")
        context = "all" if record_context else None
        _C._cuda_record_memory_history("all" if enabled else None, context, "python", trace_alloc_max_entries)

    def _snapshot(device: Any = None) -> dict[str, Any]:
        return _C._cuda_memorySnapshot()

else:

    def _record_memory_history(
        enabled: Any = "all", context: Any = "all", stacks: str = "all", max_entries: int = sys.maxsize, **_: Any
    ) -> None:
        if isinstance(enabled, bool):  # the legacy form still exists, with its own names
            _C._cuda_record_memory_history(
                "all" if enabled else None, "all", "python", _.get("trace_alloc_max_entries", 1)
            )
            return
        if enabled not in (None, "state", "all") or context not in (None, "state", "alloc", "all"):
            raise ValueError(f"bad enabled/context: {enabled!r}/{context!r}")
        if stacks not in ("python", "all"):
            raise ValueError(f"bad stacks: {stacks!r}")
        _C._cuda_record_memory_history(enabled, context, stacks, max_entries)

    def _snapshot(device: Any = None) -> dict[str, Any]:
        return _C._cuda_memorySnapshot(None)
