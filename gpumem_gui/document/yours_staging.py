"""The learner's own snapshot made ready off the GUI thread, with one quiz concept lit on it ("Try it on yours")."""

from __future__ import annotations

from pathlib import Path

from gpumem_gui.core.snapshot.loader import load_snapshot
from gpumem_gui.document.document import SnapshotDocument
from gpumem_gui.document.staging import Check, StagedDemo
from gpumem_gui.teach.yours import yours_focus


def stage_yours(path: Path, finding: str, check: Check) -> StagedDemo:
    """Load and index the learner's snapshot, then compute the finding's focus on it (DemoError when it cannot show
    it, SnapshotError when the file is no snapshot: each a one-line message)."""
    snapshot = load_snapshot(path)
    check()
    document = SnapshotDocument(snapshot)
    focus = yours_focus(finding, snapshot, document.timeline())
    return StagedDemo(f"yours: {path.name}", [document], [focus])
