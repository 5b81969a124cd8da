"""The simulator against the real allocator's rules, release by release (issue 37): one hand-made trace per rule
whose outcome differs between the two rule sets, each worked by hand from the torch source named.

Each trace is a snapshot dict written here (segments, device_traces, allocator_settings), loaded through the
project's loader, and replayed: the oracle is the hand-worked figure in the comment, not an earlier run.
"""

from __future__ import annotations

import json
import pickle
from typing import Any

import pytest

from gpumem_gui.cli import main
from gpumem_gui.core.allocator.replay import replay, replay_outcome
from gpumem_gui.core.rules.alloc_conf import AllocConfError, parse_alloc_conf
from gpumem_gui.core.rules.torch_versions import (
    DEFAULT_VERSION,
    VERSION_RULES,
    TorchRules,
    TorchVersionError,
    modelled_release,
)
from gpumem_gui.core.snapshot.loader import load_snapshot
from gpumem_gui.core.snapshot.model import Snapshot
from tests.conftest import fixture_path

MiB = 1 << 20
BASE = 0x7F00_0000_0000
ROUNDUP = "roundup_power2_divisions:[256:1,512:2,1024:4,>:8]"


def _block(address: int, size: int, state: str, requested: int | None = None) -> dict[str, Any]:
    req = size if requested is None else requested
    return {"address": address, "size": size, "requested_size": req, "state": state, "frames": []}


def _segment(address: int, blocks: list[dict[str, Any]], *, expandable: bool = False) -> dict[str, Any]:
    return {
        "device": 0,
        "address": address,
        "total_size": sum(b["size"] for b in blocks),
        "allocated_size": sum(b["size"] for b in blocks if b["state"] == "active_allocated"),
        "active_size": sum(b["size"] for b in blocks if b["state"] != "inactive"),
        "requested_size": sum(b["requested_size"] for b in blocks if b["state"] != "inactive"),
        "stream": 0,
        "segment_type": "large",
        "segment_pool_id": (0, 0),
        "is_expandable": expandable,
        "frames": [],
        "blocks": blocks,
    }


def _event(action: str, addr: int, size: int) -> dict[str, Any]:
    return {"action": action, "addr": addr, "size": size, "stream": 0, "time_us": 0}


def _oom(size: int, device_free: int) -> dict[str, Any]:
    return {"action": "oom", "device_free": device_free, "size": size, "stream": 0, "time_us": 0}


def _snapshot(
    segments: list[dict[str, Any]],
    trace: list[dict[str, Any]],
    conf: str = "",
    recorded_with: dict[str, Any] | None = None,
    **settings: Any,
) -> Snapshot:
    snap: dict[str, Any] = {
        "segments": segments,
        "device_traces": [trace],
        "allocator_settings": {"PYTORCH_CUDA_ALLOC_CONF": conf, "max_split_size": -1, **settings},
    }
    if recorded_with is not None:
        snap["recorded_with"] = recorded_with
    return load_snapshot(pickle.dumps(snap))


def _one_request(request: int, segment: int, recorded_with: dict[str, Any] | None = None) -> Snapshot:
    """One request served by a segment of its own, then freed: the segment stays cached."""
    return _snapshot(
        [_segment(BASE, [_block(BASE, segment, "inactive")])],
        [
            _event("segment_alloc", BASE, segment),
            _event("alloc", BASE, request),
            _event("free_requested", BASE, request),
            _event("free_completed", BASE, request),
        ],
        recorded_with=recorded_with,
    )


# -- 1. roundup_power2_divisions: `>:N` and the last listed interval ---------------------------------------------


def test_roundup_greater_overwrites_the_last_listed_interval_before_2_10_and_not_after() -> None:
    # CUDAAllocatorConfig::parseRoundUpPower2Divisions (up to 2.9) fills `>` from last_index, so [1, 2) GiB (index
    # 10) gets 8; AcceleratorAllocatorConfig::parseRoundUpPower2Divisions (PR #165304) fills from last_index + 1,
    # so it keeps 4.
    old = parse_alloc_conf(ROUNDUP, TorchRules((2, 8))).roundup_power2_divisions
    new = parse_alloc_conf(ROUNDUP, TorchRules((2, 13))).roundup_power2_divisions
    assert old[:9] == new[:9] == (1,) * 9 and old[9] == new[9] == 2
    assert (old[10], new[10]) == (8, 4)
    assert old[11:] == new[11:] == (8,) * 5
    # alone, `>:8` begins at interval 0 in the old parser and at interval 1 in the new
    assert parse_alloc_conf("roundup_power2_divisions:[>:8]", TorchRules((2, 9))).roundup_power2_divisions[0] == 8
    assert parse_alloc_conf("roundup_power2_divisions:[>:8]").roundup_power2_divisions[0] == 0


