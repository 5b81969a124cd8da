"""The one exception the core raises for input it cannot use."""

from __future__ import annotations

MAX_MESSAGE = 400  # characters: whatever a message quotes from the file, the line stays readable


class SnapshotError(Exception):
    """A snapshot that cannot be used. `str()` is one line: what is wrong, then the file in parentheses."""

    def __init__(self, message: str, source: str | None = None) -> None:
        message = shorten(message)
        super().__init__(message)
        self.message = message
        self.source = source

    def with_source(self, source: str) -> SnapshotError:
        return self if self.source else SnapshotError(self.message, source)

    def __str__(self) -> str:
        return f"{self.message} ({self.source})" if self.source else self.message


def shorten(text: str, limit: int = MAX_MESSAGE) -> str:
    """`text` on one line and at most `limit` characters (a value quoted from a hostile file can be any size)."""
    line = " ".join(text.split("\n")) if "\n" in text else text
    return line if len(line) <= limit else line[: limit - 3] + "..."


def changed_while_read(names: str) -> str:
    """What a reader killed by SIGBUS means: the mapped file was cut short under it (a job writing it again)."""
    return (
        f"{names} changed while it was read (it is shorter than when it was opened); open it again once it is written"
    )


def reader_stopped_by(number: int) -> str:
    """A reader process killed by signal `number`, in words: `SIGKILL (out of memory? ...)`."""
    import signal  # noqa: PLC0415 (only the processes that watch readers need it)

    name = signal.Signals(number).name if number in signal.valid_signals() else f"signal {number}"
    hint = " (out of memory? the system's OOM killer sends it)" if number == getattr(signal, "SIGKILL", -1) else ""
    return f"{name}{hint}"


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
