"""A trace entry whose addr + size passes 2^62 - 1 is refused with the same words by both readers; one that ends
exactly there loads (the edge of ends_overflow's quick check)."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from gpumem_gui.core.snapshot.errors import SnapshotError
from gpumem_gui.core.snapshot.loader import load_snapshot

LAST = (1 << 62) - 1  # the largest address or end the reader accepts (checks.MAX_VALUE, written out by hand)


def _file(tmp_path: Path, addr: int, size: int) -> Path:
    entry = {"action": "alloc", "addr": addr, "size": size, "stream": 0, "frames": []}
    path = tmp_path / "trace.pickle"
    path.write_bytes(pickle.dumps({"segments": [], "device_traces": [[entry]]}))
    return path


def test_an_entry_one_byte_past_the_end_is_refused(tmp_path: Path, twin: str) -> None:
    with pytest.raises(SnapshotError) as caught:
        load_snapshot(_file(tmp_path, LAST - 1023, 1024))
    assert caught.value.message == (
        "device 0 trace: entry 0 ends beyond 2^62 - 1 ('addr' 4611686018427386880 + 'size' 1024)"
    )


def test_an_entry_ending_exactly_at_the_end_loads(tmp_path: Path, twin: str) -> None:
    snapshot = load_snapshot(_file(tmp_path, LAST - 1023, 1023))
    trace = snapshot.traces[0]
    assert (int(trace.addr[0]), int(trace.size[0])) == (LAST - 1023, 1023)
