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
from gpumem_gui.core.snapshot.sentences import QT_TRANSLATE_NOOP, Sentence, as_is, joined, say
from gpumem_gui.core.snapshot.units import format_bytes

CONF = "PYTORCH_CUDA_ALLOC_CONF"
# Every text of the page is a Sentence (str() is the English; the window says it in its language): a template
# marked in the "SettingsPage" context, its sizes written in English ("1.5 GiB", the window writes them as its
# language does) and names and values from the file said as they are (as_is).


def _size(n: int) -> Sentence:
    return say(Sentence("", "{size}"), size=format_bytes(n))


NOT_RECORDED = QT_TRANSLATE_NOOP(
    "SettingsPage",
    "This file recorded no allocator settings (PyTorch wrote them from 2.3 on): the values below are PyTorch's "
    "defaults, assumed; the run may have used others.",
)


@dataclass(frozen=True)
class SettingRow:
    key: str
    value: Sentence  # as recorded, in words
    default: Sentence
    meaning: Sentence
    what_if: Sentence  # what the What if... replay makes of it: the value it tries, or whether it can change it
    set: bool  # the recorded value differs from the default
    what_if_changes: bool  # the what-if value differs from the recorded one


@dataclass(frozen=True)
class SettingsPage:
    recorded: bool  # whether the file recorded its settings
    conf: str  # the PYTORCH_CUDA_ALLOC_CONF it ran with ("" when unset or unrecorded)
    notes: tuple[
        Sentence, ...
    ]  # what to know before reading the rows (nothing recorded, a string PyTorch would refuse)
    rows: tuple[SettingRow, ...]


@dataclass(frozen=True)
class _Key:
    meaning: Sentence
    field: str | None  # the What if... field that changes it; None: the replay keeps it as recorded
    why_not: Sentence | None = None  # why the replay cannot change it


_NOT_A_FIELD = QT_TRANSLATE_NOOP("SettingsPage", "not a field of the dialog")
_HOST_MEMORY = QT_TRANSLATE_NOOP("SettingsPage", "host memory: no block on the GPU changes")
_KEYS: dict[str, _Key] = {
    CONF: _Key(
        QT_TRANSLATE_NOOP(
            "SettingsPage",
            "The environment variable the process started with; every key below that it names takes its value from it.",
        ),
        None,
        QT_TRANSLATE_NOOP(
            "SettingsPage", "the replay runs under the recorded string with the what-if items put over it"
        ),
    ),
    "expandable_segments": _Key(
        QT_TRANSLATE_NOOP(
            "SettingsPage",
            "True: each stream's segments are one virtual address range whose pages are mapped as it grows and "
            "unmapped when emptied, so freed memory next to live blocks can serve larger requests (less "
            "fragmentation). False: every segment is a fixed cudaMalloc.",
        ),
        "expandable_segments",
    ),
    "max_split_size": _Key(
        QT_TRANSLATE_NOOP(
            "SettingsPage",
            "Cached blocks larger than this are never split to serve a smaller request, and requests larger than it "
            "get a block of (about) their own size: big free blocks are kept whole for big requests.",
        ),
        "max_split_size_mb",
    ),
    "garbage_collection_threshold": _Key(
        QT_TRANSLATE_NOOP(
            "SettingsPage",
            "When reserved memory passes this fraction of the memory allowed (per_process_memory_fraction), cached "
            "blocks unused the longest are released before asking cudaMalloc for more.",
        ),
        "garbage_collection_threshold",
    ),
    "roundup_power2_divisions": _Key(
        QT_TRANSLATE_NOOP(
            "SettingsPage",
            "Requests are rounded up to one of N sizes between two powers of two (per size range) rather than to a "
            "multiple of 512 bytes: fewer distinct sizes, so freed blocks fit later requests more often.",
        ),
        "roundup_power2_divisions",
    ),
    "large_segment_size_mb": _Key(
        QT_TRANSLATE_NOOP(
            "SettingsPage",
            "The segment a large-pool request below 10 MiB gets (one block of it serves the request, the rest is "
            "cached for more).",
        ),
        None,
        _NOT_A_FIELD,
    ),
    "max_non_split_rounding_mb": _Key(
        QT_TRANSLATE_NOOP(
            "SettingsPage",
            "A request above max_split_size may take a cached block up to this much larger (the rest wasted) rather "
            "than a new segment.",
        ),
        None,
        _NOT_A_FIELD,
    ),
    "per_process_memory_fraction": _Key(
        QT_TRANSLATE_NOOP(
            "SettingsPage",
            "Caps this process's reserved memory at this fraction of the device: above it the allocator frees its "
            "cache or raises an out-of-memory error.",
        ),
        "per_process_memory_fraction",
    ),
    "release_lock_on_cudamalloc": _Key(
        QT_TRANSLATE_NOOP(
            "SettingsPage",
            "Releases the allocator's lock while cudaMalloc runs, so that other threads may allocate meanwhile.",
        ),
        None,
        QT_TRANSLATE_NOOP("SettingsPage", "timing only: the replay runs one thread"),
    ),
    "pinned_use_cuda_host_register": _Key(
        QT_TRANSLATE_NOOP(
            "SettingsPage",
            "Pinned host memory is malloc'ed and registered with cudaHostRegister rather than made by cudaHostAlloc.",
        ),
        None,
        _HOST_MEMORY,
    ),
    "pinned_num_register_threads": _Key(
        QT_TRANSLATE_NOOP(
            "SettingsPage",
            "The threads that register pinned host memory when pinned_use_cuda_host_register is set.",
        ),
        None,
        _HOST_MEMORY,
    ),
    "graph_capture_record_stream_reuse": _Key(
        QT_TRANSLATE_NOOP(
            "SettingsPage",
            "During CUDA graph capture, blocks freed while used by another stream (record_stream) may be reused once "
            "the graph shows that stream is done with them.",
        ),
        None,
        QT_TRANSLATE_NOOP("SettingsPage", "graph capture: the replay does not capture"),
    ),
}
_UNKNOWN_KEY = _Key(
    QT_TRANSLATE_NOOP("SettingsPage", "Not described here: a key of a PyTorch newer than this program knows."), None
)
_FROM_CONF = ("large_segment_size_mb", "max_non_split_rounding_mb", "per_process_memory_fraction")
_OFF = QT_TRANSLATE_NOOP("SettingsPage", "off")


