"""`gpumem-gui ranks DIR [--json] [--scheduler ADDR | --scheduler-file FILE] [--no-cache]`: a folder of per-rank
snapshots summarised side by side, OOM ranks and outliers; `ranks summarize DIR --shard I/N --out DIR2` writes the
summaries of one shard of it (a job array's task), merged by `ranks DIR2`."""

from __future__ import annotations

import argparse
import json
import os
import sys

from gpumem_gui.cli import user_code
from gpumem_gui.cli.common import EXIT_BAD_INPUT
from gpumem_gui.core.analysis.ranks import SNAPSHOT_SUFFIXES, ranks_text
from gpumem_gui.core.snapshot.errors import SnapshotError, printable
from gpumem_gui.json_documents import ranks_document
from gpumem_gui.sources.rank_cluster import ClusterReader, DaskMissing
from gpumem_gui.sources.rank_folder import RankFolderJob, find_snapshot_files
from gpumem_gui.sources.rank_shards import parse_shard, shard_of, write_summary

SUMMARIZE = "summarize"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "folder", metavar="DIR", help="a folder of snapshot files, one per rank (and step), read below; or of the "
        "summaries `ranks summarize` wrote. `ranks summarize DIR --shard I/N --out DIR2` summarises shard I of N"
    )  # fmt: skip
    parser.add_argument("shard_folder", nargs="?", metavar="", help=argparse.SUPPRESS)
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    user_code.add_arguments(parser)
    parser.add_argument(
        "--workers", type=int, default=None, help="processes reading files at once (default: the cores, fewer when "
        "memory is short)"
    )  # fmt: skip
    engine = parser.add_mutually_exclusive_group()
    engine.add_argument("--scheduler", metavar="tcp://HOST:PORT", help="read the files on this Dask cluster's workers")
    engine.add_argument("--scheduler-file", metavar="FILE", help="the Dask cluster whose scheduler wrote FILE")
    parser.add_argument("--no-cache", action="store_true", help="read every file again (default: the summaries of "
                        "files unchanged since they were read come from the user's cache folder)")  # fmt: skip
    parser.add_argument("--shard", metavar="I/N", help="with summarize: the files I, I+N, I+2N, ... (0 <= I < N)")
    parser.add_argument("--out", metavar="DIR2", help="with summarize: the folder the summaries are written into")
    parser.add_argument(
        "--pin",
        action="append",
        default=[],
        metavar="KIND:KEY",
        help="with summarize: each summary carries the bytes this site, category or search held over the rank's trace "
        "(site:model.py:12:forward, category:activation, search:lm_head; repeatable), for the window's pinned series",
    )


def _fail(message: str) -> int:
    print(f"gpumem-gui ranks: {printable(message)}", file=sys.stderr)
    return EXIT_BAD_INPUT


def run(args: argparse.Namespace) -> int:
    if args.workers is not None and args.workers < 1:
        return _fail("--workers must be at least 1")
    if args.folder == SUMMARIZE and args.shard_folder is not None:
        return _summarize(args)
    if args.shard_folder is not None or args.shard or args.out or args.pin:
        return _fail("--shard, --out and --pin go with `ranks summarize DIR --shard I/N --out DIR2`")
    cluster = None
    try:
        if args.scheduler or args.scheduler_file:
            cluster = ClusterReader.connect(args.scheduler, args.scheduler_file)
        job = RankFolderJob(args.folder, workers=args.workers, cluster=cluster, use_cache=not args.no_cache)
        if not job.total:
            suffixes = ", ".join(SNAPSHOT_SUFFIXES)
            print(f"gpumem-gui: no snapshot files ({suffixes}) in {printable(args.folder)}", file=sys.stderr)
            return EXIT_BAD_INPUT
        table = job.run()
    except DaskMissing as e:
        return _fail(str(e))
    except SnapshotError as e:
        print(f"gpumem-gui: {printable(str(e))}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except (OSError, TimeoutError, ValueError) as e:  # no scheduler at that address, a scheduler file not there
        where = args.scheduler or args.scheduler_file
        return _fail(f"cannot reach the Dask scheduler {where}: {type(e).__name__}: {e}")
    finally:
        if cluster is not None:
            cluster.close()
    if args.json:
        # the schema has no place for them: the files that could not be read go to stderr, one line each
        for error in table.errors:
            print(f"gpumem-gui: unreadable: {printable(error)}", file=sys.stderr)
        print(json.dumps(ranks_document(table), indent=2))  # names as JSON escapes them: \n, \u001b, \udcff
    else:
        print(ranks_text(table, args.folder))
    return EXIT_BAD_INPUT if table.errors and not table.entries else 0


def _summarize(args: argparse.Namespace) -> int:
    """`ranks summarize DIR --shard I/N --out DIR2`: one summary file per rank file of the shard, errors included."""
    folder = args.shard_folder
    if not args.out:
        return _fail("summarize needs --out DIR2, the folder its summaries go to")
    from gpumem_gui.core.analysis.pinned_series import parse_pin  # noqa: PLC0415 (numpy's import, on use)

    try:
        index, count = parse_shard(args.shard or "0/1")
        pins: list[tuple[str, str | int]] = [parse_pin(text) for text in args.pin]
        files = shard_of(find_snapshot_files(folder), index, count)
        os.makedirs(args.out, exist_ok=True)
    except (ValueError, SnapshotError, OSError) as e:
        return _fail(str(e))

    def write(path: str, relative: str, result: dict[str, object] | str) -> None:
        write_summary(args.out, relative, path, result)

    job = RankFolderJob(folder, workers=args.workers, use_cache=not args.no_cache, files=files, pins=pins)
    table = job.run(on_result=write)
    print(f"{len(table.entries)} summaries, {len(table.errors)} unreadable: {printable(args.out)}")
    for error in table.errors:
        print(f"gpumem-gui: unreadable: {printable(error)}", file=sys.stderr)
    return 0
