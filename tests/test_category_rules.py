"""The categories an expert names, each from its evidence: library workspaces, autocast's weight copies, inputs,
DataParallel's replicas, and the file's own categories; hand-made traces with the real frames, and the fixtures'
figures read from their raw frames."""

from __future__ import annotations

import pickle
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from gpumem_gui.assets import example_path
from gpumem_gui.core import load_snapshot
from gpumem_gui.core.allocator.simulator import DeviceAllocatorSim
from gpumem_gui.core.analysis.breakdown import block_categories, block_rules, breakdown_at
from gpumem_gui.core.analysis.categories import (
    CATEGORIES,
    FROM_FILE,
    RULE_TEXTS,
    RULES,
    lifetime_categories,
    lifetime_rules,
)
from gpumem_gui.core.analysis.diagnosis import diagnose
from gpumem_gui.core.analysis.timetravel import build_timeline
from gpumem_gui.core.rules.allocator_constants import MiB
from gpumem_gui.core.snapshot.model import BlockState, Snapshot
from gpumem_gui.document.document import SnapshotDocument
from gpumem_gui.sources.transfer import load_parts, save_parts
from tests.conftest import FIXTURE_NAMES, fixture_path, load_raw

Frames = list[dict[str, Any]]
SITE = "/home/u/anaconda3/envs/gnn/lib/python3.11/site-packages"
MODULE_PY = f"{SITE}/torch/nn/modules/module.py"
ALLOCATOR = [
    ("c10::cuda::CUDACachingAllocator::Native::DeviceCachingAllocator::malloc(signed char, unsigned long, "
     "CUstream_st*)", "CUDACachingAllocator.cpp"),
    ("c10::cuda::CUDACachingAllocator::Native::NativeCachingAllocator::allocate(unsigned long)", ""),
]  # fmt: skip


def _frames(*calls: tuple[str, str]) -> Frames:
    """Innermost first, as the file records them: C++ frames have line 0, Python ones a line."""
    return [{"name": n, "filename": f, "line": 0 if f.endswith((".cpp", ".h", "??", "")) else 7} for n, f in calls]


# the model built and moved to the device, a forward, a backward (the phases around the blocks under test)
MOVE = _frames(("_apply", MODULE_PY), ("to", MODULE_PY), ("main", "train.py"))
FORWARD = _frames(("forward", "model.py"), ("_call_impl", MODULE_PY), ("train", "train.py"))
BACKWARD = _frames(("backward", f"{SITE}/torch/_tensor.py"), ("train", "train.py"))

# silmont_mem_snapshot.pickle: cuBLAS's workspace, made by BmmBackward0 on autograd's thread (stack 7) and by the
# forward's einsum on the main thread (stack 12); constructor's makes it under the handle alone (getNewWorkspace
# inlined)
BMM = [
    ("at::native::structured_bmm_out_cuda::impl(at::Tensor const&, at::Tensor const&, at::Tensor const&)", "??"),
    ("at::_ops::bmm::call(at::Tensor const&, at::Tensor const&)", "??"),
]
WORKSPACE_IN_BACKWARD = _frames(
    *ALLOCATOR,
    ("at::cuda::getNewWorkspace()", ""),
    ("at::cuda::getCurrentCUDABlasHandle()", "??"),
    *BMM,
    ("torch::autograd::generated::BmmBackward0::apply(std::vector<at::Tensor, std::allocator<at::Tensor> >&&)", "??"),
    ("torch::autograd::Engine::thread_main(std::shared_ptr<torch::autograd::GraphTask> const&)", "??"),
    ("torch::autograd::python::PythonEngine::thread_init(int, std::shared_ptr<torch::autograd::ReadyQueue> const&, "
     "bool)", "??"),
    ("clone", "??"),
)  # fmt: skip
WORKSPACE_IN_FORWARD = _frames(
    *ALLOCATOR,
    ("at::cuda::getNewWorkspace()", ""),
    ("at::cuda::getCurrentCUDABlasHandle()", "??"),
    *BMM,
    ("at::native::einsum(std::basic_string_view<char, std::char_traits<char> >, c10::ArrayRef<at::Tensor>, "
     "c10::OptionalArrayRef<long>)", "??"),
    ("torch::autograd::THPVariable_einsum(_object*, _object*, _object*)", "python_torch_functions_0.cpp"),
    ("einsum", f"{SITE}/torch/functional.py"),
    ("forward", "model.py"),
    ("_call_impl", MODULE_PY),
    ("train", "train.py"),
)  # fmt: skip
WORKSPACE_HANDLE_ONLY = _frames(
    *ALLOCATOR,
    ("at::cuda::getCurrentCUDABlasHandle()", "??"),
    ("void at::cuda::blas::gemm_internal_cublas<float, float>(char, char, long, long, long, "
     "at::OpMathType<float>::type, float const*, long, float const*, long, at::OpMathType<float>::type, float*, long)",
     ""),
    *BMM,
    ("forward", f"{SITE}/transformers/models/qwen3/modeling_qwen3.py"),
    ("_call_impl", MODULE_PY),
    ("train", "train.py"),
)  # fmt: skip


