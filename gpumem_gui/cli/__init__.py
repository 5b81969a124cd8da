"""The command line, `gpumem-gui`: the window by default, and report, explain, diff, ranks, replay, render, attach,
quiz, mcp. main.py parses and dispatches; each bigger command has its own module."""

import gc

# the collector paused while the command line's modules load (numpy's and ours: some 45 collections that find
# nothing to free, ~10 ms of a report's CPU), and what they made frozen (left out of later collections, which would
# otherwise walk it all once: it lives as long as the process anyway); a command's own work runs with it as before
_collecting = gc.isenabled()
gc.disable()
try:
    from gpumem_gui import blas_threads  # noqa: F401 (first: cli.common's imports bring numpy, which reads it)
    from gpumem_gui.cli.common import EXIT_BAD_INPUT
    from gpumem_gui.cli.main import COMMANDS, RENDER_LAYOUTS, main

    gc.freeze()
finally:  # an import that fails leaves the collector as it found it
    if _collecting:
        gc.enable()

__all__ = ["COMMANDS", "EXIT_BAD_INPUT", "RENDER_LAYOUTS", "main"]
