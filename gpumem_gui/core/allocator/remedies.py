"""Remedies for an OOM (or a high peak), each verified by replaying the device's trace under it with the simulator.

Candidates: expandable_segments:True; max_split_size_mb at a few values below the request; a garbage collection
threshold with a memory fraction where the trace tells the device's capacity (an OOM's device_free); and the failing
request made as small as the diagnosis found would fit. empty_cache() before the request is not among them: the
replay only repeats the program's own empty_cache() calls, and the allocator releases what empty_cache() would before
any OOM anyway. Then the program changes of program_remedies.py, each replayed as a changed trace up to the
request explained (the whole trace at a peak), and, where neither a setting nor a program change alone fits, the
two together. Long traces replay in parallel processes (each replay of 3M events takes seconds): every candidate
is replayed at once, the settings' and the program changes' alike.
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

from gpumem_gui.core.allocator.inferred_pools import InferredPool
from gpumem_gui.core.allocator.program_remedies import ProgramCandidate, program_candidates
from gpumem_gui.core.allocator.replay import Outcome, ReplayResult, recorded_settings, replay, replay_outcome
from gpumem_gui.core.allocator.trace_transforms import ChangedTrace
from gpumem_gui.core.analysis.diagnosis import Diagnosis, Remedy, diagnose
from gpumem_gui.core.analysis.explain_output import remedy_findings
from gpumem_gui.core.analysis.timetravel import DeviceTimeline
from gpumem_gui.core.rules.alloc_conf import AllocConfError, parse_alloc_conf
from gpumem_gui.core.rules.allocator_constants import MiB
from gpumem_gui.core.snapshot.model import Action, Snapshot
from gpumem_gui.core.snapshot.sentences import QT_TRANSLATE_NOOP, joined, say
from gpumem_gui.core.snapshot.units import format_bytes, format_bytes_exact

PARALLEL_EVENTS = 200_000  # from this many trace events on, replays run in parallel processes
LONG_TRACE = 1_000_000  # from this many on, one max_split_size_mb value is replayed, not three
# The garbage collector runs only under a memory fraction below 1.0: PyTorch's newest allocator keeps no maximum (and
# so never collects) at 1.0, older ones collect after any set_per_process_memory_fraction call; 0.99 is read alike
GC_SETTINGS = "garbage_collection_threshold:0.6,per_process_memory_fraction:0.99"
MIN_SPLIT_MB = 32  # max_split_size_mb must be above 20 (PyTorch refuses less); smaller values split little anyway


MAX_COMBINED = 2  # program changes replayed with a setting, where neither alone fits


@dataclass(frozen=True)
class Candidate:
    settings: str  # what the user would change, as shown
    overrides: tuple[str, ...]  # PYTORCH_CUDA_ALLOC_CONF items replayed on top of the recorded settings
    smaller_request: int | None = None  # the first OOM's request replaced by this many bytes
    program: ProgramCandidate | None = None  # a change of the program, replayed as its changed trace

    @property
    def changed(self) -> ChangedTrace | None:
        return self.program.changed if self.program is not None else None


@dataclass(frozen=True)
class Explanation:
    diagnosis: Diagnosis
    remedies: list[Remedy]
    notes: list[str]  # candidates skipped and replays that failed, and why
    baseline: str = ""  # how the recorded settings replay
    plans: list[Candidate] = dataclasses.field(default_factory=list)  # what each remedy replayed, in their order
    options: dict[str, Any] = dataclasses.field(default_factory=dict)  # replay()'s torch_version and device_memory

    @property
    def remedy_sentences(self) -> list[str]:
        return remedy_findings(self.diagnosis, self.remedies, self.notes, self.baseline, self.pools)

    def replay_remedy(self, snapshot: Snapshot, index: int) -> ReplayResult:
        """The full replay of remedy `index` (its settings, its changed trace), to show beside the recording: its
        `replayed_event` pairs each recorded event with the replayed one, so the explained moment
        (diagnosis.moment.event) opens at the request it explains. The changed trace itself is
        `plans[index].changed` (None for a setting)."""
        plan = self.plans[index]
        device = self.diagnosis.device
        if plan.smaller_request is not None:
            snapshot = _with_smaller_request(snapshot, device, plan.smaller_request)
        return replay(
            snapshot,
            device=device,
            overrides=list(plan.overrides),
            change=plan.changed,
            timeline=self.diagnosis.timeline,
            **self.options,
        )

    @property
    def pools(self) -> list[InferredPool]:
        """The private pools the trace does not name that the recorded settings' replay inferred and every remedy's
        replay carried (none where the trace needs none, or nothing was replayed)."""
        return list(self.options.get("pools") or [])

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
    gpus: int | None = None,
    torch_version: str | None = None,
    device_memory: int | None = None,
    capacity: int | None = None,
) -> Explanation:
    """The diagnosis of the moment, and the remedies replayed (none for a file without a trace).

    `parallel` (default: for long traces) forks worker processes: pass False from a process with threads (the
    window), where a fork may deadlock. `timeline`: the device's timeline, when the caller has it (not rebuilt).
    `check()` is called before each replay, and raises to cancel (sequential replays only). `gpus`: how many GPUs
    the sharding remedy shards over (default: the file's devices, else 2). `torch_version` and `device_memory` go to
    every replay (see replay.replay), and `capacity` too: what the process could get (the limit of an OOM the device
    had room for, which a trace does not record; default: what the recording tells)."""
    diagnosis = diagnose(snapshot, device, at, timeline=timeline, capacity=capacity)
    if not diagnosis.timeline.n_events:
        return Explanation(diagnosis, [], [NO_TRACE])
    candidates, notes = candidates_for(snapshot, diagnosis)
    programs, program_notes = program_candidates(snapshot, diagnosis, gpus)
    candidates += [_program(p) for p in programs]
    every = [BASELINE, *candidates]
    device, timeline = diagnosis.device, diagnosis.timeline
    # a change that leaves the whole recorded trace as it is (empty_cache() at a peak) replays as the baseline
    recorded = snapshot.trace(device)
    same = [c.changed is not None and c.changed.trace is recorded and not c.overrides for c in every]
    to_run = [c for c, s in zip(every, same, strict=True) if not s]
    options: dict[str, Any] = {"torch_version": torch_version, "device_memory": device_memory, "capacity": capacity}
    found, pools = _with_recorded_pools(snapshot, device, timeline, to_run, parallel, check, options)
    options["pools"] = pools  # the private pools the baseline inferred, carried into every other replay
    ran = iter(found)
    results: list[Outcome | str] = []
    for is_same in same:  # the baseline comes first, never the same
        results.append(results[0] if is_same else next(ran))
    combined = _combinations(diagnosis, candidates, results[1:])
    if combined:
        every += combined
        results += replay_outcomes(
            snapshot, device, timeline, combined, parallel=parallel, check=check, options=options
        )
    baseline = results[0]
    remedies: list[Remedy] = []
    plans: list[Candidate] = []
    failures: list[str] = []
    for c, r in zip(every[1:], results[1:], strict=True):
        if isinstance(r, str):
            failures.append(r)
        else:
            remedies.append(_remedy(c, r, diagnosis, baseline))
            plans.append(c)
    notes += program_notes
    baseline_sentence = _baseline_sentence(diagnosis, baseline)
    return Explanation(diagnosis, remedies, notes + failures, baseline_sentence, plans, options)


def _with_recorded_pools(  # noqa: PLR0917 (explain's replays, passed on)
    snapshot: Snapshot,
    device: int,
    timeline: DeviceTimeline,
    to_run: list[Candidate],
    parallel: bool | None,
    check: Callable[[], None] | None,
    options: dict[str, Any],
) -> tuple[list[Outcome | str], list[InferredPool]]:
    """The candidates replayed (`to_run[0]` the baseline), and the private pools the trace does not name that the
    baseline's replay inferred (inferred_pools.py), carried into the others': the program keeps the pool's memory
    apart under any settings. In sequence the baseline goes first; in parallel all go at once, none carrying a pool,
    and only where the baseline inferred one are the others replayed again with it (no time lost where none is)."""
    if parallel is None:
        parallel = len(snapshot.trace(device)) >= PARALLEL_EVENTS and len(to_run) > 1
    if parallel and "fork" in multiprocessing.get_all_start_methods():
        none = {**options, "pools": []}
        found = replay_outcomes(snapshot, device, timeline, to_run, parallel=True, check=check, options=none)
        pools = list(found[0].inferred_pools) if isinstance(found[0], Outcome) else []
        if pools and len(to_run) > 1:
            carried = {**options, "pools": pools}
            found[1:] = replay_outcomes(snapshot, device, timeline, to_run[1:], parallel=True, options=carried)
        return found, pools
    found = replay_outcomes(snapshot, device, timeline, to_run[:1], parallel=False, check=check, options=options)
    pools = list(found[0].inferred_pools) if isinstance(found[0], Outcome) else []
    carried = {**options, "pools": pools}
    found += replay_outcomes(snapshot, device, timeline, to_run[1:], parallel=False, check=check, options=carried)
    return found, pools


def _program(p: ProgramCandidate) -> Candidate:
    return Candidate(",".join(p.overrides), p.overrides, program=p)


def _combinations(diagnosis: Diagnosis, candidates: list[Candidate], results: list[Outcome | str]) -> list[Candidate]:
    """Where no setting and no program change alone lets the OOM's request fit: the program changes that free the
    most, each with the setting whose replay came closest (fewest OOMs, then the least reserved)."""
    if not diagnosis.timeline.ooms:
        return []
    done = [(c, r) for c, r in zip(candidates, results, strict=True) if isinstance(r, Outcome)]
    if any(r.oom_events == 0 and not r.unjudged for _c, r in done):
        return []
    settings = [(c, r) for c, r in done if c.program is None and c.overrides and not r.unjudged]
    programs = [c for c, _r in done if c.program is not None and c.program.frees_bytes > 0]
    if not settings or not programs:
        return []
    best = min(settings, key=lambda cr: (cr[1].oom_events, cr[1].peak_reserved_bytes))[0]
    programs.sort(key=lambda c: -c.program.frees_bytes if c.program else 0)
    out = []
    for c in programs[:MAX_COMBINED]:
        assert c.program is not None
        change = say(
            QT_TRANSLATE_NOOP("Remedies", "{change}, with {settings}"), change=c.program.change, settings=best.settings
        )
        p = dataclasses.replace(c.program, change=change, overrides=best.overrides)
        out.append(_program(p))
    return out


def _remedy(c: Candidate, r: Outcome, diagnosis: Diagnosis, baseline: Outcome | str) -> Remedy:
    """The verdict of one candidate's replay."""
    headroom = None
    if isinstance(baseline, Outcome) and not diagnosis.timeline.ooms:  # a peak: both replays run the whole trace
        headroom = baseline.peak_reserved_bytes - r.peak_reserved_bytes
    verdict = Remedy(
        c.settings,
        r.oom_events == 0,
        r.oom_events,
        r.peak_reserved_bytes,
        r.unjudged,
        change=c.settings,
        assumes=REPLAY_ASSUMES,
        headroom_bytes=headroom,
    )
    if c.program is not None:
        p = c.program
        settings = r.settings if c.overrides else ""
        return dataclasses.replace(
            verdict, settings=settings, kind="program", change=p.change, frees_bytes=p.frees_bytes, assumes=p.assumes
        )
    if c.smaller_request is not None:
        return dataclasses.replace(
            verdict,
            kind="program",
            change=say(
                QT_TRANSLATE_NOOP(
                    "Remedies", "make the failing request {size} (compute it in chunks, or a smaller shape)"
                ),
                size=format_bytes_exact(c.smaller_request),
            ),
            frees_bytes=diagnosis.timeline.ooms[0].requested_bytes - c.smaller_request,
            assumes=QT_TRANSLATE_NOOP(
                "Remedies", "only the failing request changes; every other request is as recorded"
            ),
        )
    return verdict


REPLAY_ASSUMES = QT_TRANSLATE_NOOP(
    "Remedies", "the program makes the same requests in the same order under these settings"
)
NO_TRACE = QT_TRANSLATE_NOOP("Remedies", "There is no trace to replay, so no remedy could be verified.")


BASELINE = Candidate("the recorded settings", ())


def _baseline_sentence(diagnosis: Diagnosis, baseline: Outcome | str) -> str:
    """Whether the simulator reproduces the recorded run: the remedies' verdicts are only as good as that."""
    if isinstance(baseline, str):
        return baseline
    recorded = len(diagnosis.timeline.ooms)
    peak = format_bytes(baseline.peak_reserved_bytes)
    if recorded and baseline.oom_events:
        return say(
            QT_TRANSLATE_NOOP(
                "Remedies",
                "Replayed under the recorded settings, the simulator runs out of memory too (peak reserved {peak}).",
            ),
            peak=peak,
        )
    if recorded:
        return QT_TRANSLATE_NOOP(
            "Remedies",
            "Replayed under the recorded settings, the simulator does not run out of memory: it does not reproduce"
            " this run, so the remedies below are less certain.",
        )
    return say(
        QT_TRANSLATE_NOOP("Remedies", "Replayed under the recorded settings, the peak reserved is {peak}."), peak=peak
    )


def candidates_for(snapshot: Snapshot, diagnosis: Diagnosis) -> tuple[list[Candidate], list[str]]:
    """The candidates worth replaying for this moment, and a sentence for each one left out."""
    notes: list[str] = []
    try:
        recorded = parse_alloc_conf(recorded_settings(snapshot))
    except AllocConfError:
        recorded = parse_alloc_conf("")
    out: list[Candidate] = []
    if recorded.expandable_segments:
        notes.append(QT_TRANSLATE_NOOP("Remedies", "expandable_segments was already on in the recorded run."))
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
            say(
                QT_TRANSLATE_NOOP(
                    "Remedies",
                    "Of the max_split_size_mb values only {value} was tried: each replay of a trace this long takes"
                    " seconds (try others with `gpumem-gui replay --set`).",
                ),
                value=values[1],
            )
        )
        values = values[1:2]
    for mb in values:
        out.append(Candidate(f"max_split_size_mb:{mb}", (f"max_split_size_mb:{mb}",)))
    if request and not _split_values(request):
        notes.append(
            say(
                QT_TRANSLATE_NOOP(
                    "Remedies",
                    "max_split_size_mb was not tried: the request ({request}) is below the smallest useful value"
                    " ({smallest} MB), so it would be split as before.",
                ),
                request=format_bytes(request),
                smallest=MIN_SPLIT_MB,
            )
        )
    if diagnosis.timeline.ooms:
        out.append(Candidate(GC_SETTINGS, tuple(GC_SETTINGS.split(","))))
    else:
        notes.append(
            QT_TRANSLATE_NOOP(
                "Remedies",
                "garbage_collection_threshold was not tried: it acts against a memory fraction of the device, and a"
                " trace without an OOM does not tell the device's capacity.",
            )
        )
    if diagnosis.timeline.ooms:
        notes.append(
            QT_TRANSLATE_NOOP(
                "Remedies",
                "empty_cache() before the failing request was not replayed: the replay only repeats the program's own"
                " empty_cache() calls (and the allocator releases the same segments before any OOM).",
            )
        )
    pools = private_pool_note(diagnosis)
    if pools:
        notes.append(pools)
    if oom is not None and oom.event == diagnosis.timeline.ooms[0].index and oom.fits_up_to_bytes > 0:
        size = oom.fits_up_to_bytes
        out.append(Candidate(f"the request made {format_bytes(size)} ({size:,} bytes)", (), smaller_request=size))
    return out, notes


