"""`python -m gpumem_gui.translations [AREA ...]` (make translations): each area's .ts updated from its sources with
pyside6-lupdate (new texts marked unfinished, removed ones dropped) and compiled into its .qm with pyside6-lrelease."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from gpumem_gui.translations import AREAS, FOLDER, TRANSLATED


def tool(name: str) -> str:
    """pyside6-lupdate or pyside6-lrelease: beside this Python first (a venv's), else on PATH."""
    beside = Path(sys.executable).parent / name
    found = str(beside) if beside.is_file() else shutil.which(name)
    if found is None:
        raise SystemExit(f"{name} not found: install PySide6 (pip install PySide6) in this Python's environment")
    return found


def update(area: str, lang: str, top: Path, ts: Path) -> None:
    """`ts` holds every text of `area`'s sources (under `top`), with the translations it had; no line numbers, so a
    moved line changes nothing."""
    sources = [str(top / s) for s in AREAS[area]]
    cmd = [tool("pyside6-lupdate"), "-extensions", "py", "-locations", "none", "-no-obsolete", "-source-language", "en"]
    subprocess.run([*cmd, "-target-language", lang, *sources, "-ts", str(ts)], check=True, capture_output=True)


def release(ts: Path, qm: Path) -> None:
    subprocess.run([tool("pyside6-lrelease"), "-silent", str(ts), "-qm", str(qm)], check=True)


def main(areas: list[str]) -> int:
    top = FOLDER.parent.parent
    for area in areas or list(AREAS):
        if area not in AREAS:
            print(f"unknown area {area!r}; one of {', '.join(AREAS)}", file=sys.stderr)
            return 2
        for lang in TRANSLATED:
            ts = FOLDER / f"{area}_{lang}.ts"
            update(area, lang, top, ts)
            release(ts, ts.with_suffix(".qm"))
            unfinished = ts.read_text(encoding="utf-8").count('type="unfinished"')
            print(f"{ts.name}: {unfinished} unfinished")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
