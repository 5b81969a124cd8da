"""The `explain` command's output: sentences about the replayed remedies, the JSON of issue 18's schema, and text
a user reads top to bottom."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from gpumem_gui.core.analysis.categories import CATEGORIES
from gpumem_gui.core.analysis.diagnosis import Diagnosis, OomAnalysis, Remedy
from gpumem_gui.core.snapshot.sentences import QT_TRANSLATE_NOOP, Sentence, joined, say
from gpumem_gui.core.snapshot.units import format_bytes

TEXT_SITES = 8  # sites listed in the text (the JSON lists every one)


REPLAY_NOTE = QT_TRANSLATE_NOOP(
    "Explain",
    "Each remedy is a replay of the recorded allocations and frees through the allocator simulator: a setting"
    " replays them as recorded, assuming the program makes the same requests in the same order; a change to the"
    " program replays them changed as that change would change them (what it assumes is in its row).",
)


MODEL_NOTE = QT_TRANSLATE_NOOP(
    "Explain",
    "Each change to the program below is replayed as a changed trace: the recorded requests with those the change"
    " acts on dropped, shrunk or freed for a while, every other request as recorded, up to the request explained"
    " (the whole trace at a peak). It is a model of the change, not the changed program; what each one assumes is"
    " said with it.",
)


SEGMENTS_LISTED = 4  # an assumed pool's segment sizes listed up to this many; more are said as their total


def pools_note(pools: Sequence[Any]) -> Sentence | None:
    """What the replays assumed where the trace names no pool: the private pools the recorded settings' replay
    inferred (core/allocator/inferred_pools.py's InferredPool, each with its `segments`' sizes) and carried into every
    remedy's replay, said because the trace does not record them. None where none was inferred."""
    if not pools:
        return None
    sizes = [int(s.size) for p in pools for s in p.segments]
    listed: str = (
        joined([format_bytes(s) for s in sizes], ", ")
        if len(sizes) <= SEGMENTS_LISTED
        else say(QT_TRANSLATE_NOOP("Explain", "{total} in all"), total=format_bytes(sum(sizes)))
    )
    fields = {"n": f"{len(sizes):,}", "sizes": listed, "pools": f"{len(pools):,}"}
    if len(pools) == 1:
        template = QT_TRANSLATE_NOOP(
            "Explain",
            "The replays here assumed a private pool the trace does not name (a MemPool or CUDA graph freed before"
            " the snapshot), inferred from {n} {n:segment|segments} ({sizes}) the recorded allocator made although"
            " the default pool had room: each remedy's replay keeps that pool's memory apart, as the recorded run"
            " did.",
        )
    else:
        template = QT_TRANSLATE_NOOP(
            "Explain",
            "The replays here assumed {pools} private pools the trace does not name (MemPools or CUDA graphs freed"
            " before the snapshot), inferred from {n} {n:segment|segments} ({sizes}) the recorded allocator made"
            " although the default pool had room: each remedy's replay keeps those pools' memory apart, as the"
            " recorded run did.",
        )
    return say(template, **fields)


def remedy_findings(
    diagnosis: Diagnosis,
    remedies: list[Remedy],
    notes: list[str],
    baseline: str = "",
    pools: Sequence[Any] = (),
) -> list[str]:
    """Sentences about the replayed remedies: how the recorded run replays (`baseline`) and the private pools its
    replay assumed (`pools`, pools_note), each setting's verdict, each change to the program's (what it frees and
    whether the request then fits), and the candidates that could not be replayed (`notes`)."""
    peak = diagnosis.report.trace.peak_reserved
    settings = [r for r in remedies if r.kind == "setting"]
    programs = [r for r in remedies if r.kind != "setting"]
    out: list[str] = [REPLAY_NOTE] if settings else []
    out += [baseline] if baseline else []
    assumed = pools_note(pools)
    out += [assumed] if assumed is not None else []
    had_oom = bool(diagnosis.timeline.ooms)
    for r in settings:
        after = say(
            QT_TRANSLATE_NOOP("Explain", "peak reserved {peak}, recorded {recorded}"),
            peak=format_bytes(r.peak_reserved_bytes),
            recorded=format_bytes(peak),
        )
        fields = {"settings": r.settings, "after": after, "n": str(r.oom_events)}
        if not r.judged:
            fields["reason"] = r.unjudged
            verdict = QT_TRANSLATE_NOOP(
                "Explain",
                "With {settings} {reason}; the replay ({after}) starts from the segments the recorded settings made.",
            )
        elif had_oom and r.fits:
            verdict = QT_TRANSLATE_NOOP("Explain", "With {settings} the OOM goes away ({after}).")
        elif had_oom:
            verdict = QT_TRANSLATE_NOOP(
                "Explain", "With {settings} the replay still runs out of memory ({n} OOM; {after})."
            )
        elif r.fits:
            verdict = QT_TRANSLATE_NOOP("Explain", "With {settings}: {after}.")
        else:
            verdict = QT_TRANSLATE_NOOP("Explain", "With {settings} the replay runs out of memory ({n} OOM; {after}).")
        out.append(say(verdict, **fields))
    if programs:
        out.append(MODEL_NOTE)
    out += [_program_sentence(r, had_oom) for r in programs]
    return out + notes


