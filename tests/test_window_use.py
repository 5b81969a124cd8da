"""The window as a person drives it: the travel keys in the main view, Ctrl+W, several files' tabs in the order
asked, Recent Files without the files deleted since, a window that a long live message neither grows nor pins."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6 import QtCore, QtWidgets

from gpumem_gui.app import MainWindow
from gpumem_gui.assets import example_path
from gpumem_gui.views.live.live_view import LiveView
from gpumem_gui.views.snapshot.tab import SnapshotTab
from tests.conftest import fixture_path
from tests.probe_helpers import serve_simulated

Key = QtCore.Qt.Key
MiB = 1 << 20


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


def test_a_long_live_message_neither_grows_the_window_nor_stops_a_laptop_size(qtbot: Any, tmp_path: Path) -> None:
    server, backend = serve_simulated(tmp_path)
    try:
        backend.malloc(100 * MiB, [])
        window = MainWindow(QtCore.QSettings(str(tmp_path / "settings.ini"), QtCore.QSettings.Format.IniFormat))
        qtbot.addWidget(window)
        window.show()
        window.resize(1400, 900)
        attaching = window.attach(server.path)  # the tab opens once the probe has answered (a task)
        assert attaching is not None
        view = attaching.wait_view()
        assert isinstance(view, LiveView), attaching.errors
        qtbot.waitUntil(lambda: view.document is not None and view.document.state is not None, timeout=20_000)
        view.close_session()  # the session's loop says no more in the status line meanwhile
        assert view.tasks.wait(5000)
        long = "The live session stopped: OSError: " + "a reason that goes on and on " * 60
        view.status.setText(long)
        view._show_notice(lambda: long)  # a notice is worded again after a language switch: it takes a function
        QtWidgets.QApplication.processEvents()
        assert window.size() == QtCore.QSize(1400, 900)  # not grown by the message
        assert view.status.text() == " ".join(long.split())  # the whole line, elided on screen, in its tooltip
        assert view.status.toolTip() == view.status.text() and view.status.width() < 1400
        window.resize(1280, 800)  # a laptop's screen
        QtWidgets.QApplication.processEvents()
        assert window.size() == QtCore.QSize(1280, 800)
    finally:
        server.stop()


def test_the_side_panel_takes_a_share_of_a_wide_window(qtbot: Any, tmp_path: Path) -> None:
    window = MainWindow(QtCore.QSettings(str(tmp_path / "settings.ini"), QtCore.QSettings.Format.IniFormat))
    qtbot.addWidget(window)
    window.resize(1920, 1080)
    window.show()
    window.open_files([str(example_path("fragmented_oom"))])
    window.wait_for_loads()
    tab = window.current_document()
    assert tab is not None
    splitter = tab._splitters.splitter("map_side")
    qtbot.waitUntil(lambda: sum(splitter.sizes()) > 1800)
    # at 1920 px the map kept every extra pixel and the side panel 400 px, cutting its lines
    map_width, side_width = splitter.sizes()
    assert side_width > 420 and side_width > 0.25 * (map_width + side_width)
    window.resize(1280, 800)  # a laptop: the map keeps the most
    qtbot.waitUntil(lambda: sum(splitter.sizes()) < 1300)
    map_width, side_width = splitter.sizes()
    assert 280 <= side_width < map_width / 2


def test_an_error_tab_shows_its_whole_line(qtbot: Any, tmp_path: Path) -> None:
    window = MainWindow(QtCore.QSettings(str(tmp_path / "settings.ini"), QtCore.QSettings.Format.IniFormat))
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    path = "/data/" + "a-folder-with-a-long-name/" * 8 + "broken.pickle"
    message = f"could not read the loaded data: UnpicklingError: invalid load key, 'n'. ({path})"
    page = window.show_load_error(path, message)
    qtbot.waitUntil(lambda: page.reason.width() > 0)
    QtWidgets.QApplication.processEvents()
    for label, text in ((page.reason, message), (page.where, path)):
        assert label.text().replace("\u200b", "") == text and label.toolTip() in ("", text)
        # every character on screen: no word wider than the label, and the lines it wraps to within its height
        assert label.minimumSizeHint().width() <= label.width(), text
        assert label.heightForWidth(label.width()) <= label.height()
    assert page.reason.width() > 600  # the box as wide as it may be, not squeezed to its shortest line


def test_the_hover_line_under_the_map_follows_travel(qtbot: Any) -> None:
    window = _opened(qtbot, example_path("fragmented_oom"))
    tab = window.current_document()
    assert tab is not None
    view = tab.map
    qtbot.waitUntil(lambda: view.plot.width() > 100)
    # the pointer over row 30 of the OOM's map (42 segments of 64 MiB rows and more): a block is named
    row = 30
    scene = view.view.mapViewToScene(QtCore.QPointF(view.layout_info.width / 3, row + 0.5))
    where = view.plot.mapFromScene(scene)
    qtbot.mouseMove(view.plot.viewport(), where)
    qtbot.waitUntil(lambda: view.caption.text() != "")
    named = view.caption.text()
    # Home: before the trace's first events only a segment or two exist; the map is drawn anew under the pointer
    qtbot.keyClick(tab, Key.Key_Home)
    state = tab.state
    assert tab.current_event == 0 and state is not None and len(state.segments) < 3
    shown = view.caption.text()
    assert shown != named  # the block named before is not in this state
    index = view.block_at_scene(scene)
    assert shown == (view.describe(index) if index >= 0 else "")
    if index >= 0:  # the block named is one of this state's, at the address it says
        assert f"<b>{int(state.blocks.address[index]):#x}</b>" in shown
    qtbot.keyClick(tab, Key.Key_End)  # back at the OOM (its view range anew): the block under the pointer is named
    index = view.block_at_scene(scene)
    assert index >= 0 and view.caption.text() == view.describe(index)
