"""Caption templates from the quiz files, filled per language: numbers, sizes, percentages and plurals written as each
language writes them, by Babel's CLDR data (ro: "2.520", "1,5 GiB", "41,9 %"; fr: "2 520", "41,9 %"), a size's
number and unit tied by a no-break space (U+00A0) in both."""

from __future__ import annotations

import functools
import re
import string
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from babel import Locale
from babel.numbers import NumberPattern, parse_pattern

from gpumem_gui.teach.demos.plans import DemoError
from gpumem_gui.teach.quiz import LANGUAGES, Text, load_quizzes

Localized = dict[str, str]  # language -> text, one per quiz language
NARROW_NBSP = "\u202f"  # French puts it before : ; ? ! and groups thousands with it
NBSP = "\u00a0"  # ties a size's number to its unit in French and Romanian, as CLDR ties a number to its % in both
# CLDR's order of plural categories: a template's forms follow it ("one|few|other" in Romanian)
_CATEGORIES = ("zero", "one", "two", "few", "many", "other")
# a number as English writes it, with what follows it: "2,520", "1.5 GiB", "41.9%"
_ENGLISH_NUMBER = re.compile(r"(-?)(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?")
# French writes sizes in octets: "Kio", "Mio", "Gio" (the quiz texts do; "1,5 Gio", "512 o")
_SIZE_UNIT = re.compile(r"(?<=\d[ \u00a0])([KMGTP]i)?B\b")
UNITS_IN_OCTETS = frozenset({"fr"})
# the space between a number and its byte unit ("1.5 GiB", "512 B", "12 MB", "(1,610,612,736 bytes)"); French and
# Romanian typography keep the two on one line, so a wrapped label never ends a line with "1,5" and starts the next
# with "Gio". U+00A0 rather than French's narrow U+202F: the Imprimerie nationale's rule for a unit (the narrow one
# is for : ; ? ! and grouping), the space CLDR puts before % in both languages (sizes and shares read alike side by
# side), and the one space Qt's HTML importer keeps unbreakable without rich_text's help. English keeps its plain
# space: the CLI's reports and JSON are English and stay as they are.
_UNIT_SPACE = re.compile(r"(?<=\d) (?=(?:[KMGTP]i?)?B\b|bytes\b)")
UNITS_TIED = frozenset({"fr", "ro"})


@functools.cache
def _locale(lang: str) -> Locale:
    return Locale.parse(lang)


@functools.cache  # Babel parses a pattern given as text again on every call: a travel step formats dozens
def _pattern(lang: str, pattern: str) -> tuple[NumberPattern, Locale]:
    return parse_pattern(pattern), _locale(lang)


def number(value: float, lang: str, decimals: int = 0) -> str:
    """`value` grouped and with `decimals` fraction digits, in the symbols of `lang`."""
    return _written(value, lang, "#,##0" + ("." + "0" * decimals if decimals else ""))


def percent(value: float, lang: str, decimals: int = 0) -> str:
    """`value` percent (41.9 -> "41,9 %" in fr), in the locale's own percent pattern."""
    return _written(value / 100, lang, _percent_pattern(lang, decimals))


@functools.cache
def _percent_pattern(lang: str, decimals: int) -> str:
    pattern = str(_locale(lang).percent_formats[None].pattern)
    last_digit = pattern.rindex("0") + 1
    return pattern[:last_digit] + ("." + "0" * decimals if decimals else "") + pattern[last_digit:]


def _written(value: float, lang: str, pattern: str) -> str:
    """Babel's format_decimal(value, format=pattern, locale=lang) without its per-call parsing of both: the parsed
    pattern's own apply (the same code format_decimal ends in)."""
    parsed, locale = _pattern(lang, pattern)
    return str(parsed.apply(value, locale))


