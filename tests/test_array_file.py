"""The worker's array file: what is written is read back (numpy itself is the oracle), and a broken or hostile file
is refused with one line instead of read."""

from __future__ import annotations

import json
import os
import weakref
from pathlib import Path

import numpy as np
import pytest

from gpumem_gui.sources import array_file
from gpumem_gui.sources.array_file import MAGIC, ArrayFileError, ArrayWriter, read_arrays, write_arrays


def sample() -> dict[str, np.ndarray]:
    rng = np.random.default_rng(3)
    return {
        "i64": rng.integers(-(1 << 62), 1 << 62, 1001, dtype=np.int64),
        "i8": rng.integers(-100, 100, 7, dtype=np.int8),
        "f64": rng.random(33),
        "bool": rng.random(5) > 0.5,
        "grid": rng.integers(0, 9, (3, 4), dtype=np.int32),
        "empty": np.zeros(0, np.int64),
        "strided": np.arange(20, dtype=np.int64)[::3],
        "u8": np.frombuffer(b"meta as bytes", np.uint8),
    }


def test_a_drained_write_is_the_same_file_and_lets_go_of_each_array(tmp_path: Path) -> None:
    # the loading worker drains its hand-over: the bytes are those of a plain write, and the dict holds nothing after
    # (each array left it once written: nothing of the writer keeps the columns alive)
    arrays, meta = sample(), {"n": 1}
    write_arrays(tmp_path / "plain.arrays", arrays, meta)
    drained = {name: array.copy() for name, array in arrays.items()}
    gone = weakref.ref(drained["i64"])
    write_arrays(tmp_path / "drained.arrays", drained, meta, drain=True)
    assert drained == {} and gone() is None
    assert (tmp_path / "drained.arrays").read_bytes() == (tmp_path / "plain.arrays").read_bytes()


def test_an_array_written_in_pieces_is_its_bytes_end_to_end(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # each array goes to the file in pieces of _WRITE_STEP bytes: pieces of 40 bytes cut the 8008 bytes of "i64" into
    # 201 writes, the last one short, and its neighbours start on their own 64-byte lines all the same
    monkeypatch.setattr(array_file, "_WRITE_STEP", 40)
    arrays = sample()
    write_arrays(tmp_path / "pieces.arrays", dict(arrays), {"n": 1}, drain=True)
    writer = ArrayWriter(tmp_path / "writer.arrays")
    for name, array in arrays.items():
        writer.add(name, array)
    writer.close({"n": 1})
    for path in (tmp_path / "pieces.arrays", tmp_path / "writer.arrays"):
        raw = path.read_bytes()
        got, _ = read_arrays(path)
        length = int.from_bytes(raw[len(MAGIC) : len(MAGIC) + 8], "little")
        header = json.loads(raw[len(MAGIC) + 8 : len(MAGIC) + 8 + length])
        start = len(raw) - sum(-(-a.nbytes // 64) * 64 for a in arrays.values())
        for entry in header["arrays"]:
            array = np.ascontiguousarray(arrays[entry["name"]])
            at = start + entry["offset"]
            assert raw[at : at + array.nbytes] == array.tobytes(), (path.name, entry["name"])
            np.testing.assert_array_equal(got[entry["name"]], array)


def test_arrays_and_meta_come_back_equal(tmp_path: Path) -> None:
    path = tmp_path / "a.arrays"
    arrays, meta = sample(), {"source": "x.pickle", "n": [1, 2], "nested": {"k": None}}
    write_arrays(path, arrays, meta)
    got, got_meta = read_arrays(path)
    assert got_meta == meta and list(got) == list(arrays)
    for name, array in arrays.items():
        assert got[name].dtype == array.dtype and got[name].shape == array.shape, name
        np.testing.assert_array_equal(got[name], array)
        assert got[name].ctypes.data % 8 == 0 or not got[name].nbytes, name


def test_the_file_can_go_at_once_and_writes_stay_private(tmp_path: Path) -> None:
    path = tmp_path / "a.arrays"
    write_arrays(path, {"x": np.arange(10_000, dtype=np.int64)}, {})
    before = path.read_bytes()
    got, _ = read_arrays(path)
    got["x"][5] = -1  # writable, copy on write
    assert path.read_bytes() == before
    os.unlink(path)
    assert int(got["x"].sum()) == sum(range(10_000)) - 5 - 1  # still mapped after the file is gone


def test_only_numbers_travel(tmp_path: Path) -> None:
    with pytest.raises(TypeError, match="only numeric arrays"):
        write_arrays(tmp_path / "o.arrays", {"o": np.array([object()])}, {})


def _forged(path: Path, entries: list[dict[str, object]], body: bytes) -> None:
    header = json.dumps({"arrays": entries, "meta": {}}).encode()
    path.write_bytes(MAGIC + len(header).to_bytes(8, "little") + header + b"\0" * 64 + body)


@pytest.mark.parametrize(
    ("entries", "words"),
    [
        ([{"name": "o", "dtype": "|O", "shape": [1], "offset": 0}], "dtype object"),
        ([{"name": "big", "dtype": "<i8", "shape": [1 << 40], "offset": 0}], "runs past the end"),
        ([{"name": "neg", "dtype": "<i8", "shape": [1], "offset": -1 << 20}], "runs past the end"),
    ],
)
def test_a_forged_header_is_refused(tmp_path: Path, entries: list[dict[str, object]], words: str) -> None:
    path = tmp_path / "f.arrays"
    _forged(path, entries, b"\0" * 64)
    with pytest.raises(ArrayFileError, match=words):
        read_arrays(path)


def test_a_cut_or_foreign_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "a.arrays"
    write_arrays(path, {"x": np.arange(1000, dtype=np.int64)}, {})
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(ArrayFileError, match="runs past the end"):
        read_arrays(path)
    path.write_bytes(b"PK\x03\x04 a zip, not ours")
    with pytest.raises(ArrayFileError, match="not an array file"):
        read_arrays(path)
    path.write_bytes(MAGIC + (1 << 40).to_bytes(8, "little"))
    with pytest.raises(ArrayFileError, match="header runs past"):
        read_arrays(path)


@pytest.mark.parametrize("reserve", [1 << 20, 0, 200])
def test_arrays_written_one_at_a_time_read_as_write_arrays_gives(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, reserve: int
) -> None:
    # reserve 0 and 200: a header longer than its room, so the arrays already written move on (in steps of 64 bytes,
    # far fewer than the arrays hold, so the move's order matters)
    monkeypatch.setattr(array_file, "_MOVE_STEP", 64)
    arrays, meta = sample(), {"labels": ["x" * 300, "é"], "n": 3}
    whole, one_by_one = tmp_path / "whole.arrays", tmp_path / "one.arrays"
    write_arrays(whole, arrays, meta)
    writer = ArrayWriter(one_by_one, reserve)
    for name, array in arrays.items():
        writer.add(name, array)
    writer.close(meta)
    expected, expected_meta = read_arrays(whole)
    got, got_meta = read_arrays(one_by_one)
    assert got_meta == expected_meta == meta and list(got) == list(expected)
    for name, array in expected.items():
        assert got[name].dtype == array.dtype and got[name].shape == array.shape, name
        np.testing.assert_array_equal(got[name], array)
    if reserve == 0:  # moved: where write_arrays puts them, the same bytes after the header
        size = whole.stat().st_size
        assert one_by_one.stat().st_size == size
        tail = sum(a.nbytes for a in arrays.values())
        assert one_by_one.read_bytes()[size - tail :] == whole.read_bytes()[size - tail :]
