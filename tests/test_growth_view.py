"""GrowthView: one row per growing site, fastest first; picking a row shows its stack and emits its site."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from PySide6 import QtCore

from gpumem_gui.assets import example_path
from gpumem_gui.core import load_snapshot
from gpumem_gui.core.analysis.growth import GrowingSite, Growth, Steps, find_growth
from gpumem_gui.core.analysis.timetravel import build_timeline
from gpumem_gui.core.rules.allocator_constants import MiB
from gpumem_gui.core.snapshot.model import Frame
from gpumem_gui.views.diagnosis.growth_view import GrowthView


def _site(name: str, per_step: int, line: int) -> GrowingSite:
    values = np.arange(1, 5, dtype=np.int64) * per_step
    frames = (Frame(name, "loop.py", line), Frame("train", "loop.py", 5))
    return GrowingSite(f"loop.py:{line}:{name}", "other", float(per_step), 4, 3, int(values[0]), int(values[-1]), 0,
                       frames, values)  # fmt: skip


@pytest.fixture
def view(qtbot: Any) -> GrowthView:
    widget = GrowthView()
    qtbot.addWidget(widget)
    widget.resize(640, 420)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def test_the_leaking_example_shows_its_site_and_stack(view: GrowthView) -> None:
    snap = load_snapshot(example_path("training_leak"))
    view.set_growth(find_growth(snap, build_timeline(snap, 0)))
    assert view.proxy.rowCount() == 1
    row = [view.proxy.index(0, c).data() for c in range(5)]
    assert row == ["model/transformer.py:160:forward", "32.0 MiB", "6", "32.0 MiB", "192.0 MiB"]
    assert view.summary.text().startswith("1 allocation site grows from step to step over 6 steps")
    assert view.stack.isVisibleTo(view)
    first = view.stack.frames_shown()[0]
    assert (first.filename, first.line) == ("model/transformer.py", 160)


def test_rows_sort_and_picking_one_emits_its_site(view: GrowthView, qtbot: Any) -> None:
    steps = Steps(np.array([10, 20, 30, 40], np.int64), "hand-made")
    slow, fast = _site("slow", 2 * MiB, 30), _site("fast", 9 * MiB, 20)
    view.set_growth(Growth(steps, [slow, fast]))
    assert [view.proxy.index(r, 0).data() for r in range(2)] == ["loop.py:20:fast", "loop.py:30:slow"]
    assert view.selected_site() is fast  # the fastest growing is picked on arrival
    with qtbot.waitSignal(view.site_selected) as signal:
        view.table.selectRow(1)
    assert signal.args == ["loop.py:30:slow"]
    assert view.selected_site() is slow
    assert view.stack.frames_shown()[0] == Frame("slow", "loop.py", 30)
    view.table.sortByColumn(1, QtCore.Qt.SortOrder.AscendingOrder)  # numbers, not their text, decide the order
    assert [view.proxy.index(r, 1).data() for r in range(2)] == ["2.0 MiB", "9.0 MiB"]


def test_nothing_growing_and_nothing_computed(view: GrowthView) -> None:
    snap = load_snapshot(example_path("training_steady"))
    view.set_growth(find_growth(snap, build_timeline(snap, 0)))
    assert view.proxy.rowCount() == 0 and not view.stack.isVisibleTo(view)
    assert view.summary.text().startswith("Nothing grows from step to step over 6 steps")
    view.set_growth(None)
    assert view.proxy.rowCount() == 0 and view.selected_site() is None
    assert "not computed" in view.summary.text()
