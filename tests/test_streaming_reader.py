"""The reader that maps the file and drops it behind itself: the same answer as the pure twin from files (plain and
gzip, real and generated and mutated), the final state handed out before the trace, and shared frame lists that
nobody can tell were shared."""

from __future__ import annotations

import gzip
import inspect
import json
import mmap
import pickle
import struct
from pathlib import Path
from typing import Any

import pytest

from gpumem_gui.core.allocator.synthetic import synthetic_snapshot, unshare_frames
from gpumem_gui.core.snapshot import convert, loader
from gpumem_gui.core.snapshot.errors import SnapshotError
from gpumem_gui.core.snapshot.loader import load_snapshot
from gpumem_gui.core.snapshot.model import Snapshot
from tests import twins
from tests.conftest import FIXTURE_NAMES, fixture_path, load_raw
from tests.hand_pickles import FRAME_DICT, fetched_entries, text
from tests.mutate import mutated_corpus

compiled = pytest.mark.skipif(convert._columns is None, reason="compiled kernels not built")


@pytest.fixture(autouse=True)
def release_every_page(monkeypatch: pytest.MonkeyPatch) -> None:
    # the reader drops the mapping behind it every RELEASE_STEP bytes: here every page, so small files exercise it
    monkeypatch.setattr(loader, "RELEASE_STEP", mmap.PAGESIZE)


def assert_file_agrees(path: Path) -> dict[str, Any]:
    compiled_side = twins.outcome(path, pure=False)
    pure_side = twins.outcome(path, pure=True)
    difference = twins.first_difference(compiled_side, pure_side)
    assert difference is None, f"{path.name}: the twins differ at {difference}"
    return compiled_side


def stacks_of(snap: Snapshot, device: int) -> list[tuple[tuple[str, str, int], ...]]:
    return [tuple((f.name, f.filename, f.line) for f in snap.stacks.stack(int(k))) for k in snap.trace(device).stack]


def raw_stacks(entries: list[dict[str, Any]]) -> list[tuple[tuple[str, str, int], ...]]:
    return [tuple((f["name"], f["filename"], f["line"]) for f in e.get("frames") or []) for e in entries]


@pytest.mark.slow
@compiled
@pytest.mark.parametrize("name", FIXTURE_NAMES)
def test_real_files_and_their_gzip_read_alike_both_ways(name: str, tmp_path: Path) -> None:
    plain = assert_file_agrees(fixture_path(name))
    assert "error" not in plain
    packed = tmp_path / f"{name}.gz"
    packed.write_bytes(gzip.compress(fixture_path(name).read_bytes(), 1))
    for pure in (False, True):  # decompressed into a mapped temporary file: the same model both ways
        with twins.pure_python(pure):
            assert twins.first_difference(twins.model(load_snapshot(packed)), plain["model"]) is None


SHAPES = [("real", 2), ("real", 4), ("real", 5), ("unshared", 4), ("json", 0), ("json-gzip", 0)]


@pytest.mark.slow
@compiled
@pytest.mark.parametrize(("shape", "protocol"), SHAPES)
def test_generated_files_of_each_shape_match_the_raw_data(shape: str, protocol: int, tmp_path: Path) -> None:
    # real: ~1,000 shared frame dicts (memo indices past 255: LONG_BINGET), a fresh list per allocation shared with
    # its frees, stacks 40-300 deep (lists that cross protocol 4's 64 KB frames); then its edge cases
    dump = synthetic_snapshot(2500, seed=3, streams=2, distinct_stacks=120, stack_depth=(40, 300))
    if shape != "real":
        dump = unshare_frames(dump)
    path = tmp_path / "shape.pickle"
    if shape.startswith("json"):
        text = json.dumps(dump).encode()
        path.write_bytes(gzip.compress(text, 1) if shape.endswith("gzip") else text)
    else:
        path.write_bytes(pickle.dumps(dump, protocol=protocol))
    assert "error" not in assert_file_agrees(path)
    snap = load_snapshot(path)
    raw = json.loads(json.dumps(dump))  # the oracle: the data itself, as plain dicts
    for device, entries in enumerate(raw["device_traces"]):
        assert stacks_of(snap, device) == raw_stacks(entries)
        assert snap.trace(device).size.tolist() == [e["size"] for e in entries]


@compiled
def test_mutated_files_read_alike_both_ways(tmp_path: Path) -> None:
    paths = [fixture_path(name) for name in FIXTURE_NAMES]
    errors = 0
    for k, (_label, data) in enumerate(mutated_corpus(paths, 24, seed=77)):
        path = tmp_path / f"mutant{k}.pickle"
        path.write_bytes(data)
        errors += "error" in assert_file_agrees(path)
    assert 0 < errors < 24  # both answers were exercised


def test_the_final_state_comes_first_and_alone(tmp_path: Path) -> None:
    path = fixture_path("constructor_memory_snapshot.pickle")
    states: list[tuple[Snapshot, list[str]]] = []

    def on_state(state: Snapshot) -> None:
        states.append((state, [f.function for f in inspect.stack()]))

    whole = load_snapshot(path, on_state=on_state)
    assert len(states) == 1
    state, callers = states[0]
    assert not state.has_traces and whole.has_traces
    assert twins.model(state)[4:8] == twins.model(whole)[4:8]  # segments and blocks, stacks resolved
    raw = load_raw(path)
    assert len(state.state.blocks) == sum(len(s["blocks"]) for s in raw["segments"])
    if convert._columns is not None and "GPUMEM_GUI_PURE_PYTHON" not in __import__("os").environ:
        assert "segments_read" in callers, callers  # from inside the reader, before the trace was read


