"""Hostile bytes, built opcode by opcode: both readers refuse each with the same one line, nothing runs or hangs."""

from __future__ import annotations

import copyreg
import gzip
import os
import pickle
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psutil
import pytest

from gpumem_gui.core import SnapshotError, load_snapshot
from gpumem_gui.core.snapshot import _columns  # type: ignore[attr-defined]
from gpumem_gui.core.snapshot.convert import _Tables

DEEP = 100_000
SEG = b"\x8c\x08segments"  # SHORT_BINUNICODE 'segments'


def u64(n: int) -> bytes:
    return n.to_bytes(8, "little")


def _proto2_with(token: bytes, value: dict[str, Any]) -> bytes:
    """A protocol-2 pickle of `value` (no frames, so bytes can be spliced) with the string '@@' replaced by
    `token`, the opcodes of a value built by hand."""
    data = pickle.dumps(value, protocol=2)
    marker = b"X\x02\x00\x00\x00@@"
    assert data.count(marker) == 1
    return data.replace(marker, token)


def _deep_list() -> bytes:
    return b"]" * DEEP + b"a" * (DEEP - 1)  # lists nested DEEP levels, in 2 bytes a level


def _shared_entry(times: int) -> bytes:
    # one trace entry dict, then `times` DUPs of it in the trace list: the memo bomb of one entry
    entry = b"}\x94(\x8c\x06action\x94\x8c\x05alloc\x94\x8c\x04addr\x94K\x10\x8c\x04size\x94K\x20u"
    traces = b"\x8c\x0ddevice_traces\x94]\x94]\x94("  # the key, the list of devices, device 0's list
    return b"\x80\x04}\x94(" + SEG + b"\x94]\x94" + traces + entry + b"2" * (times - 1) + b"eau."


def _segments_times_blocks(segments: int, blocks: int) -> bytes:
    # one block referenced `blocks` times in one segment referenced `segments` times: rows multiply
    block = b"}\x94(\x8c\x04size\x94K\x00\x8c\x05state\x94\x8c\x08inactive\x94u"
    seg = b"}\x94(\x8c\x07address\x94K\x00\x8c\x0atotal_size\x94K\x00\x8c\x06blocks\x94](" + block
    seg += b"2" * (blocks - 1) + b"eu"
    return b"\x80\x04}\x94(" + SEG + b"\x94](" + seg + b"2" * (segments - 1) + b"eu."