def private_pool_note(diagnosis: Diagnosis) -> str:
    """A sentence on the private pools' share of the moment's reserved memory ("" when there is none): the
    replays keep their blocks for their own requests, and no setting or empty_cache() frees a pool still in use."""
    pools = {k: m for k, m in diagnosis.report.groups.by_private_pool.items() if m.reserved_bytes}
    if not pools:
        return ""
    held = sum(m.reserved_bytes for m in pools.values())
    each = joined(
        (
            say(
                QT_TRANSLATE_NOOP("Remedies", "{bytes} in pool {pool}"),
                bytes=format_bytes(m.reserved_bytes),
                pool=str(k),
            )
            for k, m in sorted(pools.items())
        ),
        ", ",
    )
    return say(
        QT_TRANSLATE_NOOP(
            "Remedies",
            "Private pools (CUDA graphs, torch.cuda.MemPool) hold {held} of the {reserved} reserved at this moment"
            " ({each}). The replays keep those blocks for the pools' own requests, and empty_cache() gives a pool's"
            " memory back only once the graphs using it are destroyed (or the MemPool deleted).",
        ),
        held=format_bytes(held),
        reserved=format_bytes(diagnosis.report.metrics.reserved_bytes),
        each=each,
    )


def _split_values(request: int) -> list[int]:
    """max_split_size_mb values below the request: the largest power of two MiB not above it, its half and quarter
    (blocks that large are then kept whole for requests that large, not carved by small ones)."""
    if request < MIN_SPLIT_MB * MiB:
        return [128, 256, 512] if not request else []
    top = 1 << ((request // MiB).bit_length() - 1)
    return [mb for mb in (top // 4, top // 2, top) if mb >= MIN_SPLIT_MB]


# what forked workers read (inherited, not pickled): the snapshot, the device, its timeline, the candidates and
# replay()'s options
_JOB: tuple[Snapshot, int, DeviceTimeline | None, list[Candidate], dict[str, Any]] | None = None


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
    found = replay_outcomes(snapshot, device, None, candidates, parallel=parallel, check=check, options=options)
    return [
        r
        if isinstance(r, str)
        else Remedy(c.settings, r.oom_events == 0, r.oom_events, r.peak_reserved_bytes, r.unjudged)
        for c, r in zip(candidates, found, strict=True)
    ]


def replay_outcomes(
    snapshot: Snapshot,
    device: int,
    timeline: DeviceTimeline | None,
    candidates: list[Candidate],
    *,
    parallel: bool | None = None,
    check: Callable[[], None] | None = None,
    options: dict[str, Any] | None = None,
) -> list[Outcome | str]:
    """Each candidate replayed, in order: its OOMs and peak, or a sentence saying why its replay failed.
    `timeline`: the device's recorded timeline, when the caller has it (each replay then reuses it)."""
    global _JOB  # noqa: PLW0603 (forked workers inherit it: the snapshot is never pickled)
    if parallel is None:
        parallel = len(snapshot.trace(device)) >= PARALLEL_EVENTS and len(candidates) > 1
    can_fork = "fork" in multiprocessing.get_all_start_methods()
    _JOB = (snapshot, device, timeline, candidates, options or {})
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


def _run(index: int) -> Outcome | str:
    assert _JOB is not None
    snapshot, device, timeline, candidates, options = _JOB
    c = candidates[index]
    if c.smaller_request is not None:
        snapshot = _with_smaller_request(snapshot, device, c.smaller_request)
    if c is BASELINE:  # the recorded settings: its replay infers the pools the trace does not name
        options = {k: v for k, v in options.items() if k != "pools"}
    try:
        overrides = list(c.overrides)
        return replay_outcome(
            snapshot, device=device, overrides=overrides, change=c.changed, timeline=timeline, **options
        )
    except Exception as e:  # a simulator bug must not hide the other remedies
        what = c.program.change if c.program else c.settings
        return say(
            QT_TRANSLATE_NOOP("Remedies", "The replay with {what} failed ({error}); it is left out."),
            what=what,
            error=f"{type(e).__name__}: {e}",
        )


def _with_smaller_request(snapshot: Snapshot, device: int, size: int) -> Snapshot:
    """The snapshot with the first OOM's request made `size` bytes (the replay then tries that instead)."""
    trace = snapshot.trace(device)
    first = int(np.flatnonzero(trace.action == Action.OOM)[0])
    sizes = trace.size.copy()
    sizes[first] = size
    traces = list(snapshot.traces)
    traces[device] = dataclasses.replace(trace, size=sizes)
    return dataclasses.replace(snapshot, traces=traces)
