"""Frames interned by content: files whose frame dicts are not shared (JSON, rewritten pickles) give the same stacks
as shared ones, and the compiled and pure readers give the very same StackTable (frame order, stack indices)."""

from __future__ import annotations

import json
import pickle
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from gpumem_gui.core import load_snapshot
from gpumem_gui.core.allocator.synthetic import synthetic_snapshot, unshare_frames
from gpumem_gui.core.snapshot import convert
from gpumem_gui.core.snapshot.errors import SnapshotError
from gpumem_gui.core.snapshot.model import Snapshot
from gpumem_gui.core.snapshot.stacks import StackInterner
from tests.conftest import FIXTURE_NAMES, fixture_path
from tests.twins import pure_python

compiled = pytest.mark.skipif(convert._columns is None, reason="compiled kernels not built")


def _both(source: Any) -> tuple[Snapshot, Snapshot]:
    with pure_python(False):
        fast = load_snapshot(source)
    with pure_python(True):
        pure = load_snapshot(source)
    return fast, pure


def _assert_same_tables(a: Snapshot, b: Snapshot, label: str) -> None:
    assert a.stacks.frames == b.stacks.frames, label
    assert np.array_equal(a.stacks.offsets, b.stacks.offsets), label
    assert np.array_equal(a.stacks.frame_ids, b.stacks.frame_ids), label
    assert np.array_equal(a.state.segments.stack, b.state.segments.stack), label
    assert np.array_equal(a.state.blocks.stack, b.state.blocks.stack), label
    assert len(a.traces) == len(b.traces), label
    for ta, tb in zip(a.traces, b.traces, strict=True):
        assert np.array_equal(ta.stack, tb.stack), label


def _raw_stacks(dump: dict[str, Any]) -> list[list[tuple[str, str, int] | None]]:
    """The oracle: each trace entry's frames as (name, filename, line), read from the dicts themselves."""
    return [
        [[(f["name"], f["filename"], f["line"]) for f in e["frames"]] if e.get("frames") else None for e in trace]
        for trace in dump["device_traces"]
    ]


def _model_stacks(snap: Snapshot) -> list[list[tuple[str, str, int] | None]]:
    return [
        [[(f.name, f.filename, f.line) for f in snap.stacks.stack(int(k))] if k >= 0 else None for k in t.stack]
        for t in snap.traces
    ]


def _dump() -> dict[str, Any]:
    return synthetic_snapshot(3000, seed=11, streams=2, devices=2, distinct_stacks=40, stack_depth=(3, 12))


@compiled
@pytest.mark.parametrize("form", ["pickle", "json"])
def test_unshared_frames_read_alike_and_right(form: str, tmp_path: Path) -> None:
    shared = _dump()
    oracle = _raw_stacks(shared)
    unshared = unshare_frames(_dump())
    if form == "pickle":
        source: Any = pickle.dumps(unshared, protocol=4)
        shared_source: Any = pickle.dumps(shared, protocol=4)
    else:
        source, shared_source = tmp_path / "u.json", tmp_path / "s.json"
        source.write_text(json.dumps(unshared))
        shared_source.write_text(json.dumps(shared))
    fast, pure = _both(source)
    _assert_same_tables(fast, pure, form)
    assert _model_stacks(fast) == oracle
    # the same table as the file whose frame dicts are shared: content alone decides
    _assert_same_tables(fast, _both(shared_source)[0], form)
    assert len(fast.stacks.frames) == len({f for t in oracle for s in t if s for f in s})


@compiled
@pytest.mark.parametrize("name", FIXTURE_NAMES)
def test_every_fixture_gives_one_table(name: str) -> None:
    data = fixture_path(name).read_bytes()
    fast, pure = _both(data)
    _assert_same_tables(fast, pure, name)
    rewritten = pickle.loads(data)
    if isinstance(rewritten, dict) and "device_traces" in rewritten:  # the same file, its frame dicts unshared
        _assert_same_tables(_both(pickle.dumps(unshare_frames(rewritten), protocol=4))[0], pure, name)


@pytest.mark.parametrize("pure", [False, True])
def test_frames_and_stacks_numbered_by_first_appearance(pure: bool) -> None:
    a, b, c = ({"name": n, "filename": "f.py", "line": i} for i, n in enumerate("abc"))
    with pure_python(pure):
        interner = StackInterner()
    # b again as another dict of equal content; a line 1.0 is no line (0), unlike the line 1 it equals
    odd = {"name": "b", "filename": "f.py", "line": 1.0}
    stacks = interner.intern_many([None, [c, a], [a, dict(b)], (c, a), [], [odd], [c, a]])
    table = interner.table()
    assert stacks.tolist() == [-1, 0, 1, 0, -1, 2, 0]
    assert [(f.name, f.line) for f in table.frames] == [("c", 2), ("a", 0), ("b", 1), ("b", 0)]
    assert table.offsets.tolist() == [0, 2, 4, 5]
    assert table.frame_ids.tolist() == [0, 1, 1, 2, 3]
    with pytest.raises(SnapshotError, match="a 'frames' value is a str, not a list"):
        interner.intern_many([[5], "x"])  # every value is checked before any frame
    with pytest.raises(SnapshotError, match="a stack frame is a int, not a dict"):
        interner.intern_many([[a, 5]])


def _s(text: str) -> bytes:
    return b"X" + len(text).to_bytes(4, "little") + text.encode()


PAIRS = _s("name") + _s("f") + _s("filename") + _s("x.py") + _s("line") + b"K\x07"


def _frame_pickle(frames: bytes) -> bytes:
    """A snapshot pickle (protocol 2) of two trace entries, each with its own frames list made by `frames`."""
    entry = b"}(" + _s("action") + _s("alloc") + _s("addr") + b"K\x10" + _s("size") + b"K\x08"
    entry += _s("frames") + frames.replace(b"FRAME", b"}q\x01(" + PAIRS + b"u") + b"u"
    return b"\x80\x02}(" + _s("segments") + b"]" + _s("device_traces") + b"]](" + entry + entry + b"eau."


@compiled
@pytest.mark.parametrize(
    ("frames", "fast"),
    [
        (b"](FRAMEe", True),  # a frame dict, memoized before it is filled
        (b"](FRAMEh\x01e", True),  # the same dict twice in one list, by memo
        (b"](}q\x01h\x01(" + PAIRS + b"ue", True),  # referenced twice while empty, then filled: both places see it
        (b"](FRAMEh\x01(" + _s("col") + b"K\x01ue", False),  # filled again: in the second entry, a shared dict
    ],
)
def test_memo_tricks_on_frame_dicts_read_as_the_standard_unpickler(frames: bytes, fast: bool) -> None:
    data = _frame_pickle(frames)
    reference = pickle.loads(data)  # the file is well formed: the standard unpickler reads it
    with pure_python(False):
        assert (convert.snapshot_from_pickle_fast(data, "x") is not None) == fast
    compiled_side, pure = _both(data)
    _assert_same_tables(compiled_side, pure, repr(frames))
    assert _model_stacks(compiled_side) == [
        [[(f.get("name", ""), f.get("filename", ""), f.get("line", 0)) for f in e["frames"]] for e in t]
        for t in reference["device_traces"]
    ]