def _snapshot(sim: DeviceAllocatorSim) -> Snapshot:
    return load_snapshot(pickle.dumps(sim.snapshot()))


def _final_categories(snap: Snapshot) -> dict[int, tuple[str, str]]:
    """addr -> (category, rule in words) of every block live at the end of device 0's trace."""
    tl = build_timeline(snap, 0)
    state, event = tl.state_at(tl.n_events - 1), tl.n_events - 1
    codes, rules = block_categories(snap, tl, state, event), block_rules(snap, tl, state, event)
    live = np.flatnonzero(state.blocks.state != BlockState.INACTIVE)
    return {int(state.blocks.address[i]): (CATEGORIES[int(codes[i])], RULE_TEXTS[int(rules[i])]) for i in live.tolist()}


def test_cublas_workspaces_are_library_workspaces_in_any_phase() -> None:
    sim = DeviceAllocatorSim(8 << 30)
    weight = sim.malloc(64 * MiB, frames=MOVE)
    act = sim.malloc(32 * MiB, frames=FORWARD)
    forward_ws = sim.malloc(8519680, frames=WORKSPACE_IN_FORWARD)
    handle_ws = sim.malloc(8519680, frames=WORKSPACE_HANDLE_ONLY)
    backward_ws = sim.malloc(8519680, frames=WORKSPACE_IN_BACKWARD)
    grad = sim.malloc(16 * MiB, frames=BACKWARD)  # kept past backward: a gradient, as the workspace was called
    sim.free(act, frames=BACKWARD)
    got = _final_categories(_snapshot(sim))
    for block in (forward_ws, handle_ws, backward_ws):
        category, rule = got[block.addr]
        assert category == "library_workspaces" and "getCurrentCUDABlasHandle" in rule
    assert got[grad.addr][0] == "gradients" and got[weight.addr][0] == "parameters"


def _raw_live(raw: dict[str, Any], device: int, event: int) -> dict[int, tuple[int, list[dict[str, Any]]]]:
    """addr -> (size, frames) of the blocks live right after `event`, walking the raw trace (an independent
    reading), with the blocks the snapshot ends with that the trace never allocated (live from the start)."""
    trace = raw["device_traces"][device]
    allocated = {e["addr"] for e in trace if e["action"] == "alloc"}
    live = {
        b["address"]: (b["size"], b.get("frames", []))
        for seg in raw["segments"]
        if seg["device"] == device
        for b in _blocks_with_address(seg)
        if b["state"] == "active_allocated" and b["address"] not in allocated
    }
    for entry in trace[: event + 1]:
        if entry["action"] == "alloc":
            live[entry["addr"]] = (entry["size"], entry["frames"])
        elif entry["action"] == "free_requested":
            live.pop(entry["addr"], None)
    return live


