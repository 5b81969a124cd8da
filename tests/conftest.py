"""Shared test fixtures: the real snapshots beside the project, and generated ones."""

from __future__ import annotations

import contextlib
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
# A pytest-xdist worker is one of `make test`'s processes, one per core: torch's OpenMP pool (and BLAS's) one thread
# each, not one per core in every worker, whose threads spin waiting for each other on a busy machine (the lab's
# predictions took 27 s instead of 2 under `-n 2`). Set before torch or numpy load; their subprocesses inherit it.
if os.environ.get("PYTEST_XDIST_WORKER"):
    for _threads in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        os.environ.setdefault(_threads, "1")

# Everything a run writes outside pytest's own tmp_path goes into one folder of the run, removed at its end
# (pytest_sessionfinish) with what the tests, their probes and their subprocesses left there: stale sockets, OOM
# pickles, settings files, temporary files (TMPDIR points into it). At the end, the temporary folder and the user's
# config and cache folders must hold nothing they did not hold at the start, or the run fails naming what is new.
# pytest imports this file as `conftest`, and test modules import it again as `tests.conftest`: the second import
# must reuse the run's folder (made once per process, named in the environment), not make another nobody removes.
_ROOT_KEY = "GPUMEM_GUI_TEST_SESSION_ROOT"
ROOT_PREFIX = "gpumem-gui-tests-"
# where the user's /tmp is shared with other programs writing to it during the run (a shared machine), new entries
# there are reported without failing the run; never in CI
SHARED_TMP_ENV = "GPUMEM_GUI_TESTS_SHARED_TMP"
# the run's subfolders: XDG_CONFIG_HOME, XDG_CACHE_HOME, the probes' sockets, TMPDIR
_SUBFOLDERS = {"XDG_CONFIG_HOME": "config", "XDG_CACHE_HOME": "cache", "GPUMEM_GUI_SOCKET_DIR": "sockets",
               "TMPDIR": "tmp"}  # fmt: skip


# pytest-xdist's workers are processes started by the run, with the environment below already pointing into its
# folder: they watch (and make their own folders in) the folders the run found, named here, not the run's own
WATCHED_KEY = "GPUMEM_GUI_TEST_WATCHED"


def _watched_folders() -> list[Path]:
    """The folders a run must leave as it found them: the temporary folder and the user's config and cache homes."""
    if os.environ.get(WATCHED_KEY):
        return [Path(p) for p in os.environ[WATCHED_KEY].split(os.pathsep)]
    home = Path.home()
    config = os.environ.get("XDG_CONFIG_HOME") or str(home / ".config")
    cache = os.environ.get("XDG_CACHE_HOME") or str(home / ".cache")
    return [Path(tempfile.gettempdir()), Path(config), Path(cache)]


def folder_entries(folders: list[Path]) -> dict[str, int]:
    """Each folder's entries, and everything below an entry of ours (named gpumem...), with its modification time:
    a new name anywhere, or a file of ours written to, is what a run left."""
    out: dict[str, int] = {}
    for folder in folders:
        try:
            top = list(folder.iterdir())
        except OSError:
            continue
        for entry in top:
            out[str(entry)] = 0
            if not entry.name.lower().startswith("gpumem"):
                continue
            paths = [str(entry)]
            # os.walk passes over what goes while it walks (another run's folder, removed at its end)
            for here, subfolders, files in os.walk(entry) if not entry.is_symlink() else ():
                paths += [os.path.join(here, name) for name in (*subfolders, *files)]
            for path in paths:
                with contextlib.suppress(OSError):
                    out[path] = os.lstat(path).st_mtime_ns
    return out


def left_behind(before: dict[str, int], after: dict[str, int], own_pid: int) -> list[str]:
    """What appeared or changed between the snapshots, less pytest's own folder and other test runs still going; of a
    new folder, the folder alone."""
    others = tuple(
        f"{path}{os.sep}"
        for path in after
        if Path(path).name.startswith(ROOT_PREFIX) and _run_alive(Path(path), own_pid)
    )
    new = [
        path
        for path, mtime in sorted(after.items())
        if before.get(path) != mtime
        and not Path(path).name.startswith("pytest-of-")
        and not f"{path}{os.sep}".startswith(others)
    ]
    made = {path for path in new if path not in before}
    return [path for path in new if str(Path(path).parent) not in made]


def _run_alive(root: Path, own_pid: int) -> bool:
    """Whether `root` is the folder of another test run whose process is still going (a run beside this one)."""
    try:
        pid = int((root / "pid").read_text())
        os.kill(pid, 0)
    except (OSError, ValueError):
        return False
    return pid != own_pid


def _session_root(watched: list[Path]) -> tuple[Path, dict[str, int] | None]:
    """The run's folder, and the watched folders' entries from before it was made (None on the second import)."""
    pid, _, made = os.environ.get(_ROOT_KEY, "").partition(os.pathsep)
    if pid == str(os.getpid()):
        return Path(made), None
    # pytest's own folder stays where pytest would put it, not in the run's folder removed at the end
    os.environ.setdefault("PYTEST_DEBUG_TEMPROOT", tempfile.gettempdir())
    before = folder_entries(watched)
    root = Path(tempfile.mkdtemp(prefix=ROOT_PREFIX, dir=watched[0]))
    (root / "pid").write_text(str(os.getpid()))
    os.environ[_ROOT_KEY] = os.pathsep.join([str(os.getpid()), str(root)])
    return root, before


