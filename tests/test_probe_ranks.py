"""The probe names its files by rank: RANK (or torch.distributed's rank) in the OOM file's name, in the snapshot's
`recorded_with.job` and in the hello; `ranks` places such files, old names still read; `attach --save-ranks DIR`
saves every probe's snapshot of a job into one folder."""

from __future__ import annotations

import os
import re
import sys
import types
from pathlib import Path

import pytest

from gpumem_gui import cli
from gpumem_gui.cli.attach_ranks import rank_file_name, save_ranks
from gpumem_gui.core.analysis.ranks import parse_rank_name
from gpumem_gui.core.rules.allocator_constants import GiB
from gpumem_gui.core.snapshot.loader import load_snapshot
from gpumem_gui.probe.job_place import job_place, oom_file_name
from gpumem_gui.sources.probe_client import EventStream, ProbeClient
from gpumem_gui.sources.rank_folder import summarise_folder
from tests.probe_helpers import serve_simulated, start_demo_job, stop


def _distributed(**calls: object) -> types.SimpleNamespace:
    def answer(value: object):  # type: ignore[no-untyped-def]
        def call() -> object:
            if isinstance(value, Exception):
                raise value
            return value

        return call

    return types.SimpleNamespace(**{name: answer(value) for name, value in calls.items()})


def test_the_place_from_the_environment_then_torch_distributed(monkeypatch: pytest.MonkeyPatch) -> None:
    assert job_place({"RANK": "3", "LOCAL_RANK": "1", "WORLD_SIZE": "8"}) == {
        "RANK": 3,
        "LOCAL_RANK": 1,
        "WORLD_SIZE": 8,
    }
    assert job_place({"RANK": "-1", "WORLD_SIZE": "x"}) == {}  # not a count: not a rank
    monkeypatch.delitem(sys.modules, "torch.distributed", raising=False)
    assert job_place({}) == {}  # never imported by the job: not asked, and not imported by us
    assert "torch.distributed" not in sys.modules
    group = _distributed(is_available=True, is_initialized=True, get_rank=5, get_world_size=16)
    monkeypatch.setitem(sys.modules, "torch.distributed", group)
    assert job_place({"LOCAL_RANK": "1"}) == {"LOCAL_RANK": 1, "RANK": 5, "WORLD_SIZE": 16}
    assert job_place({"RANK": "2"}) == {"RANK": 2}  # the launcher's word first
    monkeypatch.setitem(sys.modules, "torch.distributed", _distributed(is_available=True, is_initialized=False))
    assert job_place({}) == {}  # no process group yet
    broken = _distributed(is_available=True, is_initialized=True, get_rank=RuntimeError("torn down"))
    monkeypatch.setitem(sys.modules, "torch.distributed", broken)
    assert job_place({}) == {}  # never raises into the job


@pytest.mark.parametrize(
    ("name", "rank"),
    [
        (oom_file_name(4242, "20261204-010203", 1, {"RANK": 3}), 3),
        (oom_file_name(4242, "20261204-010203", 2, {}), None),  # the old name: no rank, no step, still read
        ("oom-4242-20261204-010203-1.pickle", None),
    ],
)
def test_oom_names_parse(name: str, rank: int | None) -> None:
    assert parse_rank_name(name) == (rank, None)


def test_an_oom_file_carries_the_rank(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RANK", "3")
    monkeypatch.setenv("WORLD_SIZE", "4")
    monkeypatch.delenv("LOCAL_RANK", raising=False)
    server, backend = serve_simulated(tmp_path)
    try:
        with ProbeClient(server.path) as client:
            hello = client.hello()
        assert hello["rank"] == 3 and hello["job"] == {"RANK": 3, "WORLD_SIZE": 4}
        stream = EventStream(server.path)
        with pytest.raises(RuntimeError, match="out of memory"):
            backend.malloc(8 * GiB, [])
        event = stream.next_event(timeout=5)
        stream.close()
    finally:
        server.stop()
    assert event is not None
    path = Path(event["path"])
    assert re.fullmatch(rf"oom-rank3-{os.getpid()}-\d{{8}}-\d{{6}}-1\.pickle", path.name)
    assert load_snapshot(path).job == {"RANK": 3, "WORLD_SIZE": 4}
    renamed = path.with_name(f"oom-{os.getpid()}-20261204-010203-1.pickle")  # an old probe's name
    path.rename(renamed)
    (entry,) = summarise_folder(str(renamed.parent), workers=1, use_cache=False).entries
    assert (entry.rank, entry.rank_from_name) == (3, True)  # placed by the snapshot's own record


def test_a_second_file_of_one_rank_gets_its_pid() -> None:
    assert rank_file_name(3, 10, set()) == "rank3.pickle"
    assert rank_file_name(3, 11, {"rank3.pickle"}) == "rank3-pid11.pickle"
    assert rank_file_name(None, 12, set()) == "pid12.pickle"
    assert [parse_rank_name(n)[0] for n in ("rank3.pickle", "rank3-pid11.pickle", "pid12.pickle")] == [3, 3, None]


def test_attach_saves_every_rank_into_one_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    sockets = tmp_path / "sockets"  # these jobs' probes only, not the session's others
    monkeypatch.setenv("GPUMEM_GUI_SOCKET_DIR", str(sockets))
    jobs = []
    try:
        for rank in ("0", "1", None):
            if rank is None:
                monkeypatch.delenv("RANK", raising=False)
            else:
                monkeypatch.setenv("RANK", rank)
            jobs.append(start_demo_job("--seconds", "60")[0])
        out = tmp_path / "snapshots"
        assert cli.main(["attach", "--save-ranks", str(out), "--no-trace"]) == 0
        names = sorted(p.name for p in out.iterdir())
        assert names == sorted(["rank0.pickle", "rank1.pickle", f"pid{jobs[2].pid}.pickle"])
        assert load_snapshot(out / "rank1.pickle").job == {"RANK": 1}
        assert "3 snapshot(s) in" in capsys.readouterr().out
        table = summarise_folder(str(out), workers=1, use_cache=False)
        known = {(Path(e.file).name, e.rank) for e in table.entries if e.rank_from_name}
        assert known == {("rank0.pickle", 0), ("rank1.pickle", 1)} and not table.errors  # the third: device index
        # a PID keeps that process and those below it
        assert save_ranks(str(tmp_path / "one"), jobs[1].pid, timeout=60, include_traces=False) == 0
        assert [p.name for p in (tmp_path / "one").iterdir()] == ["rank1.pickle"]
    finally:
        for job in jobs:
            stop(job)
    assert cli.main(["attach", "--save-ranks", str(tmp_path / "none")]) == 2
    assert capsys.readouterr().err.strip().endswith("no running gpumem-gui probe (see `gpumem-gui attach --list`)")
