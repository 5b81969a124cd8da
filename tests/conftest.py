"""Shared test fixtures: the real snapshots beside the project, and generated ones."""

from __future__ import annotations

import os
import pickle
import re
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:  # only named in annotations: the package loads after the environment below is set
    from gpumem_gui.teach.quiz import Quiz, Text

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# folders of the whole run, removed at its end (pytest_sessionfinish) with what the tests and their probes left in
# them: stale sockets, OOM pickles, settings files
# pytest imports this file as `conftest`, and test modules import it again as `tests.conftest`: the second import
# must reuse the run's folders (made once per process, named in the environment), not make three more nobody removes
_DIRS_KEY = "GPUMEM_GUI_TEST_SESSION_DIRS"


def _session_dirs() -> list[Path]:
    pid, _, made = os.environ.get(_DIRS_KEY, "").partition(os.pathsep)
    if pid == str(os.getpid()):
        return [Path(p) for p in made.split(os.pathsep)]
    prefixes = ("gpumem-gui-tests-", "gpumem-gui-tests-cache-", "gpumem-gui-tests-sockets-")
    folders = [Path(tempfile.mkdtemp(prefix=prefix)) for prefix in prefixes]
    os.environ[_DIRS_KEY] = os.pathsep.join([str(os.getpid()), *map(str, folders)])
    return folders


SESSION_DIRS: list[Path] = _session_dirs()
# the window keeps choices in QSettings: tests keep theirs away from the user's own; probes started by the tests
# write their OOM snapshots and sockets in the others, not in the user's own folders
for _name, _folder in zip(("XDG_CONFIG_HOME", "XDG_CACHE_HOME", "GPUMEM_GUI_SOCKET_DIR"), SESSION_DIRS, strict=True):
    os.environ[_name] = str(_folder)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """The run's folders go with it; one that cannot be removed fails the run, naming what is left in it."""
    left = []
    for folder in SESSION_DIRS:
        shutil.rmtree(folder, ignore_errors=True)
        if folder.exists():
            left.append(f"{folder} ({', '.join(sorted(p.name for p in folder.iterdir())[:5])})")
    if left:
        print(f"\nthe test run could not remove its folders: {'; '.join(left)}", file=sys.stderr)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


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


def in_ci() -> bool:
    """CI=true (GitHub, GitLab and most others set it): there, what a test needs must be present."""
    return os.environ.get("CI", "").strip().lower() in ("true", "1", "yes")


def fixture_path(name: str) -> Path:
    """A real snapshot of ../shared/fixtures/snapshots.

    Skips only where the whole folder is absent (a checkout without the shared fixtures), and not even then in CI;
    a file missing from a folder that is there fails, so a renamed or lost fixture never turns its tests into skips.
    """
    if not FIXTURE_DIR.is_dir():
        if in_ci():
            pytest.fail(f"real snapshots not present ({FIXTURE_DIR}), and CI needs them", pytrace=False)
        pytest.skip(f"real snapshots not present ({FIXTURE_DIR})")
    path = FIXTURE_DIR / name
    if not path.is_file():
        pytest.fail(f"{name} is missing from {FIXTURE_DIR}, where the real snapshots are", pytrace=False)
    return path


def wait_until(condition: Callable[[], object], timeout: float = 10.0, what: str = "the condition") -> None:
    """Poll `condition` until it holds; fail after `timeout` seconds. The way to wait in a test: never a fixed
    sleep, which is too short on a loaded machine and too long everywhere else."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout:g} s waiting for {what}", pytrace=False)
        time.sleep(0.01)


@pytest.fixture(params=FIXTURE_NAMES)
def real_snapshot_path(request: pytest.FixtureRequest) -> Path:
    return fixture_path(request.param)


def load_raw(path: Path) -> Any:
    with path.open("rb") as f:
        return pickle.load(f)  # test-only: these are the known, checked fixture files


def segsum_totals(data: Any, monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """The figures of torch.cuda._memory_viz.segsum (PyTorch's own reading of a snapshot), in exact bytes.

    segsum prints rounded sizes; with its formatter made to print integers, every figure is compared exactly.
    """
    from torch.cuda import _memory_viz  # noqa: PLC0415  (torch is a test dependency; loaded where it is used)

    monkeypatch.setattr(_memory_viz, "_format_size", str)
    monkeypatch.setattr(_memory_viz, "_report_free", lambda ext, internal: f"external={ext} internal={internal}")
    text = _memory_viz.segsum(data)

    def figure(pattern: str) -> int:
        found = re.search(pattern, text, re.MULTILINE)
        assert found is not None, f"segsum printed no {pattern!r}:\n{text}"
        return int(found.group(1))

    return {
        "segments": figure(r"^segments: (\d+)$"),
        "total_reserved": figure(r"^total_reserved: (\d+)$"),
        "total_allocated": figure(r"^total_allocated: (\d+)$"),
        "external": figure(r"^total_free: external=(\d+) "),
        "internal": figure(r"^total_free: external=\d+ internal=(\d+)$"),
    }


def quiz_texts(quiz: Quiz) -> Iterator[tuple[str, Text]]:
    """Every text of a quiz with a name saying where it is, for messages."""
    yield "title", quiz.title
    yield "intro", quiz.intro
    for n, q in enumerate(quiz.questions, start=1):
        yield f"question {n} ({q.id}) prompt", q.prompt
        if q.caption is not None:
            yield f"question {n} ({q.id}) caption", q.caption
        for i, choice in enumerate(q.choices):
            yield f"question {n} ({q.id}) choices[{i}].text", choice.text
            yield f"question {n} ({q.id}) choices[{i}].explanation", choice.explanation


@pytest.fixture(params=["compiled", "pure"])
def twin(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each test that asks for it runs twice: the compiled readers, then the pure-Python twins."""
    if request.param == "pure":
        monkeypatch.setenv("GPUMEM_GUI_PURE_PYTHON", "1")
    return str(request.param)


def trace_entry(action: str, addr: int, size: int, t: int, metadata: Any = "", *, frames: Any = None) -> dict[str, Any]:
    """A trace entry with the keys and types torch 2.13 writes (torch/cuda/memory.py, _snapshot's TraceEntry
    docstring; user_metadata '' by default since ~2.10, pytorch#165490), frames a list of frame dicts."""
    return {
        "action": action,
        "addr": addr,
        "size": size,
        "stream": 0,
        "time_us": t,
        "frames": frames if frames is not None else [{"name": "forward", "filename": "model.py", "line": 12}],
        "compile_context": "N/A",
        "user_metadata": metadata,
    }
