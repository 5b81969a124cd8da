"""A test run leaves the temporary folder as it found it: conftest's folders go at the session's end, with the stale
sockets and OOM pickles that probes leave in them."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

TESTS = Path(__file__).resolve().parent

# a run of the suite in miniature: conftest loaded as a plugin, one test that leaves in its folders what probes leave
INNER_TEST = """
import json, os, socket
from pathlib import Path


def test_leave_things_behind():
    folders = [os.environ[k] for k in ("XDG_CONFIG_HOME", "XDG_CACHE_HOME", "GPUMEM_GUI_SOCKET_DIR")]
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(os.path.join(os.environ["GPUMEM_GUI_SOCKET_DIR"], "1234.sock"))
    sock.close()  # a stale socket: bound, never unlinked
    oom = Path(os.environ["XDG_CACHE_HOME"]) / "gpumem-gui" / "oom" / "oom_1234.pickle"
    oom.parent.mkdir(parents=True)
    oom.write_bytes(b"not much")
    Path(os.environ["RECORD"]).write_text(json.dumps(folders))
"""


def test_the_suites_temp_folders_go_at_the_end(tmp_path: Path) -> None:
    # the inner run's temporary folder: a short path, since a socket's path has a limit of about 100 characters
    tmp = Path(tempfile.mkdtemp(prefix="gl-"))
    try:
        (tmp_path / "test_inner.py").write_text(INNER_TEST, encoding="utf-8")
        record = tmp_path / "record.json"
        env = {**os.environ, "TMPDIR": str(tmp), "RECORD": str(record), "PYTHONPATH": str(TESTS)}
        result = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "conftest",
             "--rootdir", str(tmp_path), str(tmp_path / "test_inner.py")],
            env=env, cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
        assert result.returncode == 0, result.stdout + result.stderr
        folders = [Path(f) for f in json.loads(record.read_text())]
        assert len(folders) == 3 and all(f.parent == tmp for f in folders), folders
        assert not any(f.exists() for f in folders), [f for f in folders if f.exists()]
        assert sorted(p.name for p in tmp.iterdir()) == []
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
