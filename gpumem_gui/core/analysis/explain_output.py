"""The `explain` command's output: sentences about the replayed remedies, the JSON of issue 18's schema, and text
a user reads top to bottom."""

from __future__ import annotations

import dataclasses
from typing import Any

from gpumem_gui.core.analysis.categories import CATEGORIES
from gpumem_gui.core.analysis.diagnosis import Diagnosis, OomAnalysis, Remedy
from gpumem_gui.core.snapshot.units import format_bytes

TEXT_SITES = 8  # sites listed in the text (the JSON lists every one)


REPLAY_NOTE = (
    "Each remedy is a replay of the recorded allocations and frees through the allocator simulator under other"
    " settings: the program is assumed to make the same requests in the same order."
)


def remedy_findings(diagnosis: Diagnosis, remedies: list[Remedy], notes: list[str], baseline: str = "") -> list[str]:
    """Sentences about the replayed remedies: how the recorded run replays (`baseline`), each remedy's verdict, and
    the candidates that could not be replayed (`notes`)."""
    peak = diagnosis.report.timeline.series.peak("reserved")
    out = [REPLAY_NOTE] if remedies else []
    out += [baseline] if baseline else []
    had_oom = bool(diagnosis.timeline.ooms)
    for r in remedies:
        after = f"peak reserved {format_bytes(r.peak_reserved_bytes)}, recorded {format_bytes(peak)}"
        if not r.judged:
            out.append(
                f"With {r.settings} {r.unjudged}; the replay ({after}) starts from the segments the recorded settings"
                " made."
            )
        elif had_oom and r.fits:
            out.append(f"With {r.settings} the OOM goes away ({after}).")
        elif had_oom:
            out.append(f"With {r.settings} the replay still runs out of memory ({r.oom_events} OOM; {after}).")
        elif r.fits:
            out.append(f"With {r.settings}: {after}.")
        else:
            out.append(f"With {r.settings} the replay runs out of memory ({r.oom_events} OOM; {after}).")
    return out + notes


def explanation_json(diagnosis: Diagnosis, remedies: list[Remedy], findings: list[str]) -> dict[str, Any]:
    figures = diagnosis.report.as_dict()  # those of `report --at` for the moment's event
    oom = diagnosis.oom
    b = diagnosis.breakdown
    return {
        "file": diagnosis.file,
        "device": diagnosis.device,
        "moment": {"kind": diagnosis.moment.kind, "event": diagnosis.moment.event},
        "request_bytes": oom.request_bytes if oom else None,
        "device_free_bytes": oom.device_free_bytes if oom else None,
        "allocated_bytes": figures["allocated_bytes"],
        "reserved_bytes": figures["reserved_bytes"],
        "free_bytes": figures["free_bytes"],
        "largest_free_block_bytes": figures["largest_free_block_bytes"],
        "by_site": [
            {"site": s.site, "bytes": s.bytes, "blocks": s.blocks, "frames": list(s.frames)}
            for s in sorted(b.by_site, key=lambda s: -s.bytes)
        ],
        "by_category": {key: int(b.by_category.get(key, 0)) for key in CATEGORIES},
        "oom": oom_json(oom) if oom else None,
        "category_source": b.category_source,
        "category_rules": [
            {"category": r.category, "rule": r.rule, "bytes": r.bytes, "blocks": r.blocks} for r in b.by_rule
        ],
        "findings": list(findings),
        "remedies": [
            {
                "settings": r.settings,
                "fits": r.fits,
                "oom_events": r.oom_events,
                "peak_reserved_bytes": r.peak_reserved_bytes,
                "judged": r.judged,
                "reason": r.unjudged,
            }
            for r in remedies
        ],
    }


def oom_json(o: OomAnalysis) -> dict[str, Any]:
    """The OOM's figures under their field names; under expandable segments, where the request would have grown
    and the pages that served the largest request that fits."""
    out: dict[str, Any] = {
        f.name: getattr(o, f.name) for f in dataclasses.fields(o) if f.name not in {"splitters", "expandable"}
    }
    out["splitters"] = [dataclasses.asdict(s) for s in o.splitters]
    room = o.expandable
    out["expandable"] = None
    if room is not None:
        out["expandable"] = {
            "page_bytes": room.page_bytes,
            "pages_free": room.pages_free,
            "request": dataclasses.asdict(room.request),
            "fits_up_to": dataclasses.asdict(room.limit),
        }
    return out


def explanation_text(diagnosis: Diagnosis, remedies: list[Remedy], remedy_sentences: list[str]) -> str:
    """What happened, what holds the memory, then what to try: the same sentences as the JSON's findings."""
    m = diagnosis.report.metrics
    lines = [f"{diagnosis.file}, device {diagnosis.device}", "", "What happened", *diagnosis.findings]
    lines += [
        "",
        f"At this moment: allocated {format_bytes(m.allocated_bytes)}, reserved {format_bytes(m.reserved_bytes)},"
        f" free in the cache {format_bytes(m.free_bytes)},"
        f" largest free block {format_bytes(m.largest_free_block_bytes)}.",
    ]
    sites = sorted(diagnosis.breakdown.by_site, key=lambda s: -s.bytes)
    if sites:
        lines.append(f"Allocated bytes by site (the {min(len(sites), TEXT_SITES)} largest of {len(sites)}):")
        lines += [f"  {format_bytes(s.bytes):>10}  {s.blocks:>6} blocks  {s.site}" for s in sites[:TEXT_SITES]]
    if remedy_sentences:
        lines += ["", "What to try", *remedy_sentences]
    if remedies:
        lines.append(f"  {'fits':<5} {'OOMs':>5} {'peak reserved':>14}  settings")
        for r in remedies:
            verdict = "n/a" if not r.judged else "yes" if r.fits else "no"
            lines.append(f"  {verdict:<5} {r.oom_events:>5} {format_bytes(r.peak_reserved_bytes):>14}  {r.settings}")
    return "\n".join(lines)
