"""The quiz panel's own words (buttons, hints, verdicts) in every quiz language, read and checked from a TOML file."""

from __future__ import annotations

import string
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from gpumem_gui.assets import RESOURCES
from gpumem_gui.teach.demos.wording import fill
from gpumem_gui.teach.quiz import CONCEPTS, LANGUAGES

INTERFACE_PATH = RESOURCES / "quiz_interface.toml"


def concept_key(name: str) -> str:
    """The interface key of a concept's name."""
    return f"concept_{name}"


# every interface key the panel uses, with the {fields} it fills in: the file must offer exactly these
INTERFACE_FIELDS: dict[str, frozenset[str]] = {
    "language_name": frozenset(),
    "language_label": frozenset(),
    "chooser_title": frozenset(),
    "chooser_hint": frozenset(),
    "chooser_progress": frozenset({"answered", "total", "right"}),
    "start": frozenset(),
    "continue": frozenset(),
    "see_results": frozenset(),
    "question_progress": frozenset({"number", "total"}),
    "score": frozenset({"right", "answered"}),
    "hint_choose": frozenset({"count"}),
    "hint_confirm": frozenset({"number"}),
    "hint_next": frozenset(),
    "hint_last": frozenset(),
    "verdict_right": frozenset(),
    "verdict_wrong": frozenset({"number"}),
    "explanation_chosen": frozenset({"number"}),
    "explanation_right": frozenset({"number"}),
    "previous": frozenset(),
    "next": frozenset(),
    "finish": frozenset(),
    "show_me": frozenset(),
    "show_me_tip": frozenset(),
    "back": frozenset(),
    "review_title": frozenset({"title"}),
    "review_score": frozenset({"right", "total", "percent"}),
    "review_unanswered": frozenset({"count"}),
    "review_question": frozenset({"number"}),
    "review_your_answer": frozenset({"answer"}),
    "review_right_answer": frozenset({"answer"}),
    "review_not_answered": frozenset(),
    "go_to_question": frozenset(),
    "start_again": frozenset(),
    "start_again_tip": frozenset(),
    # the round that brings back what was missed in every quiz (teach/quiz_session.py start_retry): its button's
    # label by what was missed, its tip, the review's list of the concepts, and the concepts a question brings back
    "retry_missed": frozenset({"questions", "predictions"}),
    "retry_missed_questions": frozenset({"questions"}),
    "retry_missed_predictions": frozenset({"predictions"}),
    "retry_missed_tip": frozenset({"concepts"}),
    "missed_concepts": frozenset({"concepts"}),
    "brings_back": frozenset({"count", "concepts"}),
    # the name of each concept of the quizzes' vocabulary (teach/quiz.py CONCEPTS)
    **{concept_key(name): frozenset() for name in CONCEPTS},
}


class InterfaceError(ValueError):
    """The panel's interface file is missing, unreadable, or lacks a text in some language."""


@dataclass(frozen=True)
class Interface:
    """The panel's own words: key -> language -> template with {fields}."""

    texts: Mapping[str, Mapping[str, str]]

    def __call__(self, key: str, lang: str, **fields: object) -> str:
        """Template `key` in `lang`: ints written as the language groups them (and `{n:one|other}` in the plural form
        they take), Figures (a percentage) localized, by the formatter every teaching text uses."""
        return fill(self.texts, key, lang, fields)

    def concepts(self, names: Sequence[str], lang: str) -> str:
        """The concepts' names in `lang`, listed with commas."""
        return ", ".join(self(concept_key(name), lang) for name in names)


def _fields(template: str) -> frozenset[str]:
    return frozenset(name for _, name, _, _ in string.Formatter().parse(template) if name is not None)


def load_interface(path: Path = INTERFACE_PATH) -> Interface:
    """Read the interface strings; InterfaceError names the key and language that is missing or wrong."""
    name = path.name
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise InterfaceError(f"{path}: cannot read the quiz interface texts: {exc.strerror or exc}") from exc
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise InterfaceError(f"{name}: not valid UTF-8 TOML: {exc}") from exc
    texts: dict[str, dict[str, str]] = {}
    for key in raw:
        if key not in INTERFACE_FIELDS:
            raise InterfaceError(f"{name}: unknown key {key!r} (the panel does not use it)")
    for key, expected in INTERFACE_FIELDS.items():
        entry = raw.get(key)
        if entry is None:
            raise InterfaceError(f"{name}: {key} is missing")
        if not isinstance(entry, dict):
            raise InterfaceError(f"{name}: {key} must be a table {{ en = ..., ro = ..., fr = ... }}")
        for lang in entry:
            if lang not in LANGUAGES:
                raise InterfaceError(f"{name}: {key}.{lang} is not a quiz language ({', '.join(LANGUAGES)})")
        texts[key] = {}
        for lang in LANGUAGES:
            text = entry.get(lang)
            if not isinstance(text, str) or not text.strip():
                raise InterfaceError(f"{name}: {key}.{lang} is missing or empty")
            try:
                found = _fields(text)
            except ValueError as exc:  # an unbalanced brace
                raise InterfaceError(f"{name}: {key}.{lang}: {exc}") from exc
            if found != expected:
                want = ", ".join(f"{{{f}}}" for f in sorted(expected)) or "no {fields}"
                raise InterfaceError(f"{name}: {key}.{lang} must use {want}, found {sorted(found)}")
            texts[key][lang] = text
    return Interface(texts)
