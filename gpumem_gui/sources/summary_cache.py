"""Rank summaries kept in the user's cache folder, keyed by the file's path, size and mtime: a folder read once opens
at once the next time.

The folder is $GPUMEM_GUI_CACHE_DIR when set (the tests point it at a temporary folder), else platformdirs'
user cache folder for gpumem-gui; the summaries are in its `rank-summaries` folder, one JSON file each. A summary is
written to a temporary name and renamed, so a reader never sees half of one; one that cannot be read is a miss.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from gpumem_gui.core.analysis.rank_summary import SUMMARY_VERSION

CACHE_ENV = "GPUMEM_GUI_CACHE_DIR"


def cache_folder() -> Path:
    configured = os.environ.get(CACHE_ENV)
    if configured:
        return Path(configured) / "rank-summaries"
    import platformdirs  # noqa: PLC0415 (only where the cache is used)

    return Path(platformdirs.user_cache_dir("gpumem-gui")) / "rank-summaries"


class SummaryCache:
    """get(path) before reading a file, put(path, summary) after: a file rewritten since (another size or mtime) is a
    miss, and so is a summary of another SUMMARY_VERSION."""

    def __init__(self, folder: str | os.PathLike[str] | None = None) -> None:
        self.folder = Path(folder) if folder is not None else cache_folder()

    def _entry(self, path: str) -> tuple[Path, tuple[int, int]] | None:
        try:
            stat = os.stat(path)
        except OSError:
            return None
        key = f"{SUMMARY_VERSION}\0{os.path.abspath(path)}\0{stat.st_size}\0{stat.st_mtime_ns}"
        name = hashlib.sha256(key.encode("utf-8", "surrogateescape")).hexdigest()
        return self.folder / name[:2] / f"{name}.json", (stat.st_size, stat.st_mtime_ns)

    def get(self, path: str) -> dict[str, Any] | None:
        found = self._entry(path)
        if found is None:
            return None
        entry, (size, mtime_ns) = found
        try:
            summary: dict[str, Any] = json.loads(entry.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        stat = summary.get("file_stat") or {}
        if summary.get("summary_version") != SUMMARY_VERSION or (stat.get("size"), stat.get("mtime_ns")) != (
            size,
            mtime_ns,
        ):
            return None
        if summary.get("file") != path:  # the same file reached by another spelling: the table shows the one given
            summary = {**summary, "file": path}
        return summary

    def put(self, path: str, summary: dict[str, Any]) -> None:
        """Store `summary` if the file still has the size and mtime it was read at; a cache that cannot be written
        costs only the next reading."""
        found = self._entry(path)
        stat = summary.get("file_stat") or {}
        if found is None or found[1] != (stat.get("size"), stat.get("mtime_ns")):
            return
        entry = found[0]
        try:
            entry.parent.mkdir(parents=True, exist_ok=True)
            fd, temporary = tempfile.mkstemp(dir=entry.parent, suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(summary, f)
            os.replace(temporary, entry)
        except OSError:
            return
