"""Category rules: hand-made traces whose every block's category is known, and the bundled examples' own stacks."""

from __future__ import annotations

import pickle
from typing import Any

import numpy as np

from gpumem_gui.assets import example_path
from gpumem_gui.core import load_snapshot
from gpumem_gui.core.allocator.simulator import DeviceAllocatorSim
from gpumem_gui.core.analysis.breakdown import block_categories, breakdown_at
from gpumem_gui.core.analysis.categories import (
    BACKWARD,
    CATEGORIES,
    FORWARD,
    LOAD,
    OPTIMIZER,
    OTHER,
    ZERO_GRAD,
    stack_phases,
)
from gpumem_gui.core.analysis.timetravel import build_timeline
from gpumem_gui.core.rules.allocator_constants import MiB
from gpumem_gui.core.snapshot.model import BlockState, Frame, StackTable
from tests.conftest import load_raw

TORCH = "/venv/lib/python3.11/site-packages/torch"


def _frames(*calls: tuple[str, str]) -> list[dict[str, Any]]:
    return [{"name": n, "filename": f, "line": 7} for n, f in calls] + [
        {"name": "<module>", "filename": "train.py", "line": 1}
    ]


MOVE = _frames(("_apply", f"{TORCH}/nn/modules/module.py"), ("to", f"{TORCH}/nn/modules/module.py"))
FORWARD_F = _frames(("attn", "model/attn.py"), ("forward", "model/net.py"))
BACKWARD_F = _frames(("backward", f"{TORCH}/_tensor.py"), ("step_fn", "train.py"))
ACCUMULATE = [{"name": "torch::autograd::AccumulateGrad::apply(std::vector<at::Tensor>&&)", "filename": "", "line": 0}]
OPTIM = _frames(("_init_group", f"{TORCH}/optim/adam.py"), ("step", f"{TORCH}/optim/adam.py"))
OTHER_F = _frames(("make_cache", "serve/cache.py"))


def _hand_made() -> tuple[Any, dict[str, tuple[int, int, str]]]:
    """One step of training, each block made where PyTorch makes it: name -> (address, block size, category)."""
    sim = DeviceAllocatorSim(8 << 30)
    sim.record_history = False
    early = sim.malloc(3 * MiB, frames=FORWARD_F)  # before recording began
    sim.record_history = True
    expect = {"early": (early, "before_recording")}
    expect["weight"] = (sim.malloc(4 * MiB, frames=MOVE), "parameters")
    act = sim.malloc(5 * MiB, frames=FORWARD_F)
    expect["act"] = (act, "activations")
    scratch = sim.malloc(6 * MiB, frames=FORWARD_F)
    sim.free(scratch)  # the free carries the alloc stack: it happened in forward
    expect["scratch"] = (scratch, "temporaries")
    expect["grad"] = (sim.malloc(7 * MiB, frames=ACCUMULATE), "gradients")
    grad_in = sim.malloc(8 * MiB, frames=BACKWARD_F)
    sim.free(grad_in)
    expect["grad_in"] = (grad_in, "temporaries")
    expect["input_grad"] = (sim.malloc(9 * MiB, frames=BACKWARD_F), "gradients")  # kept after backward
    sim.free(act, frames=BACKWARD_F)
    expect["exp_avg"] = (sim.malloc(10 * MiB, frames=OPTIM), "optimizer_state")
    opt_tmp = sim.malloc(11 * MiB, frames=OPTIM)
    sim.free(opt_tmp)
    expect["opt_tmp"] = (opt_tmp, "temporaries")
    expect["cache"] = (sim.malloc(12 * MiB, frames=OTHER_F), "unknown")  # frames name no phase
    expect["bare"] = (sim.malloc(13 * MiB), "unknown")  # no frames at all
    snap = load_snapshot(pickle.dumps(sim.snapshot()))
    return snap, {k: (b.addr, b.size, cat) for k, (b, cat) in expect.items()}


def _categories_by_address(snap: Any, event: int) -> dict[int, str]:
    tl = build_timeline(snap, 0)
    state = tl.state_at(event)
    codes = block_categories(snap, tl, state, event)
    live = state.blocks.state != BlockState.INACTIVE
    return {int(a): CATEGORIES[int(c)] for a, c in zip(state.blocks.address[live], codes[live], strict=True)}


def test_hand_made_blocks_get_their_categories_while_alive() -> None:
    snap, expect = _hand_made()
    n = len(snap.trace(0))
    got_final = _categories_by_address(snap, n - 1)
    freed = ("act", "scratch", "grad_in", "opt_tmp")
    for name, (addr, _, category) in expect.items():
        if name not in freed:
            assert got_final[addr] == category, name
    # freed blocks, looked at while alive: the category belongs to the whole life, not to the moment
    trace = snap.trace(0)
    for name in freed:
        addr, _, category = expect[name]
        allocs = np.flatnonzero((trace.action == 0) & (trace.addr == addr))
        at = int(allocs[0])
        assert _categories_by_address(snap, at)[addr] == category, name


