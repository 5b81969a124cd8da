"""`gpumem-gui ranks` on folders that fight back: a worker killed mid-read (the OOM killer's SIGKILL, a file cut short
under its map) costs only its own file, symbolic links to nothing or in a loop are one line each, names that are not
UTF-8 or hold a newline or a terminal escape are printed escaped, and an empty folder is one line and exit 2."""

from __future__ import annotations

import json
import os
import pickle
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import psutil
import pytest

from gpumem_gui import cli
from gpumem_gui.core.allocator.simulator import DeviceAllocatorSim
from gpumem_gui.core.rules.allocator_constants import MiB
from gpumem_gui.sources.rank_folder import summarise_folder

BLOCK = 20 * MiB


def _write(path: Path, blocks: int, device: int = 0) -> None:
    """`blocks` live 20 MiB blocks: a peak reserved of `blocks` * 20 MiB, worked by hand."""
    sim = DeviceAllocatorSim(blocks * BLOCK + 10 * MiB, device=device)
    for _ in range(blocks):
        sim.malloc(BLOCK)
    path.write_bytes(pickle.dumps(sim.snapshot(), protocol=4))


def _cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "gpumem_gui", *args],
        capture_output=True,
        check=False,
        timeout=120,
        env={**os.environ, **(env or {})},
    )


# -- a worker that dies ---------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def slow_rank(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Four small ranks and rank 3 as a long JSON trace (a few tenths of a second to read: long enough to be caught
    at it by a killer that looks every millisecond)."""
    root = tmp_path_factory.mktemp("slow_rank")
    for rank in (0, 1, 2, 4):
        _write(root / f"rank{rank}.pickle", 2 + rank, device=rank)
    sim = DeviceAllocatorSim(4096 * MiB, device=3, max_entries=300_000)
    for i in range(100_000):
        sim.free(sim.malloc((i % 50 + 1) * MiB))
    (root / "rank3.json").write_text(json.dumps(sim.snapshot()))
    return root


class Killer:
    """Sends SIGKILL, as the OOM killer would, to any process of this test that has `victim` open."""

    def __init__(self, victim: Path) -> None:
        self.victim = str(victim)
        self.killed: set[int] = set()  # the processes it killed
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._thread.start()

    def _watch(self) -> None:
        me = psutil.Process()
        while not self._stop.is_set():
            for child in me.children(recursive=True):
                try:
                    if any(f.path == self.victim for f in child.open_files()):
                        child.send_signal(signal.SIGKILL)
                        self.killed.add(child.pid)
                except psutil.Error:
                    pass  # it ended meanwhile
            time.sleep(0.001)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(5)


def test_a_worker_killed_mid_read_costs_only_its_own_file(slow_rank: Path) -> None:
    victim = slow_rank / "rank3.json"
    for _attempt in range(4):  # until the killer has caught both reads of rank 3 (the pool's, then its own)
        killer = Killer(victim)
        try:
            table = summarise_folder(str(slow_rank), workers=2)
        finally:
            killer.stop()
        # whatever the killer caught, the other four ranks are read (before: all five "BrokenProcessPool")
        assert [(e.rank, e.peak_reserved_bytes) for e in table.entries if e.rank != 3] == [
            (rank, (2 + rank) * BLOCK) for rank in (0, 1, 2, 4)
        ]
        assert not any("BrokenProcessPool" in e for e in table.errors)
        if len(killer.killed) >= 2:
            assert table.errors == [
                f"the process reading it was killed by SIGKILL (out of memory? the system's OOM killer sends it)"
                f" ({victim})"
            ]
            assert 3 not in [e.rank for e in table.entries]
            break
        if len(killer.killed) == 1:  # the pool's worker died; read again in a process of its own, rank 3 came through
            assert table.errors == [] and [e.rank for e in table.entries] == [0, 1, 2, 3, 4]
    else:
        pytest.fail("the killer never caught rank 3 being read twice")
    assert not [p for p in psutil.Process().children(recursive=True) if p.is_running() and _is_worker(p)]


def _is_worker(process: psutil.Process) -> bool:
    try:
        return process.status() != psutil.STATUS_ZOMBIE and "resource_tracker" not in " ".join(process.cmdline())
    except psutil.Error:
        return False


# Every process of the command (its spawned workers too: they run site, hence this) cuts rank3.pickle to nothing the
# moment it maps it, as a job writing the file again would: the next read of the mapping faults with SIGBUS.
CUT_WHEN_MAPPED = """
import os
from contextlib import contextmanager
import gpumem_gui.core.snapshot.loader as loader
real = loader._mapped

@contextmanager
def cut(f, label, **kw):
    with real(f, label, **kw) as mapped:
        if os.path.samefile(f.fileno(), os.environ["CUT_FILE"]) and os.fstat(f.fileno()).st_size:
            os.truncate(os.environ["CUT_FILE"], 0)
            mapped[len(mapped) - 1]  # the fault
        yield mapped