def _blocks_with_address(seg: dict[str, Any]) -> list[dict[str, Any]]:
    addr, out = seg["address"], []
    for b in seg["blocks"]:
        out.append({**b, "address": addr})
        addr += b["size"]
    return out


def _bytes_with(
    live: dict[int, tuple[int, list[dict[str, Any]]]], pattern: str, block_size: dict[int, int] | None = None
) -> int:
    """Bytes of the live blocks with a frame "name filename" that matches `pattern` (the blocks' own sizes where
    `block_size` gives them, else the raw entries')."""
    found = re.compile(pattern)
    return sum(
        block_size[addr] if block_size else size
        for addr, (size, frames) in live.items()
        if any(found.search(f"{f['name']} {f['filename']}") for f in frames)
    )


def test_silmont_peak_workspace_bytes_move_out_of_gradients() -> None:
    path = fixture_path("silmont_mem_snapshot.pickle")
    raw, snap = load_raw(path), load_snapshot(path)
    tl = build_timeline(snap, 0)
    peak = int(np.argmax(tl.series.allocated))
    got = breakdown_at(snap, tl, peak).by_category
    live = _raw_live(raw, 0, peak)
    workspaces = _bytes_with(live, r"getNewWorkspace|getCurrentCUDABlasHandle")
    in_backward = sum(
        size
        for size, frames in live.values()
        if any("getNewWorkspace" in f["name"] for f in frames) and any("BmmBackward0" in f["name"] for f in frames)
    )
    assert (workspaces, in_backward) == (2 * 8_519_680, 8_519_680)
    assert got["library_workspaces"] == workspaces
    # the 10,616,832 bytes called gradients before: the backward workspace is no longer among them
    assert got["gradients"] == 10_616_832 - in_backward


# torch's autocast (aten/src/ATen/autocast_mode.cpp): WrapFunction_<policy, device, ...>::call casts each argument
# with cached_cast, which calls arg.to(lower_precision) -> _to_copy; fp32 leaves that require grad (weights) are
# cached until the autocast region ends
TO_COPY = [
    ("at::native::_to_copy(at::Tensor const&, std::optional<c10::ScalarType>, std::optional<c10::Layout>, "
     "std::optional<c10::Device>, std::optional<bool>, bool, std::optional<c10::MemoryFormat>)", "??"),
    ("at::_ops::_to_copy::call(at::Tensor const&, std::optional<c10::ScalarType>, std::optional<c10::Layout>, "
     "std::optional<c10::Device>, std::optional<bool>, bool, std::optional<c10::MemoryFormat>)", "??"),
    ("at::native::to(at::Tensor const&, c10::ScalarType, bool, bool, std::optional<c10::MemoryFormat>)", "??"),
    ("at::_ops::to_dtype::call(at::Tensor const&, c10::ScalarType, bool, bool, std::optional<c10::MemoryFormat>)",
     "??"),
]  # fmt: skip
EINSUM_WRAPPER = (
    "at::autocast::WrapFunction_<(at::autocast::CastPolicy)0, (c10::DeviceType)1, at::Tensor (std::basic_string_view"
    "<char, std::char_traits<char> >, c10::ArrayRef<at::Tensor>, c10::OptionalArrayRef<long>), &at::_ops::einsum::"
    "call, at::Tensor, c10::guts::typelist::typelist<std::basic_string_view<char, std::char_traits<char> >, c10::"
    "ArrayRef<at::Tensor>, c10::OptionalArrayRef<long> > >::call(std::basic_string_view<char, std::char_traits<char> "
    ">, c10::ArrayRef<at::Tensor>, c10::OptionalArrayRef<long>)"
)
EINSUM_CALLERS = [
    ("at::_ops::einsum::call(std::basic_string_view<char, std::char_traits<char> >, c10::ArrayRef<at::Tensor>, "
     "c10::OptionalArrayRef<long>)", "??"),
    ("torch::autograd::THPVariable_einsum(_object*, _object*, _object*)", "python_torch_functions_0.cpp"),
    ("einsum", f"{SITE}/torch/functional.py"),
    ("forward", "model.py"),
    ("_call_impl", MODULE_PY),
    ("train", "train.py"),
]  # fmt: skip
AUTOCAST_CAST = _frames(
    *ALLOCATOR,
    *TO_COPY,
    ("at::autocast::cached_cast(c10::ScalarType, at::Tensor const&, c10::DeviceType)", "??"),
    (EINSUM_WRAPPER, "autocast_mode.h"),
    *EINSUM_CALLERS,
)
AUTOCAST_CAST_INLINED = _frames(*ALLOCATOR, *TO_COPY, (EINSUM_WRAPPER, "autocast_mode.h"), *EINSUM_CALLERS)


