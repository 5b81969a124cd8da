"""A first diagnosis of one allocator state: each figure in proportion, and findings that say what matters in it.

Plain rules over plain figures (Metrics, an OOM's figures, the sizes of the next allocations, the state's holes),
each giving a Finding: a severity, one sentence, and the figures behind it. No Qt: the figures panel shows them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from gpumem_gui.core.analysis.metrics import Metrics
from gpumem_gui.core.analysis.process_limit import device_had_room
from gpumem_gui.core.analysis.timetravel import DeviceTimeline
from gpumem_gui.core.rules.allocator_constants import MIN_BLOCK_SIZE, SMALL_SIZE
from gpumem_gui.core.snapshot.model import I64, Action, AllocatorState, BlockState, TraceTable
from gpumem_gui.core.snapshot.sentences import QT_TRANSLATE_NOOP, Sentence, say
from gpumem_gui.core.snapshot.units import format_bytes

Severity = Literal["info", "warn", "alert"]
SEVERITIES: tuple[Severity, ...] = ("info", "warn", "alert")  # mildest first

# What "normal" is. A cache keeps freed memory for the next requests, so some free memory is the allocator working
# as meant; it becomes worth a look when it is both a large share of reserved (a fifth: about what
# expandable_segments wins back on fragmenting workloads) and large in bytes (1 GiB: below that, on an 80 GiB card,
# it is noise, and on a small test run every share looks big).
LARGE_SHARE = 0.20
LARGE_BYTES = 1 << 30
# Fragmentation (1 - largest hole / free) is high when the largest hole holds under half of the free memory: then a
# request of more than half of what is free needs new memory from CUDA although the total would be enough.
HIGH_FRAGMENTATION = 0.5
# ... and it matters little when little is free: under 5% of reserved and under 1 GiB, the scattered holes are
# too small a part of the memory to change what fits.
LITTLE_SHARE = 0.05
# holes too small for the next requests are worth a word when they are a tenth of what is free
NEGLIGIBLE_SHARE = 0.10
UPCOMING = 100  # how many of the next allocations the hole rule looks at: about one step of a training loop's
# biggest tensors, few enough that the holes they meet are those of the state shown

# each figure's share: of what it is a part
SHARE_OF: dict[str, tuple[str, str]] = {
    "allocated_bytes": ("reserved_bytes", "reserved"),
    "requested_bytes": ("allocated_bytes", "allocated"),
    "internal_waste_bytes": ("allocated_bytes", "allocated"),
    "pending_free_bytes": ("reserved_bytes", "reserved"),
    "free_bytes": ("reserved_bytes", "reserved"),
    "largest_free_block_bytes": ("free_bytes", "free"),
    "inactive_split_bytes": ("free_bytes", "free"),
}

# what is normal for a figure, for its tooltip
NORMAL: dict[str, str] = {
    "allocated_bytes": QT_TRANSLATE_NOOP(
        "Findings", "Normal: most of reserved; the rest is the cache's free and pending memory."
    ),
    "internal_waste_bytes": QT_TRANSLATE_NOOP(
        "Findings", "Normal: a few % of allocated; more means many requests just above a rounding step."
    ),
    "pending_free_bytes": QT_TRANSLATE_NOOP(
        "Findings", "Normal: near 0; it grows when tensors are used on other streams (record_stream)."
    ),
    "free_bytes": QT_TRANSLATE_NOOP(
        "Findings", "Normal: under 20% of reserved or under 1 GiB: memory the cache keeps for the next requests."
    ),
    "largest_free_block_bytes": QT_TRANSLATE_NOOP(
        "Findings", "Normal: close to all of free (then fragmentation is low)."
    ),
    "inactive_split_bytes": QT_TRANSLATE_NOOP(
        "Findings", "Normal: small; it is the part of free that empty_cache() cannot return."
    ),
    "external_fragmentation": QT_TRANSLATE_NOOP(
        "Findings",
        "What it means: 1 - largest hole / free. At 80% the largest hole holds a fifth of the free memory, and a "
        "larger request needs new memory from CUDA although the total free would be enough.\nIt matters only when "
        "much is free (20% of reserved and 1 GiB); with little free it is harmless. Under 50% is normal.",
    ),
}


@dataclass(frozen=True)
class Finding:
    """One thing worth saying about the state: how much it matters, one plain sentence, the figures behind it."""

    severity: Severity
    # the sentence in English; a Sentence (its template marked "Findings", its figures written in English: "1.5
    # GiB", "41%", "2,520") is said in the window's language (views/common/sentences.said)
    text: str
    figures: Mapping[str, float] = field(default_factory=dict)  # Metrics' names where the figure is one of them
    subject: str = ""  # the Metrics figure the finding is about (its row is marked), "" for none


def _said(
    severity: Severity, template: Sentence, fields: Mapping[str, str], figures: Mapping[str, float], subject: str = ""
) -> Finding:
    """A finding whose sentence is `template` filled with `fields`."""
    return Finding(severity, say(template, **fields), figures, subject)


@dataclass(frozen=True)
class OomFigures:
    """An OOM of the device's trace and the cache right when it happened."""

    event: int
    count: int  # OOMs in the whole trace
    requested_bytes: int
    cached_free_bytes: int
    largest_hole_bytes: int
    device_free_bytes: int  # what CUDA said was free on the device


