"""Shared test fixtures: the real snapshots beside the project, and generated ones."""

from __future__ import annotations

import os
import pickle
import tempfile
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# the window keeps choices in QSettings: tests keep theirs away from the user's own
os.environ["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="gpumem-gui-tests-")
# probes started by the tests write their OOM snapshots and sockets here, not in the user's own folders
os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="gpumem-gui-tests-cache-")
os.environ["GPUMEM_GUI_SOCKET_DIR"] = tempfile.mkdtemp(prefix="gpumem-gui-tests-sockets-")

FIXTURE_DIR = Path(__file__).resolve().parents[1].parent / "shared" / "fixtures" / "snapshots"
FIXTURE_NAMES = [
    "constructor_memory_snapshot.pickle",
    "cranberrii_memory_snapshot.pickle",
    "felix_dump_a.pickle",
    "lfie_my_snapshot.pickle",
    "magma27_memory_snapshot.pickle",
    "muduard_dump_snapshot_a.pickle",
    "silmont_mem_snapshot.pickle",
]


def fixture_path(name: str) -> Path:
    path = FIXTURE_DIR / name
    if not path.exists():
        pytest.skip(f"real snapshots not present ({FIXTURE_DIR})")
    return path


@pytest.fixture(params=FIXTURE_NAMES)
def real_snapshot_path(request: pytest.FixtureRequest) -> Path:
    return fixture_path(request.param)


def load_raw(path: Path) -> Any:
    with path.open("rb") as f:
        return pickle.load(f)  # test-only: these are the known, checked fixture files
