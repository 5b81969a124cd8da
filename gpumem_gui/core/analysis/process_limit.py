"""An OOM the device had room for: a memory limit of the process's own refused it, and what the recording says of it.

`torch.cuda.set_per_process_memory_fraction` (or, from torch 2.13, `per_process_memory_fraction` in
PYTORCH_CUDA_ALLOC_CONF) caps what the caching allocator may hold below the device's memory. The allocator then
raises an OOM without calling cudaMalloc, while cudaMemGetInfo (the oom entry's device_free) still shows the device
with room. A trace records neither the call nor the fraction, so the limit is known only by bounds (unless the
gpumem-gui probe recorded the fraction, Snapshot.memory_limit): it lay under what the process held at the OOM plus
what the request needed, and, if it held for the whole recording, at or above the most the process held before.
Seen on an H200 (torch 2.11): a fraction allowing 1.9 GiB refused a 1.9 GiB request on top of the 338 MiB held,
with 138.7 GiB free on the device.
"""

from __future__ import annotations

from dataclasses import dataclass

from gpumem_gui.core.analysis.timetravel import DeviceTimeline, OomEvent
from gpumem_gui.core.rules.allocator_rules import DEFAULT_CONFIG, AllocatorConfig, allocation_size, round_size


@dataclass(frozen=True)
class ProcessLimit:
    """What the recording says of the limit that refused one OOM's request."""

    reserved_bytes: int  # what the process held at the OOM, after the allocator's own releases
    needed_bytes: int  # what the request needed from the device (the new segment, or the pages to map)
    held_bytes: int  # the most the process held before the OOM: allowed, if the limit held all along
    given_bytes: int | None = None  # the limit as the user gave it (explain --capacity), or the probe recorded it
    recorded: bool = False  # given_bytes is what the probe recorded (its fraction of the device's total)

    @property
    def under_bytes(self) -> int:
        """The limit was less than this: the request needed it on top of what was held, and was refused."""
        return self.reserved_bytes + self.needed_bytes

    @property
    def lowered(self) -> bool:
        """The process held more earlier than the limit allowed at the OOM: the limit was set or lowered since."""
        return self.held_bytes >= self.under_bytes

    @property
    def assumed_bytes(self) -> int:
        """The limit a replay assumes: the lowest the recording allows (the most held before), so that what fits
        under it fits under the real one; just under the bound where the limit was lowered during the recording; the
        given one when the user gave it."""
        if self.given_bytes is not None:
            return self.given_bytes
        return self.under_bytes - 1 if self.lowered else self.held_bytes

    @property
    def room_bytes(self) -> int:
        """What the process could still have got from the device under the assumed limit."""
        return max(self.assumed_bytes - self.reserved_bytes, 0)


def obtainable(device_free: int, limit: ProcessLimit | None) -> int:
    """What the allocator could still get from the device: its free memory, or less, the room under `limit`."""
    return device_free if limit is None else min(device_free, limit.room_bytes)


def needed_bytes(requested: int, config: AllocatorConfig = DEFAULT_CONFIG) -> int:
    """What a request needed from the device: the new segment its rounded size takes (0 for no request)."""
    return allocation_size(round_size(requested, config), config) if requested > 0 else 0


def device_had_room(requested: int, device_free: int, config: AllocatorConfig = DEFAULT_CONFIG) -> bool:
    """The device's free memory at the OOM held the request's new segment: something else than the device refused it
    (a memory limit of the process)."""
    return 0 < needed_bytes(requested, config) <= device_free


def process_limit(
    timeline: DeviceTimeline,
    oom: OomEvent,
    config: AllocatorConfig = DEFAULT_CONFIG,
    *,
    given: int | None = None,
    recorded: int | None = None,
) -> ProcessLimit | None:
    """The limit that refused `oom`'s request when the device's free memory held its new segment; None when it did
    not (the device itself was full) or when the recorded settings (`config`) carry the fraction (then it is known,
    and applied as a setting). `given`: the limit as the user knows it (fraction x the device's total);
    `recorded`: as the probe recorded it (Snapshot.memory_limit), taken where nothing is given."""
    if config.per_process_memory_fraction or not device_had_room(oom.requested_bytes, oom.device_free_bytes, config):
        return None
    needed = needed_bytes(oom.requested_bytes, config)
    reserved = timeline.series.reserved
    held = max(int(timeline.series.initial["reserved"]), int(reserved[: oom.index + 1].max(initial=0)))
    if given is None and recorded is not None:
        return ProcessLimit(int(reserved[oom.index]), needed, held, recorded, recorded=True)
    return ProcessLimit(int(reserved[oom.index]), needed, held, given)
