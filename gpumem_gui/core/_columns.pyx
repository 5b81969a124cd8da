# distutils: language = c++
# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""Compiled extraction of trace-entry dicts into columns: one C pass instead of one Python pass per key.

Integer keys become int64 columns; string-like keys become codes from tables the caller owns (a value not yet
in its table is handed to the caller's function once); frame lists are grouped by a signature of their frame
objects (pickles share the frame dicts of repeated stacks) and each is checked equal to its group's first, in the
same pass, while the entry is still in cache: walking a million scattered dicts costs more than the work on them.
"""

from libcpp.unordered_map cimport unordered_map
from libcpp.vector cimport vector

from cpython.dict cimport PyDict_Size
from cpython.object cimport PyObject, PyObject_RichCompareBool, Py_EQ
from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t
from cython.operator cimport dereference as deref

import numpy as np

INT_KEYS = ("addr", "size", "stream", "time_us")
CODE_KEYS = ("action", "compile_context", "user_metadata", "pool_id")
FRAMES_KEY = "frames"
cdef uint64_t _RECENT = 1 << 16

cdef extern from "Python.h":
    bint PyLong_Check(PyObject* o)
    bint PyDict_Check(PyObject* o)
    bint PyList_Check(PyObject* o)
    bint PyTuple_Check(PyObject* o)
    long long PyLong_AsLongLongAndOverflow(PyObject* o, int* overflow)
    PyObject* PyDict_GetItemWithError(object d, object key)
    PyObject* PyErr_Occurred()
    PyObject* PyDict_GetItem(object d, object key)
    Py_ssize_t PyList_GET_SIZE(PyObject* o)
    PyObject* PyList_GET_ITEM(PyObject* o, Py_ssize_t i)
    Py_ssize_t PyTuple_GET_SIZE(PyObject* o)
    PyObject* PyTuple_GET_ITEM(PyObject* o, Py_ssize_t i)
    void PyErr_Clear()


class ColumnError(ValueError):
    """An entry that is not a dict, or a value that is not an integer where one must be."""


cdef inline PyObject* _get(object d, object key) except? NULL:
    # PyDict_GetItem saves and restores the exception state on every call; the WithError form does not
    cdef PyObject* item = PyDict_GetItemWithError(d, key)
    if item is NULL and PyErr_Occurred():
        raise ColumnError("a trace entry could not be read")
    return item


cdef inline int32_t _code(dict table, object value, object on_miss) except? -2:
    cdef PyObject* item = PyDict_GetItemWithError(table, value)
    if item is NULL and PyErr_Occurred():  # unhashable (a JSON list for a pool id): the caller decides each time
        PyErr_Clear()
        return on_miss(value)
    if item is NULL:
        code = on_miss(value)
        table[value] = code
        return code
    return <int32_t> (<object> item)


cdef inline uint64_t _signature(PyObject* frames, Py_ssize_t size, bint is_list):
    # FNV-style mix of the frame objects' addresses: equal signatures are verified with == by the caller
    cdef uint64_t h = 1469598103934665603ULL ^ <uint64_t> size
    cdef Py_ssize_t j
    cdef PyObject* frame
    for j in range(size):
        frame = PyList_GET_ITEM(frames, j) if is_list else PyTuple_GET_ITEM(frames, j)
        h = (h ^ <uint64_t> frame) * 1099511628211ULL
        h ^= h >> 29
    return h


cdef object _own_key(list entries, str key):
    for entry in entries[:1] + entries[-1:]:
        if isinstance(entry, dict):
            for k in entry:
                if k == key:
                    return k
    return key


def extract(list entries, tuple tables, tuple on_miss):
    """Columns of `entries`: ints and their presence, codes (-1 absent), frame groups, rows with extra keys.

    `tables` and `on_miss` give, for each of CODE_KEYS, the dict value -> code and the function for new values.
    Frames: `group[i]` indexes `leaders` (the first frame list seen with that signature; -1: no frames) and
    `mismatch[i]` flags the rare list unequal to its leader, or a frames value that is not a list or tuple.
    Extra rows are those with keys beyond INT_KEYS, CODE_KEYS and FRAMES_KEY (oom's device_free, ...).
    """
    cdef Py_ssize_t n = len(entries)
    cdef Py_ssize_t i, k, found
    cdef int overflow
    cdef long long value
    cdef PyObject* entry
    cdef PyObject* item
    ints_arr = np.zeros((len(INT_KEYS), n), np.int64)
    present_arr = np.zeros((len(INT_KEYS), n), np.uint8)
    codes_arr = np.full((len(CODE_KEYS), n), -1, np.int32)
    group_arr = np.full(n, -1, np.int32)
    mismatch_arr = np.zeros(n, np.uint8)
    cdef int32_t[::1] group = group_arr
    cdef uint8_t[::1] mismatch = mismatch_arr
    cdef unordered_map[uint64_t, int32_t] group_of  # frame signature -> group
    cdef unordered_map[uint64_t, int32_t].iterator found_group
    # frame list object -> group, in a direct-mapped cache: an alloc and its frees share one list a few entries
    # apart, so most entries need no walk at all (a full map would miss the CPU cache on every entry)
    cdef vector[uint64_t] recent_list = vector[uint64_t](_RECENT, 0)
    cdef vector[int32_t] recent_group = vector[int32_t](_RECENT, 0)
    cdef uint64_t slot
    cdef uint64_t h
    cdef list leaders = []
    cdef object leader
    cdef int64_t[:, ::1] ints = ints_arr
    cdef uint8_t[:, ::1] present = present_arr
    cdef int32_t[:, ::1] codes = codes_arr
    # look keys up with the entries' own key objects: a pickle memoizes each key once, so the dict lookup then
    # matches by identity instead of comparing strings
    cdef list int_keys = [_own_key(entries, name) for name in INT_KEYS]
    cdef list code_keys = [_own_key(entries, name) for name in CODE_KEYS]
    cdef Py_ssize_t n_int = len(int_keys), n_code = len(code_keys)
    cdef object frames_key = _own_key(entries, FRAMES_KEY)
    extra = []
    for i in range(n):
        entry = <PyObject*> entries[i]
        if not PyDict_Check(entry):
            raise ColumnError(f"entry {i} is not a dict")
        found = 0
        for k in range(n_int):
            item = _get(<object> entry, int_keys[k])
            if item is NULL:
                continue
            found += 1
            if not PyLong_Check(item):
                if <object> item is None:
                    continue
                raise ColumnError(f"entry {i} has a non-integer {int_keys[k]!r}")
            value = PyLong_AsLongLongAndOverflow(item, &overflow)
            if overflow:
                raise ColumnError(f"entry {i} has an out-of-range {int_keys[k]!r}")
            ints[k, i] = value
            present[k, i] = 1
        for k in range(n_code):
            item = _get(<object> entry, code_keys[k])
            if item is not NULL:
                found += 1
                codes[k, i] = _code(<dict> tables[k], <object> item, on_miss[k])
        item = _get(<object> entry, frames_key)
        if item is not NULL:
            found += 1
            slot = (<uint64_t> item >> 4) & (_RECENT - 1)
            if recent_list[slot] == <uint64_t> item:
                group[i] = recent_group[slot]
                h = 0
            elif PyList_Check(item):
                h = _signature(item, PyList_GET_SIZE(item), True)
            elif PyTuple_Check(item):
                h = _signature(item, PyTuple_GET_SIZE(item), False)
            elif <object> item is None:
                h = 0
            else:
                mismatch[i] = 1
                h = 0
            if h:
                found_group = group_of.find(h)
                if found_group == group_of.end():
                    group_of[h] = len(leaders)
                    group[i] = len(leaders)
                    leaders.append(<object> item)
                    recent_list[slot], recent_group[slot] = <uint64_t> item, group[i]
                else:
                    group[i] = deref(found_group).second
                    leader = leaders[group[i]]
                    if PyObject_RichCompareBool(leader, <object> item, Py_EQ):
                        recent_list[slot], recent_group[slot] = <uint64_t> item, group[i]
                    else:
                        mismatch[i] = 1
        if PyDict_Size(<object> entry) > found:
            extra.append(i)
    return (
        ints_arr, present_arr.astype(bool), codes_arr, group_arr, leaders, mismatch_arr.astype(bool),
        np.asarray(extra, np.int64),
    )
