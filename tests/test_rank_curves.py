"""The ranks tab's small multiples: every rank's reserved envelope on one y scale, the outlier and the OOM marked."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from gpumem_gui.views.common import palette
from gpumem_gui.views.compare.rank_curves import RankCurves
from gpumem_gui.views.compare.ranks_view import RanksView
from tests.test_ranks_view import _write


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("rank_curves")
    for rank in (0, 1, 2):
        _write(root / f"rank{rank}.pickle", 5, rank, oom=rank == 2)
    _write(root / "rank3.pickle", 8, 3)  # 160 MiB against a median of 100: the outlier
    return root


def _high(plot: Any) -> np.ndarray:
    """The upper edge of a plot's envelope (its second curve), in MiB."""
    return np.asarray(plot.listDataItems()[1].getData()[1])


def test_small_multiples_of_every_rank(qtbot: Any, folder: Path) -> None:
    view = RanksView()
    qtbot.addWidget(view)
    view.resize(1000, 700)
    view.show()
    with qtbot.waitSignal(view.loaded, timeout=60_000):
        view.load_folder(str(folder))
    assert view.rank_curves.plots == []  # drawn only when its tab is shown
    view.charts.setCurrentWidget(view.rank_curves)
    curves = view.rank_curves
    assert len(curves.plots) == 4
    # one y scale for all: the highest peak (160 MiB) and a margin
    assert {tuple(p.viewRange()[1]) for p in curves.plots} == {(0.0, 160 * 1.05)}
    # hand-worked: each malloc is a segment's event then a block's, reserved grows by 20 MiB at every segment
    np.testing.assert_array_equal(_high(curves.plots[0]), [20, 20, 40, 40, 60, 60, 80, 80, 100, 100])
    np.testing.assert_array_equal(_high(curves.plots[3])[-2:], [160, 160])
    assert curves.colours == [palette.RANK_BAR, palette.RANK_BAR, palette.RANK_BAR_OOM, palette.RANK_BAR_OUTLIER]
    assert "high res." in curves.plots[3].titleLabel.text and "OOM" in curves.plots[2].titleLabel.text
    # a click in the table redraws the bars, not the plots
    plots = list(curves.plots)
    view.table.selectRow(1)
    assert curves.plots == plots


def test_many_ranks_are_capped(qtbot: Any, folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from gpumem_gui.views.compare import rank_curves  # noqa: PLC0415

    monkeypatch.setattr(rank_curves, "MAX_PLOTS", 2)
    view = RanksView()
    qtbot.addWidget(view)
    with qtbot.waitSignal(view.loaded, timeout=60_000):
        view.load_folder(str(folder))
    widget: RankCurves = view.rank_curves
    view.charts.setCurrentWidget(widget)
    assert len(widget.plots) == 2 and "the first 2 of 4 files" in widget.note.text()
