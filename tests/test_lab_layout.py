"""The lab's panel: it measures when shown, draws quick figures before the sweep ends, and never grows the window."""

from __future__ import annotations

import sys
import time
from typing import Any

import pytest

from gpumem_gui.teach import lab

SCREEN = (1280, 800)


@pytest.fixture
def panel(qtbot: Any) -> Any:
    from gpumem_gui.views.teach.lab.panel import CheckpointLabPanel  # noqa: PLC0415

    p = CheckpointLabPanel()
    p.timing = False
    qtbot.addWidget(p)
    yield p
    p.shutdown()
    assert p.tasks.wait(30_000)


def _fits(size: Any) -> bool:
    return bool(size.width() <= SCREEN[0] and size.height() <= SCREEN[1])


def test_results_and_captions_do_not_grow_the_panel(qtbot: Any, panel: Any) -> None:
    panel.auto_run = False
    panel.resize(*SCREEN)
    panel.show()
    empty = panel.minimumSizeHint()
    assert _fits(empty), empty
    sweep = lab.run_sweep(9, width=32, tokens=16, n_values=(4, 9), timing=False)
    fsdp = lab.measure_fsdp(9, width=32, world_sizes=panel.fsdp_page.world_sizes())
    panel.show_sweep(sweep)
    panel.show_fsdp(fsdp)
    assert panel.minimumSizeHint() == empty  # the figures (and the long status line) take no more room
    panel.set_focus("recompute")
    with_caption = panel.minimumSizeHint()
    assert _fits(with_caption), with_caption
    # the caption is a band of fixed height: its text wraps inside it, however long, and never widens the panel
    assert with_caption.width() == empty.width()
    assert with_caption.height() - empty.height() <= 4 * panel.caption.fontMetrics().lineSpacing()
    for name in lab.FOCUSES:
        panel.set_focus(name)
        assert len(panel.caption.text()) > 80, name  # long captions, wrapped
        assert panel.minimumSizeHint() == with_caption, name
    assert panel.width() == SCREEN[0] and panel.height() == SCREEN[1]


def test_showing_the_panel_measures_and_draws_quick_figures_first(
    qtbot: Any, panel: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    shown: list[tuple[float, lab.LabSweep]] = []
    draw = panel.show_sweep
    monkeypatch.setattr(panel, "show_sweep", lambda s: (shown.append((time.perf_counter(), s)), draw(s)))
    assert lab.warm_up() > 0 and "torch._dynamo" in sys.modules  # what a cold lab waits for, done before it opens
    panel.n_values = (4, 9, 16, 25)
    panel.show()  # no Run click: the lab measures as soon as it is on screen
    assert panel.busy() and panel.run_started is not None
    qtbot.waitUntil(lambda: not panel.busy(), timeout=120_000)
    assert len(shown) >= 3
    (first_at, first), (last_at, last) = shown[0], shown[-1]
    assert not first.complete and last.complete and last is panel.sweep
    assert max(first.n_values) <= lab.QUICK_N_MAX < max(last.n_values)
    assert first_at < last_at
    assert panel.first_figures_seconds == pytest.approx(first_at - panel.run_started, abs=0.05)
    # measured 0.3 s once torch is warm, 3.1 s with both cores busy; the cold lab this guards against took 24.5 s
    assert panel.first_figures_seconds < 10.0
    assert f"first figures after {panel.first_figures_seconds:.1f} s" in panel.status.toolTip()
