"""The allocator rules that changed between torch releases: one table, each rule with the releases it holds for and
its source.

The simulator follows the rules of one release (`TorchRules`). A file says which only when the gpumem-gui probe
recorded it (torch's own snapshots carry no version); otherwise the user gives one (`--torch-version`) or
DEFAULT_VERSION applies. Releases are (major, minor) pairs: patch releases do not change allocator rules.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

Release = tuple[int, int]

OLDEST_MODELLED: Release = (2, 5)  # expandable blocks left alone by release_available_cached_blocks (PR #134338)
NEWEST_MODELLED: Release = (2, 13)
DEFAULT_VERSION: Release = NEWEST_MODELLED  # the rules of snapshot-format.md section 3, read from 2.13


class TorchVersionError(ValueError):
    """A torch version the simulator has no rules for, or one that does not read as a version."""


@dataclass(frozen=True)
class VersionRule:
    """One allocator rule that a torch release changed: what releases before `since` do, and what `since` on do."""

    name: str
    since: Release
    before: str
    after: str
    source: str


# Dates decide the release where a source names only a pull request: 2.9.0 was published on 2025-10-15, 2.10's
# branch was cut in December 2025.
ROUNDUP_GREATER_STARTS_AFTER_LAST = VersionRule(
    "roundup_greater_starts_after_last",
    (2, 10),
    "`>:N` in roundup_power2_divisions also overwrites the last listed interval ([256:1,512:2,1024:4,>:8] gives "
    "[1, 2) GiB 8 divisions)",
    "`>:N` fills only the intervals after the last listed one ([1, 2) GiB keeps 4)",
    "pytorch PR #165304 (merged 2025-10-19): c10/core/AllocatorConfig.cpp "
    "AcceleratorAllocatorConfig::parseRoundUpPower2Divisions fills from last_index + 1; before, "
    "c10/cuda/CUDAAllocatorConfig.cpp CUDAAllocatorConfig::parseRoundUpPower2Divisions filled from last_index",
)
SPLIT_SIZE_MAY_EQUAL_LARGE_BUFFER = VersionRule(
    "split_size_may_equal_large_buffer",
    (2, 10),
    "max_split_size_mb and max_non_split_rounding_mb must be > 20 (CachingAllocator option max_split_size_mb too "
    "small, must be > 20)",
    "they must be >= the large segment size (20 MB by default)",
    "CUDAAllocatorConfig::parseMaxSplitSize / parseMaxNonSplitRoundingSize check `val1 > kLargeBuffer / mb`; "
    "AcceleratorAllocatorConfig::parseMaxSplitSize (c10/core/AllocatorConfig.cpp) checks "
    "`val_env >= min_allowed_split_size_mb`, and CUDA parses with it since pytorch PR #165135 (October 2025)",
)
LARGE_SEGMENT_SIZE_KEY = VersionRule(
    "large_segment_size_key",
    (2, 13),
    "large_segment_size_mb is an unknown key (Unrecognized CachingAllocator option); large segments and the "
    "expandable large page are kLargeBuffer, 20 MiB",
    "large_segment_size_mb (> 10) sets the large segment size, the expandable large page and the default "
    "max_non_split_rounding_mb",
    "pytorch PR #172056 (opened 2026-01-09) replaced kLargeBuffer by AcceleratorAllocatorConfig::large_segment_size(); "
    "read in the 2.13 headers (c10/core/AllocatorConfig.h); whether 2.11 or 2.12 already had it was not checked",
)

VERSION_RULES: tuple[VersionRule, ...] = (
    ROUNDUP_GREATER_STARTS_AFTER_LAST,
    SPLIT_SIZE_MAY_EQUAL_LARGE_BUFFER,
    LARGE_SEGMENT_SIZE_KEY,
)

# Rules the simulator applies to every modelled release (not in the table, since no release differs), with their
# source:
# - alloc_block rejects first when a memory fraction is set and reserved + the allocation size exceeds fraction x the
#   device's total memory (cudaMemGetInfo's total), expandable segments or not (c10/cuda/CUDACachingAllocator.cpp
#   DeviceCachingAllocator::alloc_block, set_fraction && total_allocated_memory + size > allowed_memory_maximum)
# - an expandable segment reserves 9/8 of the device's total memory, in whole pages (ExpandableSegment, max_handles_ =
#   numSegments(totalGlobalMem + totalGlobalMem / 8))
# - per_process_memory_fraction as a settings key came with pytorch PR #161035; the simulator accepts it in every
#   release as the stand-in for torch.cuda.set_per_process_memory_fraction (pytorch PR #48172), which sets the same
#   limit


def parse_version(text: str) -> Release:
    """(major, minor) of a torch version string: '2.8', '2.8.0', '2.13.0+cu128', '2.14.0.dev20260701'."""
    match = re.match(r"\s*v?(\d+)\.(\d+)", str(text))
    if match is None:
        raise TorchVersionError(f"'{text}' is not a torch version (give one such as 2.8 or 2.13.0)")
    return int(match[1]), int(match[2])


def format_release(release: Release) -> str:
    return f"{release[0]}.{release[1]}"


def modelled_range() -> str:
    return f"{format_release(OLDEST_MODELLED)} to {format_release(NEWEST_MODELLED)}"


def modelled_release(text: str) -> Release:
    """The release a user names, refused (one line) when the simulator has no rules for it."""
    release = parse_version(text)
    if not OLDEST_MODELLED <= release <= NEWEST_MODELLED:
        raise TorchVersionError(
            f"torch {format_release(release)} is not modelled: the simulator has the rules of torch {modelled_range()}"
        )
    return release


def nearest_modelled(release: Release) -> Release:
    """A recorded release outside the modelled ones is simulated by the nearest one that is."""
    return min(max(release, OLDEST_MODELLED), NEWEST_MODELLED)


@dataclass(frozen=True)
class TorchRules:
    """The table's rules as they stand in one release."""

    release: Release = DEFAULT_VERSION

    def holds(self, rule: VersionRule) -> bool:
        """Whether this release has the rule's newer behaviour (`after`)."""
        return self.release >= rule.since

    @property
    def name(self) -> str:
        return f"torch {format_release(self.release)}"


DEFAULT_RULES = TorchRules()
