"""A real run and a simulated one, compared: segments, block offsets, peaks, device calls, OOMs, the event sequence.

Both sides are run records: {"snapshot": the dict of torch.cuda.memory._snapshot(), "peaks": {"allocated",
"reserved"}, "ooms_raised": [operation indices]}. Device addresses differ between any two runs, so places are
compared relative to the device call that made them: the k-th cudaMalloc or page map of the trace (its "range"),
and the offset within it. The first difference is named by aspect, in time order first (the events).
"""

from __future__ import annotations

from bisect import bisect_right, insort
from typing import Any

ACQUIRES = ("segment_alloc", "segment_map")
DEVICE_CALLS = ("segment_alloc", "segment_free", "segment_map", "segment_unmap")
ALLOCATOR_ACTIONS = frozenset({"alloc", "free_requested", "free_completed", "oom", *DEVICE_CALLS})
ASPECTS = ("events", "segments", "block_offsets", "device_calls", "peaks", "ooms")

Place = tuple[int, int] | None  # (ordinal of the device call that made the range, offset within it)
Event = tuple[str, int, Place]


class _Ranges:
    """Live device ranges, each named by the ordinal of the call that acquired it; a release carves its part out,
    and what is left keeps its name and its original start (offsets stay those of the acquiring call)."""

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.spans: dict[int, tuple[int, int, int]] = {}  # start -> (end, ordinal, original start)

    def add(self, start: int, size: int, ordinal: int) -> None:
        self.remove(start, size)
        insort(self.starts, start)
        self.spans[start] = (start + size, ordinal, start)

    def remove(self, start: int, size: int) -> None:
        end = start + size
        for s in [s for s in self.starts if s < end and self.spans[s][0] > start]:
            e, ordinal, origin = self.spans.pop(s)
            self.starts.remove(s)
            for lo, hi in ((s, start), (end, e)):
                if lo < hi:
                    insort(self.starts, lo)
                    self.spans[lo] = (hi, ordinal, origin)

    def place(self, addr: int) -> Place:
        i = bisect_right(self.starts, addr) - 1
        if i >= 0:
            end, ordinal, origin = self.spans[self.starts[i]]
            if addr < end:
                return ordinal, addr - origin
        return None


def _trace(snapshot: dict[str, Any], device: int) -> list[dict[str, Any]]:
    traces = snapshot.get("device_traces") or []
    return list(traces[device]) if device < len(traces) else []


def _walk(snapshot: dict[str, Any], device: int) -> tuple[list[Event], _Ranges]:
    """The allocator's events in order, each with its place; and the ranges live at the end."""
    ranges = _Ranges()
    calls = 0
    events: list[Event] = []
    for entry in _trace(snapshot, device):
        action = entry.get("action")
        if action not in ALLOCATOR_ACTIONS:
            continue  # e.g. a snapshot marker or a user annotation
        size = int(entry.get("size", 0))
        if action == "oom":
            events.append((action, size, None))
            continue
        addr = int(entry["addr"])
        if action in ACQUIRES:
            ranges.add(addr, size, calls)
            events.append((action, size, (calls, 0)))
            calls += 1
            continue
        events.append((action, size, ranges.place(addr)))
        if action in ("segment_free", "segment_unmap"):
            ranges.remove(addr, size)
    return events, ranges


def _pool(segment: dict[str, Any]) -> str:
    pool_id = segment.get("segment_pool_id")
    private = pool_id is not None and tuple(pool_id) != (0, 0)
    kind = str(segment.get("segment_type", "large"))
    return f"private {kind}" if private else kind


def _segments(snapshot: dict[str, Any], device: int, ranges: _Ranges) -> dict[str, list[dict[str, Any]]]:
    """Each pool's segments in the order of the device calls that made them, with their blocks' offsets."""
    pools: dict[str, list[dict[str, Any]]] = {}
    for seg in snapshot.get("segments") or []:
        if int(seg.get("device", 0)) != device:
            continue
        start = int(seg["address"])
        blocks = [
            (
                int(b["address"]) - start,
                int(b["size"]),
                str(b["state"]),
                int(b.get("requested_size", b["size"])) if b["state"] == "active_allocated" else None,
            )
            for b in seg.get("blocks") or []
        ]
        pools.setdefault(_pool(seg), []).append(
            {
                "made_by": ranges.place(start),
                "total_size": int(seg["total_size"]),
                "expandable": bool(seg.get("is_expandable", False)),
                "blocks": blocks,
            }
        )
    for segments in pools.values():  # segments made before the trace began (no call names them) go last
        segments.sort(key=lambda s: (s["made_by"] is None, s["made_by"] or (0, 0), s["total_size"], s["blocks"]))
    return pools


def _size(n: int) -> str:
    return f"{n:,} B"


def _event_text(event: Event, ops: list[int] | None = None, index: int | None = None) -> str:
    action, size, place = event
    text = f"{action} {_size(size)}"
    if place is not None:
        text += f" in range #{place[0]} at +{place[1]:,}"
    if ops is not None and index is not None and index < len(ops):
        text += f" (operation {ops[index]})"
    return text


def _made(seg: dict[str, Any]) -> str:
    return "before the trace" if seg["made_by"] is None else f"by device call #{seg['made_by'][0]}"


def _segment_text(pool: str, i: int, seg: dict[str, Any]) -> str:
    return f"{pool} segment {i} (made {_made(seg)})"


