"""How the sources say their messages: Sentences (core/snapshot/sentences.py), English as the CLI prints them, that
the window says in its language; what is data (a pid, a path, an OS's or a probe's own words) is said as it is."""

from __future__ import annotations

from collections.abc import Mapping

from gpumem_gui.core.snapshot.sentences import QT_TRANSLATE_NOOP, Sentence, as_is, joined, say

__all__ = ["QT_TRANSLATE_NOOP", "Sentence", "as_is", "error_text", "joined", "rebuilt", "say"]


def error_text(error: BaseException | str) -> Sentence:
    """An exception's one message: the Sentence it carries (a ProbeError of ours), else its words as they are."""
    if isinstance(error, Sentence):
        return error
    if isinstance(error, BaseException) and len(error.args) == 1 and isinstance(error.args[0], Sentence):
        return error.args[0]
    return as_is(error)


def rebuilt(context: str, template: str, fields: Mapping[str, object]) -> Sentence:
    """A message that came as its template and fields (over JSON, from the probe, which runs without our marks):
    the Sentence again, its fields data as they are, never matched back from its English."""
    return Sentence(context, template, {name: as_is(value) for name, value in fields.items()})
