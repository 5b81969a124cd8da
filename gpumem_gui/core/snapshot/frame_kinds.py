"""What a stack frame is: the user's Python, a library's, PyTorch's or Python's own, a C++ operation, or plumbing.

Files recorded with `_record_memory_history(stacks="all")` interleave C++ frames (the unwinder, the caching
allocator, the dispatcher, the autograd engine, CPython's C) with the Python ones; PyTorch's own viewer hides a
fixed list of them. These rules go further, so that the frames left name the user's code and the operation.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import IntEnum
from functools import lru_cache

from gpumem_gui.core.snapshot.model import Frame


class FrameKind(IntEnum):
    USER = 0  # the user's own Python: not installed in site-packages/dist-packages, not torch, not the stdlib
    TORCH = 1  # PyTorch's own Python (torch/nn/modules/module.py, torch/_tensor.py, ...)
    STDLIB = 2  # Python's standard library (threading.py, runpy.py, <frozen runpy>)
    NATIVE = 3  # C++ that names an operation: an aten kernel, an autograd node, a Python binding
    PLUMBING = 4  # C++ that says nothing about the user: unwinder, allocator, dispatcher, autograd engine, libc
    INTERPRETER = 5  # CPython's C: the eval loop and its call machinery
    LIBRARY = 6  # a third-party library's Python, installed in site-packages/dist-packages (transformers, einops)


PYTHON_KINDS = frozenset({FrameKind.USER, FrameKind.LIBRARY, FrameKind.TORCH, FrameKind.STDLIB})
# the Python a site names "via": code the user calls but does not write
LIBRARY_KINDS = frozenset({FrameKind.LIBRARY, FrameKind.TORCH, FrameKind.STDLIB})
HIDDEN_KINDS = frozenset({FrameKind.PLUMBING, FrameKind.INTERPRETER})

KIND_LABELS = {
    FrameKind.USER: "your code (Python)",
    FrameKind.LIBRARY: "a library (Python, site-packages)",
    FrameKind.TORCH: "PyTorch (Python)",
    FrameKind.STDLIB: "Python standard library",
    FrameKind.NATIVE: "C++ operation",
    FrameKind.PLUMBING: "allocator / dispatcher / runtime (hidden)",
    FrameKind.INTERPRETER: "CPython interpreter (hidden)",
}

# a folder named torch (or functorch, torchgen) anywhere in the path: site-packages or a source checkout
_TORCH_PATH = re.compile(r"(?:^|[/\\])(?:torch|functorch|torchgen)[/\\]")
# installed packages: the part after it is the package's own path (einops/_backends.py)
_PACKAGES = re.compile(r"[/\\](?:site|dist)-packages[/\\]")
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


@dataclass(frozen=True)
class UserCode:
    """Folders the user moves across the line between their code and libraries: `own` makes what is under them
    the user's code (someone developing diffusers), `library` makes it a library's (a vendored copy in a project).
    A folder is a path (its files, at any depth), or a relative name that matches as whole path parts anywhere
    (`diffusers` is site-packages/diffusers/ and src/diffusers/). Where both match, the longer folder wins."""

    own: tuple[str, ...] = ()
    library: tuple[str, ...] = ()

    def kind_of(self, filename: str) -> FrameKind | None:
        """USER or LIBRARY where a folder says so, else None (the default rules decide)."""
        path = _slashes(filename)
        best: tuple[int, FrameKind] | None = None
        for folders, kind in ((self.own, FrameKind.USER), (self.library, FrameKind.LIBRARY)):
            for folder in folders:
                if _under(path, folder) and (best is None or len(folder) > best[0]):
                    best = (len(folder), kind)
        return None if best is None else best[1]


class _Setting:
    """The folders chosen, and a count bumped at every change: caches of what depends on the kinds key on it."""

    user_code = UserCode()
    generation = 0


_SETTING = _Setting()


def set_user_code(own: Iterable[str] = (), library: Iterable[str] = ()) -> None:
    """Folders that are the user's code (`own`) or a library's (`library`), for every frame classified from now on
    (the CLI's --user-code and --library, the window's setting); no folder given restores the default rules."""
    chosen = UserCode(_folders(own), _folders(library))
    if chosen != _SETTING.user_code:
        _SETTING.user_code = chosen
        _SETTING.generation += 1
        frame_kind.cache_clear()


def user_code() -> UserCode:
    return _SETTING.user_code


def user_code_generation() -> int:
    """A number that changes whenever set_user_code changes the folders."""
    return _SETTING.generation


def _slashes(path: str) -> str:
    return path.replace("\\", "/")


def _folders(paths: Iterable[str]) -> tuple[str, ...]:
    out = []
    for path in paths:
        folder = _slashes(str(path)).rstrip("/")
        if folder.startswith("./"):
            folder = folder[2:]
        if folder and folder not in out:
            out.append(folder)
    return tuple(out)


def _under(path: str, folder: str) -> bool:
    if folder.startswith("/") or re.match(r"^[A-Za-z]:/", folder) or folder.startswith("~"):
        return path.startswith(folder + "/")
    return path.startswith(folder + "/") or f"/{folder}/" in path


def library_path(filename: str) -> str:
    """A library file's path as a reader knows it: from the package on (einops/_backends.py, torch/nn/functional.py,
    threading.py), without the interpreter's and the environment's folders."""
    path = _slashes(filename)
    for folder in _SETTING.user_code.library:  # a library folder of the user's: from that folder's own name on
        if _under(path, folder):
            at = 0 if path.startswith(folder + "/") else path.index(f"/{folder}/") + 1
            return path[at + len(folder) - len(folder.rsplit("/", 1)[-1]) :]
    found = list(_PACKAGES.finditer(filename))
    if found:
        return path[found[-1].end() :]
    torch_dir = list(_TORCH_PATH.finditer(filename))
    if torch_dir:
        return path[torch_dir[-1].start() :].lstrip("/")
    stdlib = list(_STDLIB_PATH.finditer(filename))
    if stdlib:
        return path[stdlib[-1].end() :]
    return path


def is_python_file(filename: str) -> bool:
    """A Python frame: a .py file, or code without one (<frozen runpy>, <string>, <ipython-input-3-...>)."""
    return filename.endswith((".py", ".pyw", ".pyx")) or filename.startswith("<")


@lru_cache(maxsize=1 << 16)
def frame_kind(frame: Frame) -> FrameKind:
    name, filename = frame.name, frame.filename
    if is_python_file(filename):
        chosen = _SETTING.user_code.kind_of(filename)
        if chosen is not None:
            return chosen
        if filename.startswith("<frozen"):
            return FrameKind.STDLIB
        if filename.startswith("<eval_with_key>") or _TORCH_PATH.search(filename):
            return FrameKind.TORCH  # torch.fx's generated forward is PyTorch's code too
        if _PACKAGES.search(filename):
            return FrameKind.LIBRARY
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


# the environment's choice (the CLI sets it, so that worker processes, spawned, make the same choice)
USER_CODE_ENV, LIBRARY_ENV = "GPUMEM_GUI_USER_CODE", "GPUMEM_GUI_LIBRARY"


def choose_user_code(own: Iterable[str] = (), library: Iterable[str] = ()) -> None:
    """set_user_code for this process and, through the environment, for the worker processes it starts (spawned,
    they read it in _from_environment): the command line's --user-code/--library and the window's setting."""
    own = [os.path.expanduser(p) for p in own]
    library = [os.path.expanduser(p) for p in library]
    os.environ[USER_CODE_ENV] = os.pathsep.join(own)
    os.environ[LIBRARY_ENV] = os.pathsep.join(library)
    set_user_code(own, library)


def _from_environment() -> None:
    own, library = (os.environ.get(name, "") for name in (USER_CODE_ENV, LIBRARY_ENV))
    set_user_code(filter(None, own.split(os.pathsep)), filter(None, library.split(os.pathsep)))


_from_environment()
