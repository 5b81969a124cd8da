"""The sdist carries every tracked package source, and a pure install from it needs none of the kernels' files.

A missing `*.pxd` in MANIFEST.in once broke every install from the sdist while every test passed: this builds the
sdist (seconds, no install, no compiler) from a copy of the tracked files and compares its list with `git ls-files`.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
KERNEL_SUFFIXES = (".pyx", ".pxd", ".pxi", ".h")


def _tracked(*paths: str) -> list[str]:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: nothing to compare the sdist with")
    done = subprocess.run(["git", "ls-files", "-z", "--", *paths], cwd=ROOT, capture_output=True, check=True, text=True)
    return [name for name in done.stdout.split("\0") if name]


def _pure_env() -> dict[str, str]:
    # pure mode: the sdist's list then comes from MANIFEST.in alone, not from the extensions' declared sources
    return {**os.environ, "GPUMEM_GUI_PURE_PYTHON": "1", "PYTHONDONTWRITEBYTECODE": "1"}


def _setup(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "setup.py", *args], cwd=cwd, env=_pure_env(), capture_output=True, text=True, check=False
    )


@pytest.fixture(scope="module")
def sdist(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    """The sdist built from a copy of the tracked tree, and the names it holds (without its top folder)."""
    work = tmp_path_factory.mktemp("sdist")
    tree = work / "tree"
    for name in _tracked():
        (tree / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, tree / name)
    done = _setup(["-q", "egg_info", "--egg-base", str(work), "sdist", "--dist-dir", str(work / "dist")], tree)
    assert done.returncode == 0, done.stdout + done.stderr
    (archive,) = (work / "dist").glob("*.tar.gz")
    with tarfile.open(archive) as tar:
        names = [m.name.split("/", 1)[1] for m in tar.getmembers() if m.isfile()]
    return archive, names


def test_sdist_holds_every_tracked_package_file(sdist: tuple[Path, list[str]]) -> None:
    _archive, names = sdist
    missing = sorted(set(_tracked("gpumem_gui", "LICENSE", "README.md", "pyproject.toml", "setup.py")) - set(names))
    assert not missing, f"tracked files the sdist lacks (MANIFEST.in): {missing}"
    assert any(name.endswith(".pxd") for name in names)  # the file whose absence broke the installs


def test_sdist_leaves_out_what_is_made_again(sdist: tuple[Path, list[str]]) -> None:
    _archive, names = sdist
    made = [name for name in names if name.endswith((".so", ".cpp", ".pyc"))]
    assert not made and not any(name.startswith("tests/") for name in names)


def test_pure_build_from_the_sdist_needs_no_kernel_file(sdist: tuple[Path, list[str]], tmp_path: Path) -> None:
    archive, _names = sdist
    with tarfile.open(archive) as tar:
        tar.extractall(tmp_path, filter="data")
    (top,) = tmp_path.iterdir()
    removed = [p for p in (top / "gpumem_gui").rglob("*") if p.suffix in KERNEL_SUFFIXES]
    assert removed  # the sdist carried them; a pure build must not read them
    for path in removed:
        path.unlink()
    done = _setup(["build_ext", "--build-lib", str(tmp_path / "lib"), "--build-temp", str(tmp_path / "tmp")], top)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "GPUMEM_GUI_PURE_PYTHON is set, no compiled kernel built" in done.stderr
