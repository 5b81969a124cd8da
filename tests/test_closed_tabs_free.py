"""A closed tab frees its snapshot, for every way a tab is made: File > Open (the worker path), an example, a
comparison, a folder of ranks, a live job, a what-if replay and "Show me"."""

from __future__ import annotations

import gc
import shutil
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6 import QtCore, QtWidgets

from gpumem_gui.app import MainWindow
from gpumem_gui.assets import example_path
from gpumem_gui.teach.quiz import load_quizzes
from gpumem_gui.views.compare.diff_view import DiffView
from gpumem_gui.views.compare.ranks_view import RanksView
from gpumem_gui.views.compare.whatif_view import WhatIfView
from gpumem_gui.views.live.live_view import LiveView
from gpumem_gui.views.snapshot.tab import SnapshotTab
from tests.probe_helpers import serve_simulated

MiB = 1 << 20


@pytest.fixture
def window(qtbot: Any) -> Iterator[MainWindow]:
    win = MainWindow()
    qtbot.addWidget(win)
    yield win
    win.shutdown()


def _settle() -> None:
    for _ in range(3):
        QtWidgets.QApplication.processEvents()
        QtWidgets.QApplication.sendPostedEvents(None, QtCore.QEvent.Type.DeferredDelete)
    gc.collect()


def _watched(widget: QtWidgets.QWidget) -> dict[str, weakref.ref[Any]]:
    """Weak references to a tab and to what it shows: every SnapshotTab in it, their SnapshotDocuments, Snapshots
    and DiagnosisPages (made, as a person's first look at the tab makes them)."""
    tabs = [widget] if isinstance(widget, SnapshotTab) else []
    tabs += widget.findChildren(SnapshotTab)
    live = widget.document if isinstance(widget, LiveView) else None
    if live is not None and live not in tabs:
        tabs.append(live)
    refs: dict[str, weakref.ref[Any]] = {"tab": weakref.ref(widget)}
    for i, tab in enumerate(tabs):
        refs[f"SnapshotTab {i}"] = weakref.ref(tab)
        refs[f"SnapshotDocument {i}"] = weakref.ref(tab.document)
        refs[f"Snapshot {i}"] = weakref.ref(tab.document.snapshot)
        refs[f"DiagnosisPages {i}"] = weakref.ref(tab.diagnosis)
    return refs


def _close_and_check(window: MainWindow, index: int, expect_tabs: int = 1) -> None:
    """Close tab `index` (the caller holds no reference to it) and check that it and what it showed are gone."""
    widget = window.tabs.widget(index)
    assert widget is not None
    refs = _watched(widget)
    assert sum(k.startswith("SnapshotTab") for k in refs) >= expect_tabs, list(refs)
    del widget
    window.close_tab(index)
    _settle()
    alive = [name for name, ref in refs.items() if ref() is not None]
    assert not alive, f"alive after closing the tab: {alive}"


def test_a_file_opened_with_file_open_is_freed_by_closing_its_tab(window: MainWindow) -> None:
    # the worker path: partial state first, then the whole snapshot, then the site bands
    window.open_files([str(example_path("fragmented_oom"))])
    window.wait_for_loads()
    tab = window.tabs.widget(0)
    assert window.tabs.count() == 1 and isinstance(tab, SnapshotTab)
    assert not tab.pending and tab.document.has_trace()
    del tab
    _close_and_check(window, 0)
    assert not window.load_tabs and not window.jobs


def test_several_files_each_freed_and_a_marked_moment_lets_go(window: MainWindow) -> None:
    window.open_files([str(example_path("cache_reuse")), str(example_path("training_leak"))])
    window.wait_for_loads()
    assert window.tabs.count() == 2
    window.tabs.setCurrentIndex(0)
    window.compare.mark_moment()  # View > Mark This Moment as A remembers the tab
    for _ in range(2):
        _close_and_check(window, 0)
    assert window.compare.marked is None


