"""The private pool a replay assumed where the trace names none is said: explain's text, JSON and panel, and the What
if... view's summary (in French too), on the H200's real recorded file; a file whose replay needs no pool says
nothing of it and its explain --json keeps version 2's keys."""

from __future__ import annotations

import dataclasses
import json
import tarfile
from pathlib import Path
from typing import Any

import pytest

from gpumem_gui.assets import example_path
from gpumem_gui.cli.main import main
from gpumem_gui.core.allocator.inferred_pools import INFERRED_POOL, InferredPool, InferredSegment
from gpumem_gui.core.allocator.remedies import explain
from gpumem_gui.core.allocator.replay import replay
from gpumem_gui.core.analysis.explain_output import pools_note
from gpumem_gui.core.snapshot.loader import load_snapshot
from gpumem_gui.core.snapshot.model import Action
from gpumem_gui.document.document import SnapshotDocument
from gpumem_gui.document.staging import WhatIfRun, replay_document
from gpumem_gui.views.common import language
from gpumem_gui.views.common.sentences import said
from gpumem_gui.views.compare.whatif_view import WhatIfView
from tests.test_explain_panel import _panel
from tests.test_json_schemas import validate
from tests.test_replay_unnamed_pool import H200_POOL_SEGMENTS
from tests.translation_walk import shown_text

MiB = 2**20
N = "\u202f"  # French's narrow no-break space
TARBALL = Path(__file__).parent.parent / "benchmarks/gpu_check/measured/2026-12-04-h200-stop44/gpu-check.tar.gz"
EXPLAIN_NOTE = "The replays here assumed a private pool the trace does not name"
WHATIF_NOTE = "The replay assumed a private pool the trace does not name"
# explain --json's keys at schema version 2, before the pools
VERSION_2_KEYS = {
    "schema_version",
    "file",
    "device",
    "moment",
    "request_bytes",
    "device_free_bytes",
    "allocated_bytes",
    "reserved_bytes",
    "free_bytes",
    "largest_free_block_bytes",
    "by_site",
    "by_category",
    "oom",
    "category_source",
    "category_rules",
    "findings",
    "remedies",
}


@pytest.fixture
def real(tmp_path: Path) -> Path:
    """The H200's recorded run under the default settings: torch 2.12 (no pool_id), a MemPool deleted before the
    snapshot, a forced OOM."""
    with tarfile.open(TARBALL) as tar:
        tar.extractall(tmp_path, filter="data")
    (path,) = tmp_path.glob("*/real-default.pickle")
    return path


def _recorded_pool_segments(path: Path) -> list[tuple[int, int]]:
    """(event, size) of each segment the recorded allocator made for the MemPool, read off the raw trace at the
    events the gpu-check sequence names (test_replay_unnamed_pool's H200_POOL_SEGMENTS)."""
    trace = load_snapshot(path).trace(0)
    out = []
    for event in H200_POOL_SEGMENTS["default"]:
        assert trace.action[event] == Action.SEGMENT_ALLOC
        out.append((event, int(trace.size[event])))
    return out


def _sizes_english(sizes: list[int]) -> str:
    return ", ".join(f"{s / MiB:.1f} MiB" for s in sizes)


