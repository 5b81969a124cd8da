"""`gpumem-gui ranks`: being built (see the issue); prints a one-line notice until it lands."""

from __future__ import annotations

import argparse
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="*")


def run(args: argparse.Namespace) -> int:
    print("gpumem-gui ranks: not available yet", file=sys.stderr)
    return 2