def test_autocast_casts_of_weights_are_weight_copies_and_of_activations_are_not() -> None:
    sim = DeviceAllocatorSim(8 << 30)
    sim.record_history = False
    early_weight = sim.malloc(10 * MiB, frames=MOVE)  # an fp32 weight loaded before recording began
    sim.record_history = True
    weight = sim.malloc(8 * MiB, frames=MOVE)
    hidden = sim.malloc(6 * MiB, frames=FORWARD)  # an fp32 activation (no weight has its size)
    copy_of_early = sim.malloc(5 * MiB, frames=AUTOCAST_CAST)  # half of each weight: autocast's bf16 copy
    copy_of_weight = sim.malloc(4 * MiB, frames=AUTOCAST_CAST_INLINED)
    cast_hidden = sim.malloc(3 * MiB, frames=AUTOCAST_CAST)  # half of the activation: a cast, not a weight copy
    out = sim.malloc(2 * MiB, frames=FORWARD)
    grad = sim.malloc(1 * MiB, frames=BACKWARD)
    casts = {"copy_of_early": copy_of_early.addr, "copy_of_weight": copy_of_weight.addr, "cast": cast_hidden.addr}
    for block in (copy_of_early, copy_of_weight, cast_hidden, hidden):
        sim.free(block, frames=BACKWARD)  # saved for backward, which frees them (freed blocks merge: addr read before)
    snap = _snapshot(sim)
    tl = build_timeline(snap, 0)
    trace = snap.trace(0)
    got: dict[str, tuple[str, str]] = {}
    for name, addr in casts.items():  # each looked at while alive: its category belongs to its whole life
        at = int(np.flatnonzero((trace.action == 0) & (trace.addr == addr))[0])
        state = tl.state_at(at)
        i = int(np.flatnonzero((state.blocks.address == addr) & (state.blocks.state != BlockState.INACTIVE))[0])
        got[name] = (
            CATEGORIES[int(block_categories(snap, tl, state, at)[i])],
            RULE_TEXTS[int(block_rules(snap, tl, state, at)[i])],
        )
    assert got["copy_of_early"][0] == got["copy_of_weight"][0] == "autocast_weight_copies"
    assert "autocast" in got["copy_of_weight"][1]
    assert got["cast"][0] == "activations"
    final = _final_categories(snap)
    assert final[early_weight.addr][0] == "before_recording" and final[weight.addr][0] == "parameters"
    assert final[out.addr][0] == "activations" and final[grad.addr][0] == "gradients"


