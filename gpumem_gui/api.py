"""The public Python API: a snapshot file's report, explanation, diff, replay, moments and sites, as the CLI gives them.

    import gpumem_gui.api as gm

    snap = gm.open("memory_snapshot.pickle")
    found = snap.explain()                 # why memory ran out (or what holds the peak), remedies replayed
    found.to_dict()["remedies"]            # exactly what `gpumem-gui explain --json` prints
    snap.at(421)                           # in Jupyter: the map right after trace event 421
    snap.sites()                           # in Jupyter: allocated memory over the trace by site
    gm.ranks("snapshots/").to_dict()       # `gpumem-gui ranks --json`

Each result's `to_dict()` is the document the matching command prints with `--json` (the same builder makes both,
with its `schema_version`; gpumem_gui/schemas holds the JSON Schemas). Bad input raises SnapshotError (a file that
is not a snapshot, a device it lacks), IndexError (an event outside the trace) or ValueError (a setting PyTorch would
refuse, a trace to replay that is missing), each with a one-line message. Everything not in `__all__` is private.
"""

from __future__ import annotations

import html
import os
import sys
import tempfile
from collections.abc import Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gpumem_gui.core.snapshot.errors import SnapshotError
from gpumem_gui.json_documents import (
    diff_document,
    explain_document,
    ranks_document,
    replay_document,
    report_document,
)

if TYPE_CHECKING:
    from gpumem_gui.core.allocator.remedies import Explanation as _CoreExplanation
    from gpumem_gui.core.allocator.replay import ReplayResult
    from gpumem_gui.core.analysis.breakdown import SiteBytes
    from gpumem_gui.core.analysis.diagnosis import Remedy
    from gpumem_gui.core.analysis.diff import Diff as _CoreDiff
    from gpumem_gui.core.analysis.ranks import RanksTable
    from gpumem_gui.core.analysis.report import DeviceReport
    from gpumem_gui.core.analysis.timetravel import DeviceTimeline
    from gpumem_gui.core.snapshot.model import Snapshot as _CoreSnapshot

__all__ = [
    "Diff",
    "Explanation",
    "Moment",
    "Ranks",
    "Replay",
    "Report",
    "Sites",
    "Snapshot",
    "SnapshotError",
    "open",
    "ranks",
]

MAP_SIZE = (1100, 520)  # pixels of the pictures a notebook shows: wide enough for a map's rows, short enough to scroll
SITES_SIZE = (1100, 420)
WINDOW_SIZE = (1400, 900)


def open(path: str | os.PathLike[str]) -> Snapshot:  # the API's verb, as builtins.open's
    """Read a snapshot file: a pickle from torch.cuda.memory._dump_snapshot, or its JSON, gzip'd or not.

    SnapshotError, with one line, for a file that is not a snapshot."""
    from gpumem_gui.core.snapshot.loader import load_snapshot  # noqa: PLC0415 (numpy loads on first use, not import)

    name = os.fspath(path)
    return Snapshot(load_snapshot(name), name)


def ranks(
    folder: str | os.PathLike[str], scheduler: Executor | str | Any | None = None, *, workers: int | None = None
) -> Ranks:
    """A folder of per-rank snapshot files summarised side by side, as `gpumem-gui ranks DIR --json`.

    `scheduler`: None reads the files in worker processes of their own (`workers` of them, default: the cores,
    fewer when memory is short), as the CLI does; a Dask scheduler's address ("tcp://host:8786") or a
    `distributed.Client` reads each file as a task on that cluster's workers, where the files are (`pip install
    'gpumem-gui[cluster]'`); a concurrent.futures Executor maps the reading of each file over its workers.
    Summaries of files read before come from the user's cache folder."""
    from gpumem_gui.core.analysis.rank_summary import file_summary  # noqa: PLC0415
    from gpumem_gui.core.analysis.ranks import ranks_table  # noqa: PLC0415
    from gpumem_gui.sources.rank_cluster import ClusterReader  # noqa: PLC0415
    from gpumem_gui.sources.rank_folder import _summarise, find_snapshot_files, summarise_folder  # noqa: PLC0415

    name = os.fspath(folder)
    if scheduler is None:
        return Ranks(summarise_folder(name, workers=workers))
    if isinstance(scheduler, Executor):
        relative = find_snapshot_files(name)
        found = list(scheduler.map(_summarise, [os.path.join(name, r) for r in relative], relative))
        return Ranks(
            ranks_table(
                [file_summary(f) for f in found if not isinstance(f, str)], [f for f in found if isinstance(f, str)]
            )
        )
    cluster = ClusterReader.connect(scheduler) if isinstance(scheduler, str) else ClusterReader(scheduler)
    try:
        return Ranks(summarise_folder(name, cluster=cluster))
    finally:
        cluster.close()


