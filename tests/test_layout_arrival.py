"""A file opens in one layout whatever the order and timing of its load's stages (the state, the curves so far, the
whole snapshot, the site bands): the splitters' sizes come out equal, the map over the curves at 3 to 1 (the curves at
their least height where that is more), and a size the user dragged the curves to is the one the next file opens
with."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from PySide6 import QtCore
from pytestqt.qtbot import QtBot

from gpumem_gui.app import MainWindow
from gpumem_gui.app import window as window_module
from gpumem_gui.qt_start import throwaway_settings
from gpumem_gui.views.snapshot.partial_curves import PartialCurvesView
from gpumem_gui.views.snapshot.tab import SnapshotTab
from tests.conftest import fixture_path
from tests.test_partial_curves import hold_whole_until_drawn
from tests.test_window_layout import _drag_handle

FILE = "cranberrii_memory_snapshot.pickle"  # one device, 10,307 events: its curves so far are drawn
Sizes = dict[str, list[int]]


def _kind(arrived: Any) -> str:
    if isinstance(arrived, tuple) and len(arrived) == 3:
        return "whole"
    if isinstance(arrived, tuple) and len(arrived) == 2 and type(arrived[1]).__name__ == "SnapshotDocument":
        return "state"
    return "other"


def _settled(window: MainWindow, qtbot: QtBot) -> SnapshotTab:
    window.wait_for_loads(60_000)
    doc = window.current_document()
    assert doc is not None
    qtbot.waitUntil(lambda: not doc.pending and not doc.settling() and doc.event_list.isVisible(), timeout=30_000)
    qtbot.wait(50)  # the relayouts the last steps posted
    return doc


def _opened(qtbot: QtBot, settings: QtCore.QSettings) -> tuple[MainWindow, SnapshotTab]:
    """FILE opened in a 1400x900 window, its tab settled."""
    window = MainWindow(settings)
    qtbot.addWidget(window)
    window.resize(1400, 900)
    window.show()
    window.open_files([str(fixture_path(FILE))])
    return window, _settled(window, qtbot)


def _sizes(doc: SnapshotTab) -> Sizes:
    return {name: doc._splitters.splitter(name).sizes() for name in doc.splitter_states()}


def _open(
    qtbot: QtBot,
    monkeypatch: pytest.MonkeyPatch,
    delays: dict[str, int],
    *,
    held_back: bool = False,
    so_far_first: bool = False,
    settings: QtCore.QSettings | None = None,
    then: Callable[[MainWindow, SnapshotTab], None] | None = None,
) -> Sizes:
    """Open FILE in a 1400x900 window, each stage kind in `delays` reaching the window that many ms late ("result":
    the site bands, the load's end); `held_back`: the whole snapshot held until the curves so far are drawn;
    `so_far_first`: the curves so far's view in the splitter before the curves are placed under the map (as a long
    trace's arrive: here the tab's parts are all made before the worker has read any)."""
    with monkeypatch.context() as patch:
        if so_far_first:
            make_timeline, stop_partial = SnapshotTab._make_timeline, window_module.stop_partial
            dropped: list[object] = []  # the tabs whose whole snapshot came (the timeline is made for it then)

            def dropping(tab: SnapshotTab | None) -> None:
                dropped.append(tab)
                stop_partial(tab)

            def after_the_curves_so_far(tab: SnapshotTab) -> None:
                if tab not in dropped and tab.findChild(PartialCurvesView) is None:
                    tab.under_map(PartialCurvesView())  # as partial_curves does
                make_timeline(tab)

            patch.setattr(SnapshotTab, "_make_timeline", after_the_curves_so_far)
            patch.setattr(window_module, "stop_partial", dropping)
        return _open_patched(qtbot, patch, delays, held_back=held_back, settings=settings, then=then)


def _open_patched(
    qtbot: QtBot,
    monkeypatch: pytest.MonkeyPatch,
    delays: dict[str, int],
    *,
    held_back: bool,
    settings: QtCore.QSettings | None,
    then: Callable[[MainWindow, SnapshotTab], None] | None,
) -> Sizes:
    load_progress, load_finished = MainWindow._load_progress, MainWindow._load_finished

    def progress(window: MainWindow, arrived: Any, holder: Any) -> None:
        late = delays.get(_kind(arrived), 0)
        if late:
            QtCore.QTimer.singleShot(late, window, lambda: load_progress(window, arrived, holder))
        else:
            load_progress(window, arrived, holder)

    def finished(window: MainWindow, result: Any, holder: Any) -> None:
        QtCore.QTimer.singleShot(delays.get("result", 0), window, lambda: load_finished(window, result, holder))

    monkeypatch.setattr(MainWindow, "_load_progress", progress)
    monkeypatch.setattr(MainWindow, "_load_finished", finished)
    # held back: the whole snapshot waits until the curves so far are drawn
    drawn = hold_whole_until_drawn(monkeypatch) if held_back else threading.Event()
    with throwaway_settings() if settings is None else _same(settings) as kept:
        window, doc = _opened(qtbot, kept)
        assert drawn.is_set() == held_back  # the curves so far were in the splitter before the whole came
        sizes = _sizes(doc)
        if then is not None:
            then(window, doc)
        window.shutdown()
    return sizes


class _same:
    def __init__(self, settings: QtCore.QSettings) -> None:
        self.settings = settings

    def __enter__(self) -> QtCore.QSettings:
        return self.settings

    def __exit__(self, *_: object) -> None:
        pass


def test_the_same_file_opens_in_the_same_layout_whatever_its_stages_timing(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    runs = {
        "at once": _open(qtbot, monkeypatch, {}),
        "curves so far first": _open(qtbot, monkeypatch, {}, held_back=True),
        "whole late": _open(qtbot, monkeypatch, {"whole": 600}),
        "site bands late": _open(qtbot, monkeypatch, {"result": 800}),
        "state late, curves so far first": _open(qtbot, monkeypatch, {"state": 300}, held_back=True),
        # the curves so far placed in the splitter before the curves (the case that took them all the height)
        "curves so far placed first": _open(qtbot, monkeypatch, {}, held_back=True, so_far_first=True),
    }
    first = runs["at once"]
    for name, sizes in runs.items():
        # within a few pixels: under load a late line above the splitters can still move one by some 6 px (seen
        # once in a parallel run); what was fixed is the curves taking 476 px of 750 in one open and 238 in the next
        assert sizes.keys() == first.keys(), name
        for key, got in sizes.items():
            assert len(got) == len(first[key]), (name, key)
            assert all(abs(a - b) <= 8 for a, b in zip(got, first[key], strict=True)), (name, key, got, first[key])
    top, reading, curves = first["map_timeline"]
    assert reading == 0  # the line said while the trace was read is gone
    # the design's share: the map 3 to the curves' 1, the curves no lower than their least height (238 px here)
    assert 200 < curves <= max(238, (top + curves) // 4 + 2) and top >= 2 * curves


def test_the_curves_height_dragged_to_is_the_one_the_next_file_opens_with(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    moved: list[list[int]] = []

    def drag(window: MainWindow, doc: SnapshotTab) -> None:
        main = doc._splitters.splitter("map_timeline")
        before = main.sizes()
        handle = main.handle(2)  # over the curves (the reading line's own handle is hidden)
        assert handle.isVisible()
        _drag_handle(main, 0, -150, index=2)
        moved.append(main.sizes())
        assert moved[0][2] > before[2] + 100

    with throwaway_settings() as settings:
        _open(qtbot, monkeypatch, {}, settings=settings, then=drag)
        again = _open(qtbot, monkeypatch, {}, held_back=True, settings=settings)
    assert abs(again["map_timeline"][2] - moved[0][2]) <= 2


def test_the_curves_take_the_place_and_height_of_the_curves_so_far_and_the_map_keeps_its_size(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The curves so far come at the curves' share under the map (not squeezing it to its least); the whole curves
    replace them in one change of the layout, at their place and height: the map is not resized (laid out and painted
    again, a jump the user sees) on the way."""
    so_far: list[int] = []  # the map's height once the curves so far are drawn
    swapped: list[tuple[int, int, int, int]] = []  # the curves so far's index and height, the curves' after
    resized: list[int] = []  # the map's heights while the curves replace the curves so far

    def record(view: PartialCurvesView, _curves: Any) -> None:
        tab = view.parentWidget().parentWidget() if view.parentWidget() is not None else None
        if isinstance(tab, SnapshotTab) and not so_far:
            so_far.append(tab.map.height())

    class _Watcher(QtCore.QObject):
        def eventFilter(self, watched: QtCore.QObject, event: QtCore.QEvent) -> bool:
            if event.type() == QtCore.QEvent.Type.Resize:
                resized.append(watched.height())  # type: ignore[attr-defined]
            return False

    watcher = _Watcher()
    bottom_shown = SnapshotTab._bottom_shown

    def shown(tab: SnapshotTab) -> None:
        main = tab._splitters.splitter("map_timeline")
        partial = tab.findChild(PartialCurvesView)
        if partial is None:
            bottom_shown(tab)
            return
        at = main.indexOf(partial)
        before = (at, main.sizes()[at], tab.map.height())
        tab.map.installEventFilter(watcher)
        bottom_shown(tab)
        tab.map.removeEventFilter(watcher)
        swapped.append((before[0], before[1], main.indexOf(tab.curves), main.sizes()[main.indexOf(tab.curves)]))
        assert tab.map.height() == before[2]

    monkeypatch.setattr(SnapshotTab, "_bottom_shown", shown)
    with throwaway_settings() as settings:
        hold_whole_until_drawn(monkeypatch, on_drawn=record)
        window, doc = _opened(qtbot, settings)
        assert doc.findChild(PartialCurvesView) is None  # gone once the curves are shown
        total = sum(doc._splitters.splitter("map_timeline").sizes())
        window.shutdown()
    assert so_far and so_far[0] >= total * 0.6  # at the curves' share (it had 274 px of 750, its least, before)
    assert len(swapped) == 1 and not resized, (swapped, resized)
    at, height, curves_at, curves_height = swapped[0]
    assert (curves_at, curves_height) == (at, height)
