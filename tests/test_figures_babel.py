"""The figures a list writes per row (wording.number, percent) are Babel's format_decimal / format_percent called
directly, character for character, in every language: for thousands of random values, zero, negatives, halves that
round to even, huge ones and fractions."""

from __future__ import annotations

import decimal
import random

import pytest
from babel import Locale
from babel.numbers import format_decimal, format_percent

from gpumem_gui.teach.demos.wording import number, percent

LANGS = ("en", "ro", "fr")


def _values() -> list[float | int]:
    rng = random.Random(34)
    values: list[float | int] = [0, 0.0, -0.0, 1, -1, 999, 1000, -1000, 10**17, -(10**17) + 1, 10**18, 2**63 - 1]
    values += [0.5, 1.5, 2.5, -2.5, 0.05, 0.15, 0.25, 0.35, 1.005, 2.675, 999.95, 999.995, -0.004, 1e-9, 1e15 + 0.5]
    values += [1.5e20, -3.25e22, 1e-300, 12345678.9, 0.1 + 0.2]
    for _ in range(1500):
        values.append(rng.randrange(-(1 << 50), 1 << 50))
        values.append(rng.uniform(-1e6, 1e6))
        values.append(round(rng.uniform(-1e4, 1e4), rng.randrange(0, 4)))
        values.append(rng.randrange(0, 1 << 40) / 1024 ** rng.randrange(0, 5))
    return values


VALUES = _values()


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("decimals", [0, 1, 2, 3])
def test_a_number_is_babel_s(lang: str, decimals: int) -> None:
    pattern = "#,##0" + ("." + "0" * decimals if decimals else "")
    locale = Locale.parse(lang)
    for value in VALUES:
        assert number(value, lang, decimals) == format_decimal(value, format=pattern, locale=locale), (value, lang)
    assert number(decimal.Decimal("2.5"), lang, decimals) == format_decimal(decimal.Decimal("2.5"), pattern, locale)


@pytest.mark.parametrize("lang", LANGS)
def test_a_percentage_is_babel_s(lang: str) -> None:
    locale = Locale.parse(lang)
    base = str(locale.percent_formats[None].pattern)
    for decimals in (0, 1, 2):
        at = base.rindex("0") + 1
        pattern = base[:at] + ("." + "0" * decimals if decimals else "") + base[at:]
        for value in VALUES:
            fraction = value / 100
            expected = format_percent(fraction, format=pattern, locale=locale)
            assert percent(value, lang, decimals) == expected, (value, lang, decimals)
            if decimals == 0:  # the locale's own pattern, as Babel picks it
                assert expected == format_percent(fraction, locale=locale)


@pytest.mark.parametrize("lang", LANGS)
def test_what_is_no_finite_figure_is_babel_s_too(lang: str) -> None:
    locale = Locale.parse(lang)
    for value in (float("inf"), float("-inf")):
        assert number(value, lang, 1) == format_decimal(value, format="#,##0.0", locale=locale)


def test_the_symbols_are_the_languages() -> None:  # hand-written: what the rows show
    grouped = ["-1,234,567.2", "-1.234.567,2", "-1\u202f234\u202f567,2"]
    assert [number(-1234567.25, lang, 1) for lang in LANGS] == grouped
    # 41.95 rounds half to even; CLDR puts a no-break space before % in fr, as in ro
    assert [percent(41.95, lang, 1) for lang in LANGS] == ["42.0%", "42,0\u00a0%", "42,0\u00a0%"]