def test_roundup_list_given_with_set_rounds_as_the_chosen_release() -> None:
    # a 1100 MiB + 1 byte request, recorded with default rounding in a 1102 MiB segment. In [1024, 2048) MiB:
    # 8 divisions are steps of 128 MiB (-> 1152 MiB), 4 are steps of 256 MiB (-> 1280 MiB); the new segment is
    # that size, a multiple of 2 MiB.
    snap = _one_request(1100 * MiB + 1, 1102 * MiB)
    old = replay(snap, overrides=[ROUNDUP], torch_version="2.8")
    new = replay(snap, overrides=[ROUNDUP], torch_version="2.13")
    assert old.replayed.peak_reserved_bytes == 1152 * MiB
    assert new.replayed.peak_reserved_bytes == 1280 * MiB
    assert old.original.peak_reserved_bytes == new.original.peak_reserved_bytes == 1102 * MiB


def test_the_recorded_roundup_table_is_the_files_own_whatever_the_release() -> None:
    # a file recorded by torch 2.8 under ROUNDUP carries the table 2.8 expanded (index 10: 8 divisions); replayed
    # under the default release (2.13), its own table applies: 1100 MiB + 1 byte -> 1152 MiB, as recorded
    table = {
        str(1 << i): d for i, d in enumerate(parse_alloc_conf(ROUNDUP, TorchRules((2, 8))).roundup_power2_divisions)
    }
    request = 1100 * MiB + 1
    snap = _snapshot(
        [_segment(BASE, [_block(BASE, 1152 * MiB, "inactive")])],
        [
            _event("segment_alloc", BASE, 1152 * MiB),
            _event("alloc", BASE, request),
            _event("free_requested", BASE, request),
            _event("free_completed", BASE, request),
        ],
        conf=ROUNDUP,
        roundup_power2_divisions=table,
    )
    result = replay(snap)
    assert result.rules.release == DEFAULT_VERSION and result.rules_source == "assumed"
    assert result.replayed.peak_reserved_bytes == 1152 * MiB and result.first_divergence is None


# -- 2. a memory fraction with expandable segments: alloc_block checks the allocation size first --------------------


def test_fraction_rejects_on_the_allocation_size_before_mapping_pages() -> None:
    # device 200 MiB, per_process_memory_fraction 0.5: allowed_memory_maximum 100 MiB. 65 MiB maps four 20 MiB
    # pages (80 MiB; 65 rounds to 66 MiB, 0 + 66 <= 100). 25 MiB: 15 MiB are free at the run's end, so one more
    # page would do (80 + 20 <= 100), but alloc_block (c10/cuda/CUDACachingAllocator.cpp) first tests
    # total_allocated_memory + alloc_size = 80 + 26 MiB > 100 MiB and fails; the release frees no whole page
    # (the free 15 MiB hold none), so the retry fails too: an OOM, as recorded.
    conf = "expandable_segments:True,per_process_memory_fraction:0.5"
    snap = _snapshot(
        [
            _segment(
                BASE,
                [_block(BASE, 65 * MiB, "active_allocated"), _block(BASE + 65 * MiB, 15 * MiB, "inactive")],
                expandable=True,
            )
        ],
        [_event("segment_map", BASE, 80 * MiB), _event("alloc", BASE, 65 * MiB), _oom(25 * MiB, 120 * MiB)],
        conf=conf,
        expandable_segments=True,
        recorded_with={"torch_version": "2.13.0+cu128", "device_total_memory": {0: 200 * MiB}},
    )
    result = replay(snap)
    assert result.original.oom_events == 1
    assert result.replayed.oom_events == 1 and result.first_divergence is None
    assert result.replayed.peak_reserved_bytes == 80 * MiB


# -- 3. the fraction is of the device's total memory, which the probe records --------------------------------------


def _fraction_trace(recorded_with: dict[str, Any] | None) -> Snapshot:
    # 50 and 40 MiB segments, then 20 MiB that does not fit: 90 + 20 > 0.5 x 200 MiB. The OOM saw 70 MiB free, so
    # the memory the program could get was 160 MiB (other programs held 40).
    return _snapshot(
        [
            _segment(BASE, [_block(BASE, 50 * MiB, "active_allocated")]),
            _segment(BASE + 64 * MiB, [_block(BASE + 64 * MiB, 40 * MiB, "active_allocated")]),
        ],
        [
            _event("segment_alloc", BASE, 50 * MiB),
            _event("alloc", BASE, 50 * MiB),
            _event("segment_alloc", BASE + 64 * MiB, 40 * MiB),
            _event("alloc", BASE + 64 * MiB, 40 * MiB),
            _oom(20 * MiB, 70 * MiB),
        ],
        conf="per_process_memory_fraction:0.5",
        recorded_with=recorded_with,
    )