def _mib(n: int) -> Sentence:
    return QT_TRANSLATE_NOOP("SettingsPage", "unlimited") if n >= UNLIMITED else _size(n)


def _divisions(table: Sequence[int]) -> Sentence:
    """The per-range divisions in words: `off`, `4 everywhere`, `1 MiB-: 1, 256 MiB-: 4` (runs of one value)."""
    if not any(table):
        return _OFF
    if len(set(table)) == 1:
        return say(QT_TRANSLATE_NOOP("SettingsPage", "{n} everywhere"), n=as_is(str(table[0])))
    runs = [(i, d) for i, d in enumerate(table) if i == 0 or table[i - 1] != d]
    # a run: its range's first size and its divisions (the words "off" for none)
    run = Sentence("", "{size}-: {divisions}")
    return joined(
        (say(run, size=format_bytes((1 << i) << 20), divisions=as_is(str(d)) if d else _OFF) for i, d in runs), ", "
    )


def _fraction(x: float, unset: Sentence) -> Sentence:
    return unset if not x else as_is(f"{x:g}")


def _value_words(key: str, config: AllocatorConfig) -> Sentence:
    """The value of `key` (one the replay reads) in `config`, in words."""
    if key == "expandable_segments":
        return as_is(str(config.expandable_segments))
    if key == "max_split_size":
        return _mib(config.max_split_size)
    if key == "garbage_collection_threshold":
        return _fraction(config.garbage_collection_threshold, QT_TRANSLATE_NOOP("SettingsPage", "0 (off)"))
    if key == "roundup_power2_divisions":
        return _divisions(config.roundup_power2_divisions)
    if key == "large_segment_size_mb":
        return _size(config.large_segment_size)
    if key == "max_non_split_rounding_mb":
        return _size(config.max_non_split_rounding_size)
    if key == "per_process_memory_fraction":
        return _fraction(
            config.per_process_memory_fraction, QT_TRANSLATE_NOOP("SettingsPage", "not set (the whole device)")
        )
    raise KeyError(key)


_UNSET = QT_TRANSLATE_NOOP("SettingsPage", "unset")
_DEFAULTS_OF_OTHERS = {
    CONF: _UNSET,
    "release_lock_on_cudamalloc": as_is("False"),
    "pinned_use_cuda_host_register": as_is("False"),
    "pinned_num_register_threads": as_is("1"),
    "graph_capture_record_stream_reuse": as_is("False"),
}


