"""Program-level remedies: hand-made programs whose remedy is worked out by hand (and run changed, by hand, through the
simulator), the "no" cases, and every bundled OOM and the constructor OOM, each "fits" checked by a full replay."""

from __future__ import annotations

import json
import pickle
from typing import Any

import numpy as np
import pytest

from gpumem_gui.assets import example_path
from gpumem_gui.cli import main
from gpumem_gui.core import load_snapshot
from gpumem_gui.core.allocator._oom import OutOfMemoryError
from gpumem_gui.core.allocator.remedies import Explanation, explain
from gpumem_gui.core.allocator.simulator import DeviceAllocatorSim
from gpumem_gui.core.analysis.diagnosis import Remedy
from gpumem_gui.core.snapshot.model import Snapshot
from tests.conftest import fixture_path, load_raw

GiB = 1 << 30
MiB = 1 << 20
TORCH = "/venv/lib/python3.11/site-packages/torch"


def _frames(*calls: tuple[str, str, int]) -> list[dict[str, Any]]:
    return [{"name": n, "filename": f, "line": line} for n, f, line in calls] + [
        {"name": "<module>", "filename": "train.py", "line": 1}
    ]


MOVE = _frames(("_apply", f"{TORCH}/nn/modules/module.py", 900), ("to", f"{TORCH}/nn/modules/module.py", 1100))
SITE_X = _frames(("attn", "model/attn.py", 10), ("forward", "model/net.py", 20))
SITE_Y = _frames(("mlp", "model/mlp.py", 30), ("forward", "model/net.py", 21))
HEAD = _frames(("head", "model/head.py", 40), ("forward", "model/net.py", 22))
OPTIM = _frames(("_init_group", f"{TORCH}/optim/adam.py", 150), ("step", f"{TORCH}/optim/adam.py", 200))
CACHE = _frames(("make_cache", "serve/cache.py", 5))  # frames that name no phase: its blocks are "unknown"
ACCUMULATE = [{"name": "torch::autograd::AccumulateGrad::apply(std::vector<at::Tensor>&&)", "filename": "", "line": 0}]
BACKWARD = _frames(("backward", f"{TORCH}/_tensor.py", 500), ("step_fn", "train.py", 9))


def _two_steps(*, checkpoint_x: bool = False) -> DeviceAllocatorSim:
    """Weights of 2 GiB, then two steps on an 8 GiB device: site X keeps three 1 GiB activations, site Y one, and
    the head asks for 256 MiB (step 1) and 3 GiB (step 2, which runs out of memory). `checkpoint_x`: the program
    with X checkpointed, written by hand: each X activation freed once the next one is made."""
    sim = DeviceAllocatorSim(8 * GiB)
    sim.malloc(2 * GiB, frames=MOVE)
    for step in range(2):
        xs: list[Any] = []
        for _ in range(3):
            xs.append(sim.malloc(GiB, frames=SITE_X))
            if checkpoint_x and len(xs) > 1:
                sim.free(xs[-2], frames=SITE_X)
        y = sim.malloc(GiB, frames=SITE_Y)
        if checkpoint_x:
            sim.free(xs[-1], frames=SITE_X)
        try:
            head = sim.malloc(3 * GiB if step else 256 * MiB, frames=HEAD)
        except OutOfMemoryError:
            break
        sim.free(head, frames=HEAD)
        for b in [*([] if checkpoint_x else xs), y]:
            sim.free(b, frames=BACKWARD)
    return sim


def _load(sim: DeviceAllocatorSim) -> Snapshot:
    return load_snapshot(pickle.dumps(sim.snapshot()))


def _users(filename: str) -> bool:
    """A Python file of the program's own: not PyTorch's, not an installed package's, not C++."""
    return filename.endswith(".py") and "site-packages" not in filename and "/torch/" not in filename


def _oom_entries(trace: list[dict[str, Any]]) -> int:
    return sum(e["action"] == "oom" for e in trace)


def _programs(found: Explanation) -> list[tuple[int, Remedy]]:
    return [(k, r) for k, r in enumerate(found.remedies) if r.kind == "program"]


