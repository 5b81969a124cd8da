"""Stack traces: interned (real files repeat the same few hundred stacks thousands of times), filtered to the
frames worth showing, and attributed to a site (the innermost frame of the user's code, and the library line
below it)."""

from __future__ import annotations

import os
import re
import weakref
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from gpumem_gui.core.snapshot.backward_nodes import NOT_RECORDED, backward_words
from gpumem_gui.core.snapshot.checks import MAX_VALUE, shown
from gpumem_gui.core.snapshot.errors import SnapshotError, frame_not_dict, frames_not_list
from gpumem_gui.core.snapshot.frame_kinds import (
    LIBRARY_KINDS,
    PYTHON_KINDS,
    FrameKind,
    frame_kind,
    is_autograd_node,
    is_python_file,
    library_path,
    short_name,
    user_code_generation,
)
from gpumem_gui.core.snapshot.fx_frames import FxNode, fx_node
from gpumem_gui.core.snapshot.marked import QT_TRANSLATE_NOOP
from gpumem_gui.core.snapshot.model import I32, NO_STACK, Frame, StackTable

try:  # the compiled twin of StackInterner's interning (_columns.FrameInterner); absent where no compiler built it
    from gpumem_gui.core.snapshot import _columns  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - depends on the install
    _columns = None

NO_SITE = -1  # site index of a stack without a Python frame or an autograd node
UNKNOWN_SITE = QT_TRANSLATE_NOOP(
    "Sites", "unknown"
)  # the site of a block allocated while recording whose stack names nothing
# the site of a block the trace never saw allocated and whose stack names nothing (the weights, usually): never
# "unknown", and never the line that freed it
BEFORE_RECORDING_SITE = QT_TRANSLATE_NOOP("Sites", "allocated before recording began")
# a block allocated in backward with no frame at all: stacks="python" records none on the autograd engine's threads
BACKWARD_NO_FRAMES_SITE = QT_TRANSLATE_NOOP("Sites", "backward, node and forward line not recorded")
NAMELESS_SITES = (UNKNOWN_SITE, BEFORE_RECORDING_SITE, BACKWARD_NO_FRAMES_SITE)  # by reason: 0, 1, 2


def filter_frames(frames: Sequence[Frame]) -> list[Frame]:
    """The frames worth showing: Python frames first (innermost first), then the C++ frames that name an
    operation; the allocator, dispatcher, autograd engine and CPython frames are left out."""
    kinds = [frame_kind(f) for f in frames]
    python = [f for f, k in zip(frames, kinds, strict=True) if k in PYTHON_KINDS]
    return python + [f for f, k in zip(frames, kinds, strict=True) if k == FrameKind.NATIVE]


def site_frame(frames: Sequence[Frame]) -> Frame | None:
    """The frame a stack's memory is attributed to: the innermost frame of the user's own code; else the innermost
    third-party library frame; else the innermost Python frame (PyTorch's, the standard library's); else, for the
    autograd engine's threads that run no Python, the backward node (`MulBackward0::apply`); else None. The site's
    label (stack_site_label) may add the library frame below it or the backward work in words."""
    kinds = [frame_kind(f) for f in frames]
    for wanted in ({FrameKind.USER}, {FrameKind.LIBRARY}, PYTHON_KINDS):
        found = next((f for f, k in zip(frames, kinds, strict=True) if k in wanted), None)
        if found is not None:
            return found
    return next((f for f in frames if is_autograd_node(f)), None)


def format_frame(frame: Frame) -> str:
    return f"{frame.filename}:{frame.line}:{frame.name}"


def site_label(frame: Frame) -> str:
    """One frame as a site names it: `file:line:function` for the user's Python (its whole path), the same from
    the package on for a library's (`einops/_backends.py:288:einsum`); a C++ frame by its last two name parts."""
    if not is_python_file(frame.filename):
        return short_name(frame.name)
    if frame_kind(frame) in LIBRARY_KINDS:
        return f"{library_path(frame.filename)}:{frame.line}:{frame.name}"
    return format_frame(frame)


def stack_site_label(frames: Sequence[Frame]) -> str | None:
    """The site of one stack (innermost frame first), as stack_sites names it; None for a stack with nothing to
    name (no Python frame, no backward work: the allocator's own frames, or no frame at all)."""
    table = StackTable(list(frames), np.array([0, len(frames)], np.int64), np.arange(len(frames), dtype=np.int32))
    sites, labels = _stack_sites(table)
    return labels[sites[0]] if len(frames) and sites[0] != NO_SITE else None