def test_hand_made_breakdown_sums_by_category() -> None:
    snap, expect = _hand_made()
    tl = build_timeline(snap, 0)
    final = breakdown_at(snap, tl, tl.n_events - 1)
    want = dict.fromkeys(CATEGORIES, 0)
    for name in ("early", "weight", "grad", "input_grad", "exp_avg", "cache", "bare"):  # the ones still live
        _, size, category = expect[name]
        want[category] += size
    assert final.by_category == want
    sites = {s.site: s.bytes for s in final.by_site}
    assert sites["unknown"] == expect["bare"][1]  # the block without frames
    assert sites["model/attn.py:7:attn"] == expect["early"][1]  # allocated before recording: still its site


def test_stack_phases_read_the_frames() -> None:
    def table(*stacks: list[Frame]) -> StackTable:
        frames = [f for s in stacks for f in s]
        offsets = np.cumsum([0] + [len(s) for s in stacks]).astype(np.int64)
        return StackTable(frames, offsets, np.arange(len(frames), dtype=np.int32))

    opt = f"{TORCH}/optim/optimizer.py"
    stacks = table(
        [Frame("zero_grad", opt, 1), Frame("train", "train.py", 2)],  # zero_grad lives in torch/optim/
        [Frame("to", "data/batch.py", 3), Frame("train", "train.py", 4)],  # a batch's .to(): not the model
        [Frame("to", f"{TORCH}/nn/modules/module.py", 5)],
        [Frame("forward", "m.py", 6), Frame("backward", f"{TORCH}/utils/checkpoint.py", 7)],  # recomputation
        [Frame("forward", "m.py", 6), Frame("backward", f"{TORCH}/_tensor.py", 8)],
        [Frame("__init__", "model.py", 9)],
        [Frame("__init__", "model.py", 9), Frame("forward", "m.py", 6)],  # a tensor built inside forward
        [Frame("step", "my_project/optimizer.py", 10)],
    )
    assert stack_phases(stacks).tolist() == [ZERO_GRAD, OTHER, LOAD, FORWARD, BACKWARD, LOAD, FORWARD, OPTIMIZER]


def _live_raw(raw: dict[str, Any], event: int) -> dict[int, str]:
    """addr -> name of the innermost frame, for the blocks live right after `event`, walking the raw trace (an
    independent reading: the simulator's examples start from nothing)."""
    live: dict[int, str] = {}
    for entry in raw["device_traces"][0][: event + 1]:
        if entry["action"] == "alloc":
            live[entry["addr"]] = entry["frames"][0]["name"]
        elif entry["action"] == "free_requested":
            live.pop(entry["addr"])
    return live


def _expected(raw: dict[str, Any], state: Any, event: int, kind: dict[str, str]) -> dict[str, int]:
    """Bytes per category, each block's category read from the frames it was allocated with."""
    live = _live_raw(raw, event)
    want = dict.fromkeys(CATEGORIES, 0)
    blk = state.blocks
    rows = np.flatnonzero(blk.state == BlockState.ALLOCATED)
    assert sorted(live) == sorted(blk.address[rows].tolist())
    for addr, size in zip(blk.address[rows].tolist(), blk.size[rows].tolist(), strict=True):
        want[kind[live[addr]]] += size
    return want


def test_checkpointing_examples_know_their_activations() -> None:
    # kept layer outputs ("block") and the recomputed segment ("mlp") are activations; the weights are
    # parameters; a gradient of an activation, freed at once, is a temporary
    kind = {"block": "activations", "mlp": "activations", "__init__": "parameters", "backward": "temporaries"}
    for name in ("checkpointing_off", "checkpointing_sqrt"):
        path = example_path(name)
        raw, snap = load_raw(path), load_snapshot(path)
        tl = build_timeline(snap, 0)
        peak = int(np.argmax(tl.series.allocated))
        got = breakdown_at(snap, tl, peak)
        assert got.by_category == _expected(raw, tl.state_at(peak), peak, kind), name
        assert got.by_category["activations"] > 0


def test_training_example_categories_at_every_tenth_event() -> None:
    path = example_path("training_leak")
    raw, snap = load_raw(path), load_snapshot(path)
    tl = build_timeline(snap, 0)
    kind = {
        "_apply": "parameters",
        "torch::autograd::AccumulateGrad::apply(std::vector<at::Tensor>&&)": "gradients",
        "_init_group": "optimizer_state",
        "_multi_tensor_adamw": "temporaries",
        "mlp": "temporaries",
        "backward": "temporaries",  # gradients of saved activations, freed within backward
        "block": "activations",
        "lm_head": "activations",
        "forward": "activations",  # the leaked hidden states
    }
    for event in range(0, tl.n_events, 10):
        got = breakdown_at(snap, tl, event).by_category
        assert got == _expected(raw, tl.state_at(event), event, kind), event