loader._mapped = cut
"""


def test_a_file_cut_short_under_its_map_costs_only_its_own_file(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    folder.mkdir()
    for rank in range(4):
        _write(folder / f"rank{rank}.pickle", 2 + rank, device=rank)
    hook = tmp_path / "hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(CUT_WHEN_MAPPED)
    cut = folder / "rank2.pickle"
    paths = os.pathsep.join([str(hook), *filter(None, [os.environ.get("PYTHONPATH")])])
    done = _cli("ranks", str(folder), "--workers", "2", env={"PYTHONPATH": paths, "CUT_FILE": str(cut)})
    out, err = done.stdout.decode(), done.stderr.decode()
    assert done.returncode == 0, (out, err)  # before: exit 2, every rank "unreadable: ... BrokenProcessPool"
    assert "Traceback" not in err and "BrokenProcessPool" not in out
    assert cut.stat().st_size == 0  # it was cut: its worker died of SIGBUS
    assert [line for line in out.splitlines() if line.startswith("unreadable:")] == [
        f"unreadable: the file is empty ({cut})"  # read again alone: what the file is now
    ]
    assert "3 snapshot file(s)" in out
    for rank in (0, 1, 3):
        assert f"rank{rank}.pickle" in out


# -- names and links ------------------------------------------------------------------------------------------


def test_symbolic_links_to_nothing_or_in_a_loop(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _write(tmp_path / "rank0.pickle", 2)
    _write(tmp_path / "rank1.pickle", 3, device=1)
    (tmp_path / "rank2.pickle").symlink_to(tmp_path / "gone.pickle.tmp")
    (tmp_path / "rank3.pickle").symlink_to("rank3.pickle")  # itself
    (tmp_path / "rank4.pickle").symlink_to("rank5.pkl")
    (tmp_path / "rank5.pkl").symlink_to("rank4.pickle")  # a loop of two
    # before: a FileNotFoundError traceback from os.path.getsize, and no rank at all
    assert cli.main(["ranks", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert [line for line in out.splitlines() if line.startswith("unreadable:")] == [
        f"unreadable: a loop of symbolic links ({tmp_path / 'rank3.pickle'})",
        f"unreadable: a loop of symbolic links ({tmp_path / 'rank4.pickle'})",
        f"unreadable: a loop of symbolic links ({tmp_path / 'rank5.pkl'})",
        f"unreadable: a symbolic link to {tmp_path / 'gone.pickle.tmp'}, which does not exist"
        f" ({tmp_path / 'rank2.pickle'})",
    ]
    assert "2 snapshot file(s)" in out and "rank0.pickle" in out and "rank1.pickle" in out


@pytest.fixture
def odd_names(tmp_path: Path) -> tuple[Path, bytes, bytes]:
    folder = tmp_path / "odd"
    folder.mkdir()
    not_utf8, escape = b"rank1\xff.pickle", b"rank2\n\x1b[2J\x1b[31m.pickle"  # a byte no UTF-8 has; a screen wipe
    _write(Path(os.fsdecode(os.path.join(os.fsencode(folder), not_utf8))), 2, device=1)
    _write(Path(os.fsdecode(os.path.join(os.fsencode(folder), escape))), 3, device=2)
    (Path(os.fsdecode(os.path.join(os.fsencode(folder), b"rank3\xfe.pickle")))).write_bytes(b"not a snapshot")
    return folder, not_utf8, escape


@pytest.mark.parametrize("encoding", ["utf-8", "ascii"])
def test_names_that_are_not_utf8_or_hold_control_characters(
    odd_names: tuple[Path, bytes, bytes], encoding: str
) -> None:
    folder, not_utf8, escape = odd_names
    done = _cli("ranks", str(folder), env={"PYTHONIOENCODING": encoding})
    assert done.returncode == 0 and b"Traceback" not in done.stderr, done.stderr
    assert b"\x1b" not in done.stdout and b"\xff" not in done.stdout  # nothing reaches the terminal raw
    lines = done.stdout.decode("ascii").splitlines()
    assert any(line.endswith("  rank1\\xff.pickle") for line in lines)
    assert any(line.endswith("  rank2\\n\\x1b[2J\\x1b[31m.pickle") for line in lines)  # one row, not two
    assert f"unreadable: not a snapshot: neither a pickle nor JSON ({folder}/rank3\\xfe.pickle)" in lines
    # JSON keeps each name exactly (as \\udcff, which Python's json reads back to the file's own bytes)
    done = _cli("ranks", str(folder), "--json", env={"PYTHONIOENCODING": encoding})
    assert done.returncode == 0 and b"\x1b" not in done.stdout + done.stderr
    names = {os.fsencode(Path(e["file"]).name) for e in json.loads(done.stdout)["ranks"]}
    assert names == {not_utf8, escape}
    assert done.stderr.decode("ascii").splitlines() == [
        f"gpumem-gui: unreadable: not a snapshot: neither a pickle nor JSON ({folder}/rank3\\xfe.pickle)"
    ]


def test_the_window_shows_such_names_escaped(qtbot: Any, odd_names: tuple[Path, bytes, bytes]) -> None:
    from gpumem_gui.views.compare.ranks_view import FILE_COLUMN, RanksView  # noqa: PLC0415

    folder, _, _ = odd_names
    view = RanksView()
    qtbot.addWidget(view)
    with qtbot.waitSignal(view.loaded, timeout=60_000):
        view.load_folder(str(folder))
    shown = [view.proxy.index(row, FILE_COLUMN).data() for row in range(view.proxy.rowCount())]
    # before: "rank1.pickle" (Qt dropped the byte: another file's name) and a row broken by a raw newline
    assert shown == ["rank1\\xff.pickle", "rank2\\n\\x1b[2J\\x1b[31m.pickle"]
    # the reader's own words, quoted in the window (they stay English in every language), the odd byte escaped
    said = f"not a snapshot: neither a pickle nor JSON ({folder}/rank3\\xfe.pickle)"
    assert view.errors.text() == f"unreadable: \u201c{said}\u201d"


# -- nothing to read -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("json_output", [False, True])
def test_an_empty_folder_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], json_output: bool
) -> None:
    (tmp_path / "notes.txt").write_text("not a snapshot")  # and no snapshot file: as empty
    assert cli.main(["ranks", str(tmp_path), *(["--json"] if json_output else [])]) == 2  # before: 0
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines() == [f"gpumem-gui: no snapshot files (.pickle, .pkl, .pck, .json, .gz) in {tmp_path}"]
