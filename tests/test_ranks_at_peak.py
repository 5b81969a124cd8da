"""Two ranks that end alike but peaked apart: the ranks tab compares them at their peaks and opens one at its peak."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

import pytest

from gpumem_gui.app import MainWindow
from gpumem_gui.core.allocator.simulator import DeviceAllocatorSim
from gpumem_gui.core.rules.allocator_constants import MiB
from gpumem_gui.views.compare.diff_view import DiffView
from gpumem_gui.views.compare.ranks_view import RanksView

BLOCK = 20 * MiB  # one 20 MiB request, one 20 MiB segment


def _write(path: Path, peak_blocks: int, device: int) -> None:
    """`peak_blocks` blocks, then all but three freed and the cache emptied: every rank ends at 60 MiB."""
    sim = DeviceAllocatorSim(peak_blocks * BLOCK + 10 * MiB, device=device)
    blocks = [sim.malloc(BLOCK) for _ in range(peak_blocks)]
    for block in blocks[3:]:
        sim.free(block)
    sim.empty_cache()
    path.write_bytes(pickle.dumps(sim.snapshot(), protocol=4))


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("ranks_at_peak")
    # each malloc is two events: its segment's, then its block's; reserved peaks at the last segment's
    _write(root / "rank0.pickle", 5, 0)  # peaks at 100 MiB reserved at event 8 (80 MiB allocated then)
    _write(root / "rank1.pickle", 8, 1)  # peaks at 160 MiB reserved at event 14 (140 MiB allocated then)
    return root


def _ranks(qtbot: Any, window: MainWindow, folder: Path) -> RanksView:
    view = window.compare.open_folder(str(folder))  # File > Open Folder...
    with qtbot.waitSignal(view.loaded, timeout=60_000):
        pass
    return view


def test_compare_two_ranks_at_their_peaks(qtbot: Any, folder: Path) -> None:
    window = MainWindow()
    qtbot.addWidget(window)
    view = _ranks(qtbot, window, folder)
    selection = view.table.selectionModel()
    for row in (0, 1):
        selection.select(view.proxy.index(row, 0), selection.SelectionFlag.Select | selection.SelectionFlag.Rows)
    view.compare_button.click()
    qtbot.waitUntil(lambda: isinstance(window.tabs.currentWidget(), DiffView), timeout=60_000)
    compared = window.tabs.currentWidget()
    assert isinstance(compared, DiffView)
    diff = compared.compare.diff
    # at their peaks (not their end states, 60 vs 60 MiB: no difference): 5 against 8 blocks of 20 MiB
    assert (diff.a.event, diff.b.event) == (8, 14)
    assert (diff.a.reserved_bytes, diff.b.reserved_bytes) == (100 * MiB, 160 * MiB)
    assert (diff.a.allocated_bytes, diff.b.allocated_bytes) == (80 * MiB, 140 * MiB)
    assert diff.added_bytes - diff.removed_bytes == 60 * MiB
    assert "@8" in window.tabs.tabText(window.tabs.currentIndex())
    window.close_tab(window.tabs.indexOf(view))


def test_open_a_rank_at_its_peak(qtbot: Any, folder: Path) -> None:
    window = MainWindow()
    qtbot.addWidget(window)
    view = _ranks(qtbot, window, folder)
    view.table.selectRow(1)
    view.open_button.click()  # rank 1: its file on device 1, at its peak
    window.wait_for_loads()
    doc = window.current_document()
    assert doc is not None and doc.device == 1
    assert doc.current_event == 14
    assert doc.document.frame().metrics.reserved_bytes == 160 * MiB
    window.close_tab(window.tabs.indexOf(view))