def short_site(label: str) -> str:
    """A site label without the folders of the user's files (`model.py:88:forward via einops/_backends.py:288:einsum`):
    what a list or legend shows, with the whole label in its tooltip."""
    head, via, tail = label.partition(VIA)
    return f"{_FOLDERS.split(head)[-1] or head}{via}{tail}"


def stack_sites(stacks: StackTable) -> tuple[I32, list[str]]:
    """The site of every stack of the table (an index into the labels, NO_SITE without one) and the labels, in
    order of first appearance. Computed once per table and choice of the user's folders (set_user_code): frames
    are classified once each, stacks with numpy."""
    key = id(stacks)
    cached = _SITES.get(key)
    generation = user_code_generation()
    if cached is None or cached[0] != generation:
        found = _stack_sites(stacks)
        found[0].flags.writeable = False  # shared by every caller
        if cached is None:
            weakref.finalize(stacks, _SITES.pop, key, None)  # ids are reused once the table is gone
        cached = _SITES[key] = (generation, found)
    return cached[1][0], list(cached[1][1])


def sites_of(stacks: StackTable, stack: npt.ArrayLike) -> npt.NDArray[np.int64]:
    """The site (an index into stack_sites' labels) of each stack index in `stack`: NO_SITE for a stack without one
    and for NO_STACK (-1, a block recorded without a stack), which reads the entry appended at the end."""
    site_of_stack, _labels = stack_sites(stacks)
    found: npt.NDArray[np.int64] = np.append(site_of_stack, np.int32(NO_SITE))[np.asarray(stack)].astype(np.int64)
    return found


def block_sites(
    stacks: StackTable, stack: npt.ArrayLike, reason: npt.NDArray[np.integer] | npt.NDArray[np.bool_] | None = None
) -> tuple[npt.NDArray[np.int64], list[str]]:
    """Each block's site, by its stack index in `stack`, as an index into the labels returned: stack_sites' labels,
    then NAMELESS_SITES. A block whose stack names no site takes the nameless site of its `reason` (one per block:
    0 unknown, 1 allocated before recording began, 2 allocated in backward without frames; a bool array: 1 for
    before recording), unknown without one."""
    _sites, labels = stack_sites(stacks)
    site = sites_of(stacks, stack)
    nameless = len(labels) + (np.asarray(reason, np.int64) if reason is not None else 0)
    code: npt.NDArray[np.int64] = np.where(site >= 0, site, nameless)
    return code, [*labels, *NAMELESS_SITES]


VIA = " via "  # between the user's line and the library line below it that allocated
_FOLDERS = re.compile(r"[/\\]")
_SITES: dict[int, tuple[int, tuple[I32, list[str]]]] = {}
# how a stack is named (the site rule of the README, "Who holds the memory")
_NONE, _NODE, _USER, _LIBRARY = range(4)


def _stack_sites(stacks: StackTable) -> tuple[I32, list[str]]:
    n = len(stacks)
    frames = _site_frames(stacks)
    if len(stacks.frame_ids) == 0:
        return np.full(n, NO_SITE, np.int32), []
    kinds = np.fromiter((frame_kind(f) for f in frames), np.int8, len(frames))
    words = [backward_words(f.name, f.filename) for f in frames]
    word_list = list(dict.fromkeys(w for w in words if w is not None))
    word_id = np.array([-1 if w is None else word_list.index(w) for w in words], np.int64)
    ids = stacks.frame_ids.astype(np.int64)
    lengths = np.diff(stacks.offsets)
    stack_of = np.repeat(np.arange(n), lengths)  # the stack of each position of frame_ids
    at = kinds[ids]

    def first(mask: np.ndarray) -> np.ndarray:
        """Per stack, the first position of frame_ids where `mask` holds (-1 where none does)."""
        out = np.full(n, -1, np.int64)
        where = np.flatnonzero(mask)
        owner = stack_of[where]
        lead = np.ones(len(where), bool)
        lead[1:] = owner[1:] != owner[:-1]
        out[owner[lead]] = where[lead]
        return out

    user = first(at == FrameKind.USER)
    # the library line below the user's: a third-party library's if one is there (einops' einsum, not the
    # torch.einsum it calls), else PyTorch's or the standard library's (torch/nn/modules/linear.py)
    # (with no user frame, the library line alone, chosen the same way)
    third_party = first(at == FrameKind.LIBRARY)
    library = np.where(
        (third_party >= 0) & ((third_party < user) | (user < 0)),
        third_party,
        first(np.isin(at, [int(k) for k in LIBRARY_KINDS])),
    )
    python = first(np.isin(at, [int(k) for k in PYTHON_KINDS]))
    node = first(word_id[ids] >= 0)
    frame_at = np.append(ids, -1)  # position -1 reads frame -1: none
    user_frame, library_frame = frame_at[user], frame_at[library]
    # backward work with no Python inside it: the engine's thread, or a backward run from the user's line
    in_node = (node >= 0) & ((python < 0) | (node < python))
    mode = np.select([in_node, user >= 0, python >= 0], [_NODE, _USER, _LIBRARY], _NONE)
    # what names the site: (the user's frame or -1, the library frame below it or the node's words, or -1)
    a = np.where(mode == _LIBRARY, -1, np.where(mode == _NONE, -1, user_frame))
    below = (library >= 0) & (library < user)
    b = np.select(
        [mode == _NODE, ((mode == _USER) & below) | (mode == _LIBRARY)], [word_id[frame_at[node]], library_frame], -1
    )
    width = max(len(frames), len(word_list)) + 2
    key = (mode.astype(np.int64) * width + (a + 1)) * width + (b + 1)
    has = mode != _NONE
    distinct, rank = unique_in_order(key[has])
    labels: list[str] = []
    index_of: dict[str, int] = {}  # keys that read the same (C++ frames of one node) share a label
    key_site = np.empty(len(distinct), np.int32)
    has_rows = np.flatnonzero(has)
    for j, row in enumerate(has_rows[distinct].tolist()):
        label = _label(int(mode[row]), int(a[row]), int(b[row]), frames, word_list)
        key_site[j] = index_of.setdefault(label, len(labels))
        if key_site[j] == len(labels):
            labels.append(label)
    sites = np.full(n, NO_SITE, np.int32)
    sites[has] = key_site[rank]
    return sites, labels


