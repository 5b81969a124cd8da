"""The debugging challenge: an OOM snapshot, the block that pins the failure, its line, and fixes graded by replay.

The learner (i) clicks the live block that keeps the failed request from being served, (ii) names the line that
made it, and (iii) picks a fix. Nothing is keyed by hand:

- The pinning blocks are those the diagnosis names (core/analysis/diagnosis.py, PyTorch's malloc rule): under the
  "pin" rule, the live blocks of the segments whose release would have let cudaMalloc get the request's segment
  (device free + those segments >= the segment asked for); under the "split" rule, the live blocks between the holes
  of a segment whose holes together would serve the request though none alone does. A challenge needs one of them.
- The lines offered are the pinning blocks' site and the sites a learner mistakes for it: the line whose request
  failed, the line holding the most memory, then the next largest.
- The fixes are every candidate the remedies engine replays (core/allocator/remedies.py): allocator settings and
  program changes, each replayed up to the request that failed. The right fixes are those whose replay has no OOM;
  one that still fails is replayed in full, and its first OOM diagnosed, to say where and why. A simulated program
  (the leak) is also run to its end under each setting whose replay fits: a leak outgrows it a few steps later.

    challenge = build_challenge("fragmented_oom")     # loads and replays: off the GUI thread
"""

from __future__ import annotations

import contextlib
import pickle
import random
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from gpumem_gui.assets import example_path
from gpumem_gui.core.allocator.examples import training_loop
from gpumem_gui.core.allocator.program_remedies import STOP_KEEPING
from gpumem_gui.core.allocator.remedies import Explanation, explain
from gpumem_gui.core.allocator.simulator import DeviceAllocatorSim, OutOfMemoryError
from gpumem_gui.core.analysis.diagnosis import Diagnosis, OomAnalysis, Remedy, diagnose
from gpumem_gui.core.analysis.growth import find_growth
from gpumem_gui.core.rules.allocator_constants import GiB
from gpumem_gui.core.snapshot.convert import snapshot_from_object
from gpumem_gui.core.snapshot.loader import load_snapshot
from gpumem_gui.core.snapshot.model import Action, BlockState, Snapshot

Check = Callable[[], None]
_LINE = re.compile(r"\.py:\d+:")  # a site that names a line of Python
SITE_CHOICES = 4  # lines offered in step (ii)
LEAK_STEPS, LEAK_DEVICE = 40, 4 * GiB  # training_leak's program, run until its leak no longer fits


class ChallengeError(ValueError):
    """A snapshot that cannot make a challenge (no OOM, or no block the diagnosis names), in one line."""


def _leak_run(settings: str = "") -> DeviceAllocatorSim:
    sim = DeviceAllocatorSim(LEAK_DEVICE, settings)
    with contextlib.suppress(OutOfMemoryError):  # the program dies at its OOM; the snapshot is taken there
        training_loop(sim, leak=True, steps=LEAK_STEPS)
    return sim


def leak_until_oom() -> Snapshot:
    """The bundled training_leak's program (a 32 MiB hidden state kept every step) run on a 4 GiB device for 40 steps:
    it dies when a request no longer fits, and the snapshot is taken there."""
    return load_snapshot(pickle.dumps(_leak_run().snapshot(), protocol=4), name="training_leak_oom (simulated)")


def leak_rerun(settings: str) -> int | None:
    """The leak's whole program run again under `settings`: the event of its OOM, None when it runs its 40 steps.
    A recorded trace ends at the OOM, so its replay says only whether that request fits; the program itself goes on
    leaking, and a setting that made room for one request only moves the OOM a few steps on."""
    trace = _leak_run(settings).snapshot()["device_traces"][0]
    return next((i for i, e in enumerate(trace) if e["action"] == "oom"), None)


@dataclass(frozen=True)
class Source:
    """Where a challenge's snapshot comes from, and (a simulated program) how to run the whole program again under
    an allocator setting."""

    make: Callable[[], Snapshot]
    rerun: Callable[[str], int | None] | None = None


def _bundled(name: str) -> Source:
    return Source(lambda: load_snapshot(example_path(name)))


CHALLENGES: dict[str, Source] = {
    "fragmented_oom": _bundled("fragmented_oom"),
    "split_blocks_oom": _bundled("split_blocks_oom"),
    "training_leak_oom": Source(leak_until_oom, leak_rerun),
}


@dataclass(frozen=True)
class SiteChoice:
    site: str  # the site label (stacks.py), e.g. "model/transformer.py:171:lm_head"
    role: str  # "pins" (the right one), "failed" (the failed request's), "biggest", "other"


