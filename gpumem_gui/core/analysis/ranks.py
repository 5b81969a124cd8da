"""A folder of per-rank snapshots: each file's rank and step from its name, its summary, the OOM ranks, the outliers."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any

import numpy as np

from gpumem_gui.core.analysis.metrics import compute_metrics
from gpumem_gui.core.analysis.rank_groups import (
    MIN_GROUP_FOR_OUTLIERS,
    Z_THRESHOLD,
    Imbalance,
    find_imbalance,
    outlier_group,
    parallel_coordinates,
    robust_scores,
)
from gpumem_gui.core.analysis.timetravel import build_timeline
from gpumem_gui.core.rules.allocator_rules import AllocatorConfig
from gpumem_gui.core.snapshot.errors import printable
from gpumem_gui.core.snapshot.model import Snapshot
from gpumem_gui.core.snapshot.units import format_bytes, format_percent

# the names frameworks write: torchtitan `iteration_10/rank0_memory_snapshot.pickle`, Megatron-Bridge
# `snapshot_3.pickle` and `snapshot_oom_rank-3.pickle`, lmms-engine `oom_rank3_pid..._time.pickle`, scripts `rank_4`.
# `rank-3` is rank 3 (a separator, never a sign); "rank" must not end a longer word ("cranks", "prerank3")
_RANK = re.compile(r"(?<![a-z])(?:local_?|global_?)?rank[-_]?(\d+)", re.IGNORECASE)
_MEGATRON_RANK = re.compile(r"(?:memory_)?snapshot[-_](\d{1,5})", re.IGNORECASE)  # the whole name; a date is no rank
_STEP = re.compile(r"(?<![a-z])(?:global_)?(?:step|steps|iter|iteration)[-_]?(\d+)", re.IGNORECASE)

# the files a folder's snapshots may be (what load_snapshot reads); others (README, logs) are not looked at
SNAPSHOT_SUFFIXES = (".pickle", ".pkl", ".pck", ".json", ".gz")

OUTLIER_METRICS = ("peak_reserved_bytes", "peak_allocated_bytes")


def _stem(part: str) -> str:
    for suffix in (".gz", *SNAPSHOT_SUFFIXES):
        if part.lower().endswith(suffix):
            part = part[: -len(suffix)]
    return part


def parse_rank_name(relative_path: str) -> tuple[int | None, int | None]:
    """(rank, step) from a file's path relative to the folder: the file's name first, then its folders from the
    innermost; None where no part names one."""
    parts = [_stem(p) for p in reversed(PurePath(relative_path).parts)]
    rank = step = None
    for part in parts:
        if rank is None:
            found = _RANK.search(part) or _MEGATRON_RANK.fullmatch(part)
            if found:
                rank = int(found.group(1))
        if step is None:
            found = _STEP.search(part)
            if found:
                step = int(found.group(1))
    return rank, step


@dataclass(frozen=True)
class FileSummary:
    """One file's figures for the device that reserved the most at its peak, and its OOMs on every device (small:
    it crosses processes)."""

    file: str  # as given (the CLI prints it, the window opens it)
    rank: int  # from the name, else the device index
    rank_from_name: bool
    step: int | None
    device: int
    peak_reserved_bytes: int
    peak_allocated_bytes: int
    reserved_bytes: int  # at the end of the file (the snapshot's own state)
    allocated_bytes: int
    oom_events: int  # on every device of the file, not only `device`: an OOM anywhere makes the rank one that OOMed
    external_fragmentation: float  # 1 - largest free block / free, at the moment reserved first peaks
    peak_event: int  # that moment: -1 before the first trace event
    trace_events: int
    span_us: int | None  # first to last event's time; None without time stamps
    oom_devices: tuple[int, ...] = ()  # the devices with an OOM in their trace
    # its place in the parallelism (rank_groups.DIMENSIONS: index), from the snapshot's metadata or the file's name
    parallel: Mapping[str, int] = field(default_factory=dict)
    # bytes of each category at the peak of allocated (rank_summary; empty where the entry was made without it)
    categories_at_peak: Mapping[str, int] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        keys = (
            "rank",
            "step",
            "file",
            "device",
            "peak_reserved_bytes",
            "peak_allocated_bytes",
            "reserved_bytes",
            "allocated_bytes",
            "oom_events",
            "external_fragmentation",
        )
        return {key: getattr(self, key) for key in keys} | {
            "oom_devices": list(self.oom_devices),
            "parallel": dict(self.parallel),
            "categories_at_peak": dict(self.categories_at_peak),
        }


def oom_flag(entry: FileSummary) -> str:
    """ "OOM", or "OOM on device 1" when an OOM is on another device than the one whose figures are shown; "": none."""
    if not entry.oom_events:
        return ""
    others = [d for d in entry.oom_devices if d != entry.device]
    if not others:
        return "OOM"
    return f"OOM on device {', '.join(map(str, entry.oom_devices))}"


def summarise_snapshot(snapshot: Snapshot, file: str, relative_path: str | None = None) -> FileSummary:
    """The summary of a loaded snapshot; rank and step from `relative_path` (default: the file's name)."""
    rank, step = parse_rank_name(relative_path if relative_path is not None else PurePath(file).name)
    devices = snapshot.devices()
    # the quick ranking from segment events alone; the first device wins a tie
    device = max(devices, key=lambda d: (snapshot.peak_reserved(d), -d)) if devices else 0
    config = AllocatorConfig.from_snapshot_settings(snapshot.allocator_settings)
    timeline = build_timeline(snapshot, device, config)
    series = timeline.series
    final = compute_metrics(timeline.final, config)
    n = len(series)
    if n == 0 or series.initial["reserved"] >= int(series.reserved.max()):
        peak_event, fragmentation = -1, float(series.initial["external_fragmentation"])
    else:
        peak_event = int(np.argmax(series.reserved))
        fragmentation = float(series.external_fragmentation[peak_event])
    span = None
    if series.time_us is not None and n:
        span = int(series.time_us[-1] - series.time_us[0])
    return FileSummary(
        file=file,
        rank=rank if rank is not None else device,
        rank_from_name=rank is not None,
        step=step,
        device=device,
        peak_reserved_bytes=series.peak("reserved"),
        peak_allocated_bytes=series.peak("allocated"),
        reserved_bytes=final.reserved_bytes,
        allocated_bytes=final.allocated_bytes,
        oom_events=sum(snapshot.oom_count(d) for d in devices),
        external_fragmentation=fragmentation,
        peak_event=peak_event,
        trace_events=timeline.n_events,
        span_us=span,
        oom_devices=tuple(d for d in devices if snapshot.oom_count(d)),
        parallel=parallel_coordinates({}, relative_path if relative_path is not None else PurePath(file).name),
    )


@dataclass(frozen=True)
class Outlier:
    """A rank whose peak scores above Z_THRESHOLD among the ranks of its step and pipeline stage."""

    rank: int
    metric: str
    value: int
    median: int
    file: str = ""
    step: int | None = None
    mad: int = 0  # the median absolute deviation of the group (before the floor of rank_groups)
    score: float = 0.0  # the modified z-score
    pipeline_stage: int | None = None  # the group's stage, when known

    def as_json(self) -> dict[str, Any]:
        return {
            "rank": self.rank,
            "step": self.step,
            "pipeline_stage": self.pipeline_stage,
            "metric": self.metric,
            "value": self.value,
            "median": self.median,
            "mad": self.mad,
            "score": round(self.score, 2),
        }


@dataclass(frozen=True)
class RanksTable:
    """The summaries of a folder in order of rank and step, with the ranks that OOMed and the outliers."""

    entries: list[FileSummary]
    oom_ranks: list[int]
    outliers: list[Outlier]
    errors: list[str] = field(default_factory=list)  # one line per file that could not be read
    imbalance: list[Imbalance] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {
            "ranks": [e.as_json() for e in self.entries],
            "oom_ranks": self.oom_ranks,
            "outliers": [o.as_json() for o in self.outliers],
            "outlier_rule": {"score": "modified z-score (Iglewicz-Hoaglin)", "threshold": Z_THRESHOLD},
            "imbalance": [i.as_json() for i in self.imbalance],
        }

    def flags(self, entry: FileSummary) -> list[str]:
        """The metrics for which `entry` is an outlier."""
        return [o.metric for o in self.outliers if o.file == entry.file]


def _order(entry: FileSummary) -> tuple[int, int, str]:
    return (entry.rank, -1 if entry.step is None else entry.step, entry.file)


def find_outliers(entries: Sequence[FileSummary], threshold: float = Z_THRESHOLD) -> list[Outlier]:
    """Entries whose peak reserved or peak allocated has a modified z-score above `threshold` among the entries of
    the same step and pipeline stage (rank_groups: median and MAD, the MAD floored at 1 % of the median); files
    without a step, or without a stage, form a group of their own. Only peaks above the group are outliers: a rank
    that holds less is no memory problem."""
    groups: dict[tuple[int | None, int | None], list[FileSummary]] = {}
    for e in entries:
        groups.setdefault(outlier_group(e), []).append(e)
    found = []
    for (step, stage), group in groups.items():
        if len(group) < MIN_GROUP_FOR_OUTLIERS:
            continue
        for metric in OUTLIER_METRICS:
            scored = robust_scores([int(getattr(e, metric)) for e in group])
            for e, d in zip(group, scored, strict=True):
                if d.score > threshold:
                    found.append(Outlier(e.rank, metric, d.value, d.median, e.file, step, d.mad, d.score, stage))
    return sorted(
        found, key=lambda o: (o.rank, -1 if o.step is None else o.step, o.file, OUTLIER_METRICS.index(o.metric))
    )


def ranks_table(entries: Iterable[FileSummary], errors: Iterable[str] = ()) -> RanksTable:
    ordered = sorted(entries, key=_order)
    oom_ranks = sorted({e.rank for e in ordered if e.oom_events})
    return RanksTable(ordered, oom_ranks, find_outliers(ordered), list(errors), find_imbalance(ordered))


def _span(us: int | None) -> str:
    if us is None:
        return "-"
    return f"{us / 1e6:.1f} s" if us >= 100_000 else f"{us / 1e3:.1f} ms"


def _relative(file: str, folder: str) -> str:
    """The file's path below the folder, printable (a name may hold a newline, a terminal escape, bytes not UTF-8)."""
    try:
        return printable(str(PurePath(file).relative_to(folder)))
    except ValueError:
        return printable(file)


def ranks_text(table: RanksTable, folder: str) -> str:
    """The `ranks` command's text: a table, the OOM ranks, the outliers, each rank's peaks over its steps."""
    lines = [f"{printable(folder)}: {len(table.entries)} snapshot file(s)"]
    lines += [f"unreadable: {printable(e)}" for e in table.errors]
    if not table.entries:
        return "\n".join(lines)
    head = (
        f"{'rank':>5} {'step':>6} {'dev':>3} {'peak reserved':>14} {'peak alloc':>11} {'final res':>10}"
        f" {'final alloc':>11} {'OOM':>4} {'frag@peak':>9} {'span':>8}  flags  file"
    )
    lines += ["", head]
    for e in table.entries:
        flags = ("O" if e.oom_events else "-") + ("R" if "peak_reserved_bytes" in table.flags(e) else "-")
        flags += "A" if "peak_allocated_bytes" in table.flags(e) else "-"
        shown = f"{e.rank}" if e.rank_from_name else f"({e.rank})"
        lines.append(
            f"{shown:>5} {'-' if e.step is None else e.step:>6} {e.device:>3} {format_bytes(e.peak_reserved_bytes):>14}"
            f" {format_bytes(e.peak_allocated_bytes):>11} {format_bytes(e.reserved_bytes):>10}"
            f" {format_bytes(e.allocated_bytes):>11} {e.oom_events:>4} {format_percent(e.external_fragmentation):>9}"
            f" {_span(e.span_us):>8}  {flags:<5}  {_relative(e.file, folder)}"
        )
    lines.append(
        "flags: O = OOMed (on any device of the file), R = peak reserved outlier, A = peak allocated outlier;"
        " (n): rank = device index"
    )
    for e in table.entries:
        flag = oom_flag(e)
        if flag not in {"", "OOM"}:
            shown = f"its figures are device {e.device}'s, the one that reserved the most"
            lines.append(f"  rank {e.rank}: {flag} ({shown})")
    lines.append(f"OOM ranks: {', '.join(map(str, table.oom_ranks)) or 'none'}")
    if table.outliers:
        lines.append(
            f"outliers (modified z-score above {Z_THRESHOLD} against the median and MAD of their step and stage):"
        )
        for o in table.outliers:
            step = "" if o.step is None else f" step {o.step}"
            stage = "" if o.pipeline_stage is None else f" stage {o.pipeline_stage}"
            name = o.metric.removesuffix("_bytes").replace("_", " ")
            lines.append(
                f"  rank {o.rank}{step}{stage}: {name} {format_bytes(o.value)} (median {format_bytes(o.median)},"
                f" MAD {format_bytes(o.mad)}, score {o.score:.1f})  {_relative(o.file, folder)}"
            )
    else:
        lines.append("outliers: none")
    for imbalance in table.imbalance:
        lines.append(f"imbalance: {imbalance.text}")
    by_rank: dict[int, list[FileSummary]] = {}
    for e in table.entries:
        if e.step is not None:
            by_rank.setdefault(e.rank, []).append(e)
    series = {rank: steps for rank, steps in by_rank.items() if len(steps) > 1}
    if series:
        lines.append("peak reserved over steps:")
        for rank, steps in series.items():
            points = ", ".join(f"{e.step}: {format_bytes(e.peak_reserved_bytes)}" for e in steps)
            lines.append(f"  rank {rank}  {points}")
    return "\n".join(lines)
