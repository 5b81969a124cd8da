"""Summaries written as files: `ranks summarize DIR --shard I/N --out DIR2` in each task of a job array, merged by
`ranks DIR2`. One `*.gpumem-summary.json` per rank file, holding its summary or the one line why it was not read."""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
from pathlib import Path
from typing import Any

from gpumem_gui.core.snapshot.errors import SnapshotError

SUMMARY_SUFFIX = ".gpumem-summary.json"
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def parse_shard(text: str) -> tuple[int, int]:
    """ "I/N" -> (I, N), 0 <= I < N (a Slurm array's $SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT with --array=0-...);
    ValueError with the reason."""
    index, _, count = text.partition("/")
    try:
        i, n = int(index), int(count)
    except ValueError:
        raise ValueError(f"--shard takes I/N, e.g. 0/8, not {text!r}") from None
    if n < 1 or not 0 <= i < n:
        raise ValueError(f"--shard I/N needs 0 <= I < N, not {text!r}")
    return i, n


def shard_of(files: list[str], index: int, count: int) -> list[str]:
    """The files of shard `index` of `count`: every count-th of the sorted list, so the shards are even in number
    and a folder of rank files in rank order spreads its big and small ranks across them."""
    return sorted(files)[index::count]


def summary_name(relative: str) -> str:
    """The summary file's name for a rank file: readable, and unique by a hash of the whole relative path."""
    readable = _UNSAFE.sub("_", relative.replace(os.sep, "__"))[-80:]
    digest = hashlib.sha256(relative.encode("utf-8", "surrogateescape")).hexdigest()[:12]
    return f"{readable}-{digest}{SUMMARY_SUFFIX}"


def write_summary(out: str | os.PathLike[str], relative: str, file: str, result: dict[str, Any] | str) -> None:
    """Write one rank file's summary (or its one-line error) into `out`, atomically."""
    document = result if isinstance(result, dict) else {"file": file, "relative": relative, "error": result}
    folder = Path(out)
    fd, temporary = tempfile.mkstemp(dir=folder, suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump(document, f, ensure_ascii=True)
    os.replace(temporary, folder / summary_name(relative))


def find_summary_files(folder: str | os.PathLike[str]) -> list[str]:
    """The summary files directly in `folder`, sorted."""
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    return sorted(os.path.join(folder, n) for n in names if n.endswith(SUMMARY_SUFFIX))


def read_summary(path: str) -> dict[str, Any] | str:
    """A summary file's summary, or the line why it holds none (its rank's error, or its own fault)."""
    try:
        with open(path, encoding="utf-8") as f:
            document = json.load(f)
    except (OSError, ValueError) as e:
        return str(SnapshotError(f"not a summary file ({type(e).__name__}: {e})", path))
    if not isinstance(document, dict):
        return str(SnapshotError("not a summary file (not a JSON object)", path))
    if "error" in document:
        return str(document["error"])
    from gpumem_gui.core.analysis.rank_summary import READABLE_VERSIONS, SUMMARY_VERSION  # noqa: PLC0415

    if document.get("summary_version") not in READABLE_VERSIONS:
        found = document.get("summary_version")
        return str(SnapshotError(f"a summary of version {found}, not {SUMMARY_VERSION}: summarize it again", path))
    return document
