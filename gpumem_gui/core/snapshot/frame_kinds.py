"""What a stack frame is: the user's Python, PyTorch's or Python's own Python, a C++ operation, or plumbing.

Files recorded with `_record_memory_history(stacks="all")` interleave C++ frames (the unwinder, the caching
allocator, the dispatcher, the autograd engine, CPython's C) with the Python ones; PyTorch's own viewer hides a
fixed list of them. These rules go further, so that the frames left name the user's code and the operation.
"""

from __future__ import annotations

import re
from enum import IntEnum
from functools import lru_cache

from gpumem_gui.core.snapshot.model import Frame


class FrameKind(IntEnum):
    USER = 0  # the user's code and the libraries it calls, in Python (transformers, einops, ...)
    TORCH = 1  # PyTorch's own Python (torch/nn/modules/module.py, torch/_tensor.py, ...)
    STDLIB = 2  # Python's standard library (threading.py, runpy.py, <frozen runpy>)
    NATIVE = 3  # C++ that names an operation: an aten kernel, an autograd node, a Python binding
    PLUMBING = 4  # C++ that says nothing about the user: unwinder, allocator, dispatcher, autograd engine, libc
    INTERPRETER = 5  # CPython's C: the eval loop and its call machinery


PYTHON_KINDS = frozenset({FrameKind.USER, FrameKind.TORCH, FrameKind.STDLIB})
HIDDEN_KINDS = frozenset({FrameKind.PLUMBING, FrameKind.INTERPRETER})

KIND_LABELS = {
    FrameKind.USER: "your code (Python)",
    FrameKind.TORCH: "PyTorch (Python)",
    FrameKind.STDLIB: "Python standard library",
    FrameKind.NATIVE: "C++ operation",
    FrameKind.PLUMBING: "allocator / dispatcher / runtime (hidden)",
    FrameKind.INTERPRETER: "CPython interpreter (hidden)",
}

# a folder named torch (or functorch, torchgen) anywhere in the path: site-packages or a source checkout
_TORCH_PATH = re.compile(r"(?:^|[/\\])(?:torch|functorch|torchgen)[/\\]")
# lib/python3.11/threading.py (POSIX) or Lib\threading.py (Windows), but not what is installed in site-packages
_STDLIB_PATH = re.compile(
    r"(?:[/\\]lib(?:64)?[/\\]python\d+(?:\.\d+)*t?[/\\]|[/\\]Lib[/\\])(?!(?:site|dist)-packages[/\\])"
)
# CPython's own sources, as its debug info names them (.../python-3.12.3/Objects/call.c, pycore_ceval.h)
_CPYTHON_FILE = re.compile(
    r"(?:^|[/\\])(?:Python|Objects|Modules|Include|Parser)[/\\].*\.[ch]$|pycore_|ceval|pythonrun"
)
_CPYTHON_NAMES = (
    "Py",
    "_Py",
    "py",  # pymain_run_file_obj, pyrun_file, pythread_wrapper
    "cfunction_",
    "method_vectorcall",
    "slot_",  # slot_tp_call, slot_nb_subtract
    "vectorcall",
    "binary_op",
    "thread_run",
    "run_mod",
    "run_eval_code_obj",
    "builtin_",
    "object_vacall",
    "wrapperdescr_",
    "wrapper_call",
    "type_call",
    "call_function",
    "function_code_fastcall",
    "partial_",
)
# qualified C++ names (arguments and return type cut off) that are the machinery between a call and malloc
_PLUMBING_PREFIXES = (
    "torch::unwind::",
    "torch::CapturedTraceback::",
    "torch::cuda::{anon}::gather",
    "c10::cuda::",  # CUDACachingAllocator and its helpers
    "c10::CachingAllocator",
    "c10::impl::",  # boxing and kernel wrappers
    "c10::Dispatcher",
    "c10::BoxedKernel",
    "c10::KernelFunction",
    "c10::OperatorHandle",
    "c10::detail::",
    "c10::StorageImpl",
    "c10::intrusive_ptr",
    "at::_ops::",  # the dispatcher's entry points (call, redispatch)
    "at::detail::",  # empty_generic, empty_cuda: every factory's allocation
    "at::empty",
    "at::native::empty_",
    "at::{anon}::",  # the generated Register*.cpp wrappers, create_out, set_output_raw_strided
    "torch::autograd::VariableType::",
    "torch::ADInplaceOrView::",
    "torch::autograd::Engine::",
    "torch::autograd::python::PythonEngine::",
    "torch::autograd::Node::operator",  # operator()
    "torch::autograd::deleteNode",
    "torch::autograd::gatherFunctions",
    "torch::autograd::dispatch_to",
    "torch::autograd::TypeError_to_NotImplemented_",
    "torch::handle_torch_function",
    "torch::jit::invokeOperatorFromPython",
    "torch::jit::_get_operation_for_overload_or_packet",
    "at::functorch::dynamicLayer",
    "at::functorch::Interpreter::",
    "c10::callUnboxedKernelFunction",
    "THPVariable_subclass_",
    "THPVariable_dealloc",
    "THPVariable_clear",
    "pybind11::",
    "std::",
    "__gnu_cxx::",
    "__libc",
    "pthread_",
)
_PLUMBING_NAMES = frozenset(
    {"", "??", "_start", "main", "clone", "clone3", "start_thread", "execute_native_thread_routine"}
)
_PLUMBING_FILES = re.compile(
    r"(?:^|[/\\])(?:Register|VariableType)|core/boxing|Redispatch|CachingAllocator|glibc|libstdc"
)
# a backward node that the autograd engine runs (its own threads run no Python): the site of what it allocates
_AUTOGRAD_NODE = re.compile(r"^torch::autograd::(?:generated::(?!details::)\w+|AccumulateGrad|PyNode)::")


