"""What grows: the steps of a training loop, and the allocation sites whose live bytes, measured at the same point
of every step, grow step after step (memory kept from each step: a leak's signature).

Steps are found, in this order, from
1. record_function ranges whose name repeats (`ProfilerStep#3` counts as `ProfilerStep`): measured at the end of
   each range;
2. the phases read from the stacks' frames (categories.event_phases): the optimizer's stretches, else zero_grad's,
   backward's or forward's, where at least MIN_STEPS of them come at a steady pace: measured at the end of each;
3. an allocation stack that recurs at a strictly steady pace over most of the trace: measured just before each.
Otherwise no steps are reported, and nothing is said to grow.

A site grows when its least-squares slope over the steps is at least MIN_GROWTH bytes per step and it holds more
than the step before after at least MIN_INCREASING of the steps. The slope alone would flag a site that jumps once
(optimizer state created in the first step); "more after most steps" alone would flag a few bytes of noise, and
under 1 MiB a step adds under 1 GiB in a thousand steps, below what would make anyone look.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from gpumem_gui.core.analysis.categories import (
    ACCUMULATE_GRAD,
    BACKWARD,
    FORWARD,
    OPTIMIZER,
    PHASE_NAMES,
    ZERO_GRAD,
    event_phases,
    stack_phases,
)
from gpumem_gui.core.analysis.timetravel import DeviceTimeline, Lifetimes
from gpumem_gui.core.snapshot.annotations import annotation_ranges
from gpumem_gui.core.snapshot.model import I8, I64, Action, Frame, Snapshot
from gpumem_gui.core.snapshot.sentences import Sentence
from gpumem_gui.core.snapshot.stacks import NO_SITE, stack_sites
from gpumem_gui.core.snapshot.units import format_bytes

MIN_STEPS = 3  # fewer points make no trend
MIN_GROWTH = 1 << 20  # bytes per step (1 MiB)
MIN_INCREASING = 0.75  # of the steps after which the site must hold more than before
MAX_POINTS = 1024  # more steps are measured every so many steps (the slope is scaled back to one step)
MAX_SITES = 50  # growing sites kept, most growth first
MAX_SENTENCES = 5  # growing sites named in the findings
STEADY = 0.5  # phase anchors: most gaps within this fraction of the median gap
STRICT = 1.5  # stack anchors: the longest gap at most this many times the shortest
MIN_GAP = 10  # stack anchors: events per step at the least (a forward and a backward of one tensor take more)

UNKNOWN_SITE = "unknown"
_STEP_NUMBER = re.compile(r"\s*#?\d+$")  # ProfilerStep#12 -> ProfilerStep
_PHASE_ANCHORS = (OPTIMIZER, ZERO_GRAD, BACKWARD, FORWARD)
_SHOWN_PHASES = frozenset({"forward", "backward", "optimizer", "zero_grad", "accumulate_grad", "load"})
KEPT = "memory kept from each step, e.g. a tensor appended to a list or a loss kept with its graph"


@dataclass(frozen=True)
class Steps:
    points: I64  # the event after which each step is measured (the same point of each step), increasing
    how: str  # how they were found, or why none were
    # `how` as a template marked for the window's translations and its fields ("" for none: `how` is said as is)
    template: str = ""
    fields: Mapping[str, str] = field(default_factory=dict)

    @property
    def found(self) -> bool:
        return len(self.points) >= MIN_STEPS


@dataclass(frozen=True)
class GrowingSite:
    site: str  # "file:line:function", as stacks.site_label names it ("unknown" without frames)
    phase: str  # the phase its stack names (categories.PHASE_NAMES)
    bytes_per_step: float  # least-squares slope over the steps
    steps: int  # steps found (every `Growth.stride`-th one measured)
    increases: int  # measured steps after which it held more than at the one before
    first_bytes: int  # live bytes at the first step's point
    last_bytes: int  # and at the last one
    stack: int  # the stack of most of its bytes allocated after the first step and live at the last
    frames: tuple[Frame, ...]  # that stack's frames, innermost first
    values: I64  # live bytes at each step measured


@dataclass(frozen=True)
class Growth:
    steps: Steps
    sites: list[GrowingSite]  # most growth per step first
    stride: int = 1  # steps between two measured points (1 unless there were over MAX_POINTS steps)

    @property
    def summary(self) -> str:
        if not self.steps.found:
            return self.steps.how
        template, fields = self.summary_template()
        return template.format_map(fields)

    def summary_template(self) -> tuple[str, dict[str, str]]:
        """The summary as a template marked for translation and its fields (`how`: the steps', said as it is)."""
        if not self.steps.found:
            return "{how}", {"how": self.steps.how}
        fields = {"n": str(len(self.steps.points)), "sites": str(len(self.sites)), "how": self.steps.how}
        if not self.sites:
            return QT_TRANSLATE_NOOP("Growth", "Nothing grows from step to step over {n} steps ({how})."), fields
        if len(self.sites) == 1:
            return QT_TRANSLATE_NOOP(
                "Growth", "1 allocation site grows from step to step over {n} steps ({how})."
            ), fields
        return QT_TRANSLATE_NOOP(
            "Growth", "{sites} allocation sites grow from step to step over {n} steps ({how})."
        ), fields


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # the name pyside6-lupdate looks for
    """Marks a sentence for the window's translations (core imports no Qt: the growth page translates it)."""
    return text


def _said(points: I64, template: str, fields: Mapping[str, str]) -> Steps:
    return Steps(points, template.format_map(fields), template, dict(fields))


def find_steps(snapshot: Snapshot, timeline: DeviceTimeline) -> Steps:
    """The steps of the device's trace (see the module docstring), or none with the reason."""
    if timeline.n_events == 0:
        none = QT_TRANSLATE_NOOP("Growth", "no repeating steps found: the file has no trace")
        return Steps(np.zeros(0, np.int64), none, none)
    steps = _annotated_steps(snapshot, timeline)
    if steps is None:
        phase, run = event_phases(snapshot, timeline)
        phase = np.where(phase == ACCUMULATE_GRAD, BACKWARD, phase)
        steps = _phase_steps(phase, run) or _stack_steps(snapshot, timeline, phase)
    if steps is not None:
        return steps
    template = QT_TRANSLATE_NOOP(
        "Growth",
        "no repeating steps found: no record_function range, phase or allocation repeats {n} times or more at a "
        "steady pace, so growth from step to step was not measured",
    )
    return _said(np.zeros(0, np.int64), template, {"n": str(MIN_STEPS)})


def _annotated_steps(snapshot: Snapshot, timeline: DeviceTimeline) -> Steps | None:
    n = timeline.n_events
    groups: dict[str, list[tuple[int, int]]] = {}
    for first, last, name in annotation_ranges(snapshot, timeline.device):
        if 0 <= first <= last < n:
            groups.setdefault(_STEP_NUMBER.sub("", name) or name, []).append((first, last))
    best: tuple[tuple[bool, int], str, I64] | None = None
    for name, spans in groups.items():
        starts = np.array([a for a, _ in spans], np.int64)
        ends = np.array([b for _, b in spans], np.int64)
        # a name whose ranges overlap or nest (recursion, threads) does not cut the trace into steps
        if len(spans) < MIN_STEPS or np.any(starts[1:] <= ends[:-1]):
            continue
        key = (name.startswith("ProfilerStep"), len(spans))
        if best is None or key > best[0]:
            best = (key, name, np.unique(ends))
    if best is None or len(best[2]) < MIN_STEPS:
        return None
    _, name, points = best
    template = QT_TRANSLATE_NOOP("Growth", "the end of each of the {n} '{name}' ranges recorded with record_function")
    return _said(points, template, {"n": str(len(points)), "name": name})


PHASES_STEPS = QT_TRANSLATE_NOOP("Growth", "the end of each of the {n} {name} phases, read from the stacks' frames")
# the phases a growth sentence names (categories.PHASE_NAMES), said in the window's language
PHASE_WORDS = (
    QT_TRANSLATE_NOOP("Growth", "forward"),
    QT_TRANSLATE_NOOP("Growth", "backward"),
    QT_TRANSLATE_NOOP("Growth", "optimizer"),
    QT_TRANSLATE_NOOP("Growth", "load"),
    QT_TRANSLATE_NOOP("Growth", "checkpoint"),
    QT_TRANSLATE_NOOP("Growth", "init"),
)


def _phase_steps(phase: I8, run: I64) -> Steps | None:
    """The ends of a phase's stretches, where they come at a steady pace and each step holds every main phase.

    A forward stretch between two backward ones (checkpointing's recomputation, a micro-batch's forward) is part
    of backward here, so that a backward pass cut by recomputation counts once."""
    n = len(phase)
    heads = np.flatnonzero(np.r_[True, run[1:] != run[:-1]])
    kinds = phase[heads].copy()
    inner = np.zeros(len(kinds), bool)
    inner[1:-1] = (kinds[1:-1] == FORWARD) & (kinds[:-2] == BACKWARD) & (kinds[2:] == BACKWARD)
    kinds[inner] = BACKWARD
    keep = np.r_[True, kinds[1:] != kinds[:-1]]
    heads, kinds = heads[keep], kinds[keep]
    lasts = np.r_[heads[1:] - 1, n - 1].astype(np.int64)
    for anchor in _PHASE_ANCHORS:
        ends = lasts[kinds == anchor]
        if len(ends) >= MIN_STEPS and _steady(np.diff(ends)) and _whole_steps(ends, phase):
            name = PHASE_NAMES[anchor]
            template = PHASES_STEPS
            return _said(ends, template, {"n": str(len(ends)), "name": name})
    return None


def _steady(gaps: I64) -> bool:
    """Most gaps (in events) within STEADY of their median: a loop, not a few phases at random."""
    if not len(gaps):
        return False
    median = float(np.median(gaps))
    close = np.abs(gaps - median) <= STEADY * median
    return bool(np.count_nonzero(close) >= MIN_INCREASING * len(gaps))


def _whole_steps(points: I64, phase: I8) -> bool:
    """Most steps hold an event of each of forward, backward and optimizer that the trace has at all: the layers
    of one forward pass are not steps."""
    for q in (FORWARD, BACKWARD, OPTIMIZER):
        seen = np.cumsum(phase == q)
        if seen[-1] == 0:
            continue
        inside = np.diff(seen[points]) > 0
        if np.count_nonzero(inside) < MIN_INCREASING * len(inside):
            return False
    return True


def _stack_steps(snapshot: Snapshot, timeline: DeviceTimeline, phase: I8) -> Steps | None:
    """The allocation stack that recurs most often at a strictly steady pace over at least half of the trace, at
    least MIN_GAP events apart, each step holding every main phase the trace has."""
    trace = snapshot.trace(timeline.device)
    n = len(trace)
    alloc = np.flatnonzero((trace.action == Action.ALLOC) & (trace.stack >= 0))
    if len(alloc) < MIN_STEPS + 1:
        return None
    stack = trace.stack[alloc]
    order = np.argsort(stack, kind="stable")  # alloc ascends: ties keep their event order, as lexsort((alloc, stack))
    s, at = stack[order], alloc[order]
    head = np.flatnonzero(np.r_[True, s[1:] != s[:-1]])
    count = np.diff(np.r_[head, len(s)])
    gaps = np.diff(at).astype(np.float64)
    gaps[s[1:] != s[:-1]] = np.nan  # a gap between two stacks is none
    # per stack, the shortest and longest gap between its occurrences (fmin/fmax skip the nan between stacks)
    padded = np.r_[gaps, np.nan]
    shortest = np.fmin.reduceat(padded, head)
    longest = np.fmax.reduceat(padded, head)
    span = at[head + count - 1] - at[head]
    good = (count >= MIN_STEPS + 1) & (longest <= STRICT * shortest) & (shortest >= MIN_GAP) & (span >= n / 2)
    for pick in np.flatnonzero(good)[np.argsort(-count[good], kind="stable")]:  # most occurrences first
        a, c = int(head[pick]), int(count[pick])
        points = at[a : a + c].astype(np.int64) - 1
        if not _whole_steps(np.maximum(points, 0), phase):
            continue
        sites, labels = stack_sites(snapshot.stacks)
        code = int(sites[int(s[a])])
        where = labels[code] if code != NO_SITE else f"stack {int(s[a])}"
        gap = int(np.median(np.diff(points)))
        template = QT_TRANSLATE_NOOP(
            "Growth", "just before each of the {n} allocations from {where}, one every ~{gap} events"
        )
        return _said(points, template, {"n": str(c), "where": where, "gap": str(gap)})
    return None


def _choose_points(points: I64) -> tuple[I64, int]:
    stride = max(1, math.ceil(len(points) / MAX_POINTS))
    return points[::stride], stride


@dataclass(frozen=True)
class SitesAtPoints:
    """Live bytes of every site live at any of the points: values[r, k] for site names[r] right after points[k]."""

    names: list[str]
    values: I64  # (sites, points)
    rows: npt.NDArray[np.intp]  # the row of `values` of each lifetime live at a point (see `live`)
    live: npt.NDArray[np.bool_]  # the lifetimes live at one point or more


def site_series(snapshot: Snapshot, timeline: DeviceTimeline, points: I64) -> SitesAtPoints:
    """Live bytes by allocation site right after each of `points` (increasing event indices): one numpy pass over
    the lifetimes, each adding its size from the first point it is live at to the first it is not."""
    m = len(points)
    life = timeline.lifetimes
    freed = np.minimum(life.pend, life.end)  # pending-free blocks are the program's no longer (pend -1: never its)
    first = np.searchsorted(points, life.start, "left")  # the first point at or after the allocation
    gone = np.searchsorted(points, freed, "left")  # the first point at or after the free: not live there
    live = gone > first
    site_of_stack, labels = stack_sites(snapshot.stacks)
    stack = life.stack[live]
    site = np.where(stack >= 0, site_of_stack[np.maximum(stack, 0)], NO_SITE).astype(np.int64)
    site[site == NO_SITE] = len(labels)  # "unknown"
    present, row = np.unique(site, return_inverse=True)
    width = m + 1
    size = life.size[live].astype(np.float64)
    cells = len(present) * width
    change = np.bincount(row * width + first[live], size, cells) - np.bincount(row * width + gone[live], size, cells)
    values = np.rint(np.cumsum(change.reshape(len(present), width), axis=1)[:, :m]).astype(np.int64)
    names = [*labels, UNKNOWN_SITE]
    return SitesAtPoints([names[int(c)] for c in present], values, row.reshape(-1), live)


def find_growth(snapshot: Snapshot, timeline: DeviceTimeline, steps: Steps | None = None) -> Growth:
    """The steps, and the sites that grow over them (numpy over the lifetimes: one pass, no loop per event)."""
    steps = find_steps(snapshot, timeline) if steps is None else steps
    if not steps.found:
        return Growth(steps, [])
    points, stride = _choose_points(steps.points)
    m = len(points)
    life = timeline.lifetimes
    series = site_series(snapshot, timeline, points)
    values, row, live = series.values, series.rows, series.live
    k = np.arange(m, dtype=np.float64) - (m - 1) / 2
    slope = values.astype(np.float64) @ k / float(k @ k) / stride
    increases = np.count_nonzero(np.diff(values, axis=1) > 0, axis=1)
    grows = (slope >= MIN_GROWTH) & (increases >= math.ceil(MIN_INCREASING * (m - 1)))
    phases = stack_phases(snapshot.stacks)
    found = []
    for r in np.flatnonzero(grows)[np.argsort(-slope[grows], kind="stable")][:MAX_SITES]:
        top = _top_stack(life, np.flatnonzero(live)[row == r], points)
        found.append(
            GrowingSite(
                site=series.names[r],
                phase=PHASE_NAMES[int(phases[top])] if top >= 0 else PHASE_NAMES[0],
                bytes_per_step=float(slope[r]),
                steps=len(steps.points),
                increases=int(increases[r]),
                first_bytes=int(values[r, 0]),
                last_bytes=int(values[r, -1]),
                stack=top,
                frames=tuple(snapshot.stacks.stack(top)),
                values=values[r],
            )
        )
    return Growth(steps, found, stride)


def _top_stack(life: Lifetimes, ids: I64, points: I64) -> int:
    """Of a site's lifetimes `ids`, the stack with most bytes among those allocated after the first point and
    live at the last (what the steps added); else among all of them."""
    start, end, stack, size = (
        life.start[ids],
        np.minimum(life.pend[ids], life.end[ids]),
        life.stack[ids],
        life.size[ids],
    )
    added = (start > points[0]) & (start <= points[-1]) & (end > points[-1])
    pick = added if added.any() else np.ones(len(ids), bool)
    stacks, inverse = np.unique(stack[pick], return_inverse=True)
    return int(stacks[np.argmax(np.bincount(inverse, size[pick].astype(np.float64)))])


def _steps_how(steps: Steps) -> str:
    """How the steps were found (or why none were), as a Sentence when it has a template."""
    return Sentence("Growth", steps.template, steps.fields) if steps.template else steps.how


def growth_sentences(growth: Growth) -> list[str]:
    """The findings: one sentence per growing site (the largest few), then how the steps were found (each a
    Sentence, marked for the window's translations)."""
    how = _steps_how(growth.steps)
    if not growth.steps.found:
        return [Sentence("", "{how:capital}.", {"how": how})]
    if not growth.sites:
        template, fields = growth.summary_template()
        return [Sentence("Growth", template, {**fields, "how": how})]
    out: list[str] = []
    for g in growth.sites[:MAX_SENTENCES]:
        fields = {
            "site": g.site,
            "phase": Sentence("Growth", g.phase),  # PHASE_WORDS: said in the window's language
            "per_step": format_bytes(g.bytes_per_step),
            "steps": str(g.steps),
            "first": format_bytes(g.first_bytes),
            "last": format_bytes(g.last_bytes),
        }
        if g.phase in _SHOWN_PHASES:
            template = QT_TRANSLATE_NOOP(
                "Growth",
                "{site} (allocated in {phase}) grows by {per_step} per step over {steps} steps (from {first} to"
                " {last}): memory kept from each step, e.g. a tensor appended to a list or a loss kept with its graph.",
            )
        else:
            template = QT_TRANSLATE_NOOP(
                "Growth",
                "{site} grows by {per_step} per step over {steps} steps (from {first} to {last}): memory kept from"
                " each step, e.g. a tensor appended to a list or a loss kept with its graph.",
            )
        out.append(Sentence("Growth", template, fields))
    if len(growth.sites) > MAX_SENTENCES:
        more = QT_TRANSLATE_NOOP("Growth", "{n} more sites grow too.")
        out.append(Sentence("Growth", more, {"n": str(len(growth.sites) - MAX_SENTENCES)}))
    rule = QT_TRANSLATE_NOOP(
        "Growth",
        "Steps measured at {how}; a site counts as growing at {size} or more a step, holding more after {share} of"
        " the steps.",
    )
    out.append(
        Sentence("Growth", rule, {"how": how, "size": format_bytes(MIN_GROWTH), "share": f"{MIN_INCREASING:.0%}"})
    )
    return out
