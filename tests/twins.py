"""Everything one reading of a snapshot gives (model, figures, warnings, replay, or the error), to compare twins."""

from __future__ import annotations

import math
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from gpumem_gui.core.allocator.replay import replay
from gpumem_gui.core.analysis.report import build_report, report_json
from gpumem_gui.core.analysis.timetravel import build_timeline
from gpumem_gui.core.snapshot.errors import SnapshotError
from gpumem_gui.core.snapshot.loader import load_snapshot
from gpumem_gui.core.snapshot.model import Snapshot


@contextmanager
def pure_python(on: bool) -> Iterator[None]:
    """GPUMEM_GUI_PURE_PYTHON set (both twins read it on every call) or unset, restored afterwards."""
    old = os.environ.get("GPUMEM_GUI_PURE_PYTHON")
    if on:
        os.environ["GPUMEM_GUI_PURE_PYTHON"] = "1"
    else:
        os.environ.pop("GPUMEM_GUI_PURE_PYTHON", None)
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("GPUMEM_GUI_PURE_PYTHON", None)
        else:
            os.environ["GPUMEM_GUI_PURE_PYTHON"] = old


def model(snap: Snapshot) -> list[Any]:
    """The snapshot's columns as plain lists (codes resolved to what they stand for, as the readers may number
    interned strings and stacks in a different order)."""

    def stack(k: int) -> tuple[Any, ...]:
        return tuple((f.name, f.filename, f.line) for f in snap.stacks.stack(int(k)))

    seg, blk = snap.state.segments, snap.state.blocks
    out: list[Any] = [snap.form, snap.legacy_blocks, snap.allocator_settings, snap.external_annotations]
    out.append([a.tolist() for a in (seg.device, seg.address, seg.total_size, seg.stream, seg.is_small)])
    out.append([[snap.state.pool_ids[p] for p in seg.pool], seg.is_expandable.tolist(), [stack(k) for k in seg.stack]])
    out.append([seg.block_start.tolist(), seg.block_count.tolist()])
    out.append([a.tolist() for a in (blk.segment, blk.address, blk.size, blk.requested_size, blk.state)])
    out.append([stack(k) for k in blk.stack])
    for t in snap.traces:
        strings = [[snap.strings[c] if c >= 0 else None for c in col] for col in (t.compile_context, t.user_metadata)]
        pools = [snap.state.pool_ids[p] if p >= 0 else None for p in t.pool]
        out.append(
            (
                t.action.tolist(), t.addr.tolist(), t.size.tolist(), t.stream.tolist(), t.time_us.tolist(),
                t.has_time, [stack(k) for k in t.stack], strings, pools, t.device_free.tolist(), t.forward_frames,
                t.unknown_actions,
            )
        )  # fmt: skip
    return out


def _step(what: str, fn: Any, *expected: type[Exception]) -> Any:
    try:
        return fn()
    except (SnapshotError, *expected) as e:
        return f"{what}: {type(e).__name__}: {e}"


def outcome(data: bytes | Path, *, pure: bool) -> dict[str, Any]:
    """What both twins must agree on for `data`: the error text, or the model, report, warnings and replays.

    Only SnapshotError counts as an answer; any other exception propagates (a traceback is a defect on its own).
    """
    with pure_python(pure):
        bare = without_stacks(data)
        try:
            snap = load_snapshot(data, name="mutant")
        except SnapshotError as e:
            return {"error": str(e), "without_stacks": bare}
        result: dict[str, Any] = {"model": model(snap), "without_stacks": bare}
        result["report"] = _step("report", lambda: report_json(snap, build_report(snap)))
        result["warnings"] = {
            d: _step("timeline", lambda d=d: build_timeline(snap, d).warnings) for d in snap.devices()
        }
        replays = {}
        for d in snap.devices():
            if len(snap.trace(d)):
                replays[d] = _step("replay", lambda d=d: _replay_figures(snap, d), ValueError)  # the CLI's 2
        result["replay"] = replays
        return result


def without_stacks(data: bytes | Path) -> dict[str, Any]:
    """What the report reads (load_snapshot(stacks=False)): the load's error, or the report."""
    try:
        snap = load_snapshot(data, name="mutant", stacks=False)
    except SnapshotError as e:
        return {"error": str(e)}
    return {"report": _step("report", lambda: report_json(snap, build_report(snap)))}


def _replay_figures(snap: Snapshot, device: int) -> dict[str, Any]:
    figures: dict[str, Any] = replay(snap, device=device).as_dict()
    return figures


def first_difference(a: Any, b: Any, path: str = "") -> str | None:
    """Where `a` and `b` first differ (a short path and both values), or None when they are equal."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b), key=str):
            if k not in a or k not in b:
                return f"{path}/{k}: only in {'compiled' if k in a else 'pure'}"
            found = first_difference(a[k], b[k], f"{path}/{k}")
            if found:
                return found
        return None
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        if len(a) != len(b):
            return f"{path}: lengths {len(a)} and {len(b)}"
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            found = first_difference(x, y, f"{path}[{i}]")
            if found:
                return found
        return None
    both_nan = isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b)
    if a != b and not both_nan:
        return f"{path}: {str(a)[:200]} != {str(b)[:200]}"
    return None
