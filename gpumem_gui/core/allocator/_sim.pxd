# Declarations that compile simulator.py as gpumem_gui.core.allocator._sim (Cython's pure Python mode): the classes
# become extension types with C slots and C-level method calls. The rules stay in simulator.py alone; setup.py
# compiles that very file under this module's name. A method added there is compiled as a plain Python method
# until it is declared here.

cimport cython


# a replay makes and drops a block per split and merge: a freelist spares the allocator a malloc and free per block
@cython.freelist(256)
@cython.final
cdef class Block:
    cdef public object addr, size, stream, requested, segment_head, frames, segment_frames, expandable
    cdef public object stream_uses, gc_count_base, event_count, pool_key, pool
    cdef public bint small, allocated, mapped
    cdef public Block prev, next


cpdef _splice(Block block, Block prev, Block nxt)
cpdef _key(stream, size, addr)


@cython.final
cdef class _Pool:
    cdef public bint small
    cdef public list keys, unmapped
    cdef public dict by_key, unmapped_blocks
    cdef public object get_free_blocks_call_count, owner
    cpdef insert(self, Block block)
    @cython.locals(keys=list)
    cpdef erase(self, Block block)
    cpdef insert_unmapped(self, Block block)
    cpdef erase_unmapped(self, Block block)
    cpdef list free_blocks(self)


@cython.final
cdef class DeviceAllocatorSim:
    cdef public object config, capacity, device_memory, device, max_entries, fraction, _max_split_size
    cdef public bint record_history, _plain_rounding, _expandable
    cdef public double _gc_threshold
    cdef public _Pool small_pool, large_pool
    cdef public dict segments, expandable_heads, _va, private_pools
    cdef public list expandable_segments, _pending, _captures
    cdef public object _trace, _next_va, address_hint
    # C integers: one add per request each, where a Python int would be made anew (byte counts and microseconds
    # stay below 2**63)
    cdef public long long reserved, allocated, clock_us
    cdef public Py_ssize_t num_alloc_retries, num_ooms, num_device_alloc, num_device_free

    @cython.locals(pool=_Pool, block=Block)
    cpdef Block malloc(self, size, stream=*, frames=*, pool_id=*)
    cpdef free(self, Block block, frames=*)
    cpdef record_stream(self, Block block, stream)
    cpdef synchronize(self, stream=*)
    cpdef process_events(self)
    cpdef empty_cache(self, frames=*, pool_id=*)
    @cython.locals(keys=list, i=Py_ssize_t, block=Block, nxt=Block)
    cpdef Block get_free_block(self, _Pool pool, stream, size)
    cpdef Block alloc_block(self, _Pool pool, stream, size, alloc_size, frames)
    @cython.locals(rest=Block, nxt=Block)
    cpdef Block alloc_found_block(self, Block block, _Pool pool, requested, size, frames)
    @cython.locals(pool=_Pool, prev=Block, nxt=Block)
    cpdef free_block(self, Block block, frames)
    cpdef _try_merge(self, Block block, Block neighbour, _Pool pool)
    cpdef release_cached_blocks(self, frames=*)
    cpdef release_blocks(self, _Pool pool, frames=*)
    cpdef release_block(self, Block block, _Pool pool, frames=*)
    cpdef bint release_available_cached_blocks(self, _Pool pool, stream, size, frames=*)
    cpdef garbage_collect_cached_blocks(self, frames=*)
    cpdef Block try_allocate_expandable_block(self, _Pool pool, stream, size, frames)
    cpdef Block _find_expandable_block(self, _Pool pool, stream, size)
    cpdef bint _map_block(self, Block block, size, _Pool pool, frames)
    cpdef unmap_block(self, Block block, _Pool pool, frames=*)
    cpdef _record(self, action, addr, size, stream, frames, pool_id=*)
