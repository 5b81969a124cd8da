# cython: boundscheck=False, wraparound=False
# (for the compiled twin: every index below is checked by the code itself, so the per-event list reads skip Cython's)
"""The what-if replay's feed: recorded events run through the simulator, and the first one the replay did not do alike.

The pure twin of `_cfeed` (setup.py compiles this very file under that name, with `_cfeed.pxd`, against the
compiled simulator `_sim`); replay() picks one pair of the two.
"""

from __future__ import annotations

from bisect import bisect_right, insort  # names, not module attributes: translate runs once per request
from typing import TYPE_CHECKING, Any

import numpy as np

from gpumem_gui.core.allocator._oom import OutOfMemoryError
from gpumem_gui.core.snapshot.model import Action

if TYPE_CHECKING:
    from gpumem_gui.core.allocator import simulator
    from gpumem_gui.core.allocator.releases import ReleaseRun
    from gpumem_gui.core.snapshot.model import StackTable, TraceTable

_RELEASES = ("segment_free", "segment_unmap")
_ACQUIRES = ("segment_alloc", "segment_map")


def _acquires(expected: list[tuple[int, int, int, int]]) -> bool:
    """Whether a device call of the request so far acquires memory (a function of its own: Cython cannot compile
    a generator expression inside a method it calls from C)."""
    return any(sign > 0 for _, sign, _, _ in expected)


class Places:
    """Where the replay put each recorded device range: the offset from a recorded address to the replay's own.

    Ranges come from the state before the trace (offset 0) and from pairing each recorded cudaMalloc or page map
    with the one the simulator made for the same request; releases carve them out again.
    """

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.spans: dict[int, tuple[int, int]] = {}  # start -> (end, offset)

    def add(self, start: int, size: int, offset: int) -> None:
        self.remove(start, size)
        insort(self.starts, start)
        self.spans[start] = (start + size, offset)

    def remove(self, start: int, size: int) -> None:
        end = start + size
        i = max(bisect_right(self.starts, start) - 1, 0)
        while i < len(self.starts) and self.starts[i] < end:
            s = self.starts[i]
            e, offset = self.spans[s]
            if e <= start:
                i += 1
                continue
            del self.starts[i], self.spans[s]
            for lo, hi in ((s, start), (end, e)):  # the parts outside the removed range stay
                if lo < hi:
                    self.starts.insert(i, lo)
                    self.spans[lo] = (hi, offset)
                    i += 1

    def translate(self, addr: int) -> int | None:
        i = bisect_right(self.starts, addr) - 1
        if i >= 0:
            end, offset = self.spans[self.starts[i]]
            if addr < end:
                return addr + offset
        return None


