"""The one exception the core raises for input it cannot use."""

from __future__ import annotations


class SnapshotError(Exception):
    """A snapshot that cannot be used. `str()` is one line: what is wrong, then the file in parentheses."""

    def __init__(self, message: str, source: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.source = source

    def with_source(self, source: str) -> SnapshotError:
        return self if self.source else SnapshotError(self.message, source)

    def __str__(self) -> str:
        return f"{self.message} ({self.source})" if self.source else self.message
