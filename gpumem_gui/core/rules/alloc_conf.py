"""PYTORCH_CUDA_ALLOC_CONF strings: parsed with PyTorch's rules, and with its messages for bad values.

The grammar and the checks follow `ConfigTokenizer` and `AcceleratorAllocatorConfig::parseArgs`
(c10/core/AllocatorConfig.{h,cpp}, 2.13) plus the CUDA-only keys of `CUDAAllocatorConfig`; a test holds the
messages to those of the installed torch. Every parse starts from the defaults, as PyTorch's does.
"""

from __future__ import annotations

import dataclasses

from gpumem_gui.core.rules.allocator_constants import ROUNDUP_POWER2_INTERVALS, UNLIMITED, MiB
from gpumem_gui.core.rules.allocator_rules import AllocatorConfig
from gpumem_gui.core.rules.torch_versions import (
    DEFAULT_RULES,
    LARGE_SEGMENT_SIZE_KEY,
    ROUNDUP_GREATER_STARTS_AFTER_LAST,
    SPLIT_SIZE_MAY_EQUAL_LARGE_BUFFER,
    TorchRules,
)

_SEPARATORS = ",:[]"

# keys the CUDA parser accepts without using them here (host-side pinned memory, locking, backends)
_IGNORED_CUDA_KEYS = {
    "release_lock_on_cudamalloc",
    "pinned_use_cuda_host_register",
    "pinned_num_register_threads",
    "pinned_reserve_segment_size_mb",
    "pinned_use_background_threads",
    "pinned_max_round_threshold_mb",
    "pinned_max_cached_size_mb",
    "pinned_free_catch_all",
    "graph_capture_record_stream_reuse",
    "throw_on_cudamalloc_oom",
    "backend",
}


class AllocConfError(ValueError):
    """A PYTORCH_CUDA_ALLOC_CONF string PyTorch would refuse."""


def _tokenize(text: str) -> list[str]:
    # whitespace is dropped before splitting, so "1 512" is the token "1512", as in ConfigTokenizer
    tokens: list[str] = []
    current = ""
    for ch in text:
        if ch.isspace():
            continue
        if ch in _SEPARATORS:
            if current:
                tokens.append(current)
                current = ""
            tokens.append(ch)
        else:
            current += ch
    if current:
        tokens.append(current)
    return tokens


class _Tokens:
    def __init__(self, text: str) -> None:
        self.items = _tokenize(text)

    def __getitem__(self, i: int) -> str:
        if not 0 <= i < len(self.items):
            raise AllocConfError("Index out of bounds in ConfigTokenizer (a key without a value?)")
        return self.items[i]

    def expect(self, i: int, token: str) -> None:
        if self[i] != token:
            raise AllocConfError(f"Expected '{token}' at index {i} in ConfigTokenizer but got '{self[i]}'")

    def boolean(self, i: int) -> bool:
        if self[i] not in ("True", "False"):
            raise AllocConfError(f"Expected 'True' or 'False' at index {i} in ConfigTokenizer but got '{self[i]}'")
        return self[i] == "True"


def _stoull(token: str, what: str) -> int:
    """C++ stoull: leading digits (a minus wraps around, which PyTorch then reads as unlimited)."""
    digits = token.lstrip("+-")
    n = len(digits) - len(digits.lstrip("0123456789"))
    if n == 0:
        raise AllocConfError(f"{what} expects an integer, got '{token}'")
    value = int(digits[:n])
    return -value if token.startswith("-") else value


def _stod(token: str, what: str) -> float:
    try:
        return float(token)
    except ValueError:
        raise AllocConfError(f"{what} expects a number, got '{token}'") from None


def _is_power_of_two(n: int) -> bool:
    return n > 0 and n & (n - 1) == 0


def _size_mb(token: str, key: str, minimum_mb: int, rules: TorchRules) -> int:
    value = _stoull(token, key)
    if value < 0:
        return UNLIMITED
    if not rules.holds(SPLIT_SIZE_MAY_EQUAL_LARGE_BUFFER):  # the older parser wants more than the minimum
        if value <= minimum_mb:
            raise AllocConfError(f"CachingAllocator option {key} too small, must be > {minimum_mb}")
    elif value < minimum_mb:
        raise AllocConfError(f"CachingAllocator option {key} too small, must be >= {minimum_mb}")
    return value * MiB


