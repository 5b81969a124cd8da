"""The allocator's sizing rules against the values PyTorch's source and docs give."""

from __future__ import annotations

import pytest

from gpumem_gui.core.rules.allocator_constants import GiB, MiB
from gpumem_gui.core.rules.allocator_rules import (
    AllocatorConfig,
    _roundup_power2_next_division,
    allocation_size,
    largest_request_served_by,
    round_size,
    should_split,
)


def test_round_size_default_is_512_multiples() -> None:
    assert round_size(1) == 512
    assert round_size(512) == 512
    assert round_size(513) == 1024
    assert round_size(3 * MiB + 1) == 3 * MiB + 512


def test_round_size_power2_divisions() -> None:
    four = AllocatorConfig(roundup_power2_divisions=(4,) * 16)
    # the example of roundup_power2_next_division: 1200 in 4 divisions of [1024, 2048) -> 1280 ...
    assert _roundup_power2_next_division(1200, 4) == 1280
    # ... which round_size only applies above kMinBlockSize * divisions (2048 here)
    assert round_size(1200, four) == 1536
    assert round_size(2100, four) == 2560
    assert round_size(1024, four) == 1024  # powers of two stay
    assert round_size(1300 * MiB, four) == 1536 * MiB  # step 256 MiB in [1 GiB, 2 GiB)


def test_settings_from_snapshot() -> None:
    cfg = AllocatorConfig.from_snapshot_settings(
        {"max_split_size": -1, "roundup_power2_divisions": {"1": 0, "256": 1, "512": 2, "1024": 4}}
    )
    assert cfg.max_split_size > 1 << 62
    assert cfg.divisions_for(300 * MiB) == 1
    assert cfg.divisions_for(600 * MiB) == 2
    assert cfg.divisions_for(int(1.5 * GiB)) == 4
    assert AllocatorConfig.from_snapshot_settings({"max_split_size": 256 * MiB}).max_split_size == 256 * MiB


@pytest.mark.parametrize(
    ("size", "expected"),
    [
        (512, 2 * MiB),
        (1 * MiB, 2 * MiB),
        (1 * MiB + 512, 20 * MiB),
        (9 * MiB, 20 * MiB),
        (11 * MiB + 3, 12 * MiB),
    ],
)
def test_allocation_size(size: int, expected: int) -> None:
    assert allocation_size(size) == expected


def test_should_split() -> None:
    assert should_split(2 * MiB, 1 * MiB, small_pool=True, expandable=False)
    assert not should_split(1024, 1024, small_pool=True, expandable=False)
    assert not should_split(20 * MiB, 19 * MiB, small_pool=False, expandable=False)  # remaining 1 MiB: not > 1 MiB
    assert should_split(20 * MiB, 19 * MiB - 512, small_pool=False, expandable=False)
    assert should_split(20 * MiB, 20 * MiB - 512, small_pool=False, expandable=True)
    capped = AllocatorConfig(max_split_size=100 * MiB)
    assert not should_split(400 * MiB, 200 * MiB, small_pool=False, expandable=False, config=capped)


def test_largest_request_served_by() -> None:
    assert largest_request_served_by(3 * MiB, small_pool=True) == 1 * MiB
    assert largest_request_served_by(700 * 1024, small_pool=True) == 700 * 1024
    assert largest_request_served_by(50 * MiB, small_pool=False) == 50 * MiB
    four = AllocatorConfig(roundup_power2_divisions=(4,) * 16)
    # 1.3 GiB free: requests round to 256 MiB steps there, so 1.25 GiB is the most that still fits
    assert largest_request_served_by(1331 * MiB, small_pool=False, config=four) == 1280 * MiB
