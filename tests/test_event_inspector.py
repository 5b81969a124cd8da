"""The event inspector reads out what the raw pickle says: an OOM's free memory, an allocation's request beside the
block the allocator gave it (the final segments' block), a backward allocation's forward stack; its layout is fixed."""

from __future__ import annotations

import pickle
from typing import Any

import pytest

from gpumem_gui.core import load_snapshot
from gpumem_gui.core.allocator.simulator import DeviceAllocatorSim
from gpumem_gui.core.analysis.timetravel import build_timeline
from gpumem_gui.core.snapshot.model import Frame
from gpumem_gui.document.events import describe_event, format_elapsed
from gpumem_gui.views.snapshot.event_inspector import EventInspector
from tests.conftest import fixture_path, load_raw


@pytest.fixture
def inspector(qtbot: Any) -> EventInspector:
    widget = EventInspector()
    qtbot.addWidget(widget)
    widget.resize(600, 500)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def _value(widget: EventInspector, key: str) -> str:
    return widget.values[key].text()


def test_an_oom_shows_the_free_memory_and_request_of_the_raw_entry(inspector: EventInspector) -> None:
    path = fixture_path("constructor_memory_snapshot.pickle")
    entries = load_raw(path)["device_traces"][1]
    i = next(i for i, e in enumerate(entries) if e["action"] == "oom")
    e = entries[i]
    snapshot = load_snapshot(path)
    info = describe_event(snapshot, 1, i, timeline=build_timeline(snapshot, 1))
    assert info is not None
    assert [(f.name, f.filename, f.line) for f in info.recorded_frames] == [
        (f["name"], f["filename"], f["line"]) for f in e["frames"]
    ]
    inspector.show_event(info)
    assert inspector.heading.text() == f"event {i:,} of {len(entries):,}: OOM"
    assert f"({e['device_free']:,} bytes)" in _value(inspector, "device_free")
    assert f"({e['size']:,} bytes)" in _value(inspector, "size") and "rounded" in _value(inspector, "size")
    assert "no address" in _value(inspector, "address")
    assert _value(inspector, "stream").startswith(str(e["stream"]))
    assert _value(inspector, "time").startswith(format_elapsed(e["time_us"] - entries[0]["time_us"]))
    assert _value(inspector, "compile_context") == e["compile_context"]
    assert _value(inspector, "block") == "—"
    shown = [(f.filename, f.line, f.name) for f in inspector.stack.frames_shown()]
    python = [(f["filename"], f["line"], f["name"]) for f in e["frames"] if f["filename"].endswith(".py")]
    assert python and shown[: len(python)] == python  # every Python frame, in order, before the C++ ones
    inspector.stack.show_all.setChecked(True)  # ... and behind "show all", every frame the file recorded
    assert [(f.filename, f.line, f.name) for f in inspector.stack.frames_shown()] == [
        (f["filename"], f["line"], f["name"]) for f in e["frames"]
    ]
    inspector.stack.show_all.setChecked(False)
    assert not inspector.stacks.isTabEnabled(1)


def _live_rounded_alloc(raw: dict[str, Any], device: int) -> tuple[int, int]:
    """An alloc event whose block is still allocated in the final segments, and that block's size, where the
    allocator rounded the request (the address's last alloc, its requested size the event's)."""
    entries = raw["device_traces"][device]
    last_alloc = {e["addr"]: i for i, e in enumerate(entries) if e["action"] == "alloc"}
    for seg in raw["segments"]:
        if seg["device"] != device:
            continue
        for block in seg["blocks"]:
            i = last_alloc.get(block["address"])
            if i is None or block["state"] != "active_allocated" or block["size"] == block["requested_size"]:
                continue
            if entries[i]["size"] == block["requested_size"]:
                return i, block["size"]
    raise AssertionError("no rounded live allocation in the fixture")


