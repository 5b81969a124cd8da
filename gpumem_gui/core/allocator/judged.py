"""Whether a recorded trace can judge a change of allocator settings: those that act on segments need a trace that
makes or gives back segments, since the replay starts from segments made before recording under the old settings."""

from __future__ import annotations

import numpy as np

from gpumem_gui.core.rules.alloc_conf import AllocConfError, parse_alloc_conf
from gpumem_gui.core.snapshot.model import Action, TraceTable
from gpumem_gui.core.snapshot.sentences import QT_TRANSLATE_NOOP, joined, say

# the settings that act on segments: how they are made (expandable_segments), which cached blocks are split or
# released (max_split_size_mb), when cached segments are given back (garbage_collection_threshold) and how many may be
# reserved (per_process_memory_fraction); roundup_power2_divisions acts on each request's size, which the replay shows
SEGMENT_SETTINGS = {
    "expandable_segments": "expandable_segments",
    "max_split_size": "max_split_size_mb",
    "garbage_collection_threshold": "garbage_collection_threshold",
    "per_process_memory_fraction": "per_process_memory_fraction",
}
_SEGMENT_EVENTS = (Action.SEGMENT_ALLOC, Action.SEGMENT_FREE, Action.SEGMENT_MAP, Action.SEGMENT_UNMAP)


def makes_segments(trace: TraceTable) -> bool:
    """Whether the trace creates, maps, frees or unmaps any segment."""
    return bool(np.isin(trace.action, _SEGMENT_EVENTS).any())


def unjudged_reason(trace: TraceTable, recorded: str, settings: str) -> str:
    """Why the replay of `trace` under `settings` cannot judge them against the `recorded` settings ("" when it can):
    a setting that acts on segments changed, and every segment predates recording."""
    if makes_segments(trace):
        return ""
    try:
        before, after = parse_alloc_conf(recorded), parse_alloc_conf(settings)
    except AllocConfError:
        return ""
    changed = [name for field, name in SEGMENT_SETTINGS.items() if getattr(before, field) != getattr(after, field)]
    if not changed:
        return ""
    if len(changed) == 1:
        template = QT_TRANSLATE_NOOP(
            "Remedies",
            "the trace cannot judge this: every segment predates recording (the trace never creates or frees one),"
            " and {settings} acts on how segments are made, split or given back",
        )
    else:
        template = QT_TRANSLATE_NOOP(
            "Remedies",
            "the trace cannot judge this: every segment predates recording (the trace never creates or frees one),"
            " and {settings} act on how segments are made, split or given back",
        )
    names = say(
        QT_TRANSLATE_NOOP("Remedies", "{some} and {last}"), some=joined(changed[:-1], " and "), last=changed[-1]
    )
    return say(template, settings=names if len(changed) > 1 else changed[0])
