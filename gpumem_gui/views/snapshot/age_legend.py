"""The map's legend as rich text: the site colouring's (palette.LEGEND) or the age colouring's scale of the frame."""

from __future__ import annotations

from PySide6 import QtCore

from gpumem_gui.core.analysis.block_age import AGE_BASE, AgeBin
from gpumem_gui.views.common import palette
from gpumem_gui.views.common.language import filled, localized, translate
from gpumem_gui.views.common.rich_text import rich_text


def _tr(text: str) -> str:
    return QtCore.QCoreApplication.translate("Legend", text)


def _swatches(colours: tuple[str, ...]) -> str:
    return "".join(f'<span style="color:{c}">&#9632;</span>' for c in colours)


def site_legend() -> str:
    return "  ".join(f"{_swatches(colours)} {_tr(name)}" for name, colours in palette.LEGEND)


def duration(seconds: float) -> str:
    """A time ago as a person reads it: 3 µs, 4.5 ms, 12 s, 3.2 min, 1.5 h."""
    if seconds < 1e-3:
        return localized(f"{seconds * 1e6:.3g}") + " µs"
    if seconds < 1:
        return localized(f"{seconds * 1e3:.3g}") + " ms"
    if seconds < 120:
        return localized(f"{seconds:.3g}") + " s"
    return localized(f"{seconds / 60:.3g}") + " min" if seconds < 7200 else localized(f"{seconds / 3600:.3g}") + " h"


def _seconds(bin_: AgeBin) -> str:
    if bin_.seconds_ago is None or bin_.high <= 0:  # the cursor's own event: no time to tell
        return ""
    newest, oldest = bin_.seconds_ago
    if newest == oldest:
        return f" ({duration(newest)})"
    return " ({})".format(
        translate("Legend", "{newest} to {oldest}").format(newest=duration(newest), oldest=duration(oldest))
    )


def _ago(bin_: AgeBin) -> str:
    """The bin's events ago, as block_age names it, in the window's language."""
    if bin_.low < 0:
        return translate("Legend", "alive before recording began")
    if bin_.low == bin_.high:
        return filled(translate("Legend", "{low} events ago"), {"low": f"{bin_.low:,}"})
    return filled(translate("Legend", "{low} to {high} events ago"), {"low": f"{bin_.low:,}", "high": f"{bin_.high:,}"})


def age_legend(bins: tuple[AgeBin, ...]) -> str:
    """Allocated blocks by age before the cursor, youngest first; the free and the other codes as in the site one."""
    ages = "  ".join(
        f'<span style="white-space:nowrap">{_swatches((palette.AGE_HUES[b.code - AGE_BASE],))} {_ago(b)}'
        f"{_seconds(b)}</span>"
        for b in bins
    )
    others = "  ".join(f"{_swatches(colours)} {_tr(name)}" for name, colours in palette.LEGEND[1:])
    heading = translate("Legend", "allocated, by age:")
    return f"<b>{heading}</b> {ages}<br>{others}"


def map_legend(colouring: str, bins: tuple[AgeBin, ...]) -> str:
    """The legend for a frame coloured by `colouring` ("site" or "age", with its scale `bins`)."""
    return rich_text(age_legend(bins) if colouring == "age" and bins else site_legend())
