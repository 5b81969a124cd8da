"""Caption templates from the quiz files, filled per language: numbers, sizes and plurals written as each language
writes them (ro and fr: decimal comma, as the quiz texts write "1,5 GiB"; fr: a space before %)."""

from __future__ import annotations

import functools
import string
from collections.abc import Mapping
from dataclasses import dataclass

from gpumem_gui.teach.demos.plans import DemoError
from gpumem_gui.teach.quiz import LANGUAGES, Text, load_quizzes

Localized = dict[str, str]  # language -> text, one per quiz language
NARROW_NBSP = "\u202f"  # French groups thousands with a narrow no-break space
_GROUPING = {"en": ",", "ro": ".", "fr": NARROW_NBSP}


def localize(text: str, lang: str) -> str:
    """A number or size written in English ("1.5 GiB", "41.9%") as `lang` writes it."""
    if lang == "en":
        return text
    text = text.replace(".", ",")
    if lang == "fr" and text.endswith("%"):
        text = text[:-1] + "\u00a0%"
    return text


def plural_form(n: int, forms: list[str], lang: str) -> str:
    """The form of a noun after `n`: forms are one|other (en, fr), or one|few|other in Romanian ("gol|goluri|de
    goluri": 20 and more take "de")."""
    if n == 1 or (lang == "fr" and n == 0):
        return forms[0]
    if lang == "ro" and len(forms) > 2 and not (n == 0 or 1 <= n % 100 <= 19):
        return forms[2]
    return forms[1]


@dataclass(frozen=True)
class Count:
    """A count: `{x}` writes it grouped as the language does, `{x:hole|holes}` writes the noun form it takes."""

    n: int
    lang: str

    def __format__(self, spec: str) -> str:
        if "|" in spec:
            return plural_form(self.n, spec.split("|"), self.lang)
        return f"{self.n:,}".replace(",", _GROUPING[self.lang])


@dataclass(frozen=True)
class Figure:
    """A size or percentage already written in English ("1.5 GiB"), written per language when filled in."""

    text: str


@dataclass(frozen=True)
class Clause:
    """Another template of the same question, filled and put where its placeholder is."""

    key: str
    values: Mapping[str, object]


Templates = Mapping[str, Text]


def fields_of(template: str) -> frozenset[str]:
    return frozenset(name for _, name, _, _ in string.Formatter().parse(template) if name)


def fill(templates: Templates, key: str, lang: str, values: Mapping[str, object]) -> str:
    """Template `key` in `lang` with `values`: ints are counts, Figures are localized, Clauses filled in turn (a
    tuple of them: listed with commas; None leaves the placeholder empty)."""
    filled: dict[str, object] = {}
    for name, value in values.items():
        if value is None:
            filled[name] = ""
        elif isinstance(value, Clause):
            filled[name] = fill(templates, value.key, lang, value.values)
        elif isinstance(value, tuple):  # clauses listed one after another
            filled[name] = ", ".join(fill(templates, c.key, lang, c.values) for c in value)
        elif isinstance(value, Figure):
            filled[name] = localize(value.text, lang)
        elif isinstance(value, int):
            filled[name] = Count(value, lang)
        else:
            filled[name] = value
    return templates[key][lang].format_map(filled)


def say(templates: Templates, key: str, **values: object) -> Localized:
    """Template `key` filled with `values` in every quiz language."""
    return {lang: fill(templates, key, lang, values) for lang in LANGUAGES}


def check_templates(demo: str, templates: Templates, spec: Mapping[str, frozenset[str]]) -> None:
    """DemoError unless `templates` has exactly the names of `spec`, each using exactly its placeholders."""
    missing, unknown = sorted(set(spec) - set(templates)), sorted(set(templates) - set(spec))
    if missing or unknown:
        raise DemoError(f"{demo}: map_caption lacks {missing} or has unknown {unknown} (expected {sorted(spec)})")
    for key, expected in spec.items():
        for lang, text in templates[key]:
            try:
                found = fields_of(text)
            except ValueError as exc:  # an unbalanced brace
                raise DemoError(f"{demo}: map_caption.{key}.{lang}: {exc}") from exc
            if found != expected:
                raise DemoError(f"{demo}: map_caption.{key}.{lang} must use {sorted(expected)}, found {sorted(found)}")


@functools.cache
def quiz_templates() -> dict[str, Templates]:
    """Demo -> the map_caption templates of the first quiz question showing it (the quiz files are read once)."""
    found: dict[str, Templates] = {}
    for quiz in load_quizzes():
        for question in quiz.questions:
            if question.map_caption and question.demo not in found:
                found[question.demo] = question.map_caption
    return found


def templates_for(demo: str, spec: Mapping[str, frozenset[str]]) -> Templates:
    templates = quiz_templates().get(demo)
    if templates is None:
        raise DemoError(f"{demo}: no quiz question gives its map_caption templates")
    check_templates(demo, templates, spec)
    return templates
