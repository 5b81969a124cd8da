"""The one exception the core raises for input it cannot use."""

from __future__ import annotations

from gpumem_gui.core.snapshot.sentences import QT_TRANSLATE_NOOP, Sentence, as_is, say

MAX_MESSAGE = 400  # characters: whatever a message quotes from the file, the line stays readable


class SnapshotError(Exception):
    """A snapshot that cannot be used. `str()` is one line: what is wrong, then the file in parentheses. A message
    that is a Sentence (the core's messages are) keeps its template: `str()` is a Sentence the window translates."""

    def __init__(self, message: str, source: str | None = None) -> None:
        message = shorten(message)
        super().__init__(message)
        self.message = message
        self.source = source

    def with_source(self, source: str) -> SnapshotError:
        return self if self.source else SnapshotError(self.message, source)

    def __str__(self) -> str:
        if not self.source:
            return self.message
        if isinstance(self.message, Sentence):  # glue: the file's name follows the message in every language
            return Sentence("", "{message} ({source})", {"message": self.message, "source": self.source})
        return f"{self.message} ({self.source})"


def shorten(text: str, limit: int = MAX_MESSAGE) -> str:
    """`text` on one line and at most `limit` characters (a value quoted from a hostile file can be any size). A
    Sentence stays one: its quoted fields are shortened, not its words (plain English only when that is not enough)."""
    if isinstance(text, Sentence):
        if "\n" not in text and len(text) <= limit:
            return text
        share = max(40, (limit - len(text.template)) // max(1, len(text.fields)))
        fields = {name: shorten(value, share) for name, value in text.fields.items()}
        made = Sentence(text.context, text.template, fields)
        if "\n" not in made and len(made) <= limit:
            return made
        text = str(made)  # a plain str: the English, cut below
    line = " ".join(text.split("\n")) if "\n" in text else text
    return line if len(line) <= limit else line[: limit - 3] + "..."


def error(template: Sentence, **fields: str | int) -> SnapshotError:
    """A SnapshotError saying `template` (QT_TRANSLATE_NOOP("SnapshotError", ...)) filled with `fields`."""
    return SnapshotError(say(template, **fields))


def a_type(value: object) -> Sentence:
    """What `value` is, by its Python type: "a list", "a NoneType" (the type's name is data, said as it is)."""
    return say(QT_TRANSLATE_NOOP("SnapshotError", "a {type}"), type=type(value).__name__)


def changed_while_read(names: str) -> str:
    """What a reader killed by SIGBUS means: the mapped file was cut short under it (a job writing it again)."""
    return say(
        QT_TRANSLATE_NOOP(
            "SnapshotError",
            "{names} changed while it was read (it is shorter than when it was opened); "
            "open it again once it is written",
        ),
        names=names,
    )


def reader_stopped_by(number: int) -> str:
    """A reader process killed by signal `number`, in words: `SIGKILL (out of memory? ...)`."""
    import signal  # noqa: PLC0415 (only the processes that watch readers need it)

    if number not in signal.valid_signals():
        return say(QT_TRANSLATE_NOOP("SnapshotError", "signal {number}"), number=number)
    name = signal.Signals(number).name
    if number == getattr(signal, "SIGKILL", -1):
        return say(
            QT_TRANSLATE_NOOP("SnapshotError", "{signal} (out of memory? the system's OOM killer sends it)"),
            signal=as_is(name),  # a signal's name, as it is
        )
    return name


def printable(text: str) -> str:
    """`text` safe to print or show: control characters (a newline, a terminal's escape) and the bytes of a file name
    that are not UTF-8 (which Python holds as lone surrogates) written as backslash escapes, `\\n`, `\\x1b`, `\\xff`;
    everything else as it is. A name made to move the cursor or break a line shows as what it is."""
    if text.isprintable():
        return text
    out = []
    for ch in text:
        code = ord(ch)
        if ch.isprintable():
            out.append(ch)
        elif 0xDC80 <= code <= 0xDCFF:  # os.fsdecode's escape of the byte code - 0xDC00
            out.append(f"\\x{code - 0xDC00:02x}")
        else:
            out.append(ascii(ch)[1:-1])
    return "".join(out)


def frame_not_dict(frame: object) -> Sentence:
    """What both readers say of a stack frame that is not a dict (stacks.py and the compiled _stack_intern.pxi)."""
    return say(QT_TRANSLATE_NOOP("SnapshotError", "a stack frame is {type}, not a dict"), type=a_type(frame))


def frames_not_list(frames: object) -> Sentence:
    """What both readers say of a 'frames' value that is not a list."""
    return say(QT_TRANSLATE_NOOP("SnapshotError", "a 'frames' value is {type}, not a list"), type=a_type(frames))
