"""Stacks that name the user's code: frame classes, the frames shown, the site of a stack, and the CSV's top_frame."""

from __future__ import annotations

import csv
import io
from typing import Any

import numpy as np
import pytest

from gpumem_gui.core.analysis.export import blocks_csv
from gpumem_gui.core.snapshot.frame_kinds import FrameKind, frame_kind, qualified_name, short_name
from gpumem_gui.core.snapshot.loader import load_snapshot
from gpumem_gui.core.snapshot.model import Frame, StackTable
from gpumem_gui.core.snapshot.stacks import (
    NO_SITE,
    filter_frames,
    site_frame,
    site_label,
    stack_site_label,
    stack_sites,
)
from tests.conftest import fixture_path, load_raw
from tests.site_oracle import raw_site

SITE = "/venv/lib/python3.11/site-packages"
CASES = {
    FrameKind.USER: [
        Frame("forward", "/home/u/proj/model.py", 42),
        Frame("softmax", "D:\\Dev\\proj\\nn_utils.py", 9),
        Frame("<module>", "<ipython-input-3-abc>", 2),
        Frame("<module>", "/tmp/ipykernel_114/3105878423.py", 21),
    ],
    FrameKind.LIBRARY: [
        Frame("forward", f"{SITE}/transformers/models/llama/modeling_llama.py", 88),
        Frame("collate", f"{SITE}/torch_geometric/data/collate.py", 7),  # torch_geometric is not torch
        Frame("einsum", "D:\\Dev\\a\\.venv\\Lib\\site-packages\\einops\\_backends.py", 291),
        Frame("forward", "/usr/lib/python3/dist-packages/peft/tuners/lora/bnb.py", 474),
    ],
    FrameKind.TORCH: [
        Frame("_call_impl", f"{SITE}/torch/nn/modules/module.py", 1527),
        Frame("einsum", "D:\\Dev\\p\\.venv\\Lib\\site-packages\\torch\\functional.py", 402),
        Frame("forward", "<eval_with_key>.3", 5),
    ],
    FrameKind.STDLIB: [
        Frame("run", "/home/u/anaconda3/envs/gnn/lib/python3.11/threading.py", 982),
        Frame("run", "C:\\Python311\\Lib\\threading.py", 982),
        Frame("_run_code", "<frozen runpy>", 88),
    ],
    FrameKind.NATIVE: [
        Frame("at::native::randn(c10::ArrayRef<long>, std::optional<c10::ScalarType>)", "??", 0),
        Frame("torch::autograd::THPVariable_randn(_object*, _object*, _object*)", "python_torch_functions_2.cpp", 0),
        Frame("torch::autograd::generated::BmmBackward0::apply(std::vector<at::Tensor> >&&)", "??", 0),
        Frame("void at::cuda::blas::bgemm<float>(char, char, long)", "", 0),
    ],
    FrameKind.PLUMBING: [
        Frame("torch::unwind::unwind()", "??", 0),
        Frame("torch::CapturedTraceback::gather(bool, bool, bool)", "??", 0),
        Frame(
            "c10::cuda::CUDACachingAllocator::Native::DeviceCachingAllocator::malloc(signed char, unsigned long)",
            "CUDACachingAllocator.cpp",
            0,
        ),
        Frame(
            "c10::impl::wrap_kernel_functor_unboxed_<c10::impl::detail::F<at::Tensor (long)> >::call(long)",
            "RegisterCUDA.cpp",
            0,
        ),
        Frame("at::_ops::randn::call(c10::ArrayRef<c10::SymInt>)", "??", 0),
        Frame("at::_ops::randn::redispatch(c10::DispatchKeySet, c10::ArrayRef<c10::SymInt>)", "??", 0),
        Frame("at::TensorBase at::detail::_empty_generic<long>(c10::ArrayRef<long>)", "", 0),
        Frame("torch::autograd::Engine::thread_main(std::shared_ptr<torch::autograd::GraphTask> const&)", "??", 0),
        Frame("torch::autograd::Node::operator()(std::vector<at::Tensor, std::allocator<at::Tensor> >&&)", "", 0),
        Frame("c10::TensorImpl::~TensorImpl() [clone .localalias]", "TensorImpl.cpp", 0),
        Frame("std::vector<at::Tensor, std::allocator<at::Tensor> >::~vector()", "??", 0),
        Frame("_start", "??", 0),
        Frame("__libc_start_main", "??", 0),
    ],
    FrameKind.INTERPRETER: [
        Frame("_PyEval_EvalFrameDefault", "??", 0),
        Frame("cfunction_call", "/usr/local/src/conda/python-3.12.3/Objects/methodobject.c", 537),
        Frame("method_vectorcall", "", 0),
        Frame("pymain_run_file_obj", "/usr/local/src/conda/python-3.12.3/Modules/main.c", 360),
        Frame("_PyEval_EvalFrame", "/usr/local/src/conda/python-3.12.3/Include/internal/pycore_ceval.h", 89),
        Frame("subtype_dealloc", "", 0),
    ],
}