_WATCHED = _watched_folders()  # read before the environment below points them into the run's folder
os.environ[WATCHED_KEY] = os.pathsep.join(map(str, _WATCHED))
SESSION_ROOT, _BEFORE = _session_root(_WATCHED)
# the window keeps choices in QSettings: tests keep theirs away from the user's own; probes started by the tests
# write their OOM snapshots and sockets there, not in the user's own folders (mode 0700: the probe's socket folder
# must be closed to others); the tests' and their subprocesses' temporary files go there too
for _name, _sub in _SUBFOLDERS.items():
    (SESSION_ROOT / _sub).mkdir(mode=0o700, exist_ok=True)
    os.environ[_name] = str(SESSION_ROOT / _sub)
tempfile.tempdir = os.environ["TMPDIR"]


# A test that hangs fails instead of holding the run (CI's too) until its job is killed: pytest-timeout, installed with
# the test extra, ends it after TEST_TIMEOUT seconds (several times the slowest test on a loaded 2-core machine), from
# a thread of its own, which works even where the main thread is stuck in Qt or torch without the GIL (the signal
# method cannot); pyproject's faulthandler_timeout has printed every thread's stack a little before. Set here, not in
# pyproject, so that a venv without the plugin still runs the suite (an unknown ini key is an error under -W error).
TEST_TIMEOUT = 300


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    """The per-test time limit, where pytest-timeout is installed and neither the command line nor PYTEST_TIMEOUT
    sets one (the plugin reads them in its own pytest_configure, after this one)."""
    if not config.pluginmanager.hasplugin("timeout"):
        return
    if config.getoption("timeout", None) is None and not os.environ.get("PYTEST_TIMEOUT"):
        config.option.timeout = TEST_TIMEOUT
    if config.getoption("timeout_method", None) is None:
        config.option.timeout_method = "thread"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The files that hold a test marked slow run first, each file's tests in their order: `make test`'s two
    processes (xdist's --dist loadfile, --no-loadscope-reorder) take files from the front of this order as they
    finish one, so the long files start early and the short ones fill in, and neither process ends the run alone
    on a long file; xdist's own order (most tests first) put the slowest files, with few tests, last."""
    slow = {item.path for item in items if item.get_closest_marker("slow") is not None}
    items.sort(key=lambda item: item.path not in slow)  # a stable sort: the files' own order otherwise


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """The run's folder goes with it; one that cannot be removed fails the run, naming what is left in it, and so
    does anything new in the temporary folder or the user's config and cache folders."""
    shutil.rmtree(SESSION_ROOT, ignore_errors=True)
    failed = False
    if SESSION_ROOT.exists():
        left = sorted(str(p.relative_to(SESSION_ROOT)) for p in SESSION_ROOT.rglob("*"))[:5]
        print(f"\nthe test run could not remove its folder {SESSION_ROOT} ({', '.join(left)})", file=sys.stderr)
        failed = True
    new = left_behind(_BEFORE, folder_entries(_WATCHED), os.getpid()) if _BEFORE is not None else []
    if new:
        named = ", ".join(new[:10]) + (f" and {len(new) - 10} more" if len(new) > 10 else "")
        print(f"\nthe test run left {len(new)} new file(s) outside pytest's tmp_path: {named}", file=sys.stderr)
        shared = os.environ.get(SHARED_TMP_ENV, "").strip().lower() in ("1", "true", "yes") and not in_ci()
        failed = failed or not shared
    if failed:
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


@pytest.fixture(scope="session")
def qapp_cls() -> Any:
    """The window's own QApplication class (pytest-qt makes the session's application of it)."""
    from gpumem_gui.views.common.language import LanguageAwareApplication  # noqa: PLC0415  (Qt loads late)

    return LanguageAwareApplication


@pytest.fixture(scope="session")
def qapp(qapp: Any) -> Any:
    """pytest-qt's QApplication, with Python's garbage collected on its thread, as the window's is (qt_start): a
    collection in a task's thread freed earlier tests' widgets there, and a lab test hung under pytest-xdist."""
    from gpumem_gui.qt_start import collect_on_gui_thread  # noqa: PLC0415  (Qt loads with the first Qt test)

    collect_on_gui_thread()
    return qapp


@pytest.fixture(autouse=True)
def _garbage_collected_on_the_main_thread() -> Iterator[None]:
    """After each test, the collections that came due while no event loop ran the collector's timer; the collector
    is moved to the main thread by a test that made the QApplication itself (render's, api's), not through qapp."""
    yield
    qt_start = sys.modules.get("gpumem_gui.qt_start")
    if qt_start is None:
        return
    qt_start.collect_on_gui_thread()  # nothing where it is there, or where no QApplication is
    qt_start.collect_due()


@pytest.fixture(autouse=True)
def _window_language_back_to_english() -> Iterator[None]:
    """A test that switched the window's language (View > Language, the quiz's combo) leaves it English for the next:
    the translators are the application's, shared by every test of the session."""
    yield
    language = sys.modules.get("gpumem_gui.views.common.language")
    if language is None:
        return
    if language.current_language() != "en":
        language.set_language("en")
    # the choice is saved too (the window's and the quiz's keys): the next test's window would open in it
    from PySide6 import QtCore  # noqa: PLC0415  (loaded already: the language module imports it)

    settings = QtCore.QSettings("gpumem_gui", "gpumem-gui")  # app/window.py's ORG, APP
    for key in (language.SETTING, language.QUIZ_SETTING):
        if settings.value(key, "en") != "en":
            settings.setValue(key, "en")


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
    else:  # the compiled ones even where the shell running the suite asks for the pure ones
        monkeypatch.delenv("GPUMEM_GUI_PURE_PYTHON", raising=False)
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
