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


# the byte units by the names the app writes them: format_bytes's 1024-based ones, and the decimal ones of the
# allocator's settings (max_split_size_mb's "12 MB") and of a GPU's spec sheet ("80GB"); the window's language
# writes each its own way (views.common.language.parse_size reads them back through that writer)
UNIT_BYTES = {name: 1 << (10 * power) for power, name in enumerate(_UNITS)}
UNIT_BYTES |= {"KB": 1000, "MB": 1000**2, "GB": 1000**3, "TB": 1000**4}
# read in any case, and a 1024-based unit by its first letter too ("1.5g")
SUFFIXES = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40} | {
    name.lower(): n for name, n in UNIT_BYTES.items()
}


def parse_bytes(text: str) -> int:
    """`80GiB`, `80 GB`, `512MiB`, `1.5g` or a plain byte count."""
    cleaned = "".join(text.lower().split())  # any space: "512 MiB" copied from a Romanian label has a no-break one
    number = cleaned.rstrip("abcdefghijklmnopqrstuvwxyz")
    unit = cleaned[len(number) :]
    if not number or unit not in SUFFIXES:
        raise ValueError(f"not a size: {text!r} (try 80GiB, 512MiB or a byte count)")
    return int(float(number) * SUFFIXES[unit])