@functools.lru_cache(maxsize=1 << 15)  # a list's rows repeat their sizes ("512 B", "2.0 MiB"): each worked out once
def localize(text: str, lang: str) -> str:
    """A number, size or percentage written in English ("1.5 GiB", "41.9%", "2,520") as `lang` writes it (French
    sizes in octets: "1,5 Gio")."""
    if lang == "en":
        return text

    def one(match: re.Match[str]) -> str:
        sign, whole, fraction = match.group(1), match.group(2).replace(",", ""), match.group(3) or ""
        value = float(f"{sign}{whole}.{fraction or 0}")
        return number(value, lang, len(fraction))

    found = _ENGLISH_NUMBER.fullmatch(text.rstrip("%"))
    if text.endswith("%") and found:
        fraction = found.group(3) or ""
        return percent(float(text[:-1].replace(",", "")), lang, len(fraction))
    return size_units(_ENGLISH_NUMBER.sub(one, text), lang)


def size_units(text: str, lang: str) -> str:
    """The byte units of `text` as `lang` writes them: tied to their number by a no-break space in French and
    Romanian ("1,5 GiB" -> ro "1,5\u00a0GiB"), and French counts octets ("1,5\u00a0Gio")."""
    if lang in UNITS_TIED:
        text = _UNIT_SPACE.sub(NBSP, text)
    if lang not in UNITS_IN_OCTETS:
        return text
    return _SIZE_UNIT.sub(lambda m: f"{m.group(1) or ''}o", text)


def plural_form(n: int, forms: list[str], lang: str) -> str:
    """The form of a noun after `n`, by the CLDR plural category of `n` in `lang`: forms follow CLDR's order of the
    language's categories (en, fr: one|other; ro: one|few|other, "gol|goluri|de goluri"). A template with fewer
    forms than categories drops the rarer ones (fr's "many", for millions) into "other"."""
    rule = _locale(lang).plural_form
    kept = [c for c in _CATEGORIES if c in rule.tags or c == "other"]
    for rare in ("many", "two", "zero", "few"):
        if len(kept) > len(forms) and rare in kept:
            kept.remove(rare)
    category = rule(n)
    return forms[kept.index(category) if category in kept else len(kept) - 1]


@dataclass(frozen=True)
class Count:
    """A count: `{x}` writes it grouped as the language does, `{x:hole|holes}` writes the noun form it takes."""

    n: int
    lang: str

    def __format__(self, spec: str) -> str:
        if "|" in spec:
            return plural_form(self.n, spec.split("|"), self.lang)
        return number(self.n, self.lang)

    def __str__(self) -> str:
        return number(self.n, self.lang)


_ENGLISH_COUNT = re.compile(r"\d{1,3}(?:,\d{3})+|\d+")


def worded(value: str, lang: str) -> object:
    """A field written in English as `lang` writes it: a bare count becomes a Count (so `{x:one|other}` takes its
    plural form), a size or percentage is localized, anything else (a setting name) stays as it is."""
    if _ENGLISH_COUNT.fullmatch(value):
        return Count(int(value.replace(",", "")), lang)
    if _ENGLISH_NUMBER.match(value):
        return localize(value, lang)
    return value


def fill_text(template: str, lang: str, fields: Mapping[str, str]) -> str:
    """`template` in `lang` filled with `fields` written in English ("2,520", "1.5 GiB", "41.9%")."""
    return template.format_map({name: worded(value, lang) for name, value in fields.items()})


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


class ByLanguage(Protocol):
    """One template per language: a quiz file's Text, or a plain dict written in code (the panel's, the lab's)."""

    def __getitem__(self, lang: str, /) -> str: ...


AnyTemplates = Mapping[str, ByLanguage]


def fields_of(template: str) -> frozenset[str]:
    return frozenset(name for _, name, _, _ in string.Formatter().parse(template) if name)


def fill(templates: AnyTemplates, key: str, lang: str, values: Mapping[str, object]) -> str:
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


def say(templates: AnyTemplates, key: str, **values: object) -> Localized:
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