@dataclass(frozen=True)
class FixGrade:
    """A fix's replay: no OOM (and its peak), or where the first OOM stands and what it lacked."""

    fits: bool
    oom_events: int
    peak_reserved_bytes: int
    first_oom: int | None = None  # the recorded event the replay's first OOM stands for (None: none, or unknown)
    request_bytes: int = 0  # that OOM's request, its largest hole and the device's free memory (0: unknown)
    largest_hole_bytes: int = 0
    device_free_bytes: int = 0
    rerun_oom: int | None = None  # a setting whose replay fits, the whole program rerun under it: its OOM's event
    grows_bytes: float = 0.0  # a fix that fits while a site still grows step by step: its growth a step (a leak)


@dataclass(frozen=True)
class Fix:
    kind: str  # "setting" or "program" (Remedy.kind)
    settings: str  # the allocator settings replayed ("" for a program change alone)
    change: str  # the remedies engine's words for it (English): what challenge_texts words per language
    grade: FixGrade


@dataclass(frozen=True)
class BlockGrade:
    right: bool
    live: bool  # False: the learner clicked a free block (a hole), which is never what pins
    size: int
    segment_bytes: int = 0  # the block's segment: its size, its free bytes, its live blocks
    segment_free_bytes: int = 0
    segment_live_blocks: int = 0


@dataclass(frozen=True)
class Challenge:
    name: str
    snapshot: Snapshot
    diagnosis: Diagnosis
    pinning: frozenset[int]  # addresses of the live blocks that pin the failure
    sites: tuple[SiteChoice, ...]
    fixes: tuple[Fix, ...]

    @property
    def oom(self) -> OomAnalysis:
        assert self.diagnosis.oom is not None
        return self.diagnosis.oom

    @property
    def event(self) -> int:
        """The OOM event: the map shows the state right after it."""
        return self.oom.event

    @property
    def pin_site(self) -> str:
        return next(c.site for c in self.sites if c.role == "pins")

    @property
    def right_fixes(self) -> list[int]:
        return [i for i, f in enumerate(self.fixes) if f.grade.fits]

    def grade_block(self, address: int) -> BlockGrade:
        """A click on the block at `address` of the OOM's state."""
        blocks = self.diagnosis.report.state.blocks
        rows = np.flatnonzero(blocks.address == address)
        if not len(rows):
            return BlockGrade(False, False, 0)
        row = int(rows[0])
        live = int(blocks.state[row]) != BlockState.INACTIVE
        seg = int(blocks.segment[row])
        mine = blocks.segment == seg
        inactive = blocks.state == BlockState.INACTIVE
        return BlockGrade(
            live and address in self.pinning,
            live,
            int(blocks.size[row]),
            int(self.diagnosis.report.state.segments.total_size[seg]),
            int(blocks.size[mine & inactive].sum()),
            int((mine & ~inactive).sum()),
        )

    def grade_site(self, index: int) -> bool:
        return self.sites[index].role == "pins"

    def grade_fix(self, index: int) -> FixGrade:
        return self.fixes[index].grade


def pinning_blocks(diagnosis: Diagnosis) -> frozenset[int]:
    """The addresses of the live blocks that pin the OOM (empty when none does): those the diagnosis names, and the
    live blocks of every other segment of the request's pool and stream that would serve it alone, by its holes
    together ("split") or released to cudaMalloc ("pin": device free + the segment >= the segment asked for), and
    that is kept mostly for holes (its free bytes at least its live ones). A segment mostly live is held, not
    pinned: freeing a large live tensor makes room too, but that is the memory used, not a hole kept."""
    oom = diagnosis.oom
    if oom is None or not oom.splitters:
        return frozenset()
    state = diagnosis.report.state
    seg, blk = state.segments, state.blocks
    live = blk.state != BlockState.INACTIVE
    free_bytes = np.bincount(blk.segment, weights=np.where(live, 0, blk.size), minlength=len(seg)).astype(np.int64)
    live_bytes = seg.total_size - free_bytes
    mine = (seg.stream == oom.stream) & (seg.is_small == oom.small_pool) & ~seg.is_expandable
    alone = (free_bytes >= oom.request_bytes) | (oom.device_free_bytes + seg.total_size >= oom.segment_bytes)
    kept = mine & alone & (live_bytes > 0) & (free_bytes >= live_bytes)
    kept |= np.isin(seg.address, [s.segment for s in oom.splitters]) & (oom.splitter_rule == "pin")
    rows = np.flatnonzero(kept[blk.segment] & live)
    return frozenset({s.address for s in oom.splitters} | {int(a) for a in blk.address[rows]})


