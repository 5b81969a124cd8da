"""The CLI's --user-code and --library: folders moved across the line between the user's code and libraries."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from gpumem_gui.core.snapshot.frame_kinds import choose_user_code

USER_CODE_HELP = (
    "frames under PATH are your code, even in site-packages (repeatable; a folder path, or a package name such as "
    "diffusers); a site is the innermost line of your code, with the library line below it"
)
LIBRARY_HELP = "frames under PATH are a library's, not your code (repeatable; a folder path or a package name)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The two options, for a command's --help (take() reads them wherever they are on the command line)."""
    parser.add_argument("--user-code", action="append", default=[], metavar="PATH", help=USER_CODE_HELP)
    parser.add_argument("--library", action="append", default=[], metavar="PATH", help=LIBRARY_HELP)


def take(argv: Sequence[str]) -> list[str]:
    """The command line without its --user-code and --library options, whose folders are applied: for this process
    and, through the environment, for the worker processes it starts."""
    parser = argparse.ArgumentParser(add_help=False, allow_abbrev=False)
    add_arguments(parser)
    found, rest = parser.parse_known_args(list(argv))
    if found.user_code or found.library:
        choose_user_code(found.user_code, found.library)
    return rest
