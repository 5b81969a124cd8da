"""A file cut short while it is read (a job writing the same name again) ends a command in one line, exit 2: the
reading runs in a forked child, which takes the SIGBUS of the mapped pages past the new end."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gpumem_gui.assets import example_path
from tests.conftest import fixture_path

# Runs the real command line in a fresh interpreter, with the loader's mapping wrapped so that the file is cut to
# nothing the moment it is mapped: the next read of the mapping faults, as when a writer truncates it under us.
CUT_WHEN_MAPPED = """
import os, sys
from contextlib import contextmanager
import gpumem_gui.core.snapshot.loader as loader
real = loader._mapped

@contextmanager
def cut(f, label, **kw):
    with real(f, label, **kw) as mapped:
        if os.path.exists(os.environ["CUT_FILE"]) and os.path.samefile(f.fileno(), os.environ["CUT_FILE"]):
            os.truncate(os.environ["CUT_FILE"], 0)
        yield mapped

loader._mapped = cut
from gpumem_gui.cli import main
sys.exit(main(sys.argv[1:]))
"""


def _run(args: list[str], cut: Path, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "CUT_FILE": str(cut), "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run(
        [sys.executable, "-c", CUT_WHEN_MAPPED, *args],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
        timeout=120,
    )


@pytest.mark.parametrize(
    "command",
    [["report"], ["report", "--json"], ["explain"], ["replay"], ["render", "-o", "out.png"], ["diff", "OTHER"]],
)
def test_a_file_cut_short_while_read_is_one_line_and_exit_2(tmp_path: Path, command: list[str]) -> None:
    victim = tmp_path / "snapshot.pickle"
    shutil.copy(fixture_path("silmont_mem_snapshot.pickle"), victim)
    other = str(example_path("fragmented_oom"))
    args = [command[0], *[other if a == "OTHER" else a for a in command[1:]], str(victim)]
    if command[0] == "diff":
        args = ["diff", str(victim), other]
    done = _run(args, victim, tmp_path)
    assert done.returncode == 2, (done.returncode, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert lines == [
        f"gpumem-gui: {victim} changed while it was read (it is shorter than when it was opened); open it again once"
        " it is written"
    ]
    assert "Traceback" not in done.stderr


def test_an_untouched_file_reads_as_before(tmp_path: Path) -> None:
    done = _run(["report", str(fixture_path("silmont_mem_snapshot.pickle"))], tmp_path / "none", tmp_path)
    assert done.returncode == 0 and done.stdout and not done.stderr