def _preformatted(text: str) -> str:
    """A notebook's rendering of the command line's text: the same lines, in a fixed-width block."""
    return f"<pre>{html.escape(text)}</pre>"


class Snapshot:
    """One snapshot file, read once; each question is answered from it (make one with `open(path)`)."""

    def __init__(self, snapshot: _CoreSnapshot, path: str) -> None:
        self.path = path
        self._snapshot = snapshot
        self._timelines: dict[int, DeviceTimeline] = {}
        self._parallel: bool | None = None  # explain's replays: None forks for long traces (False from threads)

    def __repr__(self) -> str:
        return f"<gpumem_gui.api.Snapshot {self.path!r}, devices {self.devices}>"

    @property
    def devices(self) -> list[int]:
        """The CUDA devices with segments or a trace."""
        return self._snapshot.devices()

    @property
    def default_device(self) -> int:
        """The device each question takes when none is given: the one with an OOM, else the most reserved."""
        return self._snapshot.default_device()

    def report(self, device: int | None = None, at: int | None = None) -> Report:
        """Each device's figures (or `device`'s), at the snapshot or right after trace event `at`: `report --json`."""
        from gpumem_gui.core.analysis.report import build_report  # noqa: PLC0415

        self._require(device)
        return Report(self._snapshot.source, build_report(self._snapshot, device=device, at=at), self._snapshot)

    def explain(
        self, at: int | None = None, device: int | None = None, *, capacity: int | str | None = None
    ) -> Explanation:
        """Why memory ran out (the first OOM, else the peak, else the event `at`), what holds it, and the remedies
        verified by replaying the trace under each: `explain --json`. `capacity` ("1GiB" or bytes): what the
        process could get, for an OOM a memory limit refused (`explain --capacity`)."""
        from gpumem_gui.core.allocator.remedies import explain  # noqa: PLC0415
        from gpumem_gui.core.snapshot.units import parse_bytes  # noqa: PLC0415

        self._require(device)
        size = parse_bytes(capacity) if isinstance(capacity, str) else capacity
        return Explanation(explain(self._snapshot, device=device, at=at, parallel=self._parallel, capacity=size))

    def diff(
        self,
        other: Snapshot | None = None,
        *,
        at: int | None = None,
        other_at: int | None = None,
        device: int | None = None,
        device_a: int | None = None,
        device_b: int | None = None,
    ) -> Diff:
        """This snapshot (A, right after event `at`) against `other` (B, default: this one again, at `other_at`),
        block by block; the deltas are B minus A: `diff A B --json`."""
        from gpumem_gui.core.analysis.diff import diff_device, diff_states  # noqa: PLC0415

        b = self if other is None else other
        for side, own in ((self, device_a), (b, device_b)):
            side._require(device if own is None else own)
        dev_a, dev_b = diff_device(self._snapshot, b._snapshot, device, device_a=device_a, device_b=device_b)
        found = diff_states(self._snapshot, dev_a, at, b._snapshot, dev_b, other_at)
        return Diff(found, dev_a, dev_b, device is None and device_a is None and device_b is None)

    def replay(
        self,
        settings: str | Sequence[str] = (),
        *,
        capacity: int | str | None = None,
        device: int | None = None,
        hints: bool = True,
    ) -> Replay:
        """The recorded trace replayed through the allocator simulator with `settings` (PYTORCH_CUDA_ALLOC_CONF
        items over the recorded ones, e.g. "expandable_segments:True"), on a device of `capacity` bytes (or "80GiB";
        default: what an OOM saw): `replay --set ... --json`."""
        from gpumem_gui.core.allocator.replay import replay  # noqa: PLC0415
        from gpumem_gui.core.snapshot.units import parse_bytes  # noqa: PLC0415

        overrides = [settings] if isinstance(settings, str) else list(settings)
        size = parse_bytes(capacity) if isinstance(capacity, str) else capacity
        self._require(device)
        return Replay(replay(self._snapshot, device=device, overrides=overrides, capacity=size, hints=hints))

    def at(self, event: int, device: int | None = None) -> Moment:
        """The allocator's state right after trace event `event` (0-based) of `device`; a notebook draws its map."""
        device = self._device(device)
        self._timeline(device).state_at(event)  # IndexError now, with its message, for an event outside the trace
        return Moment(self, device, event)

    def sites(self, at: int | None = None, device: int | None = None) -> Sites:
        """The allocated bytes by site (the user's innermost line and the library line below it), right after event
        `at` (default: at the snapshot); a notebook draws the site timeline with the moment marked."""
        from gpumem_gui.core.analysis.breakdown import breakdown_at  # noqa: PLC0415

        device = self._device(device)
        timeline = self._timeline(device)
        event = timeline.n_events - 1 if at is None else at
        found = breakdown_at(self._snapshot, timeline, event)
        return Sites(self.path, device, event, found.allocated_bytes, found.by_site)

    def _repr_png_(self) -> bytes:
        return _png(self.path, view="window", size=WINDOW_SIZE)

    def _require(self, device: int | None) -> None:
        self._snapshot.require_device(device)  # the CLI's own check and its words

    def _device(self, device: int | None) -> int:
        self._require(device)
        return self.default_device if device is None else device

    def _timeline(self, device: int) -> DeviceTimeline:
        if device not in self._timelines:
            from gpumem_gui.core.analysis.timetravel import build_timeline  # noqa: PLC0415
            from gpumem_gui.core.rules.allocator_rules import AllocatorConfig  # noqa: PLC0415

            config = AllocatorConfig.from_snapshot_settings(self._snapshot.allocator_settings)
            self._timelines[device] = build_timeline(self._snapshot, device, config)
        return self._timelines[device]