def _checked_by_full_replay(snapshot: Snapshot, found: Explanation) -> None:
    """Every program remedy said to fit: its changed trace, replayed in full, reaches the request with no OOM; every
    one said not to: the replay runs out."""
    for k, r in _programs(found):
        result = found.replay_remedy(snapshot, k)
        replayed = result.snapshot["device_traces"][found.diagnosis.device]
        assert (_oom_entries(replayed) == 0) == r.fits, r.what
        assert result.replayed.oom_events == r.oom_events, r.what


def test_checkpointing_the_site_of_three_1_gib_activations_frees_3_gib_and_the_request_fits() -> None:
    recorded = _two_steps()
    assert _oom_entries(recorded.trace) == 1  # the program as written runs out of memory in step 2
    hand = _two_steps(checkpoint_x=True)
    assert _oom_entries(hand.trace) == 0  # the oracle: the checkpointed program, run by hand, does not

    snapshot = _load(recorded)
    found = explain(snapshot)
    oom = found.diagnosis.oom
    assert oom is not None and oom.site == "model/head.py:40:head"
    assert found.diagnosis.findings[1].startswith("model/head.py:40:head asked for 3.0 GiB")
    assert "model/head.py:40:head <- model/net.py:22:forward" in found.diagnosis.findings[2]
    assert found.diagnosis.findings[3].startswith("What holds the memory: model/attn.py:10:attn 3.0 GiB")
    [(k, x)] = [(k, r) for k, r in _programs(found) if r.what.startswith("checkpoint attn.py:10:attn (")]
    assert x.frees_bytes == 3 * GiB  # X's three blocks of 1 GiB, all freed at the OOM under checkpointing
    assert x.fits and x.oom_events == 0
    assert "recomputation" in x.assumes
    result = found.replay_remedy(snapshot, k)
    assert _oom_entries(result.snapshot["device_traces"][0]) == 0
    # the replayed event paired with the OOM is the request itself, served: the window opens there
    paired = result.replayed_event
    assert paired is not None
    moment = found.diagnosis.moment.event
    assert moment is not None
    replayed = result.snapshot["device_traces"][0][int(paired[moment])]
    assert replayed["action"] == "alloc" and replayed["size"] == 3 * GiB
    _checked_by_full_replay(snapshot, found)


def test_when_the_weights_hold_the_memory_checkpointing_says_no() -> None:
    sim = DeviceAllocatorSim(8 * GiB)
    sim.malloc(6 * GiB, frames=MOVE)
    sim.malloc(64 * MiB, frames=SITE_X)
    sim.malloc(32 * MiB, frames=SITE_Y)
    with pytest.raises(OutOfMemoryError):
        sim.malloc(3 * GiB, frames=HEAD)
    snapshot = _load(sim)
    found = explain(snapshot)
    oom = found.diagnosis.oom
    assert oom is not None
    checkpoints = [r for _k, r in _programs(found) if r.what.startswith("checkpoint ")]
    assert checkpoints
    for r in checkpoints:  # at most the 96 MiB of activations: far from the 1 GiB and more the request lacks
        assert r.frees_bytes is not None and r.frees_bytes <= 96 * MiB < oom.live_excess_bytes
        assert not r.fits and r.oom_events == 1
    shard = next(r for _k, r in _programs(found) if r.what.startswith("shard "))
    assert shard.frees_bytes == 3 * GiB and shard.fits  # the weights are the holder: halving them is the remedy
    _checked_by_full_replay(snapshot, found)


def test_a_request_larger_than_the_device_gets_no_from_every_change_but_a_smaller_request() -> None:
    sim = DeviceAllocatorSim(8 * GiB)
    sim.malloc(GiB, frames=MOVE)
    sim.malloc(GiB, frames=SITE_X)
    sim.malloc(GiB, frames=SITE_Y)
    with pytest.raises(OutOfMemoryError):
        sim.malloc(16 * GiB, frames=OPTIM)  # made by the optimizer: no batch makes it smaller
    snapshot = _load(sim)
    found = explain(snapshot)
    programs = [r for _k, r in _programs(found) if not r.what.startswith("make the failing request")]
    assert len(programs) >= 3
    for r in programs:
        assert not r.fits and r.oom_events == 1, r.what
    assert not any(r.fits for r in found.remedies if r.kind == "setting")
    _checked_by_full_replay(snapshot, found)


