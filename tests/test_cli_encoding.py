"""A name the terminal cannot encode (a lone surrogate from a broken or hostile file) is printed escaped, never a
UnicodeEncodeError traceback, whatever encoding the output stream was given."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

MIB = 1 << 20
FRAMES = [{"name": "step\udc80", "filename": "model\udcff.py", "line": 3}]


def _snapshot(path: Path) -> Path:
    blocks = [
        {"address": 0, "size": MIB, "requested_size": MIB, "state": "active_allocated", "frames": FRAMES},
        {"address": MIB, "size": MIB, "requested_size": 0, "state": "inactive", "frames": []},
    ]
    segment = {
        "device": 0,
        "address": 0,
        "total_size": 2 * MIB,
        "allocated_size": MIB,
        "active_size": MIB,
        "requested_size": MIB,
        "stream": 0,
        "segment_type": "large",
        "blocks": blocks,
    }
    trace = [{"action": "alloc", "addr": 0, "size": MIB, "stream": 0, "frames": FRAMES, "time_us": 1}]
    with path.open("wb") as f:
        pickle.dump({"segments": [segment], "device_traces": [trace]}, f)
    return path


@pytest.mark.parametrize("encoding", ["utf-8", "ascii"])
@pytest.mark.parametrize("command", [["explain"], ["report"], ["explain", "--json"]])
def test_lone_surrogates_are_printed_escaped(tmp_path: Path, encoding: str, command: list[str]) -> None:
    path = _snapshot(tmp_path / "surrogates.pickle")
    env = {**os.environ, "PYTHONIOENCODING": encoding}
    done = subprocess.run(
        [sys.executable, "-m", "gpumem_gui", *command, str(path)], env=env, capture_output=True, check=False
    )
    assert done.returncode == 0, done.stderr.decode("ascii", "replace")
    assert b"Traceback" not in done.stderr
    if command == ["explain"]:
        assert b"model\\udcff.py:3" in done.stdout  # the name, escaped, still there to read
