# Declarations that compile _feed.py as gpumem_gui.core.allocator._cfeed (Cython's pure Python mode) against the
# compiled simulator _sim, so each event's calls into the simulator are C calls. The feed's logic stays in _feed.py
# alone; setup.py compiles that very file under this module's name.

cimport cython

from gpumem_gui.core.allocator._sim cimport Block, DeviceAllocatorSim


@cython.final
cdef class Places:
    cdef public list starts
    cdef public dict spans
    cpdef add(self, start, size, offset)
    cpdef remove(self, start, size)
    @cython.locals(i=Py_ssize_t)
    cpdef translate(self, addr)


@cython.final
cdef class Feed:
    cdef public DeviceAllocatorSim sim
    cdef public object trace, stacks, divergence
    cdef public dict handles, explicit, _frames
    cdef public bint hints
    cdef public set synced
    cdef public list deferred, expected, marks, pools
    cdef public Places places

    cpdef list frames(self, k)
    cpdef pools_released(self, start, stop)
    cpdef diverge(self, row)
    @cython.locals(
        sim=DeviceAllocatorSim, handles=dict, actions=list, addrs=list, sizes=list, streams=list, stack_of=list,
        n=Py_ssize_t, i=Py_ssize_t, skip_until=Py_ssize_t, a=long, pending=set, cached_frames=dict, places=Places,
        deferred=list, marks=list, pools=list, frames=list, block=Block, freed=Block, done=Block, alloc=long, free_requested=long, free_completed=long,
        segment_free=long, segment_unmap=long, oom=long, segment_alloc=long, segment_map=long,
    )
    cpdef run(self)
    cpdef complete_deferred(self)
