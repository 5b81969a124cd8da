"""The CUDA caching allocator's constants, in one place.

Values are those of PyTorch 2.13: `c10/core/AllocatorConfig.h` (kMinBlockSize ... kLargeBuffer) and
`c10/cuda/CUDACachingAllocator.cpp` (the split and rounding rules that use them).
"""

KiB = 1024
MiB = 1024 * KiB
GiB = 1024 * MiB

MIN_BLOCK_SIZE = 512  # kMinBlockSize: every block size is a multiple of this
SMALL_SIZE = 1 * MiB  # kSmallSize: requests up to this go to the small pool
SMALL_BUFFER = 2 * MiB  # kSmallBuffer: small-pool segment size, and the small expandable page
MIN_LARGE_ALLOC = 10 * MiB  # kMinLargeAlloc: below this a large request gets a whole LARGE_BUFFER segment
ROUND_LARGE = 2 * MiB  # kRoundLarge: large segments at or above MIN_LARGE_ALLOC round up to this
LARGE_BUFFER = 20 * MiB  # kLargeBuffer / large_segment_size(): large segment and large expandable page

# roundup_power2_divisions has one entry per power-of-two interval starting at 1 MiB: 16 of them, up to 32 GiB.
ROUNDUP_POWER2_INTERVALS = 16

# max_split_size is "unlimited" by default; snapshots store SIZE_MAX cast to int64, i.e. -1.
UNLIMITED = (1 << 63) - 1
