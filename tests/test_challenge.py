"""The debugging challenge: the pinning block on hand-made OOMs, and each challenge's fixes against plain replays."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from gpumem_gui.assets import example_path
from gpumem_gui.core.allocator.examples import stack, training_loop
from gpumem_gui.core.allocator.replay import replay
from gpumem_gui.core.allocator.simulator import DeviceAllocatorSim, OutOfMemoryError
from gpumem_gui.core.rules.allocator_constants import MiB
from gpumem_gui.core.snapshot.loader import load_snapshot
from gpumem_gui.core.snapshot.model import Snapshot
from gpumem_gui.teach import challenge_texts as texts
from gpumem_gui.teach.challenge import (
    CHALLENGES,
    Challenge,
    ChallengeError,
    build_challenge,
    challenge_on,
    leak_until_oom,
)

PIN = stack(("keep", "model/cache.py", 12))
HOLDER = stack(("weights", "model/net.py", 40))
ACT = stack(("forward", "model/net.py", 88))
FAILS = stack(("logits", "model/net.py", 99))


def _snapshot(sim: DeviceAllocatorSim) -> Snapshot:
    return load_snapshot(pickle.dumps(sim.snapshot(), protocol=4), name="hand-made")


def _hand_made(request_mib: int) -> tuple[Snapshot, int, int, int]:
    """A 1024 MiB device: a 500 MiB segment left as [300 free][20 live][180 free] by a 20 MiB tensor kept from a
    larger batch, a 400 MiB weight in a segment of its own (124 MiB left on the device), then a request that no
    hole holds and cudaMalloc cannot get. The pin's, the weight's and the first hole's addresses."""
    sim = DeviceAllocatorSim(1024 * MiB)
    sim.free(sim.malloc(500 * MiB, frames=ACT))
    first = sim.malloc(300 * MiB, frames=ACT)  # carved from the cached 500 MiB segment
    pin = sim.malloc(20 * MiB, frames=PIN)
    sim.free(first)
    weight = sim.malloc(400 * MiB, frames=HOLDER)
    with pytest.raises(OutOfMemoryError):
        sim.malloc(request_mib * MiB, frames=FAILS)
    return _snapshot(sim), pin.addr, weight.addr, first.addr


@pytest.mark.parametrize("request_mib", [450, 490])
def test_the_pinning_block_of_a_hand_made_oom(request_mib: int) -> None:
    # Worked by hand: the holes are 300 and 180 MiB, both below the request. At 450 MiB the two holes together (480)
    # would hold it ("split"); at 490 MiB they would not, but releasing their 500 MiB segment would give cudaMalloc
    # 124 + 500 = 624 MiB >= 490 ("pin"). Either way only the 20 MiB block keeps that segment. Freeing the 400 MiB
    # weight would make room too (124 + 400 >= 490), but its segment has no hole: it holds memory, it pins none.
    snapshot, pin, weight, hole = _hand_made(request_mib)
    c = challenge_on(snapshot, "hand-made")
    assert c.oom.request_bytes == request_mib * MiB
    assert c.oom.splitter_rule == ("split" if request_mib == 450 else "pin")
    assert c.pinning == frozenset({pin})
    right = c.grade_block(pin)
    assert right.right and right.live and right.size == 20 * MiB
    assert right.segment_bytes == 500 * MiB and right.segment_free_bytes == 480 * MiB
    assert right.segment_live_blocks == 1
    held = c.grade_block(weight)
    assert held.live and not held.right
    free = c.grade_block(hole)
    assert not free.live and not free.right
    assert c.pin_site == "model/cache.py:12:keep"
    roles = {choice.site: choice.role for choice in c.sites}
    assert roles["model/net.py:99:logits"] == "failed"
    assert roles["model/net.py:40:weights"] == "biggest"
    assert [c.grade_site(i) for i in range(len(c.sites))].count(True) == 1
    verdict = texts.block_verdict(c, pin, "en")
    if request_mib == 450:
        assert verdict.startswith("✓") and "480.0 MiB" in verdict
    else:
        assert "alone keeps a segment of 500.0 MiB" in verdict and "124.0 MiB + 500.0 MiB" in verdict