def _divisions(tokens: _Tokens, i: int, rules: TorchRules) -> tuple[tuple[int, ...], int]:
    table = [0] * ROUNDUP_POWER2_INTERVALS
    if tokens[i] != "[":
        value = _stoull(tokens[i], "roundup_power2_divisions")
        if not _is_power_of_two(value):
            raise AllocConfError("For roundups, the divisions has to be power of 2 ")
        return (value,) * ROUNDUP_POWER2_INTERVALS, i
    first, last_index = True, 0
    i += 1
    while True:
        interval = tokens[i]
        tokens.expect(i + 1, ":")
        i += 2
        divisions = _stoull(tokens[i], "roundup_power2_divisions")
        if not (_is_power_of_two(divisions) or divisions == 0):
            raise AllocConfError("For roundups, the divisions has to be power of 2 or 0 to disable roundup ")
        if interval == ">":
            # before torch 2.10 the fill began at the last listed interval itself, overwriting it
            start = last_index + 1 if rules.holds(ROUNDUP_GREATER_STARTS_AFTER_LAST) else last_index
            table[start:] = [divisions] * (ROUNDUP_POWER2_INTERVALS - start)
        else:
            mb = _stoull(interval, "roundup_power2_divisions")
            if not _is_power_of_two(mb):
                raise AllocConfError("For roundups, the intervals have to be power of 2 ")
            index = min(max(mb.bit_length() - 1, 0), ROUNDUP_POWER2_INTERVALS - 1)
            if first:  # the first value also covers every interval below it
                table[:index] = [divisions] * index
                first = False
            table[index] = divisions
            last_index = index
        if tokens[i + 1] == "]":
            return tuple(table), i + 1
        tokens.expect(i + 1, ",")
        i += 2


def parse_alloc_conf(text: str, rules: TorchRules = DEFAULT_RULES) -> AllocatorConfig:
    """The allocator settings a PYTORCH_CUDA_ALLOC_CONF string gives (defaults for everything it omits), read as the
    torch release of `rules` reads it (torch_versions.VERSION_RULES), refused where that release refuses it."""
    tokens = _Tokens(text)
    values: dict[str, object] = {}
    i = 0
    while i < len(tokens.items):
        key = tokens[i]
        if key == ",":
            i += 1
            continue
        tokens.expect(i + 1, ":")
        i += 2
        if key == "max_split_size_mb":
            large_mb = int(values.get("large_segment_size", 20 * MiB)) // MiB  # type: ignore[call-overload]
            values["max_split_size"] = _size_mb(tokens[i], key, large_mb, rules)
        elif key == "max_non_split_rounding_mb":
            large_mb = int(values.get("large_segment_size", 20 * MiB)) // MiB  # type: ignore[call-overload]
            values["max_non_split_rounding_size"] = _size_mb(tokens[i], key, large_mb, rules)
        elif key == "large_segment_size_mb" and rules.holds(LARGE_SEGMENT_SIZE_KEY):
            mb = _stoull(tokens[i], key)
            if mb <= 10:
                raise AllocConfError("CachingAllocator option large_segment_size_mb must be > 10 MB")
            values["large_segment_size"] = mb * MiB
        elif key == "garbage_collection_threshold":
            threshold = _stod(tokens[i], key)
            if not 0.0 < threshold < 1.0:
                raise AllocConfError("garbage_collect_threshold is invalid, set it in (0.0, 1.0)")
            values["garbage_collection_threshold"] = threshold
        elif key == "roundup_power2_divisions":
            values["roundup_power2_divisions"], i = _divisions(tokens, i, rules)
        elif key == "expandable_segments":
            values["expandable_segments"] = tokens.boolean(i)
        elif key == "per_process_memory_fraction":
            fraction = _stod(tokens[i], key)
            if not 0.0 <= fraction <= 1.0:
                raise AllocConfError("per_process_memory_fraction is invalid, set it in [0.0, 1.0]")
            values["per_process_memory_fraction"] = fraction
        elif key in _IGNORED_CUDA_KEYS:
            if tokens[i] == "[":  # skip a list value
                while tokens[i] != "]":
                    i += 1
        elif rules.holds(SPLIT_SIZE_MAY_EQUAL_LARGE_BUFFER):
            raise AllocConfError(f"Unrecognized key '{key}' in CUDA allocator config.")
        else:  # the message of CUDAAllocatorConfig::parseArgs, the parser before torch 2.10
            raise AllocConfError(f"Unrecognized CachingAllocator option: {key}")
        i += 1
        if i < len(tokens.items):
            tokens.expect(i, ",")
            i += 1
    return dataclasses.replace(AllocatorConfig(), settings_string=text, **values)  # type: ignore[arg-type]
