""" "Try it on yours": each quiz question's concept lit on the learner's own snapshot, as Show me lights it on a
bundled one.

Every question maps to one of the app's findings (`FINDING_OF`), computed at the moment `explain` picks (the first
OOM, else the peak of allocated memory, else the final state) or, for what the learner would see now (the reserved
/ allocated gap, what empty_cache would return), at the final state:

* largest_hole: the free holes, the largest one against the OOM's request (else the largest request recorded);
* cache_reuse: allocations served from the cache against cudaMallocs (the Q2 demo's own analysis);
* inactive_split: free blocks in segments that hold live blocks (torch's inactive_split_bytes);
* gap: the reserved / allocated gap (the Q8 demo's own analysis);
* empty_cache: the segments with no live block, which empty_cache would hand back to CUDA;
* activations: the activations alive at the moment: what checkpointing would recompute instead of keep;
* largest_block: the largest live block (a preallocated pool, as vLLM's KV cache, shows as one).

    focus = yours_focus(FINDING_OF[(quiz.id, question.id)], snapshot)     # a DemoFocus, as Show me's
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Mapping

import numpy as np

from gpumem_gui.assets import RESOURCES
from gpumem_gui.core.analysis.breakdown import block_categories
from gpumem_gui.core.analysis.categories import CATEGORIES
from gpumem_gui.core.analysis.diagnosis import pick_moment
from gpumem_gui.core.analysis.timetravel import DeviceTimeline
from gpumem_gui.core.snapshot.model import Action, AllocatorState, BlockState, Snapshot
from gpumem_gui.teach.demos.captions import size
from gpumem_gui.teach.demos.focus import DemoData, DemoFocus, Facts, demo_data, make_focus
from gpumem_gui.teach.demos.plans import DemoError
from gpumem_gui.teach.demos.single import cache_reuse, reserved_vs_allocated
from gpumem_gui.teach.demos.wording import Clause, say
from gpumem_gui.teach.quiz import LANGUAGES

YOURS_TEXTS = RESOURCES / "try_yours.toml"

# the four lines that record a snapshot of the learner's own program
RECORDING_SNIPPET = """\
import torch
torch.cuda.memory._record_memory_history(max_entries=100000)
run_a_few_of_your_training_steps()
torch.cuda.memory._dump_snapshot("snap.pickle")"""

GC = "gradient-checkpointing"
FINDING_OF: dict[tuple[str, str], str] = {
    ("gpu-memory", "fragmentation"): "largest_hole",
    ("gpu-memory", "caching-allocator"): "cache_reuse",
    ("gpu-memory", "oom-reserved"): "inactive_split",
    ("gpu-memory", "expandable-segments"): "inactive_split",
    ("gpu-memory", "paged-attention"): "largest_block",
    ("gpu-memory", "activation-checkpointing"): "activations",
    ("gpu-memory", "empty-cache"): "empty_cache",
    ("gpu-memory", "reserved-vs-allocated"): "gap",
    **{
        (GC, q): "activations"
        for q in (
            "tradeoff",
            "saved-activations",
            "sqrt-schedule",
            "overhead",
            "pytorch-api",
            "backward-recompute",
            "fsdp-mixed-precision",
            "selective",
        )
    },
}
UI_KEYS = ("heading", "snippet", "open", "open_tip", "dialog", "title", "failed", "no_trace")


def _load_texts() -> dict[str, dict[str, str]]:
    raw = tomllib.loads(YOURS_TEXTS.read_text(encoding="utf-8"))
    return {key: {lang: str(entry[lang]) for lang in LANGUAGES} for key, entry in raw.items()}


TEXTS: Mapping[str, Mapping[str, str]] = _load_texts()


def ui_text(key: str, lang: str) -> str:
    return TEXTS[key][lang]


def moment_event(data: DemoData, at: int | None = None) -> int:
    """`at`, else the event `explain` looks at: the first OOM, else the allocated peak; the final state for a file
    without a trace (event -1, where the state is the file's segments)."""
    if at is not None:
        return at
    moment = pick_moment(data.timeline)
    return moment.event if moment.event is not None else data.last


def _focus(
    data: DemoData, event: int, state: AllocatorState, mask: np.ndarray, finding: str, **values: object
) -> DemoFocus:
    facts: Facts = {k: v for k, v in values.items() if isinstance(v, int | float)}
    facts["event"] = event
    caption = say(
        TEXTS, finding, **{k: size(v) if k.endswith("_bytes") and isinstance(v, int) else v for k, v in values.items()}
    )
    return make_focus(data, event, state, mask, demo=f"yours:{finding}", title=finding, caption=caption, facts=facts)


def largest_hole(data: DemoData, at: int | None = None) -> DemoFocus:
    event = moment_event(data, at)
    state = data.timeline.state_at(event)
    blk = state.blocks
    free = blk.state == BlockState.INACTIVE
    holes = blk.size[free]
    largest = int(holes.max(initial=0))
    ooms = [o for o in data.timeline.ooms if o.index == event]
    if ooms:
        request = ooms[0].requested_bytes
    else:  # no OOM: the largest request the program made while recording, else the largest live block
        allocs = data.trace.action == Action.ALLOC
        request = int(data.trace.size[allocs].max(initial=0)) or int(blk.size[~free].max(initial=0))
    total = int(holes.sum())
    # fits a hole; or fragmentation: no hole fits though the holes add up to it; or too little free even together
    key = "largest_hole" if largest >= request else "largest_hole_short" if total >= request else "largest_hole_small"
    # the OOM's own request, else a request as large as the largest the run made: said apart in the caption
    which = Clause("request_oom" if ooms else "request_largest", {"request_bytes": size(request)})
    return _focus(
        data, event, state, free, key, largest_hole_bytes=largest, free_bytes=total, holes=int(free.sum()),
        request_bytes=request, request=which,
    )  # fmt: skip


def _inactive_split(state: AllocatorState) -> np.ndarray:
    """torch's inactive_split: free blocks sharing a non-expandable segment with a live block."""
    blk, seg = state.blocks, state.segments
    live_segment = np.zeros(len(seg), bool)
    live_segment[blk.segment[blk.state != BlockState.INACTIVE]] = True
    pinned = live_segment & ~seg.is_expandable
    mask: np.ndarray = (blk.state == BlockState.INACTIVE) & pinned[blk.segment]
    return mask


def inactive_split(data: DemoData, at: int | None = None) -> DemoFocus:
    event = moment_event(data, at)
    state = data.timeline.state_at(event)
    split = _inactive_split(state)
    blk = state.blocks
    return _focus(
        data, event, state, split, "inactive_split", split_bytes=int(blk.size[split].sum()),
        split_blocks=int(split.sum()), segments=int(np.unique(blk.segment[split]).size),
        reserved_bytes=int(state.segments.total_size.sum()),
    )  # fmt: skip


def empty_cache_returns(data: DemoData, at: int | None = None) -> DemoFocus:
    """At the final state (or `at`): the non-expandable segments with no live block, which empty_cache releases
    whole."""
    event = data.last if at is None else at
    state = data.timeline.state_at(event)
    blk, seg = state.blocks, state.segments
    live_segment = np.zeros(len(seg), bool)
    live_segment[blk.segment[blk.state != BlockState.INACTIVE]] = True
    released = ~live_segment & ~seg.is_expandable
    mask = released[blk.segment]
    expandable_free = int(blk.size[(blk.state == BlockState.INACTIVE) & seg.is_expandable[blk.segment]].sum())
    # the clause on expandable segments only where the file has some
    pages = (
        Clause("expandable_pages", {"expandable_free_bytes": size(expandable_free)})
        if seg.is_expandable.any()
        else None
    )
    return _focus(
        data, event, state, mask, "empty_cache", released_bytes=int(seg.total_size[released].sum()),
        released_segments=int(released.sum()), kept_segments=int((~released).sum()),
        kept_bytes=int(seg.total_size[~released].sum()), expandable_free_bytes=expandable_free, expandable=pages,
    )  # fmt: skip


def activations(data: DemoData, at: int | None = None) -> DemoFocus:
    event = moment_event(data, at)
    state = data.timeline.state_at(event)
    codes = block_categories(data.snapshot, data.timeline, state, event)
    blk = state.blocks
    allocated = blk.state == BlockState.ALLOCATED
    held = allocated & (codes == CATEGORIES.index("activations"))
    return _focus(
        data, event, state, held, "activations", activation_bytes=int(blk.size[held].sum()),
        activation_blocks=int(held.sum()), allocated_bytes=int(blk.size[allocated].sum()),
    )  # fmt: skip


def largest_block(data: DemoData, at: int | None = None) -> DemoFocus:
    event = moment_event(data, at)
    state = data.timeline.state_at(event)
    blk = state.blocks
    allocated = blk.state == BlockState.ALLOCATED
    if not allocated.any():
        raise DemoError(f"{data.snapshot.source}: no live block at the moment shown")
    largest = int(blk.size[allocated].max())
    mask = allocated & (blk.size == largest)
    return _focus(
        data, event, state, mask, "largest_block", block_bytes=largest, blocks=int(mask.sum()),
        allocated_bytes=int(blk.size[allocated].sum()),
    )  # fmt: skip


def _cache_reuse(data: DemoData, at: int | None = None) -> DemoFocus:
    """The whole trace's allocations against its cudaMallocs (`at` is not used: the run is the finding)."""
    if not (data.trace.action == Action.ALLOC).any():
        raise DemoError(f"{data.snapshot.source}: {ui_text('no_trace', 'en')}")
    return cache_reuse(data, "cache_reuse", "cache_reuse")


def _gap(data: DemoData, at: int | None = None) -> DemoFocus:
    """The gap at the final state, what the learner's program holds now (`at` is not used)."""
    return reserved_vs_allocated(data, "reserved_vs_allocated", "gap")


FINDINGS: dict[str, Callable[[DemoData, int | None], DemoFocus]] = {
    "largest_hole": largest_hole,
    "cache_reuse": _cache_reuse,
    "inactive_split": inactive_split,
    "gap": _gap,
    "empty_cache": empty_cache_returns,
    "activations": activations,
    "largest_block": largest_block,
}


def yours_focus(
    finding: str, snapshot: Snapshot, timeline: DeviceTimeline | None = None, at: int | None = None
) -> DemoFocus:
    """The finding lit on `snapshot` (its default device, or `timeline`'s) at its moment (or event `at`); DemoError
    when the file cannot show it."""
    maker = FINDINGS.get(finding)
    if maker is None:
        raise DemoError(f"unknown finding {finding!r} (known: {', '.join(FINDINGS)})")
    return maker(demo_data(snapshot, timeline), at)
