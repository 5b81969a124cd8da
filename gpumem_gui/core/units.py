"""Byte counts for people: 1024-based units with one decimal, and the exact count beside them."""

from __future__ import annotations

_UNITS = ("B", "KiB", "MiB", "GiB", "TiB", "PiB")


def format_bytes(n: float) -> str:
    """`1536` -> `1.5 KiB`; negative values keep their sign."""
    sign = "-" if n < 0 else ""
    value = float(abs(n))
    for unit in _UNITS:
        if value < 1024 or unit == _UNITS[-1]:
            return f"{sign}{int(value)} B" if unit == "B" else f"{sign}{value:.1f} {unit}"
        value /= 1024
    raise AssertionError("unreachable")


def format_bytes_exact(n: int) -> str:
    """`1536` -> `1.5 KiB (1,536 bytes)`."""
    return f"{format_bytes(n)} ({n:,} bytes)"


def format_percent(fraction: float) -> str:
    return f"{fraction * 100:.1f}%"
