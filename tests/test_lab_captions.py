"""The checkpointing lab's captions in the learner's language, with the sweep's figures written as it writes them."""

from __future__ import annotations

import re
import string
import tomllib
from typing import Any

import pytest

from gpumem_gui import assets
from gpumem_gui.core.snapshot.units import format_bytes
from gpumem_gui.teach import lab
from gpumem_gui.teach.demos.captions import lab_templates
from gpumem_gui.teach.quiz import LANGUAGES
from gpumem_gui.views.teach.lab import captions

N = 16
FOCUS_KEYS = ("saved_bytes", "sqrt", "recompute", "selective", "bf16", "fsdp")
# a phrase of each language a caption must be worded with (the glossary's terms where it has one), hand-picked
PHRASES = {
    ("saved_bytes", "ro"): "trecerea înapoi",
    ("saved_bytes", "fr"): "passe arrière",
    ("recompute", "ro"): "trecerea înapoi reia",
    ("recompute", "fr"): "la passe arrière réexécute",
    ("sqrt", "ro"): "fără checkpointing",
    ("sqrt", "fr"): "sans points de contrôle",
    ("selective", "ro"): "element cu element",
    ("selective", "fr"): "élément par élément",
    ("bf16", "ro"): "precizie mixtă",
    ("bf16", "fr"): "précision mixte",
    ("fsdp", "ro"): "pe un singur GPU",
    ("fsdp", "fr"): "sur un seul GPU",
}
ENGLISH = re.compile(r"\b(held|layers?|every|checkpoints|matmuls|recompute|backward|forwards?|per GPU|grads)\b", re.I)


def _m(policy: str, n: int, dtype: str = "fp32", **kw: int) -> lab.PolicyMeasurement:
    scale = {"fp32": 1.0, "bf16": 0.5, "autocast": 0.625}[dtype]
    saved = {"none": 98_304, "every": 6_144 + 512, "sqrt": 26_000, "selective": 49_152 + 1_000}[policy]
    sqrt_n = {"none": n, "every": n, "sqrt": int(n**0.5) * 4, "selective": n}[policy]  # sqrt grows like sqrt(N)
    fields: dict[str, Any] = {
        "policy": policy, "n_layers": n, "width": 128, "tokens": 64, "dtype": dtype,
        "activation_bytes": 32_768 if dtype == "fp32" else 16_384,
        "saved_bytes": int(saved * scale * sqrt_n / n * n / N) if policy != "none" else int(saved * scale * n / N),
        "hooked_bytes": 0, "hooked_tensors": 0, "checkpoints": {"none": 0, "every": n, "sqrt": 4}.get(policy, n),
        "extra_forwards": {"none": 0, "every": n, "sqrt": n}.get(policy, 0),
        "recomputed_matmuls": {"none": 0, "every": n, "sqrt": n - 4, "selective": 0}[policy],
        "recomputed_pointwise": {"none": 0, "every": n, "sqrt": n, "selective": n}[policy],
        "forward_matmuls": 2 * n, "forward_pointwise": n, "forward_flops": 3_000,
        "extra_flops": {"none": 0, "every": 1_437, "sqrt": 1_111, "selective": 0}[policy], "step_flops": 9_000,
    }  # fmt: skip
    fields["peak_bytes"] = fields["saved_bytes"] + 3 * fields["activation_bytes"] * (policy != "none")  # + a segment
    fields.update(kw)
    return lab.PolicyMeasurement(**fields)


def fake_sweep() -> lab.LabSweep:
    points = tuple(_m(p, n) for n in (4, 9, 16) for p in lab.POLICIES)
    at_n = tuple(_m(p, N, d) for d in lab.PRECISIONS for p in lab.POLICIES)
    trap = _m("selective", N, recomputed_matmuls=N)
    return lab.LabSweep(N, 128, 64, "fp32", (4, 9, 16), points, at_n, trap, 0.1, 0.1, "fake")


