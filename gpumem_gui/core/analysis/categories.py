"""What a block's memory is for (parameters, gradients, optimizer state, activations, ...): stacks and lifetimes.

The rules, in the order they are tried (the first that holds names the block; RULES below is the same list, and
each rule's words are what the block details and `explain --json` show of it):

1. before_recording: the trace has no alloc event for the block (it was live before recording began, or the
   file has no trace); its stack, if any, says where but not when, so it is counted apart.
2. library_workspaces: allocated inside a library's workspace set-up (cuBLAS's `at::cuda::getNewWorkspace` <-
   `getCurrentCUDABlasHandle`, cuBLASLt's, cuDNN's, NCCL's buffers): made once per handle and stream, kept for the
   whole process, whatever phase first needed them. Without C++ frames (stacks="python"), cuBLAS's by its size and
   life: exactly a default workspace (32 MiB on Hopper, 8.125 MiB before), the first of that size in its phase,
   never freed, and the only block of that size its stack keeps (see _workspaces_by_size).
3. parameters: allocated while a model was loaded or built (`Module.to/_apply/cuda`, `reset_parameters`,
   `torch/nn/parameter.py`, `load_state_dict`, `from_pretrained`, a module's `__init__` outside any forward).
4. gradients: allocated by the autograd engine's AccumulateGrad node, which makes `.grad`.
5. autocast_weight_copies: autocast's cast of an op's argument (C++ frames in `at::autocast::` calling
   `_to_copy`, no Python `.to()`) whose size is half that of a weight block (allocated before recording, loaded,
   or replicated): the fp16/bf16 copy of an fp32 weight that autocast caches until its region ends.
6. activations: allocated in a forward that runs inside backward (checkpointing's recomputation: frames of
   torch/utils/checkpoint.py, or a forward stretch between two backward stretches).
7. temporaries: allocated and freed within one stretch of the same phase (a forward's scratch buffers, the
   foreach buffers of an optimizer step, backward's gradients of intermediate values): short-lived.
8. inputs: a batch sent to the device: DataParallel's scatter, or a `.to(device)`/`.cuda()` (or a batch
   helper such as accelerate's `send_to_device`, transformers' `BatchEncoding.to`) outside any forward, backward
   or optimizer step, and kept past the stretch that made it (a collate's scratch space is rule 7). Limits: a
   plain `.to(device)` shows only in C++ frames (`dispatch_to(Tensor, Device)`, `THPVariable_cuda`); a file with
   Python frames alone names only the helpers and the scatter; a model that moves a tensor inside its forward
   makes activations or temporaries, not inputs.
9. parameters: a replica of the weights that DataParallel broadcast to another device (frames of
   torch/nn/parallel/replicate.py) and kept past the forward that made it.
10. optimizer_state: allocated inside the optimizer (`torch/optim/`, `optimizer.py`, fused Adam kernels) and alive
   past its step (exp_avg, exp_avg_sq, momentum buffers).
11. gradients: allocated in backward and alive after that backward stretch (what the optimizer step reads;
   zero_grad or the next backward frees them).
12. activations: allocated in a forward and alive after that forward stretch (saved for backward, or its output).
13. activations: allocated by Python code outside any module's forward (a script's own functions) and freed in
   backward: saved for it.
14. unknown: anything else (no frames, or frames that name none of these phases); shown so, never guessed.

A file that carries categories itself (`torch.cuda._memory_viz._profile_to_snapshot` writes a `category` on each
alloc entry, from PyTorch's memory profiler) is read as it says, before any rule: its "parameter", "gradient",
"optimizer_state", "activation", "temporary" and "input" are ours; "autograd_detail" (backward's intermediate
tensors) counts as temporaries; "unknown" leaves the block to the rules.

A "phase" is read from each stack's frames (one classification per distinct frame, then numpy per stack); the
trace is cut into stretches where the phase stays the same. A free whose stack is the block's allocation stack
(files recorded with context="alloc", and the simulator) says nothing of when it happened, so its phase is that of
the last event before it that has one. A block's category depends on its whole life, not on the moment looked
at: a forward's output is an activation even before backward frees it.
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from gpumem_gui.core.analysis import category_marks as marks
from gpumem_gui.core.analysis.category_marks import frame_marks
from gpumem_gui.core.analysis.timetravel import NEVER, DeviceTimeline, Lifetimes
from gpumem_gui.core.snapshot.frame_kinds import FrameKind, frame_kind, is_autograd_node, qualified_name
from gpumem_gui.core.snapshot.model import I8, Action, Frame, Snapshot, StackTable, TraceTable
from gpumem_gui.core.snapshot.sentences import QT_TRANSLATE_NOOP, Sentence

CATEGORIES: tuple[str, ...] = (
    "parameters",
    "gradients",
    "optimizer_state",
    "activations",
    "temporaries",
    "unknown",
    "before_recording",
    # appended, so that the codes above keep their values
    "library_workspaces",
    "autocast_weight_copies",
    "inputs",
)
(
    PARAMETERS,
    GRADIENTS,
    OPTIMIZER_STATE,
    ACTIVATIONS,
    TEMPORARIES,
    UNKNOWN,
    BEFORE_RECORDING,
    LIBRARY_WORKSPACES,
    AUTOCAST_WEIGHT_COPIES,
    INPUTS,
) = range(len(CATEGORIES))
# each category as a sentence or a list names it
CATEGORY_LABELS: dict[str, str] = {
    **{name: name.replace("_", " ") for name in CATEGORIES},
    "before_recording": "allocated before recording began",
    "library_workspaces": "library workspaces (cuBLAS, cuDNN, NCCL)",
    "autocast_weight_copies": "weight copies made by autocast",
    "inputs": "inputs moved to the device",
}


def category_label(key: str) -> Sentence:
    """A category's label (CATEGORY_LABELS; `key` itself for one it does not know), translated where the window says
    it (the labels are marked in views/common/language.py, CATEGORY_WORDS)."""
    return Sentence("Categories", CATEGORY_LABELS.get(key, key))


# Phases of a stack, most telling first (a stack with several phase frames takes the first in this order)
# (CHECKPOINT reads as FORWARD and INIT as LOAD once a stack's phase is decided)
NONE, ZERO_GRAD, OPTIMIZER, ACCUMULATE_GRAD, CHECKPOINT, BACKWARD, LOAD, FORWARD, INIT, OTHER = range(10)
PHASE_NAMES = (
    "none",
    "zero_grad",
    "optimizer",
    "accumulate_grad",
    "checkpoint",
    "backward",
    "load",
    "forward",
    "init",
    "other",
)

# Frame flags: one bit per phase (bit i = phase i), set by the rules below; the phase of a stack is its lowest bit
_BIT = [1 << p for p in range(len(PHASE_NAMES))]

# Python functions that build or move a model's weights
_LOAD_NAMES = frozenset(
    {"reset_parameters", "load_state_dict", "_load_from_state_dict", "from_pretrained", "_load_state_dict_into_model"}
)
# Module.to / .cuda / ._apply (and transformers' PreTrainedModel.to): moving the model, not a batch, to the GPU
_MODULE_FILE = re.compile(r"(?:nn[/\\]modules[/\\]module|modeling_utils)\.py$")
_PARAMETER_FILE = re.compile(r"nn[/\\]parameter\.py$")
# torch/optim/, optimizer.py, transformers/optimization.py, deepspeed's optimizers: the optimizer's code
_OPTIM_FILE = re.compile(r"(?i)(?:^|[/\\])optim")
_FUSED_OPTIM = re.compile(r"_fused_(?:adam|adamw|sgd|adagrad)|multi_tensor_apply")
# the autograd engine's own C++ (hidden from the frames shown, but it says backward is running)
_ENGINE = ("torch::autograd::Engine::", "torch::autograd::python::PythonEngine::")
_BACKWARD_NAMES = frozenset({"backward", "_engine_run_backward", "run_backward", "_make_grads"})
_FORWARD_NAMES = frozenset({"forward", "_call_impl", "_wrapped_call_impl"})
# torch.utils.checkpoint: a checkpointed forward, and its recomputation inside backward (whose output backward
# consumes: activations, not backward's temporaries)
_CHECKPOINT_FILE = re.compile(r"utils[/\\]checkpoint\.py$")


@lru_cache(maxsize=1 << 16)
def frame_flags(frame: Frame) -> int:
    """The phase bits one frame sets (0 for a frame that names no phase)."""
    kind = frame_kind(frame)
    name, filename = frame.name, frame.filename
    if kind in (FrameKind.USER, FrameKind.TORCH, FrameKind.STDLIB):
        flags = _BIT[OTHER]
        if name == "zero_grad":  # before the optimizer rule: zero_grad lives in torch/optim/optimizer.py
            return flags | _BIT[ZERO_GRAD]
        if _OPTIM_FILE.search(filename):
            flags |= _BIT[OPTIMIZER]
        if name in _BACKWARD_NAMES:
            flags |= _BIT[BACKWARD]
        if _is_load(name, filename):
            flags |= _BIT[LOAD]
        if name in _FORWARD_NAMES:
            flags |= _BIT[FORWARD]
        if _CHECKPOINT_FILE.search(filename):
            flags |= _BIT[CHECKPOINT]
        if name == "__init__":
            flags |= _BIT[INIT]
        return flags
    qualified = qualified_name(name)
    if "AccumulateGrad" in qualified or "accumulateGrad" in qualified:
        return _BIT[ACCUMULATE_GRAD]
    if qualified.startswith(_ENGINE) or is_autograd_node(frame):
        return _BIT[BACKWARD]
    if _FUSED_OPTIM.search(qualified):
        return _BIT[OPTIMIZER]
    return _BIT[OTHER] if kind == FrameKind.NATIVE else 0


def _is_load(name: str, filename: str) -> bool:
    """A function that builds, loads or moves a model's weights (not a batch's `.to()`: that is user code)."""
    if name in _LOAD_NAMES or _PARAMETER_FILE.search(filename):
        return True
    return name in ("to", "cuda", "_apply") and bool(_MODULE_FILE.search(filename))


def stack_phases(stacks: StackTable) -> I8:
    """The phase of every stack of the table (NONE for a stack whose frames name nothing)."""
    return _stack_info(stacks)[1]


def stack_marks(stacks: StackTable) -> npt.NDArray[np.int64]:
    """The category_marks bits of every stack of the table (the OR of its frames' marks)."""
    return _stack_info(stacks)[0]


def _stack_info(stacks: StackTable) -> tuple[npt.NDArray[np.int64], I8]:
    """Per stack: its frames' flags and marks OR-ed together, and its phase (cached per table)."""
    found = _STACK_INFO.get(id(stacks))
    if found is None:
        bits = _stack_bits(stacks)
        phases = _phase_of_bits(bits)
        for array in (bits, phases):
            array.flags.writeable = False
        found = (bits, phases)
        key = id(stacks)
        _STACK_INFO[key] = found
        weakref.finalize(stacks, _STACK_INFO.pop, key, None)
    return found


_STACK_INFO: dict[int, tuple[npt.NDArray[np.int64], I8]] = {}


def _stack_bits(stacks: StackTable) -> npt.NDArray[np.int64]:
    n = len(stacks)
    bits = np.zeros(n, np.int64)
    if n == 0 or len(stacks.frame_ids) == 0:
        return bits
    flags = np.fromiter((frame_flags(f) | frame_marks(f) for f in stacks.frames), np.int64, len(stacks.frames))
    per_position = flags[stacks.frame_ids]
    lengths = np.diff(stacks.offsets)
    nonempty = lengths > 0
    bits[nonempty] = np.bitwise_or.reduceat(per_position, stacks.offsets[:-1][nonempty])
    return bits


def _phase_of_bits(bits: npt.NDArray[np.int64]) -> I8:
    """The lowest set bit wins; a module `__init__` is a load only when no forward/backward/optimizer is running."""
    phase = np.zeros(len(bits), np.int8)
    for p in range(len(PHASE_NAMES) - 1, 0, -1):  # highest first, so that lower (stronger) phases overwrite
        phase[(bits & _BIT[p]) != 0] = p
    phase[phase == CHECKPOINT] = FORWARD
    phase[phase == INIT] = LOAD
    return phase


def _with_none(phases: I8) -> I8:
    return np.append(phases, np.int8(NONE))


def event_phases(snapshot: Snapshot, timeline: DeviceTimeline) -> tuple[I8, npt.NDArray[np.int64]]:
    """Per event of the device's trace: the phase running then, and the index of its stretch (phase run).

    An event's own stack gives its phase; events without one (segment events, frees that carry their allocation's
    stack) take the phase of the last event before them that has one (of the first, at the start of the trace):
    a block freed before anything of the next phase ran did not outlive its own."""
    trace = snapshot.trace(timeline.device)
    n = len(trace)
    phases = stack_phases(snapshot.stacks)
    own = _with_none(phases)[trace.stack]  # NO_STACK (-1) reads the NONE appended at the end
    own[trace.action > Action.FREE_COMPLETED] = NONE
    life = timeline.lifetimes
    # a free that repeats its allocation's stack tells nothing about when it happened
    for column in (life.pend, life.end):
        ok = (column >= 0) & (column < n)
        rows = column[ok]
        own[rows[trace.stack[rows] == life.stack[ok]]] = NONE
    known = np.flatnonzero(own != NONE)
    if not len(known):
        return np.full(n, NONE, np.int8), np.zeros(n, np.int64)
    # the last known event at or before each (the first known one before it): a running maximum of known indices,
    # one short pass (a searchsorted of every event held the GIL for a third of a second at 3M events, stalling the
    # window while a thread of its process computed the named spans)
    # (filled in place: each temporary of millions of int64 is pages to fill)
    last = np.arange(n, dtype=np.int64)
    last[own == NONE] = -1
    np.maximum.accumulate(last, out=last)
    last[: known[0]] = known[0]  # the events before the first known one: those still at -1
    filled = np.take(own, last)
    del last
    # AccumulateGrad runs inside backward: one stretch, or backward's temporaries would outlive "their" stretch
    stretch = np.where(filled == ACCUMULATE_GRAD, BACKWARD, filled)
    run = np.zeros(n, np.int64)
    np.not_equal(stretch[1:], stretch[:-1], out=run[1:])  # int64 first: numpy's bool cumsum is slow
    np.cumsum(run[1:], out=run[1:])
    return filled.astype(np.int8), run


def lifetime_categories(snapshot: Snapshot, timeline: DeviceTimeline) -> I8:
    """The category of every block lifetime of the timeline (cached per timeline: O(events) numpy, once)."""
    return _lifetime_info(snapshot, timeline)[0]


def lifetime_rules(snapshot: Snapshot, timeline: DeviceTimeline) -> I8:
    """The rule that named every block lifetime: an index into RULE_TEXTS (FROM_FILE, NO_RULE past RULES)."""
    return _lifetime_info(snapshot, timeline)[1]


def _lifetime_info(snapshot: Snapshot, timeline: DeviceTimeline) -> tuple[I8, I8]:
    key = id(timeline)
    found = _LIFETIME_CATEGORIES.get(key)
    if found is None or found[0] is not snapshot:
        cats, rules = _lifetime_categories(snapshot, timeline)
        for array in (cats, rules):
            array.flags.writeable = False
        found = (snapshot, cats, rules)
        if key not in _LIFETIME_CATEGORIES:
            weakref.finalize(timeline, _LIFETIME_CATEGORIES.pop, key, None)
        _LIFETIME_CATEGORIES[key] = found
    return found[1], found[2]


_LIFETIME_CATEGORIES: dict[int, tuple[Snapshot, I8, I8]] = {}


def categories_from_file(snapshot: Snapshot, device: int) -> bool:
    """Whether the device's trace carries its own categories (read before the rules, see the module docstring)."""
    return bool(snapshot.trace(device).categories)


@dataclass(frozen=True)
class _Life:
    """What the rules read of every lifetime (arrays of one row per lifetime)."""

    alloc_phase: I8  # the phase of its allocation's stack
    free_phase: I8  # the phase running when it was freed (NONE if it never was)
    recorded: npt.NDArray[np.bool_]  # the trace has its alloc event
    same_stretch: npt.NDArray[np.bool_]  # freed within the stretch of the phase it was allocated in
    recompute: npt.NDArray[np.bool_]  # allocated in a forward stretch that lies between two backward stretches
    marks: npt.NDArray[np.int64]  # category_marks bits of its allocation's stack
    weight_cast: npt.NDArray[np.bool_]  # autocast's cast to half the size of a weight block (see _weight_casts)
    workspace_like: npt.NDArray[np.bool_]  # a cuBLAS workspace by its size and life (see _workspaces_by_size)

    def marked(self, mark: int) -> npt.NDArray[np.bool_]:
        """Per lifetime: its allocation's stack has a frame with one of the `mark` bits."""
        found: npt.NDArray[np.bool_] = (self.marks & mark) != 0
        return found


@dataclass(frozen=True)
class Rule:
    """One row of the rules table: the category it names, in words, and when it holds."""

    category: int
    says: Sentence  # what the block details and `explain --json` show of the rule
    holds: Callable[[_Life], npt.NDArray[np.bool_]]


# The rules of the module docstring, first match wins, in the order they are tried.
RULES: tuple[Rule, ...] = (
    # 1. no alloc event: when and why it was allocated is outside the recording
    Rule(
        BEFORE_RECORDING,
        QT_TRANSLATE_NOOP("CategoryRules", "no alloc event in the trace: live before recording began"),
        lambda b: ~b.recorded,
    ),
    # 2. a library's handle set-up: made when first needed (often inside backward), kept for the whole process
    Rule(
        LIBRARY_WORKSPACES,
        QT_TRANSLATE_NOOP(
            "CategoryRules",
            "allocated by a library's workspace set-up (cuBLAS getNewWorkspace/getCurrentCUDABlasHandle, cuBLASLt,"
            " cuDNN, NCCL): kept for the whole process",
        ),
        lambda b: b.marked(marks.WORKSPACE),
    ),
    # 2b. the same without C++ frames (stacks="python"): a cuBLAS handle's workspace by its size and its life
    Rule(
        LIBRARY_WORKSPACES,
        QT_TRANSLATE_NOOP(
            "CategoryRules",
            "exactly cuBLAS's default workspace (32 MiB on Hopper, 8.125 MiB before), the first block of that size"
            " in its phase, made at its first matrix product and never freed: one per thread and stream (the"
            " autograd thread's has no Python frames)",
        ),
        lambda b: b.workspace_like,
    ),
    # 3. the model's weights, made or moved while it was built or loaded
    Rule(
        PARAMETERS,
        QT_TRANSLATE_NOOP(
            "CategoryRules",
            "allocated while the model was built, loaded or moved (Module.to/_apply, reset_parameters,"
            " load_state_dict, from_pretrained, a module's __init__)",
        ),
        lambda b: b.alloc_phase == LOAD,
    ),
    # 4. AccumulateGrad allocates exactly the .grad of leaf tensors
    Rule(
        GRADIENTS,
        QT_TRANSLATE_NOOP("CategoryRules", "allocated by autograd's AccumulateGrad: a leaf's .grad"),
        lambda b: b.alloc_phase == ACCUMULATE_GRAD,
    ),
    # 5. autocast's cast of an fp32 weight: frames alone cannot tell a weight's cast from an activation's, the size
    #    can (an fp16/bf16 copy is half the fp32 block it copies)
    Rule(
        AUTOCAST_WEIGHT_COPIES,
        QT_TRANSLATE_NOOP(
            "CategoryRules",
            "autocast's cast (at::autocast -> _to_copy, no Python .to()) to half the size of a weight block: the"
            " low-precision copy of an fp32 weight, cached until the autocast region ends",
        ),
        lambda b: b.weight_cast,
    ),
    # 6. a forward inside backward is checkpointing's recomputation: backward consumes what it makes, even where
    #    the trace frees it before the next backward allocation (a gradient-accumulation micro-batch's forward,
    #    between two backwards, reads the same: its short-lived blocks are called activations too)
    Rule(
        ACTIVATIONS,
        QT_TRANSLATE_NOOP("CategoryRules", "made by a forward run inside backward (checkpointing's recomputation)"),
        lambda b: b.recompute & (b.alloc_phase == FORWARD),
    ),
    # 7. gone before its phase ended: scratch space, whatever the phase (never for blocks with no frames)
    Rule(
        TEMPORARIES,
        QT_TRANSLATE_NOOP("CategoryRules", "allocated and freed within one stretch of the same phase (scratch space)"),
        lambda b: b.same_stretch & (b.alloc_phase != NONE),
    ),
    # 8. a batch sent to the device; the move's frames say so only outside the model (a forward that moves its own
    #    tensors is making activations or temporaries)
    Rule(
        INPUTS,
        QT_TRANSLATE_NOOP(
            "CategoryRules",
            "a batch sent to the device: DataParallel's scatter, or a .to(device)/.cuda() (send_to_device,"
            " BatchEncoding.to, ...) outside any forward, backward or optimizer step",
        ),
        lambda b: b.marked(marks.SCATTER) | (b.marked(marks.DATA_MOVE | marks.DEVICE_MOVE) & (b.alloc_phase == OTHER)),
    ),
    # 9. DataParallel's copies of the weights on the other devices (the flat buffers it packs them into on the
    #    source device are freed at once: rule 7)
    Rule(
        PARAMETERS,
        QT_TRANSLATE_NOOP("CategoryRules", "replica (DataParallel broadcast: nn/parallel/replicate.py)"),
        lambda b: b.marked(marks.REPLICA),
    ),
    # 10. made by the optimizer and kept past its step: exp_avg, exp_avg_sq, momentum buffers
    Rule(
        OPTIMIZER_STATE,
        QT_TRANSLATE_NOOP(
            "CategoryRules", "made by the optimizer and kept past its step (exp_avg, exp_avg_sq, momentum buffers)"
        ),
        lambda b: b.alloc_phase == OPTIMIZER,
    ),
    # 11. made in backward and kept past it: what the optimizer step reads (a backward temporary is rule 7)
    Rule(
        GRADIENTS,
        QT_TRANSLATE_NOOP("CategoryRules", "made in backward and kept past it"),
        lambda b: b.alloc_phase == BACKWARD,
    ),
    # 12. made in a forward and kept past it: saved for backward, or the forward's output
    Rule(
        ACTIVATIONS,
        QT_TRANSLATE_NOOP("CategoryRules", "made in a forward and kept past it (saved for backward, or its output)"),
        lambda b: b.alloc_phase == FORWARD,
    ),
    # 13. made by code outside any module's forward (a script's own functions) and freed by backward: saved for it
    Rule(
        ACTIVATIONS,
        QT_TRANSLATE_NOOP(
            "CategoryRules", "made by code outside any module's forward and freed in backward (saved for it)"
        ),
        lambda b: (b.alloc_phase == OTHER) & (b.free_phase == BACKWARD),
    ),
)
FROM_FILE, NO_RULE = len(RULES), len(RULES) + 1
BEFORE_RECORDING_RULE = 0  # RULES[0]: the rule of blocks without an alloc event
RULE_TEXTS: tuple[Sentence, ...] = (
    *(r.says for r in RULES),
    QT_TRANSLATE_NOOP(
        "CategoryRules",
        "the file's own category (torch.cuda._memory_viz._profile_to_snapshot, from PyTorch's memory profiler)",
    ),
    QT_TRANSLATE_NOOP("CategoryRules", "no rule matched (no frames, or frames that name no phase)"),
)

# the categories torch's memory profiler writes (torch.profiler._memory_profiler.Category, lower-cased)
FILE_CATEGORIES: dict[str, int] = {
    "parameter": PARAMETERS,
    "gradient": GRADIENTS,
    "optimizer_state": OPTIMIZER_STATE,
    "activation": ACTIVATIONS,
    "temporary": TEMPORARIES,
    "input": INPUTS,
    "autograd_detail": TEMPORARIES,  # backward's intermediate tensors, freed within it
}


def _recompute_runs(phase: I8, run: npt.NDArray[np.int64]) -> npt.NDArray[np.bool_]:
    """Per stretch: a forward stretch with a backward stretch just before and just after it."""
    change = np.empty(len(run), bool)  # np.r_ over every event would hold the GIL for tens of ms at 3M events
    change[:1] = True
    np.not_equal(run[1:], run[:-1], out=change[1:])
    heads = np.flatnonzero(change)
    kind = np.where(phase[heads] == ACCUMULATE_GRAD, BACKWARD, phase[heads])
    out = np.zeros(len(heads), bool)
    out[1:-1] = (kind[1:-1] == FORWARD) & (kind[:-2] == BACKWARD) & (kind[2:] == BACKWARD)
    return out


def _weight_casts(life: Lifetimes, weight: npt.NDArray[np.bool_], cast: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
    """Per lifetime: a `cast` whose request, doubled, is the request or the block size of some weight's lifetime (an
    fp32 weight cast to fp16/bf16; block sizes too, for files whose blocks from before recording carry no requested
    size). Only the casts are looked up: most files have none."""
    out = np.zeros(len(cast), bool)
    rows = np.flatnonzero(cast)
    if len(rows):
        sizes = np.union1d(life.requested[weight], life.size[weight])
        out[rows] = np.isin(2 * life.requested[rows], sizes)
    return out


def _file_categories(trace: TraceTable, start: npt.NDArray[np.int64]) -> I8:
    """Per lifetime: the category its alloc entry carries in the file (-1 where none, or one the rules decide)."""
    out = np.full(len(start), -1, np.int8)
    if not trace.categories:
        return out
    per_event = np.full(len(trace), -1, np.int8)
    rows = np.fromiter(trace.categories, np.int64, len(trace.categories))
    per_event[rows] = [FILE_CATEGORIES.get(name, -1) for name in trace.categories.values()]
    recorded = (start >= 0) & (start < len(trace))
    out[recorded] = per_event[start[recorded]]
    return out


# cuBLAS's workspace per handle (one per thread and stream), allocated through the caching allocator at the first
# matrix product and kept: CUBLAS_WORKSPACE_CONFIG's default ":4096:8" on Hopper and later, ":4096:2:16:8" before
CUBLAS_WORKSPACE_SIZES = (4096 * 1024 * 8, 4096 * 1024 * 2 + 16 * 1024 * 8)


def _workspaces_by_size(life: Lifetimes, kept: npt.NDArray[np.bool_], phase: I8) -> npt.NDArray[np.bool_]:
    """Per lifetime: cuBLAS's workspace as a trace with Python frames alone shows it (the H200 check's training job:
    32 MiB at the first forward's first linear, "activations", and 32 MiB without frames at the first backward's,
    "unknown", both alive to the end): a block of exactly a default workspace size, never freed (`kept`), the
    first block of that size allocated while its phase (`phase`, the phase running then) ran, and the only block of
    that size its stack keeps (a forward that keeps its 32 MiB hidden states step after step is a leak, not this)."""
    out = np.zeros(len(life.start), bool)
    for size in CUBLAS_WORKSPACE_SIZES:
        rows = np.flatnonzero(life.requested == size)
        if not len(rows):
            continue
        rows = rows[np.argsort(life.start[rows], kind="stable")]
        _, first = np.unique(phase[rows], return_index=True)  # the first of that size in each phase
        chosen = rows[first]
        chosen = chosen[kept[chosen]]
        stacks, counts = np.unique(life.stack[rows[kept[rows]]], return_counts=True)
        alone = counts[np.searchsorted(stacks, life.stack[chosen])] == 1 if len(chosen) else np.zeros(0, bool)
        out[chosen[alone]] = True
    return out


def _lifetime_categories(snapshot: Snapshot, timeline: DeviceTimeline) -> tuple[I8, I8]:
    life = timeline.lifetimes
    m = len(life.start)
    n = timeline.n_events
    ev_phase, ev_run = event_phases(snapshot, timeline)
    start = np.clip(life.start, 0, max(n - 1, 0))
    # the free: its free_requested (pending free) if the trace has it, else its free_completed
    free_at = np.where((life.pend >= 0) & (life.pend < NEVER), life.pend, life.end)
    freed = (free_at >= 0) & (free_at < n)
    free_i = np.clip(free_at, 0, max(n - 1, 0))
    alloc_phase = _with_none(stack_phases(snapshot.stacks))[life.stack]
    stack_mark = np.append(stack_marks(snapshot.stacks), np.int64(0))[life.stack]  # NO_STACK reads the 0 appended
    recorded = (life.start >= 0) & (life.start < n)
    weight = ~recorded | (alloc_phase == LOAD) | ((stack_mark & marks.REPLICA) != 0)
    autocast_cast = (stack_mark & (marks.AUTOCAST | marks.TO_COPY)) == (marks.AUTOCAST | marks.TO_COPY)
    facts = _Life(
        alloc_phase=alloc_phase,
        free_phase=np.where(freed, ev_phase[free_i], NONE).astype(np.int8) if n else np.zeros(m, np.int8),
        recorded=recorded,
        same_stretch=freed & (ev_run[free_i] == ev_run[start]) if n else np.zeros(m, bool),
        recompute=_recompute_runs(ev_phase, ev_run)[ev_run[start]] if n else np.zeros(m, bool),
        marks=stack_mark,
        weight_cast=_weight_casts(life, weight, autocast_cast),
        workspace_like=_workspaces_by_size(life, ~freed & recorded, ev_phase[start] if n else np.zeros(m, np.int8)),
    )
    rule = np.full(m, NO_RULE, np.int8)
    for index in range(len(RULES) - 1, -1, -1):  # last to first, so that earlier rules overwrite later ones
        rule[RULES[index].holds(facts)] = index
    from_file = _file_categories(snapshot.trace(timeline.device), life.start)
    rule[from_file >= 0] = FROM_FILE
    rule_category = np.array([r.category for r in RULES] + [UNKNOWN, UNKNOWN], np.int8)
    cat = np.where(from_file >= 0, from_file, rule_category[rule]).astype(np.int8)
    return cat, rule