def compare_events(real: list[Event], sim: list[Event], sim_ops: list[int] | None = None) -> dict[str, Any]:
    first = next((i for i, (a, b) in enumerate(zip(real, sim, strict=False)) if a != b), None)
    difference = None
    if first is not None:
        difference = (
            f"event {first}: real {_event_text(real[first])}, simulator {_event_text(sim[first], sim_ops, first)}"
        )
    elif len(real) != len(sim):
        first = min(len(real), len(sim))
        longer, name = (real, "real") if len(real) > len(sim) else (sim, "simulator")
        difference = f"event {first}: only the {name} run goes on, with {_event_text(longer[first])}"
    return {"matched": difference is None, "real": len(real), "simulator": len(sim), "first_difference": difference}


def compare_segments(real: dict[str, list[dict[str, Any]]], sim: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    def sizes(pools: dict[str, list[dict[str, Any]]]) -> dict[str, list[int]]:
        return {pool: [s["total_size"] for s in segs] for pool, segs in sorted(pools.items())}

    difference = None
    for pool in sorted(set(real) | set(sim)):
        r, s = real.get(pool, []), sim.get(pool, [])
        if len(r) != len(s):
            difference = f"{pool} pool: real {len(r)} segments, simulator {len(s)}"
            break
        for i, (a, b) in enumerate(zip(r, s, strict=True)):
            if (a["made_by"], a["total_size"], a["expandable"]) != (b["made_by"], b["total_size"], b["expandable"]):
                difference = (
                    f"{_segment_text(pool, i, a)}: real {_size(a['total_size'])}"
                    f"{' expandable' if a['expandable'] else ''}, simulator {_size(b['total_size'])}"
                    f"{' expandable' if b['expandable'] else ''} made {_made(b)}"
                )
                break
        if difference:
            break
    return {"matched": difference is None, "real": sizes(real), "simulator": sizes(sim), "first_difference": difference}


def compare_blocks(real: dict[str, list[dict[str, Any]]], sim: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    difference = None
    count = 0
    for pool in sorted(set(real) | set(sim)):
        for i, (a, b) in enumerate(zip(real.get(pool, []), sim.get(pool, []), strict=False)):
            count += len(a["blocks"])
            if a["blocks"] == b["blocks"] or difference:
                continue
            j = next((j for j, (x, y) in enumerate(zip(a["blocks"], b["blocks"], strict=False)) if x != y), None)
            if j is None:
                j = min(len(a["blocks"]), len(b["blocks"]))
                difference = (
                    f"{_segment_text(pool, i, a)}: real {len(a['blocks'])} blocks, simulator {len(b['blocks'])}"
                )
            else:
                difference = (
                    f"{_segment_text(pool, i, a)}, block {j}: real {_block_text(a['blocks'][j])}, "
                    f"simulator {_block_text(b['blocks'][j])}"
                )
    return {"matched": difference is None, "blocks": count, "first_difference": difference}


def _block_text(block: tuple[int, int, str, int | None]) -> str:
    offset, size, state, requested = block
    asked = f" (requested {_size(requested)})" if requested is not None else ""
    return f"+{offset:,} {_size(size)} {state}{asked}"


def _counts(events: list[Event], actions: tuple[str, ...]) -> dict[str, int]:
    return {a: sum(1 for e in events if e[0] == a) for a in actions}


def _named_difference(real: dict[str, Any], sim: dict[str, Any], what: str) -> str | None:
    for key, value in real.items():
        if value != sim.get(key):
            return f"{what} {key}: real {value}, simulator {sim.get(key)}"
    return None


def compare_runs(real: dict[str, Any], sim: dict[str, Any], *, device: int = 0) -> dict[str, Any]:
    """Compare two run records; `matched` is true when every aspect matches, else `first_difference` names the first
    aspect (in the order of ASPECTS) that differs and where."""
    real_events, real_ranges = _walk(real["snapshot"], device)
    sim_events, sim_ranges = _walk(sim["snapshot"], device)
    real_segments = _segments(real["snapshot"], device, real_ranges)
    sim_segments = _segments(sim["snapshot"], device, sim_ranges)
    calls = {"real": _counts(real_events, DEVICE_CALLS), "simulator": _counts(sim_events, DEVICE_CALLS)}
    peaks = {"real": dict(real.get("peaks") or {}), "simulator": dict(sim.get("peaks") or {})}
    ooms = {
        side: {"events": _counts(events, ("oom",))["oom"], "raised": list(record.get("ooms_raised") or [])}
        for side, events, record in (("real", real_events, real), ("simulator", sim_events, sim))
    }
    aspects = {
        "events": compare_events(real_events, sim_events, sim.get("event_ops")),
        "segments": compare_segments(real_segments, sim_segments),
        "block_offsets": compare_blocks(real_segments, sim_segments),
        "device_calls": {**calls, "first_difference": _named_difference(calls["real"], calls["simulator"], "calls")},
        "peaks": {**peaks, "first_difference": _named_difference(peaks["real"], peaks["simulator"], "peak")},
        "ooms": {**ooms, "first_difference": _named_difference(ooms["real"], ooms["simulator"], "OOM")},
    }
    for aspect in ("device_calls", "peaks", "ooms"):
        aspects[aspect]["matched"] = aspects[aspect]["first_difference"] is None
    differing = [name for name in ASPECTS if not aspects[name]["matched"]]
    first = f"{differing[0]}: {aspects[differing[0]]['first_difference']}" if differing else None
    return {"matched": first is None, "first_difference": first, "aspects": aspects}
