"""Show-me captions in the learner's language: each demo's caption and labels are the quiz file's template for that
language, filled with figures that match the raw pickles (read here with pickle), and a language switch re-captions
the demo shown."""

from __future__ import annotations

import pickle
import re
import string
import tomllib
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PySide6 import QtCore

from gpumem_gui import assets
from gpumem_gui.assets import example_path
from gpumem_gui.core.analysis.timetravel import build_timeline
from gpumem_gui.core.snapshot.loader import load_snapshot
from gpumem_gui.teach.demos.captions import SPEC
from gpumem_gui.teach.demos.plans import DemoError
from gpumem_gui.teach.demos.wording import Count, check_templates, plural_form
from gpumem_gui.teach.quiz import LANGUAGES, Text, find_quiz, load_quizzes
from gpumem_gui.teach.quiz_demos import DemoFocus, foci_for, plan_for, run_whatif
from tests.kv_pool import kv_pool

QUIZ = find_quiz("gpu-memory")
SNAPSHOT_DEMOS = [q for q in QUIZ.questions if plan_for(q.demo).kind != "lab"]
UNITS = ("B", "KiB", "MiB", "GiB", "TiB")


# -- independent oracles: the raw pickle, and numbers written by hand per language -------------------------------


def raw(name: str) -> dict[str, Any]:
    with example_path(name).open("rb") as f:
        data: dict[str, Any] = pickle.load(f)
    return data


def size_text(n: int, lang: str) -> str:
    """A size as the quizzes write it: one decimal, a decimal comma in ro and fr, octets in fr, the number tied to
    its unit by a no-break space in ro and fr."""
    value, unit = float(n), 0
    while value >= 1024 and unit < len(UNITS) - 1:
        value, unit = value / 1024, unit + 1
    text = f"{int(value)} B" if unit == 0 else f"{value:.1f} {UNITS[unit]}"
    if lang == "fr":  # French counts octets: "1,5 Gio", "512 o"
        text = text.replace("iB", "io").replace(" B", " o")
    return text if lang == "en" else text.replace(".", ",").replace(" ", "\u00a0")


def count_text(n: int, lang: str) -> str:
    digits = str(n)
    groups = [digits[max(i - 3, 0) : i] for i in range(len(digits), 0, -3)][::-1]
    return {"en": ",", "ro": ".", "fr": "\u202f"}[lang].join(groups)


def blocks(data: dict[str, Any]) -> list[dict[str, Any]]:
    return [b for s in data["segments"] for b in s["blocks"]]


def holes(data: dict[str, Any]) -> list[int]:
    return [b["size"] for b in blocks(data) if b["state"] == "inactive"]


def _fragmented(lang: str) -> list[list[str]]:
    data = raw("fragmented_oom")  # the trace ends at its OOM, so the dumped segments are the state at that request
    oom = data["device_traces"][0][-1]
    assert oom["action"] == "oom"
    free = holes(data)
    sizes = [oom["size"], max(free), sum(free), oom["device_free"]]
    assert oom["device_free"] < oom["size"]  # so the caption says the GPU had no room for a new segment
    return [[*(size_text(s, lang) for s in sizes), count_text(len(free), lang)]]


def _cache_reuse(lang: str) -> list[list[str]]:
    actions = [e["action"] for e in raw("cache_reuse")["device_traces"][0]]
    allocs = [i for i, a in enumerate(actions) if a == "alloc"]
    grows = [i for i, a in enumerate(actions) if a in ("segment_alloc", "segment_map")]
    served = sum(1 for i in allocs if i == 0 or actions[i - 1] not in ("segment_alloc", "segment_map"))
    return [[count_text(n, lang) for n in (len(allocs), len(grows), served, grows[-1])]]


def _split_blocks(lang: str) -> list[list[str]]:
    data = raw("split_blocks_oom")
    oom = data["device_traces"][0][-1]
    split = [
        b["size"]
        for s in data["segments"]
        if any(b["state"] != "inactive" for b in s["blocks"]) and not s["is_expandable"]
        for b in s["blocks"]
        if b["state"] == "inactive"
    ]
    segments = sum(1 for s in data["segments"] if any(b["state"] == "inactive" for b in s["blocks"]))
    free = holes(data)
    sizes = [oom["size"], sum(free), sum(split), max(free)]
    return [[*(size_text(s, lang) for s in sizes), count_text(len(split), lang), count_text(segments, lang)]]


