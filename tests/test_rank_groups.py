"""`ranks` by parallel group: stages and tensor-parallel ranks from the metadata or the names, outliers by the MAD of
their stage's peaks, the imbalance between stages in words with the category that makes it."""

from __future__ import annotations

import json
import pickle
from pathlib import Path
from typing import Any

import pytest

from gpumem_gui import cli
from gpumem_gui.core.allocator.simulator import DeviceAllocatorSim
from gpumem_gui.core.analysis.rank_groups import parallel_coordinates, robust_scores
from gpumem_gui.core.rules.allocator_constants import MiB
from gpumem_gui.sources.rank_folder import summarise_folder

BLOCK = 20 * MiB  # a 20 MiB request gets a segment of exactly 20 MiB
TORCH = "/venv/lib/python3.11/site-packages/torch"
MODULE = {"name": "<module>", "filename": "train.py", "line": 1}
MOVE = [  # model.to("cuda"): parameters
    {"name": "_apply", "filename": f"{TORCH}/nn/modules/module.py", "line": 7},
    {"name": "to", "filename": f"{TORCH}/nn/modules/module.py", "line": 7},
    MODULE,
]
FORWARD = [
    {"name": "attn", "filename": "model/attn.py", "line": 7},
    {"name": "forward", "filename": "model/net.py", "line": 7},
    MODULE,
]
BACKWARD = [{"name": "backward", "filename": f"{TORCH}/_tensor.py", "line": 7}, MODULE]


def _rank_file(path: Path, activations: int, metadata: Any = None, job: dict[str, int] | None = None) -> None:
    """Five 20 MiB parameter blocks, then `activations` 20 MiB activations freed by backward: the peak is
    (5 + activations) blocks, of which `activations` are activations. `metadata` goes on every trace entry
    (torch.cuda.memory._set_memory_metadata); `job` is what the probe records of RANK, LOCAL_RANK, WORLD_SIZE."""
    sim = DeviceAllocatorSim(64 * BLOCK)
    for _ in range(5):
        sim.malloc(BLOCK, frames=MOVE)
    live = [sim.malloc(BLOCK, frames=FORWARD) for _ in range(activations)]
    for block in reversed(live):
        sim.free(block, frames=BACKWARD)
    snap = sim.snapshot()
    if metadata is not None:
        for trace in snap["device_traces"]:
            for entry in trace:
                entry["user_metadata"] = metadata
    if job is not None:
        snap["recorded_with"] = {"job": job}
    path.write_bytes(pickle.dumps(snap, protocol=4))


