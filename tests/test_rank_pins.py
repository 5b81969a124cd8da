"""The same pin over every rank of a folder: on a hand-made 4-rank folder where rank 2's layer holds more, each
rank's pinned series (in its summary, read in worker processes) is the bytes that site holds after each event,
walked by hand from the raw trace of that rank's file; the ranks tab draws it over each rank's curve, keeps it for
the folder, reads the summaries again when it is added, and hands it to a rank's tab opened from the table."""

from __future__ import annotations

import json
import pickle
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PySide6 import QtCore

from gpumem_gui import cli
from gpumem_gui.app import MainWindow
from gpumem_gui.core.allocator.simulator import DeviceAllocatorSim
from gpumem_gui.core.analysis.categories import CATEGORIES
from gpumem_gui.core.analysis.pinned_series import pin_id
from gpumem_gui.core.analysis.rank_summary import SUMMARY_VERSION, summarise_path
from gpumem_gui.core.rules.allocator_constants import MiB
from gpumem_gui.document.pins import Pin, pins_from_text, pins_to_text
from gpumem_gui.sources.rank_cluster import ClusterReader
from gpumem_gui.sources.rank_folder import RankFolderJob
from gpumem_gui.sources.rank_shards import read_summary
from gpumem_gui.sources.summary_cache import SummaryCache
from gpumem_gui.views.compare.rank_pins import folder_key
from gpumem_gui.views.compare.ranks_view import RanksView
from gpumem_gui.views.snapshot.tab_pins import settings_key
from tests.conftest import load_raw
from tests.site_oracle import raw_site

LAYER = "model/layers.py:10:forward"
LAYER_FRAMES = [{"name": "forward", "filename": "model/layers.py", "line": 10}]
LOSS_FRAMES = [{"name": "loss", "filename": "model/loss.py", "line": 5}]
KEPT = {0: 3, 1: 3, 2: 6, 3: 3}  # blocks of 20 MiB the layer keeps on each rank: rank 2's holds twice as much
PINS = [("site", LAYER), ("search", "LOSS.py")]


def _write_rank(path: Path, rank: int) -> None:
    """A step: the layer keeps KEPT[rank] blocks, the loss allocates and frees a temporary after each."""
    sim = DeviceAllocatorSim(1024 * MiB, device=rank)
    for _ in range(KEPT[rank]):
        sim.malloc(20 * MiB, frames=LAYER_FRAMES)
        temporary = sim.malloc(4 * MiB, frames=LOSS_FRAMES)
        sim.free(temporary)
    path.write_bytes(pickle.dumps(sim.snapshot(), protocol=4))


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("rank_pins")
    for rank in KEPT:
        _write_rank(root / f"rank{rank}.pickle", rank)
    return root


def _held_by_hand(path: Path, holds: Any) -> list[int]:
    """Bytes held right after each raw trace entry by the blocks whose frames `holds`: an alloc adds its size, the
    first free (requested or completed) of its address takes it away."""
    held, alive, out = 0, {}, []
    raw = load_raw(path)["device_traces"]
    for e in next(trace for trace in raw if trace):  # the rank's device's (the simulator's device is the rank)
        if e["action"] == "alloc" and holds(e.get("frames", [])):
            alive[e["addr"]] = e["size"]
            held += e["size"]
        elif e["action"] in ("free_requested", "free_completed") and e["addr"] in alive:
            held -= alive.pop(e["addr"])
        out.append(held)
    return out


def _site(path: Path) -> list[int]:
    return _held_by_hand(path, lambda frames: raw_site(frames) == LAYER)


def _search(path: Path) -> list[int]:
    return _held_by_hand(path, lambda frames: any("loss.py" in f["filename"].lower() for f in frames))


