"""What every command shares: the exit status for input it cannot read, and the one line that says why."""

import sys

from gpumem_gui.core.snapshot.errors import SnapshotError

EXIT_BAD_INPUT = 2  # a file, a folder or an argument the command cannot use; 1 stays Python's own failures


def bad_input(error: Exception, file: str) -> int:
    """One line on stderr for a file or an argument that cannot be used, and the exit status that says so."""
    if isinstance(error, SnapshotError):
        print(f"gpumem-gui: SnapshotError: {error}", file=sys.stderr)
    else:
        print(f"gpumem-gui: {error} ({file})", file=sys.stderr)
    return EXIT_BAD_INPUT
