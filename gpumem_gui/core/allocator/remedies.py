"""Remedies for an OOM (or a high peak), each verified by replaying the device's trace under it with the simulator.

Candidates: expandable_segments:True; max_split_size_mb at a few values below the request; a garbage collection
threshold with a memory fraction where the trace tells the device's capacity (an OOM's device_free); and the failing
request made as small as the diagnosis found would fit. empty_cache() before the request is not among them: the
replay only repeats the program's own empty_cache() calls, and the allocator releases what empty_cache() would before
any OOM anyway. Long traces replay in parallel processes (each replay of 3M events takes seconds).
"""

from __future__ import annotations

import dataclasses
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np

from gpumem_gui.core.allocator.replay import recorded_settings, replay
from gpumem_gui.core.analysis.diagnosis import Diagnosis, Remedy, diagnose
from gpumem_gui.core.analysis.explain_output import remedy_findings
from gpumem_gui.core.analysis.timetravel import DeviceTimeline
from gpumem_gui.core.rules.alloc_conf import AllocConfError, parse_alloc_conf
from gpumem_gui.core.rules.allocator_constants import MiB
from gpumem_gui.core.snapshot.model import Action, Snapshot
from gpumem_gui.core.snapshot.units import format_bytes

PARALLEL_EVENTS = 200_000  # from this many trace events on, replays run in parallel processes
LONG_TRACE = 1_000_000  # from this many on, one max_split_size_mb value is replayed, not three
GC_SETTINGS = "garbage_collection_threshold:0.6,per_process_memory_fraction:1.0"
MIN_SPLIT_MB = 32  # max_split_size_mb must be above 20 (PyTorch refuses less); smaller values split little anyway


@dataclass(frozen=True)
class Candidate:
    settings: str  # what the user would change, as shown
    overrides: tuple[str, ...]  # PYTORCH_CUDA_ALLOC_CONF items replayed on top of the recorded settings
    smaller_request: int | None = None  # the first OOM's request replaced by this many bytes


@dataclass(frozen=True)
class Explanation:
    diagnosis: Diagnosis
    remedies: list[Remedy]
    notes: list[str]  # candidates skipped and replays that failed, and why
    baseline: str = ""  # how the recorded settings replay

    @property
    def remedy_sentences(self) -> list[str]:
        return remedy_findings(self.diagnosis, self.remedies, self.notes, self.baseline)

    @property
    def findings(self) -> list[str]:
        return self.diagnosis.findings + self.remedy_sentences


def explain(
    snapshot: Snapshot,
    device: int | None = None,
    at: int | None = None,
    *,
    parallel: bool | None = None,
    timeline: DeviceTimeline | None = None,
    check: Callable[[], None] | None = None,
    torch_version: str | None = None,
    device_memory: int | None = None,
) -> Explanation:
    """The diagnosis of the moment, and the remedies replayed (none for a file without a trace).

    `parallel` (default: for long traces) forks worker processes: pass False from a process with threads (the
    window), where a fork may deadlock. `timeline`: the device's timeline, when the caller has it (not rebuilt).
    `check()` is called before each replay, and raises to cancel (sequential replays only). `torch_version` and
    `device_memory` go to every replay (see replay.replay)."""
    diagnosis = diagnose(snapshot, device, at, timeline=timeline)
    if not diagnosis.timeline.n_events:
        return Explanation(diagnosis, [], ["There is no trace to replay, so no remedy could be verified."])
    candidates, notes = candidates_for(snapshot, diagnosis)
    options = {"torch_version": torch_version, "device_memory": device_memory}
    results = replay_candidates(
        snapshot, diagnosis.device, [BASELINE, *candidates], parallel=parallel, check=check, options=options
    )
    remedies = [r for r in results[1:] if isinstance(r, Remedy)]
    failures = [r for r in results[1:] if isinstance(r, str)]
    return Explanation(diagnosis, remedies, notes + failures, _baseline_sentence(diagnosis, results[0]))


BASELINE = Candidate("the recorded settings", ())


def _baseline_sentence(diagnosis: Diagnosis, baseline: Remedy | str) -> str:
    """Whether the simulator reproduces the recorded run: the remedies' verdicts are only as good as that."""
    if isinstance(baseline, str):
        return baseline
    recorded = len(diagnosis.timeline.ooms)
    peak = format_bytes(baseline.peak_reserved_bytes)
    if recorded and baseline.oom_events:
        return f"Replayed under the recorded settings, the simulator runs out of memory too (peak reserved {peak})."
    if recorded:
        return (
            "Replayed under the recorded settings, the simulator does not run out of memory: it does not reproduce"
            " this run, so the remedies below are less certain."
        )
    return f"Replayed under the recorded settings, the peak reserved is {peak}."