@pytest.mark.parametrize("kind", list(CASES))
def test_each_class_of_frame(kind: FrameKind) -> None:
    assert [frame_kind(f) for f in CASES[kind]] == [kind] * len(CASES[kind])
    hidden = kind in (FrameKind.PLUMBING, FrameKind.INTERPRETER)
    assert all(bool(filter_frames([f])) != hidden for f in CASES[kind])  # the frames a stack shows


def test_qualified_names_lose_return_type_and_arguments() -> None:
    assert qualified_name("void at::cuda::blas::bgemm<float>(char, char, long)") == "at::cuda::blas::bgemm<float>"
    assert qualified_name("c10::TensorImpl::~TensorImpl() [clone .localalias]") == "c10::TensorImpl::~TensorImpl"
    assert (
        qualified_name("at::(anonymous namespace)::wrapper_CUDA_exp(at::Tensor const&)")
        == "at::{anon}::wrapper_CUDA_exp"
    )
    assert qualified_name("std::vector<at::Tensor, std::allocator<at::Tensor> >::~vector()") == (
        "std::vector<at::Tensor, std::allocator<at::Tensor> >::~vector"
    )
    assert qualified_name("_PyEval_EvalFrameDefault") == "_PyEval_EvalFrameDefault"
    nested = (
        "torch::autograd::AccumulateGrad::accumulateGrad<torch::autograd::AccumulateGrad::apply(a)::{lambda(b)#1}>(c)"
    )
    assert short_name(nested) == "AccumulateGrad::accumulateGrad"


# a recorded stack in the order torch writes it (innermost first), C++ and Python interleaved
UNWIND, MALLOC, OPS, RANDN, BINDING, CALL, EVAL = (
    CASES[FrameKind.PLUMBING][0],
    CASES[FrameKind.PLUMBING][2],
    CASES[FrameKind.PLUMBING][4],
    CASES[FrameKind.NATIVE][0],
    CASES[FrameKind.NATIVE][1],
    CASES[FrameKind.INTERPRETER][1],
    CASES[FrameKind.INTERPRETER][0],
)
MODULE_CALL, USER, LIB, THREAD = (
    CASES[FrameKind.TORCH][0],
    CASES[FrameKind.USER][0],
    CASES[FrameKind.LIBRARY][0],
    CASES[FrameKind.STDLIB][0],
)
RECORDED = [UNWIND, MALLOC, OPS, RANDN, BINDING, CALL, MODULE_CALL, EVAL, LIB, EVAL, USER, CALL, THREAD, EVAL]


def test_filter_frames_puts_python_first_and_drops_the_plumbing() -> None:
    assert filter_frames(RECORDED) == [MODULE_CALL, LIB, USER, THREAD, RANDN, BINDING]
    assert filter_frames([]) == []


def test_the_site_is_the_innermost_user_frame_with_fallbacks() -> None:
    assert site_frame(RECORDED) == USER  # the user's own line, not the library it called (transformers)
    # ... and the library line below it: a third-party one, not torch's module.py that is innermost
    assert (
        stack_site_label(RECORDED)
        == "/home/u/proj/model.py:42:forward via transformers/models/llama/modeling_llama.py:88:forward"
    )
    no_user = [UNWIND, MALLOC, RANDN, MODULE_CALL, EVAL, THREAD]
    assert site_frame(no_user) == MODULE_CALL  # no user frame nor third-party one: the innermost Python frame
    assert stack_site_label(no_user) == "torch/nn/modules/module.py:1527:_call_impl"  # from the package on
    node = CASES[FrameKind.NATIVE][2]
    engine = CASES[FrameKind.PLUMBING][7]
    assert site_frame([UNWIND, MALLOC, OPS, RANDN, node, engine]) == node  # the autograd thread: its node
    assert site_label(node) == "BmmBackward0::apply"
    assert stack_site_label([UNWIND, MALLOC, OPS, RANDN, node, engine]) == "backward of bmm, forward line not recorded"
    assert site_frame([UNWIND, MALLOC, OPS, RANDN, engine]) is None
    assert stack_site_label([UNWIND, MALLOC, OPS, RANDN, engine]) is None
    assert site_label(USER) == "/home/u/proj/model.py:42:forward"


