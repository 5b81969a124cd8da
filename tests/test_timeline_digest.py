"""What the loading worker hands the window instead of passes over the series: the derived series (free, the
fragmentation) equal the formulas over the raw counters, by ranges too; the worker's digest (each curve's chunk
extremes, the ticks, the streams, the peaks and the first event at the peak) equals what the window made of the
whole series before, through the hand-over file; a damaged digest is refused in one line; columns written narrower
or sparse come back with the same values."""

from __future__ import annotations

import dataclasses
import pickle
from pathlib import Path

import numpy as np
import pytest

from gpumem_gui.core.allocator.synthetic import synthetic_snapshot
from gpumem_gui.core.analysis import timeline_digest as digest_module
from gpumem_gui.core.analysis.timeline_digest import CHUNK, CURVES, timeline_digest
from gpumem_gui.core.analysis.timetravel import DeviceTimeline, build_timeline
from gpumem_gui.core.snapshot.loader import load_snapshot
from gpumem_gui.core.snapshot.model import Action, Snapshot
from gpumem_gui.document.curves import Envelope, SeriesColumn, series_envelopes
from gpumem_gui.sources.array_file import ArrayFileError, read_arrays, write_arrays
from gpumem_gui.sources.transfer import load_parts, save_parts


def _old_free_and_fragmentation(timeline: DeviceTimeline) -> tuple[np.ndarray, np.ndarray]:
    """The two series as the timeline made and handed them over before they were derived."""
    s = timeline.series
    free = s.reserved - s.active
    return free, np.where(free > 0, 1.0 - s.largest_free / np.maximum(free, 1), 0.0)


@pytest.fixture(scope="module")
def long_trace(tmp_path_factory: pytest.TempPathFactory) -> tuple[Snapshot, DeviceTimeline]:
    path = tmp_path_factory.mktemp("digest") / "long.pickle"
    path.write_bytes(pickle.dumps(synthetic_snapshot(20_000, seed=4, streams=2), protocol=4))
    snapshot = load_snapshot(path)
    device = snapshot.devices()[0]
    return snapshot, build_timeline(snapshot, device)


def test_derived_series_equal_the_stored_ones_of_before(real_snapshot_path: Path) -> None:
    snapshot = load_snapshot(real_snapshot_path)
    for device in snapshot.devices():
        timeline = build_timeline(snapshot, device)
        free, fragmentation = _old_free_and_fragmentation(timeline)
        series = timeline.series
        assert np.array_equal(series.free, free) and series.free.dtype == np.int64
        assert np.array_equal(series.external_fragmentation, fragmentation)
        assert series.external_fragmentation.dtype == np.float64
        if len(free):
            assert series.peak("free") == int(max(series.initial["free"], free.max()))


def test_a_range_of_a_derived_series_is_that_range_of_the_whole(long_trace: tuple[Snapshot, DeviceTimeline]) -> None:
    _snapshot, timeline = long_trace
    free, fragmentation = _old_free_and_fragmentation(timeline)
    series = timeline.series
    n = len(series)
    for start, stop in ((0, n), (0, 1), (n - 1, n), (4_095, 12_289), (700, 700)):
        assert np.array_equal(series.part("free", start, stop), free[start:stop])
        assert np.array_equal(series.part("external_fragmentation", start, stop), fragmentation[start:stop])
        column = SeriesColumn(series, "external_fragmentation")
        assert np.array_equal(column[start:stop], fragmentation[start:stop])
    column = SeriesColumn(series, "free")
    assert len(column) == n and column[n - 1] == free[-1] and column[-1] == free[-1] and column[17] == free[17]
    with pytest.raises(IndexError):
        column[n]


def test_the_digest_equals_the_windows_own_passes(
    long_trace: tuple[Snapshot, DeviceTimeline], monkeypatch: pytest.MonkeyPatch
) -> None:
    snapshot, timeline = long_trace
    monkeypatch.setattr(digest_module, "PASS_CHUNK", 3 * CHUNK + 5)  # passes of a few chunks, edges everywhere
    digest = timeline_digest(timeline, snapshot.trace(timeline.device))
    series = timeline.series
    for name in CURVES:  # each chunk's extremes, worked out from the whole series
        whole = getattr(series, name)
        starts = np.arange(0, len(whole), CHUNK)
        assert np.array_equal(digest.lows[name], np.minimum.reduceat(whole, starts)), name
        assert np.array_equal(digest.highs[name], np.maximum.reduceat(whole, starts)), name
    for name in ("reserved", "allocated", "requested", "free", "largest_free"):
        assert digest.peaks[name] == int(max(series.initial[name], getattr(series, name).max())), name
    assert digest.peak_events["allocated"] == int(np.argmax(series.allocated))
    trace = snapshot.trace(timeline.device)
    grows = np.flatnonzero(np.isin(trace.action, [Action.SEGMENT_ALLOC, Action.SEGMENT_MAP]))
    assert np.array_equal(digest.ticks, grows) and len(grows)
    assert digest.streams == sorted(set(trace.stream.tolist())) and len(digest.streams) == 2


