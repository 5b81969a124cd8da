"""Every teaching template in every language (predictions, the quizzes' captions, the lab's API caption, the quiz
panel's words) filled with sample numbers through the one formatter: group and decimal separators, percent signs,
French sizes in octets, and each counted noun in its CLDR plural form (issue 34, item 2)."""

from __future__ import annotations

import re
import string
from collections.abc import Iterator

import pytest

from gpumem_gui.teach.demos.wording import Count, Figure, fill
from gpumem_gui.teach.predict import load_predictions
from gpumem_gui.teach.quiz import LANGUAGES, load_quizzes
from gpumem_gui.teach.quiz_interface import load_interface
from gpumem_gui.views.teach.lab.captions import API_TEMPLATES

# the expected writing of each sample, by hand from CLDR's number symbols (en: "," and "."; ro: "." and ","; fr:
# U+202F and ",", a no-break space before "%") and the units the French texts use (Kio, Mio, Gio), tied to their
# number by a no-break space (U+00A0) in ro and fr
SIZE = {"en": "12,345.5 MiB", "ro": "12.345,5\u00a0MiB", "fr": "12\u202f345,5\u00a0Mio"}
PERCENT = {"en": "41.9%", "ro": "41,9\u00a0%", "fr": "41,9\u00a0%"}
COUNT = {"en": "2,520", "ro": "2.520", "fr": "2\u202f520"}
# CLDR plural categories, by hand from the rules (ro: one = 1; few = 0, or n != 1 with n % 100 in 1..19; other: the
# rest, which takes "de": "20 de straturi", "2.520 de alocări"; fr: one = 0 and 1), and the forms a template writes
# them in ("one|other", ro "one|few|other")
CATEGORIES = {
    "en": {0: "other", 1: "one", 2: "other", 21: "other", 2520: "other"},
    "fr": {0: "one", 1: "one", 2: "other", 21: "other", 2520: "other"},
    "ro": {0: "few", 1: "one", 2: "few", 19: "few", 20: "other", 21: "other", 101: "few", 120: "other", 2520: "other"},
}
FORMS = {"en": ("one", "other"), "fr": ("one", "other"), "ro": ("one", "few", "other")}


def _templates() -> Iterator[tuple[str, dict[str, str]]]:
    """(where, language -> template) of every template the app fills with numbers."""
    predictions = load_predictions()
    for (quiz, question), p in predictions.items.items():
        texts = {"prompt": p.prompt, "reveal": p.reveal, "none": p.none}
        texts.update({f"options[{i}]": o for i, o in enumerate(p.options)})
        for name, text in texts.items():
            if text is not None:
                yield f"predictions {quiz}.{question}.{name}", {lang: text[lang] for lang in LANGUAGES}
    for key, text in predictions.interface.items():
        yield f"predictions interface.{key}", {lang: text[lang] for lang in LANGUAGES}
    for quiz in load_quizzes():
        for question in quiz.questions:
            for key, text in (question.map_caption or {}).items():
                yield f"{quiz.id}.{question.id} map_caption.{key}", {lang: text[lang] for lang in LANGUAGES}
    for key, by_lang in API_TEMPLATES.items():
        yield f"lab api.{key}", dict(by_lang)
    for key, by_lang in load_interface().texts.items():
        yield f"quiz_interface.{key}", dict(by_lang)


TEMPLATES = [t for t in _templates() if any(name for _, name, _, _ in string.Formatter().parse(t[1]["en"]))]


def _fields(template: str) -> dict[str, list[str]]:
    """Each placeholder and its plural forms ([] for a plain one)."""
    found: dict[str, list[str]] = {}
    for _, name, spec, _ in string.Formatter().parse(template):
        if name:
            forms = spec.split("|") if spec and "|" in spec else []
            found[name] = forms or found.get(name, [])
    return found


