"""`gpumem-gui ranks DIR [--json]`: a folder of per-rank snapshots summarised side by side, OOM ranks and outliers."""

from __future__ import annotations

import argparse
import json
import sys

from gpumem_gui import cli_user_code
from gpumem_gui.cli import EXIT_BAD_INPUT
from gpumem_gui.core.analysis.ranks import SNAPSHOT_SUFFIXES, ranks_text
from gpumem_gui.core.snapshot.errors import SnapshotError, printable
from gpumem_gui.json_documents import ranks_document
from gpumem_gui.sources.rank_folder import RankFolderJob


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("folder", metavar="DIR", help="a folder of snapshot files, one per rank (and step); read below")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    cli_user_code.add_arguments(parser)
    parser.add_argument(
        "--workers", type=int, default=None, help="processes reading files at once (default: the cores, fewer when "
        "memory is short)"
    )  # fmt: skip


def run(args: argparse.Namespace) -> int:
    if args.workers is not None and args.workers < 1:
        print("gpumem-gui ranks: --workers must be at least 1", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        job = RankFolderJob(args.folder, workers=args.workers)
    except SnapshotError as e:
        print(f"gpumem-gui: {printable(str(e))}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if not job.paths:
        suffixes = ", ".join(SNAPSHOT_SUFFIXES)
        print(f"gpumem-gui: no snapshot files ({suffixes}) in {printable(args.folder)}", file=sys.stderr)
        return EXIT_BAD_INPUT
    table = job.run()
    if args.json:
        # the schema has no place for them: the files that could not be read go to stderr, one line each
        for error in table.errors:
            print(f"gpumem-gui: unreadable: {printable(error)}", file=sys.stderr)
        print(json.dumps(ranks_document(table), indent=2))  # names as JSON escapes them: \n, \u001b, \udcff
    else:
        print(ranks_text(table, args.folder))
    return EXIT_BAD_INPUT if table.errors and not table.entries else 0