def test_stack_sites_of_a_hand_made_table() -> None:
    frames = [UNWIND, USER, LIB, MODULE_CALL, CASES[FrameKind.NATIVE][2]]
    # stacks: [UNWIND, MODULE_CALL, LIB] -> LIB; [USER] -> USER; [UNWIND] -> none; [node] -> node; [MODULE_CALL, LIB]
    ids = [0, 3, 2, 1, 0, 4, 3, 2]
    table = StackTable(frames, np.array([0, 3, 4, 5, 6, 8]), np.array(ids, np.int32))
    sites, labels = stack_sites(table)
    lib = "transformers/models/llama/modeling_llama.py:88:forward"
    assert labels == [lib, site_label(USER), "backward of bmm, forward line not recorded"]
    assert sites.tolist() == [0, 1, NO_SITE, 2, 0]
    again, labels_again = stack_sites(table)
    assert again is sites and labels_again == labels  # computed once per table
    labels_again.append("x")
    assert stack_sites(table)[1] == labels  # a caller's list is its own
    empty_sites, empty_labels = stack_sites(StackTable.empty())
    assert len(empty_sites) == 0 and empty_labels == []


def _oracle(frames: list[dict[str, Any]]) -> str:
    return raw_site(frames) or ""


REAL_WITH_CPP = ["silmont_mem_snapshot.pickle", "cranberrii_memory_snapshot.pickle"]


@pytest.mark.slow
@pytest.mark.parametrize("name", REAL_WITH_CPP)
def test_sites_of_real_trace_events_match_the_raw_pickle(name: str) -> None:
    path = fixture_path(name)
    raw, snapshot = load_raw(path), load_snapshot(path)
    sites, labels = stack_sites(snapshot.stacks)
    checked = with_cpp = 0
    for device, events in enumerate(raw["device_traces"]):
        stack = snapshot.traces[device].stack
        assert len(stack) == len(events)
        for i, event in enumerate(events):
            frames = event.get("frames") or []
            site = int(sites[stack[i]]) if stack[i] >= 0 else NO_SITE
            assert (labels[site] if site != NO_SITE else "") == _oracle(frames), (device, i)
            checked += bool(frames)
            with_cpp += any(f["filename"].endswith(".cpp") for f in frames)
    assert checked and with_cpp  # the file does have C++ stacks


@pytest.mark.parametrize("name", [*REAL_WITH_CPP, "constructor_memory_snapshot.pickle"])
def test_export_top_frame_is_the_site_of_every_block(name: str) -> None:
    path = fixture_path(name)
    raw, snapshot = load_raw(path), load_snapshot(path)
    expected = {
        (seg.get("device", 0), b["address"]): _oracle(b.get("frames") or [])
        for seg in raw["segments"]
        for b in seg["blocks"]
    }
    rows = list(csv.DictReader(io.StringIO(blocks_csv(snapshot.state, snapshot.stacks))))
    got = {(int(r["device"]), int(r["address"], 16)): r["top_frame"] for r in rows}
    assert got == expected
    assert sum(bool(v) for v in got.values()) > len(got) // 10  # most blocks with frames have a site


def test_sites_agree_with_site_frame_for_every_stack() -> None:
    snapshot = load_snapshot(fixture_path("constructor_memory_snapshot.pickle"))
    sites, labels = stack_sites(snapshot.stacks)
    for i in range(len(snapshot.stacks)):
        frames = snapshot.stacks.stack(i)
        label = labels[sites[i]] if sites[i] != NO_SITE else None
        assert label == stack_site_label(frames)
        frame = site_frame(frames)
        assert (label is None) == (frame is None)
        assert label is None or label.startswith(site_label(frame)) or "backward" in label
    # nearly every site is the user's (the exceptions: DataParallel's worker threads, with no user frame)
    assert sum(label.startswith("torch/") for label in labels) <= 2 < len(labels)
    assert not any("Allocator" in label or "PyEval" in label for label in labels)
