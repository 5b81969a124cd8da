"""Documents made ready off the GUI thread: a what-if replay as two documents, a quiz demo with its foci.

Each function runs inside a task; `check()` raises when the task was cancelled, between the slow steps."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

from gpumem_gui.assets import example_path
from gpumem_gui.core.allocator.remedies import Explanation
from gpumem_gui.core.allocator.replay import ReplayResult, replay
from gpumem_gui.core.analysis.timetravel import DeviceTimeline, build_timeline
from gpumem_gui.core.snapshot.convert import snapshot_from_object
from gpumem_gui.core.snapshot.loader import load_snapshot
from gpumem_gui.core.snapshot.model import Snapshot
from gpumem_gui.document.document import SnapshotDocument
from gpumem_gui.teach.quiz_demos import DemoFocus, foci_for, plan_for, run_whatif

Check = Callable[[], None]


@dataclass(frozen=True)
class WhatIfRun:
    """A finished replay: its figures and both runs as documents (the recorded one apart from its tab's)."""

    result: ReplayResult
    original: SnapshotDocument
    replayed: SnapshotDocument
    change: str = ""  # what was replayed, in words, where it is not only settings (a remedy's change to the program)


def replay_document(document: SnapshotDocument, overrides: list[str], capacity: int | None, check: Check) -> WhatIfRun:
    """Replay `document`'s device under `overrides` (PYTORCH_CUDA_ALLOC_CONF items) and index the replayed run.

    Reads only what does not change under the GUI (the snapshot, the device's timeline), so the tab stays live."""
    snapshot, device = document.snapshot, document.device
    timeline = document.timelines.get(device) or build_timeline(snapshot, device, document.config)
    result = replay(snapshot, device=device, overrides=overrides, capacity=capacity)
    check()
    return _beside(snapshot, device, timeline, result)


def remedy_document(document: SnapshotDocument, explanation: Explanation, index: int, check: Check) -> WhatIfRun:
    """The explanation's remedy `index` replayed (its settings, or the program's changed trace) and indexed, beside
    `document`'s recorded run: its events are paired with the recorded ones by request (replayed_event)."""
    snapshot, device = document.snapshot, explanation.diagnosis.device
    result = explanation.replay_remedy(snapshot, index)
    check()
    run = _beside(snapshot, device, explanation.diagnosis.timeline, result)
    return dataclasses.replace(run, change=explanation.remedies[index].what)


def _beside(snapshot: Snapshot, device: int, timeline: DeviceTimeline, result: ReplayResult) -> WhatIfRun:
    """The recorded run and the replayed one, each a document of the device, indexed."""
    replayed = snapshot_from_object(result.snapshot, f"{snapshot.source} (what if)", "dump")
    replayed_doc = SnapshotDocument(replayed, {device: build_timeline(replayed, device)}, device=device)
    return WhatIfRun(result, SnapshotDocument(snapshot, {device: timeline}, device=device), replayed_doc)


@dataclass(frozen=True)
class StagedDemo:
    """A quiz demo made ready: its documents (or what-if run) and each one's focus."""

    title: str
    documents: list[SnapshotDocument]
    foci: list[DemoFocus]  # one per document
    run: WhatIfRun | None = None


def stage_demo(demo: str, check: Check) -> StagedDemo:
    """Load a demo's bundled snapshots, replay and index them, and compute their foci."""
    plan = plan_for(demo)
    snapshots = [load_snapshot(example_path(name)) for name in plan.examples]  # small bundled files
    check()
    title = f"show me: {plan.titles[0]}"
    if plan.kind == "whatif":
        replayed = run_whatif(plan, snapshots[0])
        device = replayed.result.device
        original = SnapshotDocument(snapshots[0], device=device)
        foci = foci_for(demo, [snapshots[0], replayed.snapshot], [original.timeline(), replayed.timeline])
        other = SnapshotDocument(replayed.snapshot, {device: replayed.timeline}, device=device)
        return StagedDemo(title, [original, other], list(foci), WhatIfRun(replayed.result, original, other))
    documents = [SnapshotDocument(snapshot) for snapshot in snapshots]
    foci = foci_for(demo, snapshots, [document.timeline() for document in documents])
    if plan.kind == "pair":
        title = "show me: " + " vs ".join(plan.titles)
    return StagedDemo(title, documents, list(foci))
