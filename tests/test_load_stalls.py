"""Loading without GUI stalls: the site bands made by the worker process (checked against the allocated series they
must sum to), the peaks it ships, the event list's passes in chunks (against plain walks over the trace), and the
tab opened in stages (every part made, in order, the site timeline drawn from the loader's bands)."""

from __future__ import annotations

import pickle
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PySide6 import QtCore
from pytestqt.qtbot import QtBot

from gpumem_gui.app import MainWindow
from gpumem_gui.core import load_snapshot
from gpumem_gui.core.allocator.synthetic import synthetic_snapshot
from gpumem_gui.core.analysis import timeline_digest
from gpumem_gui.core.analysis.site_series import GROUPINGS, build_site_series
from gpumem_gui.core.analysis.timeline_digest import segment_growths
from gpumem_gui.core.analysis.timetravel import build_timeline
from gpumem_gui.core.snapshot.model import Action
from gpumem_gui.document import SnapshotDocument, event_list
from gpumem_gui.document.event_list import EventFilter, EventTable
from gpumem_gui.qt_start import throwaway_settings
from gpumem_gui.sources.file_loader import FileLoadJob, LoadResult
from gpumem_gui.sources.transfer import load_bands, load_parts, save_bands, save_parts
from gpumem_gui.views.snapshot.tab import SnapshotTab, TabAhead


@pytest.fixture(scope="module")
def long_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("load") / "long.pickle"
    path.write_bytes(pickle.dumps(synthetic_snapshot(30_000, seed=5, streams=2), protocol=4))
    return path