def test_an_oom_nothing_pins_is_refused() -> None:
    sim = DeviceAllocatorSim(1024 * MiB)
    sim.malloc(900 * MiB, frames=HOLDER)
    with pytest.raises(OutOfMemoryError):
        sim.malloc(200 * MiB, frames=FAILS)
    with pytest.raises(ChallengeError, match="no live block pins"):
        challenge_on(_snapshot(sim), "full")
    with pytest.raises(ChallengeError, match="unknown challenge"):
        build_challenge("nope")


@pytest.fixture(scope="module")
def challenges() -> dict[str, Challenge]:
    return {name: build_challenge(name) for name in CHALLENGES}


def _fix(c: Challenge, change: str) -> int:
    return next(i for i, f in enumerate(c.fixes) if f.change.startswith(change))


def _raw_oom(path_or_raw: object) -> dict[str, object]:
    raw = pickle.loads(path_or_raw.read_bytes()) if hasattr(path_or_raw, "read_bytes") else path_or_raw
    return next(e for e in raw["device_traces"][0] if e["action"] == "oom")


def test_three_challenges_each_graded_by_replay(challenges: dict[str, Challenge]) -> None:
    assert len(challenges) >= 3
    for name, c in challenges.items():
        assert c.diagnosis.oom is not None, name
        assert c.pinning, name
        assert c.right_fixes and len(c.right_fixes) < len(c.fixes), name  # some fixes fail, some do not
        for i in range(len(c.fixes)):
            # every fix the learner can pick is graded by its replay: a fit has no OOM, a failure says where
            g = c.grade_fix(i)
            assert g.fits == (g.oom_events == 0 and g.rerun_oom is None and not g.grows_bytes), (
                name,
                c.fixes[i].change,
            )
            if not g.fits and g.rerun_oom is None and not g.grows_bytes:
                assert g.first_oom is not None and g.request_bytes > g.largest_hole_bytes


def test_on_a_leak_only_ending_the_growth_is_right(challenges: dict[str, Challenge]) -> None:
    # training_loop(leak=True) keeps one 32 MiB hidden state a step (examples.py): the recorded trace ends at the
    # OOM, so a smaller batch or sharding fits that request, yet the leak grows on and the OOM comes back; only
    # the fix that stops keeping the reference holds
    c = challenges["training_leak_oom"]
    right = [c.fixes[i].change for i in c.right_fixes]
    assert len(right) == 1 and right[0].startswith("stop keeping") and "transformer.py:160" in right[0]
    moved = [f for f in c.fixes if f.kind == "program" and f.grade.grows_bytes]
    assert moved and all(f.grade.grows_bytes == 32 * MiB and f.grade.oom_events == 0 for f in moved)
    # where nothing grows step by step, a fix that fits is right: no grade of the other two speaks of growth
    assert not any(f.grade.grows_bytes for n in ("fragmented_oom", "split_blocks_oom") for f in challenges[n].fixes)


@pytest.mark.parametrize(
    ("name", "setting", "fits"),
    [
        ("fragmented_oom", "expandable_segments:True", True),
        ("fragmented_oom", "max_split_size_mb:512", True),
        ("split_blocks_oom", "expandable_segments:True", True),
        ("training_leak_oom", "expandable_segments:True", False),
    ],
)
def test_settings_graded_as_a_plain_replay_says(
    challenges: dict[str, Challenge], name: str, setting: str, fits: bool
) -> None:
    # the oracle: `gpumem-gui replay FILE --set SETTING` on the whole recorded trace
    c = challenges[name]
    plain = replay(c.snapshot, overrides=[setting])
    assert (plain.replayed.oom_events == 0) == fits
    grade = c.grade_fix(_fix(c, setting))
    assert grade.fits == fits
    if fits:
        assert grade.peak_reserved_bytes == plain.replayed.peak_reserved_bytes