def _empty_cache(lang: str) -> list[list[str]]:
    data = raw("empty_cache_live_tensor")
    trace = data["device_traces"][0]
    released = []
    for entry in reversed(trace):  # the trace ends with empty_cache's segment_free run
        if entry["action"] != "segment_free":
            break
        released.append(entry["size"])
    reserved_after = sum(s["total_size"] for s in data["segments"])
    live = [b["size"] for b in blocks(data) if b["state"] == "active_allocated"]
    assert len(live) == 1 and len(data["segments"]) == 1
    sizes = [sum(released), reserved_after + sum(released), reserved_after, sum(live)]
    return [[*(size_text(s, lang) for s in sizes), count_text(len(released), lang)]]


def _reserved_vs_allocated(lang: str) -> list[list[str]]:
    data = raw("reserved_vs_allocated")
    reserved = sum(s["total_size"] for s in data["segments"])
    allocated = sum(b["size"] for b in blocks(data) if b["state"] == "active_allocated")
    running, peak, peak_at = 0, -1, -1
    for i, entry in enumerate(data["device_traces"][0]):
        running += {"alloc": entry["size"], "free_completed": -entry["size"]}.get(entry["action"], 0)
        if running > peak:
            peak, peak_at = running, i
    sizes = [reserved, allocated, reserved - allocated, peak]
    return [[*(size_text(s, lang) for s in sizes), count_text(len(holes(data)), lang), count_text(peak_at, lang)]]


def _kv_cache(lang: str) -> list[list[str]]:
    contiguous = [
        b["size"]
        for b in blocks(raw("kv_cache_contiguous"))
        if b["state"] == "active_allocated" and any("kv_cache" in f["filename"] for f in b["frames"])
    ]
    pool, same, more, pool_pages = kv_pool()
    page = pool // pool_pages
    paged = sum(same) * page
    unused = sum(contiguous) - paged
    percent = f"{100 * unused / sum(contiguous):.1f}".replace(".", "," if lang != "en" else ".")
    c = [size_text(s, lang) for s in (sum(contiguous), int(np.median(contiguous)), unused, paged)]
    free = (pool_pages - sum(same) - sum(more)) * page
    p = [size_text(s, lang) for s in (pool, page, paged, free)]
    counts = [count_text(n, lang) for n in (len(contiguous), sum(same), len(more))]
    return [[*c, count_text(len(contiguous), lang), percent], [*p, *counts]]


def _expandable(lang: str) -> list[list[str]]:
    data = raw("graph_pool_order")  # the devlog's small-then-large graph pool: its trace ends at its OOM
    trace = data["device_traces"][0]
    oom = trace[-1]
    free = holes(data)
    recorded = [size_text(s, lang) for s in (oom["size"], sum(free), max(free))]
    recorded += [count_text(len(trace) - 1, lang), count_text(len(free), lang)]
    ooms = sum(1 for e in trace if e["action"] == "oom")
    return [recorded, [size_text(oom["size"], lang), "expandable_segments:True", f"{ooms} -> 0"]]


ORACLES: dict[str, Callable[[str], list[list[str]]]] = {
    "fragmented_oom": _fragmented,
    "cache_reuse": _cache_reuse,
    "split_blocks_oom": _split_blocks,
    "empty_cache_live_tensor": _empty_cache,
    "reserved_vs_allocated": _reserved_vs_allocated,
    "kv_cache": _kv_cache,
    "expandable_whatif": _expandable,
}


@cache
def demo_foci(demo: str) -> tuple[DemoFocus, ...]:
    plan = plan_for(demo)
    snapshots = [load_snapshot(example_path(name)) for name in plan.examples]
    if plan.kind == "whatif":
        snapshots = [snapshots[0], run_whatif(plan, snapshots[0]).snapshot]
    return foci_for(demo, snapshots)