def fx_text(node: FxNode) -> str:
    """One line for an FX node: `lin (call_module lin), from model.py:14:forward`, the line of its original trace
    a site would name."""
    original = site_frame(node.original_frames())
    return f"{node.name} ({node.op} {node.target})" + (f", from {format_frame(original)}" if original else "")


def _site_frames(stacks: StackTable) -> list[Frame]:
    """The table's frames as sites read them: a frame inside torch.compile's generated code whose FX node keeps the
    user's original trace stands for the line of that trace a site would name (the generated file's line names
    nothing a person wrote)."""
    if not stacks.fx:
        return stacks.frames
    frames = list(stacks.frames)
    for index, node in stacks.fx.items():
        original = site_frame(node.original_frames()) if 0 <= index < len(frames) else None
        if original is not None:
            frames[index] = original
    return frames


def _label(mode: int, user: int, other: int, frames: Sequence[Frame], words: Sequence[str]) -> str:
    """A site's label from what names it (the README's table): `user via library`, `user (backward of op)`,
    `backward of op, forward line not recorded`, or a library line alone."""
    if mode == _NODE:
        return f"{site_label(frames[user])} ({words[other]})" if user >= 0 else f"{words[other]}, {NOT_RECORDED}"
    if mode == _LIBRARY:
        return site_label(frames[other])
    head = site_label(frames[user])
    return f"{head}{VIA}{site_label(frames[other])}" if other >= 0 else head


