"""PYTORCH_CUDA_ALLOC_CONF parsing: values, and the same refusals (and messages) as the installed torch."""

from __future__ import annotations

import pytest
import torch

from gpumem_gui.core.rules.alloc_conf import AllocConfError, parse_alloc_conf
from gpumem_gui.core.rules.allocator_constants import UNLIMITED, MiB

CASES = [
    "",
    "expandable_segments:True",
    "expandable_segments:False",
    "expandable_segments:true",
    " expandable_segments : True ",
    "expandable_segments:True,max_split_size_mb:256",
    "max_split_size_mb:10",
    "max_split_size_mb:20",
    "max_split_size_mb:20.5",
    "max_split_size_mb:-5",
    "max_non_split_rounding_mb:5",
    "max_non_split_rounding_mb:64",
    "large_segment_size_mb:8",
    "large_segment_size_mb:32",
    "garbage_collection_threshold:1.5",
    "garbage_collection_threshold:0",
    "garbage_collection_threshold:0.6",
    "roundup_power2_divisions:3",
    "roundup_power2_divisions:0",
    "roundup_power2_divisions:4",
    "roundup_power2_divisions:[256:1,512:2,1024:4,>:8]",
    "roundup_power2_divisions:[256:3]",
    "roundup_power2_divisions:[100:2]",
    "roundup_power2_divisions:[256:1 512:2]",
    "roundup_power2_divisions:[>:8]",
    "garbage_collection_threshold:0.5,max_split_size_mb:100",
]


def test_values() -> None:
    cfg = parse_alloc_conf("expandable_segments:True,max_split_size_mb:256,garbage_collection_threshold:0.6")
    assert cfg.expandable_segments and cfg.max_split_size == 256 * MiB and cfg.garbage_collection_threshold == 0.6
    assert cfg.settings_string.startswith("expandable_segments")
    table = parse_alloc_conf("roundup_power2_divisions:[256:1,512:2,1024:4,>:8]").roundup_power2_divisions
    # the first value covers every lower interval; ">" the rest: [256,512) MiB -> 1 ... >= 2 GiB -> 8
    assert table[:9] == (1,) * 9 and table[9] == 2 and table[10] == 4 and table[11:] == (8,) * 5
    assert parse_alloc_conf("roundup_power2_divisions:4").roundup_power2_divisions == (4,) * 16
    assert parse_alloc_conf("max_split_size_mb:-5").max_split_size == UNLIMITED
    assert parse_alloc_conf("").max_split_size == UNLIMITED


def test_cuda_keys() -> None:
    with pytest.raises(AllocConfError, match="Unrecognized key 'bogus' in CUDA allocator config"):
        parse_alloc_conf("bogus:1")
    assert parse_alloc_conf("backend:native,release_lock_on_cudamalloc:True").expandable_segments is False
    assert parse_alloc_conf("per_process_memory_fraction:0.5").per_process_memory_fraction == 0.5
    with pytest.raises(AllocConfError):
        parse_alloc_conf("expandable_segments")


@pytest.mark.parametrize("conf", CASES)
def test_same_refusals_and_messages_as_torch(conf: str) -> None:
    try:
        torch._C._accelerator_setAllocatorSettings(conf)
        theirs = None
    except (ValueError, RuntimeError) as e:
        theirs = str(e).splitlines()[0]
    finally:
        torch._C._accelerator_setAllocatorSettings("")
    try:
        parse_alloc_conf(conf)
        ours = None
    except AllocConfError as e:
        ours = str(e)
    assert (ours is None) == (theirs is None), (conf, ours, theirs)
    if theirs is not None and theirs not in ("stoull", "stod") and "INTERNAL ASSERT" not in theirs:
        assert ours == theirs.rstrip("\n"), conf