@pytest.fixture(scope="module")
def pipeline(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two pipeline stages of four ranks, tensor-parallel rank = rank % 2. Stage 0 keeps 4 activation blocks (rank 2:
    7), stage 1 keeps 2. The stage comes from the metadata, as a dict (ranks 0-3), a JSON string (4-6), or with the
    rank from the probe's record (`last.pickle`, rank 7)."""
    root = tmp_path_factory.mktemp("pipeline")
    for rank in range(7):
        stage, activations = (0, 7 if rank == 2 else 4) if rank < 4 else (1, 2)
        parallel = {"RANK": rank, "parallel": {"pp": stage, "tp": rank % 2}}
        _rank_file(root / f"rank{rank}.pickle", activations, parallel if rank < 4 else json.dumps(parallel))
    _rank_file(root / "last.pickle", 2, {"parallel": {"pp_rank": 1, "tp_rank": 1}}, job={"RANK": 7, "WORLD_SIZE": 8})
    return root


def test_outliers_are_found_within_their_stage(pipeline: Path) -> None:
    table = summarise_folder(str(pipeline), workers=2, use_cache=False)
    assert [e.rank for e in table.entries] == list(range(8))
    assert [e.parallel for e in table.entries] == [
        {"pipeline_stage": r // 4, "tensor_parallel_rank": r % 2} for r in range(8)
    ]
    # stage 0: 180, 180, 240, 180 MiB: median 180 MiB, MAD 0 floored to 1.8 MiB; 0.6745 * 60 / 1.8 = 22.48.
    # All eight together (median 160, MAD 20 MiB) would score rank 2 only 0.6745 * 80 / 20 = 2.70: no outlier.
    assert [o.as_json() for o in table.outliers] == [
        {"rank": 2, "step": None, "pipeline_stage": 0, "metric": metric, "value": 12 * BLOCK,
         "median": 9 * BLOCK, "mad": 0, "score": 22.48}
        for metric in ("peak_reserved_bytes", "peak_allocated_bytes")
    ]  # fmt: skip
    # stage 0's median 180 MiB against stage 1's 140 MiB: 28.6 % more; activations 80 against 40 MiB, parameters
    # 100 against 100. Tensor-parallel ranks 0 and 1 both have a median of 160 MiB: no imbalance.
    (imbalance,) = table.imbalance
    assert imbalance.text == (
        "stage 0's ranks peak 29% above the others (180.0 MiB against 140.0 MiB, the medians): their activations"
        " (+40.0 MiB)"
    )
    assert imbalance.as_json() == {
        "dimension": "pipeline_stage",
        "group": 0,
        "step": None,
        "ranks": [0, 1, 2, 3],
        "median_peak_reserved_bytes": 9 * BLOCK,
        "others_median_peak_reserved_bytes": 7 * BLOCK,
        "excess": 0.2857,
        "category": "activations",
        "category_excess_bytes": 2 * BLOCK,
        "text": imbalance.text,
    }


def test_the_json_and_text_carry_the_groups(pipeline: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["ranks", str(pipeline), "--json", "--no-cache"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["outlier_rule"] == {"score": "modified z-score (Iglewicz-Hoaglin)", "threshold": 3.5}
    assert [i["text"] for i in data["imbalance"]] == [
        "stage 0's ranks peak 29% above the others (180.0 MiB against 140.0 MiB, the medians): their activations"
        " (+40.0 MiB)"
    ]
    rank2 = data["ranks"][2]
    assert rank2["categories_at_peak"] == {"parameters": 5 * BLOCK, "activations": 7 * BLOCK}
    assert rank2["parallel"] == {"pipeline_stage": 0, "tensor_parallel_rank": 0}
    assert cli.main(["ranks", str(pipeline), "--no-cache"]) == 0
    out = capsys.readouterr().out
    assert "  rank 2 stage 0: peak reserved 240.0 MiB (median 180.0 MiB, MAD 0 B, score 22.5)  rank2.pickle" in out
    assert "imbalance: stage 0's ranks peak 29% above the others" in out


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("pp1_tp0_rank3.pickle", {"pipeline_stage": 1, "tensor_parallel_rank": 0}),
        ("stage2/rank5.pickle", {"pipeline_stage": 2}),
        ("stage-3/dp1/rank5.pickle", {"pipeline_stage": 3, "data_parallel_rank": 1}),
        ("step20_rank1.pickle", {}),  # "step" is no stage, and ep/cp are never read from names (epoch, checkpoint)
        ("app3_http2_rank1.pickle", {}),  # pp and tp inside longer words
        ("ep3_cp1_rank0.pickle", {}),
    ],
)
def test_groups_from_names(name: str, expected: dict[str, int]) -> None:
    assert parallel_coordinates({}, name) == expected


def test_metadata_before_names() -> None:
    metadata = {"parallel": {"Pipeline-Stage": "2", "ep": 1, "tp": True, "dp": -1}}  # a bool or a negative: no index
    assert parallel_coordinates(metadata, "pp5_tp3/rank1.pickle") == {
        "pipeline_stage": 2,
        "tensor_parallel_rank": 3,
        "expert_parallel_rank": 1,
    }


def test_robust_scores_by_hand() -> None:
    # 10, 11, 12, 13, 40: median 12, deviations 2, 1, 0, 1, 28 -> MAD 1 (above the floor of 0.12);
    # 40 scores 0.6745 * 28 = 18.886, 10 scores -1.349
    scores = robust_scores([10, 11, 12, 13, 40])
    assert [(d.median, d.mad) for d in scores] == [(12, 1)] * 5
    assert [d.score for d in scores] == pytest.approx([-1.349, -0.6745, 0.0, 0.6745, 18.886])
    # a spread below 1 % of the median counts as 1 %: 1000 against 1002, 1000, 1000 is 0.6745 * 2 / 10 = 0.135
    assert robust_scores([1000, 1000, 1002, 1000])[2].score == pytest.approx(0.1349)


def test_the_window_says_the_rule_and_the_imbalance(qtbot: Any, pipeline: Path) -> None:
    """The ranks tab's line names the outlier rule it applied (not "10 % above the median") and the imbalance."""
    from gpumem_gui.views.compare.ranks_view import RanksView  # noqa: PLC0415 (Qt only here)

    view = RanksView()
    qtbot.addWidget(view)
    view.set_table(summarise_folder(str(pipeline)), str(pipeline))
    line = view.status.text()
    assert "modified z-score" in line and "10 %" not in line and "rank 2 (orange)" in line
    assert "stage 0's ranks peak 29% above the others" in line
