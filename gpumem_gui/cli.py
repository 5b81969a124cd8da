"""The `gpumem-gui` command line: subcommands over the core library (the window comes with the app)."""

from __future__ import annotations

import argparse
import json
import pickle
import sys
from collections.abc import Sequence

from gpumem_gui import __version__
from gpumem_gui.core.errors import SnapshotError
from gpumem_gui.core.loader import load_snapshot
from gpumem_gui.core.report import build_report, report_json, report_text
from gpumem_gui.core.synthetic import synthetic_snapshot

EXIT_BAD_INPUT = 2


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gpumem-gui",
        description="See, measure and teach PyTorch CUDA caching-allocator memory.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command")
    report = sub.add_parser("report", help="print the memory figures of a snapshot file")
    report.add_argument("file", help="a pickle from torch.cuda.memory._dump_snapshot (or JSON, gzip'd or not)")
    report.add_argument("--device", type=int, default=None, help="only this CUDA device")
    report.add_argument("--at", type=int, default=None, metavar="I", help="figures right after trace event I (0-based)")
    report.add_argument("--json", action="store_true", help="print JSON instead of text")
    report.add_argument("--top", type=int, default=10, help="how many segments to list (default 10)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "report":
        return _report(args)
    return _demo()


def _report(args: argparse.Namespace) -> int:
    try:
        snapshot = load_snapshot(args.file)
        if args.device is not None and args.device not in snapshot.devices():
            raise SnapshotError(
                f"device {args.device} has no segments and no trace (devices: {snapshot.devices() or 'none'})",
                snapshot.source,
            )
        reports = build_report(snapshot, device=args.device, at=args.at)
    except SnapshotError as e:
        print(f"gpumem-gui: SnapshotError: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except IndexError as e:
        print(f"gpumem-gui: {e} ({args.file})", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.json:
        print(json.dumps(report_json(snapshot, reports), indent=2))
    else:
        print(report_text(snapshot, reports, top=args.top))
    return 0


def _demo() -> int:
    # Until the window exists, the bare command shows what the report makes of a snapshot the project generates.
    data = pickle.dumps(synthetic_snapshot(20_000, seed=7, streams=2))
    snapshot = load_snapshot(data, name="synthetic example (20,000 events, 2 streams)")
    print(report_text(snapshot, build_report(snapshot)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