def test_where_nothing_alone_fits_a_setting_and_a_change_together_are_replayed() -> None:
    # four 2 GiB segments, each split into an activation of 1 GiB and a cache block of 1 GiB (no remedy acts on
    # it), then a 3 GiB request from the cache code: freeing the activations leaves four 1 GiB holes, each pinned
    sim = DeviceAllocatorSim(8 * GiB)
    for _ in range(4):
        sim.free(sim.malloc(2 * GiB, frames=MOVE))
        sim.malloc(GiB, frames=SITE_X)
        sim.malloc(GiB, frames=CACHE)
    with pytest.raises(OutOfMemoryError):
        sim.malloc(3 * GiB, frames=CACHE)
    snapshot = _load(sim)
    found = explain(snapshot)
    alone = [r for r in found.remedies if r.kind == "setting" or not r.settings]
    alone = [r for r in alone if not r.what.startswith("make the failing request")]
    assert alone and not any(r.fits for r in alone)
    checkpoint = next(r for r in alone if r.what.startswith("checkpoint attn.py:10:attn ("))
    assert checkpoint.frees_bytes == 4 * GiB  # four 1 GiB holes: more than the request, but none 3 GiB long
    together = [r for r in found.remedies if r.kind == "program" and r.settings]
    assert together and any(r.fits for r in together)
    assert all(r.what.endswith(f", with {r.settings}") for r in together)
    _checked_by_full_replay(snapshot, found)


def test_gradients_kept_from_the_step_before_are_freed_by_set_to_none() -> None:
    sim = DeviceAllocatorSim(8 * GiB)
    sim.malloc(2 * GiB, frames=MOVE)
    x = sim.malloc(GiB, frames=SITE_X)  # step 1: forward, then backward makes the weights' gradient
    sim.malloc(2 * GiB, frames=ACCUMULATE)
    sim.free(x, frames=BACKWARD)
    sim.malloc(GiB, frames=SITE_X)  # step 2's forward, with the 2 GiB gradient still held
    with pytest.raises(OutOfMemoryError):
        sim.malloc(3584 * MiB, frames=HEAD)  # 2 + 2 + 1 + 3.5 GiB > 8 GiB; without the gradient 6.5 GiB
    snapshot = _load(sim)
    found = explain(snapshot)
    [set_to_none] = [r for r in found.remedies if "set_to_none=True" in r.what]
    assert set_to_none.frees_bytes == 2 * GiB and set_to_none.fits
    _checked_by_full_replay(snapshot, found)


def test_an_eight_bit_optimizer_keeps_a_quarter_of_adams_state() -> None:
    sim = DeviceAllocatorSim(8 * GiB)
    sim.malloc(GiB, frames=MOVE)
    x = sim.malloc(GiB, frames=SITE_X)
    sim.malloc(GiB, frames=ACCUMULATE)
    sim.free(x, frames=BACKWARD)
    sim.malloc(2 * GiB, frames=OPTIM)  # exp_avg and exp_avg_sq, kept past the step
    sim.malloc(2 * GiB, frames=OPTIM)
    sim.malloc(GiB, frames=SITE_X)
    with pytest.raises(OutOfMemoryError):
        sim.malloc(2560 * MiB, frames=HEAD)  # 7 GiB held + 2.5 GiB; with 1 GiB of state: 4 GiB + 2.5 GiB
    snapshot = _load(sim)
    found = explain(snapshot)
    [eight] = [r for r in found.remedies if r.what.startswith("an 8-bit optimizer")]
    assert eight.frees_bytes == 3 * GiB and eight.fits
    _checked_by_full_replay(snapshot, found)


def test_memory_held_before_recording_is_freed_in_the_state_the_replay_starts_from() -> None:
    sim = DeviceAllocatorSim(8 * GiB)
    sim.record_history = False
    sim.malloc(4 * GiB, frames=SITE_Y)  # before recording began
    sim.record_history = True
    sim.malloc(2 * GiB, frames=MOVE)
    with pytest.raises(OutOfMemoryError):
        sim.malloc(3 * GiB, frames=HEAD)
    snapshot = _load(sim)
    found = explain(snapshot)
    [(k, early)] = [(k, r) for k, r in _programs(found) if "before recording" in r.what]
    assert early.frees_bytes == 4 * GiB and early.fits
    result = found.replay_remedy(snapshot, k)
    assert _oom_entries(result.snapshot["device_traces"][0]) == 0