def test_what_a_failed_fix_says_matches_the_recorded_oom(challenges: dict[str, Challenge]) -> None:
    # empty_cache() adds nothing before an OOM (the allocator released the free segments itself): its replay fails
    # at the recorded request, whose size and free device memory are the raw trace entry's
    for name, path in (("fragmented_oom", example_path("fragmented_oom")), ("split_blocks_oom", None)):
        c = challenges[name]
        raw = _raw_oom(path if path is not None else example_path(name))
        grade = c.grade_fix(_fix(c, "torch.cuda.empty_cache()"))
        assert not grade.fits and grade.first_oom == c.event
        assert grade.request_bytes == raw["size"]
        assert grade.device_free_bytes == raw["device_free"]
    fragmented = challenges["fragmented_oom"]
    assert fragmented.event == 203
    assert fragmented.grade_fix(_fix(fragmented, "torch.cuda.empty_cache()")).largest_hole_bytes == 1_501_573_632
    assert "Still OOM at event 203" in texts.fix_verdict(fragmented.fixes[_fix(fragmented, "torch.cuda")], "en")


def test_the_leak_challenge_is_training_leaks_program(challenges: dict[str, Challenge]) -> None:
    c = challenges["training_leak_oom"]
    # the pinning block is one of the hidden states the model keeps (training_leak's model/transformer.py:160)
    assert c.pin_site == "model/transformer.py:160:forward"
    # its first six steps are the bundled training_leak example's, event for event
    bundled = load_snapshot(example_path("training_leak")).trace(0)
    run = leak_until_oom().trace(0)
    n = len(bundled)
    assert len(run) > 3 * n
    for column in ("action", "size", "addr"):
        assert np.array_equal(getattr(run, column)[:n], getattr(bundled, column)), column
    stop = c.grade_fix(_fix(c, "stop keeping references at transformer.py:160"))
    assert stop.fits and stop.peak_reserved_bytes < c.grade_fix(_fix(c, "torch.cuda.empty_cache()")).peak_reserved_bytes
    # max_split_size_mb lets this request fit in the replay, but the program, run on, leaks past it: the oracle is
    # the program itself run under the setting on the simulator
    sim = DeviceAllocatorSim(4 * 1024 * MiB, "max_split_size_mb:32")
    with pytest.raises(OutOfMemoryError):
        training_loop(sim, leak=True, steps=40)
    trace = sim.snapshot()["device_traces"][0]
    later = next(i for i, e in enumerate(trace) if e["action"] == "oom")
    split = c.grade_fix(_fix(c, "max_split_size_mb:32"))
    assert not split.fits and split.rerun_oom == later > c.event
    assert "the program, run to its end under this setting, runs out of memory at event 4,364" in texts.fix_verdict(
        c.fixes[_fix(c, "max_split_size_mb:32")], "en"
    )
    expandable = c.grade_fix(_fix(c, "expandable_segments:True"))
    assert not expandable.fits and expandable.first_oom is not None and expandable.first_oom < c.event


def test_the_words_in_every_language(challenges: dict[str, Challenge]) -> None:
    assert texts.check_languages() == []
    c = challenges["fragmented_oom"]
    labels = [texts.fix_label(f, "fr") for f in c.fixes]
    assert not any("torch.utils.checkpoint" in label or " and " in label for label in labels)
    assert "1,5\u00a0Gio" in texts.oom_text(c, "fr") and "1,5\u00a0GiB" in texts.oom_text(c, "ro")
    assert texts.answer_lines(c, "en")[0] == f"{len(c.right_fixes)} of {len(c.fixes)} fixes replay without the OOM:"
    leak = challenges["training_leak_oom"]
    assert "4.089" in texts.oom_text(leak, "ro") and "4\u202f089" in texts.oom_text(leak, "fr")
