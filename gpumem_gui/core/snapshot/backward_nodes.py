"""The autograd engine's C++ frames in words: what a backward allocation was doing (`backward of bmm`).

The engine runs backward on threads of its own that run no Python, so a gradient's stack names only the node that
made it (`torch::autograd::generated::BmmBackward0::apply`) and the engine's machinery (InputBuffer, CopySlices,
validate_outputs). These names are PyTorch's (tools/autograd/derivatives.yaml generates one `<Op>Backward<N>` class
per differentiable operation); an expert reads them as the operation whose backward ran.
"""

from __future__ import annotations

import re
from functools import lru_cache

from gpumem_gui.core.snapshot.frame_kinds import is_python_file, qualified_name
from gpumem_gui.core.snapshot.marked import QT_TRANSLATE_NOOP

# a generated node's method that computes (apply), not one that frees what the node saved (release_variables)
_GENERATED = re.compile(r"^torch::autograd::generated::(?!details::)(\w+?)Backward\d*(?:<[^:]*>)?::apply")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
# the engine's own allocations, each with the words that say what it does (first match wins)
_ENGINE_WORDS = (
    (
        "torch::autograd::AccumulateGrad::",
        QT_TRANSLATE_NOOP("Sites", "accumulating a parameter's .grad (AccumulateGrad)"),
    ),
    (
        "torch::autograd::CopySlices::",
        QT_TRANSLATE_NOOP("Sites", "backward of an in-place write into a view (CopySlices)"),
    ),
    (
        "torch::autograd::InputBuffer::",
        QT_TRANSLATE_NOOP("Sites", "summing the gradients of a tensor used more than once (InputBuffer)"),
    ),
    (
        "torch::autograd::InputMetadata::",
        QT_TRANSLATE_NOOP("Sites", "reducing a gradient to its input's shape (validate_outputs)"),
    ),
    (
        "torch::autograd::validate_outputs",
        QT_TRANSLATE_NOOP("Sites", "reducing a gradient to its input's shape (validate_outputs)"),
    ),
    ("torch::autograd::PyNode::apply", QT_TRANSLATE_NOOP("Sites", "backward of a Python autograd.Function (PyNode)")),
    ("torch::autograd::CppNode<", QT_TRANSLATE_NOOP("Sites", "backward of a C++ autograd function (CppNode)")),
    ("torch::autograd::GraphRoot::", QT_TRANSLATE_NOOP("Sites", "the gradient backward starts from (GraphRoot)")),
)
NOT_RECORDED = QT_TRANSLATE_NOOP("Sites", "forward line not recorded")
BACKWARD_OF = QT_TRANSLATE_NOOP("Sites", "backward of {op}")  # a generated node's work, `op` its operation's name
ENGINE_WORDS = tuple(dict.fromkeys(words for _prefix, words in _ENGINE_WORDS))  # each phrase once, for translation


@lru_cache(maxsize=1 << 14)
def backward_words(name: str, filename: str) -> str | None:
    """What a backward frame was doing, in words (`backward of bmm`); None for a frame that is not the autograd
    engine's (a Python frame, an aten kernel, the engine's plumbing that names no work)."""
    if is_python_file(filename):
        return None
    qualified = qualified_name(name)
    generated = _GENERATED.match(qualified)
    if generated:
        return BACKWARD_OF.format(op=_CAMEL.sub("_", generated.group(1)).lower())
    return next((words for prefix, words in _ENGINE_WORDS if qualified.startswith(prefix)), None)
