"""The debugging challenge's words per language, from resources/challenges.toml: the OOM, each step's verdict, and each
fix named and graded (sizes and counts written as the language writes them, teach/demos/wording.py)."""

from __future__ import annotations

import functools
import re
import tomllib
from typing import Any

from gpumem_gui import assets
from gpumem_gui.core.snapshot.stacks import short_site
from gpumem_gui.core.snapshot.units import format_bytes
from gpumem_gui.teach.challenge import Challenge, Fix
from gpumem_gui.teach.demos.wording import Figure, fill
from gpumem_gui.teach.quiz import LANGUAGES

# the remedies engine's words for a program change (core/allocator/program_remedies.py, remedies.py) -> the kind of
# fix challenges.toml words, with the parts it fills in; a change none matches is shown in the engine's words
_CHANGES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("smaller_request", re.compile(r"make the failing request (?P<size>\S+ \S+) \(")),
    ("checkpoint", re.compile(r"checkpoint (?P<sites>.+?) \(torch\.utils\.checkpoint")),
    ("batch", re.compile(r"a batch \(or sequence\) (?P<fraction>\S+) as large")),
    ("eight_bit", re.compile(r"an 8-bit optimizer")),
    ("shard", re.compile(r"shard parameters, gradients and optimizer state over (?P<gpus>\d+) GPUs")),
    ("bf16", re.compile(r"keep the weights in bf16")),
    ("growth", re.compile(r"stop keeping references at (?P<site>\S+)")),
    ("empty_cache", re.compile(r"torch\.cuda\.empty_cache\(\) at this moment")),
    ("set_to_none", re.compile(r"optimizer\.zero_grad\(set_to_none=True\)")),
    ("before_recording", re.compile(r"free what was allocated before recording")),
    ("workspaces", re.compile(r"CUBLAS_WORKSPACE_CONFIG")),
)
_WITH = re.compile(r"^(?P<change>.*), with (?P<settings>\S+)$")  # a program change replayed with a setting
_SIZE = re.compile(r"\d[\d,.]* [KMGTP]?i?B")


@functools.cache
def _data() -> dict[str, Any]:
    data: dict[str, Any] = tomllib.loads(assets.CHALLENGES.read_text(encoding="utf-8"))
    return data


def _fill(table: str, key: str, lang: str, **values: object) -> str:
    return fill(_data()[table], key, lang, values)


def text(key: str, lang: str, **values: object) -> str:
    """An interface text of challenges.toml in `lang`: ints are counts, Figures sizes, anything else as it is."""
    return _fill("interface", key, lang, **values)


def size(n: int) -> Figure:
    return Figure(format_bytes(n))


def title(name: str, lang: str) -> str:
    return str(_data()["challenge"][name]["title"][lang])


def story(name: str, lang: str) -> str:
    return str(_data()["challenge"][name]["story"][lang])


def role_text(role: str, lang: str) -> str:
    return str(_data()["roles"][role][lang])


def oom_text(challenge: Challenge, lang: str) -> str:
    o = challenge.oom
    return text(
        "oom",
        lang,
        event=o.event,
        request=size(o.request_bytes),
        device_free=size(o.device_free_bytes),
        cache_free=size(o.pool_free_bytes),
        hole=size(o.largest_hole_bytes),
    )


def block_verdict(challenge: Challenge, address: int, lang: str) -> str:
    grade = challenge.grade_block(address)
    o = challenge.oom
    if not grade.live:
        return text("block_free", lang)
    if not grade.right:
        return text("block_wrong", lang, size=size(grade.size), request=size(o.request_bytes))
    if grade.segment_free_bytes >= o.request_bytes:  # its holes together would hold the request
        return text(
            "block_right_split",
            lang,
            size=size(grade.size),
            free=size(grade.segment_free_bytes),
            request=size(o.request_bytes),
        )
    return text(
        "block_right_pin" if grade.segment_live_blocks > 1 else "block_right_alone",
        lang,
        size=size(grade.size),
        count=grade.segment_live_blocks,
        segment=size(grade.segment_bytes),
        device_free=size(o.device_free_bytes),
        request=size(o.request_bytes),
    )