# name -> (bytes, what the one line says). Each would have run code, taken gigabytes, crashed, or been read
# differently by the two readers before.
HOSTILE: dict[str, tuple[bytes, str]] = {
    "ext1": (b"\x80\x04\x82\x05.", "extension registry (EXT1)"),
    "ext2": (b"\x80\x04\x83\x05\x00.", "extension registry (EXT2)"),
    "ext4": (b"\x80\x04\x84\x05\x00\x00\x00.", "extension registry (EXT4)"),
    "ext_in_snapshot": (b"\x80\x04}" + SEG + b"\x82\x05s.", "extension registry (EXT1)"),
    "persid": (b"\x80\x04}" + SEG + b"P1\ns.", "persistent id"),
    "binpersid": (b"\x80\x04}" + SEG + b"NQs.", "persistent id"),
    "memo_bomb_9_bytes": (b"\x80\x04Nr\x00\x00\x00\x10.", "memo index 268,435,456"),
    "memo_bomb_text_put": (b"\x80\x02Np99999999999\n.", "memo index 99,999,999,999"),
    "binunicode8_2^63": (b"\x80\x04}" + SEG + b"\x8d" + u64((1 << 63) - 1) + b"s.", "truncated"),
    "binunicode8_2^64": (b"\x80\x04}" + SEG + b"\x8d" + u64((1 << 64) - 1) + b"s.", "truncated"),
    "binbytes8_2^63": (b"\x80\x04}" + SEG + b"\x8e" + u64((1 << 63) - 1) + b"s.", "truncated"),
    "bytearray8_2^63": (b"\x80\x05}" + SEG + b"\x96" + u64((1 << 63) - 1) + b"s.", "truncated"),
    "truncated_frame": (b"\x80\x04\x95" + u64(1000) + b"}" + SEG + b"]s.", "truncated"),
    "frame_2^63": (b"\x80\x04\x95" + u64(1 << 63) + b"}" + SEG + b"]s.", "truncated"),
    # a read that runs past its frame: the standard unpickler takes the rest from after the frame ("gments]s")
    "string_straddles_frame": (b"\x80\x04\x95" + u64(5) + b"}" + SEG + b"]s.", "exhausted before end of frame"),
    "frame_inside_frame": (b"\x80\x04\x95" + u64(23) + b"}\x95" + u64(0) + SEG + b"]s.", "new frame before end"),
    # the standard unpickler's fence: nothing under the newest MARK is touched before POP_MARK
    "binput_under_mark": (b"\x80\x04}" + SEG + b"](q\x001s.", "unexpected MARK"),
    "dup_under_mark": (b"\x80\x04}" + SEG + b"](21s.", "unexpected MARK"),
    "setitems_over_double_mark": (b"\x80\x04}((" + SEG + b"]u1.", "unexpected MARK"),
    "append_under_mark": (b"\x80\x04}" + SEG + b"](]a1s.", "unexpected MARK"),
    "tuple2_under_mark": (b"\x80\x04}" + SEG + b"](N\x861s.", "unexpected MARK"),
    # MEMOIZE numbers the filled memo slots, not the highest one plus one
    "memoize_after_binput": (b"\x80\x04}\x94" + SEG + b"q\x05]\x940h\x06s.", "Memo value not found"),
    "entry_referenced_10^6_times": (_shared_entry(1_000_000), "segments, blocks and trace entries"),
    "entry_referenced_twice": (_shared_entry(2), "one entry at several places"),
    "segments_times_blocks": (_segments_times_blocks(3000, 3000), "segments, blocks and trace entries"),
    "deep_state_in_message": (
        _proto2_with(
            _deep_list(), {"segments": [{"address": 0, "total_size": 512, "blocks": [{"size": 512, "state": "@@"}]}]}
        ),
        "nested too deeply",
    ),
}


