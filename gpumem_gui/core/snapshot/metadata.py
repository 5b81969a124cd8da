"""A trace entry's user_metadata given as a dict: its key/value pairs, and the one line that shows them."""

from __future__ import annotations

import json
from typing import Any

from gpumem_gui.core.snapshot.checks import MAX_METADATA_TEXT, shown

MetadataPairs = tuple[tuple[str, str], ...]


def metadata_pairs(value: dict[str, Any]) -> MetadataPairs:
    """Each key with its value as text (a string as it is, anything else as compact JSON), in the dict's order."""
    return tuple((key, _value_text(item)) for key, item in value.items())


def metadata_line(pairs: MetadataPairs) -> str:
    """`key: value; key: value`, as PyTorch's viewer lists a dict's lines, cut at MAX_METADATA_TEXT characters."""
    line = "; ".join(f"{key}: {text}" for key, text in pairs)
    return line if len(line) <= MAX_METADATA_TEXT else line[: MAX_METADATA_TEXT - 3] + "..."


def _value_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, default=shown)
