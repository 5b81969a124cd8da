"""`python -m gpumem_gui` runs the command line."""

from gpumem_gui.cli import main

if __name__ == "__main__":  # not again in the loading worker, which multiprocessing starts from this module
    raise SystemExit(main())
