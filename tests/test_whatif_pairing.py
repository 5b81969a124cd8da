"""The what-if comparison pairs the recorded and replayed runs by the same recorded request, not by event number."""

from __future__ import annotations

from typing import Any

from gpumem_gui.core.allocator.remedies import _with_smaller_request
from gpumem_gui.core.allocator.replay import replay
from gpumem_gui.core.snapshot.convert import snapshot_from_object
from gpumem_gui.core.snapshot.loader import load_snapshot
from gpumem_gui.core.snapshot.model import Action
from gpumem_gui.document.document import SnapshotDocument
from gpumem_gui.document.staging import replay_document
from gpumem_gui.views.compare.whatif_view import WhatIfView
from tests.conftest import fixture_path, load_raw

OOM_EVENT = 421  # constructor device 1: its one OOM, a request of 5,308,694,528 bytes


def _replayed_trace(result: Any, device: int) -> Any:
    return snapshot_from_object(result.snapshot, "replayed", "dump").trace(device)


def test_constructor_oom_beside_the_replayed_oom_of_the_same_request(qtbot: Any) -> None:
    path = fixture_path("constructor_memory_snapshot.pickle")
    raw = load_raw(path)["device_traces"][1][OOM_EVENT]
    assert raw["action"] == "oom" and raw["size"] == 5_308_694_528
    document = SnapshotDocument(load_snapshot(path), device=1)
    run = replay_document(document, ["max_split_size_mb:1024"], None, lambda: None)
    replayed = _replayed_trace(run.result, 1)
    assert replayed.action[OOM_EVENT] == Action.SEGMENT_MAP  # the same number is another event of the replay
    view = WhatIfView(run)
    qtbot.addWidget(view)
    view.travel_to(OOM_EVENT)
    paired = view.replayed_at(OOM_EVENT)
    assert replayed.action[paired] == Action.OOM and replayed.size[paired] == raw["size"]
    # the replayed map shows that event, and its title says so
    assert run.replayed.frame().event == paired
    assert f"after event {paired:,} of {len(replayed):,} (" in view.titles[1].text()
    assert view.n_events == len(load_raw(path)["device_traces"][1])  # the cursor counts the recorded events


def test_a_smaller_request_pairs_with_its_own_alloc() -> None:
    snapshot = load_snapshot(fixture_path("constructor_memory_snapshot.pickle"))
    result = replay(_with_smaller_request(snapshot, 1, 99_790_848), device=1)
    replayed = _replayed_trace(result, 1)
    assert result.replayed_event is not None
    paired = int(result.replayed_event[OOM_EVENT])
    # the request fitted: pages mapped, then its alloc (and the free that gives it back)
    assert replayed.action[paired] == Action.ALLOC and replayed.size[paired] == 99_790_848
    assert replayed.action[paired - 1] == Action.SEGMENT_MAP
    # every recorded alloc pairs with a replayed alloc of the same size
    recorded = snapshot.trace(1)
    allocs = recorded.action == Action.ALLOC
    pairs = result.replayed_event[allocs]
    assert (replayed.action[pairs] == Action.ALLOC).all()
    assert (replayed.size[pairs] == recorded.size[allocs]).all()
