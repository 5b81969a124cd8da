"""Block search: a 0x or decimal address inside a block, a size range like 1MiB-20MiB, a site as the app prints it
(`model.py:54`, `model.py:54:forward`, `model.py:88 via einops/_backends.py:288`), or text in a live block's stack
or its site's name."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

from gpumem_gui.core.snapshot.model import AllocatorState, BlockState, Frame, StackTable
from gpumem_gui.core.snapshot.stacks import short_site, stack_sites
from gpumem_gui.core.snapshot.units import parse_bytes


def search_blocks(
    state: AllocatorState, stacks: StackTable, text: str, read_size: Callable[[str], int] = parse_bytes
) -> npt.NDArray[np.bool_] | None:
    """Mask of the blocks matching `text` (None for an empty search).

    An address that does not parse matches nothing; a range that does not parse is searched as stack text
    (a frame name may well contain a dash). A range's sizes are read by `read_size`: English by default; the
    window hands down its language's reader (views.common.language.parse_size: "1,5 Gio-2 Gio"), which the
    document, Qt-free and below the views, cannot know."""
    text = text.strip()
    b = state.blocks
    if not text:
        return None
    addr = parse_address(text)
    if text.lower().startswith("0x"):
        if addr is None:
            return np.zeros(len(b), bool)
        return (b.address <= addr) & (addr < b.address + b.size)
    if addr is not None:
        # a decimal address, as PyTorch's viewer and its trace print them; a number inside no block (a line number)
        # is searched as stack text
        inside: npt.NDArray[np.bool_] = (b.address <= addr) & (addr < b.address + b.size)
        if inside.any():
            return inside
    if "-" in text:
        lo, _, hi = text.partition("-")
        try:
            return (b.size >= read_size(lo)) & (b.size <= read_size(hi))
        except ValueError:
            pass
    needle = text.lower()
    sites, labels = stack_sites(stacks)
    by_label = {k for k, label in enumerate(labels) if needle in label.lower() or needle in short_site(label).lower()}
    located = _located(text)
    matching = [
        i
        for i in range(len(stacks))
        if int(sites[i]) in by_label
        or any(needle in f.name.lower() or needle in f.filename.lower() for f in stacks.stack(i))
        or (located is not None and located(stacks.stack(i), labels[sites[i]] if sites[i] >= 0 else ""))
    ]
    found: npt.NDArray[np.bool_] = np.isin(b.stack, matching) & (b.state != BlockState.INACTIVE)
    return found


_DECIMAL = re.compile(r"^\d{1,3}(?:[,_]\d{3})+$|^\d+$")  # 139934612144128, 139,934,612,144,128 or with _


def parse_address(text: str) -> int | None:
    """The address `text` names: `0x7f3a00000000`, or decimal `139887...` (commas or _ between thousands allowed);
    None for any other text."""
    text = text.strip()
    try:
        if text.lower().startswith("0x"):
            return int(text, 16)
        if _DECIMAL.match(text):
            return int(text.replace(",", "").replace("_", ""))
    except ValueError:
        pass
    return None


# a place as the app prints it: `model.py:54`, `model.py:54:forward`, `einops/_backends.py:288` (any folders)
_PLACE = re.compile(r"^(?P<file>.+?\.pyw?|<[^>]*>):(?P<line>\d+)(?::(?P<function>[^\s:()]+))?$")
_WORDS = re.compile(r"^(?P<place>.*?)\s*(?P<words>\([^()]*\))$")  # `model.py:52 (backward of bmm)`


def _located(text: str) -> Callable[[Sequence[Frame], str], bool] | None:
    """A test of a stack (and its site's label) for a search written as a site is printed: one place, the pair
    `place via place`, or a place followed by backward words in parentheses; None for any other text."""
    words = _WORDS.match(text)
    head, said = (words.group("place"), words.group("words").lower()) if words else (text, "")
    places = [_PLACE.match(part.strip()) for part in head.split(" via ")]
    if not all(places) or len(places) > 2:
        return None
    wanted = [(p.group("file").replace("\\", "/"), int(p.group("line")), p.group("function")) for p in places if p]

    def at(frame: Frame, file: str, line: int, function: str | None) -> bool:
        path = frame.filename.replace("\\", "/")
        return (
            frame.line == line
            and (path == file or path.endswith("/" + file))
            and (function is None or frame.name == function)
        )

    def matches(frames: Sequence[Frame], label: str) -> bool:
        return all(any(at(f, *w) for f in frames) for w in wanted) and said in label.lower()

    return matches
