"""First install (issue 35, target 5): how long a newcomer waits before the program answers.

Kernels: setup.py's build of the four compiled kernels from a scratch copy of their sources, its jobs side by side
(GPUMEM_GUI_BUILD_JOBS unset: every core) against one at a time, alternated in one run. With --pip: a clean
`pip install` of a copy of the tracked tree into a throwaway venv (pip's cache kept, as a user's would be), then the
headless first line (`gpumem-gui report` of a bundled example), timed from the venv's creation; and the same with
GPUMEM_GUI_PURE_PYTHON=1, which compiles nothing: what a user of a binary wheel waits (the dependencies alone).
With --make: what the README tells a newcomer, from a clean clone (`git clone` of this checkout's commit) to the
headless first line: `make .venv/.installed-run` (what `make run` does before opening the window: uv, the venv, the
dependencies and the kernels side by side), then `gpumem-gui report` of a bundled example; uv's and pip's caches
start empty in the temporary folder (a first install, and nothing written to the user's home).
With --wheel PATH: what a user of a binary wheel waits, uv's cache empty: `uv venv`, `uv pip install PATH` (the
dependencies fetched too), and the first line (uv from PATH, or from --uv).
Everything is made under one temporary folder, removed at the end. Prints JSON: each run's wall and CPU seconds,
the medians, the machine's load average before and after, and the target (60 s from a clean clone to the first
line).

Run: python benchmarks/bench_install.py [--rounds R] [--pip] [--make] [--wheel PATH [--uv UV]] [--no-kernels]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
TARGET_SECONDS = 60.0
KERNEL_SOURCES = ("*.pyx", "*.pxi", "*.pxd", "*.h", "allocator/simulator.py", "allocator/_feed.py")


def _timed(command: list[str], cwd: Path, env: dict[str, str]) -> dict[str, Any]:
    """Wall and CPU seconds (the process tree's, user and system) of `command`; a failure raises with its output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(f"{command[:4]} failed ({done.returncode}): {(done.stdout + done.stderr)[-3000:]}")
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return {"seconds": seconds, "cpu_seconds": cpu, "stdout": done.stdout}


def _kernel_tree(dest: Path) -> None:
    shutil.copy2(ROOT / "setup.py", dest / "setup.py")
    for pattern in KERNEL_SOURCES:
        for source in (ROOT / "gpumem_gui" / "core").glob(pattern if "/" in pattern else f"*/{pattern}"):
            target = dest / source.relative_to(ROOT)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)


def kernels(scratch: Path, rounds: int) -> dict[str, Any]:
    """The kernels' build, one job at a time and all jobs at once, alternated; fresh sources each time."""
    runs: dict[str, list[dict[str, Any]]] = {"one_job": [], "parallel": []}
    for r in range(rounds):
        for name, rows in runs.items():
            tree = scratch / f"kernels-{name}-{r}"
            tree.mkdir()
            _kernel_tree(tree)
            env = {k: v for k, v in os.environ.items() if k not in {"GPUMEM_GUI_PURE_PYTHON", "GPUMEM_GUI_BUILD_JOBS"}}
            if name == "one_job":
                env["GPUMEM_GUI_BUILD_JOBS"] = "1"
            command = [sys.executable, "setup.py", "build_ext", "--build-lib", "lib", "--build-temp", "tmp"]
            run = _timed(command, tree, env)
            progress = [line for line in run.pop("stdout").splitlines() if line.startswith("gpumem_gui: ")]
            built = sorted(p.name for p in (tree / "lib").rglob("*.so"))
            rows.append(run | {"progress_lines": progress, "built": built})
    medians = {name: statistics.median(r["seconds"] for r in rows) for name, rows in runs.items()}
    return {"runs": runs, "median_seconds": medians, "parallel_over_one_job": medians["parallel"] / medians["one_job"]}