class Feed:
    """Runs the recorded events through the simulator and finds the first one the replay did not do alike.

    A divergence is a recorded device call (cudaMalloc or page map, or their release) that the replay did not
    make for the same request, or one it made that the recording did not (compared by size, and by address
    through the ranges both runs got); an OOM where the recording had none, or none where it had one; or a
    block placed elsewhere within its segment. Addresses are compared through `Places`, so a replay without
    address hints is held to the same layout, only not to the same device addresses.

    `pools`: per row, the private pool the recorded event belongs to (None: the default pool), see pool_rows.py.
    A request goes to its pool; a recorded release of a pool's memory says the program had released the pool
    (its graphs destroyed, its MemPool deleted), so the simulator may give that pool's memory back from then on.
    """

    def __init__(
        self,
        sim: simulator.DeviceAllocatorSim,
        trace: TraceTable,
        stacks: StackTable,
        handles: dict[int, simulator.Block],
        *,
        runs: list[ReleaseRun],
        hints: bool,
        pools: list[Any] | None = None,
    ) -> None:
        self.sim, self.trace, self.stacks, self.handles, self.hints = sim, trace, stacks, handles, hints
        self.pools = pools if pools is not None else [None] * len(trace)
        self.explicit = {r.start: r.stop for r in runs if r.explicit}
        # PyTorch's release first waits for every pending free (synchronize_and_free_events): the free_completed
        # rows right before the allocator's own release are its doing, so the replay lets that release (or, where
        # the simulator needs none, the end of the request) complete them, not the row before the request
        actions = trace.action
        self.synced: set[int] = set()
        for run in runs:
            j = run.start - 1
            while not run.explicit and j >= 0 and actions[j] == Action.FREE_COMPLETED:
                self.synced.add(j)
                j -= 1
        self.deferred: list[int] = []  # streams (-address) of pending frees left to the next request
        self.places = Places()
        self.divergence: int | None = None
        self.expected: list[tuple[int, int, int, int]] = []  # (row, +1 acquire / -1 release, addr, size)
        self._frames: dict[int, list[dict[str, Any]]] = {}
        self.marks: list[int] = []  # per recorded row, how many entries the replayed trace held before it

    def frames(self, k: int) -> list[dict[str, Any]]:
        if k not in self._frames:
            self._frames[k] = [{"name": f.name, "filename": f.filename, "line": f.line} for f in self.stacks.stack(k)]
        return self._frames[k]

    def pools_released(self, start: int, stop: int) -> None:
        """The private pools whose memory rows start..stop-1 give back: released by the program before then."""
        for j in range(start, stop):
            pool_id = self.pools[j]
            if pool_id is not None and pool_id in self.sim.private_pools:
                self.sim.private_pools[pool_id].use_count = 0

    def released_pool(self, start: int, stop: int) -> Any:
        """The private pool whose memory alone rows start..stop-1 give back, else None: the recorded emptyCache was
        that pool's (a MemPool deleted releases its own cached segments, not the default pools')."""
        first = self.pools[start]
        if first is None:
            return None
        for j in range(start + 1, stop):
            if self.pools[j] != first:
                return None
        return first

    def diverge(self, row: int) -> None:
        if self.divergence is None:
            self.divergence = row

    def run(self) -> int | None:
        sim, handles, trace = self.sim, self.handles, self.trace
        # the loop reads no size or stack on a free's rows (two thirds of a trace): zeros there are one shared int,
        # where each value would be a Python int made and dropped
        frees = np.isin(trace.action, (int(Action.FREE_REQUESTED), int(Action.FREE_COMPLETED)))
        actions, addrs, sizes = trace.action.tolist(), trace.addr.tolist(), np.where(frees, 0, trace.size).tolist()
        streams, stack_of = trace.stream.tolist(), np.where(frees, 0, trace.stack).tolist()
        n = len(actions)
        pending = {addr for addr, block in handles.items() if block.event_count}  # pending since before the trace
        skip_until = 0  # rows of an explicit empty_cache() already replayed
        # the hot loop's names as locals: an attribute or enum lookup per event is a measurable share of a replay
        alloc, free_requested, free_completed = (
            int(Action.ALLOC),
            int(Action.FREE_REQUESTED),
            int(Action.FREE_COMPLETED),
        )
        segment_free, segment_unmap, oom = int(Action.SEGMENT_FREE), int(Action.SEGMENT_UNMAP), int(Action.OOM)
        segment_alloc, segment_map = int(Action.SEGMENT_ALLOC), int(Action.SEGMENT_MAP)
        cached_frames, places, history, deferred = self._frames, self.places, sim._trace, self.deferred
        marks, pools = self.marks, self.pools
        for i in range(n):
            marks.append(len(history))  # what the replay does for row i are the entries from here on
            a = actions[i]
            if a == alloc:
                mark, calls = len(history), sim.num_device_alloc + sim.num_device_free
                k = stack_of[i]
                frames = cached_frames.get(k)  # one lookup: a stack's frames are made at its first request
                if frames is None:
                    frames = self.frames(k)
                try:
                    block = sim.malloc(sizes[i], streams[i], frames, pools[i])
                except OutOfMemoryError:
                    self.diverge(self.expected[0][0] if self.expected else i)
                    self.expected.clear()
                    continue
                finally:
                    sim.address_hint = None
                    if deferred:
                        self.complete_deferred()
                handles[addrs[i]] = block
                if self.divergence is not None:
                    continue  # only the first divergence is reported: the rest is simulation alone
                if self.expected or sim.num_device_alloc + sim.num_device_free != calls:
                    self.settle(i, mark)
                if places.translate(addrs[i]) != block.addr:
                    self.diverge(i)
            elif a == free_requested:
                freed = handles.get(addrs[i])
                if freed is None or not freed.allocated:
                    continue
                completes_now = i + 1 < n and actions[i + 1] == free_completed and addrs[i + 1] == addrs[i]
                if not completes_now:  # other streams still used it: pending until its free_completed
                    sim.record_stream(freed, -freed.addr)
                    pending.add(addrs[i])
                sim.free(freed)
            elif a == free_completed:
                done = handles.pop(addrs[i], None)
                if done is not None and pending and addrs[i] in pending:
                    pending.discard(addrs[i])
                    if i in self.synced:
                        self.deferred.append(-done.addr)
                    else:
                        sim.synchronize(-done.addr)
            elif a in (segment_free, segment_unmap):
                if i in self.explicit:  # the program's empty_cache(): replayed as such
                    skip_until = self.explicit[i]
                    self.pools_released(i, skip_until)
                    mark = sim.trace_length
                    sim.empty_cache(self.frames(stack_of[i]), self.released_pool(i, skip_until))
                    self.expected = [(j, -1, addrs[j], sizes[j]) for j in range(i, skip_until)]
                    self.settle(i, mark)
                elif i >= skip_until:  # the allocator's own: the simulator decides at the next request
                    self.pools_released(i, i + 1)
                    self.expected.append((i, -1, addrs[i], sizes[i]))
            elif a in (segment_alloc, segment_map):
                if self.hints and not _acquires(self.expected):
                    sim.address_hint = addrs[i]  # the recorded program got this address: take it if free
                self.expected.append((i, 1, addrs[i], sizes[i]))
            elif a == oom:
                # the recorded request failed; under other settings it may fit (and is given back at once)
                mark = sim.trace_length
                try:
                    sim.free(sim.malloc(sizes[i], streams[i], self.frames(stack_of[i]), pools[i]))
                    self.diverge(i)
                except OutOfMemoryError:
                    pass
                finally:
                    sim.address_hint = None
                    self.complete_deferred()
                self.settle(i, mark)
        return self.divergence

    def complete_deferred(self) -> None:
        for stream in self.deferred:  # no-ops where the simulator's own release already completed them
            self.sim.synchronize(stream)
        self.deferred.clear()

    def settle(self, row: int, mark: int) -> None:
        """Compare the device calls the simulator made since `mark` with the recorded ones of this request."""
        expected, self.expected = self.expected, []
        if self.divergence is not None:
            return
        made = self.sim.entries_since(mark)
        first = expected[0][0] if expected else row
        places = self.places
        recorded_out = [(addr, size) for _, sign, addr, size in expected if sign < 0]
        made_out = sorted((addr, size) for action, addr, size in made if action in _RELEASES)
        recorded_in = [(addr, size) for _, sign, addr, size in expected if sign > 0]
        made_in = [(addr, size) for action, addr, size in made if action in _ACQUIRES]
        where = [places.translate(addr) for addr, _ in recorded_out]
        if None in where:  # a range the replay never paired: sizes are all there is to compare
            same_out = sorted(s for _, s in recorded_out) == sorted(s for _, s in made_out)
        else:
            same_out = sorted(zip(where, (s for _, s in recorded_out), strict=True)) == made_out
        if not same_out or [s for _, s in recorded_in] != [s for _, s in made_in]:
            self.diverge(first)
            return
        for addr, size in recorded_out:
            places.remove(addr, size)
        for (addr, size), (own, _) in zip(recorded_in, made_in, strict=True):
            places.add(addr, size, own - addr)
