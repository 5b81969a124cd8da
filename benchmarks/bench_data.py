"""Where the benchmarks keep the data they generate: a cache folder of the user's, never the repository."""

from __future__ import annotations

import os
import sys
from pathlib import Path

ENV = "GPUMEM_GUI_BENCH_DIR"


def _user_cache() -> Path:
    try:
        from platformdirs import user_cache_dir
    except ImportError:  # a virtualenv made before platformdirs was a dependency: the same folder, by hand
        if sys.platform == "darwin":
            return Path.home() / "Library" / "Caches" / "gpumem-gui"
        if sys.platform == "win32":
            return Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local") / "gpumem-gui" / "Cache"
        return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "gpumem-gui"
    return Path(user_cache_dir("gpumem-gui", appauthor=False))


def data_dir() -> Path:
    """$GPUMEM_GUI_BENCH_DIR if set, else the user's cache folder's gpumem-gui/benchmarks (made if missing).

    The files are generated once (hundreds of MB, minutes to make) and reused by later runs; delete the folder to
    get the space back."""
    chosen = os.environ.get(ENV)
    folder = Path(chosen).expanduser() if chosen else _user_cache() / "benchmarks"
    folder.mkdir(parents=True, exist_ok=True)
    return folder