# constructor_memory_snapshot.pickle: a batch's .to(device) in the training loop (stack 18), torch_geometric's
# DataParallel scatter (stack 4), and a mask moved inside the model's forward (stack 40)
DISPATCH_TO = [
    ("at::_ops::_to_copy::call(at::Tensor const&, std::optional<c10::ScalarType>, std::optional<c10::Layout>, "
     "std::optional<c10::Device>, std::optional<bool>, bool, std::optional<c10::MemoryFormat>)", "??"),
    ("at::Tensor::to(c10::TensorOptions, bool, bool, std::optional<c10::MemoryFormat>) const", "??"),
    ("torch::autograd::dispatch_to(at::Tensor const&, c10::Device, bool, bool, std::optional<c10::MemoryFormat>)",
     "python_variable_methods.cpp"),
    ("torch::autograd::THPVariable_to(_object*, _object*, _object*)", "python_variable_methods.cpp"),
]  # fmt: skip
BATCH_TO_DEVICE = _frames(
    *ALLOCATOR,
    *DISPATCH_TO,
    ("<dictcomp>", "/mnt/data3/u/CurProject/src/train/trainers.py"),
    ("train", "/mnt/data3/u/CurProject/src/train/trainers.py"),
    ("main", "/mnt/data3/u/CurProject/src/train/start_train.py"),
)
PYG_SCATTER = _frames(
    *ALLOCATOR,
    *DISPATCH_TO,
    ("<lambda>", f"{SITE}/torch_geometric/data/data.py"),
    ("apply", f"{SITE}/torch_geometric/data/storage.py"),
    ("to", f"{SITE}/torch_geometric/data/data.py"),
    ("<listcomp>", f"{SITE}/torch_geometric/nn/data_parallel.py"),
    ("scatter", f"{SITE}/torch_geometric/nn/data_parallel.py"),
    ("forward", f"{SITE}/torch_geometric/nn/data_parallel.py"),
    ("_call_impl", MODULE_PY),
    ("train", "/mnt/data3/u/CurProject/src/train/trainers.py"),
)
MASK_IN_FORWARD = _frames(
    *ALLOCATOR,
    ("at::_ops::to_device::call(at::Tensor const&, c10::Device, c10::ScalarType, bool, bool, "
     "std::optional<c10::MemoryFormat>)", "??"),
    ("torch::autograd::THPVariable_to(_object*, _object*, _object*)", "python_variable_methods.cpp"),
    ("_preprocess_mask_arguments", f"{SITE}/transformers/masking_utils.py"),
    ("forward", f"{SITE}/transformers/models/qwen3/modeling_qwen3.py"),
    ("_call_impl", MODULE_PY),
    ("train", "/mnt/data3/u/CurProject/src/train/trainers.py"),
)  # fmt: skip
# a dtype change in the script is no move to the device (cranberrii's .to(dtype) frames)
TO_DTYPE_IN_SCRIPT = _frames(
    *ALLOCATOR,
    *TO_COPY,
    ("torch::autograd::THPVariable_to(_object*, _object*, _object*)", "python_variable_methods.cpp"),
    ("prepare", "train.py"),
    ("main", "train.py"),
)


def test_batches_moved_to_the_device_are_inputs() -> None:
    sim = DeviceAllocatorSim(8 << 30)
    sim.malloc(64 * MiB, frames=MOVE)
    batch = sim.malloc(4 * MiB, frames=BATCH_TO_DEVICE)
    halves = sim.malloc(2 * MiB, frames=TO_DTYPE_IN_SCRIPT)
    scattered = sim.malloc(3 * MiB, frames=PYG_SCATTER)
    mask = sim.malloc(1 * MiB, frames=MASK_IN_FORWARD)
    act = sim.malloc(5 * MiB, frames=FORWARD)
    sim.malloc(6 * MiB, frames=BACKWARD)
    sim.free(act, frames=BACKWARD)
    got = _final_categories(_snapshot(sim))
    assert got[batch.addr][0] == got[scattered.addr][0] == "inputs"
    assert "a batch sent to the device" in got[batch.addr][1]
    assert got[mask.addr][0] == "activations"  # the model moves it inside its forward: not an input
    assert got[halves.addr][0] == "unknown"  # a dtype change, no device move