def _program_sentence(r: Remedy, had_oom: bool) -> str:
    """A change to the program: what it frees at the moment, what its changed trace's replay gave, what it assumes."""
    first = r.what.split(" ", 1)[0]
    head = r.what
    if first.isalpha() and first.islower():  # a change said as a clause ("checkpoint ...") begins the sentence
        head = Sentence("", "{what:capital}", {"what": r.what})
    fields = {
        "frees": format_bytes(r.frees_bytes or 0),
        "peak": format_bytes(r.peak_reserved_bytes),
        "reason": r.unjudged,
        "n": str(r.oom_events),
    }
    if not r.judged:
        verdict = QT_TRANSLATE_NOOP("Explain", "frees {frees} at this moment; the replay cannot judge it ({reason})")
    elif had_oom and r.fits:
        verdict = QT_TRANSLATE_NOOP(
            "Explain",
            "frees {frees} at this moment, and the request then fits: the changed trace replays to it with no OOM"
            " (peak reserved {peak})",
        )
    elif had_oom:
        verdict = QT_TRANSLATE_NOOP(
            "Explain",
            "frees {frees} at this moment, but the request still does not fit: the changed trace's replay runs out of"
            " memory (peak reserved {peak})",
        )
    else:
        room = r.headroom_bytes or 0
        if room > 0:
            fields["room"] = format_bytes(room)
            verdict = QT_TRANSLATE_NOOP(
                "Explain",
                "frees {frees} at this moment; replayed, peak reserved {peak}: {room} of headroom against the"
                " recorded settings' replay",
            )
        else:
            verdict = QT_TRANSLATE_NOOP(
                "Explain",
                "frees {frees} at this moment; replayed, peak reserved {peak}: no headroom against the recorded"
                " settings' replay",
            )
    said = say(verdict, **fields)
    if r.judged and not had_oom and r.oom_events:
        said = say(QT_TRANSLATE_NOOP("Explain", "{verdict} ({n} OOM in the replay)"), verdict=said, n=r.oom_events)
    return say(
        QT_TRANSLATE_NOOP("Explain", "{change}: {verdict}. It assumes {assumes}."),
        change=head,
        verdict=said,
        assumes=r.assumes,
    )


def explanation_json(
    diagnosis: Diagnosis, remedies: list[Remedy], findings: list[str], pools: Sequence[Any] = ()
) -> dict[str, Any]:
    """`pools`: the private pools the trace does not name that the replays assumed (InferredPool, as replay --json
    writes them)."""
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
                "kind": r.kind,
                "change": r.what,
                "settings": r.settings,
                "frees_bytes": r.frees_bytes,
                "assumes": r.assumes,
                "fits": r.fits,
                "oom_events": r.oom_events,
                "peak_reserved_bytes": r.peak_reserved_bytes,
                "headroom_bytes": r.headroom_bytes,
                "judged": r.judged,
                "reason": r.unjudged,
            }
            for r in remedies
        ],
        "inferred_private_pools": [p.as_dict() for p in pools],
    }


def oom_json(o: OomAnalysis) -> dict[str, Any]:
    """The OOM's figures under their field names; under expandable segments, where the request would have grown
    and the pages that served the largest request that fits."""
    # private_pool and process_limit stay out of schema version 2 (a new key raises the version): the sentences say
    # them
    left_out = {"splitters", "expandable", "private_pool", "process_limit"}
    out: dict[str, Any] = {f.name: getattr(o, f.name) for f in dataclasses.fields(o) if f.name not in left_out}
    out["splitters"] = [dataclasses.asdict(s) for s in o.splitters]
    out["user_frames"] = list(o.user_frames)  # what json.loads gives back: the API's dict equals the CLI's
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
    settings = [r for r in remedies if r.kind == "setting"]
    if settings:
        lines.append(f"  {'fits':<5} {'OOMs':>5} {'peak reserved':>14}  settings")
        for r in settings:
            lines.append(
                f"  {_verdict(r):<5} {r.oom_events:>5} {format_bytes(r.peak_reserved_bytes):>14}  {r.settings}"
            )
    programs = [r for r in remedies if r.kind != "setting"]
    if programs:
        lines.append(f"  {'fits':<5} {'OOMs':>5} {'frees':>10} {'peak reserved':>14}  change to the program")
        for r in programs:
            frees = format_bytes(r.frees_bytes or 0)
            peak = format_bytes(r.peak_reserved_bytes)
            lines.append(f"  {_verdict(r):<5} {r.oom_events:>5} {frees:>10} {peak:>14}  {r.what}")
    return "\n".join(lines)


def _verdict(r: Remedy) -> str:
    return "n/a" if not r.judged else "yes" if r.fits else "no"