def percent(fraction: float) -> str:
    """A share as people read it: whole percents, one decimal under 10% and over 99% (0.5%, 4.9%, 99.6%), so that a
    small share is not rounded onto a threshold; never 0% or 100% unless it is exactly that (<0.1%, 99.9%)."""
    if fraction <= 0 or fraction >= 1 or 0.1 <= fraction <= 0.99:
        return f"{fraction * 100:.0f}%"
    if fraction < 0.001:
        return "<0.1%"
    return f"{min(fraction * 100, 99.9):.1f}%"


def share(m: Metrics, key: str) -> tuple[float, str] | None:
    """`key`'s figure as a fraction of the whole it belongs to, and that whole's name (None: no share, or 0 whole)."""
    if key not in SHARE_OF:
        return None
    whole_key, whole_name = SHARE_OF[key]
    whole = getattr(m, whole_key)
    return (getattr(m, key) / whole, whole_name) if whole > 0 else None


def fragmentation_note(m: Metrics, findings: Sequence[Finding] = ()) -> str:
    """Fragmentation in three words: normal, high but harmless, or high; and "caused this OOM" where `findings` say
    the state is an OOM's whose request no hole could hold though the cache had enough free: there the ratio (low
    when one hole is large) must not read "normal" beside a request larger than the largest hole."""
    if any(f.subject == "external_fragmentation" and f.severity == "alert" for f in findings):
        return QT_TRANSLATE_NOOP("Findings", "caused this OOM")
    if m.external_fragmentation < HIGH_FRAGMENTATION:
        return QT_TRANSLATE_NOOP("Findings", "normal") if m.free_bytes else ""
    if _little(m.free_bytes, m.reserved_bytes):
        return QT_TRANSLATE_NOOP("Findings", "high, little free")
    return QT_TRANSLATE_NOOP("Findings", "high")


def _large(part: int, reserved: int) -> bool:
    return part >= LARGE_BYTES and part >= LARGE_SHARE * reserved


def _little(part: int, reserved: int) -> bool:
    return part < LARGE_BYTES and part < LITTLE_SHARE * reserved


# -- what the caller gathers -----------------------------------------------------------------------------------


def oom_figures(timeline: DeviceTimeline, event: int) -> OomFigures | None:
    """The OOM that matters at `event`: the last one at or before it, else the first one after; None without."""
    ooms = timeline.ooms
    if not ooms:
        return None
    at = int(np.searchsorted([o.index for o in ooms], event, "right")) - 1
    oom = ooms[max(at, 0)]
    series = timeline.series
    # an OOM event changes nothing: the series right after it is the cache the request met
    return OomFigures(
        oom.index,
        len(ooms),
        oom.requested_bytes,
        int(series.part("free", oom.index, oom.index + 1)[0]),  # that event alone: free is derived
        int(series.largest_free[oom.index]),
        oom.device_free_bytes,
    )