@dataclass(frozen=True)
class Report:
    """Per-device figures: reserved, allocated, free, fragmentation, peaks, OOMs (`report --json`)."""

    file: str
    devices: list[DeviceReport]
    _snapshot: _CoreSnapshot = field(repr=False)

    def to_dict(self) -> dict[str, Any]:
        return report_document(self._snapshot, self.devices)

    def __str__(self) -> str:
        """What `gpumem-gui report FILE` prints."""
        from gpumem_gui.core.analysis.report import report_text  # noqa: PLC0415

        return report_text(self._snapshot, self.devices)

    def _repr_html_(self) -> str:
        return _preformatted(str(self))


@dataclass(frozen=True)
class Explanation:
    """The moment's diagnosis (`findings` in sentences) and the `remedies` replayed (`explain --json`)."""

    _found: _CoreExplanation = field(repr=False)

    @property
    def file(self) -> str:
        return self._found.diagnosis.file

    @property
    def device(self) -> int:
        return self._found.diagnosis.device

    @property
    def event(self) -> int | None:
        """The trace event explained (None: the final state of a file without a trace)."""
        return self._found.diagnosis.moment.event

    @property
    def findings(self) -> list[str]:
        return self._found.findings

    @property
    def remedies(self) -> list[Remedy]:
        return self._found.remedies

    def to_dict(self) -> dict[str, Any]:
        return explain_document(self._found)

    def __str__(self) -> str:
        """What `gpumem-gui explain FILE` prints."""
        from gpumem_gui.core.analysis.explain_output import explanation_text  # noqa: PLC0415

        found = self._found
        return explanation_text(found.diagnosis, found.remedies, found.remedy_sentences)

    def _repr_html_(self) -> str:
        return _preformatted(str(self))


