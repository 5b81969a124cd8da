"""The window's comparisons: two marked moments of one file open side by side, with report's figures on each side."""

from __future__ import annotations

import json
from typing import Any

import pytest

from gpumem_gui import cli
from gpumem_gui.app import MainWindow
from gpumem_gui.views.compare.diff_view import DiffView
from gpumem_gui.views.compare.ranks_view import RanksView
from tests.conftest import fixture_path


def _report(path: str, at: int, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    assert cli.main(["report", path, "--at", str(at), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_marking_a_moment_and_comparing_with_it_opens_both_sides(
    qtbot: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    path = str(fixture_path("cranberrii_memory_snapshot.pickle"))
    window = MainWindow()
    qtbot.addWidget(window)
    window.open_files([path])
    window.wait_for_loads()
    doc = window.current_document()
    assert doc is not None
    doc.travel_to(1000)
    window.compare.mark_moment()  # View > Mark This Moment as A
    doc.travel_to(5000)
    window.compare.compare_with_mark()  # View > Compare With Moment A
    qtbot.waitUntil(lambda: isinstance(window.tabs.currentWidget(), DiffView), timeout=30_000)
    view = window.tabs.currentWidget()
    assert isinstance(view, DiffView)
    diff = view.compare.diff
    assert (diff.a.event, diff.b.event) == (1000, 5000)
    for side, at in ((diff.a, 1000), (diff.b, 5000)):
        figures = _report(path, at, capsys)["devices"][0]
        assert side.allocated_bytes == figures["allocated_bytes"] and side.reserved_bytes == figures["reserved_bytes"]
    assert doc.current_event == 5000  # the tab's own cursor stays where the user left it


def test_compare_without_a_mark_says_what_to_do(qtbot: Any) -> None:
    window = MainWindow()
    qtbot.addWidget(window)
    window.compare.compare_with_mark()
    assert "Mark a moment first" in window.statusBar().currentMessage()
    assert window.tabs.count() == 0


def test_a_folder_of_ranks_opens_a_rank_on_its_device_and_compares_two(qtbot: Any) -> None:
    folder = fixture_path("constructor_memory_snapshot.pickle").parent
    window = MainWindow()
    qtbot.addWidget(window)
    view = window.compare.open_folder(str(folder))  # File > Open Folder...
    assert isinstance(view, RanksView) and window.tabs.currentWidget() is view
    with qtbot.waitSignal(view.loaded, timeout=120_000):
        pass
    constructor = str(fixture_path("constructor_memory_snapshot.pickle"))
    view.open_requested.emit(constructor, 2, -1)  # a rank's row: its file on its device
    window.wait_for_loads()
    doc = window.current_document()
    assert doc is not None and doc.device == 2
    magma = str(fixture_path("magma27_memory_snapshot.pickle"))
    view.compare_requested.emit(constructor, 0, -1, magma, 0, -1)  # two rows selected, Compare
    qtbot.waitUntil(lambda: isinstance(window.tabs.currentWidget(), DiffView), timeout=60_000)
    diff = window.tabs.currentWidget().compare.diff
    assert (diff.a.device, diff.b.device) == (0, 0) and diff.a.file.endswith("constructor_memory_snapshot.pickle")
    window.close_tab(window.tabs.indexOf(view))  # its workers go with it


def test_the_window_never_reads_a_file_to_compare_in_its_own_process(qtbot: Any, monkeypatch: Any) -> None:
    # a file cut short under a reader kills that process by SIGBUS: in the window's, every tab and live session
    # would go with it. The window's own reader is disabled here; comparing two files must still work.
    from gpumem_gui.core.snapshot import loader  # noqa: PLC0415

    def refused(*_args: Any, **_kw: Any) -> None:
        raise AssertionError("a snapshot file was read in the window's process")

    monkeypatch.setattr(loader, "opened", refused)
    window = MainWindow()
    qtbot.addWidget(window)
    constructor = str(fixture_path("constructor_memory_snapshot.pickle"))
    magma = str(fixture_path("magma27_memory_snapshot.pickle"))
    window.compare.compare_files(constructor, 1, None, magma, 0, None)  # the rank table's Compare
    qtbot.waitUntil(lambda: isinstance(window.tabs.currentWidget(), DiffView), timeout=60_000)
    diff = window.tabs.currentWidget().compare.diff
    assert (diff.a.device, diff.b.device) == (1, 0)