@pytest.mark.parametrize(
    ("name", "device"),
    [("fragmented_oom", 0), ("split_blocks_oom", 0), ("constructor_memory_snapshot.pickle", 1)],
    ids=["fragmented_oom", "split_blocks_oom", "constructor"],
)
def test_each_oom_names_its_line_and_three_program_changes_each_fit_checked_by_replay(name: str, device: int) -> None:
    # resolved in the test: a checkout without the shared fixtures skips this one, not the whole module
    path = fixture_path(name) if name.endswith(".pickle") else example_path(name)
    raw = load_raw(path)
    oom_entry = next(e for e in raw["device_traces"][device] if e["action"] == "oom")
    innermost_user = next(f for f in oom_entry["frames"] if _users(f["filename"]))
    snapshot = load_snapshot(path)
    found = explain(snapshot, device=device)
    assert found.diagnosis.moment.kind == "oom"
    named = found.diagnosis.findings[1]
    assert f"{innermost_user['filename']}:{innermost_user['line']}" in named and " asked for " in named
    programs = _programs(found)
    assert len([r for _k, r in programs if r.frees_bytes]) >= 3
    assert any(r.fits for _k, r in programs)
    _checked_by_full_replay(snapshot, found)


def test_the_constructor_files_uneven_gpus_are_named_with_distributed_data_parallel() -> None:
    snapshot = load_snapshot(fixture_path("constructor_memory_snapshot.pickle"))
    peaks = {d: snapshot.peak_reserved(d) for d in (0, 1, 2)}
    assert peaks[1] > 2 * max(peaks[0], peaks[2])  # the file: GPU 1 far above the others
    found = explain(snapshot, device=1)
    sentence = next(n for n in found.notes if n.startswith("The GPUs are not evenly loaded"))
    assert "GPU 1 reached 78.4 GiB" in sentence and "GPUs 0 and 2" in sentence and "DataParallel" in sentence
    ddp = next(r for r in found.remedies if r.what.startswith("DistributedDataParallel"))
    assert ddp.fits and ddp.frees_bytes


def test_a_peak_gets_headroom_and_the_growing_site_is_a_remedy() -> None:
    snapshot = load_snapshot(example_path("training_leak"))
    found = explain(snapshot)
    assert found.diagnosis.moment.kind == "peak"
    baseline = next(r for r in found.remedies if r.kind == "setting" and r.settings.startswith("max_split"))
    assert baseline.headroom_bytes is not None
    growth = [r for _k, r in _programs(found) if r.what.startswith("stop keeping references at ")]
    assert growth and growth[0].frees_bytes and growth[0].frees_bytes > 0
    for r in growth:
        assert r.headroom_bytes is not None and r.headroom_bytes > 0  # the kept blocks no longer pile up
    sentences = " ".join(found.remedy_sentences)
    assert "of headroom against the recorded settings' replay" in sentences


def test_explain_json_remedies_carry_kind_change_frees_and_assumptions(capsys: Any) -> None:
    assert main(["explain", str(example_path("fragmented_oom")), "--json", "--gpus", "4"]) == 0
    out = json.loads(capsys.readouterr().out)
    keys = {"kind", "change", "settings", "frees_bytes", "assumes", "fits", "oom_events", "peak_reserved_bytes",
            "headroom_bytes", "judged", "reason"}  # fmt: skip
    assert all(set(r) == keys for r in out["remedies"])
    kinds = {r["kind"] for r in out["remedies"]}
    assert kinds == {"setting", "program"}
    shard = next(r for r in out["remedies"] if r["change"].startswith("shard "))
    assert "over 4 GPUs" in shard["change"] and shard["frees_bytes"] > 0 and shard["assumes"]
    setting = next(r for r in out["remedies"] if r["kind"] == "setting")
    assert setting["frees_bytes"] is None and setting["change"] == setting["settings"]


def test_the_replay_is_told_to_be_a_model() -> None:
    found = explain(load_snapshot(example_path("split_blocks_oom")))
    text = " ".join(found.remedy_sentences)
    assert "It is a model of the change, not the changed program" in text
    assert all(r.assumes for _k, r in _programs(found))
    assert np.all([r.frees_bytes is not None for _k, r in _programs(found)])
