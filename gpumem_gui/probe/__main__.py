"""`python -m gpumem_gui.probe [options] script.py [args...]`: run a script with the probe started, as cProfile does."""

from __future__ import annotations

import argparse
import os
import runpy
import sys

from gpumem_gui import probe
from gpumem_gui.probe import wire
from gpumem_gui.probe.torch_backend import STACK_CHOICES


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m gpumem_gui.probe",
        description="Run a PyTorch script with the gpumem-gui probe, so `gpumem-gui attach PID` can watch its memory.",
    )
    parser.add_argument(
        "--max-entries",
        type=int,
        default=probe.DEFAULT_MAX_ENTRIES,
        metavar="N",
        help=f"trace events kept in the ring buffer (default {probe.DEFAULT_MAX_ENTRIES:,})",
    )
    parser.add_argument(
        "--stacks",
        choices=STACK_CHOICES,
        default="python",
        help="stack traces to record: python frames, python and C++, or none (default python)",
    )
    parser.add_argument(
        "--oom-dir",
        metavar="DIR",
        help="where to write a snapshot at each out-of-memory error (default ~/.cache/gpumem-gui/oom)",
    )
    parser.add_argument("--no-record", action="store_true", help="leave memory history recording off")
    parser.add_argument("-m", dest="module", action="store_true", help="run a module, as python -m does")
    parser.add_argument("target", help="the script (or, with -m, the module) to run")
    parser.add_argument("args", nargs=argparse.REMAINDER, help="its arguments")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(sys.argv[1:] if argv is None else argv)
    if not 0 < args.max_entries <= wire.MAX_HISTORY_ENTRIES:
        print(f"--max-entries must be from 1 to {wire.MAX_HISTORY_ENTRIES:,}", file=sys.stderr)
        return 2
    if not args.module and not os.path.isfile(args.target):
        print(f"no such script: {args.target}", file=sys.stderr)
        return 2
    server = probe.start(
        max_entries=args.max_entries, stacks=args.stacks, oom_dir=args.oom_dir, record=not args.no_record
    )
    if server is not None:
        print(f"gpumem-gui probe: pid {os.getpid()} listening; attach with `gpumem-gui attach {os.getpid()}`",
              file=sys.stderr, flush=True)  # fmt: skip
        problem = getattr(server.backend, "problem", None)
        if problem:
            print(f"gpumem-gui probe: {problem}", file=sys.stderr, flush=True)
    sys.argv = [args.target, *args.args]
    if args.module:
        runpy.run_module(args.target, run_name="__main__", alter_sys=True)
    else:
        sys.path[0] = os.path.dirname(os.path.abspath(args.target))
        runpy.run_path(args.target, run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main())
