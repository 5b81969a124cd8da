"""The allocator settings a file recorded, in words: each key, its value, what it does, its default, and what a what-if
replay would make of it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gpumem_gui.core.allocator.replay import merged_settings
from gpumem_gui.core.rules.alloc_conf import AllocConfError, parse_alloc_conf
from gpumem_gui.core.rules.allocator_constants import UNLIMITED
from gpumem_gui.core.rules.allocator_rules import AllocatorConfig
from gpumem_gui.core.snapshot.units import format_bytes

CONF = "PYTORCH_CUDA_ALLOC_CONF"
NOT_RECORDED = (
    "This file recorded no allocator settings (PyTorch wrote them from 2.3 on): the values below are PyTorch's "
    "defaults, assumed; the run may have used others."
)


@dataclass(frozen=True)
class SettingRow:
    key: str
    value: str  # as recorded, in words
    default: str
    meaning: str
    what_if: str  # what the What if... replay makes of it: the value it tries, or whether it can change it
    set: bool  # the recorded value differs from the default
    what_if_changes: bool  # the what-if value differs from the recorded one


@dataclass(frozen=True)
class SettingsPage:
    recorded: bool  # whether the file recorded its settings
    conf: str  # the PYTORCH_CUDA_ALLOC_CONF it ran with ("" when unset or unrecorded)
    notes: tuple[str, ...]  # what to know before reading the rows (nothing recorded, a string PyTorch would refuse)
    rows: tuple[SettingRow, ...]


@dataclass(frozen=True)
class _Key:
    meaning: str
    field: str | None  # the What if... field that changes it; None: the replay keeps it as recorded
    why_not: str = ""  # why the replay cannot change it


_KEYS: dict[str, _Key] = {
    CONF: _Key(
        "The environment variable the process started with; every key below that it names takes its value from it.",
        None,
        "the replay runs under the recorded string with the what-if items put over it",
    ),
    "expandable_segments": _Key(
        "True: each stream's segments are one virtual address range whose pages are mapped as it grows and unmapped "
        "when emptied, so freed memory next to live blocks can serve larger requests (less fragmentation). False: "
        "every segment is a fixed cudaMalloc.",
        "expandable_segments",
    ),
    "max_split_size": _Key(
        "Cached blocks larger than this are never split to serve a smaller request, and requests larger than it "
        "get a block of (about) their own size: big free blocks are kept whole for big requests.",
        "max_split_size_mb",
    ),
    "garbage_collection_threshold": _Key(
        "When reserved memory passes this fraction of the memory allowed (per_process_memory_fraction), cached "
        "blocks unused the longest are released before asking cudaMalloc for more.",
        "garbage_collection_threshold",
    ),
    "roundup_power2_divisions": _Key(
        "Requests are rounded up to one of N sizes between two powers of two (per size range) rather than to a "
        "multiple of 512 bytes: fewer distinct sizes, so freed blocks fit later requests more often.",
        "roundup_power2_divisions",
    ),
    "large_segment_size_mb": _Key(
        "The segment a large-pool request below 10 MiB gets (one block of it serves the request, the rest is "
        "cached for more).",
        None,
        "not a field of the dialog",
    ),
    "max_non_split_rounding_mb": _Key(
        "A request above max_split_size may take a cached block up to this much larger (the rest wasted) rather "
        "than a new segment.",
        None,
        "not a field of the dialog",
    ),
    "per_process_memory_fraction": _Key(
        "Caps this process's reserved memory at this fraction of the device: above it the allocator frees its cache "
        "or raises an out-of-memory error.",
        "per_process_memory_fraction",
    ),
    "release_lock_on_cudamalloc": _Key(
        "Releases the allocator's lock while cudaMalloc runs, so that other threads may allocate meanwhile.",
        None,
        "timing only: the replay runs one thread",
    ),
    "pinned_use_cuda_host_register": _Key(
        "Pinned host memory is malloc'ed and registered with cudaHostRegister rather than made by cudaHostAlloc.",
        None,
        "host memory: no block on the GPU changes",
    ),
    "pinned_num_register_threads": _Key(
        "The threads that register pinned host memory when pinned_use_cuda_host_register is set.",
        None,
        "host memory: no block on the GPU changes",
    ),
    "graph_capture_record_stream_reuse": _Key(
        "During CUDA graph capture, blocks freed while used by another stream (record_stream) may be reused once "
        "the graph shows that stream is done with them.",
        None,
        "graph capture: the replay does not capture",
    ),
}
_FROM_CONF = ("large_segment_size_mb", "max_non_split_rounding_mb", "per_process_memory_fraction")


def _mib(n: int) -> str:
    return "unlimited" if n >= UNLIMITED else format_bytes(n)


def _divisions(table: Sequence[int]) -> str:
    """The per-range divisions in words: `off`, `4 everywhere`, `1 MiB-: 1, 256 MiB-: 4` (runs of one value)."""
    if not any(table):
        return "off"
    if len(set(table)) == 1:
        return f"{table[0]} everywhere"
    runs = [(i, d) for i, d in enumerate(table) if i == 0 or table[i - 1] != d]
    return ", ".join(f"{format_bytes((1 << i) << 20)}-: {d or 'off'}" for i, d in runs)


def _fraction(x: float, unset: str) -> str:
    return unset if not x else f"{x:g}"


def _words(key: str, config: AllocatorConfig) -> str:
    """The value of `key` (one the replay reads) in `config`, in words."""
    if key == "expandable_segments":
        return str(config.expandable_segments)
    if key == "max_split_size":
        return _mib(config.max_split_size)
    if key == "garbage_collection_threshold":
        return _fraction(config.garbage_collection_threshold, "0 (off)")
    if key == "roundup_power2_divisions":
        return _divisions(config.roundup_power2_divisions)
    if key == "large_segment_size_mb":
        return format_bytes(config.large_segment_size)
    if key == "max_non_split_rounding_mb":
        return format_bytes(config.max_non_split_rounding_size)
    if key == "per_process_memory_fraction":
        return _fraction(config.per_process_memory_fraction, "not set (the whole device)")
    raise KeyError(key)


_DEFAULTS_OF_OTHERS = {
    CONF: "unset",
    "release_lock_on_cudamalloc": "False",
    "pinned_use_cuda_host_register": "False",
    "pinned_num_register_threads": "1",
    "graph_capture_record_stream_reuse": "False",
}


def _recorded_words(key: str, value: Any) -> str:
    if key == CONF:
        return f'"{value}"' if value else "unset"
    return str(value)


def settings_page(settings: Mapping[str, Any] | None, overrides: Sequence[str] = ()) -> SettingsPage:
    """The page of a snapshot's `allocator_settings` (None: not recorded), with the what-if `overrides`
    (PYTORCH_CUDA_ALLOC_CONF items, as the What if... dialog gives them) where a replay was asked for."""
    notes: list[str] = []
    recorded = settings is not None
    conf = str((settings or {}).get(CONF, "") or "")
    if not recorded:
        notes.append(NOT_RECORDED)
    dict_config = AllocatorConfig.from_snapshot_settings(settings)
    try:
        conf_config = parse_alloc_conf(conf)
    except AllocConfError as e:
        notes.append(f"PyTorch would refuse its {CONF} ({e}): the keys it alone holds show their defaults.")
        conf_config = AllocatorConfig()
    what_if_config: AllocatorConfig | None = None
    what_if_conf = ""
    if overrides:
        try:  # the replay's own starting point: the string, or what the dict says of expandable segments
            start = conf or ("expandable_segments:True" if dict_config.expandable_segments else "")
            what_if_conf = merged_settings(start, list(overrides))
            what_if_config = parse_alloc_conf(what_if_conf)
        except AllocConfError as e:
            notes.append(f"The what-if settings are not ones PyTorch would take: {e}")
    default = AllocatorConfig()
    keys = [CONF, *[k for k in (settings or {}) if k != CONF]]
    # every key a replay reads has its row, recorded or not; a file without settings, every key PyTorch writes
    keys += [k for k, info in _KEYS.items() if k not in keys and k not in _FROM_CONF and (info.field or not recorded)]
    keys += [k for k in _FROM_CONF if k not in keys]
    rows = []
    for key in keys:
        info = _KEYS.get(key, _Key("Not described here: a key of a PyTorch newer than this program knows.", None))
        simulated = key not in _DEFAULTS_OF_OTHERS and key in _KEYS
        if simulated:
            source = conf_config if key in _FROM_CONF else dict_config
            value, default_words = _words(key, source), _words(key, default)
        else:
            raw = (settings or {}).get(key, _DEFAULTS_OF_OTHERS.get(key, ""))
            value, default_words = _recorded_words(key, raw), _DEFAULTS_OF_OTHERS.get(key, "?")
        differs = recorded and value != default_words
        if not recorded:
            value = f"not recorded; assumed: {default_words}"
        changes = False
        if key == CONF and what_if_config is not None:
            what_if = f'replayed under "{what_if_conf}"'
        elif not simulated or (info.field is None and what_if_config is None):
            what_if = f"kept as recorded: {info.why_not}" if info.why_not else "kept as recorded"
        elif what_if_config is None:
            what_if = f"What if... can change it ({info.field})"
        else:
            what_if = _words(key, what_if_config)
            changes = what_if != _words(key, conf_config if key in _FROM_CONF else dict_config)
            what_if = what_if + (" (changed)" if changes else " (as recorded)")
        rows.append(SettingRow(key, value, default_words, info.meaning, what_if, differs, changes))
    return SettingsPage(recorded, conf, tuple(notes), tuple(rows))
