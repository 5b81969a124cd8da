"""Rich text for Qt's HTML importer with French typography kept: the narrow no-break space (U+202F) survives."""

from __future__ import annotations

import re

NARROW_NBSP = "\u202f"

# Qt's HTML importer (QTextHtmlImporter::appendNodeText) turns every QChar::isSpace() character except U+00A0 into
# an ordinary, collapsible, breakable space under white-space:normal; an entity (&#8239;) is resolved first and goes
# the same way. Inside white-space:pre the character is inserted as it is, and the layout (UAX #14: U+202F glues)
# then never breaks at it. Only runs outside tags are wrapped, so an attribute holding one stays well-formed.
_OUTSIDE_TAGS = re.compile(r"(<[^>]*>)|\u202f+")


def _keep(m: re.Match[str]) -> str:
    return m.group(1) or f'<span style="white-space:pre">{m.group(0)}</span>'


def rich_text(html: str) -> str:
    """`html` with each narrow no-break space kept unbreakable by Qt; every rich-text label, browser and document
    of the window is given its HTML through this (plain-text widgets keep the character by themselves)."""
    if NARROW_NBSP not in html:
        return html
    return _OUTSIDE_TAGS.sub(_keep, html)
