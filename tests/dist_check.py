"""`make dist-check`: build the sdist and wheel, install them in a fresh venv and run the app from another folder.

Too slow for `make test` (three isolated builds, a venv with PySide6 and numpy): it proves what a packager and a new
user see. Steps, each printing one line: copy the tree (tracked and untracked, not ignored, files) to a temporary
folder; build the sdist and the wheel from it; build a wheel from the sdist; check what each carries; install the
sdist's wheel into a fresh venv (no test extra, so no torch); from another folder run `gpumem-gui report` on a
bundled example found through the installed package and load every example and both quizzes through the package
API; install once more from the sdist with no C++ compiler (CC/CXX=/bin/false) and check the install says so in
one line, runs the pure-Python twins and reports the same figures. Everything it makes is under one temporary
folder, removed at the end (the pip cache too), so the tree and the home folder are left as they were.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = "fragmented_oom"
KERNELS = ("gpumem_gui.core.snapshot._columns", "gpumem_gui.core.analysis._replay")
# what a wheel build needs from the sdist, and what the installed app reads
SDIST_NEEDS = (
    "LICENSE",
    "setup.py",
    "pyproject.toml",
    "gpumem_gui/core/analysis/_replay.pyx",
    "gpumem_gui/core/analysis/_replay_rules.pxi",
    "gpumem_gui/core/analysis/_replay_support.pxi",
    "gpumem_gui/core/analysis/_flat_map.h",
    "gpumem_gui/core/snapshot/_columns.pyx",
    "gpumem_gui/core/snapshot/_stack_intern.pxi",
    "gpumem_gui/core/allocator/_sim.pxd",
    "gpumem_gui/core/allocator/_cfeed.pxd",
)
DATA_FILES = (  # where the wheel has them; the sdist has them at its top (quizzes/, resources/)
    "gpumem_gui/resources/examples/examples.toml",
    f"gpumem_gui/resources/examples/{EXAMPLE}.pickle",
    "gpumem_gui/quizzes/gpu_memory.toml",
    "gpumem_gui/quizzes/gradient_checkpointing.toml",
    "gpumem_gui/resources/quiz_interface.toml",
)
SDIST_DATA = tuple(name.removeprefix("gpumem_gui/") for name in DATA_FILES)
# the window's translations, at the same place in both: their sources and the compiled files the app loads
TRANSLATIONS = tuple(f"gpumem_gui/translations/window_{lang}.{ext}" for lang in ("ro", "fr") for ext in ("ts", "qm"))

# run inside the installed venv, from another folder: every path must come from the installed package
PROBE = f"""
import importlib.util, sys
from importlib.resources import files
from gpumem_gui import assets
from gpumem_gui.core.snapshot.loader import load_snapshot
from gpumem_gui.teach.quiz import load_quizzes
from gpumem_gui.teach.quiz_interface import load_interface
names = assets.example_names()
for name in names:
    load_snapshot(assets.example_path(name))
quizzes = load_quizzes()
load_interface()
from PySide6.QtCore import QTranslator
from gpumem_gui.translations import FOLDER
translator = QTranslator()
if not translator.load(str(FOLDER / "window_fr.qm")) or translator.isEmpty():
    sys.exit(f"the installed window_fr.qm in {{FOLDER}} does not load")
kernels = [m for m in {KERNELS!r} if importlib.util.find_spec(m) is not None]
print(files("gpumem_gui.resources") / "examples" / "{EXAMPLE}.pickle")
print(len(names), "examples loaded;", ", ".join(q.id for q in quizzes), "quizzes loaded;",
      "kernels:", ", ".join(k.rsplit(".", 1)[1] for k in kernels) or "none")
"""


class CheckFailed(Exception):
    """One line saying which step of the check failed."""


def run(cmd: list[str], *, cwd: Path, env: dict[str, str] | None = None) -> str:
    """Run a step; its output comes back, or CheckFailed with the tail of it."""
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    output = done.stdout + done.stderr
    if done.returncode != 0:
        tail = "\n".join(output.splitlines()[-25:])
        raise CheckFailed(f"{' '.join(cmd)} exited {done.returncode}:\n{tail}")
    return output


def copy_tree(dest: Path) -> None:
    """The working tree as git sees it (tracked and untracked files, not ignored ones): no build/, no .so."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():  # a file deleted but not yet committed is listed and absent
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / name)


def require(names: set[str], needed: tuple[str, ...], what: str) -> None:
    missing = [n for n in needed if n not in names]
    if missing:
        raise CheckFailed(f"{what} lacks {', '.join(missing)}")


def sdist_names(path: Path) -> set[str]:
    with tarfile.open(path) as tar:
        return {m.name.split("/", 1)[1] for m in tar.getmembers() if "/" in m.name}