@dataclass(frozen=True)
class Diff:
    """Two moments' figures, the allocated blocks added, removed and kept, and the sites that changed (`diff`)."""

    diff: _CoreDiff = field(repr=False)
    device_a: int
    device_b: int
    each_file_default: bool  # no device was asked for: each side is its file's default device

    def to_dict(self) -> dict[str, Any]:
        return diff_document(self.diff, self.device_a, self.device_b, self.each_file_default)


@dataclass(frozen=True)
class Replay:
    """The recorded and the replayed run's figures under the settings (`replay --json`)."""

    result: ReplayResult = field(repr=False)

    @property
    def settings(self) -> str:
        return self.result.settings

    def to_dict(self) -> dict[str, Any]:
        return replay_document(self.result)


@dataclass(frozen=True)
class Ranks:
    """Each rank's peaks and OOMs, the ranks that ran out of memory and the outliers (`ranks --json`)."""

    table: RanksTable = field(repr=False)

    @property
    def errors(self) -> list[str]:
        """One line per file that could not be read (the JSON has no place for them)."""
        return self.table.errors

    def to_dict(self) -> dict[str, Any]:
        return ranks_document(self.table)


@dataclass(frozen=True)
class Moment:
    """The allocator's state right after one trace event of one device; a notebook draws its map."""

    snapshot: Snapshot = field(repr=False)
    device: int
    event: int

    def report(self) -> Report:
        return self.snapshot.report(device=self.device, at=self.event)

    def sites(self) -> Sites:
        return self.snapshot.sites(at=self.event, device=self.device)

    def explain(self) -> Explanation:
        return self.snapshot.explain(at=self.event, device=self.device)

    def to_dict(self) -> dict[str, Any]:
        """`report --device D --at I --json`."""
        return self.report().to_dict()

    def _repr_png_(self) -> bytes:
        return _png(self.snapshot.path, view="map", at=self.event, device=self.device, size=MAP_SIZE)


@dataclass(frozen=True)
class Sites:
    """The allocated bytes of one moment by site, most first; a notebook draws the site timeline."""

    file: str
    device: int
    event: int  # -1 before the first event (and for a file without a trace); n_events - 1 at the snapshot
    allocated_bytes: int
    by_site: list[SiteBytes]

    def to_dict(self) -> dict[str, Any]:
        """The entries as `explain --json`'s by_site lists them."""
        return {
            "file": self.file,
            "device": self.device,
            "event": self.event,
            "allocated_bytes": self.allocated_bytes,
            "by_site": [{"site": s.site, "bytes": s.bytes, "blocks": s.blocks, "frames": list(s.frames)} for s in
                        self.by_site],
        }  # fmt: skip

    def _repr_png_(self) -> bytes:
        at = self.event if self.event >= 0 else None  # a file without a trace: its live blocks
        return _png(self.file, view="sites", at=at, device=self.device, size=SITES_SIZE)


def _png(path: str, **how: Any) -> bytes:
    """`render`'s picture as PNG bytes. Without a QApplication yet, Qt starts offscreen: a notebook's kernel needs
    no display, and no window flashes on the user's screen; no event loop is left running."""
    widgets = sys.modules.get("PySide6.QtWidgets")
    starts_qt = widgets is None or widgets.QApplication.instance() is None
    platform = os.environ.get("QT_QPA_PLATFORM")
    if starts_qt:
        os.environ["QT_QPA_PLATFORM"] = "offscreen"  # read once, when the QApplication is made
    try:
        from gpumem_gui.render import render  # noqa: PLC0415 (Qt loads only for a picture)

        with tempfile.TemporaryDirectory(prefix="gpumem-gui-") as folder:
            out = Path(folder) / "view.png"
            render(path, str(out), **how)
            return out.read_bytes()
    finally:
        if starts_qt:  # the user's own setting back, for the Qt programs the kernel starts later
            if platform is None:
                os.environ.pop("QT_QPA_PLATFORM", None)
            else:
                os.environ["QT_QPA_PLATFORM"] = platform
