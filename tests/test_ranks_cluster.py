"""`ranks` on a Dask cluster, in shards and from the cache give the local pool's --json; the per-rank summary's
figures against the raw trace."""

from __future__ import annotations

import contextlib
import json
import os
import pickle
import re
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from gpumem_gui import api, cli
from gpumem_gui.core.allocator.simulator import DeviceAllocatorSim, OutOfMemoryError
from gpumem_gui.core.analysis import rank_summary
from gpumem_gui.core.analysis.rank_summary import CURVE_POINTS, envelope, summarise_path
from gpumem_gui.core.rules.allocator_constants import MiB
from gpumem_gui.sources import rank_cluster, rank_folder
from gpumem_gui.sources.rank_folder import RankFolderJob
from gpumem_gui.sources.rank_shards import parse_shard, shard_of
from gpumem_gui.sources.summary_cache import SummaryCache
from tests.conftest import wait_until

distributed = pytest.importorskip("distributed")
dask = pytest.importorskip("dask")
BLOCK = 20 * MiB


def _write(path: Path, blocks: int, *, device: int = 0, oom: bool = False, rounds: int = 1) -> None:
    """`rounds` times: `blocks` live 20 MiB blocks, then all but one freed; with `oom`, a refused 1 GiB request."""
    sim = DeviceAllocatorSim(blocks * BLOCK + 10 * MiB, device=device)
    for _ in range(rounds):
        live = [sim.malloc(BLOCK) for _ in range(blocks)]
        for b in live[1:]:
            sim.free(b)
        sim.free(live[0])
    if oom:
        with pytest.raises(OutOfMemoryError):
            sim.malloc(1024 * MiB)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(pickle.dumps(sim.snapshot(), protocol=4))


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("cluster_ranks")
    for rank in range(6):
        _write(root / f"rank{rank}.pickle", 9 if rank == 4 else 5, device=rank % 2)
    _write(root / "step20" / "rank6.pickle", 5, oom=True)
    (root / "rank9.pickle").write_bytes(b"\x80\x04not a snapshot")
    return root


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    """Two worker processes, one thread each: the files are read in other processes, as on a real cluster. A task
    whose worker dies is tried once more, then KilledWorker (the default is 3 more: the test would kill 4 workers)."""
    with (
        dask.config.set({"distributed.scheduler.allowed-failures": 1}),
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as local,
        distributed.Client(local) as client,
    ):
        yield client


def _ranks_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert cli.main(["ranks", *args, "--json"]) == 0
    out, err = capsys.readouterr()
    assert "rank9.pickle" in err  # the unreadable rank is told, one line, and the others finish
    document: dict[str, Any] = json.loads(out)
    return document


@pytest.fixture(scope="module")
def local_json(folder: Path) -> dict[str, Any]:
    # the CLI's own document, read by the local pool, no cache
    return api.ranks(folder, workers=2).to_dict() | {}