def test_explain_text_and_json_say_the_pool(real: Path, capsys: pytest.CaptureFixture[str]) -> None:
    made = _recorded_pool_segments(real)
    sizes = [s for _, s in made]
    assert len(sizes) == 4 and all(s % (2 * MiB) == 0 for s in sizes)
    assert main(["explain", str(real)]) == 0
    text = capsys.readouterr().out
    (line,) = [line for line in text.splitlines() if line.startswith(EXPLAIN_NOTE)]
    assert f"inferred from 4 segments ({_sizes_english(sizes)}) the recorded allocator made" in line
    # said among what to try, after how the recorded settings replay and before the first setting's verdict
    lines = text.splitlines()
    at = lines.index(line)
    assert lines[at - 1].startswith("Replayed under the recorded settings")
    assert lines[at + 1].startswith("With ")
    assert main(["explain", str(real), "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    validate("explain", document)
    assert document["schema_version"] == 3
    (pool,) = document["inferred_private_pools"]
    assert pool["pool_id"] == [INFERRED_POOL, 1]
    assert [(s["event"], s["size"]) for s in pool["segments"]] == made
    # the same pool the replay of the recorded settings infers (replay --json's entry)
    assert document["inferred_private_pools"] == replay(load_snapshot(real)).as_dict()["inferred_private_pools"]
    assert line in document["findings"]


def test_a_file_without_an_unnamed_pool_says_nothing_of_one(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(example_path("fragmented_oom"))
    assert main(["explain", path]) == 0
    assert "private pool the trace does not name" not in capsys.readouterr().out
    assert main(["explain", path, "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    validate("explain", document)
    assert set(document) == VERSION_2_KEYS | {"inferred_private_pools"}
    assert document["inferred_private_pools"] == []
    assert not any("private pool the trace does not name" in f for f in document["findings"])


def test_the_explain_panel_says_the_pool_in_english_and_french(qtbot: Any, real: Path) -> None:
    found = explain(load_snapshot(real), parallel=False)
    sizes = [s for _, s in _recorded_pool_segments(real)]
    panel = _panel(qtbot, found)
    text = panel.text_content()
    assert f"{EXPLAIN_NOTE} (a MemPool or CUDA graph freed before the snapshot), inferred from 4 segments" in text
    assert _sizes_english(sizes) in text
    try:
        language.set_language("fr")
        panel.show_explanation(found)
        text = panel.text_content()
        fr_sizes = ", ".join(f"{s / MiB:.1f}\u00a0Mio".replace(".", ",") for s in sizes)
        assert "Les rejeux ici ont supposé un pool privé que la trace ne nomme pas" in text
        # each size's no-break space kept in the document (toPlainText, Qt's own, writes U+00A0 as a plain space)
        raw = panel.text.document().toRawText()
        assert f"déduit de 4 segments ({fr_sizes}) que l'allocateur enregistré" in raw
        # the sentence said with its narrow no-break space (the panel's HTML import makes it a plain space, as it does
        # every French sentence's there)
        assert "avait de la place : le rejeu de chaque remède" in text.replace(N, " ")
        assert f"avait de la place{N}: le rejeu de chaque remède" in said(pools_note(found.pools) or "")
    finally:
        language.set_language("en")
    clean = _panel(qtbot, explain(load_snapshot(example_path("fragmented_oom")), parallel=False))
    assert "private pool" not in clean.text_content()


def _whatif(qtbot: Any, run: WhatIfRun) -> WhatIfView:
    view = WhatIfView(run)
    qtbot.addWidget(view)
    view.resize(1200, 800)
    return view


def test_the_whatif_view_says_the_pool_it_kept_apart(qtbot: Any, real: Path) -> None:
    sizes = [s for _, s in _recorded_pool_segments(real)]
    run = replay_document(SnapshotDocument(load_snapshot(real)), ["expandable_segments:True"], None, lambda: None)
    assert run.result.pools_carried  # carried from the recorded settings' replay, not inferred under these
    view = _whatif(qtbot, run)
    summary = view.summary.text()
    assert (
        f"<br>{WHATIF_NOTE} (a MemPool or CUDA graph freed before the snapshot), inferred from 4 segments"
        f" ({_sizes_english(sizes)}) the recorded allocator made although the default pool had room; each replay"
        " keeps that pool's memory apart." in summary
    )
    try:
        language.set_language("fr")  # the view words itself again on Qt's LanguageChange (a posted event)
        qtbot.waitUntil(lambda: "réexécution" in view.summary.text())
        summary = shown_text(view.summary.text())  # the words shown: each U+202F sits in a span of the markup
        fr_sizes = ", ".join(f"{s / MiB:.1f}\u00a0Mio".replace(".", ",") for s in sizes)
        assert (
            "La réexécution a supposé un pool privé que la trace ne nomme pas (un MemPool ou un graphe CUDA libéré"
            f" avant l'instantané), déduit de 4 segments ({fr_sizes})" in summary
        )
        assert f"avait de la place{N}; chaque réexécution garde la mémoire de ce pool à part." in summary
        assert WHATIF_NOTE not in summary
    finally:
        language.set_language("en")
    # a file whose replay needs no pool: the summary as before, nothing of a pool
    document = SnapshotDocument(load_snapshot(example_path("fragmented_oom")))
    clean = replay_document(document, ["expandable_segments:True"], None, lambda: None)
    assert clean.result.inferred_pools == []
    assert "private pool" not in _whatif(qtbot, clean).summary.text()


def test_several_pools_and_many_segments_are_counted_and_summed(qtbot: Any, real: Path) -> None:
    run = replay_document(SnapshotDocument(load_snapshot(real)), ["expandable_segments:True"], None, lambda: None)
    # two pools, five segments of 2, 4, 6, 8 and 10 MiB: more than the view lists, said as their 30 MiB total
    pools = [
        InferredPool((INFERRED_POOL, k + 1), tuple(InferredSegment(i, i * MiB, i * 2 * MiB, None, i) for i in group))
        for k, group in enumerate(((1, 2), (3, 4, 5)))
    ]
    result = dataclasses.replace(run.result, inferred_pools=pools)
    view = _whatif(qtbot, dataclasses.replace(run, result=result))
    assert (
        "The replay assumed 2 private pools the trace does not name (MemPools or CUDA graphs freed before the"
        " snapshot), inferred from 5 segments (30.0 MiB in all)" in view.summary.text()
    )
    try:
        language.set_language("ro")
        qtbot.waitUntil(lambda: "rejucare" in view.summary.text())
        assert (
            "Rejucarea a presupus 2 pool-uri private pe care jurnalul de evenimente nu le numește (MemPool-uri sau"
            " grafuri CUDA eliberate înainte de instantaneu), deduse din 5 segmente (30,0\u00a0MiB în total)"
            in view.summary.text()
        )
    finally:
        language.set_language("en")
