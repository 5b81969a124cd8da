"""What each quiz question's "Show me" opens and points at, computed from the snapshot's own data.

The public face of teach/demos/: a demo (one of the names in the quiz files' `demo` field) has a `DemoPlan`
(plans.py): which bundled examples to open and how (one snapshot, two side by side, a what-if replay, or the
checkpointing lab). A `DemoFocus` (focus.py) is what to point at in one view; the analyses (single.py for one
snapshot, paired.py for two) compute it from the data, and captions.py words it.

    plan = plan_for(question.demo)
    snapshots = [load_snapshot(example_path(name)) for name in plan.examples]
    foci = foci_for(plan.demo, snapshots)                      # "snapshot" and "pair": one focus per view
    run = run_whatif(plan, snapshots[0])                       # "whatif": replay first ...
    foci = whatif_foci(snapshots[0], run.snapshot, plan, run.timeline)   # ... then the recorded and replayed foci
"""

from __future__ import annotations

from collections.abc import Sequence

from gpumem_gui.core.analysis.timetravel import DeviceTimeline
from gpumem_gui.core.snapshot.model import Snapshot
from gpumem_gui.teach.demos.focus import Bracket, DemoFocus, Facts, TimelineMark, demo_data
from gpumem_gui.teach.demos.paired import KV_CACHE_SITE, PairedRun, kv_cache_foci, recorded_oom, run_whatif, whatif_foci
from gpumem_gui.teach.demos.plans import DEMO_NAMES, PLANS, DemoError, DemoKind, DemoPlan, plan_for
from gpumem_gui.teach.demos.single import SINGLE

__all__ = [
    "DEMO_NAMES",
    "KV_CACHE_SITE",
    "PLANS",
    "Bracket",
    "DemoError",
    "DemoFocus",
    "DemoKind",
    "DemoPlan",
    "Facts",
    "PairedRun",
    "TimelineMark",
    "foci_for",
    "focus_for",
    "kv_cache_foci",
    "plan_for",
    "run_whatif",
    "whatif_foci",
]


def focus_for(demo: str, snapshot: Snapshot, timeline: DeviceTimeline | None = None) -> DemoFocus:
    """The focus of a one-snapshot demo on `snapshot` (its default device, or `timeline`'s); for a what-if, the
    recorded run's."""
    plan = plan_for(demo)
    if plan.kind == "whatif":  # the recorded side, which needs no replay (see whatif_foci for both)
        return recorded_oom(demo_data(snapshot, timeline), plan)
    maker = SINGLE.get(demo)
    if maker is None:
        raise DemoError(f"{demo} is a {plan.kind} demo: use foci_for with all its snapshots")
    return maker(demo_data(snapshot, timeline), demo, plan.titles[0])


def foci_for(
    demo: str, snapshots: Sequence[Snapshot], timelines: Sequence[DeviceTimeline | None] | None = None
) -> tuple[DemoFocus, ...]:
    """One focus per view of the demo: `snapshots` in the order of the plan's examples; for a what-if, the
    recorded snapshot and then the replayed one (see run_whatif)."""
    plan = plan_for(demo)
    if plan.kind == "lab":
        raise DemoError(f"{demo} is shown by the checkpointing lab, not on a snapshot")
    expected = 2 if plan.kind in ("pair", "whatif") else 1
    if len(snapshots) != expected:
        raise DemoError(f"{demo} needs {expected} snapshot(s), got {len(snapshots)}")
    tls = list(timelines) if timelines is not None else [None] * expected
    if plan.kind == "pair":
        return kv_cache_foci(snapshots[0], snapshots[1], tls)
    if plan.kind == "whatif":
        return whatif_foci(snapshots[0], snapshots[1], plan, tls[1], tls[0])
    return (focus_for(demo, snapshots[0], tls[0]),)
