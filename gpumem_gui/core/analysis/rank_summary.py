"""One rank file's summary as a small JSON document: what travels from the machine that read the file, and is cached.

A few KB however long the trace: the figures of the `ranks` table (FileSummary's fields), the peaks and when, the
OOMs of every device with their request and the device's free memory, the top sites and the categories at the peak,
the reserved and allocated curves reduced to min/max envelopes of about CURVE_POINTS points, the metadata the
snapshot carries (host, torch version, RANK, LOCAL_RANK, WORLD_SIZE, `parallel`), and the file's size, mtime and
content hash, so a cached summary is known to be the file's. `pinned`: the envelopes, over the same runs of
events as the curves, of the bytes each pin asked for (a site, a category, a stream, a pool or a search, the same
over every rank of a folder) held, by pinned_series.pin_id.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from gpumem_gui.core.analysis.breakdown import breakdown_at
from gpumem_gui.core.analysis.pinned_series import pin_id, pinned_bytes
from gpumem_gui.core.analysis.rank_groups import parallel_coordinates
from gpumem_gui.core.analysis.ranks import FileSummary, summarise_snapshot
from gpumem_gui.core.analysis.timetravel import build_timeline
from gpumem_gui.core.rules.allocator_rules import AllocatorConfig
from gpumem_gui.core.snapshot.errors import SnapshotError
from gpumem_gui.core.snapshot.loader import load_snapshot
from gpumem_gui.core.snapshot.model import Action, Snapshot
from gpumem_gui.core.snapshot.sentences import QT_TRANSLATE_NOOP

SUMMARY_VERSION = 3  # raise when a key changes: cached summaries of another version are read again
# the versions a summary file (ranks summarize --out) may have and be merged: 3 added `pinned` (a 2 has no pins)
READABLE_VERSIONS = (2, 3)
CURVE_POINTS = 512
TOP_SITES = 20
# the keys of the snapshot's user metadata (torch.cuda.memory._set_memory_metadata) that tell where a rank runs
METADATA_KEYS = ("RANK", "LOCAL_RANK", "WORLD_SIZE", "parallel", "host", "hostname", "torch_version")
_FIELDS = tuple(f.name for f in dataclasses.fields(FileSummary))


def envelope(values: npt.NDArray[np.int64], points: int = CURVE_POINTS) -> dict[str, list[int]]:
    """`values` cut into at most `points` runs of consecutive events: each run's first event, minimum and maximum
    (a peak one event wide survives the reduction, as it would not in a sample)."""
    n = len(values)
    if n == 0:
        return {"event": [], "min": [], "max": []}
    starts = np.unique(np.linspace(0, n, min(points, n), endpoint=False).astype(np.int64))
    return {
        "event": starts.tolist(),
        "min": np.minimum.reduceat(values, starts).astype(np.int64).tolist(),
        "max": np.maximum.reduceat(values, starts).astype(np.int64).tolist(),
    }


def _curves(reserved: npt.NDArray[np.int64], allocated: npt.NDArray[np.int64]) -> dict[str, list[int]]:
    """Both curves' envelopes over the same runs of events."""
    res, alloc = envelope(reserved), envelope(allocated)
    return {
        "event": res["event"],
        "reserved_min": res["min"],
        "reserved_max": res["max"],
        "allocated_min": alloc["min"],
        "allocated_max": alloc["max"],
    }


def user_metadata(snapshot: Snapshot) -> dict[str, Any]:
    """The METADATA_KEYS found in the trace entries' user metadata: a JSON object, or `KEY=VALUE` pairs split by
    commas or spaces; the last entry that names a key wins. RANK, LOCAL_RANK and WORLD_SIZE the probe recorded
    (Snapshot.job) come first: the job's own metadata, when it names them, is what the job meant."""
    found: dict[str, Any] = dict(snapshot.job)
    codes: set[int] = set()
    for trace in snapshot.traces:
        codes.update(int(c) for c in np.unique(trace.user_metadata) if c >= 0)
    for code in sorted(codes):
        text = snapshot.strings[code] if code < len(snapshot.strings) else ""
        if code in snapshot.metadata:  # given as a dict: its pairs, each value's text JSON unless a plain string
            parsed = {key: _json_or_text(value) for key, value in snapshot.metadata[code]}
        else:
            try:
                parsed = json.loads(text)
            except ValueError:
                parsed = dict(p.split("=", 1) for p in text.replace(",", " ").split() if "=" in p)
        if isinstance(parsed, dict):
            found.update({k: v for k, v in parsed.items() if k in METADATA_KEYS})
    for key in ("RANK", "LOCAL_RANK", "WORLD_SIZE"):
        if key in found:
            try:
                found[key] = int(found[key])
            except (TypeError, ValueError):
                del found[key]
    return found


