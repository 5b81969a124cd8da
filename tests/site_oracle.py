"""An independent reading of the site rule (README, "Who holds the memory") on raw frame dicts, for tests.

Written from the rule's words, with regular expressions over the raw pickle's frames, not with the project's frame
classes: the user's Python is a .py file outside site-packages/dist-packages, torch and the standard library; a
site is "user via library" (the innermost user frame, the innermost library frame below it, a third-party one
before torch's), "user (backward of op)" / "backward of op, forward line not recorded" where an autograd node
(or the engine's own work) runs with no Python inside it, else the innermost library frame alone.
"""

from __future__ import annotations

import re
from typing import Any

_PACKAGES = re.compile(r"^.*[/\\](?:site|dist)-packages[/\\]")
_TORCH = re.compile(r"^.*?[/\\](?=(?:torch|functorch|torchgen)[/\\])")
_STDLIB = re.compile(r"^.*(?:[/\\]lib(?:64)?[/\\]python3\.\d+[/\\]|[/\\]Lib[/\\])")
_NODE = re.compile(r"^(?:\S+ )?torch::autograd::generated::(\w+?)Backward\d*::apply\(")
_ENGINE = {
    "CopySlices::": "backward of an in-place write into a view (CopySlices)",
    "InputBuffer::": "summing the gradients of a tensor used more than once (InputBuffer)",
    "AccumulateGrad::": "accumulating a parameter's .grad (AccumulateGrad)",
    "InputMetadata::": "reducing a gradient to its input's shape (validate_outputs)",
    "validate_outputs": "reducing a gradient to its input's shape (validate_outputs)",
    "PyNode::apply": "backward of a Python autograd.Function (PyNode)",
}


def is_python(frame: dict[str, Any]) -> bool:
    return str(frame["filename"]).endswith(".py") or str(frame["filename"]).startswith("<")


def third_party(filename: str) -> bool:
    return bool(_PACKAGES.match(filename)) and not _TORCH.match(_PACKAGES.sub("/", filename))


def library(filename: str) -> bool:
    """Site-packages, dist-packages, torch (installed or a checkout), the standard library."""
    return bool(
        _PACKAGES.match(filename) or _TORCH.match(filename) or _STDLIB.match(filename) or filename.startswith("<frozen")
    ) or filename.startswith("<eval_with_key>")


def short(filename: str) -> str:
    path = filename.replace("\\", "/")
    for pattern in (_PACKAGES, _TORCH, _STDLIB):
        if pattern.match(path):
            return pattern.sub("", path, count=1)
    return path


def words(frame: dict[str, Any]) -> str | None:
    if is_python(frame):
        return None
    node = _NODE.match(frame["name"])
    if node:
        return "backward of " + re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", node.group(1)).lower()
    for key, said in _ENGINE.items():
        if re.match(rf"^(?:\S+ )?torch::autograd::{re.escape(key)}", frame["name"]):
            return said
    return None


def raw_site(frames: list[dict[str, Any]]) -> str | None:
    """The site label of a raw stack (innermost frame first), or None where nothing names it."""
    python = [i for i, f in enumerate(frames) if is_python(f)]
    user = [i for i in python if not library(frames[i]["filename"])]
    node = [i for i, f in enumerate(frames) if words(f)]

    def line(i: int, shorten: bool) -> str:
        f = frames[i]
        return f"{short(f['filename']) if shorten else f['filename']}:{f['line']}:{f['name']}"

    if node and (not python or node[0] < python[0]):
        said = words(frames[node[0]])
        return f"{line(user[0], False)} ({said})" if user else f"{said}, forward line not recorded"
    if user:
        below = [i for i in python if i < user[0]]
        theirs = [i for i in below if third_party(frames[i]["filename"])]
        pick = theirs or below
        return f"{line(user[0], False)} via {line(pick[0], True)}" if pick else line(user[0], False)
    theirs = [i for i in python if third_party(frames[i]["filename"])]
    return line((theirs or python)[0], True) if python else None