# constructor_memory_snapshot.pickle stack 37: DataParallel copying the weights to another device; stack 202: the
# flat buffer broadcast_coalesced packs them into on the source device, freed at once
REPLICATE = [
    ("torch::cuda::broadcast_coalesced(c10::ArrayRef<at::Tensor>, c10::ArrayRef<long>, unsigned long)", "??"),
    ("broadcast_coalesced", f"{SITE}/torch/nn/parallel/comm.py"),
    ("forward", f"{SITE}/torch/nn/parallel/_functions.py"),
    ("apply", f"{SITE}/torch/autograd/function.py"),
    ("_broadcast_coalesced_reshape", f"{SITE}/torch/nn/parallel/replicate.py"),
    ("replicate", f"{SITE}/torch/nn/parallel/replicate.py"),
    ("replicate", f"{SITE}/torch/nn/parallel/data_parallel.py"),
    ("forward", f"{SITE}/torch_geometric/nn/data_parallel.py"),
    ("_call_impl", MODULE_PY),
    ("train", "/mnt/data3/u/CurProject/src/train/trainers.py"),
]
REPLICA = _frames(
    *ALLOCATOR,
    ("at::empty(c10::ArrayRef<long>, c10::TensorOptions, std::optional<c10::MemoryFormat>)", ""),
    ("torch::cuda::broadcast(at::Tensor const&, c10::ArrayRef<long>)", "??"),
    *REPLICATE,
)
FLAT_BUFFER = _frames(
    *ALLOCATOR,
    ("at::native::flatten_dense_tensors(c10::ArrayRef<at::Tensor>)", "??"),
    *REPLICATE,
)


def test_dataparallel_replicas_are_parameters_and_its_flat_buffers_temporaries() -> None:
    sim = DeviceAllocatorSim(8 << 30)
    flat = sim.malloc(64 * MiB, frames=FLAT_BUFFER)
    flat_addr = flat.addr
    sim.free(flat)  # the free carries the alloc stack: within the same forward
    replica = sim.malloc(48 * MiB, frames=REPLICA)
    act = sim.malloc(5 * MiB, frames=FORWARD)
    sim.malloc(6 * MiB, frames=BACKWARD)
    sim.free(act, frames=BACKWARD)
    snap = _snapshot(sim)
    category, rule = _final_categories(snap)[replica.addr]
    assert category == "parameters" and rule.startswith("replica (DataParallel broadcast")
    tl = build_timeline(snap, 0)
    life = tl.lifetimes
    flat_life = int(np.flatnonzero(life.addr == flat_addr)[0])
    assert CATEGORIES[int(lifetime_categories(snap, tl)[flat_life])] == "temporaries"


@pytest.mark.parametrize("device", [1, 2])
def test_constructor_replicas_and_inputs_on_the_other_devices(device: int) -> None:
    path = fixture_path("constructor_memory_snapshot.pickle")
    raw, snap = load_raw(path), load_snapshot(path)
    tl = build_timeline(snap, device)
    peak = int(np.argmax(tl.series.allocated))
    got = breakdown_at(snap, tl, peak)
    live = _raw_live(raw, device, peak)
    replicas = _bytes_with(live, r"nn/parallel/replicate\.py")
    assert replicas == 251_666_432
    assert got.by_category["parameters"] == replicas
    assert any(r.category == "parameters" and r.rule.startswith("replica") and r.bytes == replicas for r in got.by_rule)
    # the raw entries' sizes are the requests: the blocks holding them are the state's
    state = tl.state_at(peak)
    block_size = dict(zip(state.blocks.address.tolist(), state.blocks.size.tolist(), strict=True))
    scattered = _bytes_with(live, r"^scatter .*torch_geometric/nn/data_parallel\.py", block_size)
    assert got.by_category["inputs"] == scattered > 0


# what torch.cuda._memory_viz._profile_to_snapshot writes: a 'category' on each alloc entry (the profiler's
# Category, lower-cased) and frames that name the Python calls only (filename "none", line 0)
PROFILE_SIZES = {"parameter": 4 * MiB, "activation": 3 * MiB, "autograd_detail": 2 * MiB, "input": MiB, "unknown": MiB}


def _profile_snapshot() -> dict[str, Any]:
    sim = DeviceAllocatorSim(8 << 30)
    frames = [{"filename": "none", "line": 0, "name": "nn.Module: Linear_0"}]
    blocks = {name: sim.malloc(size, frames=frames) for name, size in PROFILE_SIZES.items()}
    sim.free(blocks["autograd_detail"])
    raw = sim.snapshot()
    allocs = [e for e in raw["device_traces"][0] if e["action"] == "alloc"]
    for entry, name in zip(allocs, PROFILE_SIZES, strict=True):
        entry["category"] = name
    return raw


