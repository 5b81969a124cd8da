"""`annotate` entries (`torch.cuda.memory._annotate_memory(data_ptr, metadata)` / `_annotate_tensor`, newer than
torch 2.13: an entry naming a data pointer and metadata) attached to the block they name, added to its own
allocation metadata (never in its place), shown in the block details and found by search."""

from __future__ import annotations

import pickle
from typing import Any

import numpy as np

from gpumem_gui.core import load_snapshot
from gpumem_gui.document.document import SnapshotDocument
from tests.conftest import trace_entry

BASE = 0x7F0000000000
MiB = 1 << 20
FRAMES = [{"name": "forward", "filename": "model.py", "line": 12}]


def _entry(action: str, addr: int, size: int, t: int, metadata: Any = "") -> dict[str, Any]:
    # conftest.trace_entry: a 2.13 TraceEntry's keys, here with the post-2.13 action that names a data pointer
    # (docs/snapshot-format.md, 1.5: `annotate`, torch.cuda.memory._annotate_memory(data_ptr, metadata))
    return trace_entry(action, addr, size, t, metadata, frames=FRAMES)


def _document() -> SnapshotDocument:
    kv, other = BASE, BASE + MiB
    blocks = [
        {"address": kv, "size": MiB, "requested_size": MiB, "state": "active_allocated", "frames": FRAMES},
        {"address": other, "size": MiB, "requested_size": MiB, "state": "active_allocated", "frames": FRAMES},
    ]
    segment = {"address": BASE, "total_size": 2 * MiB, "stream": 0, "segment_type": "large", "blocks": blocks}
    trace = [
        _entry("segment_alloc", BASE, 2 * MiB, 1),
        _entry("alloc", kv, MiB, 2, "step: 1"),
        _entry("alloc", other, MiB, 3),
        _entry("annotate", kv + 4096, 0, 4, {"owner": "kv_cache"}),  # a view's data_ptr, inside the block
        _entry("annotate", BASE + 8 * MiB, 0, 5, "nothing lives here"),
        _entry("annotate", kv, 0, 6, "layer 3"),
    ]
    data = pickle.dumps({"segments": [segment], "device_traces": [trace]})
    return SnapshotDocument(load_snapshot(data))


def _index(doc: SnapshotDocument, addr: int) -> int:
    return int(np.flatnonzero(doc.frame().state.blocks.address == addr)[0])


def test_annotations_add_to_the_allocation_metadata_in_order() -> None:
    doc = _document()
    doc.travel(5)
    details = doc.block_details(_index(doc, BASE))
    assert details.user_metadata == "step: 1"  # the allocation's own, kept
    assert details.annotations == ("owner: kv_cache", "layer 3")
    assert doc.block_details(_index(doc, BASE + MiB)).annotations == ()
    doc.travel(3)  # before the second annotation
    assert doc.block_details(_index(doc, BASE)).annotations == ("owner: kv_cache",)


def test_search_finds_blocks_by_their_metadata_and_annotations() -> None:
    doc = _document()
    doc.travel(5)
    blocks = doc.frame().state.blocks
    for text in ("kv_cache", "LAYER 3", "step: 1"):
        frame = doc.set_search(text)
        assert frame.search_mask is not None
        assert blocks.address[frame.search_mask].tolist() == [BASE], text
    assert not doc.set_search("nothing lives here").search_mask.any()
