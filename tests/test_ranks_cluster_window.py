"""File > Open Cluster Folder...: the folder read on a Dask cluster's workers into the ranks tab, the scheduler
remembered, and one line when Dask is missing or the scheduler does not answer."""

from __future__ import annotations

import pickle
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6 import QtCore, QtWidgets

from gpumem_gui.app import MainWindow
from gpumem_gui.core.allocator.simulator import DeviceAllocatorSim
from gpumem_gui.core.rules.allocator_constants import MiB
from gpumem_gui.sources import rank_cluster
from gpumem_gui.sources.rank_cluster import DaskMissing
from gpumem_gui.views.compare.cluster_dialog import SCHEDULER_KEY, ClusterFolderDialog
from gpumem_gui.views.compare.ranks_view import COLUMNS, RanksView

distributed = pytest.importorskip("distributed")
BLOCK = 20 * MiB


def _folder(root: Path) -> Path:
    """Ranks 0 and 1 with 5 live 20 MiB blocks each, rank 2 with 8: a fresh folder (no cached summaries)."""
    for rank, blocks in ((0, 5), (1, 5), (2, 8)):
        sim = DeviceAllocatorSim(blocks * BLOCK + 10 * MiB, device=0)
        for _ in range(blocks):
            sim.malloc(BLOCK)
        (root / f"rank{rank}.pickle").write_bytes(pickle.dumps(sim.snapshot(), protocol=4))
    return root


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """A scheduler and one worker thread in this process, on TCP as a real cluster's (fast to start)."""
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, protocol="tcp://", host="127.0.0.1", dashboard_address=":0"
    ) as local:
        yield local.scheduler_address


@pytest.fixture
def window(qtbot: Any, tmp_path: Path) -> MainWindow:
    window = MainWindow(QtCore.QSettings(str(tmp_path / "settings.ini"), QtCore.QSettings.Format.IniFormat))
    qtbot.addWidget(window)
    return window


def _dialog_answers(monkeypatch: pytest.MonkeyPatch, folder: str, scheduler: str) -> None:
    """The dialog filled in and accepted (as the user would), without its modal loop."""

    def answer(dialog: ClusterFolderDialog) -> QtWidgets.QDialog.DialogCode:
        assert dialog.open_button.isEnabled() == bool(dialog.folder() and dialog.scheduler())
        dialog.folder_edit.setText(folder)
        dialog.scheduler_edit.setText(scheduler)
        dialog.accept()
        return QtWidgets.QDialog.DialogCode.Accepted

    monkeypatch.setattr(ClusterFolderDialog, "exec", answer)


def _ranks_tab(qtbot: Any, window: MainWindow) -> RanksView:
    view = window.tabs.currentWidget()
    assert isinstance(view, RanksView)
    qtbot.waitUntil(lambda: not view.progress.isVisibleTo(view), timeout=60_000)
    return view


def test_a_folder_read_on_the_cluster(
    qtbot: Any, window: MainWindow, scheduler: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _folder(tmp_path)
    _dialog_answers(monkeypatch, str(folder), scheduler)
    window.compare.open_cluster_dialog()  # File > Open Cluster Folder...
    view = _ranks_tab(qtbot, window)
    assert view.result is not None, view.status.text()
    peaks = [view.proxy.index(r, COLUMNS.index("peak reserved")).data() for r in range(view.proxy.rowCount())]
    assert peaks == ["100.0 MiB", "100.0 MiB", "160.0 MiB"]
    assert len(view.curves) == 3  # the curves came back from the workers too
    assert scheduler in window.tabs.tabText(window.tabs.currentIndex())
    # remembered: the next dialog offers the same scheduler
    assert window.settings.value(SCHEDULER_KEY) == scheduler
    assert ClusterFolderDialog(window.settings).scheduler() == scheduler


def test_no_scheduler_there(qtbot: Any, window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rank_cluster, "CONNECT_TIMEOUT_S", 1)
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    window.compare.open_folder(str(_folder(tmp_path)), f"tcp://127.0.0.1:{port}")
    view = _ranks_tab(qtbot, window)
    assert view.result is None and view.proxy.rowCount() == 0
    text = view.status.text()
    assert f"cannot reach the Dask scheduler tcp://127.0.0.1:{port}" in text and "\n" not in text


def test_without_dask(qtbot: Any, window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def missing() -> None:
        raise DaskMissing("no dask")

    monkeypatch.setattr(rank_cluster, "_distributed", missing)
    window.compare.open_folder(str(_folder(tmp_path)), "tcp://127.0.0.1:8786")
    view = _ranks_tab(qtbot, window)
    assert view.result is None
    assert "needs Dask: pip install 'gpumem-gui[cluster]'" in view.status.text()