def literals(template: str) -> list[str]:
    """The template's own words: the text between its placeholders."""
    return [text.strip(" ;:,()") for text, _, _, _ in string.Formatter().parse(template) if text.strip(" ;:,()")]


def words(templates: list[str]) -> set[str]:
    """Every word a template may write: its own words and its plural forms."""
    parts = [p for t in templates for text, _, spec, _ in string.Formatter().parse(t) for p in (text, spec or "")]
    return {w.lower() for p in parts for w in re.findall(r"[^\W\d_]{4,}", p)}


# -- the tests ---------------------------------------------------------------------------------------------------


def test_every_snapshot_demo_has_an_oracle_and_its_question_gives_every_template() -> None:
    assert {q.demo for q in SNAPSHOT_DEMOS} == set(ORACLES) == set(SPEC)
    for question in SNAPSHOT_DEMOS:
        check_templates(question.demo, question.map_caption, SPEC[question.demo])  # raises on a missing one


def test_a_template_with_a_wrong_placeholder_is_refused() -> None:
    question = SNAPSHOT_DEMOS[0]
    broken = dict(question.map_caption)
    broken["mark_oom"] = Text(en="OOM: {requested}", ro="OOM: {request}", fr="OOM : {request}")
    with pytest.raises(DemoError, match=r"map_caption\.mark_oom\.en must use \['request'\], found \['requested'\]"):
        check_templates(question.demo, broken, SPEC[question.demo])


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("demo", sorted(ORACLES))
def test_caption_is_in_the_language_with_the_pickles_figures(demo: str, lang: str) -> None:
    question = next(q for q in SNAPSHOT_DEMOS if q.demo == demo)
    templates = question.map_caption
    foci = demo_foci(demo)
    expected = ORACLES[demo](lang)
    assert len(foci) == len(expected)
    english = words([t.en for t in templates.values()])
    own = words([t[lang] for t in templates.values()])
    for focus, figures in zip(foci, expected, strict=True):
        caption = focus.in_language(lang).caption
        assert caption == focus.captions[lang]
        for figure in figures:
            assert figure in caption, f"{demo}.{lang}: {figure!r} not in {caption!r}"
        # the caption is one of this language's templates: all the fixed words of one of them are in it
        mains = [k for k in SPEC[demo] if "{" in templates[k].en and not k.startswith("mark")]
        assert any(all(w in caption for w in literals(templates[k][lang])) for k in mains), caption
        if lang != "en":
            stray = {w for w in english - own - {"cudamalloc"} if re.search(rf"\b{w}\b", caption.lower())}
            assert not stray, f"{demo}.{lang}: English words {sorted(stray)} in {caption!r}"
            assert caption != focus.captions["en"]


@pytest.mark.parametrize("lang", ["ro", "fr"])
def test_marks_and_bracket_follow_the_language(lang: str) -> None:
    (focus,) = demo_foci("reserved_vs_allocated")
    local = focus.in_language(lang)
    templates = next(q for q in SNAPSHOT_DEMOS if q.demo == "reserved_vs_allocated").map_caption
    assert [m.label for m in local.timeline_marks] == [m.labels[lang] for m in focus.timeline_marks]
    assert literals(templates["mark_peak"][lang])[0] in local.timeline_marks[0].label
    assert local.timeline_marks[1].label == templates["mark_freed"][lang]
    assert local.bracket is not None and focus.bracket is not None
    gap = focus.bracket.gap_bytes
    assert local.bracket.label == templates["bracket"][lang].format(gap=size_text(gap, lang))
    # the facts and the spotlight are the focus's own: only the words change
    assert local.facts is focus.facts and local.block_mask is focus.block_mask


def test_counts_take_each_languages_plural_and_grouping() -> None:
    assert [plural_form(n, ["gol", "goluri", "de goluri"], "ro") for n in (1, 2, 19, 20, 101, 120)] == [
        "gol", "goluri", "goluri", "de goluri", "goluri", "de goluri",
    ]  # fmt: skip
    assert [plural_form(n, ["trou", "trous"], "fr") for n in (0, 1, 2)] == ["trou", "trou", "trous"]
    assert [plural_form(n, ["hole", "holes"], "en") for n in (0, 1, 2)] == ["holes", "hole", "holes"]
    assert [format(Count(1234567, lang)) for lang in LANGUAGES] == ["1,234,567", "1.234.567", "1\u202f234\u202f567"]