def fake_fsdp(world_sizes: list[int] | None = None) -> lab.FsdpBreakdown:
    shards = tuple(
        lab.FsdpShard(w, 1_000_000 // w + 7, 1_000_000 // w + 7, 2_000_000 // w + 14, 0, 0, 0, 3, 150_000)
        for w in (world_sizes or list(range(1, 9)))
    )
    return lab.FsdpBreakdown(N, 128, "fp32", "AdamW", 250_000, 1_000_000, 1_000_000, 2_000_000, (), shards)


def size(n: int, lang: str) -> str:
    text = format_bytes(n)
    if lang == "fr":  # French counts octets: Kio, Mio, Gio
        text = text.replace("iB", "io")
    return text if lang == "en" else text.replace(".", ",").replace(" ", "\u00a0")  # ro, fr: the unit kept on the line


def decimal(value: float, places: int, lang: str) -> str:
    text = f"{value:.{places}f}"
    return text if lang == "en" else text.replace(".", ",")


def percent(fraction: float, lang: str) -> str:
    text = f"{round(100 * fraction)}"
    return {"en": f"{text}%", "ro": f"{text}\u00a0%", "fr": f"{text}\u00a0%"}[lang]  # CLDR: "#,##0 %" in ro and fr


def expected_figures(focus: str, sweep: lab.LabSweep, fsdp: lab.FsdpBreakdown, lang: str) -> list[str]:
    """The figures each caption must write, from the result's fields."""
    at = sweep.at
    if focus == "saved_bytes":
        sizes = [size(at(p).saved_bytes, lang) for p in lab.POLICIES]
        peaks = ", ".join(size(at(p).peak_bytes or 0, lang) for p in lab.POLICIES)  # in the order of the kept ones
        return [f"N={N}", *sizes, size(at("none").activation_bytes, lang), peaks]
    if focus == "sqrt":
        s, none, every = at("sqrt"), at("none"), at("every")
        assert s.peak_bytes and none.peak_bytes and every.peak_bytes
        ns, peaks = zip(*sorted((m.n_layers, m.peak_bytes) for m in sweep.points if m.policy == "sqrt"), strict=True)
        return [
            f"{s.checkpoints} ", size(s.saved_bytes, lang), decimal(none.saved_bytes / s.saved_bytes, 1, lang),
            size(s.peak_bytes, lang), size(none.peak_bytes, lang), size(every.peak_bytes, lang),
            decimal(none.peak_bytes / s.peak_bytes, 1, lang),
            "N^" + decimal(lab.fit_exponent(ns, peaks), 2, lang),
            "N^" + decimal(sweep.exponent("none", "peak"), 2, lang),
        ]  # fmt: skip
    if focus == "recompute":
        e, s = at("every"), at("sqrt")
        return [
            f"{e.extra_forwards} ", f"{e.recomputed_matmuls} ", f"{e.forward_matmuls} ",
            percent(e.extra_flops / e.forward_flops, lang), percent(s.extra_flops / s.forward_flops, lang),
            f"{s.recomputed_matmuls} ",
        ]  # fmt: skip
    if focus == "selective":
        m = at("selective")
        return [
            size(m.saved_bytes, lang), size(at("none").saved_bytes, lang), size(at("every").saved_bytes, lang),
            f"{m.recomputed_pointwise} ", f"{sweep.trap.recomputed_matmuls} ", f"({at('every').recomputed_matmuls})",
        ]  # fmt: skip
    if focus == "bf16":
        fp32, bf16, auto = (at("none", d).saved_bytes for d in lab.PRECISIONS)
        return [size(fp32, lang), size(bf16, lang), "x" + decimal(bf16 / fp32, 2, lang), size(auto, lang),
                "x" + decimal(auto / fp32, 2, lang), size(at("every", "autocast").saved_bytes, lang),
                size(at("every").saved_bytes, lang)]  # fmt: skip
    shard = fsdp.at(8)
    return [
        "8 GPU", size(shard.param_bytes, lang), size(shard.grad_bytes, lang), size(shard.optimizer_bytes, lang),
        size(shard.total_bytes, lang), size(fsdp.total_bytes, lang),
        "1/" + decimal(fsdp.total_bytes / shard.total_bytes, 2, lang), f"({size(shard.gathered_unit_bytes, lang)})",
    ]  # fmt: skip


def caption_of(focus: str, sweep: lab.LabSweep, fsdp: lab.FsdpBreakdown) -> dict[str, str]:
    return captions.fsdp(fsdp, 8) if focus == "fsdp" else captions.SWEEP_CAPTIONS[focus](sweep)


def fixed_words(template: str) -> list[str]:
    """The words between a template's placeholders (its plural forms aside)."""
    return [t.strip(" ;:,()") for t, _, _, _ in string.Formatter().parse(template) if t.strip(" ;:,()")]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("focus", FOCUS_KEYS)
def test_caption_is_in_the_language_with_the_results_figures(focus: str, lang: str) -> None:
    sweep, fsdp = fake_sweep(), fake_fsdp()
    localized = caption_of(focus, sweep, fsdp)
    caption = localized[lang]
    for figure in expected_figures(focus, sweep, fsdp, lang):
        assert figure in caption, f"{focus}.{lang}: {figure!r} not in {caption!r}"
    for words in fixed_words(lab_templates()[focus][lang]):
        assert words in caption, f"{focus}.{lang}: {words!r} not in {caption!r}"
    if lang != "en":
        assert PHRASES[focus, lang] in caption
        assert not ENGLISH.search(caption), caption
        assert not re.search(r"\d\.\d", caption.replace("aten.mm.default", "")), caption  # a decimal comma
        assert caption != localized["en"]


def test_the_lab_templates_keep_the_glossary() -> None:
    glossary = tomllib.loads(assets.GLOSSARY.read_text(encoding="utf-8"))
    for lang, concepts in glossary.items():
        for name, entry in concepts.items():
            for pattern in entry["forbidden"]:
                for key, text in lab_templates().items():
                    found = re.search(pattern, text[lang], re.IGNORECASE)
                    assert not found, f"map_caption.{key}.{lang}: {name} named {found.group(0)!r}"


def test_english_waiting_lines_are_the_labs_own() -> None:
    assert captions.waiting("no_torch")["en"] == lab.TORCH_MISSING
    assert captions.fsdp(fake_fsdp([1, 2]), 3)["fr"] == "mesure de FSDP sur 3 GPU en cours..."


def test_set_language_rewords_the_shown_caption_without_a_new_run(qtbot: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from gpumem_gui.views.teach.lab.panel import CheckpointLabPanel  # noqa: PLC0415

    runs: list[str] = []

    def sweep(*_: Any, **__: Any) -> lab.LabSweep:
        runs.append("sweep")
        return fake_sweep()

    def fsdp(*_: Any, **__: Any) -> lab.FsdpBreakdown:
        runs.append("fsdp")
        return fake_fsdp()

    monkeypatch.setattr(lab, "torch_available", lambda: None)
    monkeypatch.setattr(lab, "run_sweep", sweep)
    monkeypatch.setattr(lab, "measure_fsdp", fsdp)
    panel = CheckpointLabPanel()
    panel.auto_run = False
    panel.timing = False  # the fake sweep is not timed: the timed steps are a real measurement of their own
    qtbot.addWidget(panel)
    panel.set_language("ro")  # before any figures: the waiting line is worded in Romanian
    panel.set_focus("sqrt")
    assert panel.caption.text() == "se măsoară lanțul: primele cifre apar în câteva secunde"
    qtbot.waitUntil(lambda: not panel.busy(), timeout=10_000)
    assert sorted(runs) == ["fsdp", "sweep"]
    for focus in FOCUS_KEYS:
        panel.set_focus(focus)
        for lang in ("fr", "en", "ro"):
            panel.set_language(lang)
            text = panel.caption.text()
            assert text == panel.caption.toolTip()
            for figure in expected_figures(focus, fake_sweep(), fake_fsdp(), lang):
                assert figure in text, f"{focus}.{lang}: {figure!r} not in {text!r}"
            assert (lang == "en") == (ENGLISH.search(text) is not None), text
    assert sorted(runs) == ["fsdp", "sweep"] and not panel.busy()  # nothing measured again
    with pytest.raises(ValueError, match="unknown language"):
        panel.set_language("de")
