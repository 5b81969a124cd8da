"""The window as a person drives it: the travel keys in the main view, Ctrl+W, several files' tabs in the order
asked, Recent Files without the files deleted since."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6 import QtCore, QtWidgets

from gpumem_gui.app import MainWindow
from gpumem_gui.assets import example_path
from gpumem_gui.views.snapshot.tab import SnapshotTab
from tests.conftest import fixture_path

Key = QtCore.Qt.Key


def _opened(qtbot: Any, *paths: Path, settings: QtCore.QSettings | None = None) -> MainWindow:
    window = MainWindow(settings)
    qtbot.addWidget(window)
    window.show()
    window.open_files([str(p) for p in paths])
    window.wait_for_loads()
    return window


def test_home_end_and_the_page_keys_travel_the_main_view(qtbot: Any) -> None:
    window = _opened(qtbot, example_path("fragmented_oom"))
    tab = window.current_document()
    assert isinstance(tab, SnapshotTab)
    n = tab.document.n_events
    page = max(10, n // 100)  # the what-if view's page: a hundredth of the trace, at least ten events
    assert n > 2 * page
    # on the tab, and on the map a person has just clicked (its scroll area must not take the keys)
    for target in (tab, tab.map):
        qtbot.keyClick(target, Key.Key_Home)
        assert tab.current_event == 0
        qtbot.keyClick(target, Key.Key_PageDown)
        qtbot.keyClick(target, Key.Key_PageDown)
        assert tab.current_event == 2 * page
        qtbot.keyClick(target, Key.Key_PageUp)
        assert tab.current_event == page
        qtbot.keyClick(target, Key.Key_Left)
        assert tab.current_event == page - 1
        qtbot.keyClick(target, Key.Key_End)
        assert tab.current_event == n - 1
        qtbot.keyClick(target, Key.Key_PageDown)  # past the end: stays at the last event
        assert tab.current_event == n - 1


def test_ctrl_w_closes_the_current_tab(qtbot: Any) -> None:
    window = _opened(qtbot, example_path("cache_reuse"), example_path("training_leak"))
    assert window.tabs.count() == 2
    window.tabs.setCurrentIndex(0)
    first = window.tabs.widget(0)
    window.activateWindow()
    qtbot.waitUntil(lambda: QtWidgets.QApplication.activeWindow() is window)
    qtbot.keyClick(window.tabs.currentWidget(), Key.Key_W, QtCore.Qt.KeyboardModifier.ControlModifier)
    assert window.tabs.count() == 1 and window.tabs.widget(0) is not first


def test_several_files_open_in_tabs_in_the_order_asked(qtbot: Any) -> None:
    # the big file is asked for first and finishes last
    big, small = fixture_path("constructor_memory_snapshot.pickle"), fixture_path("felix_dump_a.pickle")
    window = _opened(qtbot, big, small)
    assert [window.tabs.tabText(i) for i in range(window.tabs.count())] == [big.name, small.name]


def test_recent_files_leave_out_a_file_deleted_since(qtbot: Any, tmp_path: Path) -> None:
    kept, deleted = tmp_path / "kept.pickle", tmp_path / "deleted.pickle"
    for path in (kept, deleted):
        path.write_bytes(example_path("training_leak").read_bytes())
    settings = QtCore.QSettings(str(tmp_path / "settings.ini"), QtCore.QSettings.Format.IniFormat)
    window = _opened(qtbot, kept, deleted, settings=settings)
    assert sorted(window.recent_files()) == [str(deleted), str(kept)]
    deleted.unlink()
    assert window.recent_files() == [str(kept)]
    window.recent_menu.aboutToShow.emit()  # the menu as it opens
    assert [a.text() for a in window.recent_menu.actions()] == [str(kept)]