def upcoming_requests(
    trace: TraceTable, event: int, count: int = UPCOMING, *, stream: int | None = None, small: bool | None = None
) -> I64:
    """The sizes of the first `count` allocations after `event` (of one stream, of one pool), rounded as the
    allocator rounds a request (to 512 bytes).

    Reads the trace in growing windows from the cursor, so a jump costs the few thousand events that hold them."""
    n = len(trace)
    start, window, found = event + 1, 4096, []
    have = 0
    while start < n and have < count:
        stop = min(start + window, n)
        keep = trace.action[start:stop] == Action.ALLOC
        sizes = trace.size[start:stop]
        if stream is not None:
            keep &= trace.stream[start:stop] == stream
        if small is not None:
            keep &= (sizes <= SMALL_SIZE) == small
        picked = sizes[keep][: count - have]
        found.append(picked)
        have += len(picked)
        start, window = stop, window * 4
    sizes = np.concatenate(found) if found else np.zeros(0, np.int64)
    return np.maximum(-(-sizes // MIN_BLOCK_SIZE) * MIN_BLOCK_SIZE, MIN_BLOCK_SIZE).astype(np.int64)


# -- the rules ---------------------------------------------------------------------------------------------------


def first_look(
    m: Metrics,
    *,
    oom: OomFigures | None = None,
    upcoming: I64 | None = None,
    state: AllocatorState | None = None,
) -> list[Finding]:
    """The findings about a state with figures `m`, most severe first. `oom` adds the OOM's; `upcoming` (the next
    allocations' sizes) with `state` (whose holes they would meet) adds whether the holes can serve them."""
    found: list[Finding] = []
    if oom is not None:
        # the state shown is the OOM's own cache when its figures are the ones the request met
        at_oom = (m.free_bytes, m.largest_free_block_bytes) == (oom.cached_free_bytes, oom.largest_hole_bytes)
        found.append(_oom(oom, at_oom))
    if m.reserved_bytes == 0:
        nothing = QT_TRANSLATE_NOOP("Findings", "Nothing is reserved here: no segments to look at.")
        found.append(_said("info", nothing, {}, {"reserved_bytes": 0}))
        return found
    gap = _cached_free(m)
    if gap is not None:
        found.append(gap)
    frag = _fragmentation(m)
    if frag is not None:
        found.append(frag)
    if upcoming is not None and state is not None:
        holes = _holes_for(upcoming, state, m)
        if holes is not None:
            found.append(holes)
    if not found:
        found.append(_calm(m))
    return sorted(found, key=lambda f: -SEVERITIES.index(f.severity))


def _oom(o: OomFigures, at_oom: bool = False) -> Finding:
    """The OOM's sentence; about the fragmentation figure (its row marked) when the state shown is the OOM's and no
    hole held a request the free total could."""
    fragmented = o.cached_free_bytes >= o.requested_bytes > o.largest_hole_bytes
    more = o.count > 1
    # the device could have given a new segment for it: a memory fraction of the process refused it (process_limit.py)
    limited = not fragmented and device_had_room(o.requested_bytes, o.device_free_bytes)
    if limited and more:
        template = QT_TRANSLATE_NOOP(
            "Findings",
            "OOM at event {event} (and {more} more): a request of {requested} failed while the device had "
            "{device_free} free: a memory limit of this process (a memory fraction) refused it, not the device.",
        )
    elif limited:
        template = QT_TRANSLATE_NOOP(
            "Findings",
            "OOM at event {event}: a request of {requested} failed while the device had {device_free} free: a memory "
            "limit of this process (a memory fraction) refused it, not the device.",
        )
    elif fragmented and more:
        template = QT_TRANSLATE_NOOP(
            "Findings",
            "OOM at event {event} (and {more} more): a request of {requested} failed with {free} free in the cache "
            "(largest hole {largest}): enough in total, but no hole that large.",
        )
    elif fragmented:
        template = QT_TRANSLATE_NOOP(
            "Findings",
            "OOM at event {event}: a request of {requested} failed with {free} free in the cache (largest hole "
            "{largest}): enough in total, but no hole that large.",
        )
    elif more:
        template = QT_TRANSLATE_NOOP(
            "Findings",
            "OOM at event {event} (and {more} more): a request of {requested} failed with {free} free in the cache "
            "(largest hole {largest}) and {device_free} on the device: the memory was in use.",
        )
    else:
        template = QT_TRANSLATE_NOOP(
            "Findings",
            "OOM at event {event}: a request of {requested} failed with {free} free in the cache (largest hole "
            "{largest}) and {device_free} on the device: the memory was in use.",
        )
    fields = {
        "event": f"{o.event:,}",
        "more": f"{o.count - 1:,}",
        "requested": format_bytes(o.requested_bytes),
        "free": format_bytes(o.cached_free_bytes),
        "largest": format_bytes(o.largest_hole_bytes),
        "device_free": format_bytes(o.device_free_bytes),
    }
    figures = {
        "oom_requested_bytes": o.requested_bytes,
        "free_bytes": o.cached_free_bytes,
        "largest_free_block_bytes": o.largest_hole_bytes,
        "device_free_bytes": o.device_free_bytes,
    }
    # about the trace, not a figure of the state shown, unless the state is the OOM's and fragmentation caused it
    return _said("alert", template, fields, figures, "external_fragmentation" if fragmented and at_oom else "")


def _cached_free(m: Metrics) -> Finding | None:
    if not _large(m.free_bytes, m.reserved_bytes):
        return None
    split = m.inactive_split_bytes
    if split == 0:
        template = QT_TRANSLATE_NOOP(
            "Findings", "{free} ({share}) of reserved is cached but free: empty_cache() would return it to CUDA."
        )
    elif split >= m.free_bytes:
        template = QT_TRANSLATE_NOOP(
            "Findings",
            "{free} ({share}) of reserved is cached but free, all in segments with live blocks: empty_cache() cannot "
            "return it; expandable_segments:True can.",
        )
    else:
        template = QT_TRANSLATE_NOOP(
            "Findings",
            "{free} ({share}) of reserved is cached but free: empty_cache() would return {returned}; the other "
            "{split} shares segments with live blocks.",
        )
    fields = {
        "free": format_bytes(m.free_bytes),
        "share": percent(m.free_bytes / m.reserved_bytes),
        "returned": format_bytes(m.free_bytes - split),
        "split": format_bytes(split),
    }
    figures = {"free_bytes": m.free_bytes, "reserved_bytes": m.reserved_bytes, "inactive_split_bytes": split}
    return _said("warn", template, fields, figures, "free_bytes")


def _fragmentation(m: Metrics) -> Finding | None:
    frag = m.external_fragmentation
    if frag < HIGH_FRAGMENTATION:
        return None
    figures = {
        "external_fragmentation": frag,
        "free_bytes": m.free_bytes,
        "largest_free_block_bytes": m.largest_free_block_bytes,
    }
    fields = {
        "fragmentation": percent(frag),
        "free": format_bytes(m.free_bytes),
        "largest": format_bytes(m.largest_free_block_bytes),
        "share": percent(m.free_bytes / m.reserved_bytes),
    }
    if _little(m.free_bytes, m.reserved_bytes):
        little = QT_TRANSLATE_NOOP(
            "Findings", "Fragmentation {fragmentation} matters little: only {free} ({share}) is free."
        )
        return _said("info", little, fields, figures, "external_fragmentation")
    template = QT_TRANSLATE_NOOP(
        "Findings",
        "Fragmentation {fragmentation}: the largest hole is {largest} of {free} free; a larger request needs new "
        "memory from CUDA.",
    )
    severity: Severity = "warn" if _large(m.free_bytes, m.reserved_bytes) else "info"
    return _said(severity, template, fields, figures, "external_fragmentation")


def _holes_for(upcoming: I64, state: AllocatorState, m: Metrics) -> Finding | None:
    """Whether the state's holes could serve the next allocations: each pool's requests against its own holes
    (a request of up to 1 MiB is served by the small pool, a larger one by the large pool)."""
    if not len(upcoming) or m.free_bytes == 0:
        return None
    blk = state.blocks
    free = blk.state == BlockState.INACTIVE
    holes = blk.size[free]
    hole_small = state.segments.is_small[blk.segment[free]]
    request_small = upcoming <= SMALL_SIZE
    useless = 0  # free bytes in holes smaller than every request of their pool
    unfit = 0  # requests larger than every hole of their pool
    limit = 0  # the largest hole of the pool those requests are in (the large pool's when both have some)
    for small in (True, False):
        asks, have = upcoming[request_small == small], holes[hole_small == small]
        if not len(asks):
            continue
        useless += int(have[have < asks.min()].sum())
        largest = int(have.max()) if len(have) else 0
        too_big = int((asks > largest).sum())
        unfit += too_big
        limit = largest if too_big else limit
    biggest = int(upcoming.max())
    takers = int((holes[hole_small == (biggest <= SMALL_SIZE)] >= biggest).sum())
    worth = useless >= NEGLIGIBLE_SHARE * m.free_bytes
    if not unfit and not worth:
        return None
    n = len(upcoming)
    fields = {
        "n": f"{n:,}",
        "biggest": format_bytes(biggest),
        "unfit": f"{unfit:,}",
        "limit": format_bytes(limit),
        "takers": f"{takers:,}",
        "useless": format_bytes(useless),
        "share": percent(useless / m.free_bytes),
    }
    template = _HOLES[bool(unfit) and n > 1, bool(unfit) and n == 1, worth]
    figures = {
        "upcoming_requests": n,
        "upcoming_max_bytes": biggest,
        "holes_taking_largest": takers,
        "requests_fitting_no_hole": unfit,
        "unusable_free_bytes": useless,
        "free_bytes": m.free_bytes,
    }
    matters = useless >= LARGE_BYTES and useless >= m.free_bytes / 2
    return _said("warn" if matters else "info", template, fields, figures, "largest_free_block_bytes")


# the hole rule's sentences by (several requests fit no hole, the one request fits none, too small holes are worth a
# word); when every request fits, the sentence counts the holes that could take the largest
_HOLES = {
    (True, False, False): QT_TRANSLATE_NOOP(
        "Findings",
        "The next {n} {n:allocation|allocations} ask for up to {biggest}; {unfit} of them {unfit:fits|fit} no hole "
        "now (the largest is {limit}).",
    ),
    (True, False, True): QT_TRANSLATE_NOOP(
        "Findings",
        "The next {n} {n:allocation|allocations} ask for up to {biggest}; {unfit} of them {unfit:fits|fit} no hole "
        "now (the largest is {limit}); {useless} ({share} of free) is in holes too small for any.",
    ),
    (False, True, False): QT_TRANSLATE_NOOP(
        "Findings",
        "The next {n} {n:allocation|allocations} ask for up to {biggest}; it fits no hole now (the largest is "
        "{limit}).",
    ),
    (False, True, True): QT_TRANSLATE_NOOP(
        "Findings",
        "The next {n} {n:allocation|allocations} ask for up to {biggest}; it fits no hole now (the largest is "
        "{limit}); {useless} ({share} of free) is in holes too small for any.",
    ),
    (False, False, False): QT_TRANSLATE_NOOP(
        "Findings",
        "The next {n} {n:allocation|allocations} ask for up to {biggest}; only {takers} {takers:hole|holes} could "
        "take the largest.",
    ),
    (False, False, True): QT_TRANSLATE_NOOP(
        "Findings",
        "The next {n} {n:allocation|allocations} ask for up to {biggest}; only {takers} {takers:hole|holes} could "
        "take the largest; {useless} ({share} of free) is in holes too small for any.",
    ),
}


def _calm(m: Metrics) -> Finding:
    fields = {"used": percent(m.allocated_bytes / m.reserved_bytes), "free": percent(m.free_bytes / m.reserved_bytes)}
    template = QT_TRANSLATE_NOOP(
        "Findings", "These figures look normal: {used} of reserved is allocated, {free} is cached free."
    )
    return _said("info", template, fields, {"allocated_bytes": m.allocated_bytes, "free_bytes": m.free_bytes})
