"""RanksView: a folder read off the GUI thread into rows and bars, coloured flags, and the open and compare signals."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

import numpy as np
import psutil
import pytest
from PySide6 import QtCore

from gpumem_gui.core.allocator.simulator import DeviceAllocatorSim, OutOfMemoryError
from gpumem_gui.core.analysis.ranks import RanksTable
from gpumem_gui.core.rules.allocator_constants import MiB
from gpumem_gui.views.common import palette
from gpumem_gui.views.compare.ranks_view import COLUMNS, RanksView

BLOCK = 20 * MiB  # one 20 MiB request, one 20 MiB segment


def _write(path: Path, blocks: int, device: int, oom: bool = False) -> None:
    sim = DeviceAllocatorSim(blocks * BLOCK + 10 * MiB, device=device)
    for _ in range(blocks):
        sim.malloc(BLOCK)
    if oom:
        with pytest.raises(OutOfMemoryError):
            sim.malloc(1024 * MiB)
    path.write_bytes(pickle.dumps(sim.snapshot(), protocol=4))


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("ranks_view")
    _write(root / "rank0.pickle", 5, 0)
    _write(root / "rank1.pickle", 5, 1)
    _write(root / "oom_rank2.pickle", 5, 2, oom=True)
    _write(root / "rank3.pickle", 8, 3)  # 160 MiB against a median of 100: the outlier
    (root / "rank4.pickle").write_bytes(b"not a pickle")
    return root


def _loaded(qtbot: Any, folder: Path) -> tuple[RanksView, list[int], list[tuple[str, bool]]]:
    view = RanksView()
    qtbot.addWidget(view)
    view.resize(1100, 700)
    view.show()
    values: list[int] = []
    view.progress.valueChanged.connect(values.append)
    texts: list[tuple[str, bool]] = []  # the bar's words and whether it showed, at each file
    view.progress.valueChanged.connect(lambda _v: texts.append((view.progress.text(), view.progress.isVisible())))
    with qtbot.waitSignal(view.loaded, timeout=60_000):
        view.load_folder(str(folder))
    return view, values, texts


def test_rows_bars_and_flags(qtbot: Any, folder: Path) -> None:
    view, progress, texts = _loaded(qtbot, folder)
    model = view.proxy
    assert model.rowCount() == 4 and model.columnCount() == len(COLUMNS)
    cells = [[model.index(r, c).data() for c in range(model.columnCount())] for r in range(4)]
    assert [row[0] for row in cells] == ["0", "1", "2", "3"]
    assert [row[COLUMNS.index("peak reserved")] for row in cells] == ["100.0 MiB"] * 3 + ["160.0 MiB"]
    assert [row[COLUMNS.index("OOMs")] for row in cells] == ["0", "0", "1", "0"]
    assert [row[COLUMNS.index("flags")] for row in cells] == ["", "", "OOM", "high res., high alloc."]
    # the bars: the peaks in MiB in the table's order, the OOM rank red, the outlier orange
    np.testing.assert_array_equal(view.bars.heights, [100, 100, 100, 160])
    assert view.bars.brushes == [palette.RANK_BAR, palette.RANK_BAR, palette.RANK_BAR_OOM, palette.RANK_BAR_OUTLIER]
    # progress came file by file, up to all five (the unreadable one counts as done), shown while they came
    assert progress[-1] == 5 and len(set(progress)) >= 3
    assert texts[-1] == ("5 of 5 files", True)
    assert not view.progress.isVisible()  # hidden once the table is done
    assert view.errors.isVisibleTo(view) and "rank4.pickle" in view.errors.text()
    assert "rank 2" in view.status.text() and "rank 3" in view.status.text()


def test_double_click_and_bar_click_open(qtbot: Any, folder: Path) -> None:
    view, _, _ = _loaded(qtbot, folder)
    rect = view.table.visualRect(view.proxy.index(1, 2))
    qtbot.mouseClick(view.table.viewport(), QtCore.Qt.MouseButton.LeftButton, pos=rect.center())  # Qt's double
    with qtbot.waitSignal(view.open_requested) as blocker:  # click starts with a press on the same row
        qtbot.mouseDClick(view.table.viewport(), QtCore.Qt.MouseButton.LeftButton, pos=rect.center())
    assert blocker.args == [str(folder / "rank1.pickle"), 1, 8]  # its fifth segment (a malloc is two events): its peak
    # the middle of the fourth bar, through the plot's own coordinates
    vb = view.bars.plotItem.vb
    scene = vb.mapViewToScene(QtCore.QPointF(3, 80))
    pos = view.bars.mapFromScene(scene)
    with qtbot.waitSignal(view.open_requested) as blocker:
        qtbot.mouseClick(view.bars.viewport(), QtCore.Qt.MouseButton.LeftButton, pos=pos)
    assert blocker.args == [str(folder / "rank3.pickle"), 3, 14]
    assert [i.row() for i in view.table.selectionModel().selectedRows()] == [3]
    # above a bar: nothing
    assert view.bars.bar_at(vb.mapViewToScene(QtCore.QPointF(0, 150))) is None


def test_compare_two_selected(qtbot: Any, folder: Path) -> None:
    view, _, _ = _loaded(qtbot, folder)
    assert not view.compare_button.isEnabled()
    selection = view.table.selectionModel()
    flags = QtCore.QItemSelectionModel.SelectionFlag.Select | QtCore.QItemSelectionModel.SelectionFlag.Rows
    selection.select(view.proxy.index(2, 0), flags)
    assert not view.compare_button.isEnabled() and view.open_button.isEnabled()
    selection.select(view.proxy.index(0, 0), flags)
    assert view.compare_button.isEnabled() and not view.open_button.isEnabled()
    with qtbot.waitSignal(view.compare_requested) as blocker:
        qtbot.mouseClick(view.compare_button, QtCore.Qt.MouseButton.LeftButton)
    assert blocker.args == [str(folder / "rank0.pickle"), 0, 8, str(folder / "oom_rank2.pickle"), 2, 8]


def test_empty_table_and_cancel(qtbot: Any, folder: Path, tmp_path: Path) -> None:
    view = RanksView()
    qtbot.addWidget(view)
    view.set_table(RanksTable([], [], []), str(tmp_path))
    assert view.proxy.rowCount() == 0 and len(view.bars.heights) == 0
    assert "No snapshot files" in view.status.text()
    view.load_folder(str(folder))
    view.cancel()
    assert view.tasks.wait(30_000)
    assert view.result is None
    left = [
        p
        for p in psutil.Process().children(recursive=True)
        if p.is_running() and p.status() != psutil.STATUS_ZOMBIE and "resource_tracker" not in " ".join(p.cmdline())
    ]
    assert not left


def test_not_a_folder(qtbot: Any, tmp_path: Path) -> None:
    view = RanksView()
    qtbot.addWidget(view)
    view.load_folder(str(tmp_path / "absent"))
    assert view.tasks.wait(30_000)
    qtbot.waitUntil(lambda: "Could not read the folder" in view.status.text())
