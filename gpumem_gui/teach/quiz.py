"""Guided quizzes: read the TOML files in quizzes/ into frozen values, refusing any that break the schema."""

from __future__ import annotations

import datetime
import difflib
import re
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from gpumem_gui import assets
from gpumem_gui.teach.lab.choices import FOCUSES

LANGUAGES: tuple[str, ...] = ("en", "ro", "fr")

# each name is a scene the quiz panel knows how to stage on the map (see quizzes/README.md)
DEMOS: frozenset[str] = frozenset(
    {
        "fragmented_oom",
        "cache_reuse",
        "split_blocks_oom",
        "expandable_whatif",
        "kv_cache",
        "checkpointing_lab",
        "empty_cache_live_tensor",
        "reserved_vs_allocated",
    }
)
LAB_DEMO = "checkpointing_lab"

# the shared vocabulary of a question's `concepts` (quizzes/README.md): what a learner misses is remembered by these
# names, so that a missed concept brings back the questions of every quiz that teaches it, not only the one missed.
# Each has a name in every language in resources/quiz_interface.toml (concept_<name>), which the panel shows
CONCEPTS: tuple[str, ...] = (
    "fragmentation",
    "caching-allocator",
    "split-blocks",
    "max-split-size",
    "expandable-segments",
    "empty-cache",
    "reserved-vs-allocated",
    "kv-cache",
    "activations",
    "checkpointing",
    "recomputation",
    "selective-checkpointing",
    "autocast",
    "fsdp",
)
LAB_FOCUSES: frozenset[str] = frozenset(FOCUSES)  # the lab's own list: a quiz can focus only what it can show

_ID = re.compile(r"[a-z0-9_-]+")
_QUIZ_KEYS = ("id", "source", "title", "intro", "questions")
_QUESTION_KEYS = ("id", "concept", "concepts", "demo", "focus", "prompt", "answer", "caption", "map_caption", "choices")
_CHOICE_KEYS = ("text", "explanation")
_MIN_CHOICES = 2
# tomllib's messages end with where the parser stopped; the line goes to the front of ours
_TOML_POSITION = re.compile(r"\s*\(at line (\d+), column (\d+)\)$")
_TOML_END = re.compile(r"\s*\(at end of document\)$")


class QuizError(ValueError):
    """A quiz file that cannot be used; the message names the file, the question (number and id) and the field."""


@dataclass(frozen=True)
class Text:
    """One text in every language of the quiz."""

    en: str
    ro: str
    fr: str

    def __getitem__(self, lang: str) -> str:
        if lang not in LANGUAGES:
            raise KeyError(lang)
        text: str = getattr(self, lang)
        return text

    # (language, text) pairs; without this, iter() would fall back to __getitem__(0) and raise KeyError
    def __iter__(self) -> Iterator[tuple[str, str]]:
        return ((lang, getattr(self, lang)) for lang in LANGUAGES)


@dataclass(frozen=True)
class Choice:
    text: Text
    explanation: Text


@dataclass(frozen=True)
class Question:
    id: str
    concept: str
    demo: str
    focus: str | None
    prompt: Text
    answer: int
    choices: tuple[Choice, ...]
    caption: Text | None
    # the demo's caption templates, name -> text with {placeholders} the demo fills from the facts it computed
    # (teach/demos/captions.py says which names and placeholders each demo uses)
    map_caption: Mapping[str, Text] = field(default_factory=dict, hash=False)
    # what the question teaches, in the words of CONCEPTS; a quiz written without them has none (the bundled ones
    # all have some: tests/test_quiz_concepts.py)
    concepts: tuple[str, ...] = ()


@dataclass(frozen=True)
class Quiz:
    id: str
    title: Text
    intro: Text
    questions: tuple[Question, ...]
    path: Path


def _toml_type(value: object) -> str:
    # the user wrote TOML, so wrong types are named in TOML's words, not Python's
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a float"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, datetime.datetime | datetime.date | datetime.time):
        return "a date/time"
    return type(value).__name__