def test_each_rank_s_summary_carries_the_pinned_series_of_its_raw_trace(folder: Path) -> None:
    for rank, kept in KEPT.items():
        path = folder / f"rank{rank}.pickle"
        summary = summarise_path(str(path), path.name, PINS)
        assert summary["summary_version"] == SUMMARY_VERSION == 3
        site, search = (summary["pinned"][pin_id(*pin)] for pin in PINS)
        n = len(load_raw(path)["device_traces"][rank])
        assert n < 512 and site["event"] == list(range(n))  # a short trace: one event a run, min and max its value
        assert site["max"] == site["min"] == _site(path)
        assert search["max"] == _search(path)
        assert max(site["max"]) == kept * 20 * MiB
        assert max(search["max"]) == 4 * MiB and search["max"][-1] == 0  # temporaries, each freed


def test_the_categories_pinned_add_up_to_the_allocated_bytes(folder: Path) -> None:
    path = folder / "rank2.pickle"
    summary = summarise_path(str(path), path.name, [("category", c) for c in CATEGORIES])
    series = [summary["pinned"][pin_id("category", c)]["max"] for c in CATEGORIES]
    assert np.sum(series, axis=0).tolist() == _held_by_hand(path, lambda _frames: True)  # every block in one


def test_a_pin_added_later_reads_the_cached_summaries_again(folder: Path, tmp_path: Path) -> None:
    cache = SummaryCache(tmp_path / "cache")
    got: dict[str, Any] = {}

    def keep(path: str, _relative: str, result: dict[str, Any] | str) -> None:
        assert isinstance(result, dict)
        got[path] = result

    RankFolderJob(str(folder), workers=2, cache=cache).run(on_result=keep)
    assert all(summary["pinned"] == {} for summary in got.values()) and len(got) == 4
    got.clear()
    RankFolderJob(str(folder), workers=2, cache=cache, pins=PINS[:1]).run(on_result=keep)  # read again for the pin
    for path, summary in got.items():
        assert summary["pinned"][pin_id(*PINS[0])]["max"] == _site(Path(path))
    assert all(pin_id(*PINS[0]) in (cache.get(p) or {}).get("pinned", {}) for p in got)  # the cache has it now


def test_a_dask_cluster_s_summaries_carry_the_pins(folder: Path) -> None:
    distributed = pytest.importorskip("distributed")
    got: dict[str, Any] = {}
    with distributed.Client(processes=False, n_workers=1, threads_per_worker=2, dashboard_address=":0") as client:
        job = RankFolderJob(str(folder), cluster=ClusterReader(client), use_cache=False, pins=PINS)
        job.run(on_result=lambda path, _relative, result: got.__setitem__(path, result))
    assert len(got) == 4
    for path, summary in got.items():
        assert summary["pinned"][pin_id(*PINS[0])]["max"] == _site(Path(path))
        assert summary["pinned"][pin_id(*PINS[1])]["max"] == _search(Path(path))


def test_a_summary_file_of_version_2_is_still_merged(tmp_path: Path) -> None:
    path = tmp_path / "rank0.pickle.gpumem-summary.json"
    path.write_text(json.dumps({"summary_version": 2, "file": "rank0.pickle"}), encoding="utf-8")
    assert isinstance(read_summary(str(path)), dict)
    path.write_text(json.dumps({"summary_version": 1}), encoding="utf-8")
    assert "summarize it again" in str(read_summary(str(path)))


