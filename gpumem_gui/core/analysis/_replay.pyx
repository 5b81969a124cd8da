# distutils: language = c++
# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled forward replay of one device's trace: the fast twin of forward_replay.ForwardReplay.

Same rules, same outputs (a test compares them array for array); C++ maps and flat hash tables stand in for the
Python dicts, sorted lists and heap, so a million events take a fraction of a second instead of seconds. Live mapped
ranges are kept in one map by address, which is all that segment merges, unmaps and frees need.
"""

from libc.stdint cimport int8_t, int32_t, int64_t
from libcpp.algorithm cimport reverse
from libcpp.map cimport map as cmap
from libcpp.vector cimport vector
from libcpp.queue cimport priority_queue

include "_replay_support.pxi"
from cython.operator cimport dereference as deref, preincrement as inc, predecrement as dec

import numpy as np

# the one warning table's codes: both twins report (code, event, address), and replay_warnings words them
from gpumem_gui.core.analysis.replay_warnings import (
    MAX_WARNINGS, W_ALLOC_LIVE, W_ALLOC_NO_SEGMENT, W_ALLOC_NOT_FREE, W_BLOCK_NO_SEGMENT, W_FREE_DONE_NOT_LIVE,
    W_FREE_REQ_NOT_LIVE, W_HISTORY_ALLOC, W_HISTORY_FREE, W_SEG_ALLOC_OVER, W_SEG_FREE_NOT_FREE, W_SEG_MAP_OVER,
    W_UNMAP_NOT_FREE,
)

include "_replay_rules.pxi"

cdef int64_t NEVER = 0x7FFFFFFFFFFFFFFF
cdef size_t MAX_WARNING_COUNT = MAX_WARNINGS

# action codes of model.Action
cdef int8_t ALLOC = 0, FREE_REQUESTED = 1, FREE_COMPLETED = 2, SEGMENT_ALLOC = 3, SEGMENT_FREE = 4
cdef int8_t SEGMENT_MAP = 5, SEGMENT_UNMAP = 6, OOM = 8


cdef struct Seg:
    int64_t end
    int64_t stream
    int small  # -1: an expandable run whose pool its first allocation decides
    int pool
    bint expandable
    int stack


cdef class ForwardReplay:
    cdef cmap[int64_t, Seg] segs
    # live block address -> lifetime id; hashed, since only rare paths (unmaps, broken traces) need its order
    cdef FlatMap active
    cdef FlatMap gap_end  # free gap start -> end
    cdef FlatMap gap_start  # free gap end -> start
    cdef FlatMap gap_count  # free gap size -> how many
    cdef priority_queue[int64_t] gap_sizes  # max-heap of sizes, stale entries dropped lazily
    cdef int64_t largest  # the largest free gap, or -1 when the heap must be consulted
    cdef bint sizes_kept  # gap_count and gap_sizes kept up (not in run_peaks, which never asks for the largest)
    cdef cmap[int64_t, int64_t] live_pieces  # mapped range address -> piece id
    # the lifetimes' columns: numpy arrays made once at their most (every block before the trace, every alloc) and
    # filled in place, returned as views: growing vectors moved and touched twice their bytes, then were copied
    cdef int64_t* l_addr
    cdef int64_t* l_size
    cdef int64_t* l_req
    cdef int64_t* l_start
    cdef int64_t* l_pend
    cdef int64_t* l_end
    cdef int32_t* l_stack
    cdef int64_t n_life, life_room
    # run_peaks reuses the rows of ended lifetimes (no lifetime is read once it ended there): the rows written are
    # then as many as the blocks live at once, not one per alloc, each a fresh page of memory
    cdef bint reuse_lives
    cdef vector[int64_t] ended_lives
    cdef object life_cols
    cdef vector[int64_t] p_addr, p_size, p_stream, p_start, p_end
    cdef vector[int32_t] p_small, p_pool, p_exp, p_stack
    cdef vector[int64_t] kf_ids, kf_offsets
    cdef vector[int64_t] w_code, w_event, w_addr
    cdef vector[int64_t] ooms
    cdef int64_t reserved, allocated, requested, active_bytes
    cdef public int64_t rule_mismatches
    cdef int64_t max_split
    cdef int64_t divisions[16]
    cdef const int8_t[:] action
    cdef const int64_t[:] addr, size, stream
    # history() makes them: the allocs still live at the end (ascending event) and their final sizes, few (the final
    # state's blocks), read by a cursor as the replay goes forward (a column of every event was 8 bytes a row to write)
    cdef vector[int64_t] known_event, known_size
    cdef size_t known_next
    cdef public bint free_stacks_kept  # what history() decided or was told: a free's stack stands for its alloc's
    cdef const int32_t[:] stack, pool
    cdef int64_t* block_sizes  # the output column, set for the duration of run() (NULL in run_peaks: none)

    def __init__(self, action, addr, size, stream, stack, pool, int64_t max_split, divisions):
        self.action, self.addr, self.size, self.stream = action, addr, size, stream
        self.stack, self.pool = stack, pool
        self.max_split = max_split
        for k in range(16):
            self.divisions[k] = divisions[k]
        self.reserved = self.allocated = self.requested = self.active_bytes = 0
        self.rule_mismatches = 0
        self.largest = -1
        self.sizes_kept = True

    # -- free gaps -------------------------------------------------------------------------------------

    cdef void add_gap(self, int64_t start, int64_t end):
        if end <= start:
            return
        self.gap_end.set(start, end)
        self.gap_start.set(end, start)
        if not self.sizes_kept:
            return
        cdef int64_t* count = &self.gap_count.at(end - start, 0)
        if count[0] == 0:
            self.gap_sizes.push(end - start)
        count[0] += 1
        if self.largest >= 0 and end - start > self.largest:
            self.largest = end - start

    cdef int64_t remove_gap(self, int64_t start):
        cdef int64_t end = self.gap_end.get(start, start)
        self.gap_end.erase(start)
        self.gap_start.erase(end)
        if not self.sizes_kept:
            return end
        cdef int64_t* count = &self.gap_count.at(end - start, 0)
        dec(count[0])
        if count[0] == 0 and end - start == self.largest:
            self.largest = -1
        return end

    cdef int64_t largest_gap(self):
        cdef int64_t* count
        if self.largest >= 0:
            return self.largest
        self.largest = self.find_largest()
        return self.largest

    cdef int64_t find_largest(self):
        cdef int64_t* count
        while not self.gap_sizes.empty():
            count = self.gap_count.find(self.gap_sizes.top())
            if count != NULL:
                if count[0] > 0:
                    return self.gap_sizes.top()
                self.gap_count.erase(self.gap_sizes.top())  # a size is pushed again when its count leaves zero
            self.gap_sizes.pop()
        return 0

    cdef bint has_gap_at(self, int64_t start):
        return self.gap_end.contains(start)

    cdef int64_t gap_containing(self, int64_t a, int64_t seg_start):
        """Start of the free gap holding address `a` in the segment starting at seg_start, or -1."""
        cdef int64_t lo = seg_start, best = -1, best_lid = -1
        cdef size_t slot
        for slot in range(self.active.capacity()):  # the live block closest below `a`: a scan, this path is rare
            if self.active.slot_used(slot) and seg_start <= self.active.slot_key(slot) <= a:
                if self.active.slot_key(slot) > best:
                    best, best_lid = self.active.slot_key(slot), self.active.slot_value(slot)
        if best_lid >= 0:
            lo = best + self.l_size[best_lid]
            if lo > a:
                return -1
        if self.has_gap_at(lo) and self.gap_end.get(lo, lo) > a:
            return lo
        return -1

    # -- segments ---------------------------------------------------------------------------------------

    cdef bint overlaps(self, int64_t start, int64_t end):
        # whether a live segment shares an address with [start, end) (segment_map.SegmentMap.overlaps, its twin)
        cdef cmap[int64_t, Seg].iterator it = self.segs.lower_bound(start)
        if it != self.segs.end() and deref(it).first < end:
            return True
        if it == self.segs.begin():
            return False
        dec(it)
        return deref(it).second.end > start

    cdef cmap[int64_t, Seg].iterator containing(self, int64_t a):
        cdef cmap[int64_t, Seg].iterator it = self.segs.upper_bound(a)
        if it == self.segs.begin():
            return self.segs.end()
        dec(it)
        if a < deref(it).second.end:
            return it
        return self.segs.end()

    cdef int64_t new_piece(self, int64_t a, int64_t sz, Seg seg, int64_t start, int stack):
        self.p_addr.push_back(a)
        self.p_size.push_back(sz)
        self.p_stream.push_back(seg.stream)
        self.p_small.push_back(seg.small)
        self.p_pool.push_back(seg.pool)
        self.p_exp.push_back(seg.expandable)
        self.p_stack.push_back(stack)
        self.p_start.push_back(start)
        self.p_end.push_back(NEVER)
        cdef int64_t pid = self.p_addr.size() - 1
        self.live_pieces[a] = pid
        return pid

    cdef void set_pieces_small(self, int64_t start, int64_t end, int small):
        cdef cmap[int64_t, int64_t].iterator it = self.live_pieces.lower_bound(start)
        while it != self.live_pieces.end() and deref(it).first < end:
            self.p_small[deref(it).second] = small
            inc(it)

    cdef Seg seg_from_event(self, int64_t i, bint expandable):
        cdef Seg seg
        seg.end = self.addr[i] + self.size[i]
        seg.stream = self.stream[i]
        seg.small = -1 if expandable else (1 if self.size[i] == SMALL_BUFFER else 0)
        seg.pool = self.pool[i] if self.pool[i] >= 0 else 0
        seg.expandable = expandable
        seg.stack = self.stack[i]
        return seg

    cdef void warn(self, int64_t code, int64_t event, int64_t a):
        if self.w_code.size() < MAX_WARNING_COUNT:
            self.w_code.push_back(code)
            self.w_event.push_back(event)
            self.w_addr.push_back(a)

    # -- lifetimes --------------------------------------------------------------------------------------

    cdef void life_columns(self, int64_t room):
        """The lifetimes' columns with room for `room` lifetimes, those made so far kept."""
        room = max(room, 1)  # a pointer to element 0 of each
        cols = [np.empty(room, np.int64) for _ in range(6)] + [np.empty(room, np.int32)]
        if self.life_cols is not None:
            for new, old in zip(cols, self.life_cols):
                new[:self.n_life] = old[:self.n_life]
        self.life_cols, self.life_room = cols, room
        cdef int64_t[::1] c0 = cols[0], c1 = cols[1], c2 = cols[2], c3 = cols[3], c4 = cols[4], c5 = cols[5]
        cdef int32_t[::1] c6 = cols[6]
        self.l_addr, self.l_size, self.l_req = &c0[0], &c1[0], &c2[0]
        self.l_start, self.l_pend, self.l_end, self.l_stack = &c3[0], &c4[0], &c5[0], &c6[0]

    cdef int64_t new_life(self, int64_t a, int64_t sz, int64_t req, int32_t stack, int64_t start):
        cdef int64_t lid
        if self.reuse_lives and self.ended_lives.size():
            lid = self.ended_lives.back()
            self.ended_lives.pop_back()
        else:
            if self.n_life == self.life_room:  # only where setup's count fell short
                self.life_columns(2 * self.life_room + 16)
            lid = self.n_life
            self.n_life += 1
        self.l_addr[lid] = a
        self.l_size[lid] = sz
        self.l_req[lid] = req
        self.l_stack[lid] = stack
        self.l_start[lid] = start
        self.l_pend[lid] = NEVER
        self.l_end[lid] = NEVER
        return lid

    cdef int64_t block_size(self, int64_t a, int64_t req, int64_t free_end, cmap[int64_t, Seg].iterator seg_it):
        cdef int64_t rounded = rule_round_size(req, self.divisions)
        cdef int64_t available = free_end - a
        cdef Seg* seg = &deref(seg_it).second
        if seg.small < 0:
            seg.small = 1 if rounded <= SMALL_SIZE else 0
            self.set_pieces_small(deref(seg_it).first, seg.end, seg.small)
        if rounded >= available:
            return available
        if rule_should_split(available, rounded, seg.small == 1, seg.expandable, self.max_split):
            return rounded
        return available

    # -- history: blocks live before the first event (the compiled twin of backward_pass.block_history) --------

    def history(self, final_addr, final_size, final_req, final_stack, final_pending, int keep_free_stack=-1):
        """Undo the block events from the final live blocks: the blocks live before the first event (sorted by
        address: addr, size or -1, requested, stack, pending), and the allocs still live at the end with their final
        sizes (events ascending). A block seen only being freed has its free's stack with `keep_free_stack` (frees
        that carry allocation stacks), else none; -1 (the default): decided in this pass, as frees_carry_alloc_stacks
        decides it (free_stacks_kept says what was decided)."""
        cdef FlatMap live  # address -> row of the vectors below
        # frees_carry_alloc_stacks backward: address -> the stack of the later free_requested whose alloc is not met
        cdef FlatMap waiting
        cdef bint decide = keep_free_stack < 0, paired = False, unpaired = False
        cdef vector[int64_t] h_addr, h_size, h_req, h_stack, h_pending, h_alive, free_only
        cdef int64_t n = self.action.shape[0], i, row, a
        cdef int64_t* found
        cdef int64_t* freed_stack
        cdef int8_t act
        self.known_event.clear()
        self.known_size.clear()
        self.known_next = 0
        for i in range(len(final_addr)):
            h_addr.push_back(final_addr[i]); h_size.push_back(final_size[i]); h_req.push_back(final_req[i])
            h_stack.push_back(final_stack[i]); h_pending.push_back(final_pending[i]); h_alive.push_back(1)
            live.set(final_addr[i], i)
        for i in range(n - 1, -1, -1):
            act = self.action[i]
            if act > FREE_COMPLETED:
                continue
            a = self.addr[i]
            if decide:
                if act == ALLOC:
                    freed_stack = waiting.find(a)
                    if freed_stack != NULL:
                        if freed_stack[0] >= 0:
                            if freed_stack[0] == self.stack[i]:
                                paired = True
                            else:
                                unpaired = True
                        waiting.erase(a)
                elif act == FREE_REQUESTED:
                    waiting.set(a, self.stack[i])
            found = live.find(a)
            if act == ALLOC:
                if found == NULL:
                    self.warn(W_HISTORY_ALLOC, i, a)
                    continue
                row = found[0]
                if h_size[row] >= 0:
                    self.known_event.push_back(i)
                    self.known_size.push_back(h_size[row])
                h_alive[row] = 0
                live.erase(a)
            elif act == FREE_REQUESTED:
                if found != NULL:
                    h_pending[found[0]] = 0
                    continue
                free_only.push_back(h_addr.size())
                h_addr.push_back(a); h_size.push_back(-1); h_req.push_back(self.size[i])
                h_stack.push_back(self.stack[i]); h_pending.push_back(0); h_alive.push_back(1)
                live.set(a, h_addr.size() - 1)
            else:
                if found != NULL:
                    self.warn(W_HISTORY_FREE, i, a)
                    h_alive[found[0]] = 0
                free_only.push_back(h_addr.size())
                h_addr.push_back(a); h_size.push_back(-1); h_req.push_back(self.size[i])
                h_stack.push_back(self.stack[i]); h_pending.push_back(1); h_alive.push_back(1)
                live.set(a, h_addr.size() - 1)
        self.free_stacks_kept = (paired and not unpaired) if decide else keep_free_stack > 0
        if not self.free_stacks_kept:
            for row in free_only:
                h_stack[row] = -1
        alive = np.array(<int64_t[:h_alive.size()]> h_alive.data(), dtype=bool) if h_alive.size() else np.zeros(0, bool)
        cols = [arr64(h_addr), arr64(h_size), arr64(h_req), arr64(h_stack), arr64(h_pending)]
        cols = [c[alive] for c in cols]
        order = np.argsort(cols[0], kind="stable")
        reverse(self.known_event.begin(), self.known_event.end())  # found backward
        reverse(self.known_size.begin(), self.known_size.end())
        return [c[order] for c in cols], (arr64(self.known_event), arr64(self.known_size))

    # -- setup: the state before the first event ----------------------------------------------------------

    def setup(self, seg_start, seg_end, seg_stream, seg_small, seg_pool, seg_exp, seg_stack,
              blk_addr, blk_size, blk_req, blk_stack, blk_pending):
        cdef Seg seg
        cdef int64_t k, j, a, sz, next_start, lid, cursor
        cdef cmap[int64_t, Seg].iterator it
        cdef int64_t b
        cdef int64_t i, allocs = 0
        for i in range(self.action.shape[0]):  # each alloc makes one lifetime at most
            allocs += self.action[i] == ALLOC
        self.life_columns(len(blk_addr) + allocs)
        for k in range(len(seg_start)):
            seg.end, seg.stream, seg.small = seg_end[k], seg_stream[k], seg_small[k]
            seg.pool, seg.expandable, seg.stack = seg_pool[k], seg_exp[k], seg_stack[k]
            self.segs[seg_start[k]] = seg
        it = self.segs.begin()
        while it != self.segs.end():
            self.new_piece(deref(it).first, deref(it).second.end - deref(it).first, deref(it).second, -1,
                           deref(it).second.stack)
            self.reserved += deref(it).second.end - deref(it).first
            inc(it)
        cdef int64_t nb = len(blk_addr)
        for j in range(nb):
            a = blk_addr[j]
            it = self.containing(a)
            if it == self.segs.end():
                self.warn(W_BLOCK_NO_SEGMENT, -1, a)
                seg.end = a + (blk_size[j] if blk_size[j] >= 0 else blk_req[j])
                it = self.segs.upper_bound(a)  # a stand-in segment overlaps none
                if it != self.segs.end() and deref(it).first < seg.end:
                    seg.end = deref(it).first
                seg.stream, seg.small, seg.pool, seg.expandable, seg.stack = 0, -1, 0, False, -1
                self.segs[a] = seg
                self.new_piece(a, seg.end - a, seg, -1, -1)
                self.reserved += seg.end - a
                it = self.segs.find(a)
            sz = blk_size[j]
            if sz < 0:
                next_start = blk_addr[j + 1] if j + 1 < nb else deref(it).second.end
                if next_start > deref(it).second.end:
                    next_start = deref(it).second.end
                sz = self.block_size(a, blk_req[j], next_start, it)
            lid = self.new_life(a, sz, blk_req[j], blk_stack[j], -1)
            if blk_pending[j]:
                self.l_pend[lid] = -1
            else:
                self.allocated += sz
                self.requested += blk_req[j]
            self.active.set(a, lid)
            self.active_bytes += sz
        it = self.segs.begin()
        b = 0  # blocks arrive sorted by address
        while it != self.segs.end():
            cursor = deref(it).first
            while b < nb and blk_addr[b] < deref(it).first:
                b += 1
            while b < nb and blk_addr[b] < deref(it).second.end:
                self.add_gap(cursor, blk_addr[b])
                cursor = blk_addr[b] + self.l_size[self.active.get(blk_addr[b], 0)]
                b += 1
            self.add_gap(cursor, deref(it).second.end)
            inc(it)
        return {
            "reserved": self.reserved,
            "allocated": self.allocated,
            "requested": self.requested,
            "active": self.active_bytes,
            "largest_free": self.largest_gap(),
            "segments": self.segs.size(),
        }

    # -- the replay -----------------------------------------------------------------------------------------

    def run(self, int64_t keyframe_interval, int64_t[:] out_reserved, int64_t[:] out_allocated,
            int64_t[:] out_requested, int64_t[:] out_active, int64_t[:] out_largest, int64_t[:] out_segments,
            int64_t[:] block_sizes):
        cdef int64_t n = self.action.shape[0]
        cdef int64_t i
        self.block_sizes = &block_sizes[0] if n else NULL
        for i in range(n):
            if i % keyframe_interval == 0:
                self.keyframe()
            self.step(i)
            out_reserved[i] = self.reserved
            out_allocated[i] = self.allocated
            out_requested[i] = self.requested
            out_active[i] = self.active_bytes
            out_largest[i] = self.largest_gap()
            out_segments[i] = self.segs.size()
        if n % keyframe_interval == 0:
            self.keyframe()

    def run_peaks(self):
        """The replay of run() without its outputs (no counters, block sizes or keyframes): the peaks of reserved
        and of allocated memory, the state before the first event included. A report needs no more of the trace,
        and the per-event columns are most of the replay's cost (each new page of memory is written once)."""
        cdef int64_t n = self.action.shape[0]
        cdef int64_t i
        cdef int64_t peak_reserved = self.reserved, peak_allocated = self.allocated
        self.block_sizes = NULL
        self.sizes_kept = False  # the largest gap is never asked for: its heap is not kept (run() may not follow)
        self.reuse_lives = True  # nor result(): the lifetimes' rows are reused (alive() reads the live ones)
        for i in range(n):
            self.step(i)
            if self.reserved > peak_reserved:
                peak_reserved = self.reserved
            if self.allocated > peak_allocated:
                peak_allocated = self.allocated
        return peak_reserved, peak_allocated

    def warnings(self):
        """(code, event, address) of each warning so far, history's first (replay_warnings words them)."""
        return list(zip(self.w_code, self.w_event, self.w_addr))

    def alive(self):
        """Address and size of each block live after the last event (those whose lifetime never ends)."""
        cdef vector[int64_t] addrs, sizes
        cdef size_t slot
        for slot in range(self.active.capacity()):
            if self.active.slot_used(slot):
                addrs.push_back(self.active.slot_key(slot))
                sizes.push_back(self.l_size[self.active.slot_value(slot)])
        return arr64(addrs), arr64(sizes)

    cdef inline void step(self, int64_t i):
        cdef int8_t a = self.action[i]
        if a == ALLOC:
            self.do_alloc(i)
        elif a == FREE_REQUESTED:
            self.do_free_requested(i)
        elif a == FREE_COMPLETED:
            self.do_free_completed(i)
        elif a == SEGMENT_ALLOC:
            self.do_segment_alloc(i)
        elif a == SEGMENT_FREE:
            self.do_segment_free(i)
        elif a == SEGMENT_MAP:
            self.do_segment_map(i)
        elif a == SEGMENT_UNMAP:
            self.do_segment_unmap(i)
        elif a == OOM:
            self.ooms.push_back(i)

    cdef void keyframe(self):
        cdef size_t slot
        self.kf_offsets.push_back(self.kf_ids.size())
        for slot in range(self.active.capacity()):
            if self.active.slot_used(slot):
                self.kf_ids.push_back(self.active.slot_value(slot))

    cdef void do_alloc(self, int64_t i):
        cdef int64_t a = self.addr[i], req = self.size[i]
        if self.active.contains(a):
            self.warn(W_ALLOC_LIVE, i, a)
            return
        cdef cmap[int64_t, Seg].iterator seg_it = self.containing(a)
        if seg_it == self.segs.end():
            self.warn(W_ALLOC_NO_SEGMENT, i, a)
            return
        cdef int64_t gap = a if self.has_gap_at(a) else self.gap_containing(a, deref(seg_it).first)
        if gap < 0:
            self.warn(W_ALLOC_NOT_FREE, i, a)
            return
        cdef int64_t gap_end = self.remove_gap(gap)
        self.add_gap(gap, a)
        cdef int64_t sz = self.block_size(a, req, gap_end, seg_it)
        cdef int64_t known = -1  # the final size of this alloc, if it is still live at the end
        while self.known_next < self.known_event.size() and self.known_event[self.known_next] < i:
            self.known_next += 1
        if self.known_next < self.known_event.size() and self.known_event[self.known_next] == i:
            known = self.known_size[self.known_next]
        if known >= 0 and known != sz:
            self.rule_mismatches += 1
            if known <= gap_end - a:
                sz = known
        self.add_gap(a + sz, gap_end)
        self.active.set(a, self.new_life(a, sz, req, self.stack[i], i))
        self.allocated += sz
        self.requested += req
        self.active_bytes += sz
        if self.block_sizes != NULL:
            self.block_sizes[i] = sz

    cdef void do_free_requested(self, int64_t i):
        cdef int64_t* found = self.active.find(self.addr[i])
        if found == NULL:
            self.warn(W_FREE_REQ_NOT_LIVE, i, self.addr[i])
            return
        cdef int64_t lid = found[0]
        if self.l_pend[lid] == NEVER:
            self.l_pend[lid] = i
            self.allocated -= self.l_size[lid]
            self.requested -= self.l_req[lid]
        if self.block_sizes != NULL:
            self.block_sizes[i] = self.l_size[lid]

    cdef void do_free_completed(self, int64_t i):
        cdef int64_t a = self.addr[i]
        cdef int64_t* found = self.active.find(a)
        if found == NULL:
            self.warn(W_FREE_DONE_NOT_LIVE, i, a)
            return
        cdef int64_t lid = found[0]
        self.active.erase(a)
        cdef int64_t sz = self.l_size[lid]
        if self.l_pend[lid] == NEVER:
            self.l_pend[lid] = i
            self.allocated -= sz
            self.requested -= self.l_req[lid]
        self.l_end[lid] = i
        if self.reuse_lives:
            self.ended_lives.push_back(lid)
        self.active_bytes -= sz
        if self.block_sizes != NULL:
            self.block_sizes[i] = sz
        cdef cmap[int64_t, Seg].iterator seg_it = self.containing(a)
        cdef int64_t lo = a, hi = a + sz
        cdef int64_t* g = self.gap_start.find(lo)
        if g != NULL and seg_it != self.segs.end() and g[0] >= deref(seg_it).first:
            lo = g[0]
            self.remove_gap(lo)
        if self.has_gap_at(hi) and seg_it != self.segs.end() and hi < deref(seg_it).second.end:
            hi = self.remove_gap(hi)
        self.add_gap(lo, hi)

    cdef void do_segment_alloc(self, int64_t i):
        cdef Seg seg = self.seg_from_event(i, False)
        cdef int64_t a = self.addr[i]
        if self.overlaps(a, seg.end):
            self.warn(W_SEG_ALLOC_OVER, i, a)
            return
        self.new_piece(a, seg.end - a, seg, i, seg.stack)
        self.segs[a] = seg
        self.add_gap(a, seg.end)
        self.reserved += seg.end - a

    cdef void do_segment_free(self, int64_t i):
        cdef int64_t a = self.addr[i]
        cdef cmap[int64_t, Seg].iterator it = self.segs.find(a)
        if it == self.segs.end():
            self.warn(W_SEG_FREE_NOT_FREE, i, a)
            return
        cdef int64_t end = deref(it).second.end
        if not self.has_gap_at(a) or self.gap_end.get(a, a) != end:
            self.warn(W_SEG_FREE_NOT_FREE, i, a)
        else:
            self.remove_gap(a)
        self.segs.erase(it)
        cdef cmap[int64_t, int64_t].iterator p = self.live_pieces.lower_bound(a)
        while p != self.live_pieces.end() and deref(p).first < end:
            self.p_end[deref(p).second] = i
            p = self.live_pieces.erase(p)
        self.reserved -= end - a

    cdef void do_segment_map(self, int64_t i):
        cdef Seg tmpl = self.seg_from_event(i, True)
        cdef int64_t start = self.addr[i], end = tmpl.end
        if self.overlaps(start, end):  # only a broken trace maps memory twice
            self.warn(W_SEG_MAP_OVER, i, start)
            return
        cdef cmap[int64_t, Seg].iterator left = self.segs.lower_bound(start)
        cdef bint has_left = False, has_right = False
        cdef cmap[int64_t, Seg].iterator right = self.segs.find(end)
        if left != self.segs.begin():
            dec(left)
            has_left = (deref(left).second.end == start and deref(left).second.expandable
                        and deref(left).second.stream == tmpl.stream)
        has_right = (right != self.segs.end() and deref(right).second.expandable
                     and deref(right).second.stream == tmpl.stream)
        self.new_piece(start, end - start, tmpl, i, tmpl.stack)
        cdef int64_t lo = start, hi = end
        cdef int64_t* g
        if has_left:
            g = self.gap_start.find(start)
            if g != NULL and g[0] >= deref(left).first:
                lo = g[0]
                self.remove_gap(lo)
        if has_right and self.has_gap_at(end):
            hi = self.remove_gap(end)
        cdef Seg merged = tmpl
        cdef int64_t merged_start = start
        if has_left:
            merged_start = deref(left).first
            merged.stack = deref(left).second.stack
            if deref(left).second.small >= 0:
                merged.small = deref(left).second.small
            self.segs.erase(left)
        if has_right:
            merged.end = deref(right).second.end
            if merged.small < 0:
                merged.small = deref(right).second.small
            self.segs.erase(right)
        self.segs[merged_start] = merged
        if merged.small >= 0:
            self.set_pieces_small(merged_start, merged.end, merged.small)
        self.add_gap(lo, hi)
        self.reserved += end - start

    cdef void do_segment_unmap(self, int64_t i):
        cdef int64_t a = self.addr[i], end = self.addr[i] + self.size[i]
        cdef cmap[int64_t, Seg].iterator it = self.containing(a)
        cdef int64_t gap = -1
        if it != self.segs.end():
            gap = self.gap_containing(a, deref(it).first)
        if it == self.segs.end() or gap < 0 or self.gap_end.get(gap, gap) < end:
            self.warn(W_UNMAP_NOT_FREE, i, a)
            return
        cdef int64_t gap_end = self.remove_gap(gap)
        self.add_gap(gap, a)
        self.add_gap(end, gap_end)
        cdef Seg old = deref(it).second
        cdef int64_t old_start = deref(it).first
        self.segs.erase(it)
        cdef Seg part = old
        if a > old_start:
            part.end = a
            self.segs[old_start] = part
        if old.end > end:
            part.end = old.end
            self.segs[end] = part
        # mapped ranges overlapping [a, end) end here; what is left of them starts anew
        cdef cmap[int64_t, int64_t].iterator p = self.live_pieces.upper_bound(a)
        if p != self.live_pieces.begin():
            dec(p)
        cdef vector[int64_t] cut
        while p != self.live_pieces.end() and deref(p).first < end:
            if deref(p).first + self.p_size[deref(p).second] > a:
                cut.push_back(deref(p).second)
            inc(p)
        cdef int64_t pid, p_lo, p_hi
        cdef Seg holder
        for pid in cut:
            p_lo = self.p_addr[pid]
            p_hi = p_lo + self.p_size[pid]
            self.p_end[pid] = i
            self.live_pieces.erase(p_lo)
            holder = old  # the remainders belong to the parts of the old run, and keep their range's stack
            if p_lo < a:
                self.new_piece(p_lo, a - p_lo, holder, i, self.p_stack[pid])
            if p_hi > end:
                self.new_piece(end, p_hi - end, holder, i, self.p_stack[pid])
        self.reserved -= end - a

    # -- results ----------------------------------------------------------------------------------------------

    def lives(self):
        """The lifetimes' columns (addr, size, requested, stack, start, pend, end), views of those filled."""
        if self.life_cols is None:
            return [np.zeros(0, np.int64)] * 3 + [np.zeros(0, np.int32)] + [np.zeros(0, np.int64)] * 3
        addr, size, req, start, pend, end, stack = [c[:self.n_life] for c in self.life_cols]
        return [addr, size, req, stack, start, pend, end]

    def result(self):
        kf_ids = arr64(self.kf_ids)
        offsets = list(self.kf_offsets) + [len(kf_ids)]
        return {
            "life": self.lives(),
            "pieces": [arr64(self.p_addr), arr64(self.p_size), arr64(self.p_stream), arr32(self.p_small),
                       arr32(self.p_pool), arr32(self.p_exp), arr32(self.p_stack), arr64(self.p_start),
                       arr64(self.p_end)],
            "keyframes": [kf_ids[offsets[k]:offsets[k + 1]] for k in range(len(offsets) - 1)],
            "ooms": list(self.ooms),
            "warnings": self.warnings(),
            "rule_mismatches": self.rule_mismatches,
        }
