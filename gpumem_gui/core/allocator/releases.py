"""Releases in a trace: which runs of segment_free/segment_unmap were empty_cache() calls, which the allocator's."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gpumem_gui.core.snapshot.model import Action, StackTable, TraceTable

_RELEASE = (Action.SEGMENT_FREE, Action.SEGMENT_UNMAP)
_ACQUIRE = (Action.SEGMENT_ALLOC, Action.SEGMENT_MAP)


@dataclass(frozen=True)
class ReleaseRun:
    """Trace rows start .. stop-1 are one release; `explicit` when the program called empty_cache() there."""

    start: int
    stop: int
    explicit: bool
    reason: str


def release_runs(trace: TraceTable, stacks: StackTable) -> list[ReleaseRun]:
    """Every maximal run of segment_free/segment_unmap rows of `trace`, labelled.

    PyTorch's allocator gives memory back on its own only inside a malloc that found no cached block and whose
    cudaMalloc (or page map) failed, or under garbage_collection_threshold: release_available_cached_blocks,
    release_cached_blocks or garbage_collect_cached_blocks, each followed at once by the retried device call
    (segment_alloc / segment_map) or, when even that fails, by the oom entry. Those frees carry the stack of the
    request that needed the memory (the malloc's context), so they share its stack index. An empty_cache() call
    gathers a context of its own (or none, and each free then shows its segment's stack). Hence:

    - a run followed by anything but segment_alloc, segment_map or oom (or by nothing) is explicit: no request
      was waiting for the memory;
    - a run whose stacks show a frame named `empty_cache` is explicit;
    - otherwise, where the run or the next row has a stack, the run is the allocator's own exactly when every
      row of it has the next row's stack;
    - with no stacks at all (history recorded without context) the run right before a device call or an OOM
      is taken for the allocator's own: from the trace alone the two cannot be told apart there.
    """
    actions = trace.action
    n = len(actions)
    is_release = np.isin(actions, _RELEASE)
    if not is_release.any():
        return []
    # run starts and stops from the edges of the mask
    edges = np.diff(np.concatenate(([0], is_release.view(np.int8), [0])))
    starts = np.flatnonzero(edges == 1).tolist()
    stops = np.flatnonzero(edges == -1).tolist()
    stack_of = trace.stack
    runs = []
    for start, stop in zip(starts, stops, strict=True):
        run_stacks = {int(k) for k in stack_of[start:stop]}
        follows = int(actions[stop]) if stop < n else None
        if follows not in (*_ACQUIRE, Action.OOM):
            runs.append(ReleaseRun(start, stop, True, "no request waited for the memory"))
        elif any(_calls_empty_cache(stacks, k) for k in run_stacks):
            runs.append(ReleaseRun(start, stop, True, "its stack shows empty_cache()"))
        elif run_stacks == {-1} and int(stack_of[stop]) == -1:
            runs.append(ReleaseRun(start, stop, False, "right before a device call, no stacks to tell"))
        elif run_stacks == {int(stack_of[stop])}:
            runs.append(ReleaseRun(start, stop, False, "the stack of the request that needed the memory"))
        else:
            runs.append(ReleaseRun(start, stop, True, "a stack other than the next request's"))
    return runs


def _calls_empty_cache(stacks: StackTable, index: int) -> bool:
    return any(f.name == "empty_cache" for f in stacks.stack(index))


def capacity_bound(trace: TraceTable, reserved: np.ndarray, initial: int, runs: list[ReleaseRun]) -> int | None:
    """The largest device size consistent with the allocator's own releases, or None when none says.

    A release the allocator made before a device call means that call did not fit: the device (as this process
    saw it) was smaller than what was reserved before the release plus what the call then mapped or allocated.
    `reserved` is the recorded reserved bytes after each trace row, `initial` before the first.
    """
    actions, sizes = trace.action, trace.size
    n = len(actions)
    bound: int | None = None
    for run in runs:
        if run.explicit or run.stop >= n or int(actions[run.stop]) not in _ACQUIRE:
            continue
        before = int(reserved[run.start - 1]) if run.start else initial
        needed, j = 0, run.stop
        while j < n and int(actions[j]) in _ACQUIRE:  # a request may map several page runs
            needed += int(sizes[j])
            j += 1
        limit = before + needed - 1
        bound = limit if bound is None else min(bound, limit)
    return bound