class StackInterner:
    """Turns frame lists (lists of {"name", "filename", "line"} dicts) into indices of one StackTable.

    Frames are interned by content, a (name, filename, line) key per frame dict, and stacks by their frames' indices;
    both are numbered in order of first appearance, so the compiled twin (_columns.FrameInterner, used unless
    GPUMEM_GUI_PURE_PYTHON is set) gives the very same table. Objects are recognised by id, so everything interned
    must stay alive while the interner is used: it is made for the conversion of one unpickled snapshot, which
    holds them all, and dropped afterwards.

    With `stacks` False (for what never shows a stack: the report), nothing is interned: every list is checked as
    interning it would be (the same errors) and every stack is NO_STACK, the table empty.
    """

    def __init__(self, stacks: bool = True) -> None:
        compiled = _columns is not None and not os.environ.get("GPUMEM_GUI_PURE_PYTHON")
        self.stacks = stacks
        self.fx: dict[int, FxNode] = {}
        self.compiled: Any = (
            _columns.FrameInterner(Frame, frame_key, SnapshotError, self._note_extra, stacks) if compiled else None
        )
        self._frames: list[Frame] = []
        self._frame_by_id: dict[int, int] = {}
        self._frame_by_key: dict[tuple[str, str, int], int] = {}
        self._stack_by_key: dict[tuple[int, ...], int] = {}
        self._stack_by_ids: dict[tuple[int, ...], int] = {}  # by the ids of the frame objects
        self._offsets: list[int] = [0]
        self._frame_ids: list[int] = []

    def intern_many(self, lists: Sequence[Any]) -> I32:
        """The stack index of each element of `lists` (a frame list, or None / [] for no stack)."""
        if self.compiled is not None:
            stacks: I32 = self.compiled.intern_many(lists if type(lists) is list else list(lists))
            return stacks
        n = len(lists)
        if n == 0:
            return np.zeros(0, np.int32)
        first, inverse = unique_in_order(np.fromiter(map(id, lists), np.int64, n))
        reps = [lists[i] for i in first]
        for r in reps:  # every value is checked before any is interned
            if r and not isinstance(r, list | tuple):
                raise SnapshotError(frames_not_list(r))
        codes = np.fromiter(map(self._stack_of, reps), np.int32, len(reps))
        stacks = codes[inverse]
        return stacks

    def rows(self, columns: Any) -> I32 | None:
        """The compiled twin only: the stack of every row of compiled trace columns, as intern_many of their frames
        column gives it; None when a row's frames value is not a list."""
        assert self.compiled is not None
        stacks: I32 | None = self.compiled.rows(columns)
        return stacks

    def table(self) -> StackTable:
        if self.compiled is not None:
            frames, offsets, frame_ids = self.compiled.table_parts()
            return StackTable(frames, offsets, frame_ids, fx=dict(self.fx))
        return StackTable(
            list(self._frames),
            np.asarray(self._offsets, dtype=np.int64),
            np.asarray(self._frame_ids, dtype=np.int32),
            fx=dict(self.fx),
        )

    def _note_extra(self, frame: dict[Any, Any], index: int) -> None:
        """A frame dict with keys beyond name, filename and line (both twins call it once per new dict): keep its
        FX node, the first one met for the frame (the node is a function of the generated file and line)."""
        node = fx_node(frame)
        if node is not None:
            self.fx.setdefault(index, node)

    def _stack_of(self, frames: Sequence[Any]) -> int:
        if not frames:
            return NO_STACK
        if not self.stacks:  # checked as _intern_frame checks each new frame, and no stack
            for frame in frames:
                _check_frame(frame)
            return NO_STACK
        # frame dicts are shared objects in real pickles: the same frame objects are the same stack
        ids = tuple(map(id, frames))
        index = self._stack_by_ids.get(ids)
        if index is not None:
            return index
        key = tuple(map(self._frame_by_id.get, ids))
        if None in key:  # new frame objects: intern just those, in order
            key = tuple(self._intern_frame(f) if k is None else k for k, f in zip(key, frames, strict=True))
        index = self._stack_by_key.get(key)  # type: ignore[arg-type]
        if index is None:
            index = len(self._offsets) - 1
            self._stack_by_key[key] = index  # type: ignore[index]
            self._frame_ids.extend(key)  # type: ignore[arg-type]
            self._offsets.append(len(self._frame_ids))
        self._stack_by_ids[ids] = index
        return index

    def _intern_frame(self, frame: Any) -> int:
        _check_frame(frame)
        key = frame_key(frame)
        index = self._frame_by_key.get(key)
        if index is None:
            index = len(self._frames)
            self._frames.append(Frame(*key))
            self._frame_by_key[key] = index
        self._frame_by_id[id(frame)] = index
        if len(frame) > 3:
            self._note_extra(frame, index)
        return index


def _check_frame(frame: Any) -> None:
    if not isinstance(frame, dict):
        raise SnapshotError(frame_not_dict(frame))


def frame_key(frame: dict[Any, Any]) -> tuple[str, str, int]:
    """What a frame dict is interned by (both twins): its name, file name and line, made a str, str and int."""
    return _text(frame.get("name", "")), _text(frame.get("filename", "")), _int_or_zero(frame.get("line", 0))


def unique_in_order(ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Positions of the first occurrence of each distinct id, in order of appearance, and each element's rank
    among them (np.unique orders by value, and object ids are memory addresses that change from run to run)."""
    _, first, inverse = np.unique(ids, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty(len(first), np.int64)
    rank[order] = np.arange(len(first))
    return first[order], rank[inverse.reshape(-1)]


def _int_or_zero(value: Any) -> int:
    # a line number: anything else (inf, a 5000-digit int, a string) is no line at all
    return value if type(value) is int and -MAX_VALUE <= value <= MAX_VALUE else 0


def _text(value: Any) -> str:
    # names are strings in every real file; str() of anything else could be a 5000-digit int's ValueError
    return value if isinstance(value, str) else shown(value)
