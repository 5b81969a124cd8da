"""What `gpumem-gui mcp` answers, without the SDK: each tool's JSON, its lists bounded, from files under the roots only.

Files are read in a worker process (file_loader.load_in_worker: a file cut short under its map kills the worker, not
the server, which must not fork from the SDK's threads as the CLI's guard does) and the last few are kept, keyed by
their path, size and time of change, so an agent's follow-up questions on one file do not read it again. The
remedies replay in this process, one after another (no fork from a thread either).
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from gpumem_gui import api
from gpumem_gui.core.snapshot.errors import SnapshotError
from gpumem_gui.core.snapshot.sentences import QT_TRANSLATE_NOOP, as_is, say
from gpumem_gui.json_documents import versioned

KEPT_FILES = 4  # snapshots kept loaded (a 2 GB file's columns are a few hundred MB)
TOP = 10  # list entries a tool returns unless asked for more
MAX_TOP = 500  # the most it returns, however many are asked for: an agent's context is not a terminal
FRAMES = 12  # frames of each site's stack


class OutsideRoots(PermissionError):
    """A path that is not under any folder the user allowed."""


class Tools:
    """The server's tools over the files under `roots` (folders; symbolic links resolved before any check)."""

    def __init__(self, roots: Sequence[str]) -> None:
        self.roots = [os.path.realpath(r) for r in roots]
        self._kept: OrderedDict[tuple[str, int, int], api.Snapshot] = OrderedDict()
        self._lock = threading.RLock()  # the SDK runs each call in a thread of its own: one reads or replays at a time

    def allowed(self, path: str) -> str:
        """`path` resolved, if it lies under a root; else OutsideRoots with one line."""
        real = os.path.realpath(os.path.expanduser(path))
        if not any(real == root or real.startswith(root.rstrip(os.sep) + os.sep) for root in self.roots):
            raise OutsideRoots(f"{path} is outside the folders this server may read ({', '.join(self.roots)})")
        return real

    def open(self, path: str) -> api.Snapshot:
        from gpumem_gui.sources.file_loader import load_in_worker  # noqa: PLC0415

        real = self.allowed(path)
        try:
            st = os.stat(real)
        except OSError as e:
            reason = as_is(e.strerror)  # the system's words: said as they are
            raise SnapshotError(
                say(QT_TRANSLATE_NOOP("SnapshotError", "cannot read it: {reason}"), reason=reason), path
            ) from None
        key = (real, st.st_size, st.st_mtime_ns)
        with self._lock:
            if key in self._kept:
                self._kept.move_to_end(key)
                return self._kept[key]
        snapshot, timelines = load_in_worker(real)
        found = api.Snapshot(snapshot, real)
        found._timelines.update(timelines)
        found._parallel = False  # no fork from the SDK's worker thread
        with self._lock:
            self._kept[key] = found
            while len(self._kept) > KEPT_FILES:
                self._kept.popitem(last=False)
        return found

    def report(self, path: str, device: int | None = None, at: int | None = None) -> dict[str, Any]:
        with self._lock:
            return self.open(path).report(device=device, at=at).to_dict()

    def explain(self, path: str, at: int | None = None, device: int | None = None, top: int = TOP) -> dict[str, Any]:
        snapshot = self.open(path)
        with self._lock:
            out = snapshot.explain(at=at, device=device).to_dict()
        return _bounded(out, {"by_site": top}, frames=FRAMES)

    def diff(
        self,
        path_a: str,
        *,
        path_b: str | None = None,
        at_a: int | None = None,
        at_b: int | None = None,
        device: int | None = None,
        device_a: int | None = None,
        device_b: int | None = None,
        top: int = TOP,
    ) -> dict[str, Any]:
        a = self.open(path_a)
        b = a if path_b is None else self.open(path_b)
        with self._lock:
            found = a.diff(b, at=at_a, other_at=at_b, device=device, device_a=device_a, device_b=device_b)
        return _bounded(found.to_dict(), {"by_site": top})

    def ranks(self, folder: str, top: int = 64) -> dict[str, Any]:
        real = self.allowed(folder)
        with self._lock:
            found = api.ranks(real)
        return _bounded(found.to_dict(), {"ranks": top, "outliers": top})

    def replay(
        self,
        path: str,
        settings: Sequence[str] = (),
        capacity: str | None = None,
        device: int | None = None,
        hints: bool = True,
    ) -> dict[str, Any]:
        snapshot = self.open(path)
        with self._lock:
            return snapshot.replay(list(settings), capacity=capacity, device=device, hints=hints).to_dict()

    def events(
        self,
        path: str,
        *,
        device: int | None = None,
        kind: str = "all",
        min_size: int = 0,
        stream: int | None = None,
        offset: int = 0,
        limit: int = 50,
    ) -> dict[str, Any]:
        from gpumem_gui.core.snapshot.stacks import stack_site_label  # noqa: PLC0415
        from gpumem_gui.document.event_list import KINDS, EventFilter, EventTable  # noqa: PLC0415
        from gpumem_gui.document.events import action_label  # noqa: PLC0415

        if kind not in KINDS:
            raise ValueError(f"no kind {kind!r} (kinds: {', '.join(KINDS)})")
        snapshot = self.open(path)
        device = snapshot._device(device)
        core = snapshot._snapshot
        table = EventTable(core, device)
        rows = table.filter(EventFilter(kind, min_size, stream))
        offset = max(0, offset)
        shown = rows[offset : offset + _limit(limit)].tolist()
        trace = table.trace
        events = [
            {
                "index": i,
                "action": action_label(trace, i),
                "size_bytes": int(trace.size[i]),
                "address": int(trace.addr[i]),
                "stream": int(trace.stream[i]),
                "time_us": int(trace.time_us[i]) if trace.has_time else None,
                "site": stack_site_label(core.stacks.stack(int(trace.stack[i]))) or "",
            }
            for i in shown
        ]
        following = offset + len(shown)
        return versioned(
            "events",
            {
                "file": snapshot.path,
                "device": device,
                "n_events": len(trace),
                "filter": {"kind": kind, "min_size_bytes": min_size, "stream": stream},
                "matching": len(rows),
                "offset": offset,
                "events": events,
                "next_offset": following if following < len(rows) else None,
            },
        )

    def stack(
        self,
        path: str,
        *,
        event: int | None = None,
        address: int | None = None,
        at: int | None = None,
        device: int | None = None,
        limit: int = 40,
    ) -> dict[str, Any]:
        """An event's stack (`event`), or the stack of the block holding `address` right after event `at` (default:
        at the snapshot)."""
        from gpumem_gui.core.snapshot.model import STATE_LABELS  # noqa: PLC0415
        from gpumem_gui.core.snapshot.stacks import stack_site_label  # noqa: PLC0415

        if (event is None) == (address is None):
            raise ValueError("give an event or an address, not both and not neither")
        snapshot = self.open(path)
        device = snapshot._device(device)
        core = snapshot._snapshot
        block = None
        index = -1
        if event is not None:
            trace = core.trace(device)
            if not 0 <= event < len(trace):
                raise IndexError(f"event {event} is outside the trace (0..{len(trace) - 1})")
            index = int(trace.stack[event])
        elif address is not None:
            timeline = snapshot._timeline(device)
            state = timeline.state_at(timeline.n_events - 1 if at is None else at)
            blk = state.blocks
            inside = (blk.address <= address) & (address < blk.address + blk.size)
            rows = inside.nonzero()[0]
            if not len(rows):
                raise ValueError(f"no block holds address {address:#x} on device {device} at that moment")
            row = int(rows[0])
            index = int(blk.stack[row])
            block = {
                "address": int(blk.address[row]),
                "size_bytes": int(blk.size[row]),
                "state": {int(k): v for k, v in STATE_LABELS.items()}.get(int(blk.state[row]), "unknown"),
                "segment_address": int(state.segments.address[int(blk.segment[row])]),
            }
        frames = core.stacks.stack(index)
        return versioned(
            "stack",
            {
                "file": snapshot.path,
                "device": device,
                "event": event,
                "block": block,
                "site": stack_site_label(frames) or "",
                "frames_total": len(frames),
                "frames": [{"name": f.name, "filename": f.filename, "line": f.line} for f in frames[: _limit(limit)]],
            },
        )


def _limit(asked: int) -> int:
    return max(1, min(int(asked), MAX_TOP))


def _bounded(document: dict[str, Any], lists: dict[str, int], frames: int | None = None) -> dict[str, Any]:
    """`document` with each named list cut to its limit (and each entry's frames to `frames`); `truncated` says how
    many entries of each list were left out."""
    out = dict(document)
    left_out: dict[str, int] = {}
    for key, asked in lists.items():
        entries = out[key]
        keep = _limit(asked)
        if len(entries) > keep:
            left_out[key] = len(entries) - keep
            out[key] = entries[:keep]
    if frames is not None:
        out["by_site"] = [s | {"frames": s["frames"][:frames]} for s in out["by_site"]]
    if left_out:
        out["truncated"] = left_out
    return out