def test_the_fraction_acts_on_the_recorded_device_total_not_the_capacity() -> None:
    snap = _fraction_trace({"torch_version": "2.13.0", "device_total_memory": {0: 200 * MiB}})
    assert snap.device_memory == {0: 200 * MiB} and snap.torch_version == "2.13.0"
    result = replay(snap)
    assert result.capacity == 160 * MiB
    assert (result.device_memory, result.device_memory_source) == (200 * MiB, "recorded")
    # allowed 100 MiB: 50 + 40 fit, 20 more do not, as recorded
    assert result.replayed.oom_events == 1 and result.first_divergence is None


def test_without_the_total_the_guess_says_so_and_the_user_can_give_it(capsys: Any, tmp_path: Any) -> None:
    snap = _fraction_trace(None)
    guessed = replay(snap)
    # the fraction of the 160 MiB capacity is 80 MiB: the 40 MiB request already fails, so the recorded
    # segment_alloc of it (event 2) is not made
    assert (guessed.device_memory, guessed.device_memory_source) == (160 * MiB, "guessed")
    assert guessed.first_divergence == 2
    given = replay(snap, device_memory=200 * MiB)
    assert given.device_memory_source == "given" and given.first_divergence is None

    path = tmp_path / "fraction.pickle"
    path.write_bytes(
        pickle.dumps(
            {
                "segments": [_segment(BASE, [_block(BASE, 50 * MiB, "active_allocated")])],
                "device_traces": [[_event("segment_alloc", BASE, 50 * MiB), _event("alloc", BASE, 50 * MiB)]],
            }
        )
    )
    assert main(["replay", str(path), "--device-memory", "80GiB", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["device_memory_bytes"] == 80 << 30 and out["device_memory_source"] == "given"
    assert out["torch_version"] == "2.13" and out["torch_version_source"] == "assumed"
    assert main(["replay", str(path)]) == 0
    text = capsys.readouterr().out
    assert "allocator rules      torch 2.13 (assumed: the file does not record its torch version" in text
    assert "device memory        80.0 GiB (85,899,345,920 bytes) (guessed: the capacity" in text


# -- 4. the expandable large page is large_segment_size_mb (2.13) ---------------------------------------------------


def test_the_expandable_large_page_follows_large_segment_size() -> None:
    # large_segment_size_mb:32 (PR #172056): a 3 MiB large request maps one page of 32 MiB, not 20
    conf = "expandable_segments:True,large_segment_size_mb:32"
    snap = _snapshot(
        [
            _segment(
                BASE,
                [_block(BASE, 3 * MiB, "active_allocated"), _block(BASE + 3 * MiB, 29 * MiB, "inactive")],
                expandable=True,
            )
        ],
        [_event("segment_map", BASE, 32 * MiB), _event("alloc", BASE, 3 * MiB)],
        conf=conf,
        expandable_segments=True,
    )
    result = replay(snap)
    assert result.replayed.peak_reserved_bytes == 32 * MiB and result.first_divergence is None
    # the releases before 2.13 do not know the key: the recorded settings are refused for them, in one line
    with pytest.raises(AllocConfError, match=r"^torch 2\.12 refuses .*Unrecognized key 'large_segment_size_mb'"):
        replay(snap, torch_version="2.12")
    with pytest.raises(AllocConfError, match=r"Unrecognized CachingAllocator option: large_segment_size_mb$"):
        replay(snap, torch_version="2.8")  # the message of the parser before 2.10


# -- 5. max_split_size_mb:20 -------------------------------------------------------------------------------------


def test_max_split_20_is_accepted_from_2_10_and_refused_before(capsys: Any, tmp_path: Any) -> None:
    # 30 MiB cached; a 10 MiB request. Unlimited max_split: the cached block serves it (recorded). max_split 20 MiB:
    # 10 < 20 and the block is >= 20, so get_free_block refuses it and a new 10 MiB segment comes (40 MiB reserved).
    snap = _snapshot(
        [_segment(BASE, [_block(BASE, 10 * MiB, "active_allocated"), _block(BASE + 10 * MiB, 20 * MiB, "inactive")])],
        [
            _event("segment_alloc", BASE, 30 * MiB),
            _event("alloc", BASE, 30 * MiB),
            _event("free_requested", BASE, 30 * MiB),
            _event("free_completed", BASE, 30 * MiB),
            _event("alloc", BASE, 10 * MiB),
        ],
    )
    new = replay(snap, overrides=["max_split_size_mb:20"], torch_version="2.13")
    assert new.replayed.peak_reserved_bytes == 40 * MiB and new.replayed.device_allocations == 2
    # CUDAAllocatorConfig::parseMaxSplitSize (up to 2.9): `val1 > kLargeBuffer / mb`
    with pytest.raises(AllocConfError, match=r"^torch 2\.9 refuses 'max_split_size_mb:20': .* must be > 20$"):
        replay(snap, overrides=["max_split_size_mb:20"], torch_version="2.9")
    assert replay(snap, overrides=["max_split_size_mb:21"], torch_version="2.9").replayed.device_allocations == 2

    path = tmp_path / "split.pickle"
    path.write_bytes(
        pickle.dumps(
            {
                "segments": [_segment(BASE, [_block(BASE, 30 * MiB, "inactive")])],
                "device_traces": [[_event("segment_alloc", BASE, 30 * MiB)]],
            }
        )
    )
    assert main(["replay", str(path), "--torch-version", "2.8", "--set", "max_split_size_mb:20"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "torch 2.8 refuses 'max_split_size_mb:20'" in err
    assert main(["replay", str(path), "--torch-version", "1.13"]) == 2
    assert "torch 1.13 is not modelled" in capsys.readouterr().err


# -- 6. a replay that starts with live expandable segments grows them in place -------------------------------------


def test_a_restored_expandable_run_grows_in_place() -> None:
    # before the trace: one 20 MiB page mapped, 10 MiB live and 10 MiB free. 25 MiB: find_expandable_block takes
    # the free block before the unmapped rest of the reservation and maps one more page after it: reserved 40 MiB,
    # the block at offset 10 MiB. Restored as a reservation of its own size, the run could not grow: two new pages
    # elsewhere, 60 MiB.
    snap = _snapshot(
        [
            _segment(
                BASE,
                [
                    _block(BASE, 10 * MiB, "active_allocated"),
                    _block(BASE + 10 * MiB, 25 * MiB, "active_allocated"),
                    _block(BASE + 35 * MiB, 5 * MiB, "inactive"),
                ],
                expandable=True,
            )
        ],
        [_event("segment_map", BASE + 20 * MiB, 20 * MiB), _event("alloc", BASE + 10 * MiB, 25 * MiB)],
        conf="expandable_segments:True",
        expandable_segments=True,
    )
    result = replay(snap)
    assert result.replayed.peak_reserved_bytes == result.original.peak_reserved_bytes == 40 * MiB
    assert result.first_divergence is None
    (segment,) = result.snapshot["segments"]
    assert (segment["address"], segment["total_size"]) == (BASE, 40 * MiB)


# -- the table, the versions and where they come from ----------------------------------------------------------


def test_every_version_rule_names_its_source() -> None:
    assert {r.name for r in VERSION_RULES} == {
        "roundup_greater_starts_after_last",
        "split_size_may_equal_large_buffer",
        "large_segment_size_key",
    }
    for rule in VERSION_RULES:
        assert "PR #" in rule.source and "::" in rule.source and rule.before and rule.after
    first = VERSION_RULES[0]
    assert TorchRules((2, 10)).holds(first) and not TorchRules((2, 9)).holds(first)
    assert first.before.startswith("`>:N` in roundup_power2_divisions also overwrites")


def test_versions_given_recorded_and_assumed() -> None:
    assert modelled_release("2.13.0+cu128") == (2, 13) and modelled_release("2.5") == (2, 5)
    for bad in ("1.13", "2.4", "2.14", "latest"):
        with pytest.raises(TorchVersionError):
            modelled_release(bad)
    snap = _one_request(3 * MiB, 20 * MiB)
    assert (replay(snap).rules.release, replay(snap).rules_source) == ((2, 13), "assumed")
    assert replay(snap, torch_version="2.7").rules_source == "given"
    newer = _one_request(3 * MiB, 20 * MiB, {"torch_version": "2.14.0.dev0"})
    result = replay(newer)
    assert result.rules.release == (2, 13) and result.rules_source.startswith(
        "recorded: 2.14.0.dev0, simulated as the nearest"
    )
    older = _one_request(3 * MiB, 20 * MiB, {"torch_version": "2.8.1+cu126"})
    assert (replay(older).rules.release, replay(older).rules_source) == ((2, 8), "recorded")


def test_explain_replays_under_the_given_release_and_memory(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    from gpumem_gui.core.allocator import remedies  # noqa: PLC0415

    seen: list[dict[str, Any]] = []

    def spy(snapshot: Snapshot, **kwargs: Any) -> Any:
        seen.append(kwargs)
        return replay_outcome(snapshot, **kwargs)

    monkeypatch.setattr(remedies, "replay_outcome", spy)  # every remedy's replay goes through it
    snap = _fraction_trace(None)
    found = remedies.explain(snap, parallel=False, torch_version="2.8", device_memory=200 * MiB)
    assert seen and all(k["torch_version"] == "2.8" and k["device_memory"] == 200 * MiB for k in seen)
    assert found.baseline.startswith("Replayed under the recorded settings, the simulator runs out of memory too")
    assert main(["explain", str(fixture_path("silmont_mem_snapshot.pickle")), "--torch-version", "2.4"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "torch 2.4 is not modelled" in err
