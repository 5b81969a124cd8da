"""The command line, `gpumem-gui`: the window by default, and report, explain, diff, ranks, replay, render, attach,
quiz, mcp. main.py parses and dispatches; each bigger command has its own module."""

from gpumem_gui import blas_threads  # noqa: F401 (first: cli.common's imports bring numpy, which reads its setting)
from gpumem_gui.cli.common import EXIT_BAD_INPUT
from gpumem_gui.cli.main import COMMANDS, RENDER_LAYOUTS, main

__all__ = ["COMMANDS", "EXIT_BAD_INPUT", "RENDER_LAYOUTS", "main"]
