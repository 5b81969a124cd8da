"""`gpumem-gui ranks`: rank and step from file names, per-rank figures against `report`, OOM ranks and outliers."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import psutil
import pytest

from gpumem_gui import cli
from gpumem_gui.core.allocator.simulator import DeviceAllocatorSim, OutOfMemoryError
from gpumem_gui.core.analysis.ranks import FileSummary, find_outliers, parse_rank_name
from gpumem_gui.core.rules.allocator_constants import MiB
from gpumem_gui.core.snapshot.errors import SnapshotError
from gpumem_gui.sources.rank_folder import RankFolderJob, find_snapshot_files, summarise_folder, worker_count

FIXTURES = Path(__file__).resolve().parents[2] / "shared" / "fixtures" / "snapshots"
BLOCK = 20 * MiB  # a large-pool request of 20 MiB gets a segment of exactly 20 MiB: k live blocks reserve k * 20 MiB

NAMES = [  # worked by hand from what torchtitan, Megatron-Bridge, lmms-engine and scripts write
    ("rank0.pickle", (0, None)),
    ("rank-3.pickle", (3, None)),
    ("rank_4.pkl", (4, None)),
    ("RANK7.pickle", (7, None)),
    ("local_rank2.pickle", (2, None)),
    ("rank2_memory_snapshot.pickle", (2, None)),
    ("snapshot_oom_rank-1_step20.pickle", (1, 20)),
    ("oom_rank3.pickle", (3, None)),
    ("oom_rank3_pid4242_20250101-120000.pickle", (3, None)),
    ("snapshot_3.pickle", (3, None)),  # Megatron-Bridge snapshot_{rank}
    ("snapshot_20251203.pickle", (None, None)),  # a date, not a rank
    ("rank0/step20.pickle", (0, 20)),
    ("iteration_10/rank5_memory_snapshot.pickle", (5, 10)),  # torchtitan
    ("iteration_10_exit/rank5_memory_snapshot.pickle", (5, 10)),
    ("iter_0000100/rank7.pickle", (7, 100)),  # Megatron's iteration folders
    ("global_step300/rank1.pickle", (1, 300)),
    ("step20_rank1.json.gz", (1, 20)),
    ("rank1/step5/memory.pickle", (1, 5)),
    ("memory_snapshot.pickle", (None, None)),
    ("dump_snapshot_a.pickle", (None, None)),
    ("cranks3.pickle", (None, None)),  # "rank" inside a longer word
    ("frank_steps.pickle", (None, None)),
]


@pytest.mark.parametrize(("name", "expected"), NAMES)
def test_rank_and_step_from_names(name: str, expected: tuple[int | None, int | None]) -> None:
    assert parse_rank_name(name) == expected


def _write(path: Path, blocks: int, *, device: int = 0, oom: bool = False) -> None:
    """`blocks` live 20 MiB blocks at the peak, then all freed (kept cached); with `oom`, a refused 1 GiB request."""
    sim = DeviceAllocatorSim(blocks * BLOCK + 10 * MiB, device=device)
    live = [sim.malloc(BLOCK) for _ in range(blocks)]
    if oom:
        with pytest.raises(OutOfMemoryError):
            sim.malloc(1024 * MiB)
    for b in live[1:]:
        sim.free(b)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(pickle.dumps(sim.snapshot(), protocol=4))


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("ranks")
    _write(root / "rank0.pickle", 5)
    _write(root / "rank-1.pickle", 5, device=1)
    _write(root / "oom_rank4_pid77.pickle", 7, device=4)  # the outlier: 140 MiB against a median of 100
    _write(root / "memory_snapshot.pickle", 5, device=6)  # no rank in the name: the device's index
    _write(root / "rank2" / "step20.pickle", 5, device=2)
    _write(root / "snapshot_oom_rank-3_step20.pickle", 5, device=3, oom=True)
    _write(root / "rank_5_step10.pkl", 4, device=5)
    _write(root / "rank_5_step20.pkl", 5, device=5)
    (root / "rank9.pickle").write_bytes(b"\x80\x04not a snapshot")
    (root / "notes.txt").write_text("not looked at")
    return root


# (relative path, rank, step, device, peak blocks, OOMs), worked by hand from the folder above
EXPECTED = [
    ("rank0.pickle", 0, None, 0, 5, 0),
    ("rank-1.pickle", 1, None, 1, 5, 0),
    ("rank2/step20.pickle", 2, 20, 2, 5, 0),
    ("snapshot_oom_rank-3_step20.pickle", 3, 20, 3, 5, 1),
    ("oom_rank4_pid77.pickle", 4, None, 4, 7, 0),
    ("rank_5_step10.pkl", 5, 10, 5, 4, 0),
    ("rank_5_step20.pkl", 5, 20, 5, 5, 0),
    ("memory_snapshot.pickle", 6, None, 6, 5, 0),
]


def test_hand_made_folder(folder: Path) -> None:
    table = summarise_folder(str(folder), workers=2)
    got = [(str(Path(e.file).relative_to(folder)), e.rank, e.step, e.device) for e in table.entries]
    assert got == [row[:4] for row in EXPECTED]
    for e, (_, _, _, _, blocks, ooms) in zip(table.entries, EXPECTED, strict=True):
        assert e.peak_reserved_bytes == e.peak_allocated_bytes == blocks * BLOCK
        assert e.reserved_bytes == blocks * BLOCK  # freed blocks stay cached
        assert e.allocated_bytes == BLOCK  # the first block is kept
        assert e.oom_events == ooms
        assert e.external_fragmentation == 0.0  # at the peak every segment is one allocated block
    assert table.oom_ranks == [3]
    # group "no step": 100, 100, 140, 100 MiB -> median 100 MiB, MAD 0 floored to 1 % of the median (1 MiB):
    # 0.6745 * 40 MiB / 1 MiB = 26.98; step 20: three at 100 MiB (score 0); step 10: one file
    expected = {"rank": 4, "step": None, "pipeline_stage": None, "value": 7 * BLOCK, "median": 5 * BLOCK, "mad": 0}
    assert [o.as_json() for o in table.outliers] == [
        expected | {"metric": "peak_reserved_bytes", "score": 26.98},
        expected | {"metric": "peak_allocated_bytes", "score": 26.98},
    ]
    assert len(table.errors) == 1 and "rank9.pickle" in table.errors[0]
    assert not _workers_left()


def _workers_left() -> list[psutil.Process]:
    # spawn starts one resource tracker per process, which stays: it is not a worker
    return [
        p
        for p in psutil.Process().children(recursive=True)
        if p.is_running() and p.status() != psutil.STATUS_ZOMBIE and "resource_tracker" not in " ".join(p.cmdline())
    ]


def test_json_output_against_report(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["ranks", str(folder), "--json"]) == 0
    out, err = capsys.readouterr()
    data = json.loads(out)
    assert list(data) == ["schema_version", "ranks", "oom_ranks", "outliers", "outlier_rule", "imbalance"]
    assert "rank9.pickle" in err and len(err.strip().splitlines()) == 1  # the unreadable file: stderr, not counted
    assert len(data["ranks"]) == len(EXPECTED)
    keys = ["rank", "step", "file", "device", "peak_reserved_bytes", "peak_allocated_bytes", "reserved_bytes",
            "allocated_bytes", "oom_events", "external_fragmentation", "oom_devices", "parallel",
            "categories_at_peak"]  # fmt: skip
    for entry in data["ranks"]:
        assert list(entry) == keys
        assert cli.main(["report", entry["file"], "--device", str(entry["device"]), "--json"]) == 0
        (device,) = json.loads(capsys.readouterr().out)["devices"]
        for key in ("peak_reserved_bytes", "peak_allocated_bytes", "reserved_bytes", "allocated_bytes", "oom_events"):
            assert entry[key] == device[key], (entry["file"], key)
    assert data["oom_ranks"] == [3]
    assert {(o["rank"], o["metric"]) for o in data["outliers"]} == {
        (4, "peak_reserved_bytes"),
        (4, "peak_allocated_bytes"),
    }


def test_text_output(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["ranks", str(folder)]) == 0
    out = capsys.readouterr().out
    assert "8 snapshot file(s)" in out
    assert [line for line in out.splitlines() if line.startswith("unreadable:")] == [
        line for line in out.splitlines() if "rank9.pickle" in line
    ]
    assert "OOM ranks: 3" in out
    assert "rank 5  10: 80.0 MiB, 20: 100.0 MiB" in out  # one rank's peak over its steps
    assert "rank 4: peak reserved 140.0 MiB (median 100.0 MiB, MAD 0 B, score 27.0)" in out


@pytest.mark.skipif(not FIXTURES.is_dir(), reason="real fixtures absent")
def test_real_fixtures_against_report(capsys: pytest.CaptureFixture[str]) -> None:
    """Every real file: the device with the most reserved at its peak, and its figures as `report` gives them;
    the fragmentation at the peak as `report --at` the moment of the peak gives it."""
    table = summarise_folder(str(FIXTURES))
    assert len(table.entries) == len(list(FIXTURES.glob("*.pickle"))) and not table.errors
    for e in table.entries:
        assert cli.main(["report", e.file, "--json"]) == 0
        devices = json.loads(capsys.readouterr().out)["devices"]
        best = max(devices, key=lambda d: (d["peak_reserved_bytes"], -d["device"]))
        assert e.device == best["device"]
        (mine,) = [d for d in devices if d["device"] == e.device]
        for key in ("peak_reserved_bytes", "peak_allocated_bytes", "reserved_bytes", "allocated_bytes"):
            assert getattr(e, key) == mine[key], (e.file, key)
        assert e.oom_events == sum(d["oom_events"] for d in devices)  # every device's OOMs
        assert e.rank == e.device and not e.rank_from_name
        assert cli.main(["report", e.file, "--device", str(e.device), "--at", str(e.peak_event), "--json"]) == 0
        (at_peak,) = json.loads(capsys.readouterr().out)["devices"]
        assert at_peak["reserved_bytes"] == e.peak_reserved_bytes
        assert e.external_fragmentation == pytest.approx(at_peak["external_fragmentation"], abs=1e-12)
    assert table.oom_ranks == [1]  # constructor's OOM is on its device 1


def test_an_oom_on_a_device_other_than_the_one_that_reserved_the_most(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # one process, two GPUs: GPU 0 reserved 7 blocks, GPU 1 only 2 and then ran out of memory
    _write(tmp_path / "gpu0.pickle", 7, device=0)
    _write(tmp_path / "gpu1.pickle", 2, device=1, oom=True)
    gpu0, gpu1 = (pickle.loads((tmp_path / f"gpu{d}.pickle").read_bytes()) for d in (0, 1))
    both = gpu0 | {
        "segments": gpu0["segments"] + gpu1["segments"],
        "device_traces": [gpu0["device_traces"][0], gpu1["device_traces"][1]],
    }
    folder = tmp_path / "run"
    folder.mkdir()
    (folder / "rank_2.pickle").write_bytes(pickle.dumps(both, protocol=4))
    assert sum(e["action"] == "oom" for t in both["device_traces"] for e in t) == 1  # the raw file's one OOM
    table = summarise_folder(str(folder))
    (e,) = table.entries
    assert e.device == 0  # the figures are the device that reserved the most
    assert e.oom_events == 1 and e.oom_devices == (1,)
    assert table.oom_ranks == [2]
    assert cli.main(["ranks", str(folder), "--json"]) == 0
    (entry,) = json.loads(capsys.readouterr().out)["ranks"]
    assert (entry["device"], entry["oom_events"], entry["oom_devices"]) == (0, 1, [1])
    assert cli.main(["ranks", str(folder)]) == 0
    out = capsys.readouterr().out
    assert "OOM ranks: 2" in out
    assert "rank 2: OOM on device 1 (its figures are device 0's, the one that reserved the most)" in out


def test_empty_and_missing_folders(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["ranks", str(tmp_path), "--json"]) == 2  # nothing to compare is no answer (tests/test_ranks_trust)
    out, err = capsys.readouterr()
    assert out == "" and "no snapshot files" in err
    assert cli.main(["ranks", str(tmp_path / "absent")]) == 2
    assert "not a folder" in capsys.readouterr().err
    with pytest.raises(SnapshotError):
        find_snapshot_files(tmp_path / "absent")


def test_only_unreadable_files_fail(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "rank0.pickle").write_bytes(b"garbage")
    assert cli.main(["ranks", str(tmp_path), "--workers", "1"]) == 2
    assert "unreadable:" in capsys.readouterr().out


def test_worker_count_bounded_by_cores_files_and_memory() -> None:
    gib = 2**30
    assert worker_count([], cpus=8, available=64 * gib) == 1
    assert worker_count([10 * 2**20] * 64, cpus=8, available=64 * gib) == 8
    assert worker_count([10 * 2**20] * 3, cpus=8, available=64 * gib) == 3
    # 2 GiB files: 200 MiB + 20 GiB each; half of 64 GiB holds one
    assert worker_count([2 * gib] * 64, cpus=8, available=64 * gib) == 1
    assert worker_count([2 * gib] * 64, cpus=8, available=1 * gib) == 1  # never none


def test_outliers_need_three_of_a_step() -> None:
    def entry(rank: int, peak: int, step: int | None = None) -> FileSummary:
        return FileSummary(f"r{rank}", rank, True, step, 0, peak, peak, 0, 0, 0, 0.0, -1, 0, None)

    assert find_outliers([entry(0, 100), entry(1, 200)]) == []
    found = find_outliers([entry(0, 100), entry(1, 110), entry(2, 111), entry(3, 100, step=1)])
    # median of 100, 110, 111 is 110: 111 is not 10 % above it, and rank 3 is alone at its step
    assert found == []
    found = find_outliers([entry(0, 100), entry(1, 100), entry(2, 111)])
    assert [(o.rank, o.metric, o.value, o.median) for o in found] == [
        (2, "peak_reserved_bytes", 111, 100),
        (2, "peak_allocated_bytes", 111, 100),
    ]


def test_cancel_stops_the_workers(folder: Path) -> None:
    job = RankFolderJob(str(folder), workers=2)
    seen = []

    def first(done: object) -> None:
        seen.append(done)
        job.cancel()

    table = job.run(first)
    assert len(seen) == 1 and len(table.entries) + len(table.errors) <= len(job.paths)
    assert not _workers_left()
