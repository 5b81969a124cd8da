"""Fresh cases for a retried question: the same scenario as its bundled example, run again with other sizes (seeded).

A learner who retries a missed question should not be able to answer from memory, so the scenario is rebuilt in the
allocator simulator with new request, hole, segment and tensor sizes, and graded by the same builder as the bundled
case (teach/predict/): a map prediction by the demo's own mask, a setting by replaying the fresh trace under each
setting, a number by counting in the fresh data. Option and lab predictions, and the paired KV-cache one, keep
their bundled case.

    case = fresh_case(prediction, seed)        # loads nothing from disk; run it off the GUI thread all the same
"""

from __future__ import annotations

import contextlib
import pickle
import random
from collections.abc import Callable
from typing import Any

from gpumem_gui.core.allocator.examples import ATTENTION, LOGITS, MLP, WEIGHT
from gpumem_gui.core.allocator.simulator import DeviceAllocatorSim, OutOfMemoryError
from gpumem_gui.core.rules.allocator_constants import GiB, MiB
from gpumem_gui.core.snapshot.loader import load_snapshot
from gpumem_gui.core.snapshot.model import Snapshot
from gpumem_gui.teach.predict import MAP_KINDS, Case, Prediction, case_on, make_case


def fragmented_oom(rng: random.Random) -> DeviceAllocatorSim:
    """Weights, then segments each pinned by one live tensor with a free hole beside it, a device nearly full, and
    a request larger than every hole though smaller than all of them together: cudaMalloc fails, nothing can be
    released, OOM."""
    n = rng.randint(3, 5)
    holes = sorted(rng.sample(range(320, 1600, 32), n))  # MiB, distinct and increasing (see below why)
    pinned = [rng.randrange(48, 256, 16) for _ in range(n)]  # MiB: smaller than every hole
    piece, pieces = rng.randrange(128, 512, 2) * MiB, rng.randint(8, 24)  # whole 2 MiB pages: no rounding slivers
    request = (holes[-1] + rng.randrange(96, max(160, sum(holes[:-1]) - 64), 32)) * MiB + rng.randrange(1, 256) * 4096
    room = rng.randrange(64, min(request // MiB - 32, 900), 2) * MiB  # what the device has left: less than the request
    reserved = piece * pieces + sum(h + k for h, k in zip(holes, pinned, strict=True)) * MiB
    capacity = (-(-(reserved + room) // GiB) + rng.randint(1, 3)) * GiB
    sim = DeviceAllocatorSim(capacity)
    for _ in range(pieces):
        sim.malloc(piece, frames=WEIGHT)
    for hole, keep in zip(holes, pinned, strict=True):
        # a segment of hole + keep MiB. Holes increase, so no earlier hole can serve this segment's two requests:
        # the first takes its start, the second (smaller than every hole) fits its remainder exactly, best fit
        whole = sim.malloc((hole + keep) * MiB, frames=ATTENTION)
        sim.free(whole)
        front = sim.malloc(hole * MiB, frames=ATTENTION)
        sim.malloc(keep * MiB, frames=LOGITS)  # kept from step to step: it pins the segment
        sim.free(front)
    sim.malloc(capacity - sim.reserved - room, frames=MLP)  # the rest of the step fills the device
    with contextlib.suppress(OutOfMemoryError):  # the program dies here; the snapshot is taken at the OOM
        sim.malloc(request, frames=ATTENTION)
    return sim


def empty_cache_live_tensor(rng: random.Random) -> DeviceAllocatorSim:
    """Tensors in their own segments, one or two of them still referenced, the rest freed; then empty_cache()."""
    sizes = [rng.randrange(12, 1200, 2) for _ in range(rng.randint(3, 6))]  # MiB: large-pool segments of their own
    live = set(rng.sample(range(len(sizes)), rng.randint(0, 1)))
    small = rng.randint(1, 9) * MiB + rng.randrange(0, 256) * 4096 if not live or rng.random() < 0.5 else 0
    sim = DeviceAllocatorSim(rng.choice((16, 24, 40)) * GiB)
    blocks = [sim.malloc(size * MiB, frames=MLP) for size in sizes]
    if small:  # a small tensor still referenced keeps its 20 MiB segment
        sim.malloc(small, frames=LOGITS)
    for i, block in enumerate(blocks):
        if i not in live:
            sim.free(block)
    sim.empty_cache()  # hands back the segments in which every block is free
    return sim


def split_blocks_oom(rng: random.Random) -> DeviceAllocatorSim:
    """Weights; a larger batch's segments, freed and kept in the cache; smaller chunks carved from them, every other
    one freed: holes of one chunk between live ones. A request of several chunks then finds no hole that large,
    and the device, nearly full, cannot give it a new segment: OOM with more than the request free in the cache."""
    chunk = rng.randrange(64, 256, 2) * MiB  # whole 2 MiB pages: no rounding slivers
    per, segments = rng.choice((4, 6, 8)), rng.randint(2, 5)  # an even count: each segment ends with a live chunk
    weights = [rng.randrange(128, 768, 2) * MiB for _ in range(rng.randint(4, 12))]
    holes = per // 2 * segments
    request = rng.randint(2, max(2, holes - 1)) * chunk + rng.randrange(1, 512) * 4096  # above a hole, below them all
    room = rng.randrange(32, max(34, request // MiB - 32), 2) * MiB  # what the device has left: less than the request
    sim = DeviceAllocatorSim(sum(weights) + segments * per * chunk + room)
    for size in weights:
        sim.malloc(size, frames=WEIGHT)
    for block in [sim.malloc(per * chunk, frames=ATTENTION) for _ in range(segments)]:
        sim.free(block)
    chunks = [sim.malloc(chunk, frames=MLP) for _ in range(segments * per)]  # best fit fills one segment after another
    for block in chunks[::2]:
        sim.free(block)
    with contextlib.suppress(OutOfMemoryError):  # the program dies here; the snapshot is taken at the OOM
        sim.malloc(request, frames=LOGITS)
    return sim


def cache_reuse(rng: random.Random) -> DeviceAllocatorSim:
    """Weights, then training steps that allocate and free the same activation sizes: after the first step the
    cache serves every request."""
    sim = DeviceAllocatorSim(24 * GiB)
    for _ in range(rng.randint(8, 30)):
        sim.malloc(rng.randrange(32, 160, 2) * MiB, frames=WEIGHT)
    menu = (rng.randrange(16, 96, 2) * MiB, rng.randrange(2, 12) * MiB, rng.randrange(64, 900) * 1024, 8192, 512)
    sizes = rng.sample(menu, rng.randint(3, len(menu)))
    for _step in range(rng.randint(100, 400)):
        for block in [sim.malloc(size, frames=MLP) for size in sizes]:
            sim.free(block)
    return sim


SCENARIOS: dict[str, Callable[[random.Random], DeviceAllocatorSim]] = {
    "fragmented_oom": fragmented_oom,
    "empty_cache_live_tensor": empty_cache_live_tensor,
    "split_blocks_oom": split_blocks_oom,
    "cache_reuse": cache_reuse,
}
FRESH_KINDS = (*MAP_KINDS, "setting", "number")  # an option's words and the lab's runs are not simulated


def can_refresh(prediction: Prediction) -> bool:
    """Has this prediction a fresh scenario (else a retry shows its bundled case)?"""
    return prediction.kind in FRESH_KINDS and prediction.example in SCENARIOS


def fresh_raw(example: str, seed: int) -> dict[str, Any]:
    """The raw snapshot dict (as torch.cuda.memory._snapshot() returns) of the example's scenario under `seed`."""
    return SCENARIOS[example](random.Random(seed)).snapshot()


def fresh_snapshot(example: str, seed: int) -> Snapshot:
    raw = fresh_raw(example, seed)
    return load_snapshot(pickle.dumps(raw, protocol=4), name=f"{example} (new case {seed})")


def fresh_case(prediction: Prediction, seed: int, check: Callable[[], None] | None = None) -> Case:
    """The prediction's case on a fresh run of its scenario; its bundled case where it has no fresh scenario."""
    if not can_refresh(prediction):
        return make_case(prediction, check)
    snapshot = fresh_snapshot(prediction.example, seed)
    if check is not None:
        check()
    return case_on(prediction, snapshot)
