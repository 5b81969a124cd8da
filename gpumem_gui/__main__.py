"""`python -m gpumem_gui` runs the command line."""

from gpumem_gui.cli import main

raise SystemExit(main())
