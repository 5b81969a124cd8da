"""Seeded mutations of the real snapshots: the corpus that the twin tests read both ways (compiled and pure)."""

from __future__ import annotations

import json
import pickle
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

# values put where the format has integers: each once broke one reader, or made the two disagree
ODD_INTS: list[Any] = [
    -1,
    -512,
    0,
    1 << 63,
    (1 << 63) - 1,
    1 << 64,
    -(1 << 63),
    -(1 << 64),
    10**5000,  # past Python's int-to-str digit limit
    1.5,
    2.0,
    float("nan"),
    float("inf"),
    "512",
    "x",
    True,
    False,
    None,
    [1],
    {"a": 1},
    b"12",
]
INT_FIELDS = ("addr", "size", "stream", "time_us", "device_free")
ACTIONS = [
    "alloc",
    "free_requested",
    "free_completed",
    "segment_alloc",
    "segment_free",
    "segment_map",
    "segment_unmap",
    "snapshot",
    "oom",
    "mystery",
    3,
    None,
]
SEGMENT_FIELDS = ("address", "total_size", "stream", "device", "allocated_size", "active_size", "requested_size")
BLOCK_FIELDS = ("address", "size", "requested_size")


def _traces(obj: Any) -> list[list[Any]]:
    if isinstance(obj, dict) and isinstance(obj.get("device_traces"), list):
        return [t for t in obj["device_traces"] if isinstance(t, list) and t]
    return []


def _segments(obj: Any) -> list[dict[str, Any]]:
    segs = obj.get("segments") if isinstance(obj, dict) else obj
    return [s for s in segs if isinstance(s, dict)] if isinstance(segs, list) else []


def _odd(rng: random.Random, current: Any) -> Any:
    if isinstance(current, int) and not isinstance(current, bool) and rng.random() < 0.7:
        # mostly a plausible value moved: the file stays readable and the replays meet a broken trace
        return abs(current + rng.choice([-(1 << 20), -4096, -512, 512, 2048, 1 << 21, 1 << 30, -current]))
    return rng.choice(ODD_INTS)


def _entry_field(rng: random.Random, obj: Any) -> str:
    traces = _traces(obj)
    if not traces:
        return _segment_field(rng, obj)
    trace = rng.choice(traces)
    i = rng.randrange(len(trace))
    entry = trace[i]
    if not isinstance(entry, dict):
        return "skip"
    key = rng.choice([*INT_FIELDS, "pool_id", "frames", "action"])
    if key == "action":
        entry[key] = rng.choice(ACTIONS)
    elif key == "pool_id":
        entry[key] = rng.choice([(1 << 63, 0), (-1, 2), (0,), "p", None, (1.5, 0), (True, False)])
    elif key == "frames":
        entry[key] = rng.choice([None, "f", [], [{"name": "n", "filename": "f", "line": 1 << 64}], 7])
    else:
        entry[key] = _odd(rng, entry.get(key))
    return f"entry {i} {key}"


def _entry_structure(rng: random.Random, obj: Any) -> str:
    traces = _traces(obj)
    if not traces:
        return "skip"
    trace = rng.choice(traces)
    i = rng.randrange(len(trace))
    how = rng.choice(["delete", "duplicate", "swap", "not a dict", "drop key", "move"])
    if how == "delete":
        del trace[i]
    elif how == "duplicate":
        trace.insert(i, dict(trace[i]) if isinstance(trace[i], dict) else trace[i])
    elif how == "swap":
        j = rng.randrange(len(trace))
        trace[i], trace[j] = trace[j], trace[i]
    elif how == "not a dict":
        trace[i] = rng.choice([None, 1, "alloc", [trace[i]]])
    elif how == "drop key" and isinstance(trace[i], dict) and trace[i]:
        del trace[i][rng.choice(sorted(trace[i]))]
    elif how == "move":  # an entry moved far away: frees before allocs, blocks freed twice
        trace.insert(rng.randrange(len(trace) + 1), trace.pop(i))
    return f"entry {i} {how}"


def _segment_field(rng: random.Random, obj: Any) -> str:
    segs = _segments(obj)
    if not segs:
        return "skip"
    seg = rng.choice(segs)
    blocks = seg.get("blocks")
    if rng.random() < 0.5 and isinstance(blocks, list) and blocks:
        block = rng.choice(blocks)
        if not isinstance(block, dict):
            return "skip"
        key = rng.choice([*BLOCK_FIELDS, "state"])
        if key == "state":
            block[key] = rng.choice(["inactive", "active_allocated", "active_pending_free", "gone", 1, None])
        else:
            block[key] = _odd(rng, block.get(key))
        return f"block {key}"
    key = rng.choice([*SEGMENT_FIELDS, "segment_pool_id", "is_expandable", "segment_type"])
    if key == "segment_pool_id":
        seg[key] = rng.choice([(1 << 64, 0), (-3, 0), [0], "x", (0, 2**70)])
    elif key == "is_expandable":
        seg[key] = rng.choice([True, False, "yes", None, 1 << 70])
    elif key == "segment_type":
        seg[key] = rng.choice(["small", "large", "huge", 3, None])
    else:
        seg[key] = _odd(rng, seg.get(key))
    return f"segment {key}"