def _tracked_copy(dest: Path) -> Path:
    """The tracked files (and untracked ones git does not ignore) copied: what a clean clone holds."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split("\n")
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / name)
    return dest


def first_line(scratch: Path, pure: bool) -> dict[str, Any]:
    """A venv made, the package installed into it, and `gpumem-gui report` of a bundled example: each step timed."""
    tree = _tracked_copy(scratch / f"clone-{'pure' if pure else 'compiled'}")
    venv = scratch / f"venv-{'pure' if pure else 'compiled'}"
    env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "GPUMEM_GUI_PURE_PYTHON", "VIRTUAL_ENV"}}
    if pure:
        env["GPUMEM_GUI_PURE_PYTHON"] = "1"
    steps = {"venv": _timed([sys.executable, "-m", "venv", str(venv)], scratch, env)}
    steps["pip_install"] = _timed([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", str(tree)], scratch, env)
    line, total = _first_line(venv, scratch, env, steps)
    return {"steps": steps, "total_seconds": total, "first_line": line, "met": total <= TARGET_SECONDS}


def _first_line(venv: Path, scratch: Path, env: dict[str, str], steps: dict[str, Any]) -> tuple[str, float]:
    """The installed `gpumem-gui report` of a bundled example timed as the last step: its first line, and the
    seconds of all the steps (their output dropped)."""
    find = [
        str(venv / "bin" / "python"),
        "-c",
        "from gpumem_gui import assets; print(assets.example_path('fragmented_oom'))",
    ]
    example = subprocess.run(find, cwd=scratch, env=env, capture_output=True, text=True, check=True).stdout.strip()
    steps["first_line"] = _timed([str(venv / "bin" / "gpumem-gui"), "report", example], scratch, env)
    line = steps["first_line"].pop("stdout").splitlines()[0]
    for step in steps.values():
        step.pop("stdout", None)
    return line, sum(s["seconds"] for s in steps.values())


def _clean_env(scratch: Path) -> dict[str, str]:
    """The environment of a newcomer's shell: no venv, no PYTHONPATH, and caches of their own under `scratch`."""
    drop = {"PYTHONPATH", "GPUMEM_GUI_PURE_PYTHON", "VIRTUAL_ENV", "GPUMEM_GUI_BUILD_JOBS"}
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env.update(UV_CACHE_DIR=str(scratch / "uv-cache"), PIP_CACHE_DIR=str(scratch / "pip-cache"))
    return env


def make_first_line(scratch: Path) -> dict[str, Any]:
    """A clean clone, `make .venv/.installed-run` and the first line of `gpumem-gui report`, each step timed."""
    clone = scratch / "clone"
    env = _clean_env(scratch)
    steps = {"clone": _timed(["git", "clone", "--quiet", str(ROOT), str(clone)], scratch, env)}
    steps["make"] = _timed(["make", ".venv/.installed-run"], clone, env)
    progress = [line for line in steps["make"].pop("stdout").splitlines() if line.startswith("gpumem")]
    example = "resources/examples/fragmented_oom.pickle"
    steps["first_line"] = _timed([str(clone / ".venv" / "bin" / "gpumem-gui"), "report", example], clone, env)
    line = steps["first_line"].pop("stdout").splitlines()[0]
    steps["clone"].pop("stdout")
    total = sum(s["seconds"] for s in steps.values())
    used_uv = (clone / ".venv" / ".uv" / "bin" / "uv").exists() or shutil.which("uv", path=env.get("PATH")) is not None
    return {
        "steps": steps,
        "total_seconds": total,
        "total_cpu_seconds": sum(s["cpu_seconds"] for s in steps.values()),
        "first_line": line,
        "progress_lines": progress,
        "installer": "uv" if used_uv else "pip",
        "met": total <= TARGET_SECONDS,
    }


def wheel_first_line(scratch: Path, wheel: Path, uv: str) -> dict[str, Any]:
    """A venv made by uv, the wheel installed into it with its dependencies, and the first line of `gpumem-gui
    report` of a bundled example: each step timed."""
    env = _clean_env(scratch)
    venv = scratch / "venv-wheel"
    steps = {"venv": _timed([uv, "venv", "--quiet", "--python", sys.executable, str(venv)], scratch, env)}
    install = [uv, "pip", "install", "--quiet", "--python", str(venv / "bin" / "python"), str(wheel)]
    steps["install"] = _timed(install, scratch, env)
    line, total = _first_line(venv, scratch, env, steps)
    return {
        "wheel": wheel.name,
        "steps": steps,
        "total_seconds": total,
        "first_line": line,
        "met": total <= TARGET_SECONDS,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--pip", action="store_true", help="also time a clean pip install and the first line")
    parser.add_argument("--make", action="store_true", help="also time `make` from a clean clone to the first line")
    parser.add_argument("--no-kernels", action="store_true", help="skip the kernels' build alone")
    parser.add_argument("--wheel", type=Path, help="also time a fresh install of this binary wheel with uv")
    parser.add_argument("--uv", default=shutil.which("uv") or "uv", help="the uv to install the wheel with")
    args = parser.parse_args()
    out: dict[str, Any] = {"cores": os.cpu_count(), "target_seconds": TARGET_SECONDS}
    out["load_average_before"] = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="gpumem-gui-install-") as folder:
        scratch = Path(folder)
        if not args.no_kernels:
            out["kernels"] = kernels(scratch, args.rounds)
        if args.make:
            out["make_clean_clone"] = make_first_line(scratch)
        if args.wheel:
            out["binary_wheel"] = wheel_first_line(scratch, args.wheel.resolve(), args.uv)
        if args.pip:
            out["pip_compiled"] = first_line(scratch, pure=False)
            out["pip_no_compile"] = first_line(scratch, pure=True)
    out["load_average_after"] = os.getloadavg()
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
