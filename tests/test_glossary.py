"""Each concept has one name per language: a variant that data/glossary.toml forbids fails, naming where it is."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass

import pytest

from gpumem_gui import assets
from gpumem_gui.teach.quiz import load_quizzes
from tests.conftest import quiz_texts

GLOSSARY_PATH = assets.GLOSSARY


@dataclass(frozen=True)
class Concept:
    """One concept of one language: the term the texts use and the variants they may not."""

    lang: str
    name: str
    term: str
    used: re.Pattern[str]
    forbidden: tuple[re.Pattern[str], ...]


def _load_glossary() -> list[Concept]:
    raw = tomllib.loads(GLOSSARY_PATH.read_text(encoding="utf-8"))
    concepts = []
    for lang, table in raw.items():
        for name, entry in table.items():
            assert set(entry) == {"concept", "term", "used", "forbidden"}, f"glossary {lang}.{name}: {sorted(entry)}"
            concepts.append(
                Concept(
                    lang,
                    name,
                    entry["term"],
                    re.compile(entry["used"], re.IGNORECASE),
                    tuple(re.compile(p, re.IGNORECASE) for p in entry["forbidden"]),
                )
            )
    return concepts


GLOSSARY = _load_glossary()
QUIZZES = load_quizzes()


def violations(concept: Concept, place: str, text: str) -> list[str]:
    """One line per forbidden variant of `concept` found in `text`."""
    found = []
    for pattern in concept.forbidden:
        for match in pattern.finditer(text):
            named, term = match.group(0), concept.term
            found.append(f"{place}.{concept.lang}: {concept.name} named {named!r}; the glossary's term is {term!r}")
    return found


def test_glossary_is_package_data_with_both_translated_languages() -> None:
    assert GLOSSARY_PATH.is_file()
    assert {c.lang for c in GLOSSARY} == {"ro", "fr"}
    assert all(c.forbidden for c in GLOSSARY)


@pytest.mark.parametrize("concept", GLOSSARY, ids=lambda c: f"{c.lang}.{c.name}")
def test_no_concept_is_named_two_ways(concept: Concept) -> None:
    problems = [
        line
        for quiz in QUIZZES
        for where, text in quiz_texts(quiz)
        for line in violations(concept, f"{quiz.path.name}: {where}", text[concept.lang])
    ]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("concept", GLOSSARY, ids=lambda c: f"{c.lang}.{c.name}")
def test_every_glossary_term_is_in_use(concept: Concept) -> None:
    # a term no text uses is a stale entry, and its forbidden list guards nothing
    assert any(concept.used.search(text[concept.lang]) for quiz in QUIZZES for _, text in quiz_texts(quiz)), concept


def _concept(lang: str, name: str) -> Concept:
    return next(c for c in GLOSSARY if (c.lang, c.name) == (lang, name))


@pytest.mark.parametrize(
    ("lang", "name", "text", "flagged"),
    [
        # the variants issue 21 names, written as a translator would: each must be caught
        ("fr", "backward-pass", "puis réexécute la région pendant le backward.", ["backward"]),
        ("fr", "gradient-checkpointing", "Quiz sur le checkpointing des gradients", ["checkpointing des gradients"]),
        ("fr", "model-accuracy", "La précision du modèle contre la vitesse", ["précision du modèle"]),
        ("ro", "forward-pass", "rulează din nou forward-ul regiunii în pasul backward", ["forward"]),
        ("ro", "backward-pass", "în pasul backward", ["backward"]),
        ("ro", "register", "așa că trebuie măsurată pe modelul tău, ca să reduci memoria", ["tău"]),
        ("ro", "register", "Plătești cu FLOP-uri și recalculezi", ["Plătești", "recalculezi"]),
        ("ro", "register", "apăsați „Arată-mi”", ["Arată-mi"]),
        ("ro", "live-tensor", "Câte activări sunt vii la vârf?", ["sunt vii"]),
        # code and the right terms are left alone
        ("fr", "backward-pass", "torch.autograd.grad et Tensor.backward(inputs=...) pendant la passe arrière", []),
        ("ro", "register", "Acești tensori rămân; ca să eliberați tensorul, renunțați la referințe", []),
        ("ro", "register", "apăsați „Arătați-mi”", []),
        ("ro", "backpropagation", "propagarea înapoi (backpropagation) are nevoie de ele", []),
    ],
)
def test_the_check_catches_a_concept_named_two_ways(lang: str, name: str, text: str, flagged: list[str]) -> None:
    concept = _concept(lang, name)
    lines = violations(concept, "q", text)
    assert [re.search(r"named '(.*?)'", line).group(1) for line in lines] == flagged  # type: ignore[union-attr]
    if lines:
        assert lines[0].startswith(f"q.{lang}: {name} named ")


def _prediction_texts() -> list[tuple[str, dict[str, str]]]:
    """Every text of data/predictions.toml (prompts, reveals, options, the box's words) and of the quiz panel's
    quiz_interface.toml, as language -> text."""
    from gpumem_gui.teach.predict import load_predictions  # noqa: PLC0415
    from gpumem_gui.teach.quiz_interface import load_interface  # noqa: PLC0415

    predictions = load_predictions()
    found = [(f"interface.{k}", {lang: t[lang] for lang in ("ro", "fr")}) for k, t in predictions.interface.items()]
    found += [(f"quiz_interface.{k}", dict(t)) for k, t in load_interface().texts.items()]
    for (quiz, question), p in predictions.items.items():
        for name, text in (("prompt", p.prompt), ("reveal", p.reveal), ("none", p.none), *enumerate(p.options)):
            if text is not None:
                found.append((f"{quiz}.{question}.{name}", {lang: text[lang] for lang in ("ro", "fr")}))
    return found


@pytest.mark.parametrize("concept", GLOSSARY, ids=lambda c: f"{c.lang}.{c.name}")
def test_the_predictions_and_the_panel_keep_the_glossary(concept: Concept) -> None:
    """The review found "étape d'entraînement" and "sunt vii" in predictions.toml and the informal "Arată-mi" on the
    panel's button, none of which the quiz check read."""
    problems = [
        line
        for where, text in _prediction_texts()
        for line in violations(concept, f"predictions.toml: {where}", text[concept.lang])
    ]
    assert not problems, "\n".join(problems)


def test_french_names_the_technique_checkpointing_des_activations_everywhere() -> None:
    """The review of 2026-12-03: "points de contrôle de gradient" says gradients are checkpointed; one French name,
    with the English one allowed only as a gloss in parentheses, in the quizzes and in every teaching resource."""
    (concept,) = [c for c in GLOSSARY if (c.lang, c.name) == ("fr", "gradient-checkpointing")]
    assert concept.term == "checkpointing des activations"
    assert violations(concept, "x", "les points de contrôle de gradient") != []
    assert violations(concept, "x", "le gradient checkpointing") != []
    assert violations(concept, "x", "le checkpointing des activations (gradient checkpointing)") == []
    resources = [assets.PREDICTIONS, assets.RESOURCES / "budget_lesson.toml", assets.RESOURCES / "try_yours.toml"]
    problems = [
        line
        for path in resources
        for where, fr in _french_texts(tomllib.loads(path.read_text(encoding="utf-8")), path.name)
        for line in violations(concept, where, fr)
    ]
    assert not problems, "\n".join(problems)


def _french_texts(node: object, where: str) -> list[tuple[str, str]]:
    """Every French text of a resource file: the values of its `fr` keys, at any depth."""
    if isinstance(node, dict):
        found = [(where, node["fr"])] if isinstance(node.get("fr"), str) else []
        return found + [t for k, v in node.items() for t in _french_texts(v, f"{where}.{k}")]
    if isinstance(node, list):
        return [t for i, v in enumerate(node) for t in _french_texts(v, f"{where}[{i}]")]
    return []