def _error(data: bytes) -> str:
    with pytest.raises(SnapshotError) as e:
        load_snapshot(data, name="hostile.pickle")
    return str(e.value)


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_each_hostile_pickle_gets_one_line_in_each_mode(name: str, twin: str) -> None:
    data, expected = HOSTILE[name]
    message = _error(data)
    assert expected in message and "hostile.pickle" in message, message
    assert "\n" not in message and len(message) < 500


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_both_readers_give_the_same_words(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    data = HOSTILE[name][0]
    monkeypatch.delenv("GPUMEM_GUI_PURE_PYTHON", raising=False)
    compiled = _error(data)
    monkeypatch.setenv("GPUMEM_GUI_PURE_PYTHON", "1")
    assert _error(data) == compiled


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_the_compiled_reader_never_accepts_what_the_standard_one_refuses(name: str) -> None:
    # it hands anything it does not read to the standard reader (Unsupported): accepting would bypass the refusal
    data = HOSTILE[name][0]
    if name.startswith(("entry_referenced_10", "segments_times", "deep_state")):
        return  # plain data the reader reads; the refusal is the conversion's budget or the message's
    with pytest.raises(_columns.Unsupported):
        _columns.read_pickle(data, _Tables().entry_columns())


@pytest.fixture
def registered_extension(tmp_path: Path) -> Iterator[tuple[int, Path]]:
    """os.system registered and cached as extension code 0x5A5A, as anything in the process could do."""
    code = 0x5A5A
    copyreg.add_extension("os", "system", code)
    try:
        assert pickle.loads(b"\x80\x02\x83" + code.to_bytes(2, "little") + b".") is os.system  # now in the cache
        yield code, tmp_path / "pwned"
    finally:
        copyreg.remove_extension("os", "system", code)
        copyreg._extension_cache.clear()  # type: ignore[attr-defined]


@pytest.mark.parametrize("width", [1, 2, 4])
def test_extension_codes_are_refused_even_when_registered(
    registered_extension: tuple[int, Path], twin: str, width: int
) -> None:
    code, marker = registered_extension
    if width == 1:
        copyreg.add_extension("os", "getcwd", 0x21)  # EXT1 reaches codes below 256 only
        pickle.loads(b"\x80\x02\x82\x21.")
        ext, code = b"\x82\x21", 0x21
    else:
        ext = (b"\x83" if width == 2 else b"\x84") + code.to_bytes(width, "little")
    try:
        command = f"touch {marker}".encode()
        data = b"\x80\x04}" + SEG + ext + b"\x8c" + bytes([len(command)]) + command + b"\x85Rs."
        message = _error(data)
        assert f"extension registry (EXT{width})" in message and "\n" not in message, message
        assert not marker.exists()
    finally:
        if width == 1:
            copyreg.remove_extension("os", "getcwd", 0x21)
            copyreg._extension_cache.clear()  # type: ignore[attr-defined]


def test_gzip_that_expands_too_far_is_refused(tmp_path: Path, twin: str) -> None:
    path = tmp_path / "zeros.pickle.gz"
    path.write_bytes(gzip.compress(b"\x00" * (200 << 20), 9))  # 200 MB of zeros in about 200 KB
    with pytest.raises(
        SnapshotError, match=r"refused to load: the gzip data expands beyond 64 MB \(from 19\d KB\)"
    ) as e:
        load_snapshot(path)
    assert str(path) in str(e.value)


def test_gzip_bound_follows_the_memory_available(monkeypatch: pytest.MonkeyPatch) -> None:
    class Memory:
        available = 8 << 20

    monkeypatch.setattr(psutil, "virtual_memory", Memory)  # the loader imports psutil when a gzip file asks
    with pytest.raises(SnapshotError, match=r"expands beyond 4\.0 MB \(half the memory available\)"):
        load_snapshot(gzip.compress(b"\x00" * (16 << 20)))
    real = pickle.dumps({"segments": []})
    assert load_snapshot(gzip.compress(real)).state.segments.address.size == 0


@pytest.fixture
def special_files() -> Iterator[dict[str, tuple[Path, str]]]:
    folder = Path(tempfile.mkdtemp(prefix="gg-", dir="/tmp"))  # short: a socket path has a 108-byte limit
    fifo = folder / "fifo"
    os.mkfifo(fifo)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.bind(str(folder / "sock"))
    try:
        yield {
            "fifo": (fifo, "is a FIFO"),
            "zero": (Path("/dev/zero"), "character device"),
            "urandom": (Path("/dev/urandom"), "character device"),
            "directory": (folder, "is a directory"),
            "socket": (folder / "sock", "is a socket"),
        }
    finally:
        sock.close()
        for p in folder.iterdir():
            p.unlink()
        folder.rmdir()


def _report(path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gpumem_gui", "report", str(path)],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,  # a read that never ends fails here instead of hanging the suite
        env={**os.environ, **env},
    )


def test_special_files_are_refused_before_they_are_opened(special_files: dict[str, tuple[Path, str]]) -> None:
    for name, (path, expected) in special_files.items():
        result = _report(path)
        lines = result.stderr.strip().splitlines()
        assert result.returncode == 2 and len(lines) == 1, (name, result.stderr)
        assert expected in lines[0] and str(path) in lines[0], (name, lines[0])


@pytest.mark.parametrize("pure", ["", "1"])
@pytest.mark.parametrize("name", ["ext2", "memo_bomb_9_bytes", "binunicode8_2^63", "entry_referenced_twice"])
def test_report_exits_2_with_one_line(tmp_path: Path, name: str, pure: str) -> None:
    path = tmp_path / f"{name}.pickle"
    path.write_bytes(HOSTILE[name][0])
    result = _report(path, GPUMEM_GUI_PURE_PYTHON=pure)
    lines = result.stderr.strip().splitlines()
    assert result.returncode == 2 and len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    assert HOSTILE[name][1] in lines[0] and str(path) in lines[0]
    assert result.stdout == ""


def test_real_snapshots_still_load_after_the_scan() -> None:
    data = pickle.dumps({"segments": [], "device_traces": [[{"action": "alloc", "addr": 1, "size": 2}] * 1]})
    assert len(load_snapshot(data).traces[0]) == 1