def site_choices(diagnosis: Diagnosis, name: str) -> tuple[SiteChoice, ...]:
    """The pinning blocks' site (the one holding most of their bytes), the failed request's, the largest, then the
    next largest sites at the OOM, in an order fixed by the challenge's name (the right one is not always first)."""
    oom = diagnosis.oom
    assert oom is not None
    weight: Counter[str] = Counter()
    for s in oom.splitters:
        weight[s.site] += s.size
    pins = weight.most_common(1)[0][0]
    chosen = [SiteChoice(pins, "pins")]
    by_size = [s.site for s in diagnosis.breakdown.by_site]
    candidates = [(oom.site, "failed")] + [(site, "biggest" if i == 0 else "other") for i, site in enumerate(by_size)]
    for site, role in candidates:
        # a source line each: a nameless site ("allocated before recording began") is no line to name
        if len(chosen) < SITE_CHOICES and _LINE.search(site) and site not in {c.site for c in chosen}:
            chosen.append(SiteChoice(site, role))
    random.Random(name).shuffle(chosen)
    return tuple(chosen)


def _first_oom(explanation: Explanation, snapshot: Snapshot, index: int) -> FixGrade:
    """A fix that still fails, replayed in full: the recorded event its first OOM stands for, and that OOM's
    request, largest hole and free device memory (the diagnosis of the replayed run)."""
    remedy = explanation.remedies[index]
    result = explanation.replay_remedy(snapshot, index)
    replayed = snapshot_from_object(result.snapshot, f"{snapshot.source} (replayed)", "dump")
    device = result.device
    ooms = np.flatnonzero(replayed.trace(device).action == Action.OOM)
    grade = FixGrade(False, remedy.oom_events, remedy.peak_reserved_bytes)
    if not len(ooms):
        return grade
    first = int(ooms[0])
    recorded = None
    if result.replayed_event is not None:
        at = np.flatnonzero(result.replayed_event >= first)
        recorded = int(at[0]) if len(at) else None
    o = diagnose(replayed, device, first).oom
    if o is None:
        return FixGrade(False, remedy.oom_events, remedy.peak_reserved_bytes, recorded)
    return FixGrade(
        False,
        remedy.oom_events,
        remedy.peak_reserved_bytes,
        recorded,
        o.request_bytes,
        o.largest_hole_bytes,
        o.device_free_bytes,
    )


def grade_fixes(
    explanation: Explanation,
    snapshot: Snapshot,
    check: Check | None = None,
    rerun: Callable[[str], int | None] | None = None,
) -> tuple[Fix, ...]:
    """Every remedy the engine replayed, graded by its replay (a remedy the trace cannot judge is left out). With
    `rerun` (a simulated program), a setting whose replay fits is graded by the whole program run under it too.
    Where a site grows step after step (a leak), a fix that fits but leaves the growth is wrong: the OOM comes back."""
    fixes = []
    growing = find_growth(snapshot, explanation.diagnosis.timeline).sites
    for i, r in enumerate(explanation.remedies):
        if r.unjudged:
            continue
        if check is not None:
            check()
        grade = FixGrade(True, 0, r.peak_reserved_bytes) if r.fits else _first_oom(explanation, snapshot, i)
        if grade.fits and rerun is not None and r.kind == "setting":
            later = rerun(r.settings)
            if later is not None:
                grade = FixGrade(False, r.oom_events, r.peak_reserved_bytes, rerun_oom=later)
        elif grade.fits and growing and not r.change.startswith(STOP_KEEPING):
            # the trace ends at the OOM, so its replay judges that request only; memory that grows a step at a
            # time outgrows whatever room a fix other than ending the growth makes, a few steps later
            grade = FixGrade(False, r.oom_events, r.peak_reserved_bytes, grows_bytes=growing[0].bytes_per_step)
        fixes.append(Fix(r.kind, r.settings, _change(r), grade))
    return tuple(fixes)


def _change(r: Remedy) -> str:
    return r.change if r.kind == "program" else r.settings


def challenge_on(
    snapshot: Snapshot, name: str, check: Check | None = None, rerun: Callable[[str], int | None] | None = None
) -> Challenge:
    """The challenge of `snapshot`'s first OOM; ChallengeError when it has none, or no block pins it. `rerun`: the
    whole program run under a setting (see grade_fixes)."""
    explanation = explain(snapshot, parallel=False, check=check)
    diagnosis = explanation.diagnosis
    if diagnosis.oom is None:
        raise ChallengeError(f"{name}: the snapshot has no OOM to debug")
    pinning = pinning_blocks(diagnosis)
    if not pinning:
        raise ChallengeError(f"{name}: no live block pins this OOM (it needs more memory than the device has)")
    fixes = grade_fixes(explanation, snapshot, check, rerun)
    return Challenge(name, snapshot, diagnosis, pinning, site_choices(diagnosis, name), fixes)


def build_challenge(name: str, check: Check | None = None) -> Challenge:
    """Challenge `name` (one of CHALLENGES), loaded or simulated, diagnosed and its fixes replayed."""
    source = CHALLENGES.get(name)
    if source is None:
        raise ChallengeError(f"unknown challenge '{name}' (known: {', '.join(CHALLENGES)})")
    snapshot = source.make()
    if check is not None:
        check()
    return challenge_on(snapshot, name, check, source.rerun)
