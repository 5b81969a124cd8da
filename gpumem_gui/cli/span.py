"""`gpumem-gui explain FILE --span I:J`: what a span of the trace left behind, freed and peaked at, as text or JSON."""

from __future__ import annotations

import argparse
import json
import sys

from gpumem_gui.cli.common import EXIT_BAD_INPUT, bad_input
from gpumem_gui.cli.diff import signed_bytes
from gpumem_gui.core.analysis.named_spans import parse_span
from gpumem_gui.core.analysis.span import FIGURES, BlockSet, SpanReport, span_report
from gpumem_gui.core.analysis.timetravel import build_timeline
from gpumem_gui.core.rules.allocator_rules import AllocatorConfig
from gpumem_gui.core.snapshot.errors import SnapshotError
from gpumem_gui.core.snapshot.loader import load_snapshot
from gpumem_gui.core.snapshot.units import format_bytes
from gpumem_gui.json_documents import span_document

TEXT_SITES = 8  # sites listed per set in the text (the JSON lists every one)


def run(args: argparse.Namespace) -> int:
    """explain --span: the span's report (exit status 2 and one line for a bad file or span)."""
    if args.at is not None:
        print("gpumem-gui: give --at or --span, not both", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        snapshot = load_snapshot(args.file)
        snapshot.require_device(args.device)
        device = snapshot.default_device() if args.device is None else args.device
        config = AllocatorConfig.from_snapshot_settings(snapshot.allocator_settings)
        timeline = build_timeline(snapshot, device, config)
        report = span_report(snapshot, timeline, parse_span(args.span, snapshot, timeline))
    except (SnapshotError, IndexError, ValueError) as e:
        return bad_input(e, args.file)
    if args.json:
        print(json.dumps(span_document(snapshot.source, report), indent=2))
    else:
        print(span_text(snapshot.source, report))
    return 0


def span_text(file: str, report: SpanReport) -> str:
    """The span read top to bottom: its figures at each end, what it left behind, its peak, what it freed."""
    span = report.span
    lines = [f"{file}: device {report.device}, {span.label} of {report.n_events:,}", ""]
    lines.append(f"  {'':<18}{'at the start':>16}{'at the end':>16}{'end - start':>16}")
    delta = report.delta
    for key in FIGURES:
        label = key.removesuffix("_bytes")
        if key == "segments":
            lines.append(f"  {label:<18}{report.at_start[key]:>16,}{report.at_end[key]:>16,}{delta[key]:>+16,}")
            continue
        lines.append(
            f"  {label:<18}{format_bytes(report.at_start[key]):>16}{format_bytes(report.at_end[key]):>16}"
            f"{signed_bytes(delta[key]):>16}"
        )
    lines += ["", *_block_lines("Allocated in the span and still alive at its end", report.left_behind)]
    lines += [
        "",
        *_block_lines(
            f"Allocated at its peak (right after event {report.peak_event:,}, {format_bytes(report.peak_bytes)})",
            report.peak_holders,
        ),
    ]
    lines += ["", *_block_lines("Allocated and freed inside the span (temporaries)", report.temporaries)]
    lines += ["", *_block_lines("Allocated before the span and freed in it", report.released)]
    return "\n".join(lines)


def _block_lines(title: str, found: BlockSet) -> list[str]:
    lines = [f"{title}: {format_bytes(found.bytes)} in {_blocks(found.blocks)}"]
    for share in found.by_site[:TEXT_SITES]:
        lines.append(f"  {format_bytes(share.bytes):>12}  {_blocks(share.blocks):>12}  {share.site}")
    if len(found.by_site) > TEXT_SITES:
        lines.append(f"  ... and {len(found.by_site) - TEXT_SITES} more sites (--json lists every one)")
    return lines


def _blocks(n: int) -> str:
    return f"{n:,} block" if n == 1 else f"{n:,} blocks"