def is_python_file(filename: str) -> bool:
    """A Python frame: a .py file, or code without one (<frozen runpy>, <string>, <ipython-input-3-...>)."""
    return filename.endswith((".py", ".pyw", ".pyx")) or filename.startswith("<")


@lru_cache(maxsize=1 << 16)
def frame_kind(frame: Frame) -> FrameKind:
    name, filename = frame.name, frame.filename
    if is_python_file(filename):
        if filename.startswith("<frozen"):
            return FrameKind.STDLIB
        if filename.startswith("<eval_with_key>") or _TORCH_PATH.search(filename):
            return FrameKind.TORCH  # torch.fx's generated forward is PyTorch's code too
        return FrameKind.STDLIB if _STDLIB_PATH.search(filename) else FrameKind.USER
    if _CPYTHON_FILE.search(filename) or ("::" not in name and _is_cpython_name(name)):
        return FrameKind.INTERPRETER
    qualified = qualified_name(name)
    if (
        qualified in _PLUMBING_NAMES
        or qualified.startswith(_PLUMBING_PREFIXES)
        or "::~" in qualified  # destructors: the free path of every tensor
        or "_generated_plumbing" in qualified  # functorch's batching rules
        or _PLUMBING_FILES.search(filename)
    ):
        return FrameKind.PLUMBING
    return FrameKind.NATIVE


def is_autograd_node(frame: Frame) -> bool:
    return frame_kind(frame) == FrameKind.NATIVE and bool(_AUTOGRAD_NODE.match(qualified_name(frame.name)))


def _is_cpython_name(name: str) -> bool:
    # list_dealloc, subtype_dealloc, tupledealloc: CPython freeing objects (THPVariable_* are PyTorch's)
    return name.startswith(_CPYTHON_NAMES) or ("dealloc" in name and not name.startswith("THP"))


def qualified_name(name: str) -> str:
    """A C++ symbol without its return type, arguments and suffixes: `void at::f<int>(long) const` -> `at::f<int>`.

    "(anonymous namespace)" becomes "{anon}", so that the first parenthesis left opens the argument list.
    """
    text = name.replace("(anonymous namespace)", "{anon}")
    depth = 0
    start = 0
    for i, ch in enumerate(text):
        if ch == "<":
            depth += 1
        elif ch == ">" and depth and text[i - 1] != "-":  # operator-> is not a template's end
            depth -= 1
        elif depth == 0:
            if ch == "(" and i > 0:
                return text[start:i]
            if ch == " ":
                start = i + 1  # a return type ends here
    return text[start:] if depth == 0 else text


def short_name(name: str) -> str:
    """The last two parts of a C++ qualified name without template arguments (`NllLossBackward0::apply`)."""
    depth, kept = 0, []
    for ch in qualified_name(name):
        depth += (ch == "<") - (ch == ">" and depth > 0)
        if depth == 0 and ch != ">":
            kept.append(ch)
    parts = [p for p in "".join(kept).split("::") if p]
    return "::".join(parts[-2:])