def test_there_are_templates_of_every_kind() -> None:
    kinds = {where.split()[0].split(".")[0] for where, _ in TEMPLATES}
    assert {"predictions", "gpu-memory", "gradient-checkpointing", "lab", "quiz_interface"} <= kinds
    assert len(TEMPLATES) > 60


@pytest.mark.parametrize(("where", "texts"), TEMPLATES, ids=[w for w, _ in TEMPLATES])
def test_every_template_writes_numbers_as_its_language_does(where: str, texts: dict[str, str]) -> None:
    for lang in LANGUAGES:
        fields = _fields(texts[lang])
        plain = [name for name, forms in fields.items() if not forms]
        counted = {name: Count(7, lang) for name, forms in fields.items() if forms}
        for sample, expected in ((Figure("12,345.5 MiB"), SIZE), (Figure("41.9%"), PERCENT), (2520, COUNT)):
            if not plain:
                break
            filled = fill({"t": texts}, "t", lang, {**dict.fromkeys(plain, sample), **counted})
            assert expected[lang] in filled, f"{where}.{lang}: {expected[lang]!r} not in {filled!r}"
            for other in set(expected.values()) - {expected[lang]}:  # another language's writing
                assert other not in filled, f"{where}.{lang}: {other!r} in {filled!r}"


@pytest.mark.parametrize(("where", "texts"), TEMPLATES, ids=[w for w, _ in TEMPLATES])
def test_every_counted_noun_takes_its_cldr_plural_form(where: str, texts: dict[str, str]) -> None:
    for lang in LANGUAGES:
        fields = _fields(texts[lang])
        for name, forms in fields.items():
            if not forms:
                continue
            specs = re.findall(r"\{" + name + r":([^}]*)\}", texts[lang])
            for spec in specs:
                assert len(spec.split("|")) == len(FORMS[lang]), f"{where}.{lang}: {name}:{spec}, needs {FORMS[lang]}"
            for n, category in CATEGORIES[lang].items():
                values: dict[str, object] = {other: 3 for other in fields if other != name}
                # the oracle: each of this noun's forms chosen by hand, the number written by hand
                index = FORMS[lang].index(category)
                by_hand = re.sub(r"\{" + name + r":([^}]*)\}", lambda m, i=index: m.group(1).split("|")[i], texts[lang])
                by_hand = by_hand.replace("{" + name + "}", COUNT[lang] if n == 2520 else str(n))
                expected = fill({"t": {lang: by_hand}}, "t", lang, values)
                filled = fill({"t": texts}, "t", lang, {**values, name: n})
                assert filled == expected, f"{where}.{lang}: {name}={n} ({category})"


def test_french_headings_keep_their_colon_on_the_line() -> None:
    """The review's "Votre réponse (4): …": the heading the panel writes before a choice carries its own colon, after
    a narrow no-break space in French so that the colon never wraps to a line of its own."""
    texts = load_interface().texts
    for key in ("explanation_chosen", "explanation_right"):
        assert texts[key]["en"].endswith("):") and texts[key]["ro"].endswith("):"), key
        assert texts[key]["fr"].endswith(")\u202f:"), key


def test_french_keeps_its_high_punctuation_on_the_line() -> None:
    """French sets : ; ? ! and the closing » after a (narrow) no-break space, and the opening « before one, so that
    none of them wraps to a line of its own: in every French text and template (193 plain spaces in the review)."""
    from gpumem_gui.views.teach.lab.captions import api_waiting  # noqa: PLC0415
    from tests.conftest import quiz_texts  # noqa: PLC0415

    texts = [(where, t["fr"]) for where, t in TEMPLATES]
    texts += [(f"{quiz.id} {where}", text.fr) for quiz in load_quizzes() for where, text in quiz_texts(quiz)]
    texts += [("lab api_waiting", api_waiting()["fr"])]
    loose = [(where, m.group(0)) for where, t in texts for m in re.finditer(r".{0,12}(?: [:;?!»]|« ).{0,8}", t)]
    assert not loose, loose