def _suggest(key: str, known: tuple[str, ...]) -> str:
    close = difflib.get_close_matches(key, known, n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else f"; expected one of {', '.join(known)}"


class _Place:
    """Where in a file a value was read, so every error message can say so."""

    def __init__(self, file: str, question: int | None = None, question_id: str | None = None) -> None:
        self.file = file
        self.question = question
        self.question_id = question_id

    def error(self, problem: str) -> QuizError:
        where = self.file
        if self.question is not None:
            where += f": question {self.question}"
            if self.question_id:
                where += f" ({self.question_id})"
        return QuizError(f"{where}: {problem}")

    def check_keys(self, table: Mapping[str, object], known: tuple[str, ...], prefix: str) -> None:
        for key in table:
            if key not in known:
                raise self.error(f"unknown key {prefix}{key}{_suggest(key, known)}")

    def string(self, table: Mapping[str, object], key: str, field: str) -> str:
        if key not in table:
            raise self.error(f"{field} is missing")
        value = table[key]
        if not isinstance(value, str):
            raise self.error(f"{field} must be a string, not {_toml_type(value)}")
        value = value.strip()
        if not value:
            raise self.error(f"{field} is empty")
        return value

    def identifier(self, table: Mapping[str, object], key: str, field: str) -> str:
        value = self.string(table, key, field)
        if not _ID.fullmatch(value):
            raise self.error(f"{field} {value!r} may hold only a-z, 0-9, '_' and '-'")
        return value

    def concepts(self, table: Mapping[str, object], key: str) -> tuple[str, ...]:
        """An optional array of names from CONCEPTS, none twice; () when the key is absent."""
        if key not in table:
            return ()
        value = table[key]
        if not isinstance(value, list):
            raise self.error(f"{key} must be an array of strings, not {_toml_type(value)}")
        if not value:
            raise self.error(f"{key} is empty; leave it out or name at least one concept")
        names: list[str] = []
        for i, name in enumerate(value):
            if not isinstance(name, str):
                raise self.error(f"{key}[{i}] must be a string, not {_toml_type(name)}")
            if name not in CONCEPTS:
                raise self.error(f"{key}[{i}] {name!r} is not in the concept vocabulary{_suggest(name, CONCEPTS)}")
            if name in names:
                raise self.error(f"{key}[{i}] {name!r} is named twice")
            names.append(name)
        return tuple(names)

    def table(self, table: Mapping[str, object], key: str, field: str) -> dict[str, object]:
        if key not in table:
            raise self.error(f"{field} is missing")
        value = table[key]
        if not isinstance(value, dict):
            raise self.error(f"{field} must be a table, not {_toml_type(value)}")
        return value

    def text(self, table: Mapping[str, object], key: str, field: str) -> Text:
        if key in table and not isinstance(table[key], dict):
            found = _toml_type(table[key])
            raise self.error(f"{field} must be a table with {', '.join(LANGUAGES)}, not {found}")
        raw = self.table(table, key, field)
        for lang in raw:
            if lang not in LANGUAGES:
                raise self.error(f"{field}.{lang} is not a language of the quizzes ({', '.join(LANGUAGES)})")
        en, ro, fr = (self.string(raw, lang, f"{field}.{lang}") for lang in LANGUAGES)
        return Text(en=en, ro=ro, fr=fr)

    def tables(self, table: Mapping[str, object], key: str, field: str) -> list[dict[str, object]]:
        if key not in table:
            raise self.error(f"{field} is missing")
        value = table[key]
        if not isinstance(value, list):
            raise self.error(f"{field} must be an array of tables ([[{field}]]), not {_toml_type(value)}")
        for i, item in enumerate(value):
            if not isinstance(item, dict):
                raise self.error(f"{field}[{i}] must be a table, not {_toml_type(item)}")
        return value


def _parse_choice(place: _Place, raw: dict[str, object], index: int) -> Choice:
    prefix = f"choices[{index}]."
    place.check_keys(raw, _CHOICE_KEYS, prefix)
    return Choice(
        text=place.text(raw, "text", f"{prefix}text"),
        explanation=place.text(raw, "explanation", f"{prefix}explanation"),
    )


def _parse_question(file: str, number: int, raw: dict[str, object]) -> Question:
    place = _Place(file, number)
    # name the question by its id in every message, even the one about a typo in some other key
    tentative = raw.get("id")
    if isinstance(tentative, str) and _ID.fullmatch(tentative.strip()):
        place.question_id = tentative.strip()
    place.check_keys(raw, _QUESTION_KEYS, "")
    qid = place.identifier(raw, "id", "id")

    concept = place.string(raw, "concept", "concept")
    concepts = place.concepts(raw, "concepts")
    demo = place.string(raw, "demo", "demo")
    if demo not in DEMOS:
        raise place.error(f"demo {demo!r} is not a known demo{_suggest(demo, tuple(sorted(DEMOS)))}")
    focus: str | None = None
    if "focus" in raw:
        focus = place.string(raw, "focus", "focus")
        if demo != LAB_DEMO:
            raise place.error(f"focus {focus!r} is given, but focus applies only to demo {LAB_DEMO!r}, not {demo!r}")
        if focus not in LAB_FOCUSES:
            raise place.error(f"focus {focus!r} is not a lab view{_suggest(focus, tuple(sorted(LAB_FOCUSES)))}")
    prompt = place.text(raw, "prompt", "prompt")
    caption = place.text(raw, "caption", "caption") if "caption" in raw else None
    map_caption: dict[str, Text] = {}
    if "map_caption" in raw:
        templates = place.table(raw, "map_caption", "map_caption")
        for name, entry in templates.items():
            if not _ID.fullmatch(name):
                raise place.error(f"map_caption.{name}: a template name may hold only a-z, 0-9, '_' and '-'")
            place.text(templates, name, f"map_caption.{name}")  # checks it
            assert isinstance(entry, dict)
            # unstripped: a clause the demo appends may start with its own separator ("; ", " (")
            map_caption[name] = Text(**{lang: str(entry[lang]) for lang in LANGUAGES})

    raw_choices = place.tables(raw, "choices", "choices")
    if len(raw_choices) < _MIN_CHOICES:
        count = f"{len(raw_choices)} {'entry' if len(raw_choices) == 1 else 'entries'}"
        raise place.error(f"choices has only {count}; a question needs at least {_MIN_CHOICES}")
    choices = tuple(_parse_choice(place, item, i) for i, item in enumerate(raw_choices))

    if "answer" not in raw:
        raise place.error("answer is missing")
    answer = raw["answer"]
    # bool is an int to Python, but `answer = true` is a mistake, not choice 1
    if isinstance(answer, bool) or not isinstance(answer, int):
        raise place.error(f"answer must be an integer (0-based choice index), not {_toml_type(answer)}")
    if not 0 <= answer < len(choices):
        raise place.error(f"answer {answer} is out of range: choices are numbered 0 to {len(choices) - 1}")

    return Question(
        id=qid,
        concept=concept,
        demo=demo,
        focus=focus,
        prompt=prompt,
        answer=answer,
        choices=choices,
        caption=caption,
        map_caption=map_caption,
        concepts=concepts,
    )


def _read_toml(path: Path) -> dict[str, object]:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise QuizError(f"{path.name}: cannot read the file: {exc.strerror or exc}") from exc
    try:
        return tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise QuizError(f"{path.name}: not UTF-8 text (byte {exc.start})") from exc
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        position = _TOML_POSITION.search(message)
        if position:
            problem = message[: position.start()]
            raise QuizError(
                f"{path.name}: line {position.group(1)}: TOML syntax error: {problem} (column {position.group(2)})"
            ) from exc
        end = _TOML_END.search(message)
        problem = message[: end.start()] if end else message
        raise QuizError(f"{path.name}: TOML syntax error at the end of the file: {problem}") from exc


def load_quiz(path: Path) -> Quiz:
    """Read and check one quiz file; QuizError says exactly what is wrong and where."""
    path = Path(path)
    raw = _read_toml(path)
    place = _Place(path.name)
    place.check_keys(raw, _QUIZ_KEYS, "")
    quiz_id = place.identifier(raw, "id", "id")
    place.string(raw, "source", "source")
    title = place.text(raw, "title", "title")
    intro = place.text(raw, "intro", "intro")
    raw_questions = place.tables(raw, "questions", "questions")
    if not raw_questions:
        raise place.error("questions is empty; a quiz needs at least one [[questions]]")

    questions: list[Question] = []
    numbers: dict[str, int] = {}
    for number, item in enumerate(raw_questions, start=1):
        question = _parse_question(path.name, number, item)
        if question.id in numbers:
            raise _Place(path.name, number, question.id).error(
                f"id {question.id!r} is already used by question {numbers[question.id]}"
            )
        numbers[question.id] = number
        questions.append(question)
    return Quiz(id=quiz_id, title=title, intro=intro, questions=tuple(questions), path=path)


def load_quizzes(directory: Path = assets.QUIZZES) -> list[Quiz]:
    """Every *.toml quiz in `directory`, sorted by file name; two files may not share a quiz id."""
    directory = Path(directory)
    if not directory.is_dir():
        raise QuizError(f"{directory}: no such quiz directory")
    quizzes: list[Quiz] = []
    files: dict[str, str] = {}
    for path in sorted(directory.glob("*.toml"), key=lambda p: p.name):
        quiz = load_quiz(path)
        if quiz.id in files:
            raise QuizError(f"{path.name}: id {quiz.id!r} is already used by {files[quiz.id]}")
        files[quiz.id] = path.name
        quizzes.append(quiz)
    return quizzes


def find_quiz(quiz_id: str, directory: Path = assets.QUIZZES) -> Quiz:
    """The quiz with this id; QuizError lists the ids there are when it is absent."""
    quizzes = load_quizzes(directory)
    for quiz in quizzes:
        if quiz.id == quiz_id:
            return quiz
    known = ", ".join(q.id for q in quizzes) or "none"
    raise QuizError(f"no quiz with id {quiz_id!r} in {Path(directory)} (known: {known})")