def test_summaries_written_for_a_cluster_carry_the_pins_and_the_tab_draws_them(
    qtbot: Any, folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "summaries"  # what travels from the cluster's machines: summaries, not files
    for shard in ("0/2", "1/2"):
        code = cli.main(
            ["ranks", "summarize", str(folder), "--shard", shard, "--out", str(out), "--pin", f"site:{LAYER}"]
        )
        assert code == 0
    capsys.readouterr()
    pin = Pin("site", LAYER, LAYER)
    settings = QtCore.QSettings()
    unsummarized = Pin("search", "loss.py", "stack holds 'loss.py'")  # not asked of the summaries
    settings.setValue(folder_key(str(out)), pins_to_text([pin, unsummarized]))
    view = RanksView()
    qtbot.addWidget(view)
    view.charts.setCurrentWidget(view.rank_curves)
    with qtbot.waitSignal(view.loaded, timeout=60_000):
        view.load_folder(str(out))
    assert [e.rank for e in view.model.entries] == [0, 1, 2, 3]
    for row, entry in enumerate(view.model.entries):  # each rank's series from its summary file alone
        assert _drawn_max(view, row, pin) == _site(folder / Path(entry.file).name)
    assert "(none in 4 rank summaries: summarize them with --pin)" in view.rank_curves.note.text()
    assert view.rank_curves.note.text().count("none in") == 1  # the site's series are there
    settings.remove(folder_key(str(out)))
    for bad in ("stream:0", "site:", "nothing"):
        code = cli.main(["ranks", "summarize", str(folder), "--out", str(out), "--pin", bad])
        err = capsys.readouterr().err
        assert code == 2 and "give KIND:KEY" in err and err.count("\n") == 1
    assert cli.main(["ranks", str(folder), "--pin", "site:x"]) == 2
    assert "--pin go with `ranks summarize" in capsys.readouterr().err


def _drawn_max(view: RanksView, row: int, pin: Pin) -> list[float]:
    curves = view.rank_curves
    y = curves.pinned_items[row][pin].getData()[1]
    return [round(float(v) * curves.unit) for v in y]


def test_the_ranks_tab_pins_a_site_on_every_rank_keeps_it_and_opens_a_rank_with_it(qtbot: Any, folder: Path) -> None:
    settings = QtCore.QSettings()
    settings.remove(folder_key(str(folder)))
    for rank in KEPT:
        settings.remove(settings_key(str(folder / f"rank{rank}.pickle")))
    window = MainWindow()
    qtbot.addWidget(window)
    view = window.compare.open_folder(str(folder))
    qtbot.waitUntil(lambda: view.result is not None, timeout=60_000)
    view.charts.setCurrentWidget(view.rank_curves)
    assert view.rank_pins.pins == [] and view.rank_curves.pinned_items == [{}] * 4
    assert view.rank_pins.sites[0] == LAYER  # offered: the site every rank names at its peak
    pin = Pin("site", LAYER, LAYER)
    view.rank_pins.kind_box.setCurrentIndex(0)
    view.rank_pins.key_box.setCurrentText(LAYER)
    with qtbot.waitSignal(view.loaded, timeout=60_000):  # the summaries read again, in the background
        view.rank_pins.pin_button.click()
    assert view.rank_pins.pins == [pin]
    assert pins_from_text(settings.value(folder_key(str(folder)), "")) == [pin]
    ranks = [e.rank for e in view.model.entries]
    assert ranks == [0, 1, 2, 3]
    for row, entry in enumerate(view.model.entries):
        assert _drawn_max(view, row, pin) == _site(Path(entry.file))
    assert max(_drawn_max(view, 2, pin)) == 2 * max(_drawn_max(view, 0, pin)) == 120 * MiB
    assert LAYER in view.rank_curves.note.text()

    # the folder opened again: its pin, its series from the cache
    again = window.compare.open_folder(str(folder))
    qtbot.waitUntil(lambda: again.result is not None, timeout=60_000)
    again.charts.setCurrentWidget(again.rank_curves)
    assert again.rank_pins.pins == [pin]
    assert _drawn_max(again, 2, pin) == _site(folder / "rank2.pickle")

    # a rank opened from the table: its tab pins the folder's site, its track the rank's bytes
    again.table.selectRow(2)
    again.open_button.click()
    window.wait_for_loads()
    tab = window.current_document()
    assert tab is not None and tab.snapshot.source == str(folder / "rank2.pickle")
    qtbot.waitUntil(lambda: tab.scope is not None and pin in tab.scope.pins.curves, timeout=20_000)
    assert tab.scope is not None
    _events, values = tab.scope.pins.curves[pin]
    assert int(np.max(values)) == 120 * MiB
    # unpinned in the ranks tab: the drawing only, no reading
    again.rank_pins.unpin(pin)
    assert again.rank_curves.pinned_items[2] == {} and again.result is not None
    assert pins_from_text(settings.value(folder_key(str(folder)), "")) == []
    for rank in KEPT:
        settings.remove(settings_key(str(folder / f"rank{rank}.pickle")))
