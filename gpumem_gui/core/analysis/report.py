"""The `report` command's content: per-device figures of a snapshot (or of one moment of its trace)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gpumem_gui.core.analysis.metrics import GroupedMetrics, Metrics, metrics_by_group, segment_free_summary
from gpumem_gui.core.analysis.process_limit import device_had_room
from gpumem_gui.core.analysis.timetravel import DeviceTimeline, TraceFigures, build_timeline, trace_figures
from gpumem_gui.core.rules.allocator_rules import AllocatorConfig
from gpumem_gui.core.snapshot.model import AllocatorState, Snapshot
from gpumem_gui.core.snapshot.origin import PROFILER_FORM, SYNTHETIC_SPACE, profiler_made
from gpumem_gui.core.snapshot.units import format_bytes, format_bytes_exact, format_percent

# keys of the JSON report's device entries, in order; totals sum them where a sum means something
_SUMMED = (
    "segments",
    "blocks",
    "reserved_bytes",
    "allocated_bytes",
    "requested_bytes",
    "pending_free_bytes",
    "active_bytes",
    "free_bytes",
    "internal_waste_bytes",
    "inactive_split_bytes",
    "trace_events",
    "oom_events",
)


_GROUP_KEYS = (
    "segments",
    "reserved_bytes",
    "allocated_bytes",
    "requested_bytes",
    "pending_free_bytes",
    "free_bytes",
    "largest_free_block_bytes",
    "external_fragmentation",
    "largest_allocation_that_fits",
)


@dataclass(frozen=True)
class DeviceReport:
    device: int
    groups: GroupedMetrics
    state: AllocatorState
    trace: TraceFigures
    at_event: int | None

    @property
    def metrics(self) -> Metrics:
        return self.groups.total

    def as_dict(self) -> dict[str, Any]:
        m = self.metrics
        t = self.trace
        return {
            "device": self.device,
            "at_event": self.at_event,
            "segments": m.segments,
            "blocks": m.blocks,
            "reserved_bytes": m.reserved_bytes,
            "allocated_bytes": m.allocated_bytes,
            "requested_bytes": m.requested_bytes,
            "pending_free_bytes": m.pending_free_bytes,
            "active_bytes": m.active_bytes,
            "free_bytes": m.free_bytes,
            "internal_waste_bytes": m.internal_waste_bytes,
            "largest_free_block_bytes": m.largest_free_block_bytes,
            "external_fragmentation": m.external_fragmentation,
            "inactive_split_bytes": m.inactive_split_bytes,
            "largest_allocation_that_fits": m.largest_allocation_that_fits,
            "trace_events": t.n_events,
            "peak_reserved_bytes": t.peak_reserved,
            "peak_allocated_bytes": t.peak_allocated,
            "oom_events": len(t.ooms),
            "free_block_histogram": [vars(b) for b in m.free_block_histogram],
            "by_pool": {name: _group(g) for name, g in self.groups.by_pool.items() if g.segments},
            "by_stream": {str(stream): _group(g) for stream, g in self.groups.by_stream.items()},
            "by_private_pool": {f"{a},{b}": _group(g) for (a, b), g in self.groups.by_private_pool.items()},
        }


def _group(m: Metrics) -> dict[str, Any]:
    figures = m.as_dict()
    return {key: figures[key] for key in _GROUP_KEYS}


def build_report(
    snapshot: Snapshot,
    device: int | None = None,
    at: int | None = None,
    timelines: Mapping[int, DeviceTimeline] | None = None,
) -> list[DeviceReport]:
    """Reports for every device (or just `device`); with `at`, the state right after that event of one device.
    `timelines`: those built already (a window's tab has them), used instead of building them again."""
    config = AllocatorConfig.from_snapshot_settings(snapshot.allocator_settings)
    if at is not None and device is None:
        device = snapshot.default_device()
    devices = [device] if device is not None else snapshot.devices()
    reports = []
    for d in devices:
        known = timelines.get(d) if timelines is not None else None
        if at is None and known is None:  # the final state is the file's, and the trace's figures need no time travel
            state, trace = snapshot.state.for_device(d), trace_figures(snapshot, d, config)
        else:  # the caller's timeline (a tab's), or one made to travel to `at`
            timeline = known if known is not None else build_timeline(snapshot, d, config)
            state, trace = (timeline.state_at(at) if at is not None else timeline.final), timeline.figures()
        reports.append(DeviceReport(d, metrics_by_group(state, config), state, trace, at))
    return reports


def report_json(snapshot: Snapshot, reports: list[DeviceReport]) -> dict[str, Any]:
    devices = [r.as_dict() for r in reports]
    totals: dict[str, Any] = {key: sum(d[key] for d in devices) for key in _SUMMED}
    totals["largest_free_block_bytes"] = max((d["largest_free_block_bytes"] for d in devices), default=0)
    totals["largest_allocation_that_fits"] = max((d["largest_allocation_that_fits"] for d in devices), default=0)
    free = totals["free_bytes"]
    totals["external_fragmentation"] = 1.0 - totals["largest_free_block_bytes"] / free if free else 0.0
    # peaks of different devices need not coincide, so their sum is only an upper bound of the total's peak
    totals["peak_reserved_bytes"] = sum(d["peak_reserved_bytes"] for d in devices)
    totals["peak_allocated_bytes"] = sum(d["peak_allocated_bytes"] for d in devices)
    # what the file holds that is odd but shown (checks.check_layout: blocks that do not cover their segment)
    return {"file": snapshot.source, "devices": devices, "totals": totals, "warnings": list(snapshot.warnings)}


def report_text(snapshot: Snapshot, reports: list[DeviceReport], top: int = 10) -> str:
    lines = [f"{snapshot.source}: {_describe_form(snapshot)}"]
    synthetic = profiler_made(snapshot)
    lines += [f"note: {w}" for w in snapshot.warnings]
    if not reports:
        lines.append("no segments and no trace: the allocator held nothing when this snapshot was taken")
    for r in reports:
        m = r.metrics
        tl = r.trace
        when = f"right after event {r.at_event} of {tl.n_events}" if r.at_event is not None else "at the snapshot"
        lines += [
            "",
            f"device {r.device} ({when})",
            f"  segments            {m.segments:,}   blocks {m.blocks:,}   free blocks {m.free_blocks:,}",
        ]
        if synthetic:
            lines += [
                f"  allocated           {format_bytes_exact(m.allocated_bytes)}",
                f"  address span        {format_bytes_exact(m.reserved_bytes)}: not reserved memory; {SYNTHETIC_SPACE}",
            ]
            lines += _trace_lines(tl)
            continue
        lines += [
            f"  reserved            {format_bytes_exact(m.reserved_bytes)}",
            f"  allocated           {format_bytes_exact(m.allocated_bytes)}",
            f"  requested           {format_bytes_exact(m.requested_bytes)}",
            f"  internal waste      {format_bytes_exact(m.internal_waste_bytes)}",
            f"  pending free        {format_bytes_exact(m.pending_free_bytes)}",
            f"  free (cached)       {format_bytes_exact(m.free_bytes)}",
            f"  largest free block  {format_bytes_exact(m.largest_free_block_bytes)}",
            f"  external fragmentation {format_percent(m.external_fragmentation)}  (1 - largest free block / free)",
            f"  inactive split      {format_bytes_exact(m.inactive_split_bytes)}",
            f"  largest allocation that fits now {format_bytes_exact(m.largest_allocation_that_fits)}",
        ]
        groups = [(f"{name} pool", g) for name, g in r.groups.by_pool.items() if g.segments]
        if len(r.groups.by_stream) > 1:
            groups += [(f"stream {stream}", g) for stream, g in r.groups.by_stream.items()]
        groups += [(f"private pool {pool}", g) for pool, g in r.groups.by_private_pool.items()]
        for label, g in groups:
            lines.append(
                f"  {label:<19} reserved {format_bytes(g.reserved_bytes)}, allocated {format_bytes(g.allocated_bytes)},"
                f" free {format_bytes(g.free_bytes)} (largest {format_bytes(g.largest_free_block_bytes)},"
                f" {format_percent(g.external_fragmentation)} fragmented)"
            )
        lines += _trace_lines(tl)
        segments = [seg for seg in segment_free_summary(r.state) if seg["free_bytes"] > 0][:top]
        if segments:
            lines.append(f"  segments with the most free memory (top {len(segments)}):")
            lines.append(f"    {'address':>18}  {'size':>10}  {'free':>10}  {'largest hole':>12}  blocks  pool")
            for seg in segments:
                pool = "small" if seg["is_small"] else "large"
                if seg["is_expandable"]:
                    pool += ", expandable"
                lines.append(
                    f"    {seg['address']:#18x}  {format_bytes(seg['total_size']):>10}"
                    f"  {format_bytes(seg['free_bytes']):>10}  {format_bytes(seg['largest_free_block_bytes']):>12}"
                    f"  {seg['blocks']:>6}  {pool}"
                )
        for w in tl.warnings[:3]:
            lines.append(f"  note: {w}")
    return "\n".join(lines)


def _trace_lines(tl: TraceFigures) -> list[str]:
    if not tl.n_events:
        return ["  trace               none recorded"]
    lines = [
        f"  trace               {tl.n_events:,} events, {len(tl.ooms)} OOM",
        f"  peak reserved       {format_bytes_exact(tl.peak_reserved)}",
        f"  peak allocated      {format_bytes_exact(tl.peak_allocated)}",
    ]
    for oom in tl.ooms[:5]:
        lines.append(
            f"  OOM at event {oom.index}: tried {format_bytes(oom.requested_bytes)}, "
            f"device had {format_bytes(oom.device_free_bytes)} free"
            # room on the device for the new segment: a memory fraction of the process refused it (process_limit.py)
            + (
                " (a limit of this process refused it)"
                if device_had_room(oom.requested_bytes, oom.device_free_bytes)
                else ""
            )
        )
    return lines


def _describe_form(snapshot: Snapshot) -> str:
    parts = {
        "dump": "snapshot from torch.cuda.memory._dump_snapshot",
        "pickle": "snapshot from torch.cuda.memory._dump_snapshot",
        "segments": "segment list from torch.cuda.memory_snapshot() (no trace)",
        "json": "JSON snapshot",
    }
    text = PROFILER_FORM if profiler_made(snapshot) else parts.get(snapshot.form, snapshot.form)
    if snapshot.legacy_blocks:
        text += ", legacy block history (torch 1.13/2.0)"
    if snapshot.allocator_settings and snapshot.allocator_settings.get("PYTORCH_CUDA_ALLOC_CONF"):
        text += f", PYTORCH_CUDA_ALLOC_CONF={snapshot.allocator_settings['PYTORCH_CUDA_ALLOC_CONF']}"
    return text
