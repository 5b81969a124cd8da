"""Lifecycle: a closed tab lets its document go and ends its tasks; a closed window kills loads and leaves no files."""

from __future__ import annotations

import gc
import tempfile
import threading
import weakref
from pathlib import Path
from typing import Any

import pytest
from PySide6 import QtCore, QtWidgets

from gpumem_gui.app import MainWindow
from gpumem_gui.assets import example_path
from gpumem_gui.core import load_snapshot
from gpumem_gui.views.common.tasks import TaskContext


def _settle() -> None:
    for _ in range(3):
        QtWidgets.QApplication.processEvents()
        QtWidgets.QApplication.sendPostedEvents(None, QtCore.QEvent.Type.DeferredDelete)
    gc.collect()


def test_closing_a_tab_frees_its_document_and_cancels_its_tasks(qtbot: Any) -> None:
    window = MainWindow()
    qtbot.addWidget(window)
    doc = window.add_document(load_snapshot(example_path("fragmented_oom")), "fragmented_oom.pickle")
    document = weakref.ref(doc.document)
    snapshot = weakref.ref(doc.document.snapshot)
    started = threading.Event()

    def forever(ctx: TaskContext) -> None:
        started.set()
        while not ctx.wait(10):
            pass

    task = window.tab_tasks[doc].start("tab work", forever)
    assert started.wait(5)
    doc.play_button.setChecked(True)  # a running timer
    window.close_tab(window.tabs.indexOf(doc))
    del doc
    qtbot.waitUntil(lambda: task.done, timeout=5000)
    _settle()
    assert document() is None and snapshot() is None
    assert window.tabs.count() == 0 and not window.tab_tasks


def test_closing_the_window_kills_loads_and_removes_their_files(
    qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    window = MainWindow()
    qtbot.addWidget(window)
    window.open_files([str(example_path("cache_reuse")), str(example_path("kv_cache_paged"))])
    tasks = list(window.jobs)
    assert len(tasks) == 2 and list(tmp_path.iterdir())  # the workers' hand-over files exist meanwhile
    window.close()
    assert all(task.done or task.cancelled for task in tasks)
    qtbot.waitUntil(lambda: all(task.done for task in tasks), timeout=10_000)
    assert not window.jobs and list(tmp_path.iterdir()) == []
    assert window.tabs.count() == 0