def test_a_file_without_a_trace_tells_its_state_once(tmp_path: Path) -> None:
    path = tmp_path / "segments.pickle"
    path.write_bytes(pickle.dumps(load_raw(fixture_path("magma27_memory_snapshot.pickle"))["segments"]))
    got: list[Snapshot] = []
    load_snapshot(path, on_state=got.append)
    assert len(got) == 1 and len(got[0].state.segments) > 0


# -- hand-made pickles: a list the reader shared, filled again later -------------------------------------------


def _entry(memo: int, frames: bytes) -> bytes:
    pairs = text("action") + text("alloc") + text("addr") + b"K\x10" + text("size") + b"K\x20"
    return b"}q" + bytes([memo]) + b"(" + pairs + text("frames") + frames + b"u"


def _pickle(refill: bool) -> bytes:
    # three entries whose frame lists (memo 5, 7, 9) hold the same frame dict: the compiled reader reads list 9 as
    # list 7; with `refill`, list 9 gets a second item after the entries were read (no pickler writes that, a hand
    # can), then is popped from the stack
    first = b"]q\x05(" + FRAME_DICT + b"e"
    later = b"h\x09(h\x06e0" if refill else b""
    entries = _entry(4, first) + _entry(8, b"]q\x07(h\x06e") + _entry(10, b"]q\x09(h\x06e")
    trace = b"]q\x03(" + entries + b"e" + later
    return b"\x80\x02}q\x00(" + text("segments") + b"]q\x01" + text("device_traces") + b"]q\x02(" + trace + b"eu."


@pytest.mark.parametrize("refill", [False, True])
def test_a_shared_list_filled_again_reads_as_the_standard_unpickler_reads_it(refill: bool, tmp_path: Path) -> None:
    data = _pickle(refill)
    raw = pickle.loads(data)
    expected = raw_stacks(raw["device_traces"][0])
    assert [len(s) for s in expected] == [1, 1, 2 if refill else 1]  # the oracle: list 9 filled again, 7 not
    path = tmp_path / "refill.pickle"
    path.write_bytes(data)
    for pure in (False, True):
        with twins.pure_python(pure):
            assert stacks_of(load_snapshot(path), 0) == expected
            assert stacks_of(load_snapshot(data), 0) == expected
    assert_file_agrees(path)


def test_empty_and_broken_gzip_files_say_so(tmp_path: Path) -> None:
    empty = tmp_path / "empty.pickle.gz"
    empty.write_bytes(gzip.compress(b""))
    with pytest.raises(SnapshotError, match="the gzip stream is empty"):
        load_snapshot(empty)
    cut = tmp_path / "cut.pickle.gz"
    cut.write_bytes(gzip.compress(fixture_path("magma27_memory_snapshot.pickle").read_bytes())[:5000])
    with pytest.raises(SnapshotError, match=r"corrupt gzip data .*cut\.pickle\.gz"):
        load_snapshot(cut)
    nothing = tmp_path / "nothing.pickle"
    nothing.write_bytes(b"")
    with pytest.raises(SnapshotError, match="the file is empty"):
        load_snapshot(nothing)


# -- hand-made trace entries with fetched keys: the entry reader's one-pass path, and each way out of it -----------

ENTRY_CASES = {
    "fresh list of fetched frames": [(b"]q\x30(h\x0fh\x0fe", b"K\x08")],
    "the same items again": [(b"]q\x30(h\x0fe", b"K\x08"), (b"]q\x31(h\x0fe", b"K\x09")],
    "empty frames list": [(b"]q\x30", b"K\x08")],
    "a list fetched by a later entry": [(b"]q\x30(h\x0fe", b"K\x08"), (b"h\x30", b"K\x09")],
    "a list that holds itself": [(b"]q\x30(h\x30e", b"K\x08")],
    "a negative size": [(b"]q\x30(h\x0fe", b"J" + struct.pack("<i", -5))],
    "a size past 62 bits": [(b"]q\x30(h\x0fe", b"\x8a\x08" + struct.pack("<q", 1 << 62))],
    "a size of nine bytes": [(b"]q\x30(h\x0fe", b"\x8a\x09" + (5).to_bytes(9, "little"))],
    "no size": [(b"]q\x30(h\x0fe", b"N")],
    "a list refilled after its entry": [
        (b"]q\x30(h\x0fe", b"K\x08"),
        (b"]q\x31(h\x0fe", b"K\x09"),
        (b"h\x31", b"K\x0a"),
    ],
}


@pytest.mark.parametrize("case", sorted(ENTRY_CASES))
def test_hand_made_entries_read_as_the_standard_unpickler_reads_them(case: str, tmp_path: Path) -> None:
    data = fetched_entries(*ENTRY_CASES[case])
    if case == "a list refilled after its entry":  # list 0x31 gets a second frame once every entry was read
        data = data.replace(b"e" + b"eu.", b"eh\x31(h\x0fe0" + b"eu.")
    path = tmp_path / "entries.pickle"
    path.write_bytes(data)
    outcome = assert_file_agrees(path)
    try:
        raw = pickle.loads(data)
    except RecursionError:
        raw = None
    if "error" in outcome or raw is None:
        return
    snap = load_snapshot(path)
    entries = raw["device_traces"][0]
    assert snap.trace(0).size.tolist() == [e["size"] if e["size"] is not None else 0 for e in entries]
    assert stacks_of(snap, 0) == raw_stacks(entries)
