"""A converted Snapshot (and its timelines, or a site timeline's bands) as one array file: how a loading process
hands its work to the GUI.

Arrays travel as raw numeric arrays (array_file.py) and everything else as JSON: the GUI maps the file instead of
copying it, and never unpickles anything, not even what its own worker wrote.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import fields
from pathlib import Path
from typing import Any

import numpy as np

from gpumem_gui.core.analysis.running_curves import PartialCurves
from gpumem_gui.core.analysis.site_series import (
    GROUPINGS,
    TOP_SITES,
    Band,
    BandSeries,
    TotalIndex,
    build_bands,
    event_order,
    total_index,
)
from gpumem_gui.core.analysis.span import Span
from gpumem_gui.core.analysis.timeline_digest import CURVES, TimelineDigest, timeline_digest
from gpumem_gui.core.analysis.timetravel import STORED_SERIES, DeviceTimeline, Lifetimes, OomEvent, Pieces, Series
from gpumem_gui.core.snapshot.fx_frames import FxNode
from gpumem_gui.core.snapshot.model import (
    AllocatorState,
    BlockTable,
    Frame,
    SegmentTable,
    Snapshot,
    StackTable,
    TraceTable,
)
from gpumem_gui.sources.array_file import ArrayFileError, ArrayWriter, read_arrays, write_arrays

_TRACE_DICTS = ("has_time", "forward_frames", "unknown_actions", "categories")  # travel in the JSON
_TRACE_ARRAYS = [f.name for f in fields(TraceTable) if f.name not in _TRACE_DICTS]
_SERIES_ARRAYS = list(STORED_SERIES)  # free and the fragmentation are derived in the window (Series.part)


_I32 = np.iinfo(np.int32)
# int64 columns written as int32 where a file's values fit (checked per file, else int64 as before): a count, and the
# block size of each event, read one value at a time by the window (int(), comparisons); 12 MB less each at 3M events
NARROWED = ("series.segments", "block_sizes")


def _put(arrays: dict[str, np.ndarray], prefix: str, obj: Any, names: list[str]) -> None:
    for name in names:
        arrays[f"{prefix}{name}"] = np.asarray(getattr(obj, name))


def narrowed(column: np.ndarray) -> np.ndarray:
    """`column` as int32 where every value fits in it, else itself."""
    if column.dtype == np.int64 and len(column) and _I32.min <= int(column.min()) and int(column.max()) <= _I32.max:
        return column.astype(np.int32)
    return column


def _sparse(arrays: dict[str, np.ndarray], prefix: str, column: np.ndarray) -> None:
    """A column that is 0 but at a few rows (an OOM's free memory) as its rows and their values."""
    rows = np.flatnonzero(column)
    arrays[f"{prefix}rows"], arrays[f"{prefix}values"] = rows.astype(np.int64), column[rows]


def _unsparse(path: str | Path, arrays: dict[str, np.ndarray], prefix: str, n: int) -> np.ndarray:
    """What _sparse wrote, as the whole column again (its zeros are pages nobody touches until they are written)."""
    rows, values = arrays[f"{prefix}rows"], arrays[f"{prefix}values"]
    if len(rows) and (int(rows.min()) < 0 or int(rows.max()) >= n):
        raise ArrayFileError(f"{path}: {prefix}rows points outside its table")
    column = np.zeros(n, np.int64)
    column[rows] = values
    return column


def save_parts(
    path: str | Path,
    snapshot: Snapshot,
    timelines: dict[int, DeviceTimeline],
    *,
    with_snapshot: bool = True,
) -> None:
    """Write `timelines`, and `snapshot` too unless with_snapshot is False (it was sent before)."""
    arrays, meta = parts(snapshot, timelines, with_snapshot=with_snapshot)
    write_arrays(path, arrays, meta)


def parts(
    snapshot: Snapshot, timelines: dict[int, DeviceTimeline], *, with_snapshot: bool = True
) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """What save_parts writes, as write_arrays takes it: a caller that drops `snapshot` and `timelines` then and
    writes with write_arrays(..., drain=True) frees each column as it is written (see write_arrays)."""
    arrays: dict[str, np.ndarray] = {}
    meta: dict[str, Any] = {"timelines": {}}
    if with_snapshot:
        _snapshot_parts(arrays, meta, snapshot)
    _timeline_parts(arrays, meta, snapshot, timelines)
    return arrays, meta


def _snapshot_parts(arrays: dict[str, np.ndarray], meta: dict[str, Any], snapshot: Snapshot) -> None:
    _put(arrays, "seg.", snapshot.state.segments, [f.name for f in fields(SegmentTable)])
    _put(arrays, "blk.", snapshot.state.blocks, [f.name for f in fields(BlockTable)])
    arrays["stacks.offsets"] = snapshot.stacks.offsets
    arrays["stacks.frame_ids"] = snapshot.stacks.frame_ids
    meta |= {
        "source": snapshot.source,
        "form": snapshot.form,
        "legacy_blocks": snapshot.legacy_blocks,
        "pool_ids": snapshot.state.pool_ids,
        "warnings": snapshot.warnings,
        "frames": [[f.name, f.filename, f.line] for f in snapshot.stacks.frames],
        "fx": {str(k): [n.op, n.name, n.target, n.original_trace] for k, n in snapshot.stacks.fx.items()},
        "strings": snapshot.strings,
        "metadata": {str(k): [list(pair) for pair in v] for k, v in snapshot.metadata.items()},
        "allocator_settings": snapshot.allocator_settings,
        "external_annotations": snapshot.external_annotations,
        "torch_version": snapshot.torch_version,
        "device_memory": {str(d): n for d, n in snapshot.device_memory.items()},
        "memory_limit": {str(d): n for d, n in snapshot.memory_limit.items()},
        "job": dict(snapshot.job),
        "traces": [],
        # each device's peak, made here: in the GUI process it is a pass over the trace (the device menu reads it)
        "peaks": {str(d): snapshot.peak_reserved(d) for d in snapshot.devices()} if snapshot.has_traces else {},
    }
    for d, t in enumerate(snapshot.traces):
        _put(arrays, f"trace{d}.", t, [n for n in _TRACE_ARRAYS if n != "device_free"])
        _sparse(arrays, f"trace{d}.oom.", t.device_free)  # 0 but at OOM entries: 24 MB of zeros at 3M events
        meta["traces"].append(
            {
                "has_time": t.has_time,
                "forward_frames": {str(k): v for k, v in t.forward_frames.items()},
                "unknown_actions": {str(k): v for k, v in t.unknown_actions.items()},
                "categories": {str(k): v for k, v in t.categories.items()},
            }
        )


def _timeline_parts(
    arrays: dict[str, np.ndarray], meta: dict[str, Any], snapshot: Snapshot, timelines: dict[int, DeviceTimeline]
) -> None:
    for d, tl in timelines.items():
        p = f"tl{d}."
        _put(arrays, p + "life.", tl.lifetimes, [f.name for f in fields(Lifetimes)])
        _put(arrays, p + "piece.", tl.pieces, [f.name for f in fields(Pieces)])
        _put(arrays, p + "series.", tl.series, _SERIES_ARRAYS)
        arrays[p + "block_sizes"] = tl.block_sizes
        for name in NARROWED:
            arrays[p + name] = narrowed(arrays[p + name])
        lengths = np.array([len(k) for k in tl.keyframes], np.int64)
        arrays[p + "kf.lengths"] = lengths
        arrays[p + "kf.ids"] = np.concatenate(tl.keyframes) if tl.keyframes else np.zeros(0, np.int64)
        # what the window reads first, made here: its own passes over the series would touch every page of them
        digest = tl.digest or timeline_digest(tl, snapshot.trace(d))
        for name in CURVES:
            arrays[f"{p}env.low.{name}"], arrays[f"{p}env.high.{name}"] = digest.lows[name], digest.highs[name]
        arrays[p + "ticks.events"] = digest.ticks
        meta["timelines"][str(d)] = {
            "n_events": tl.n_events,
            "keyframe_interval": tl.keyframe_interval,
            "initial": tl.series.initial,
            "ooms": [vars(o) for o in tl.ooms],
            "warnings": tl.warnings,
            "rule_mismatches": tl.rule_mismatches,
            "digest": {"peaks": digest.peaks, "peak_events": digest.peak_events, "streams": digest.streams},
        }


def _digest(path: str | Path, arrays: dict[str, np.ndarray], p: str, info: dict[str, Any], n: int) -> TimelineDigest:
    """The worker's digest of timeline `p` (of `n` events), checked: extremes of one per CHUNK events, the ticks and
    the peak events inside the trace, numbers where numbers are due."""
    from gpumem_gui.core.analysis.timeline_digest import CHUNK  # noqa: PLC0415

    found = info.get("digest")
    chunks = -(-n // CHUNK)
    lows = {name: arrays.get(f"{p}env.low.{name}") for name in CURVES}
    highs = {name: arrays.get(f"{p}env.high.{name}") for name in CURVES}
    ticks = arrays.get(p + "ticks.events")
    if (
        not isinstance(found, dict)
        or any(a is None or len(a) != chunks for a in (*lows.values(), *highs.values()))
        or ticks is None
        or (len(ticks) and (int(ticks.min()) < 0 or int(ticks.max()) >= n))
    ):
        raise ArrayFileError(f"{path}: {p} has no digest of its events")
    peaks, peak_events, streams = found.get("peaks"), found.get("peak_events"), found.get("streams")
    if (
        not isinstance(peaks, dict)
        or not isinstance(peak_events, dict)
        or not isinstance(streams, list)
        or not all(type(v) is int for v in (*peaks.values(), *peak_events.values(), *streams))
        or not all(0 <= v < n for v in peak_events.values())
    ):
        raise ArrayFileError(f"{path}: {p} has a damaged digest")
    return TimelineDigest(lows, highs, ticks, peaks, peak_events, streams)  # type: ignore[arg-type]


def load_parts(path: str | Path, snapshot: Snapshot | None = None) -> tuple[Snapshot, dict[int, DeviceTimeline]]:
    """The snapshot and timelines of `path`; pass `snapshot` when the file holds timelines only."""
    arrays, meta = read_arrays(path)
    _check_tables(path, arrays, len(meta.get("frames", ())) if isinstance(meta, dict) else 0)

    def take(prefix: str, cls: Any, names: list[str] | None = None, **extra: Any) -> Any:
        names = names or [f.name for f in fields(cls)]
        return cls(**{n: arrays[f"{prefix}{n}"] for n in names}, **extra)

    if "traces" in meta:
        pool_ids: list[tuple[int, int]] = [(int(p[0]), int(p[1])) for p in meta["pool_ids"]]
        state = AllocatorState(take("seg.", SegmentTable), take("blk.", BlockTable), pool_ids)
        fx = {int(k): FxNode(*map(str, v)) for k, v in meta.get("fx", {}).items()}
        stacks = StackTable(
            [Frame(*f) for f in meta["frames"]], arrays["stacks.offsets"], arrays["stacks.frame_ids"], fx=fx
        )
        traces = []
        for d, info in enumerate(meta["traces"]):
            n = len(arrays[f"trace{d}.action"])
            traces.append(
                take(
                    f"trace{d}.",
                    TraceTable,
                    [name for name in _TRACE_ARRAYS if name != "device_free"],
                    device_free=_unsparse(path, arrays, f"trace{d}.oom.", n),
                    has_time=info["has_time"],
                    forward_frames={int(k): v for k, v in info["forward_frames"].items()},
                    unknown_actions={int(k): v for k, v in info["unknown_actions"].items()},
                    categories={int(k): v for k, v in info.get("categories", {}).items()},
                )
            )
        snapshot = Snapshot(
            source=meta["source"],
            state=state,
            traces=traces,
            stacks=stacks,
            strings=meta["strings"],
            metadata={int(k): tuple((str(a), str(b)) for a, b in v) for k, v in meta.get("metadata", {}).items()},
            allocator_settings=meta["allocator_settings"],
            external_annotations=meta["external_annotations"],
            form=meta["form"],
            legacy_blocks=meta["legacy_blocks"],
            warnings=list(meta.get("warnings", [])),
            torch_version=meta.get("torch_version"),
            device_memory={int(d): int(n) for d, n in meta.get("device_memory", {}).items()},
            memory_limit={int(d): int(n) for d, n in meta.get("memory_limit", {}).items()},
            job={str(k): int(v) for k, v in meta.get("job", {}).items()},
        )
        # the worker's peaks fill the snapshot's own cache of them (Snapshot.peak_reserved)
        snapshot.seed_peaks({int(d): float(p) for d, p in meta.get("peaks", {}).items()})
    if snapshot is None:
        raise KeyError("the file holds timelines only, and no snapshot was given for them")
    state, pool_ids = snapshot.state, snapshot.state.pool_ids
    timelines: dict[int, DeviceTimeline] = {}
    for key, info in meta["timelines"].items():
        d = int(key)
        p = f"tl{d}."
        lengths = arrays[p + "kf.lengths"]
        ids = arrays[p + "kf.ids"]
        bounds = np.concatenate([[0], np.cumsum(lengths)])
        series_arrays = {n: arrays[f"{p}series.{n}"] for n in _SERIES_ARRAYS}
        trace = snapshot.trace(d)
        series = Series(
            **series_arrays,
            time_us=trace.time_us if trace.has_time else None,
            initial=info["initial"],
        )
        digest = _digest(path, arrays, p, info, int(info["n_events"])) if "digest" in info else None
        if digest is not None:
            series.seed(digest.peaks, digest.peak_events)
        timelines[d] = DeviceTimeline(
            device=d,
            n_events=info["n_events"],
            final=state.for_device(d),
            pool_ids=pool_ids,
            lifetimes=take(p + "life.", Lifetimes),
            pieces=take(p + "piece.", Pieces),
            keyframes=[ids[bounds[k] : bounds[k + 1]] for k in range(len(lengths))],
            keyframe_interval=info["keyframe_interval"],
            series=series,
            ooms=[OomEvent(**o) for o in info["ooms"]],
            block_sizes=arrays[p + "block_sizes"],
            warnings=info["warnings"],
            rule_mismatches=info["rule_mismatches"],
            digest=digest,
        )
    return snapshot, timelines


def _check_tables(path: str | Path, arrays: dict[str, np.ndarray], n_frames: int) -> None:
    """What save_parts writes, checked before anything is built of it: the columns of each table are 1-D numbers of
    one length (booleans, or the one float series), and the indices that other tables are read through lie inside
    them. Our own worker always passes; a damaged or forged file gets one line instead of an IndexError later."""

    def bad(what: str) -> ArrayFileError:
        return ArrayFileError(f"{path}: {what}")

    tables: dict[str, int] = {}
    for name, array in arrays.items():
        table = name.rsplit(".", 1)[0]
        if array.ndim != 1:
            raise bad(f"{name} is not a column")
        # the fragmentation's extremes are the one float column
        if array.dtype.kind not in ("f" if name.endswith("external_fragmentation") else "iub"):
            raise bad(f"{name} has dtype {array.dtype}")
        if not table.endswith((".kf", "stacks")) and tables.setdefault(table, len(array)) != len(array):
            raise bad(f"the columns of {table} differ in length")

    def within(name: str, low: int, high: int) -> None:
        column = arrays.get(name)
        if column is not None and len(column) and (int(column.min()) < low or int(column.max()) >= high):
            raise bad(f"{name} points outside its table")

    if "stacks.offsets" in arrays:
        offsets, n_ids = arrays["stacks.offsets"], len(arrays.get("stacks.frame_ids", ()))
        if len(offsets) == 0 or offsets[0] != 0 or offsets[-1] != n_ids or bool(np.any(np.diff(offsets) < 0)):
            raise bad("stacks.offsets does not cut stacks.frame_ids into stacks")
        within("stacks.frame_ids", 0, n_frames)
        n_stacks = len(offsets) - 1
        for name in arrays:
            if name.endswith(".stack"):
                within(name, -1, n_stacks)
    n_seg, n_blk = tables.get("seg", 0), tables.get("blk", 0)
    within("blk.segment", 0, n_seg)
    starts, counts = arrays.get("seg.block_start"), arrays.get("seg.block_count")
    if (
        starts is not None
        and counts is not None
        and bool(np.any((starts < 0) | (counts < 0) | (starts + counts > n_blk)))
    ):
        raise bad("seg.block_start points outside blk")


def _json_key(value: object) -> object:
    return int(value) if isinstance(value, np.integer) else value  # a stream number may be a numpy integer


def save_bands(path: str | Path, device: int, groupings: dict[str, BandSeries]) -> None:
    """The site timeline's groupings of one device's timeline (they share one TotalIndex)."""
    writer = _BandsWriter(path, device)
    for kind, b in groupings.items():
        writer.add(kind, b)
    writer.close()


def make_and_save_bands(
    path: str | Path,
    snapshot: Snapshot,
    timeline: DeviceTimeline,
    kinds: Sequence[str] = GROUPINGS,
    first: tuple[str | Path, Callable[[str | Path], None]] | None = None,
) -> None:
    """build_site_series' groupings of `timeline`, each written to `path` as soon as it is made and then dropped:
    the same file as save_bands of them all, without holding every grouping's change points at once (some
    hundreds of MB at millions of events). With `first` (a path and what to call with it), the first grouping
    (the one the window shows first) is written to a file of its own and handed over before the others are made."""
    index, order = total_index(timeline), event_order(timeline)

    def write(file: str | Path, file_kinds: Sequence[str]) -> None:
        writer = _BandsWriter(file, timeline.device)
        try:
            for kind in file_kinds:
                writer.add(kind, build_bands(snapshot, timeline, kind, TOP_SITES, index, order=order))
            writer.close()
        except BaseException:
            writer.abandon()
            Path(file).unlink(missing_ok=True)
            raise

    if first is not None and len(kinds) > 1:
        write(first[0], kinds[:1])
        first[1](first[0])
        kinds = kinds[1:]
    write(path, kinds)


class _BandsWriter:
    """save_bands' file, one grouping at a time (the index written with the first)."""

    def __init__(self, path: str | Path, device: int) -> None:
        self.writer = ArrayWriter(path)
        self.meta: dict[str, Any] = {"device": device, "groupings": {}}

    def add(self, kind: str, b: BandSeries) -> None:
        if not self.meta["groupings"]:
            index = b.index
            for name, array in (("total", index.total), ("low", index.chunk_low), ("high", index.chunk_high)):
                self.writer.add(f"index.{name}", array)
        for name in ("lifetime_band", "code_band", "keys", "values"):
            self.writer.add(f"{kind}.{name}", getattr(b, name))
        self.meta["groupings"][kind] = {
            "n_events": b.n_events,
            "codes": [_json_key(c) for c in b.codes],
            "bands": [[_json_key(x.key), x.label, int(x.peak_bytes), int(x.peak_event), int(x.stack)] for x in b.bands],
        }

    def close(self) -> None:
        self.writer.close(self.meta)

    def abandon(self) -> None:
        self.writer.abandon()


def load_bands(path: str | Path) -> tuple[int, dict[str, BandSeries]]:
    """What save_bands wrote: the device and its groupings."""
    arrays, meta = read_arrays(path)
    groupings: dict[str, BandSeries] = {}
    if meta["groupings"]:
        index = TotalIndex(arrays["index.total"], arrays["index.low"], arrays["index.high"])
    for kind, info in meta["groupings"].items():
        groupings[kind] = BandSeries(
            kind=kind,
            n_events=info["n_events"],
            bands=tuple(Band(*band) for band in info["bands"]),
            lifetime_band=arrays[f"{kind}.lifetime_band"],
            code_band=arrays[f"{kind}.code_band"],
            codes=tuple(info["codes"]),
            keys=arrays[f"{kind}.keys"],
            values=arrays[f"{kind}.values"],
            index=index,
        )
    return int(meta["device"]), groupings


_CURVE_ARRAYS = ("starts", "reserved_low", "reserved_high", "allocated_low", "allocated_high")


def save_curves(path: str | Path, device: int, curves: PartialCurves) -> None:
    """The running curves of the trace read so far, of `device` (the one device of the file's state)."""
    write_arrays(path, {n: getattr(curves, n) for n in _CURVE_ARRAYS}, {"device": device, "n_events": curves.n_events})


def load_curves(path: str | Path) -> tuple[int, PartialCurves]:
    """What save_curves wrote: the device and its curves so far."""
    arrays, meta = read_arrays(path)
    lengths = {len(arrays[n]) for n in _CURVE_ARRAYS}
    if len(lengths) != 1 or any(arrays[n].ndim != 1 or arrays[n].dtype.kind != "i" for n in _CURVE_ARRAYS):
        raise ArrayFileError(f"{path}: the curves' columns differ")
    return int(meta["device"]), PartialCurves(int(meta["n_events"]), *(arrays[n] for n in _CURVE_ARRAYS))


def save_spans(path: str | Path, device: int, spans: list[Span]) -> None:
    """The named spans of one device's timeline (the steps found, with their numbers, the record_function ranges)."""
    write_arrays(path, {}, {"device": device, "spans": [[s.start, s.end, s.name, s.step] for s in spans]})


def load_spans(path: str | Path) -> tuple[int, list[Span]]:
    """What save_spans wrote: the device and its named spans."""
    _arrays, meta = read_arrays(path)
    spans = meta.get("spans") if isinstance(meta, dict) else None
    if not isinstance(spans, list) or not all(
        isinstance(s, list)
        and len(s) == 4
        and type(s[0]) is int
        and type(s[1]) is int
        and isinstance(s[2], str)
        and type(s[3]) is int
        for s in spans
    ):
        raise ArrayFileError(f"{path}: not a list of spans")
    return int(meta["device"]), [Span(a, b, name, step) for a, b, name, step in spans]