@pytest.mark.parametrize("name", ["magma27_memory_snapshot.pickle", "constructor_memory_snapshot.pickle"])
def test_an_allocation_shows_its_request_and_the_block_it_got(inspector: EventInspector, name: str) -> None:
    path = fixture_path(name)
    raw = load_raw(path)
    i, block = _live_rounded_alloc(raw, 0)
    e = raw["device_traces"][0][i]
    snapshot = load_snapshot(path)
    inspector.show_event(describe_event(snapshot, 0, i, timeline=build_timeline(snapshot, 0)))
    assert inspector.heading.text().endswith(": allocation")
    assert _value(inspector, "address") == hex(e["addr"])
    assert _value(inspector, "size").endswith(f"({e['size']:,} bytes), requested")
    shown = _value(inspector, "block")
    assert f"({block:,} bytes):" in shown and f"{block - e['size']:,} bytes" in shown
    assert shown.endswith("more than requested")
    # without the timeline the block is not known yet, and the inspector says so
    inspector.show_event(describe_event(snapshot, 0, i))
    assert "not known" in _value(inspector, "block")


def test_a_backward_allocation_shows_its_forward_stack_and_metadata(inspector: EventInspector) -> None:
    sim = DeviceAllocatorSim(8 << 30)
    sim.malloc(1_000_000, stream=0, frames=[{"name": "backward", "filename": "/m/train.py", "line": 9}])
    dump = sim.snapshot()
    entry = dump["device_traces"][0][-1]
    forward = ['File "/m/model.py", line 40, in forward', "    y = self.mlp(x)"]
    entry |= {"forward_frames": forward, "user_metadata": "step=3", "compile_context": "Torch-Compiled Region: 0/0"}
    snapshot = load_snapshot(pickle.dumps(dump))
    index = len(dump["device_traces"][0]) - 1
    inspector.show_event(describe_event(snapshot, 0, index, timeline=build_timeline(snapshot, 0)))
    assert inspector.stacks.isTabEnabled(1) and inspector.stacks.tabText(1) == "forward stack (2)"
    assert inspector.forward_stack.toPlainText().splitlines() == forward
    assert inspector.stack.frames_shown() == [Frame("backward", "/m/train.py", 9)]
    assert _value(inspector, "user_metadata") == "step=3"
    assert _value(inspector, "compile_context") == "Torch-Compiled Region: 0/0"
    # 1,000,000 bytes is a small-pool request, rounded up to 512 bytes: 1,000,448 (worked by hand)
    assert _value(inspector, "block") == "977.0 KiB (1,000,448 bytes): 448 bytes more than requested"
    inspector.show_event(describe_event(snapshot, 0, 0))  # the segment_alloc before it: no forward stack
    assert not inspector.stacks.isTabEnabled(1) and inspector.stacks.currentIndex() == 0


def test_nothing_to_show_empties_every_field(inspector: EventInspector) -> None:
    inspector.show_event(None)
    assert all(label.text() == "—" for label in inspector.values.values())
    assert "no event" in inspector.heading.text() and "has no trace" in inspector.heading.text()
    inspector.show_event(None, pending=True)  # the window has the final state; the trace is still being read
    assert "still being read" in inspector.heading.text() and "has no trace" not in inspector.heading.text()


def test_long_values_never_widen_the_inspector(inspector: EventInspector) -> None:
    sim = DeviceAllocatorSim(8 << 30)
    sim.malloc(4096, stream=0, frames=[])
    dump = sim.snapshot()
    dump["device_traces"][0][-1]["compile_context"] = "Torch-Compiled Region: " + "x" * 600
    snapshot = load_snapshot(pickle.dumps(dump))
    inspector.show_event(describe_event(snapshot, 0, 0))
    before = inspector.minimumSizeHint().width(), inspector.sizeHint().width()
    inspector.show_event(describe_event(snapshot, 0, 1))
    assert len(_value(inspector, "compile_context")) > 600
    assert (inspector.minimumSizeHint().width(), inspector.sizeHint().width()) == before