def test_the_local_pool_reads_the_folder(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    document = _ranks_json(capsys, str(folder), "--no-cache", "--workers", "2")
    assert [r["rank"] for r in document["ranks"]] == [0, 1, 2, 3, 4, 5, 6]
    assert document["oom_ranks"] == [6]
    assert {(o["rank"], o["metric"]) for o in document["outliers"]} >= {(4, "peak_reserved_bytes")}


def test_a_dask_cluster_gives_the_local_pools_json(
    folder: Path, cluster: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    local = _ranks_json(capsys, str(folder), "--no-cache", "--workers", "2")
    address = cluster.scheduler.address
    assert _ranks_json(capsys, str(folder), "--no-cache", "--scheduler", address) == local


def test_a_scheduler_file_names_the_cluster(
    folder: Path, cluster: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scheduler_file = tmp_path / "scheduler.json"
    scheduler_file.write_text(json.dumps({"address": cluster.scheduler.address}))
    local = _ranks_json(capsys, str(folder), "--no-cache", "--workers", "2")
    assert _ranks_json(capsys, str(folder), "--no-cache", "--scheduler-file", str(scheduler_file)) == local


def test_an_in_process_scheduler_through_the_api(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    local = api.ranks(folder, workers=2).to_dict()
    monkeypatch.setenv("GPUMEM_GUI_CACHE_DIR", str(folder.parent / "empty-cache"))  # nothing cached: all read
    with distributed.Client(processes=False, n_workers=1, threads_per_worker=2, dashboard_address=":0") as client:
        assert api.ranks(folder, scheduler=client).to_dict() == local


def test_shards_merged_give_the_same_json(folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    local = _ranks_json(capsys, str(folder), "--no-cache", "--workers", "2")
    out = tmp_path / "summaries"
    for index in range(3):
        assert cli.main(["ranks", "summarize", str(folder), "--shard", f"{index}/3", "--out", str(out)]) == 0
    capsys.readouterr()
    assert len(list(out.iterdir())) == 8  # 7 ranks and the unreadable one, each its own file
    assert _ranks_json(capsys, str(out)) == local


def test_shards_split_every_file_once() -> None:
    files = [f"rank{i}.pickle" for i in range(10)]
    shards = [shard_of(files, i, 4) for i in range(4)]
    assert sorted(f for shard in shards for f in shard) == sorted(files) and [len(s) for s in shards] == [3, 3, 2, 2]
    for bad in ("3/3", "x/2", "1", "-1/2"):
        with pytest.raises(ValueError, match="--shard"):
            parse_shard(bad)


def test_the_second_run_reads_no_file(folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cache = SummaryCache(tmp_path / "cache")
    first = RankFolderJob(str(folder), workers=2, cache=cache).run()

    monkeypatch.setattr(
        RankFolderJob, "_read_in_pool", lambda self, files, record: [record(p, "read") for p, _ in files] and []
    )
    again = RankFolderJob(str(folder), workers=2, cache=cache).run()
    assert again.as_json() == first.as_json()
    assert again.errors == ["read"]  # only the unreadable file (nothing cached for it) went to the pool
    os.utime(folder / "rank0.pickle", ns=(1, 1))  # rewritten since: its summary is read again
    read: list[str] = []
    monkeypatch.setattr(
        RankFolderJob, "_read_in_pool", lambda self, files, record: read.extend(p for p, _ in files) or []
    )
    RankFolderJob(str(folder), workers=2, cache=cache).run()
    assert sorted(Path(p).name for p in read) == ["rank0.pickle", "rank9.pickle"]


def test_the_summary_against_the_raw_trace(tmp_path: Path) -> None:
    path = tmp_path / "rank_3_step7.pickle"
    _write(path, 4, device=1, oom=True, rounds=300)
    raw = pickle.loads(path.read_bytes())
    oom = next(e for e in raw["device_traces"][1] if e["action"] == "oom")
    summary = summarise_path(str(path), path.name)
    assert (summary["rank"], summary["step"], summary["device"]) == (3, 7, 1)
    assert summary["ooms"] == [
        {"device": 1, "event": len(raw["device_traces"][1]) - 1, "requested_bytes": oom["size"],
         "device_free_bytes": oom["device_free"]}
    ]  # fmt: skip
    peak = summary["peaks"]["allocated"]["bytes"]
    assert summary["peaks"]["reserved"]["bytes"] == summary["peak_reserved_bytes"] >= peak > 0
    assert peak % BLOCK == 0 and summary["peaks"]["requested"]["bytes"] == peak  # 20 MiB requests, none rounded
    curves = summary["curves"]
    assert len(curves["event"]) == CURVE_POINTS < summary["trace_events"]
    assert max(curves["allocated_max"]) == peak and max(curves["reserved_max"]) == summary["peak_reserved_bytes"]
    assert min(curves["allocated_min"]) == 0
    at_peak = summary["peak_reserved_bytes"]  # every block at the reserved peak is a 20 MiB one of the same line
    assert len(summary["top_sites"]) == 1 and summary["top_sites"][0]["bytes"] <= at_peak
    assert sum(summary["categories_at_peak"].values()) == summary["top_sites"][0]["bytes"]
    assert summary["file_stat"]["size"] == path.stat().st_size
    assert len(json.dumps(summary)) < 40_000  # however long the trace


def test_envelope_keeps_a_one_event_peak() -> None:
    values = np.zeros(10_000, np.int64)
    values[4321] = 7
    found = envelope(values, 512)
    assert len(found["event"]) == 512 and max(found["max"]) == 7 and min(found["min"]) == 0
    assert envelope(np.array([5, 1, 9], np.int64), 512) == {"event": [0, 1, 2], "min": [5, 1, 9], "max": [5, 1, 9]}


def test_a_file_that_changes_mid_read_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _write(tmp_path / "rank0.pickle", 3)
    _write(tmp_path / "rank1.pickle", 3)
    loader = rank_summary.load_snapshot

    def load_and_rewrite(path: str) -> Any:
        snapshot = loader(path)
        if path.endswith("rank1.pickle"):
            with open(path, "ab") as f:  # a job writing the file again while it is read
                f.write(b"\0")
        return snapshot

    monkeypatch.setattr(rank_summary, "load_snapshot", load_and_rewrite)
    results = [rank_folder._summarise(str(tmp_path / n), n) for n in ("rank0.pickle", "rank1.pickle")]
    assert isinstance(results[0], dict)
    assert (
        results[1] == f"the file changed while it was read; read it again when it is written ({tmp_path}/rank1.pickle)"
    )


def test_without_dask_the_scheduler_flag_says_what_to_install(
    folder: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed -> ImportError
    assert cli.main(["ranks", str(folder), "--scheduler", "tcp://127.0.0.1:1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["gpumem-gui ranks: --scheduler needs Dask: pip install 'gpumem-gui[cluster]' (or: pip install "
                   "'dask[distributed]')"]  # fmt: skip


def test_no_scheduler_there_is_one_line(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        rank_cluster.CONNECT_TIMEOUT_S = 1
        try:
            assert cli.main(["ranks", str(folder), "--scheduler", f"tcp://127.0.0.1:{port}"]) == 2
        finally:
            rank_cluster.CONNECT_TIMEOUT_S = 20
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(
        f"gpumem-gui ranks: cannot reach the Dask scheduler tcp://127.0.0.1:{port}"
    )


def _reading(reader: rank_cluster.ClusterReader, files: list[Path]) -> tuple[threading.Thread, dict[str, Any]]:
    """ClusterReader.read of `files` in a thread; the results fill the returned dict as they come."""
    results: dict[str, Any] = {}

    def record(path: str, result: dict[str, Any] | str) -> None:
        results[Path(path).name] = result

    thread = threading.Thread(
        target=reader.read, args=([(str(f), f.name) for f in files], record, threading.Event()), daemon=True
    )
    thread.start()
    return thread, results


def _blocking_file(path: Path) -> Path:
    """A named pipe: opening it to read waits until a writer comes, so the task that reads it is stuck mid-task."""
    os.mkfifo(path)
    return path


def _release(fifo: Path) -> None:
    """Let a reader still stuck on `fifo` go (nobody reading: nothing to do)."""
    with contextlib.suppress(OSError):
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))


def test_a_worker_that_dies_mid_task_costs_only_its_file(cluster: Any, tmp_path: Path) -> None:
    for rank in range(2):
        _write(tmp_path / f"rank{rank}.pickle", 3)
    fifo = _blocking_file(tmp_path / "rank2.pickle")
    thread, results = _reading(rank_cluster.ClusterReader(cluster), sorted(tmp_path.iterdir()))
    try:
        for _ in range(2):  # the scheduler tries it again on another worker; the second death is the file's doing
            wait_until(lambda: len(results) == 2 and any(cluster.processing().values()), timeout=60)
            ((address, _keys),) = [(a, k) for a, k in cluster.processing().items() if k]
            os.kill(cluster.run(os.getpid, workers=[address])[address], signal.SIGKILL)
            wait_until(lambda gone=address: not cluster.processing().get(gone), timeout=60)
        thread.join(timeout=60)
        assert not thread.is_alive()
    finally:
        _release(fifo)
    assert isinstance(results["rank0.pickle"], dict) and isinstance(results["rank1.pickle"], dict)
    assert results["rank2.pickle"] == f"every Dask worker that read it died (KilledWorker) ({fifo})"


def test_a_scheduler_that_goes_away_ends_the_reading(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A scheduler (and its worker) in a process of its own, killed while a file is being read: the files not yet
    back get one line each, those read are kept, nothing waits; then the command says in one line it is gone."""
    _write(tmp_path / "rank0.pickle", 3)
    fifo = _blocking_file(tmp_path / "rank1.pickle")
    script = (
        "import distributed, time\n"
        "if __name__ == '__main__':\n"
        "    c = distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, protocol='tcp',\n"
        "        dashboard_address=':0')\n"
        "    print(c.scheduler_address, flush=True)\n"
        "    time.sleep(300)\n"
    )
    head = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        assert head.stdout is not None
        address = head.stdout.readline().strip()
        monkeypatch.setattr(rank_cluster, "CONNECT_TIMEOUT_S", 2)
        reader = rank_cluster.ClusterReader.connect(address)
        thread, results = _reading(reader, [tmp_path / "rank0.pickle", fifo])
        wait_until(lambda: "rank0.pickle" in results, timeout=60)
        head.kill()
        thread.join(timeout=30)
        assert not thread.is_alive()
        reader.close()
    finally:
        head.kill()
        head.wait()
        if head.stdout is not None:
            head.stdout.close()
        _release(fifo)
    assert isinstance(results["rank0.pickle"], dict)
    assert re.fullmatch(rf"the Dask scheduler went away before it was read \(\w+\) \({fifo}\)", results["rank1.pickle"])
    assert cli.main(["ranks", str(tmp_path), "--scheduler", address]) == 2  # a scheduler no longer there
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line.startswith(f"gpumem-gui ranks: cannot reach the Dask scheduler {address}")
