"""Small files that would take gigabytes to read stay within bounds (issue 27, item 6): a gzip inside a gzip is
decompressed to disk under the outer layer's limit, a mapped file is never copied whole. Each is read in a process
of its own whose peak RSS is measured (tests/memory_bounds.py)."""

from __future__ import annotations

import gzip
import pickle
from pathlib import Path

import pytest

from gpumem_gui.core.snapshot import loader
from gpumem_gui.core.snapshot.errors import SnapshotError
from gpumem_gui.core.snapshot.loader import load_snapshot
from tests import twins
from tests.conftest import fixture_path
from tests.memory_bounds import run_measured

MiB = 1 << 20


def _nested_zeros() -> bytes:
    # gzip members may follow one another: 4,096 copies of 1 MiB of zeros gzipped (4 MB that expand to 4 GiB),
    # gzipped again into a file of a few KB
    inner = gzip.compress(bytes(MiB), 9) * 4096
    return gzip.compress(inner, 9)


def test_a_gzip_inside_a_gzip_is_bounded_as_the_outer_one(tmp_path: Path) -> None:
    path = tmp_path / "nested.pickle.gz"
    path.write_bytes(_nested_zeros())
    assert path.stat().st_size < 64 << 10
    said, peak = run_measured("load", str(path))
    # the outer layer's limit: 64 MB (GZIP_FLOOR, the file being small), not 200 times the 4 MB inner layer
    assert "refused to load: the gzip data expands beyond 64 MB" in said and said.count("\n") == 1, said
    assert peak < 300 * MiB, f"peak RSS {peak // MiB} MB"


def test_nested_gzip_bytes_are_bounded_as_the_outer_layer() -> None:
    with pytest.raises(SnapshotError, match=r"expands beyond 64 MB"):
        load_snapshot(_nested_zeros())


@pytest.mark.parametrize("as_bytes", [False, True])
def test_a_snapshot_gzipped_twice_reads_as_the_plain_file(as_bytes: bool, tmp_path: Path) -> None:
    plain = fixture_path("magma27_memory_snapshot.pickle")
    twice = gzip.compress(gzip.compress(plain.read_bytes(), 1), 1)
    path = tmp_path / "twice.pickle.gz.gz"
    path.write_bytes(twice)
    for pure in (False, True):
        got = twins.outcome(twice if as_bytes else path, pure=pure)
        assert twins.first_difference(got, twins.outcome(plain, pure=pure)) is None


def test_gzip_nested_deeper_than_the_limit_is_refused(tmp_path: Path) -> None:
    data = pickle.dumps({"segments": []})
    for _ in range(loader.GZIP_LAYERS + 1):
        data = gzip.compress(data)
    path = tmp_path / "deep.gz"
    path.write_bytes(data)
    for source in (path, data):
        with pytest.raises(SnapshotError, match=r"gzip inside gzip more than 3 deep"):
            load_snapshot(source)


@pytest.mark.parametrize("head", [b"", b"\x80\x04"])
def test_a_sparse_file_is_not_copied_into_memory(head: bytes, tmp_path: Path) -> None:
    # 1 GiB that takes no disk: the standard unpickler's way copied the whole mapping (io.BytesIO) before its first
    # opcode; the compiled reader (a pickle header first) gives up there and hands over to it
    path = tmp_path / "sparse.pickle"
    with path.open("wb") as f:
        f.write(head)
        f.truncate(1 << 30)
    said, peak = run_measured("load", str(path))
    assert "neither a pickle nor JSON" in said or "invalid load key" in said, said
    assert peak < 300 * MiB, f"peak RSS {peak // MiB} MB"