def wheel_names(path: Path) -> set[str]:
    with zipfile.ZipFile(path) as wheel:
        return set(wheel.namelist())


def check_wheel(path: Path) -> set[str]:
    names = wheel_names(path)
    require(names, DATA_FILES + TRANSLATIONS, path.name)
    if not any(n.endswith("/licenses/LICENSE") for n in names):
        raise CheckFailed(f"{path.name} carries no LICENSE")
    if not all(any(n.startswith(k.replace(".", "/") + ".") and n.endswith(".so") for n in names) for k in KERNELS):
        raise CheckFailed(f"{path.name} lacks a compiled kernel")
    return names


def report_and_probe(venv: Path, away: Path, env: dict[str, str]) -> tuple[str, str]:
    """The installed app's report on the bundled example, and the probe's line, run from a folder outside the tree."""
    out = run([str(venv / "bin/python"), "-c", PROBE], cwd=away, env=env).splitlines()
    example, summary = Path(out[-2]), out[-1]
    if not example.is_file() or venv not in example.parents:
        raise CheckFailed(f"the bundled example was found at {example}, not in the venv {venv}")
    report = run([str(venv / "bin/gpumem-gui"), "report", str(example)], cwd=away, env=env)
    return report, summary


def check(work: Path) -> None:
    python = sys.executable
    src, tree_dist, sdist_dist, away = work / "src", work / "tree", work / "from-sdist", work / "elsewhere"
    for folder in (src, away):
        folder.mkdir()
    env = {**os.environ, "PIP_CACHE_DIR": str(work / "pip-cache"), "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    env.pop("GPUMEM_GUI_PURE_PYTHON", None)
    env.pop("PYTHONPATH", None)

    copy_tree(src)
    run([python, "-m", "build", "--sdist", "--wheel", "--outdir", str(tree_dist), str(src)], cwd=work, env=env)
    (sdist,) = tree_dist.glob("*.tar.gz")
    (tree_wheel,) = tree_dist.glob("*.whl")
    require(sdist_names(sdist), SDIST_NEEDS + SDIST_DATA + TRANSLATIONS, sdist.name)
    print(f"sdist {sdist.name}: {len(sdist_names(sdist))} files, with the kernels' sources, the data and LICENSE")
    tree_names = check_wheel(tree_wheel)
    print(f"wheel from the tree {tree_wheel.name}: {len(tree_names)} files, with the kernels, the data and LICENSE")

    run([python, "-m", "build", "--wheel", "--outdir", str(sdist_dist), str(sdist)], cwd=work, env=env)
    (sdist_wheel,) = sdist_dist.glob("*.whl")
    sdist_wheel_names = check_wheel(sdist_wheel)
    if sdist_wheel_names != tree_names:
        raise CheckFailed(f"the sdist's wheel differs from the tree's: {sorted(sdist_wheel_names ^ tree_names)}")
    print(f"wheel from the sdist: the same {len(sdist_wheel_names)} files")

    venv = work / "venv"
    run([python, "-m", "venv", str(venv)], cwd=work, env=env)
    run([str(venv / "bin/python"), "-m", "pip", "install", "--quiet", str(sdist_wheel)], cwd=away, env=env)
    compiled_report, summary = report_and_probe(venv, away, env)
    print(f"installed the sdist's wheel in a fresh venv; from {away}: {summary}")
    print(f"gpumem-gui report {EXAMPLE}.pickle: {compiled_report.splitlines()[0]}")

    no_compiler = {**env, "CC": "/bin/false", "CXX": "/bin/false"}
    install = [str(venv / "bin/python"), "-m", "pip", "install", "-v", "--force-reinstall", "--no-deps", str(sdist)]
    log = run(install, cwd=away, env=no_compiler)
    lines = {line.strip() for line in log.splitlines()}  # the build's progress lines begin as its notices do
    notices = sorted(line for line in lines if line.startswith("gpumem_gui: ") and "twin runs instead" in line)
    if not notices:
        raise CheckFailed("the install without a compiler printed no notice")
    for notice in notices:
        print(f"install with CC=CXX=/bin/false: {notice}")
    pure_report, summary = report_and_probe(venv, away, env)
    if "kernels: none" not in summary:
        raise CheckFailed(f"the install without a compiler still has kernels: {summary}")
    print(f"installed from the sdist with no compiler; {summary}")
    if pure_report != compiled_report:
        raise CheckFailed("the report without the kernels differs from the report with them")
    print(f"gpumem-gui report: the same {len(pure_report.splitlines())} lines with and without the kernels")


def main() -> int:
    work = Path(tempfile.mkdtemp(prefix="gpumem-gui-dist-check-"))
    try:
        check(work)
    except CheckFailed as exc:
        print(f"dist-check FAILED: {exc}", file=sys.stderr)
        return 1
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("dist-check passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