_MISSING = object()


def _recorded_words(key: str, value: Any) -> Sentence:
    if key == CONF:
        return as_is(f'"{value}"') if value else _UNSET
    return as_is(str(value))


def settings_page(settings: Mapping[str, Any] | None, overrides: Sequence[str] = ()) -> SettingsPage:
    """The page of a snapshot's `allocator_settings` (None: not recorded), with the what-if `overrides`
    (PYTORCH_CUDA_ALLOC_CONF items, as the What if... dialog gives them) where a replay was asked for."""
    notes: list[Sentence] = []
    recorded = settings is not None
    conf = str((settings or {}).get(CONF, "") or "")
    if not recorded:
        notes.append(NOT_RECORDED)
    dict_config = AllocatorConfig.from_snapshot_settings(settings)
    try:
        conf_config = parse_alloc_conf(conf)
    except AllocConfError as e:  # PyTorch's own message, quoted as it is
        refused = QT_TRANSLATE_NOOP(
            "SettingsPage", "PyTorch would refuse its {conf} ({error}): the keys it alone holds show their defaults."
        )
        notes.append(say(refused, conf=as_is(CONF), error=as_is(str(e))))
        conf_config = AllocatorConfig()
    what_if_config: AllocatorConfig | None = None
    what_if_conf = ""
    if overrides:
        try:  # the replay's own starting point: the string, or what the dict says of expandable segments
            start = conf or ("expandable_segments:True" if dict_config.expandable_segments else "")
            what_if_conf = merged_settings(start, list(overrides))
            what_if_config = parse_alloc_conf(what_if_conf)
        except AllocConfError as e:
            wrong = QT_TRANSLATE_NOOP("SettingsPage", "The what-if settings are not ones PyTorch would take: {error}")
            notes.append(say(wrong, error=as_is(str(e))))
    default = AllocatorConfig()
    keys = [CONF, *[k for k in (settings or {}) if k != CONF]]
    # every key a replay reads has its row, recorded or not; a file without settings, every key PyTorch writes
    keys += [k for k, info in _KEYS.items() if k not in keys and k not in _FROM_CONF and (info.field or not recorded)]
    keys += [k for k in _FROM_CONF if k not in keys]
    rows = []
    for key in keys:
        info = _KEYS.get(key, _UNKNOWN_KEY)
        simulated = key not in _DEFAULTS_OF_OTHERS and key in _KEYS
        if simulated:
            source = conf_config if key in _FROM_CONF else dict_config
            value, default_words = _value_words(key, source), _value_words(key, default)
        else:
            raw = (settings or {}).get(key, _MISSING)
            value = _DEFAULTS_OF_OTHERS.get(key, as_is("")) if raw is _MISSING else _recorded_words(key, raw)
            default_words = _DEFAULTS_OF_OTHERS.get(key, as_is("?"))
        differs = recorded and str(value) != str(default_words)
        if not recorded:
            value = say(QT_TRANSLATE_NOOP("SettingsPage", "not recorded; assumed: {default}"), default=default_words)
        changes = False
        if key == CONF and what_if_config is not None:
            what_if = say(QT_TRANSLATE_NOOP("SettingsPage", 'replayed under "{conf}"'), conf=as_is(what_if_conf))
        elif not simulated or (info.field is None and what_if_config is None):
            kept = QT_TRANSLATE_NOOP("SettingsPage", "kept as recorded")
            why = QT_TRANSLATE_NOOP("SettingsPage", "kept as recorded: {why}")
            what_if = say(why, why=info.why_not) if info.why_not else kept
        elif what_if_config is None:
            can = QT_TRANSLATE_NOOP("SettingsPage", "What if... can change it ({field})")
            what_if = say(can, field=as_is(str(info.field)))
        else:
            tried = _value_words(key, what_if_config)
            changes = str(tried) != str(_value_words(key, conf_config if key in _FROM_CONF else dict_config))
            changed = QT_TRANSLATE_NOOP("SettingsPage", "{value} (changed)")
            as_recorded = QT_TRANSLATE_NOOP("SettingsPage", "{value} (as recorded)")
            what_if = say(changed if changes else as_recorded, value=tried)
        rows.append(SettingRow(key, value, default_words, info.meaning, what_if, differs, changes))
    return SettingsPage(recorded, conf, tuple(notes), tuple(rows))