def test_an_example_from_the_start_page_is_freed(window: MainWindow) -> None:
    window.start_page.open_example.emit()
    window.wait_for_loads()
    assert window.tabs.count() == 1 and isinstance(window.tabs.widget(0), SnapshotTab)
    _close_and_check(window, 0)


def test_a_comparison_and_the_tabs_it_compared_are_freed(qtbot: Any, window: MainWindow) -> None:
    window.open_files([str(example_path("training_steady")), str(example_path("training_leak"))])
    window.wait_for_loads()
    a, b = (window.tabs.widget(i) for i in range(2))
    assert isinstance(a, SnapshotTab) and isinstance(b, SnapshotTab)
    task = window.compare.open_compare(a.document, b.document, a.current_event, b.current_event)
    qtbot.waitUntil(lambda t=task: t.done, timeout=60_000)
    diff = window.tabs.widget(2)
    assert isinstance(diff, DiffView)
    refs = {"diff": weakref.ref(diff), "a": weakref.ref(a.document), "b": weakref.ref(b.document)}
    del diff, task, a, b
    window.close_tab(2)
    for _ in range(2):
        _close_and_check(window, 0)
    assert [name for name, ref in refs.items() if ref() is not None] == []


def test_a_folder_of_ranks_and_a_rank_opened_from_it_are_freed(qtbot: Any, window: MainWindow, tmp_path: Path) -> None:
    for rank, name in enumerate(("training_steady", "training_leak")):
        shutil.copy(example_path(name), tmp_path / f"rank{rank}.pickle")
    view = window.compare.open_folder(str(tmp_path))
    qtbot.waitUntil(lambda v=view: not v.tasks.busy() and v.model.rowCount() == 2, timeout=60_000)
    window.open_file_at_device(str(tmp_path / "rank1.pickle"), 0)  # a row's "open"
    window.wait_for_loads()
    assert isinstance(window.tabs.widget(1), SnapshotTab)
    _close_and_check(window, 1)
    ranks = weakref.ref(view)
    assert isinstance(view, RanksView)
    del view
    window.close_tab(0)
    _settle()
    assert ranks() is None


def test_a_live_tab_is_freed(qtbot: Any, window: MainWindow, tmp_path: Path) -> None:
    server, backend = serve_simulated(tmp_path)
    try:
        backend.malloc(100 * MiB, [])
        attaching = window.attach(server.path)  # the tab opens once the probe has answered (a task)
        assert attaching is not None
        view = attaching.wait_view()
        assert isinstance(view, LiveView), attaching.errors
        del attaching
        qtbot.waitUntil(lambda v=view: v.document is not None and v.document.state is not None, timeout=20_000)
        assert window.live_views == [view]
        del view
        _close_and_check(window, 0)
        assert window.live_views == []
    finally:
        server.stop()


def test_a_what_if_tab_and_its_recorded_run_are_freed(qtbot: Any, window: MainWindow) -> None:
    window.open_files([str(example_path("fragmented_oom"))])
    window.wait_for_loads()
    recorded = window.tabs.widget(0)
    assert isinstance(recorded, SnapshotTab)
    task = window.actions_on_tab.start_what_if(recorded, ["expandable_segments:True"], None)
    del recorded
    qtbot.waitUntil(lambda t=task: t.done, timeout=60_000)
    what_if = window.tabs.widget(1)
    assert isinstance(what_if, WhatIfView)
    refs = {"what if": weakref.ref(what_if), "replayed": weakref.ref(what_if.documents[1])}
    del what_if, task
    window.close_tab(1)
    _settle()
    assert [name for name, ref in refs.items() if ref() is not None] == []
    _close_and_check(window, 0)


def test_a_show_me_demo_is_freed(window: MainWindow) -> None:
    question = next(
        q for quiz in load_quizzes() if quiz.id == "gpu-memory" for q in quiz.questions if q.demo == "fragmented_oom"
    )
    window.show_demo(question)
    demo = window.wait_for_demo()
    assert isinstance(demo, SnapshotTab)
    index = window.tabs.indexOf(demo)
    del demo
    _close_and_check(window, index)
    assert window.demo_tab is None