def test_shipped_bands_sum_to_the_allocated_series(long_file: Path, tmp_path: Path) -> None:
    snap = load_snapshot(long_file)
    device = snap.default_device()
    tl = build_timeline(snap, device)
    save_bands(tmp_path / "b.arrays", device, build_site_series(snap, tl).groupings)
    got_device, groupings = load_bands(tmp_path / "b.arrays")
    assert got_device == device and sorted(groupings) == sorted(GROUPINGS)
    events = np.array([-1, 0, 1, tl.n_events // 3, tl.n_events // 2, tl.n_events - 1])
    allocated = np.concatenate([[tl.series.initial["allocated"]], tl.series.allocated])[events + 1]
    for kind, bands in groupings.items():
        # the oracle: the allocated series, which every grouping's bands add up to at every event
        assert np.array_equal(bands.at(events).sum(axis=0), allocated), kind
        assert all(b.peak_bytes > 0 for b in bands.bands)


def test_peaks_travel_with_the_snapshot(long_file: Path, tmp_path: Path) -> None:
    snap = load_snapshot(long_file)
    save_parts(tmp_path / "s.arrays", snap, {})
    back, _ = load_parts(tmp_path / "s.arrays")
    assert back._peaks and set(back._peaks) == set(snap.devices())
    for d in snap.devices():  # the cache filled from the file equals a pass over the trace made here
        assert back.peak_reserved(d) == pytest.approx(back._peak_reserved(d))


def test_worker_hands_the_whole_snapshot_then_its_bands(
    long_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    wholes: list[LoadResult] = []
    result = FileLoadJob(str(long_file), site_bands=True).run(on_whole=wholes.append, timeout=60)
    assert len(wholes) == 1 and wholes[0] is result and result.error is None
    assert result.snapshot is not None and result.timelines is not None and result.site_bands is not None
    device, groupings = result.site_bands
    assert device == result.snapshot.default_device() and set(groupings) == set(GROUPINGS)
    assert list(tmp_path.iterdir()) == []
    # the worker made them from a timeline stripped of what they do not read: the same as from the whole one here
    here = build_site_series(result.snapshot, result.timelines[device]).groupings
    for kind, bands in groupings.items():
        assert bands.bands == here[kind].bands
        for name in ("lifetime_band", "code_band", "keys", "values"):
            assert np.array_equal(getattr(bands, name), getattr(here[kind], name)), (kind, name)


def test_event_list_passes_in_chunks_match_plain_walks(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    path = tmp_path / "short.pickle"
    path.write_bytes(pickle.dumps(synthetic_snapshot(3_000, seed=2, streams=3), protocol=4))
    snap = load_snapshot(path)
    device = snap.devices()[0]
    trace = snap.trace(device)
    monkeypatch.setattr(event_list, "PASS_CHUNK", 7)  # chunk edges everywhere, a stream switch on some of them
    monkeypatch.setattr(timeline_digest, "PASS_CHUNK", 7)  # the streams' and the ticks' passes
    table = EventTable(snap, device)
    raw = list(zip(trace.action.tolist(), trace.size.tolist(), trace.stream.tolist(), strict=True))
    assert table.streams() == sorted({s for _a, _z, s in raw})
    assert np.array_equal(table.filter(EventFilter()), np.arange(len(raw)))
    stream = table.streams()[-1]
    flt = EventFilter("allocations", 1 << 20, stream)
    expected = [i for i, (a, z, s) in enumerate(raw) if a == Action.ALLOC and z >= 1 << 20 and s == stream]
    assert table.filter(flt).tolist() == expected
    grows = [i for i, (a, _z, _s) in enumerate(raw) if a in (Action.SEGMENT_ALLOC, Action.SEGMENT_MAP)]
    assert segment_growths(trace).tolist() == grows and grows


def opened_window(qtbot: QtBot, path: Path, settings: QtCore.QSettings) -> tuple[MainWindow, SnapshotTab]:
    """A shown window (1200 x 800) with `path` loaded in its tab, no longer pending."""
    window = MainWindow(settings)
    qtbot.addWidget(window)
    window.resize(1200, 800)
    window.show()
    window.open_files([str(path)])
    window.wait_for_loads(60_000)
    doc = window.current_document()
    assert doc is not None and not doc.pending
    return window, doc


def test_a_loading_tab_is_made_in_stages_and_draws_the_loaders_bands(
    qtbot: QtBot, long_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made: list[int] = []
    first = SnapshotTab.__init__

    def counting(view: SnapshotTab, *args: Any, **kwargs: Any) -> None:
        first(view, *args, **kwargs)
        made.append(view._made)  # the parts made with the tab itself

    monkeypatch.setattr(SnapshotTab, "__init__", counting)
    with throwaway_settings() as settings:
        window, doc = opened_window(qtbot, long_file, settings)
        assert not doc.settling()
        assert made == [0]  # a file's tab: nothing but the map, the figures and the bar at first
        tabs = [doc.side_tabs.tabText(i) for i in range(doc.side_tabs.count())]
        assert tabs == ["event", "block", "blocks", "explain", "by site", "grows", "settings", "span"]
        doc.curve_tabs.setCurrentWidget(doc.site_timeline)
        # the loader's bands: shown at once, no thread of the GUI process computing them
        assert doc.site_timeline.is_ready() and not doc.site_timeline.tasks.tasks
        assert len(doc.site_timeline.curves) == len(doc.site_timeline.bands.bands) > 0  # type: ignore[union-attr]
        assert doc.event_list.model.row_count() == len(doc.snapshot.trace(doc.device))
        image = doc.grab().toImage()
        assert not image.isNull() and len({image.pixel(x, 300) for x in range(0, image.width(), 7)}) > 3
        window.shutdown()


def test_a_loading_tab_s_map_figures_and_controls_are_made_one_a_turn_before_it_and_it_takes_them(
    qtbot: QtBot, long_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ahead = TabAhead(SnapshotDocument(load_snapshot(long_file)))
    assert [ahead.make_next() for _ in range(5)] == [True, True, True, True, False]  # one part a call
    assert ahead.map_plot is not None and ahead.map_view is not None
    assert ahead.map_view.plot is ahead.map_plot.plot  # the map's plot, then the map around it
    tab = ahead.tab()
    qtbot.addWidget(tab)
    assert (tab.map, tab.figures, tab.controls) == (ahead.map_view, ahead.figures, ahead.controls)
    # made as far as the plot only, the tab makes its map around that plot
    early = TabAhead(SnapshotDocument(load_snapshot(long_file)))
    early.make_next()
    assert early.map_plot is not None
    tab = early.tab()
    qtbot.addWidget(tab)
    assert tab.map.plot is early.map_plot.plot
    # the window makes them one a turn: each of its steps (on a timer of its own) makes one part at most
    per_step: list[int] = []
    make_next, make_ahead = TabAhead.make_next, MainWindow._make_ahead

    def counted(parts: TabAhead) -> bool:
        if per_step:
            per_step[-1] += 1
        return make_next(parts)

    def step(window: MainWindow, holder: Any) -> None:
        per_step.append(0)
        make_ahead(window, holder)

    monkeypatch.setattr(TabAhead, "make_next", counted)
    monkeypatch.setattr(MainWindow, "_make_ahead", step)
    with throwaway_settings() as settings:
        window, _doc = opened_window(qtbot, long_file, settings)
        assert per_step and all(n <= 1 for n in per_step), per_step
        window.shutdown()


def test_a_worker_lost_while_making_the_bands_still_hands_the_whole_file(long_file: Path) -> None:
    job = FileLoadJob(str(long_file), site_bands=True)
    wholes: list[LoadResult] = []

    def whole_then_kill(result: LoadResult) -> None:
        wholes.append(result)
        job._proc.kill()  # as the kernel's OOM killer would, while the worker makes the bands

    result = job.run(on_whole=whole_then_kill, timeout=60)
    assert result is wholes[0] and result.error is None and result.timelines is not None


def test_the_first_grouping_shows_and_the_rest_are_not_computed_while_the_loader_makes_them(
    qtbot: QtBot, long_file: Path
) -> None:
    with throwaway_settings() as settings:
        window, doc = opened_window(qtbot, long_file, settings)
        device, groupings = doc.curves._site_bands  # type: ignore[misc]  (the loader's, all of them)
        doc.curve_tabs.setCurrentWidget(doc.site_timeline)
        first = {GROUPINGS[0]: groupings[GROUPINGS[0]]}
        doc.site_bands_arrived((device, first), more=True)  # as the loader hands the first grouping over
        view = doc.site_timeline
        assert view.is_ready() and list(view.groupings) == [GROUPINGS[0]]
        assert not view.tasks.tasks  # the others are the loader's to make: no thread here computes them
        curves = list(view.curves)
        doc.site_bands_arrived((device, groupings))  # the rest came: added, the bands shown kept as they are drawn
        assert view.is_ready() and set(view.groupings) == set(GROUPINGS) and not view.tasks.tasks
        assert view.curves == curves
        view.set_kind("category")  # another grouping: the loader's, at once
        assert view.is_ready() and view.bands is groupings["category"] and not view.tasks.tasks
        window.shutdown()