def test_the_window_draws_the_same_curves_from_the_handed_over_digest(
    long_trace: tuple[Snapshot, DeviceTimeline], tmp_path: Path
) -> None:
    snapshot, timeline = long_trace
    device = timeline.device
    save_parts(tmp_path / "whole.arrays", snapshot, {device: timeline})
    arrays, _meta = read_arrays(tmp_path / "whole.arrays")
    assert not any(name.endswith(("series.free", "series.external_fragmentation")) for name in arrays)
    _snap, timelines = load_parts(tmp_path / "whole.arrays")
    mapped = timelines[device]
    assert mapped.digest is not None
    here = series_envelopes(timeline.series)  # the window's own passes, as before
    there = series_envelopes(mapped.series, mapped.digest)
    assert isinstance(there["free"].y, SeriesColumn)
    n = timeline.n_events
    time = timeline.series.time_us.astype(np.float64) if timeline.series.time_us is not None else None
    for name in CURVES:
        for lo, hi, bins in ((0, n - 1, 300), (0, n - 1, 7), (1_000.5, 1_900.2, 400), (10, 90_000, 50), (5, 9, 3)):
            for x in (None, time):
                a, b = here[name].points(x, lo, hi, bins), there[name].points(x, lo, hi, bins)
                assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1]), (name, lo, hi, bins)
    # the opening moment and the peaks come from the worker's digest, equal to the passes over the series
    assert mapped.series.peak_event("allocated") == int(np.argmax(timeline.series.allocated))
    assert mapped.series.peak("free") == timeline.series.peak("free")
    assert np.array_equal(mapped.series.free, timeline.series.free)


def test_a_damaged_digest_is_refused_in_one_line(long_trace: tuple[Snapshot, DeviceTimeline], tmp_path: Path) -> None:
    snapshot, timeline = long_trace
    save_parts(tmp_path / "whole.arrays", snapshot, {timeline.device: timeline})
    arrays, meta = read_arrays(tmp_path / "whole.arrays")
    p = f"tl{timeline.device}."
    damages = {
        "short extremes": ({p + "env.low.reserved": arrays[p + "env.low.reserved"][:-1]}, None),
        "a tick past the end": ({p + "ticks.events": np.array([timeline.n_events], np.int64)}, None),
        "a peak event past the end": ({}, {"peak_events": {"allocated": timeline.n_events}}),
        "a stream that is no number": ({}, {"streams": ["0"]}),
    }
    for what, (changed, digest_change) in damages.items():
        damaged_meta = pickle.loads(pickle.dumps(meta))
        if digest_change is not None:
            damaged_meta["timelines"][str(timeline.device)]["digest"] |= digest_change
        path = tmp_path / f"{what}.arrays"
        write_arrays(path, {name: np.array(a) for name, a in arrays.items()} | changed, damaged_meta)
        with pytest.raises(ArrayFileError, match=r"digest") as caught:
            load_parts(path)
        assert "\n" not in str(caught.value), what


def test_an_envelope_refuses_extremes_of_another_length() -> None:
    y = np.arange(1_000)
    starts = np.arange(0, 1_000, CHUNK)
    Envelope(y, np.minimum.reduceat(y, starts), np.maximum.reduceat(y, starts))
    with pytest.raises(ValueError, match="extremes"):
        Envelope(y, y[:3], y[:3])


def test_narrowed_columns_keep_their_values_and_widen_where_a_file_needs_it(
    long_trace: tuple[Snapshot, DeviceTimeline], tmp_path: Path
) -> None:
    snapshot, timeline = long_trace
    device = timeline.device
    save_parts(tmp_path / "small.arrays", snapshot, {device: timeline})
    _snap, timelines = load_parts(tmp_path / "small.arrays")
    back = timelines[device]
    assert back.block_sizes.dtype == np.int32 and back.series.segments.dtype == np.int32
    assert np.array_equal(back.block_sizes, timeline.block_sizes)
    assert np.array_equal(back.series.segments, timeline.series.segments)
    # a block of 3 GiB, past int32's range: the column stays int64, exact
    sizes = timeline.block_sizes.copy()
    big = int(np.flatnonzero(sizes)[0])
    sizes[big] = 3 << 30
    huge = dataclasses.replace(timeline, block_sizes=sizes)
    save_parts(tmp_path / "huge.arrays", snapshot, {device: huge})
    _snap, timelines = load_parts(tmp_path / "huge.arrays")
    back = timelines[device]
    assert back.block_sizes.dtype == np.int64 and np.array_equal(back.block_sizes, sizes)
    assert int(back.block_sizes[big]) == 3 << 30


def test_an_ooms_free_memory_travels_as_its_rows_alone(
    long_trace: tuple[Snapshot, DeviceTimeline], tmp_path: Path
) -> None:
    snapshot, timeline = long_trace
    trace = snapshot.trace(timeline.device)
    free = np.zeros(len(trace), np.int64)
    free[[3, 4_000, len(trace) - 1]] = [1 << 20, 5 << 33, 7]  # one past int32's range too
    traces = list(snapshot.traces)
    traces[timeline.device] = dataclasses.replace(trace, device_free=free)
    save_parts(tmp_path / "oom.arrays", dataclasses.replace(snapshot, traces=traces), {})
    arrays, meta = read_arrays(tmp_path / "oom.arrays")
    p = f"trace{timeline.device}."
    assert p + "device_free" not in arrays and arrays[p + "oom.rows"].tolist() == [3, 4_000, len(trace) - 1]
    back, _ = load_parts(tmp_path / "oom.arrays")
    assert np.array_equal(back.trace(timeline.device).device_free, free)
    forged = {name: np.array(a) for name, a in arrays.items()} | {p + "oom.rows": np.array([0, 1, len(trace)])}
    write_arrays(tmp_path / "forged.arrays", forged, meta)
    with pytest.raises(ArrayFileError, match=r"oom\.rows points outside"):
        load_parts(tmp_path / "forged.arrays")
