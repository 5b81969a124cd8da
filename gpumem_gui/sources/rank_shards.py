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
from gpumem_gui.sources.words import QT_TRANSLATE_NOOP, as_is, say

SUMMARY_SUFFIX = ".gpumem-summary.json"
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")

# why a summary file holds no summary: SnapshotErrors (str(): the message, then the file in parentheses), which the
# window says in its language (views/common/sentences.said)
NOT_SUMMARY = QT_TRANSLATE_NOOP("SnapshotError", "not a summary file ({error})")
NOT_AN_OBJECT = QT_TRANSLATE_NOOP("SnapshotError", "not a summary file (not a JSON object)")
OLD_VERSION = QT_TRANSLATE_NOOP("SnapshotError", "a summary of version {found}, not {version}: summarize it again")
MESSAGES = (NOT_SUMMARY, NOT_AN_OBJECT, OLD_VERSION)


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
        return str(SnapshotError(say(NOT_SUMMARY, error=as_is(f"{type(e).__name__}: {e}")), as_is(path)))
    if not isinstance(document, dict):
        return str(SnapshotError(NOT_AN_OBJECT, as_is(path)))
    if "error" in document:
        return str(document["error"])
    from gpumem_gui.core.analysis.rank_summary import READABLE_VERSIONS, SUMMARY_VERSION  # noqa: PLC0415

    if document.get("summary_version") not in READABLE_VERSIONS:
        found = document.get("summary_version")
        # versions are names, not counts to group: as they are
        return str(SnapshotError(say(OLD_VERSION, found=as_is(found), version=as_is(SUMMARY_VERSION)), as_is(path)))
    return document
