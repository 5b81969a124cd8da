"""A test run leaves the temporary folder and the user's config and cache folders as it found them: conftest's folder
of the run goes at the session's end, with the stale sockets, OOM pickles and temporary files that tests and probes
leave in it, and a file left anywhere else fails the run, named."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests import conftest

TESTS = Path(__file__).resolve().parent

# a run of the suite in miniature: conftest loaded as a plugin, one test that leaves in its folders what probes leave
INNER_TEST = """
import json, os, socket, tempfile
from pathlib import Path


def test_leave_things_behind():
    folders = [os.environ[k] for k in ("XDG_CONFIG_HOME", "XDG_CACHE_HOME", "GPUMEM_GUI_SOCKET_DIR", "TMPDIR")]
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(os.path.join(os.environ["GPUMEM_GUI_SOCKET_DIR"], "1234.sock"))
    sock.close()  # a stale socket: bound, never unlinked
    oom = Path(os.environ["XDG_CACHE_HOME"]) / "gpumem-gui" / "oom" / "oom_1234.pickle"
    oom.parent.mkdir(parents=True)
    oom.write_bytes(b"not much")
    tempfile.mkdtemp(prefix="gpumem-gui-settings-")  # a folder whose owner forgot it
    Path(os.environ["RECORD"]).write_text(json.dumps([*folders, tempfile.gettempdir()]))
"""

# what a careless test does: a picture saved to /tmp, the user's settings written to
LEAKING_TEST = """
import os
from pathlib import Path


def test_a_picture_in_the_temporary_folder():
    Path(os.environ["WATCHED_TMP"], "predict_lab.png").write_bytes(b"png")


def test_the_users_settings_written_to():
    with Path(os.environ["WATCHED_CONFIG"], "gpumem_gui", "gpumem-gui.conf").open("a") as f:
        f.write("recent=x\\n")
"""


def _inner_run(tmp_path: Path, tmp: Path, code: str, *options: str, **env: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "test_inner.py").write_text(code, encoding="utf-8")
    environ = {k: v for k, v in os.environ.items() if k not in ("CI", conftest.SHARED_TMP_ENV, conftest.WATCHED_KEY)}
    environ.update(TMPDIR=str(tmp), PYTHONPATH=str(TESTS), **env)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "conftest",
         "--rootdir", str(tmp_path), *options, str(tmp_path / "test_inner.py")],
        env=environ, cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip


@pytest.fixture
def tmp() -> Iterator[Path]:
    """The inner run's temporary folder: a short path, since a socket's path has a limit of about 100 characters."""
    folder = Path(tempfile.mkdtemp(prefix="gl-"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


# `make test` runs the suite in two processes (pytest-xdist): each worker's folder sits beside the run's, in the
# temporary folder the run found, not inside the run's own (where a socket's path grew past its limit)
@pytest.mark.parametrize("workers", [(), ("-n", "2")], ids=["one process", "xdist"])
def test_the_suites_temp_folder_goes_at_the_end(tmp_path: Path, tmp: Path, workers: tuple[str, ...]) -> None:
    record = tmp_path / "record.json"
    result = _inner_run(tmp_path, tmp, INNER_TEST, *workers, RECORD=str(record))
    assert result.returncode == 0, result.stdout + result.stderr
    folders = [Path(f) for f in json.loads(record.read_text())]
    assert folders[4] == folders[3]  # tempfile's folder is TMPDIR's, for this process and its subprocesses alike
    root = folders[0].parent
    assert root.parent == tmp and root.name.startswith(conftest.ROOT_PREFIX), folders
    assert all(f.parent == root for f in folders), folders
    assert not root.exists()
    assert sorted(p.name for p in tmp.iterdir()) == []


@pytest.mark.parametrize("shared", [False, True])
def test_a_file_left_outside_fails_the_run_naming_it(tmp_path: Path, tmp: Path, shared: bool) -> None:
    config = tmp_path / "config"
    (config / "gpumem_gui").mkdir(parents=True)
    (config / "gpumem_gui" / "gpumem-gui.conf").write_text("[General]\n")  # the user's, there before the run
    (tmp / "gpumem-gui-settings-old").mkdir()  # what an older run left: not this run's
    env = {"WATCHED_TMP": str(tmp), "WATCHED_CONFIG": str(config), "XDG_CONFIG_HOME": str(config)}
    if shared:  # a /tmp shared with other programs: said, but the run passes
        env[conftest.SHARED_TMP_ENV] = "1"
    result = _inner_run(tmp_path, tmp, LEAKING_TEST, **env)
    assert "2 passed" in result.stdout, result.stdout
    assert result.returncode == (0 if shared else 1), result.stdout + result.stderr
    said = result.stderr.splitlines()[-1]
    assert said.startswith("the test run left 2 new file(s) outside pytest's tmp_path: "), result.stderr
    assert str(tmp / "predict_lab.png") in said and str(config / "gpumem_gui" / "gpumem-gui.conf") in said
    assert "gpumem-gui-settings-old" not in said


def test_another_run_going_on_beside_is_not_this_runs_leftover(tmp_path: Path) -> None:
    beside, ended = tmp_path / f"{conftest.ROOT_PREFIX}a", tmp_path / f"{conftest.ROOT_PREFIX}b"
    for root, pid in ((beside, os.getppid()), (ended, 2**22 + 1)):  # the second: above Linux's largest pid
        (root / "tmp").mkdir(parents=True)
        (root / "pid").write_text(str(pid))
    before = conftest.folder_entries([tmp_path])
    (beside / "tmp" / "x").write_text("")
    (ended / "tmp" / "y").write_text("")
    (tmp_path / "z").write_text("")
    after = conftest.folder_entries([tmp_path])
    assert conftest.left_behind(before, after, os.getpid()) == [
        str(ended / "tmp"), str(ended / "tmp" / "y"), str(tmp_path / "z")
    ]  # fmt: skip
