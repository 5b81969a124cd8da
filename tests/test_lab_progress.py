"""The lab while it measures: each stage of the sweep said with its seconds, and the API tab opened by hand during a
sweep measured next, ahead of the rest (the review saw it stay on "measuring..." behind the whole sweep)."""

from __future__ import annotations

from typing import Any

import pytest
import pytestqt  # noqa: F401  (a test dependency: missing, the suite fails rather than skips)
from PySide6 import QtCore

from gpumem_gui.teach import lab


def test_run_sweep_names_each_stage_with_its_chain_lengths() -> None:
    stages: list[tuple[str, tuple[int, ...]]] = []
    lab.run_sweep(9, width=16, tokens=8, n_values=(4, 9, 25), timing=True, stage=lambda s, ns: stages.append((s, ns)))
    # torch first (a cold start's long wait), then the figures drawn at once, bf16 and autocast at N, each longer
    # chain, and the timed steps at their own size
    assert stages == [
        ("warm_up", ()),
        ("quick", (4, 9)),
        ("precisions", (9,)),
        ("longer", (25,)),
        ("timing", (lab.TIMING_SIZE["n_layers"],)),
    ]


def test_the_status_says_what_is_measured_and_counts_the_seconds(qtbot: Any) -> None:
    from gpumem_gui.views.teach.lab.panel import CheckpointLabPanel  # noqa: PLC0415

    panel = CheckpointLabPanel()
    panel.auto_run = False
    panel.n_values, panel.timing = (4, 9, 25), False
    panel.n_spin.setValue(9)
    qtbot.addWidget(panel)
    said: list[str] = []
    waiting: list[str] = []
    busy: list[bool] = []

    def look() -> None:
        said.append(panel.status.text())
        waiting.append(panel.saved_plot.waiting.text)
        busy.append(not panel.progress.isHidden() and panel.progress.maximum() == 0)

    watch = QtCore.QTimer(interval=20)
    watch.timeout.connect(look)
    watch.start()
    panel.run()
    look()  # at once: the first thing said, before torch is even imported
    qtbot.waitUntil(lambda: not panel.busy() and panel.sweep is not None and panel.sweep.complete, timeout=120_000)
    watch.stop()
    assert said[0].startswith("importing torch and warming it up (the first run only") and said[0].endswith(" s)")
    assert waiting[0] == said[0].rsplit(" (", 1)[0]  # the empty plot says it too, not a blank frame
    assert busy[0]  # a busy bar until the first fraction is known
    assert any(s.startswith("measuring the first figures: N = 4, 9, every policy") for s in said)
    assert any(s.startswith("measuring a longer chain: N = 25") for s in said)
    # the status ends on the figures, with no stage left, and the plot's line is gone with the first figures
    assert panel.status.text().startswith("first figures after ") and "measuring" not in panel.status.text()
    assert panel.saved_plot.waiting.text == ""
    assert not panel.clock.isActive()


@pytest.mark.slow
def test_the_api_tab_opened_during_a_sweep_is_measured_next(qtbot: Any, monkeypatch: Any) -> None:
    from gpumem_gui.views.teach.lab.panel import TAB_API, CheckpointLabPanel  # noqa: PLC0415

    panel = CheckpointLabPanel()
    panel.auto_run = False
    panel.n_values = (4, 25, 36, 49)  # and the steps timed at their own size: a measurement of their own, after
    qtbot.addWidget(panel)
    order: list[str] = []
    for name in ("show_sweep", "show_api", "show_selection", "show_fsdp"):
        shown = getattr(panel, name)
        monkeypatch.setattr(panel, name, lambda value, shown=shown, name=name: (order.append(name), shown(value)))
    panel.run()  # the sweep runs; the FSDP calculator waits behind it
    assert panel.running is not None and "fsdp" in panel.pending
    qtbot.waitUntil(lambda: panel.sweep is not None, timeout=120_000)  # its first figures drawn: it goes on
    assert panel.running_kind == "lab"
    panel.tabs.setCurrentIndex(TAB_API)
    assert panel.running_kind == "lab"
    assert panel.api_page.result.text() == "waiting for the running measurement to finish, then measuring..."
    qtbot.waitUntil(lambda: panel.fsdp is not None and not panel.busy(), timeout=180_000)
    measured = [name for i, name in enumerate(order) if name not in order[:i]]  # each kind once, in order
    assert measured == ["show_sweep", "show_api", "show_selection", "show_fsdp"]
    assert order[-1] == "show_sweep" and panel.sweep is not None and panel.sweep.timings is not None  # timed last
    assert panel.api_page.table_result is not None and panel.api_page.result.text().startswith("Saving aten.mm")


def test_show_me_on_the_api_measures_the_table_before_the_sweep_the_showing_started(
    qtbot: Any, monkeypatch: Any
) -> None:
    """The window shows the lab (which starts measuring at once) and then focuses it on the api: the sweep, which
    has drawn nothing yet, goes back in the queue behind the table (seen: the table empty for 60 s under load)."""
    from gpumem_gui.views.teach.lab.panel import CheckpointLabPanel  # noqa: PLC0415

    panel = CheckpointLabPanel()
    panel.n_values, panel.timing = (4,), False
    qtbot.addWidget(panel)
    order: list[str] = []
    for name in ("show_sweep", "show_api", "show_selection", "show_fsdp"):
        shown = getattr(panel, name)
        monkeypatch.setattr(panel, name, lambda value, shown=shown, name=name: (order.append(name), shown(value)))
    panel.show()
    assert panel.running is not None and panel.running_kind == "lab"  # measuring as soon as it is on screen
    panel.set_focus("api")
    assert panel.yielding and "lab" in panel.pending and "api" in panel.pending  # it ends at its next check
    qtbot.waitUntil(lambda: panel.running_kind == "api", timeout=120_000)  # then the table, not the sweep again
    qtbot.waitUntil(lambda: panel.fsdp is not None and not panel.busy(), timeout=180_000)
    measured = [name for i, name in enumerate(order) if name not in order[:i]]
    assert measured == ["show_api", "show_selection", "show_sweep", "show_fsdp"]
    assert panel.sweep is not None and panel.sweep.complete and "aten.mm" in panel.caption.text()