def site_verdict(challenge: Challenge, index: int, lang: str) -> str:
    """Right or not, and what the line picked is (its role)."""
    choice = challenge.sites[index]
    key = "site_right" if choice.role == "pins" else "site_wrong"
    return f"{text(key, lang, site=challenge.pin_site)} {role_text(choice.role, lang)}"


def fix_label(fix: Fix, lang: str) -> str:
    """The fix as the learner reads it: a setting by its PYTORCH_CUDA_ALLOC_CONF, a program change in `lang`."""
    if fix.kind != "program":
        return _fill("fixes", "setting", lang, settings=fix.settings)
    change, settings = fix.change, ""
    combined = _WITH.match(change)
    if combined:
        change, settings = combined["change"], combined["settings"]
    label = change
    for kind, pattern in _CHANGES:
        found = pattern.match(change)
        if found:
            parts = {k: _part(k, v, lang) for k, v in found.groupdict().items()}
            label = _fill("fixes", kind, lang, **parts)
            break
    return _fill("fixes", "with_setting", lang, fix=label, settings=settings) if settings else label


def _part(name: str, value: str, lang: str) -> object:
    if name == "size" and _SIZE.fullmatch(value):
        return Figure(value)
    if name == "gpus":
        return int(value)
    if name == "sites":  # "a.py:1:f, b.py:2:g and c.py:3:h": the list joined in the language
        *rest, last = value.split(" and ")
        return (rest[0] + " " + _data()["fixes"]["and"][lang] + " " + last) if rest else last
    return value


def fix_verdict(fix: Fix, lang: str) -> str:
    """ "OOM gone, peak X" or "still OOM at event N: why", from the fix's replay."""
    g = fix.grade
    if g.fits:
        return text("fix_fits", lang, peak=size(g.peak_reserved_bytes))
    if g.rerun_oom is not None:
        return text("fix_moves", lang, event=g.rerun_oom)
    if g.grows_bytes:
        return text("fix_grows", lang, growth=size(round(g.grows_bytes)))
    if g.first_oom is None or not g.request_bytes:
        return text("fix_fails_unknown", lang, count=g.oom_events)
    why = text(
        "why",
        lang,
        request=size(g.request_bytes),
        hole=size(g.largest_hole_bytes),
        device_free=size(g.device_free_bytes),
    )
    return text("fix_fails", lang, event=g.first_oom, why=why)


def answer_lines(challenge: Challenge, lang: str) -> list[str]:
    """Every fix with its replay's verdict, headed by how many replay without the OOM."""
    lines = [text("answers", lang, right=len(challenge.right_fixes), total=len(challenge.fixes))]
    for fix in challenge.fixes:
        g, label = fix.grade, fix_label(fix, lang)
        if g.fits:
            lines.append(text("answer_fits", lang, fix=label, peak=size(g.peak_reserved_bytes)))
        elif g.rerun_oom is not None:
            lines.append(text("answer_moves", lang, fix=label, event=g.rerun_oom))
        elif g.grows_bytes:
            lines.append(text("answer_grows", lang, fix=label, growth=size(round(g.grows_bytes))))
        else:
            event = g.first_oom if g.first_oom is not None else challenge.event
            lines.append(text("answer_fails", lang, fix=label, event=event))
    return lines


def site_label(site: str) -> str:
    """A site as a choice shows it: without the user's folders, as the map's legend does."""
    return short_site(site)


def check_languages() -> list[str]:
    """What is wrong with challenges.toml: a text missing a language, or whose languages use other placeholders."""
    from gpumem_gui.teach.demos.wording import fields_of  # noqa: PLC0415

    problems = []
    data = _data()
    tables = [data["interface"], data["roles"], data["fixes"], *data["challenge"].values()]
    for table in tables:
        for key, by_lang in table.items():
            missing = [lang for lang in LANGUAGES if lang not in by_lang]
            if missing:
                problems.append(f"{key}: no {', '.join(missing)}")
                continue
            fields = {lang: fields_of(by_lang[lang]) for lang in LANGUAGES}
            if len({frozenset(f) for f in fields.values()}) > 1:
                problems.append(f"{key}: placeholders differ between languages ({fields})")
    return problems
