"""The bundled examples and quizzes are package data found through importlib.resources; the kernels are optional.

`make dist-check` (tests/dist_check.py) builds and installs the real sdist and wheel; these are the cheap checks.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from importlib import resources
from pathlib import Path

import pytest

import gpumem_gui
from gpumem_gui import assets
from gpumem_gui.core.snapshot.loader import load_snapshot
from gpumem_gui.teach.quiz import load_quizzes
from gpumem_gui.teach.quiz_interface import load_interface

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = Path(gpumem_gui.__file__).resolve().parent
DATA = resources.files("gpumem_gui.resources")  # the top-level resources/, mapped into the package by setup.py
FOLDERS = {"gpumem_gui.quizzes": ROOT / "quizzes", "gpumem_gui.resources": ROOT / "resources"}


def _bundled(path: Path) -> bool:
    """Inside the installed package, or (an editable install, a checkout) inside the folder that is mapped into it."""
    where = path.resolve().parents
    return PACKAGE in where or any(folder.resolve() in where for folder in FOLDERS.values())


def test_examples_listed_in_the_index_are_package_data_and_load() -> None:
    index = tomllib.loads((DATA / "examples" / "examples.toml").read_text(encoding="utf-8"))
    assert len(index) >= 10
    assert assets.example_names() == list(index)
    pickles = [p.name for p in (DATA / "examples").iterdir() if p.name.endswith(".pickle")]
    on_disk = sorted(name.removesuffix(".pickle") for name in pickles)
    assert on_disk == sorted(index), "every bundled example is in examples.toml and every entry has its file"
    for name in index:
        path = assets.example_path(name)
        assert (DATA / "examples" / f"{name}.pickle").is_file()
        assert _bundled(path), f"{path} is not package data"
        assert load_snapshot(path).source, name


def test_both_quizzes_and_their_interface_load_from_the_package() -> None:
    assert resources.files("gpumem_gui.quizzes").joinpath("gpu_memory.toml").is_file()
    quizzes = load_quizzes()
    assert [q.id for q in quizzes] == ["gpu-memory", "gradient-checkpointing"]
    assert all(_bundled(q.path) for q in quizzes)
    assert all(q.questions for q in quizzes)
    load_interface()


def _package_data_globs(package: str) -> list[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return list(config["tool"]["setuptools"]["package-data"][package])


@pytest.mark.parametrize("package", sorted(FOLDERS))
def test_every_data_file_is_declared_package_data(package: str) -> None:
    """A file under quizzes/ or resources/ that no package-data pattern names would be missing from the wheel."""
    folder = FOLDERS[package]
    declared = {p.resolve() for pattern in _package_data_globs(package) for p in folder.glob(pattern) if p.is_file()}
    files = [p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts and p.name != "__init__.py"]
    assert files
    undeclared = [str(p.relative_to(ROOT)) for p in files if p.resolve() not in declared]
    assert not undeclared, f"not in [tool.setuptools.package-data]: {undeclared}"
    assert (ROOT / "LICENSE").is_file()


def _kernel_sources(dest: Path) -> None:
    """setup.py and the kernels' sources in a scratch folder, so the build writes nothing into the tree."""
    shutil.copy2(ROOT / "setup.py", dest / "setup.py")
    # the simulator and its feed are compiled from their own .py files, typed by .pxd files
    for pattern in ("*.pyx", "*.pxi", "*.pxd", "*.h", "allocator/simulator.py", "allocator/_feed.py"):
        for source in (PACKAGE / "core").glob(pattern if "/" in pattern else f"*/{pattern}"):
            target = dest / source.relative_to(ROOT)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)


@pytest.mark.parametrize(
    ("case", "notices"),
    [("no g++ on PATH", 4), ("CC and CXX fail", 4), ("GPUMEM_GUI_PURE_PYTHON=1", 1)],  # a notice per kernel, or one
)
@pytest.mark.slow
def test_the_kernels_build_is_optional(tmp_path: Path, case: str, notices: int) -> None:
    import Cython  # noqa: F401, PLC0415 (in the test extra: a missing one fails, it does not skip)

    _kernel_sources(tmp_path)
    env = {k: v for k, v in os.environ.items() if k not in {"CC", "CXX", "GPUMEM_GUI_PURE_PYTHON"}}
    if case == "no g++ on PATH":
        (tmp_path / "empty-bin").mkdir()
        env["PATH"] = str(tmp_path / "empty-bin")
    elif case == "CC and CXX fail":
        env["CC"] = env["CXX"] = "/bin/false"
        env["GPUMEM_GUI_BUILD_JOBS"] = "3"
    else:
        env["GPUMEM_GUI_PURE_PYTHON"] = "1"
    done = subprocess.run(
        [sys.executable, "setup.py", "-q", "build_ext", "--build-lib", "lib", "--build-temp", "tmp"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    lines = [line for line in done.stderr.splitlines() if line.startswith("gpumem_gui: ")]
    assert len(lines) == notices, done.stderr
    assert all("the pure-Python twin runs instead" in line for line in lines)
    assert not list(tmp_path.rglob("*.so"))
    # the jobs side by side (every core, or GPUMEM_GUI_BUILD_JOBS), said on stdout where pip -v and make show it
    jobs = "3" if case == "CC and CXX fail" else str(min(os.cpu_count() or 1, 4))
    said = done.stdout.splitlines()
    assert (f"gpumem_gui: compiling 4 kernels, {jobs} at a time" in done.stdout) == (notices == 4), said
    assert not [line for line in said if line.startswith("gpumem_gui: [")]  # no kernel was built
