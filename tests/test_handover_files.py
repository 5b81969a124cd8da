"""The loading worker's hand-over files: made in a private folder, never through a planted link, and read only after
every array's dtype, shape, offset and index is checked against the file (a forged file gets one line)."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from gpumem_gui.assets import example_path
from gpumem_gui.core import load_snapshot
from gpumem_gui.core.analysis.site_series import GROUPINGS, build_site_series
from gpumem_gui.core.analysis.timetravel import build_timeline
from gpumem_gui.sources import transfer
from gpumem_gui.sources.array_file import MAGIC, ArrayFileError, read_arrays, write_arrays
from gpumem_gui.sources.file_loader import FileLoadJob
from gpumem_gui.sources.transfer import load_bands, load_parts, make_and_save_bands, save_bands, save_parts
from tests.conftest import fixture_path


def test_the_worker_hands_over_in_a_private_folder_and_leaves_nothing() -> None:
    job = FileLoadJob(str(example_path("fragmented_oom")))
    folder = Path(job._folder)
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700  # no other user can plant or read a file in it
    result = job.wait()
    assert result.error is None and result.snapshot is not None
    assert not folder.exists()


def test_a_planted_link_is_never_followed(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    link = tmp_path / "out.arrays"
    link.symlink_to(victim)
    with pytest.raises(FileExistsError):
        write_arrays(link, {"x": np.arange(3)}, {})
    assert victim.read_text() == "keep me"
    with pytest.raises(ArrayFileError):  # nor read through one
        read_arrays(link)


def test_written_files_are_the_owners_alone(tmp_path: Path) -> None:
    path = tmp_path / "a.arrays"
    old = os.umask(0)
    try:
        write_arrays(path, {"x": np.arange(3)}, {})
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def _saved(tmp_path: Path) -> tuple[Path, dict[str, Any], bytes]:
    """A real hand-over file, its header and the bytes after the header's length field."""
    snap = load_snapshot(example_path("fragmented_oom"))
    path = tmp_path / "whole.arrays"
    save_parts(path, snap, {d: build_timeline(snap, d) for d in snap.devices()})
    data = path.read_bytes()
    length = int.from_bytes(data[len(MAGIC) : len(MAGIC) + 8], "little")
    header = json.loads(data[len(MAGIC) + 8 : len(MAGIC) + 8 + length])
    return path, header, data[len(MAGIC) + 8 + length :]


def _rewrite(path: Path, header: dict[str, Any], rest: bytes) -> None:
    """The file with another header of the same length (padded), so the arrays stay where they were."""
    old = path.read_bytes()
    length = int.from_bytes(old[len(MAGIC) : len(MAGIC) + 8], "little")
    text = json.dumps(header, separators=(",", ":")).encode()
    assert len(text) <= length, "the forged header must not be longer than the real one"
    path.write_bytes(MAGIC + length.to_bytes(8, "little") + text.ljust(length) + rest)


def _entry(header: dict[str, Any], name: str) -> dict[str, Any]:
    found: dict[str, Any] = next(e for e in header["arrays"] if e["name"] == name)
    return found


def _lie_dtype(h: dict[str, Any]) -> None:
    _entry(h, "blk.segment")["dtype"] = "<f4"  # same size, another type


def _lie_shape(h: dict[str, Any]) -> None:
    _entry(h, "seg.address")["shape"] = [1 << 32, 1 << 32]  # wraps to 0 in int64 arithmetic


def _lie_offset(h: dict[str, Any]) -> None:
    _entry(h, "blk.size")["offset"] = 3  # misaligned


def _lie_length(h: dict[str, Any]) -> None:
    _entry(h, "blk.size")["shape"] = [1]  # shorter than the other block columns


def _lie_index(h: dict[str, Any]) -> None:
    entry = _entry(h, "stacks.offsets")
    entry["offset"], entry["shape"] = _entry(h, "seg.address")["offset"], [1]  # offsets that end nowhere


def _lie_entry_type(h: dict[str, Any]) -> None:
    h["arrays"][0] = ["not", "a", "dict"]


@pytest.mark.parametrize("lie", [_lie_dtype, _lie_shape, _lie_offset, _lie_length, _lie_index, _lie_entry_type])
def test_a_forged_hand_over_file_is_refused_in_one_line(tmp_path: Path, lie: Any) -> None:
    path, header, rest = _saved(tmp_path)
    load_parts(path)  # the real one reads
    lie(header)
    _rewrite(path, header, rest)
    with pytest.raises(ArrayFileError) as caught:
        load_parts(path)
    assert "\n" not in str(caught.value) and str(path) in str(caught.value)


def test_a_deeply_nested_header_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "deep.arrays"
    header = b"[" * 100_000 + b"]" * 100_000
    path.write_bytes(MAGIC + len(header).to_bytes(8, "little") + header)
    with pytest.raises(ArrayFileError, match="unreadable header"):
        read_arrays(path)


@pytest.mark.parametrize(
    ("name", "device"),
    [("cranberrii_memory_snapshot.pickle", 0), ("constructor_memory_snapshot.pickle", 1), ("training_leak", 0)],
)
def test_the_bands_written_as_made_are_those_of_the_whole_site_series(tmp_path: Path, name: str, device: int) -> None:
    path = fixture_path(name) if name.endswith(".pickle") else example_path(name)
    snapshot = load_snapshot(path)
    timeline = build_timeline(snapshot, device)
    save_bands(tmp_path / "whole.arrays", device, build_site_series(snapshot, timeline).groupings)
    make_and_save_bands(tmp_path / "made.arrays", snapshot, timeline)
    (d1, expected), (d2, got) = load_bands(tmp_path / "whole.arrays"), load_bands(tmp_path / "made.arrays")
    assert d1 == d2 == device and list(got) == list(expected) == list(GROUPINGS)
    for kind, b in expected.items():
        g = got[kind]
        assert (g.kind, g.n_events, g.bands, g.codes) == (b.kind, b.n_events, b.bands, b.codes), kind
        assert len(b.bands) > 0 and len(b.keys) > 0, kind  # something to compare
        for array in ("lifetime_band", "code_band", "keys", "values"):
            x, y = getattr(g, array), getattr(b, array)
            assert x.dtype == y.dtype and np.array_equal(x, y), (kind, array)
    for array in ("total", "chunk_low", "chunk_high"):
        assert np.array_equal(getattr(got["site"].index, array), getattr(expected["site"].index, array))


def test_bands_that_fail_halfway_leave_no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    snapshot = load_snapshot(example_path("training_leak"))
    timeline = build_timeline(snapshot, 0)
    made = transfer.build_bands

    def broken(snapshot: Any, timeline: Any, kind: str, *args: Any, **kwargs: Any) -> Any:
        if kind == "pool":
            raise MemoryError("no room")
        return made(snapshot, timeline, kind, *args, **kwargs)

    monkeypatch.setattr(transfer, "build_bands", broken)
    with pytest.raises(MemoryError):
        make_and_save_bands(tmp_path / "bands.arrays", snapshot, timeline)
    assert not (tmp_path / "bands.arrays").exists()
