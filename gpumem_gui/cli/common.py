"""What every command shares: the exit status for input it cannot read."""

EXIT_BAD_INPUT = 2  # a file, a folder or an argument the command cannot use; 1 stays Python's own failures