def candidates_for(snapshot: Snapshot, diagnosis: Diagnosis) -> tuple[list[Candidate], list[str]]:
    """The candidates worth replaying for this moment, and a sentence for each one left out."""
    notes: list[str] = []
    try:
        recorded = parse_alloc_conf(recorded_settings(snapshot))
    except AllocConfError:
        recorded = parse_alloc_conf("")
    out: list[Candidate] = []
    if recorded.expandable_segments:
        notes.append("expandable_segments was already on in the recorded run.")
    else:
        out.append(Candidate("expandable_segments:True", ("expandable_segments:True",)))
    oom = diagnosis.oom
    if oom is None and diagnosis.timeline.ooms:  # --at elsewhere: the remedies are still for the first OOM
        first = diagnosis.timeline.ooms[0]
        request = first.requested_bytes
    else:
        request = oom.request_bytes if oom else 0
    values = _split_values(request)
    if len(values) > 1 and diagnosis.timeline.n_events >= LONG_TRACE:
        notes.append(
            f"Of the max_split_size_mb values only {values[1]} was tried: each replay of a trace this long takes"
            " seconds (try others with `gpumem-gui replay --set`)."
        )
        values = values[1:2]
    for mb in values:
        out.append(Candidate(f"max_split_size_mb:{mb}", (f"max_split_size_mb:{mb}",)))
    if request and not _split_values(request):
        notes.append(
            f"max_split_size_mb was not tried: the request ({format_bytes(request)}) is below the smallest useful"
            f" value ({MIN_SPLIT_MB} MB), so it would be split as before."
        )
    if diagnosis.timeline.ooms:
        out.append(Candidate(GC_SETTINGS, tuple(GC_SETTINGS.split(","))))
    else:
        notes.append(
            "garbage_collection_threshold was not tried: it acts against a memory fraction of the device, and a trace"
            " without an OOM does not tell the device's capacity."
        )
    if diagnosis.timeline.ooms:
        notes.append(
            "empty_cache() before the failing request was not replayed: the replay only repeats the program's own"
            " empty_cache() calls (and the allocator releases the same segments before any OOM)."
        )
    if oom is not None and oom.event == diagnosis.timeline.ooms[0].index and oom.fits_up_to_bytes > 0:
        size = oom.fits_up_to_bytes
        out.append(Candidate(f"the request made {format_bytes(size)} ({size:,} bytes)", (), smaller_request=size))
    return out, notes


def _split_values(request: int) -> list[int]:
    """max_split_size_mb values below the request: the largest power of two MiB not above it, its half and quarter
    (blocks that large are then kept whole for requests that large, not carved by small ones)."""
    if request < MIN_SPLIT_MB * MiB:
        return [128, 256, 512] if not request else []
    top = 1 << ((request // MiB).bit_length() - 1)
    return [mb for mb in (top // 4, top // 2, top) if mb >= MIN_SPLIT_MB]


# what forked workers read (inherited, not pickled): the snapshot, the device, the candidates, replay()'s options
_JOB: tuple[Snapshot, int, list[Candidate], dict[str, Any]] | None = None


def replay_candidates(
    snapshot: Snapshot,
    device: int,
    candidates: list[Candidate],
    *,
    parallel: bool | None = None,
    check: Callable[[], None] | None = None,
    options: dict[str, Any] | None = None,
) -> list[Remedy | str]:
    """Each candidate replayed, in order: its remedy, or a sentence saying why its replay failed. `check()` runs
    before each sequential replay (and once before parallel ones): what it raises stops them."""
    global _JOB  # noqa: PLW0603 (forked workers inherit it: the snapshot is never pickled)
    if parallel is None:
        parallel = len(snapshot.trace(device)) >= PARALLEL_EVENTS and len(candidates) > 1
    can_fork = "fork" in multiprocessing.get_all_start_methods()
    _JOB = (snapshot, device, candidates, options or {})
    try:
        if check is not None:
            check()
        if parallel and can_fork:
            workers = min(len(candidates), os.cpu_count() or 1)
            context = multiprocessing.get_context("fork")
            with ProcessPoolExecutor(workers, mp_context=context) as pool:
                results = list(pool.map(_run, range(len(candidates))))
        else:
            results = []
            for i in range(len(candidates)):
                if check is not None and i:
                    check()
                results.append(_run(i))
    finally:
        _JOB = None
    return results


def _run(index: int) -> Remedy | str:
    assert _JOB is not None
    snapshot, device, candidates, options = _JOB
    c = candidates[index]
    if c.smaller_request is not None:
        snapshot = _with_smaller_request(snapshot, device, c.smaller_request)
    try:
        result = replay(snapshot, device=device, overrides=list(c.overrides), **options)
    except Exception as e:  # a simulator bug must not hide the other remedies
        return f"The replay with {c.settings} failed ({type(e).__name__}: {e}); it is left out."
    r = result.replayed
    return Remedy(c.settings, r.oom_events == 0, r.oom_events, r.peak_reserved_bytes, result.unjudged)


def _with_smaller_request(snapshot: Snapshot, device: int, size: int) -> Snapshot:
    """The snapshot with the first OOM's request made `size` bytes (the replay then tries that instead)."""
    trace = snapshot.trace(device)
    first = int(np.flatnonzero(trace.action == Action.OOM)[0])
    sizes = trace.size.copy()
    sizes[first] = size
    traces = list(snapshot.traces)
    traces[device] = dataclasses.replace(trace, size=sizes)
    return dataclasses.replace(snapshot, traces=traces)
