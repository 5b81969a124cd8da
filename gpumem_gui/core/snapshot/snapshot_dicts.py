"""Segment and block dicts in the shape `torch.cuda.memory._snapshot()` gives them, for the code that makes them."""

from __future__ import annotations

from typing import Any

Frames = list[dict[str, Any]]


def block_dict(address: int, size: int, requested: int, state: str, frames: Frames) -> dict[str, Any]:
    """A block; inactive blocks carry no frames, and their requested size is their size (torch's is stale)."""
    inactive = state == "inactive"
    return {
        "address": address,
        "size": size,
        "requested_size": size if inactive else requested,
        "state": state,
        "frames": [] if inactive else frames,
    }


def segment_dict(
    *,
    device: int,
    address: int,
    stream: int,
    small: bool,
    expandable: bool,
    frames: Frames,
    blocks: list[dict[str, Any]],
    pool_id: tuple[int, int] = (0, 0),
) -> dict[str, Any]:
    """A segment with the sums torch reports beside its blocks."""
    active = [b for b in blocks if b["state"] != "inactive"]
    return {
        "device": device,
        "address": address,
        "total_size": sum(b["size"] for b in blocks),
        "allocated_size": sum(b["size"] for b in blocks if b["state"] == "active_allocated"),
        "active_size": sum(b["size"] for b in active),
        "requested_size": sum(b["requested_size"] for b in active),
        "stream": stream,
        "segment_type": "small" if small else "large",
        "segment_pool_id": pool_id,
        "is_expandable": expandable,
        "frames": frames,
        "blocks": blocks,
    }