def test_templates_keep_the_glossary() -> None:
    glossary = tomllib.loads(assets.GLOSSARY.read_text(encoding="utf-8"))
    for quiz in load_quizzes():
        for question in quiz.questions:
            for key, text in question.map_caption.items():
                for lang, table in glossary.items():
                    for name, entry in table.items():
                        for pattern in entry["forbidden"]:
                            found = re.search(pattern, text[lang], re.IGNORECASE)
                            assert not found, f"{question.id} map_caption.{key}.{lang}: {name} named {found}"


# -- the views: a language switch re-captions the demo shown ------------------------------------------------------


def _settings(path: Path) -> QtCore.QSettings:
    return QtCore.QSettings(str(path), QtCore.QSettings.Format.IniFormat)


def test_switching_the_language_recaptions_the_map_and_timeline(qtbot: Any, tmp_path: Path) -> None:
    from gpumem_gui.views.snapshot.tab import SnapshotTab  # noqa: PLC0415
    from gpumem_gui.views.teach.demo_focus import recaption, show_demo_foci  # noqa: PLC0415
    from gpumem_gui.views.teach.quiz_panel import QuizPanel  # noqa: PLC0415

    snap = load_snapshot(example_path("fragmented_oom"))
    (focus,) = foci_for("fragmented_oom", [snap])
    view = SnapshotTab(snap, timelines={0: build_timeline(snap, 0)})
    qtbot.addWidget(view)
    view.resize(1200, 800)
    view.show()
    panel = QuizPanel(load_quizzes(), _settings(tmp_path / "quiz.ini"))
    qtbot.addWidget(panel)
    show_demo_foci(view, [focus], panel.language)
    panel.language_changed.connect(lambda lang: recaption(view, [focus], lang))
    assert view.map.focus_caption.text() == focus.captions["en"]

    panel.set_language("fr")
    shown = view.map.focus_caption.text()
    assert shown == focus.captions["fr"] != focus.captions["en"]
    assert "plus grand trou" in shown and size_text(focus.facts["request_bytes"], "fr") in shown
    assert [m.label for m in view.timeline_view.focus_marks] == [m.labels["fr"] for m in focus.timeline_marks]
    assert view.current_event == focus.event and np.array_equal(view.map.highlight, focus.block_mask)
    view.grab().save(str(tmp_path / "fr.png"))

    # moved away: the map keeps what the user picked, the marks (still shown) change language
    view.travel_to(10)
    panel.set_language("ro")
    assert view.current_event == 10 and view.map.focus_caption.isHidden()
    assert [m.label for m in view.timeline_view.focus_marks] == [m.labels["ro"] for m in focus.timeline_marks]


def test_switching_the_language_recaptions_a_what_if(qtbot: Any) -> None:
    from gpumem_gui.document import SnapshotDocument  # noqa: PLC0415
    from gpumem_gui.document.staging import WhatIfRun  # noqa: PLC0415
    from gpumem_gui.views.compare.whatif_view import WhatIfView  # noqa: PLC0415
    from gpumem_gui.views.teach.demo_focus import recaption, show_demo_foci  # noqa: PLC0415

    plan = plan_for("expandable_whatif")
    original = load_snapshot(example_path("fragmented_oom"))
    run = run_whatif(plan, original)
    o_timeline = build_timeline(original, 0)
    documents = (SnapshotDocument(original, {0: o_timeline}), SnapshotDocument(run.snapshot, {0: run.timeline}))
    compare = WhatIfView(WhatIfRun(run.result, *documents))
    qtbot.addWidget(compare)
    foci = foci_for("expandable_whatif", [original, run.snapshot], [o_timeline, run.timeline])
    show_demo_foci(compare, foci, "ro")
    assert [m.focus_caption.text() for m in compare.maps] == [f.captions["ro"] for f in foci]
    recaption(compare, foci, "fr")
    assert [m.focus_caption.text() for m in compare.maps] == [f.captions["fr"] for f in foci]
    assert "Enregistré" in compare.maps[0].focus_caption.text()