@pytest.mark.parametrize("pure", [False, True], ids=["compiled", "pure"])
def test_a_files_own_categories_are_used_and_said(pure: bool, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    if pure:
        monkeypatch.setenv("GPUMEM_GUI_PURE_PYTHON", "1")
    raw = _profile_snapshot()
    snap = load_snapshot(pickle.dumps(raw))
    written = {row: e["category"] for row, e in enumerate(raw["device_traces"][0]) if "category" in e}
    assert snap.trace(0).categories == written and sorted(written.values()) == sorted(PROFILE_SIZES)
    tl = build_timeline(snap, 0)
    cats = [CATEGORIES[int(c)] for c in lifetime_categories(snap, tl)]
    rules = lifetime_rules(snap, tl).tolist()
    got = dict(zip(PROFILE_SIZES, zip(cats, rules, strict=True), strict=True))  # lifetimes in order of allocation
    assert got["parameter"] == ("parameters", FROM_FILE) and got["activation"] == ("activations", FROM_FILE)
    assert got["autograd_detail"] == ("temporaries", FROM_FILE) and got["input"] == ("inputs", FROM_FILE)
    assert got["unknown"][1] != FROM_FILE  # the file does not know: the rules decide
    final = breakdown_at(snap, tl, tl.n_events - 1)
    assert final.category_source == "file"
    assert (final.by_category["parameters"], final.by_category["inputs"]) == (4 * MiB, MiB)
    diagnosis = diagnose(snap, 0)
    assert any("the file's own categories" in f for f in diagnosis.findings)
    # the worker hands the file's categories to the window with the rest of the trace
    save_parts(tmp_path / "parts", snap, {0: tl})
    again, _ = load_parts(tmp_path / "parts")
    assert again.trace(0).categories == snap.trace(0).categories


def _all_files() -> Sequence[Path]:
    examples = sorted(example_path("training_leak").parent.glob("*.pickle"))
    return [fixture_path(name) for name in FIXTURE_NAMES] + examples


def test_every_block_has_a_documented_category_and_the_rule_that_chose_it() -> None:
    readme = (Path(__file__).parent.parent / "README.md").read_text()
    section = readme.split("## Who holds the memory", 1)[1].split("\n## ", 1)[0]
    documented = set(re.findall(r"^\| `(\w+)` \|", section, re.MULTILINE))
    assert documented == set(CATEGORIES)
    for path in _all_files():
        snap = load_snapshot(path)
        for device in snap.devices():
            tl = build_timeline(snap, device)
            cats, rules = lifetime_categories(snap, tl), lifetime_rules(snap, tl)
            assert ((rules >= 0) & (rules < len(RULE_TEXTS))).all(), path.name
            by_rule = np.array([r.category for r in RULES], np.int8)
            ruled = rules < len(RULES)
            assert (cats[ruled] == by_rule[rules[ruled]]).all(), path.name
            assert not (rules == FROM_FILE).any(), path.name  # none of these files carries categories
            b = breakdown_at(snap, tl, tl.n_events - 1)  # -1 for a file without a trace: its final state
            assert sum(r.bytes for r in b.by_rule) == b.allocated_bytes == sum(b.by_category.values()), path.name
            assert all(r.rule in RULE_TEXTS and r.category in CATEGORIES for r in b.by_rule), path.name


def test_block_details_say_the_category_and_its_rule() -> None:
    sim = DeviceAllocatorSim(8 << 30)
    workspace = sim.malloc(8519680, frames=WORKSPACE_IN_BACKWARD)
    doc = SnapshotDocument(_snapshot(sim))
    frame = doc.frame()
    index = int(np.flatnonzero(frame.state.blocks.address == workspace.addr)[0])
    details = doc.block_details(index)
    assert details.category == "library_workspaces"
    assert details.category_rule == RULES[1].says
