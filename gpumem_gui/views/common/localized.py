"""Numbers, sizes, percentages and plurals in the language the window is translated into (Babel, via teach's wording).

The language is read from the installed translators: every .qm of this package translates the "Language" context's
"en" into its own code, so a QTranslator switch changes the numbers with the words, and no translator means English.
"""

from __future__ import annotations

from PySide6 import QtCore

from gpumem_gui.core.snapshot.units import format_bytes
from gpumem_gui.teach.demos.wording import Count, localize, number, percent, size_units


def ui_language() -> str:
    """en, ro or fr: the language of the translators installed now."""
    # the one message every .qm translates into its own language code: lupdate finds it here
    return QtCore.QCoreApplication.translate("Language", "en")


def size(n: float) -> str:
    """`n` bytes as the language writes them: "1.5 GiB", ro "1,5 GiB", fr "1,5 Gio"."""
    return localize(format_bytes(n), ui_language())


def signed_size(n: float) -> str:
    """A byte difference with its sign: "+1.5 GiB", "−512 B"; "0" for none."""
    return "0" if n == 0 else ("+" if n > 0 else "−") + size(abs(n))


def num(value: float, decimals: int = 0) -> str:
    """A number grouped as the language groups it ("2,520", ro "2.520", fr "2 520")."""
    return number(value, ui_language(), decimals)


def pct(fraction: float, decimals: int = 0) -> str:
    """A fraction as a percentage: 0.419 -> "41.9%", ro and fr "41,9 %"."""
    return percent(fraction * 100, ui_language(), decimals)


def count(n: int) -> Count:
    """A count for a template: `{n}` writes it grouped, `{n:file|files}` the noun form it takes (ro one|few|other)."""
    return Count(n, ui_language())


def unit_name(name: str) -> str:
    """A byte unit ("MiB") as the language writes it: French counts octets ("Mio")."""
    return size_units(f"1 {name}", ui_language())[2:]
