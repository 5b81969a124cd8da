"""Program-level remedies for the moment explained: each a change of the program, what it frees at that moment, and
the changed trace (trace_transforms.py) that remedies.py replays to say whether the request then fits.

Every candidate is a model of the program change: it drops, shrinks or frees for a while the recorded blocks the
change would act on (chosen by their category and site, categories.py and stacks.py) and keeps every other request
as recorded; its `assumes` says what else it takes for granted. A candidate is offered only where it frees something
at the moment explained (a note says why each other one was left out), except empty_cache(), whose "nothing" is the
answer a user needs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from gpumem_gui.core.allocator.trace_transforms import (
    NO_HOLE,
    ChangedTrace,
    LifetimeEdits,
    change_trace,
    live_bytes_at,
    unchanged,
)
from gpumem_gui.core.analysis.breakdown import lifetime_reasons
from gpumem_gui.core.analysis.categories import (
    ACCUMULATE_GRAD,
    ACTIVATIONS,
    AUTOCAST_WEIGHT_COPIES,
    BACKWARD,
    CHECKPOINT,
    FORWARD,
    GRADIENTS,
    INPUTS,
    LIBRARY_WORKSPACES,
    NONE,
    OPTIMIZER,
    OPTIMIZER_STATE,
    PARAMETERS,
    TEMPORARIES,
    event_phases,
    lifetime_categories,
    stack_phases,
)
from gpumem_gui.core.analysis.diagnosis import Diagnosis
from gpumem_gui.core.analysis.growth import find_growth
from gpumem_gui.core.analysis.timetravel import NEVER
from gpumem_gui.core.snapshot.model import I64, Action, Snapshot
from gpumem_gui.core.snapshot.sentences import QT_TRANSLATE_NOOP, Sentence, joined, say
from gpumem_gui.core.snapshot.stacks import block_sites, short_site, stack_sites
from gpumem_gui.core.snapshot.units import format_bytes

MAX_CHECKPOINT_SITES = 5  # activation sites checkpointed together at the most
MAX_GROWING = 2  # growing sites offered as remedies
IMBALANCE = 2.0  # a device holding this many times the least-loaded device's peak is named
DEFAULT_SHARDS = 2  # GPUs to shard over when neither the caller nor the file says
_BATCH_PHASES = (FORWARD, BACKWARD, ACCUMULATE_GRAD, CHECKPOINT)
_DATA_PARALLEL = re.compile(
    r"(?:nn[/\\]parallel[/\\](?:data_parallel|replicate|scatter_gather)|nn[/\\]data_parallel)\.py$"
)


@dataclass(frozen=True)
class ProgramCandidate:
    change: str  # what to change in the program, in words
    assumes: str  # what the changed trace takes for granted
    frees_bytes: int  # allocated bytes it frees at the moment explained
    changed: ChangedTrace
    overrides: tuple[str, ...] = ()  # allocator settings replayed with it (a combination)


@dataclass
class _Context:
    snapshot: Snapshot
    diagnosis: Diagnosis
    moment: int  # the event explained
    stop: int  # the last event replayed: the first OOM's, else the trace's last
    category: npt.NDArray[np.int8]  # per lifetime
    site: I64  # per lifetime, an index into labels
    labels: list[str]
    phase: npt.NDArray[np.int8]  # per event
    run: I64  # per event, its stretch
    live: npt.NDArray[np.bool_]  # per lifetime: allocated right after the moment
    started: npt.NDArray[np.bool_]  # per lifetime: allocated while recording

    def candidate(
        self, change: str, assumes: str, edits: LifetimeEdits, request_scale: float = 1.0
    ) -> ProgramCandidate:
        life = self.diagnosis.timeline.lifetimes
        frees = live_bytes_at(life, self.moment) - live_bytes_at(life, self.moment, edits)
        trace = self.snapshot.trace(self.diagnosis.device)
        changed = change_trace(trace, life, edits, stop=self.stop, request_scale=request_scale)
        return ProgramCandidate(change, assumes, frees, changed)

    def held(self, mask: npt.NDArray[np.bool_]) -> int:
        """Bytes of the lifetimes in `mask` allocated at the moment."""
        return int(self.diagnosis.timeline.lifetimes.size[mask & self.live].sum())

    def edits(self) -> LifetimeEdits:
        return LifetimeEdits.none(len(self.started))

    def of(self, *categories: int) -> npt.NDArray[np.bool_]:
        return np.isin(self.category, categories) & self.started


def program_candidates(
    snapshot: Snapshot, diagnosis: Diagnosis, gpus: int | None = None
) -> tuple[list[ProgramCandidate], list[str]]:
    """The program changes worth replaying for the diagnosis's moment, and a sentence for each one left out (or
    about the devices). `gpus`: how many GPUs to shard over (default: the file's devices, else 2)."""
    ctx = _context(snapshot, diagnosis)
    if ctx is None:
        return [], []
    out: list[ProgramCandidate] = []
    notes: list[str] = []
    for make in (_checkpoint, _smaller_batch, _eight_bit, _set_to_none, _before_recording, _empty_cache):
        found, why = make(ctx)
        out += found
        notes += why
    found, why = _shard(ctx, gpus)
    out += found
    notes += why
    for make in (_workspaces, _mixed_precision, _growth, _balance):
        found, why = make(ctx)
        out += found
        notes += why
    return out, notes


def _context(snapshot: Snapshot, diagnosis: Diagnosis) -> _Context | None:
    timeline = diagnosis.timeline
    if not timeline.n_events or diagnosis.moment.event is None or diagnosis.moment.event < 0:
        return None
    life = timeline.lifetimes
    moment = diagnosis.moment.event
    stop = timeline.ooms[0].index if timeline.ooms else timeline.n_events - 1
    site, labels = block_sites(snapshot.stacks, life.stack, lifetime_reasons(snapshot, timeline))
    phase, run = event_phases(snapshot, timeline)
    live = (life.start <= moment) & (life.pend > moment)
    return _Context(
        snapshot,
        diagnosis,
        moment,
        stop,
        lifetime_categories(snapshot, timeline),
        site,
        labels,
        phase,
        run,
        live,
        life.start >= 0,
    )


def _need(ctx: _Context) -> int:
    """How much the live set must shrink for the OOM's request to fit (0 at a peak)."""
    o = ctx.diagnosis.oom
    if o is None:
        return 0
    return max(o.live_excess_bytes, o.request_bytes - o.fits_up_to_bytes, 0)


Made = tuple[list[ProgramCandidate], list[str]]


def _checkpoint(ctx: _Context) -> Made:
    """Activation checkpointing of the top activation sites at the moment."""
    act = ctx.of(ACTIVATIONS)
    held = act & ctx.live
    if not held.any():
        return [], [QT_TRANSLATE_NOOP("Remedies", "Checkpointing was not tried: no activation is held at this moment.")]
    life = ctx.diagnosis.timeline.lifetimes
    per_site = np.bincount(ctx.site[held], life.size[held].astype(np.float64), len(ctx.labels))
    order = [int(s) for s in np.argsort(-per_site, kind="stable") if per_site[s] > 0]
    cumulative = np.cumsum(per_site[order])
    enough = int(np.searchsorted(cumulative, _need(ctx))) + 1 if _need(ctx) else min(3, len(order))
    sets = [order[:1]]
    more = order[: min(max(enough, 2), MAX_CHECKPOINT_SITES, len(order))]
    if len(more) > 1:
        sets.append(more)
    trace = ctx.snapshot.trace(ctx.diagnosis.device)
    allocs = np.flatnonzero(trace.action == Action.ALLOC)
    nxt = np.searchsorted(allocs, life.start, "right")
    next_alloc = np.where(nxt < len(allocs), allocs[np.minimum(nxt, len(allocs) - 1)], NEVER)
    out = []
    for chosen in sets:
        ids = act & np.isin(ctx.site, chosen)
        e = ctx.edits()
        e.hole_from[ids] = next_alloc[ids]
        e.hole_to[ids] = np.where(life.pend[ids] < NEVER, life.pend[ids], NEVER)
        e.hole_from[ids & (e.hole_from >= e.hole_to)] = NO_HOLE
        names = _and([short_site(ctx.labels[s]) for s in chosen])
        out.append(
            ctx.candidate(
                say(
                    QT_TRANSLATE_NOOP(
                        "Remedies",
                        "checkpoint {sites} (torch.utils.checkpoint: its activations recomputed in backward, not kept)",
                    ),
                    sites=names,
                ),
                QT_TRANSLATE_NOOP(
                    "Remedies",
                    "each activation of these sites is freed once the next allocation is made (the next operation has"
                    " read it) and made again just before backward frees it (its recomputation); the input each"
                    " checkpointed region keeps is not added back",
                ),
                e,
            )
        )
    return out, []


def _batch_lifetimes(ctx: _Context) -> npt.NDArray[np.bool_]:
    """Lifetimes whose size follows the batch: activations, inputs, and forward's and backward's temporaries."""
    life = ctx.diagnosis.timeline.lifetimes
    start_phase = ctx.phase[np.maximum(life.start, 0)]
    temporaries = ctx.of(TEMPORARIES) & np.isin(start_phase, _BATCH_PHASES)
    return np.asarray(ctx.of(ACTIVATIONS, INPUTS) | temporaries)


def _request_scales(ctx: _Context) -> bool:
    """Whether the OOM's request follows the batch: made in forward or backward (its own stack says, else the
    events before it)."""
    if ctx.diagnosis.oom is None:
        return False
    stack = int(ctx.snapshot.trace(ctx.diagnosis.device).stack[ctx.stop])
    own = int(stack_phases(ctx.snapshot.stacks)[stack]) if stack >= 0 else NONE
    return (own if own != NONE else int(ctx.phase[ctx.stop])) in _BATCH_PHASES


def _scale_batch(ctx: _Context, fraction: Fraction, change: Sentence, assumes: Sentence) -> ProgramCandidate:
    e = ctx.edits()
    e.scale[_batch_lifetimes(ctx)] = float(fraction)
    return ctx.candidate(change, assumes, e, float(fraction) if _request_scales(ctx) else 1.0)


def _smaller_batch(ctx: _Context) -> Made:
    batch = _batch_lifetimes(ctx)
    held = ctx.held(batch)
    if not held:
        return [], [
            QT_TRANSLATE_NOOP(
                "Remedies",
                "A smaller batch was not tried: no activation, input or forward temporary is held at this moment.",
            )
        ]
    o = ctx.diagnosis.oom
    request = o.request_bytes if o is not None and _request_scales(ctx) else 0
    need = _need(ctx)
    fraction = Fraction(1, 2)
    if need:
        room = 1 - need / (held + request)
        fraction = Fraction(max(min(int(room * 8), 7), 1), 8)
    if request:
        assumes = QT_TRANSLATE_NOOP(
            "Remedies",
            "every activation, input and forward or backward temporary scales with the batch, and so does the failing"
            " request; parameters, gradients and optimizer state do not",
        )
    else:
        assumes = QT_TRANSLATE_NOOP(
            "Remedies",
            "every activation, input and forward or backward temporary scales with the batch; parameters, gradients"
            " and optimizer state do not",
        )
    change = say(QT_TRANSLATE_NOOP("Remedies", "a batch (or sequence) {fraction} as large"), fraction=str(fraction))
    return [_scale_batch(ctx, fraction, change, assumes)], []


def _eight_bit(ctx: _Context) -> Made:
    state = ctx.of(OPTIMIZER_STATE)
    if not ctx.held(state):
        return [], [
            QT_TRANSLATE_NOOP(
                "Remedies", "An 8-bit optimizer was not tried: no optimizer state is held at this moment."
            )
        ]
    e = ctx.edits()
    e.scale[state] = 0.25
    return [
        ctx.candidate(
            QT_TRANSLATE_NOOP(
                "Remedies", "an 8-bit optimizer (bitsandbytes' Adam8bit): its state a quarter of fp32 Adam's"
            ),
            QT_TRANSLATE_NOOP(
                "Remedies",
                "every optimizer state block (exp_avg, exp_avg_sq, momentum) takes one byte per value instead of four",
            ),
            e,
        )
    ], []


def _shard(ctx: _Context, gpus: int | None) -> Made:
    kinds = ctx.of(PARAMETERS, GRADIENTS, OPTIMIZER_STATE)
    if not ctx.held(kinds):
        return [], [
            QT_TRANSLATE_NOOP(
                "Remedies",
                "Sharding was not tried: no parameter, gradient or optimizer state recorded being made is held.",
            )
        ]
    devices = len(ctx.snapshot.devices())
    n = gpus or (devices if devices > 1 else DEFAULT_SHARDS)
    told = (
        QT_TRANSLATE_NOOP("Remedies", "asked for")
        if gpus
        else QT_TRANSLATE_NOOP("Remedies", "the file's devices")
        if devices > 1
        else QT_TRANSLATE_NOOP("Remedies", "the smallest sharding")
    )
    e = ctx.edits()
    e.scale[kinds] = 1.0 / n
    return [
        ctx.candidate(
            say(
                QT_TRANSLATE_NOOP(
                    "Remedies",
                    "shard parameters, gradients and optimizer state over {n} GPUs (FSDP or DeepSpeed ZeRO-3)",
                ),
                n=n,
            ),
            say(
                QT_TRANSLATE_NOOP(
                    "Remedies",
                    "each GPU keeps {share} of them ({n}: {told}); the parameters gathered for the layer that runs and"
                    " the communication buffers are not added; blocks from before recording are left whole",
                ),
                share=f"1/{n}",
                n=n,
                told=told,
            ),
            e,
        )
    ], []


def _set_to_none(ctx: _Context) -> Made:
    life = ctx.diagnosis.timeline.lifetimes
    grads = ctx.of(GRADIENTS) & ctx.live
    if not grads.any():
        return [], []
    if int(ctx.phase[ctx.moment]) in (BACKWARD, ACCUMULATE_GRAD, OPTIMIZER):
        return [], [
            QT_TRANSLATE_NOOP(
                "Remedies", "zero_grad(set_to_none=True) was not tried: the gradients are in use at this moment."
            )
        ]
    first = int(np.searchsorted(ctx.run, ctx.run[ctx.moment]))  # the stretch the moment lies in begins here
    kept = grads & (life.start < first)
    if not kept.any() or first == 0:
        return [], []
    later = np.flatnonzero(np.isin(ctx.phase[ctx.moment + 1 :], (BACKWARD, ACCUMULATE_GRAD)))
    e = ctx.edits()
    e.hole_from[kept] = first - 1
    e.hole_to[kept] = ctx.moment + 1 + int(later[0]) if len(later) else NEVER
    return [
        ctx.candidate(
            QT_TRANSLATE_NOOP(
                "Remedies", "optimizer.zero_grad(set_to_none=True): the gradients freed after each optimizer step"
            ),
            QT_TRANSLATE_NOOP(
                "Remedies",
                "the gradients held since the step before are freed when this stretch begins and made again where"
                " the next backward begins; no gradient is accumulated over several forwards",
            ),
            e,
        )
    ], []


def _before_recording(ctx: _Context) -> Made:
    early = ~ctx.started & ctx.live
    if not early.any():
        return [], []
    e = ctx.edits()
    e.drop[early] = True
    return [
        ctx.candidate(
            QT_TRANSLATE_NOOP(
                "Remedies", "free what was allocated before recording began (start recording earlier to see what it is)"
            ),
            QT_TRANSLATE_NOOP(
                "Remedies",
                "none of it is needed: the trace cannot tell what it is; it is given back to the cache as free blocks"
                " of the segments that held it",
            ),
            e,
        )
    ], []


def _empty_cache(ctx: _Context) -> Made:
    """What empty_cache() would really give back: the cached segments without a live block (nothing at an OOM)."""
    whole = ctx.diagnosis.gap.whole_bytes
    if ctx.diagnosis.oom is not None:
        assumes = QT_TRANSLATE_NOOP(
            "Remedies",
            "nothing is replayed differently: before raising an OOM the allocator itself gives back every cached"
            " segment without a live block, so the call adds nothing",
        )
    else:
        assumes = QT_TRANSLATE_NOOP(
            "Remedies",
            "the cached segments with no live block go back to the device, for other processes; this process"
            " gains nothing, since the allocator gives them back itself before running out: the replay is the"
            " recorded one",
        )
    trace = ctx.snapshot.trace(ctx.diagnosis.device)
    change = say(
        QT_TRANSLATE_NOOP(
            "Remedies", "torch.cuda.empty_cache() at this moment (it would return {bytes} to the device)"
        ),
        bytes=format_bytes(whole),
    )
    return [ProgramCandidate(change, assumes, 0, unchanged(trace, ctx.stop))], []


def _workspaces(ctx: _Context) -> Made:
    kinds = ctx.of(LIBRARY_WORKSPACES)
    if not ctx.held(kinds):
        return [], []
    e = ctx.edits()
    e.drop[kinds] = True
    return [
        ctx.candidate(
            QT_TRANSLATE_NOOP(
                "Remedies", "CUBLAS_WORKSPACE_CONFIG=:0:0 (and no cuBLASLt workspace): no library workspace kept"
            ),
            QT_TRANSLATE_NOOP(
                "Remedies",
                "the libraries run without their workspaces (slower matrix products); no other request changes",
            ),
            e,
        )
    ], []


def _mixed_precision(ctx: _Context) -> Made:
    params = ctx.of(PARAMETERS)
    if not ctx.held(params):
        return [], []
    copies = ctx.of(AUTOCAST_WEIGHT_COPIES)
    e = ctx.edits()
    e.scale[params | ctx.of(GRADIENTS)] = 0.5
    e.drop[copies] = True
    evidence = (
        QT_TRANSLATE_NOOP("Remedies", "autocast's fp16/bf16 copies of the weights show they are fp32")
        if ctx.held(copies) or copies.any()
        else QT_TRANSLATE_NOOP(
            "Remedies",
            "the weights are fp32 (a snapshot records no dtype: if they are already 16-bit, this frees nothing)",
        )
    )
    return [
        ctx.candidate(
            QT_TRANSLATE_NOOP(
                "Remedies", "keep the weights in bf16 (model.to(torch.bfloat16), or FSDP's mixed precision)"
            ),
            say(
                QT_TRANSLATE_NOOP(
                    "Remedies",
                    "{evidence}; weights and gradients take half the bytes and autocast's weight copies go; the"
                    " optimizer state and the activations are left as recorded",
                ),
                evidence=evidence,
            ),
            e,
        )
    ], []


STOP_KEEPING = "stop keeping references at"  # how the remedy that ends a growth begins (the challenge knows it)


def _growth(ctx: _Context) -> Made:
    timeline = ctx.diagnosis.timeline
    growth = find_growth(ctx.snapshot, timeline)
    if not growth.sites:
        return [], []
    life = timeline.lifetimes
    site_of_stack, labels = stack_sites(ctx.snapshot.stacks)
    names = np.array([*labels, "unknown"], dtype=object)
    stack_site = np.where(life.stack >= 0, site_of_stack[np.maximum(life.stack, 0)], len(labels))
    site_name = names[np.where(stack_site >= 0, stack_site, len(labels))]
    points = growth.steps.points
    nxt = np.searchsorted(points, life.start, "left")
    step_end = np.where(nxt < len(points), points[np.minimum(nxt, len(points) - 1)], NEVER)
    following = np.where(nxt + 1 < len(points), points[np.minimum(nxt + 1, len(points) - 1)], NEVER)
    out = []
    for g in growth.sites[:MAX_GROWING]:
        kept = ctx.started & (site_name == g.site) & (following < NEVER) & (life.pend > following)
        if not kept.any():
            continue
        e = ctx.edits()
        e.hole_from[kept] = step_end[kept]
        out.append(
            ctx.candidate(
                say(
                    QT_TRANSLATE_NOOP(
                        "Remedies",
                        "stop keeping references at {site} (it grows by {bytes} a step): e.g. loss.item() instead of"
                        " the loss, or .detach() before keeping a tensor",
                    ),
                    site=short_site(g.site),
                    bytes=format_bytes(g.bytes_per_step),
                ),
                QT_TRANSLATE_NOOP(
                    "Remedies",
                    "what this line keeps past its step is not needed after it: each such block is freed at the end"
                    " of the step that made it",
                ),
                e,
            )
        )
    return out, []


def _balance(ctx: _Context) -> Made:
    snapshot = ctx.snapshot
    devices = snapshot.devices()
    if len(devices) < 2:
        return [], []
    device = ctx.diagnosis.device
    peaks = {d: snapshot.peak_reserved(d) for d in devices}
    if peaks[device] < max(peaks.values()) or peaks[device] < IMBALANCE * min(peaks.values()):
        return [], []
    others = [d for d in devices if d != device]
    named = _and([str(d) for d in others])
    sizes = _and([format_bytes(peaks[d]) for d in others])
    parallel = any(_DATA_PARALLEL.search(f.filename) for f in snapshot.stacks.frames)
    fields = {"device": str(device), "peak": format_bytes(peaks[device]), "n": str(len(others))}
    if parallel:
        template = QT_TRANSLATE_NOOP(
            "Remedies",
            "The GPUs are not evenly loaded: GPU {device} reached {peak} reserved, {n:GPU|GPUs} {others} {sizes}. The"
            " stacks show DataParallel, which replicates the model from one GPU and gathers every output on one"
            " device; DistributedDataParallel runs one process per GPU, each with its own share of the batch.",
        )
    else:
        template = QT_TRANSLATE_NOOP(
            "Remedies",
            "The GPUs are not evenly loaded: GPU {device} reached {peak} reserved, {n:GPU|GPUs} {others} {sizes}.",
        )
    sentence = say(template, **fields, others=named, sizes=sizes)
    mean = sum(peaks.values()) / len(peaks)
    batch = _batch_lifetimes(ctx)
    held = ctx.held(batch)
    if not held:
        return [], [sentence]
    fraction = Fraction(max(min(int((1 - (peaks[device] - mean) / held) * 8), 7), 1), 8)
    change = (
        QT_TRANSLATE_NOOP(
            "Remedies", "DistributedDataParallel instead of DataParallel: each GPU its own share of the batch"
        )
        if parallel
        else QT_TRANSLATE_NOOP("Remedies", "spread the work evenly over the GPUs")
    )
    assumes = say(
        QT_TRANSLATE_NOOP(
            "Remedies",
            "evenly loaded, GPU {device} would hold the devices' mean ({mean}): its activations, inputs and forward"
            " or backward temporaries are taken {fraction} as large",
        ),
        device=device,
        mean=format_bytes(mean),
        fraction=str(fraction),
    )
    found = _scale_batch(ctx, fraction, change, assumes)
    return [found], [sentence]


def _and(words: list[str]) -> str:
    """ "a", "a and b", "a, b and c" """
    if len(words) == 1:
        return words[0]
    return say(QT_TRANSLATE_NOOP("Remedies", "{some} and {last}"), some=joined(words[:-1], ", "), last=words[-1])
