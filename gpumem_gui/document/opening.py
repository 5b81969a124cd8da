"""Where a file's tab opens on a device: its first OOM, else its peak of allocated memory, and that moment in words."""

from __future__ import annotations

from gpumem_gui.core.analysis.diagnosis import Moment, pick_moment
from gpumem_gui.core.analysis.timetravel import DeviceTimeline
from gpumem_gui.core.snapshot.units import format_bytes


def opening_moment(timeline: DeviceTimeline) -> tuple[Moment, int] | None:
    """The moment a person opens a device's trace at, with its event: the first OOM, else the first event at the peak
    of allocated memory (the moment `explain` picks too). The end of a trace is often the state after the OOM, or
    after an empty_cache() that gave back what the peak held. None without a trace."""
    moment = pick_moment(timeline)
    return None if moment.event is None else (moment, moment.event)


def moment_words(moment: Moment, timeline: DeviceTimeline) -> str:
    """The moment as the tab's line names it: "the OOM (event 421 of 596)", "the peak of allocated memory, 1.5 GiB
    (event 9 of 22)"."""
    assert moment.event is not None
    if moment.kind == "oom":
        count = len(timeline.ooms)
        what = "the OOM" if count == 1 else f"the first of {count:,} OOMs"
    else:
        what = f"the peak of allocated memory, {format_bytes(int(timeline.series.allocated[moment.event]))}"
    return f"{what} (event {moment.event:,} of {timeline.n_events:,})"