def _segment_structure(rng: random.Random, obj: Any) -> str:
    segs = _segments(obj)
    if not segs:
        return "skip"
    seg = rng.choice(segs)
    blocks = seg.get("blocks")
    how = rng.choice(["drop block", "duplicate block", "grow block", "shrink segment", "overlap", "swap segments"])
    if how == "swap segments" and len(segs) > 1:
        other = rng.choice(segs)
        seg["address"], other["address"] = other.get("address"), seg.get("address")
    elif how == "shrink segment" and isinstance(seg.get("total_size"), int):
        seg["total_size"] = max(0, seg["total_size"] - rng.choice([512, 1 << 20, seg["total_size"] // 2]))
    elif isinstance(blocks, list) and blocks:
        j = rng.randrange(len(blocks))
        if how == "drop block":
            del blocks[j]
        elif how == "duplicate block":
            blocks.insert(j, dict(blocks[j]) if isinstance(blocks[j], dict) else blocks[j])
        elif isinstance(blocks[j], dict) and isinstance(blocks[j].get("size"), int):
            if how == "grow block":
                blocks[j]["size"] += rng.choice([512, 1 << 20, 1 << 40])
            elif isinstance(blocks[j].get("address"), int):  # overlap: start inside the block before
                blocks[j]["address"] -= rng.choice([512, 4096])
    return how


def _top(rng: random.Random, obj: Any) -> str:
    if not isinstance(obj, dict):
        return "skip"
    key = rng.choice(["segments", "device_traces", "allocator_settings", "external_annotations"])
    obj[key] = rng.choice([None, {}, [], "x", 5, [[{"action": "alloc"}]], [None]])
    return f"top {key}"


def _settings(rng: random.Random, obj: Any) -> str:
    settings = obj.get("allocator_settings") if isinstance(obj, dict) else None
    if not isinstance(settings, dict):
        return "skip"
    key = rng.choice(
        ["max_split_size", "roundup_power2_divisions", "garbage_collection_threshold", "expandable_segments"]
    )
    settings[key] = rng.choice([*ODD_INTS, [4] * 16, [1 << 62] * 16, {"1": 2, "x": 3}, 0.5, 2 << 20])
    return f"settings {key}"


def _frames(rng: random.Random, obj: Any) -> str:
    segs = [s for s in _segments(obj) if isinstance(s.get("frames"), list) and s["frames"]]
    if not segs:
        return "skip"
    frame = rng.choice(rng.choice(segs)["frames"])
    if isinstance(frame, dict):
        frame[rng.choice(["name", "filename", "line"])] = rng.choice(ODD_INTS)
    return "frame"


OBJECT_MUTATIONS: list[tuple[float, Callable[[random.Random, Any], str]]] = [
    (0.04, _settings),
    (0.03, _frames),
    (0.35, _entry_field),
    (0.2, _entry_structure),
    (0.2, _segment_field),
    (0.15, _segment_structure),
    (0.03, _top),
]


def _encode(rng: random.Random, obj: Any) -> tuple[str, bytes]:
    if rng.random() < 0.1:
        try:
            return "json", json.dumps(obj, allow_nan=True).encode()
        except (TypeError, ValueError):
            pass
    protocol = rng.choice([2, 3, 4, 4, 5])
    return f"p{protocol}", pickle.dumps(obj, protocol=protocol)


def _bytes_mutation(rng: random.Random, data: bytes) -> tuple[str, bytes]:
    how = rng.choice(["truncate", "flip", "flip", "splice"])
    blob = bytearray(data)
    if how == "truncate":
        return how, bytes(blob[: rng.randrange(len(blob))])
    if how == "flip":
        for _ in range(rng.randint(1, 4)):
            blob[rng.randrange(len(blob))] = rng.randrange(256)
        return how, bytes(blob)
    i, j = sorted(rng.randrange(len(blob)) for _ in range(2))
    k = rng.randrange(len(blob))
    return how, bytes(blob[:k] + blob[i:j] + blob[k:])


def mutated_corpus(paths: list[Path], count: int, seed: int) -> Iterator[tuple[str, bytes]]:
    """`count` mutated snapshots (a label naming the fixture and the mutations, and the bytes), seeded.

    Small fixtures are picked more often than the big ones, so that a few hundred inputs read both ways in seconds.
    """
    rng = random.Random(seed)
    originals = [(p.name, p.read_bytes()) for p in paths]
    weights = [1.0 / max(1.0, len(data) / 200_000) for _, data in originals]
    for n in range(count):
        name, data = rng.choices(originals, weights)[0]
        if rng.random() < 0.12:
            how, blob = _bytes_mutation(rng, data)
            yield f"{n}:{name}:{how}", blob
            continue
        obj = pickle.loads(data)  # the project's own fixture files, checked by sha256 in their README
        done = []
        for _ in range(rng.choice([1, 1, 1, 2, 3])):
            weights_m = [w for w, _ in OBJECT_MUTATIONS]
            mutate = rng.choices([m for _, m in OBJECT_MUTATIONS], weights_m)[0]
            done.append(mutate(rng, obj))
        form, blob = _encode(rng, obj)
        yield f"{n}:{name}:{form}:{'; '.join(done)}", blob
