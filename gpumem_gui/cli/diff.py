"""`gpumem-gui diff A B`: two snapshots, or two moments of one, block by block, as text or JSON."""

from __future__ import annotations

import argparse
import json
import sys

from gpumem_gui.cli import user_code
from gpumem_gui.cli.common import EXIT_BAD_INPUT
from gpumem_gui.core.analysis.diff import Diff, devices_note, diff_device, diff_states
from gpumem_gui.core.snapshot.errors import SnapshotError
from gpumem_gui.core.snapshot.loader import load_snapshot
from gpumem_gui.core.snapshot.units import format_bytes
from gpumem_gui.json_documents import diff_document


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("a", metavar="A", help="the first snapshot file (the deltas are B minus A)")
    parser.add_argument(
        "b", metavar="B", nargs="?", default=None, help="the second snapshot file (default: A again, at --at-b)"
    )
    parser.add_argument(
        "--device",
        type=int,
        default=None,
        help="this CUDA device on both sides (default: each file's own default device, the one `report --at` and"
        " `explain` take: the one with an OOM, else the one that reserved the most)",
    )
    parser.add_argument("--device-a", type=int, default=None, metavar="D", help="this CUDA device of A (over --device)")
    parser.add_argument("--device-b", type=int, default=None, metavar="D", help="this CUDA device of B (over --device)")
    parser.add_argument("--at-a", type=int, default=None, metavar="I", help="A right after trace event I")
    parser.add_argument("--at-b", type=int, default=None, metavar="J", help="B right after trace event J")
    parser.add_argument("--top", type=int, default=10, help="how many sites to list (default 10)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    user_code.add_arguments(parser)


def run(args: argparse.Namespace) -> int:
    try:
        snap_a = load_snapshot(args.a)
        snap_b = snap_a if args.b in (None, args.a) else load_snapshot(args.b)
        for snap, own in ((snap_a, args.device_a), (snap_b, args.device_b)):
            snap.require_device(args.device if own is None else own)
        dev_a, dev_b = diff_device(snap_a, snap_b, args.device, device_a=args.device_a, device_b=args.device_b)
        found = diff_states(snap_a, dev_a, args.at_a, snap_b, dev_b, args.at_b)
    except SnapshotError as e:
        print(f"gpumem-gui: SnapshotError: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except IndexError as e:
        print(f"gpumem-gui: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    chosen = args.device is None and args.device_a is None and args.device_b is None
    note = devices_note(dev_a, dev_b) if chosen else ""
    if args.json:
        print(json.dumps(diff_document(found, dev_a, dev_b, chosen), indent=2))
    else:
        print(diff_text(found, top=args.top, note=note))
    return 0


def diff_text(found: Diff, top: int = 10, note: str = "") -> str:
    """The figures side by side with their deltas, the blocks matched, and the sites that changed most; `note` (the
    devices each file's default picked, when they differ) under the two sides."""
    a, b = found.a, found.b
    lines = [f"A  {a.file}, device {a.device}, {_moment(a.event, a.n_events)}"]
    lines.append(f"B  {b.file}, device {b.device}, {_moment(b.event, b.n_events)}")
    lines += [note] if note else []
    lines += ["", f"  {'':<16}{'A':>14}{'B':>14}{'B - A':>14}"]
    delta = found.delta
    byte_figures = (("reserved", "reserved_bytes"), ("allocated", "allocated_bytes"), ("free (cached)", "free_bytes"))
    for label, key in byte_figures:
        lines.append(
            f"  {label:<16}{format_bytes(getattr(a, key)):>14}{format_bytes(getattr(b, key)):>14}"
            f"{signed_bytes(delta[key]):>14}"
        )
    for label, key in (("segments", "segments"), ("blocks", "blocks")):
        lines.append(f"  {label:<16}{getattr(a, key):>14,}{getattr(b, key):>14,}{delta[key]:>+14,}")
    lines += [
        "",
        "allocated blocks, matched by address, size and site:",
        f"  added {len(found.added):,} ({format_bytes(found.added_bytes)}, in B only), "
        f"removed {len(found.removed):,} ({format_bytes(found.removed_bytes)}, in A only), kept {len(found.kept_a):,}",
    ]
    if not found.by_site:
        lines.append("  no site gained or lost a block")
        return "\n".join(lines)
    shown = found.by_site[:top]
    lines += ["", f"sites by change (top {len(shown)} of {len(found.by_site)}):"]
    lines.append(f"  {'B - A':>12}{'added':>12}{'removed':>12}  site")
    for s in shown:
        lines.append(
            f"  {signed_bytes(s.bytes_delta):>12}{format_bytes(s.added_bytes):>12}"
            f"{format_bytes(s.removed_bytes):>12}  {s.site}"
        )
    return "\n".join(lines)


def _moment(event: int, n_events: int) -> str:
    if n_events == 0:
        return "at the snapshot (no trace)"
    if event == n_events - 1:
        return f"at the snapshot (after event {event:,}, the last)"
    if event < 0:
        return "before the first event"
    return f"right after event {event:,} of {n_events:,}"


def signed_bytes(value: int) -> str:
    if value == 0:
        return "0"
    return f"{'+' if value > 0 else '-'}{format_bytes(abs(value))}"
