"""Sentences the core says in English that the window says in its language: each an English `str` that keeps its
template (marked for translation) and its fields, so the CLI and the JSON print it as before and the window fills
the translated template with its figures written as the language writes them (views/common/sentences.py)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any


class Sentence(str):
    """An English sentence (the str itself) made of `template` in `context` filled with `fields`: each field a figure
    written in English ("1.5 GiB", "41.9%", "2,520"), data said as it is (a path, a setting), or another Sentence.
    `{n:one|other}` in a template writes the form the count `n` takes, `{x:capital}` the field with a capital. An
    empty `context`: the template is glue ("{p0}; {p1}"), not translated."""

    context: str
    template: str
    fields: Mapping[str, str]

    def __new__(cls, context: str, template: str, fields: Mapping[str, str] | None = None) -> Sentence:
        fields = dict(fields or {})
        text = (
            template.format_map({name: EnglishField(value) for name, value in fields.items()}) if fields else template
        )
        made = super().__new__(cls, text)
        made.context, made.template, made.fields = context, template, fields
        return made

    def __reduce__(self) -> tuple[Any, ...]:  # pickled (a forked replay's message) and deep-copied as a Sentence
        return (Sentence, (self.context, self.template, dict(self.fields)))


def QT_TRANSLATE_NOOP(context: str, text: str) -> Sentence:  # the name pyside6-lupdate looks for
    """Marks `text` for the window's translations in `context`: a Sentence without fields (`say` fills one)."""
    return Sentence(context, text)


def say(template: Sentence, **fields: str | int) -> Sentence:
    """`template` (made by QT_TRANSLATE_NOOP) filled with `fields` (an int is written as str() writes it)."""
    # a str field is kept as it is: a Sentence stays one (the window says it in its language too)
    return Sentence(
        template.context, template.template, {k: v if isinstance(v, str) else str(v) for k, v in fields.items()}
    )


def as_is(value: object) -> Sentence:
    """`value` said as it is in every language: data, not words (a pid or a uid is not a count to group, "pid 12345"
    never "12 345"; a path, a key or value quoted from a file, Python's or the system's own words)."""
    return Sentence("", str(value))


def joined(parts: Iterable[str], separator: str) -> Sentence:
    """`parts` one after another, `separator` between them (punctuation every language writes alike: "; ", ", ")."""
    parts = list(parts)
    template = separator.join(f"{{p{k}}}" for k in range(len(parts)))
    return Sentence("", template, {f"p{k}": p for k, p in enumerate(parts)})


class EnglishField:
    """A field in the English sentence: `{x}` writes it, `{x:one|other}` the form its count takes."""

    def __init__(self, value: str) -> None:
        self.value = value

    def __format__(self, spec: str) -> str:
        if "|" in spec:
            forms = spec.split("|")
            return forms[0] if self.value.replace(",", "") == "1" else forms[-1]
        if spec == "capital":
            return self.value[:1].upper() + self.value[1:]
        return self.value
