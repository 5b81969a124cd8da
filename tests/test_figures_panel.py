"""FiguresPanel: each figure with its share, the findings under them in their colours, and one width whatever shows."""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

from gpumem_gui import assets
from gpumem_gui.core import load_snapshot
from gpumem_gui.core.analysis.first_look import Finding, first_look, oom_figures, upcoming_requests
from gpumem_gui.core.analysis.metrics import Metrics, compute_metrics
from gpumem_gui.core.analysis.timetravel import build_timeline
from gpumem_gui.views.common import palette
from gpumem_gui.views.snapshot.figures import FiguresPanel

GiB, MiB = 1 << 30, 1 << 20
EXAMPLES = assets.EXAMPLES


def metrics(reserved: int, allocated: int, free: int, largest: int, *, split: int = 0, segments: int = 1) -> Metrics:
    return Metrics(
        segments=segments,
        blocks=3 * segments,
        reserved_bytes=reserved,
        allocated_bytes=allocated,
        requested_bytes=allocated - allocated // 100,
        pending_free_bytes=reserved - allocated - free,
        active_bytes=reserved - free,
        free_bytes=free,
        internal_waste_bytes=allocated // 100,
        largest_free_block_bytes=largest,
        external_fragmentation=1 - largest / free if free else 0.0,
        inactive_split_bytes=split,
        largest_allocation_that_fits=largest,
        free_blocks=2,
    )


def panel(qtbot: Any) -> FiguresPanel:
    p = FiguresPanel()
    qtbot.addWidget(p)
    return p


def test_rows_show_their_share(qtbot: Any) -> None:
    p = panel(qtbot)
    p.set_metrics(metrics(16 * GiB, 12 * GiB, 4 * GiB, GiB, split=GiB), "GPU 0, at the snapshot")
    assert p.values["allocated_bytes"].text() == "12.0 GiB" and p.shares["allocated_bytes"].text() == "75% of reserved"
    assert p.shares["free_bytes"].text() == "25% of reserved"
    assert p.shares["largest_free_block_bytes"].text() == "25% of free"  # 1 GiB of 4 GiB
    assert p.shares["internal_waste_bytes"].text() == "1.0% of allocated"
    assert p.values["external_fragmentation"].text() == "75.0%" and p.shares["external_fragmentation"].text() == "high"
    assert "What it means" in p.values["external_fragmentation"].toolTip()
    assert "Normal: under 20% of reserved" in p.names["free_bytes"].toolTip()
    assert p.shares["segments"].text() == ""


def test_findings_listed_in_their_colours_and_rows_marked(qtbot: Any) -> None:
    p = panel(qtbot)
    m = metrics(16 * GiB, 12 * GiB, 4 * GiB, GiB)
    alert = Finding("alert", "OOM at event 3: a request of 2.0 GiB failed <here>", {"oom_requested_bytes": 2 * GiB})
    p.set_metrics(m, "GPU 0", [alert, *first_look(m)])
    text = p.findings_label.text()
    assert html.escape(alert.text) in text  # escaped: a sentence is text, never markup
    assert "cached but free" in text and "Fragmentation 75%" in text
    assert text.index("OOM") < text.index("cached but free")  # in the order given
    for severity in ("alert", "warn"):
        assert palette.FINDING[severity] in text and palette.FINDING_BACK[severity] in text
    assert palette.FINDING["warn"] in p.values["free_bytes"].styleSheet()  # the row the warning is about
    assert palette.FINDING["warn"] in p.values["external_fragmentation"].styleSheet()
    assert not p.values["reserved_bytes"].styleSheet()
    assert "oom requested 2.0 GiB (2,147,483,648 bytes)" in p.findings_label.toolTip()


def test_without_findings_the_figures_give_their_own(qtbot: Any) -> None:
    p = panel(qtbot)
    p.set_metrics(metrics(int(16.1 * GiB), int(16.1 * GiB) - int(84.7 * MiB), int(84.7 * MiB), 10 * MiB), "GPU 0")
    assert [f.severity for f in p.findings] == ["info"]
    assert "Fragmentation 88% matters little: only 84.7 MiB (0.5%) is free." in p.findings_label.text()
    assert not p.values["external_fragmentation"].styleSheet()  # an info marks no row


def test_bracket_and_marks_live_together(qtbot: Any) -> None:
    p = panel(qtbot)
    m = metrics(16 * GiB, 12 * GiB, 4 * GiB, GiB)
    p.set_metrics(m, "GPU 0")
    p.set_bracket(m.reserved_bytes, m.allocated_bytes, "the gap")
    assert p.bracket_shown() and palette.FOCUS_BACKGROUND in p.values["reserved_bytes"].styleSheet()
    assert palette.FINDING["warn"] in p.values["free_bytes"].styleSheet()
    p.clear_bracket()
    assert not p.values["reserved_bytes"].styleSheet()
    assert palette.FINDING["warn"] in p.values["free_bytes"].styleSheet()  # the finding's mark stays
    p.set_bracket(m.reserved_bytes, m.allocated_bytes, "the gap")
    p.set_metrics(m, "GPU 0")  # new figures end the bracket
    assert not p.bracket_shown() and not p.values["reserved_bytes"].styleSheet()


def test_width_does_not_follow_the_text(qtbot: Any) -> None:
    p = panel(qtbot)
    p.set_metrics(metrics(0, 0, 0, 0, segments=0), "GPU 0")
    small = (p.sizeHint().width(), p.minimumSizeHint().width())
    huge = metrics(1000 * GiB - 1, 1000 * GiB - 3 * MiB, 3 * MiB - 1, 1, split=3 * MiB - 1, segments=9_999_999)
    long_title = "GPU 7, after event 2,999,999 of 3,000,000 (every pool, every stream, and then some more)"
    many = [Finding("alert", "word " * 80), *(Finding("warn", f"finding {k} " * 20) for k in range(5))]
    p.set_metrics(huge, long_title, many)
    assert (p.sizeHint().width(), p.minimumSizeHint().width()) == small
    p.show()
    qtbot.waitExposed(p)
    for label in (*p.values.values(), *p.shares.values()):  # nothing clipped
        assert label.fontMetrics().horizontalAdvance(label.text()) <= label.width(), label.text()


def test_the_oom_example_on_the_panel(qtbot: Any, tmp_path: Path) -> None:
    snap = load_snapshot(EXAMPLES / "fragmented_oom.pickle")
    tl = build_timeline(snap, 0)
    last = tl.n_events - 1
    state = tl.state_at(last)
    m = compute_metrics(state)
    found = first_look(m, oom=oom_figures(tl, last), upcoming=upcoming_requests(snap.trace(0), last), state=state)
    p = panel(qtbot)
    p.set_metrics(m, "GPU 0, at the snapshot", found)
    p.show()
    qtbot.waitExposed(p)
    assert "OOM at event 203" in p.findings_label.text() and palette.FINDING["alert"] in p.findings_label.text()
    p.grab().save(str(tmp_path / "figures_oom.png"))