def _json_or_text(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


def _ooms(snapshot: Snapshot) -> list[dict[str, int]]:
    out = []
    for device in snapshot.devices():
        trace = snapshot.trace(device)
        for row in np.flatnonzero(trace.action == Action.OOM):
            out.append(
                {
                    "device": device,
                    "event": int(row),
                    "requested_bytes": int(trace.size[row]),
                    "device_free_bytes": int(trace.device_free[row]),
                }
            )
    return out


PinKey = tuple[str, str | int]  # a pin's (kind, key): what a rank's pinned series holds


def summarise_loaded(
    snapshot: Snapshot, file: str, relative: str, stat: dict[str, Any], pins: Sequence[PinKey] = ()
) -> dict[str, Any]:
    """The summary of a loaded snapshot; `stat` is the file's {size, mtime_ns, blake2b}; `pins`: the (kind, key)
    of each pin whose series the summary carries."""
    table_entry = summarise_snapshot(snapshot, file, relative)
    device = table_entry.device
    config = AllocatorConfig.from_snapshot_settings(snapshot.allocator_settings)
    timeline = build_timeline(snapshot, device, config)
    series = timeline.series
    peaks: dict[str, dict[str, Any]] = {}
    for name in ("reserved", "allocated", "requested"):
        values = getattr(series, name)
        at = -1 if not len(values) or series.initial[name] >= int(values.max()) else int(np.argmax(values))
        when = int(series.time_us[at]) if series.time_us is not None and at >= 0 else None
        peaks[name] = {"bytes": series.peak(name), "event": at, "time_us": when}
    # the sites and categories hold allocated memory: taken at its peak (reserved peaks one event earlier, at the
    # segment's allocation, before the block that asked for it exists)
    peak_event = int(peaks["allocated"]["event"])
    if peak_event < 0:
        peak_event = table_entry.peak_event if table_entry.peak_event >= 0 else timeline.n_events - 1
    at_peak = breakdown_at(snapshot, timeline, peak_event) if timeline.n_events or len(snapshot.state.blocks) else None
    metadata = user_metadata(snapshot)
    rank = table_entry.rank
    if not table_entry.rank_from_name and "RANK" in metadata:  # the name tells none: the job's RANK
        rank = metadata["RANK"]
    table_entry = dataclasses.replace(
        table_entry,
        rank=rank,
        rank_from_name=table_entry.rank_from_name or "RANK" in metadata,
        parallel=parallel_coordinates(metadata, relative),
        categories_at_peak={k: v for k, v in (at_peak.by_category if at_peak else {}).items() if v},
    )
    return {
        "summary_version": SUMMARY_VERSION,
        **{key: getattr(table_entry, key) for key in _FIELDS}
        | {
            "oom_devices": list(table_entry.oom_devices),
            "parallel": dict(table_entry.parallel),
            "categories_at_peak": dict(table_entry.categories_at_peak),
        },
        "relative": relative,
        "host": metadata.get("host", metadata.get("hostname")),
        "devices": snapshot.devices(),
        "torch_version": metadata.get("torch_version"),
        "allocator_settings": snapshot.allocator_settings,
        "metadata": {k: v for k, v in metadata.items() if k in ("RANK", "LOCAL_RANK", "WORLD_SIZE", "parallel")},
        "peaks": peaks,
        "ooms": _ooms(snapshot),
        "top_sites": [
            {"site": s.site, "bytes": s.bytes, "blocks": s.blocks} for s in (at_peak.by_site if at_peak else [])
        ][:TOP_SITES],
        "curves": _curves(series.reserved, series.allocated),
        "pinned": {pin_id(kind, key): envelope(pinned_bytes(snapshot, timeline, kind, key)) for kind, key in pins},
        "file_stat": stat,
    }


def file_stat(path: str) -> dict[str, Any]:
    """The file's size, mtime (ns) and BLAKE2b of its bytes."""
    digest = hashlib.blake2b(digest_size=16)
    with open(path, "rb") as f:
        before = os.fstat(f.fileno())
        while chunk := f.read(1 << 20):
            digest.update(chunk)
    return {"size": before.st_size, "mtime_ns": before.st_mtime_ns, "blake2b": digest.hexdigest()}


def summarise_path(path: str, relative: str, pins: Sequence[PinKey] = ()) -> dict[str, Any]:
    """Read one file and summarise it (with the series of `pins`); SnapshotError for a file that is not a snapshot,
    or that changed while it was read (its size or mtime after the reading differ from before)."""
    stat = file_stat(path)
    summary = summarise_loaded(load_snapshot(path), path, relative, stat, pins)
    after = os.stat(path)
    if (after.st_size, after.st_mtime_ns) != (stat["size"], stat["mtime_ns"]):
        raise SnapshotError(
            QT_TRANSLATE_NOOP("SnapshotError", "the file changed while it was read; read it again when it is written"),
            path,
        )
    return summary


def file_summary(summary: dict[str, Any]) -> FileSummary:
    """The `ranks` table's entry of a summary."""
    values = {key: summary[key] for key in _FIELDS}
    values["oom_devices"] = tuple(values["oom_devices"])
    return FileSummary(**values)


def carries_pins(summary: dict[str, Any], pins: Sequence[PinKey]) -> bool:
    """Whether `summary` has the series of every one of `pins` (else its file is read again for them)."""
    pinned = summary.get("pinned") or {}
    return all(pin_id(kind, key) in pinned for kind, key in pins)
