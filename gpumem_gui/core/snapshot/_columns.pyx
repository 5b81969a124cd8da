# distutils: language = c++
# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""Compiled fast paths that turn trace entries into columns: from dicts already built (JSON), or straight from a
pickle's bytes, so that a million entries never become a million dicts.

Integer keys become int64 columns; string-like keys become codes from tables the caller owns (a value new to its
table is handed to the caller's function once); frame lists are grouped by a signature of their frame objects
(pickles share the frame dicts of repeated stacks) and each is checked to hold its group's first's very frame
objects; FrameInterner (_stack_intern.pxi) then interns each group's frames by content.

The pickle reader knows only the opcodes that build plain data (protocols 2 to 5). Anything else, a global above
all, makes it give up (Unsupported), and the caller falls back to the standard unpickler with globals refused,
which says what was wrong. It never runs code and never reports an error of its own.
"""

from cpython.object cimport PyObject
cimport cython
from cpython.buffer cimport PyBUF_FORMAT, PyBUF_ND
from cpython.ref cimport Py_INCREF, Py_XDECREF
from cpython.dict cimport PyDict_Next
from libc.stdint cimport int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.string cimport memcmp, memcpy
from libcpp.unordered_map cimport unordered_map
from libcpp.unordered_set cimport unordered_set
from posix.mman cimport madvise, MADV_DONTNEED
from libcpp.vector cimport vector
from cython.operator cimport dereference as deref

import struct

import numpy as np

from gpumem_gui.core.snapshot.errors import frame_not_dict, frames_not_list

INT_KEYS = ("addr", "size", "stream", "time_us")
CODE_KEYS = ("action", "compile_context", "user_metadata", "pool_id")
FRAMES_KEY = "frames"
cdef int ROLE_EXTRA = -1, ROLE_ACTION = 4, ROLE_FRAMES = 8, ROLE_NAME = 9, ROLE_FILENAME = 10, ROLE_LINE = 11
cdef uint64_t RECENT = 1 << 16
cdef long long MAX_VALUE = (1 << 62) - 1  # gpumem_gui.core.snapshot.checks.MAX_VALUE

cdef extern from "Python.h":
    bint PyLong_Check(PyObject* o)
    bint PyDict_Check(PyObject* o)
    bint PyList_Check(PyObject* o)
    bint PyTuple_Check(PyObject* o)
    bint PyDict_CheckExact(object o)
    bint PyUnicode_CheckExact(object o)
    long long PyLong_AsLongLongAndOverflow(PyObject* o, int* overflow)
    PyObject* PyDict_GetItemWithError(object d, object key)
    PyObject* PyErr_Occurred()
    void PyErr_Clear()
    Py_ssize_t Py_REFCNT(PyObject* o)
    Py_ssize_t PyList_GET_SIZE(PyObject* o)
    PyObject* PyList_GET_ITEM(PyObject* o, Py_ssize_t i)
    PyObject** PySequence_Fast_ITEMS(PyObject* o)
    Py_ssize_t PyTuple_GET_SIZE(PyObject* o)
    PyObject* PyTuple_GET_ITEM(PyObject* o, Py_ssize_t i)
    object PyUnicode_DecodeUTF8(const char* s, Py_ssize_t size, const char* errors)
    object PyBytes_FromStringAndSize(const char* s, Py_ssize_t size)
    object PyLong_FromLongLong(long long v)
    bint PyList_CheckExact(object o)
    bint PyLong_CheckExact(object o)
    bint PyTuple_CheckExact(object o)
    int PyList_Append(object l, object item) except -1
    object PyTuple_New(Py_ssize_t n)
    void PyTuple_SET_ITEM(object t, Py_ssize_t i, PyObject* item)


class ColumnError(ValueError):
    """An entry that is not a dict, or a value that is not an integer where one must be."""


class Unsupported(Exception):
    """The pickle uses something the fast reader does not read; the standard unpickler must."""


class _Entry:
    """Stands in the unpickled structure for each trace entry the reader turned into a row."""

    __slots__ = ()

    def __repr__(self):
        return "<trace entry>"


ENTRY = _Entry()


class _SkippedFrames:
    """Stands in the memo for a trace entry's frames list that a reader told to read no stacks (stacks=False) checked
    and passed over: another entry may name it as its frames (the first free of a kind, whose action string is new,
    is read opcode by opcode), nothing else may: put in any other place, the reader gives up (refuse_skipped)."""

    __slots__ = ()

    def __repr__(self):
        return "<frames not read>"


SKIPPED_FRAMES = _SkippedFrames()
cdef PyObject* SKIPPED = <PyObject*> SKIPPED_FRAMES  # the module keeps it alive


cdef inline Py_ssize_t _le32(const uint8_t* p):
    # a LONG_BINGET / LONG_BINPUT index: four bytes, little-endian, unsigned
    return <Py_ssize_t> (p[0] | (<uint32_t> p[1] << 8) | (<uint32_t> p[2] << 16) | (<uint32_t> p[3] << 24))


cdef inline bint _exact_pool(object value):
    # a cached pool id matched by ==: only a pair of exact ints is the same pool id
    return (PyTuple_CheckExact(value) and PyTuple_GET_SIZE(<PyObject*> value) == 2
            and PyLong_CheckExact(<object> PyTuple_GET_ITEM(<PyObject*> value, 0))
            and PyLong_CheckExact(<object> PyTuple_GET_ITEM(<PyObject*> value, 1)))


cdef inline uint64_t _signature(PyObject* frames, Py_ssize_t size, bint is_list):
    # FNV-style mix of the frame objects' addresses: equal signatures are then verified with ==
    cdef uint64_t h = 1469598103934665603ULL ^ <uint64_t> size
    cdef Py_ssize_t j
    cdef PyObject* frame
    for j in range(size):
        frame = PyList_GET_ITEM(frames, j) if is_list else PyTuple_GET_ITEM(frames, j)
        h = (h ^ <uint64_t> frame) * 1099511628211ULL
        h ^= h >> 29
    return h | 1  # never 0, which means "no frames"


cdef class EntryColumns:
    """Columns of trace entries, a row per entry in order, filled pair by pair."""

    cdef vector[int64_t] ints0, ints1, ints2, ints3
    cdef vector[uint8_t] present0, present1, present2, present3
    cdef vector[int32_t] codes0, codes1, codes2, codes3
    cdef vector[int32_t] group
    cdef vector[uint8_t] mismatch
    cdef public list leaders
    cdef public dict extras  # row -> {key: value} for keys without a column
    cdef public dict mismatched  # row -> frames value unequal to its group's leader (or not a list)
    cdef public dict unknown_actions  # row -> action value the caller's table maps to "unknown"
    # every object whose address a cache below remembers stays referenced here, so no address is reused
    cdef list kept
    cdef int32_t unknown_code
    cdef tuple tables, on_miss
    cdef dict roles
    cdef uint64_t role_keys[32]
    cdef int role_values[32]
    cdef int n_roles
    cdef unordered_map[uint64_t, int32_t] group_of
    # addresses of lists nobody may fill again: the pickle reader's shared lists, and (with freeze_frames) every list
    # a row took as its frames, which a later APPENDS would change under the row (the reader then gives up)
    cdef unordered_set[uint64_t] frozen
    cdef bint freeze_frames
    cdef vector[uint64_t] recent_list
    cdef vector[int32_t] recent_group
    cdef public Py_ssize_t rows
    cdef public object owner  # the tables the codes come from (convert._Tables)

    def __init__(self, tuple tables, tuple on_miss, int unknown_code):
        self.tables, self.on_miss, self.unknown_code = tables, on_miss, unknown_code
        self.roles = {k: i for i, k in enumerate(INT_KEYS)}
        self.roles.update({k: 4 + i for i, k in enumerate(CODE_KEYS)})
        self.roles[FRAMES_KEY] = ROLE_FRAMES
        self.roles.update(name=ROLE_NAME, filename=ROLE_FILENAME, line=ROLE_LINE)  # a frame dict's keys
        self.leaders, self.extras, self.mismatched, self.unknown_actions, self.kept = [], {}, {}, {}, []
        self.recent_list = vector[uint64_t](RECENT, 0)
        self.recent_group = vector[int32_t](RECENT, 0)
        self.n_roles = 0
        self.rows = 0

    cdef inline int role(self, object key) except -2:
        # keys are a handful of shared string objects: match them by address, and by value only the first time
        cdef uint64_t p = <uint64_t> <PyObject*> key
        cdef int j
        for j in range(self.n_roles):
            if self.role_keys[j] == p:
                return self.role_values[j]
        r = self.roles.get(key, ROLE_EXTRA) if isinstance(key, str) else ROLE_EXTRA
        if self.n_roles < 32:
            self.kept.append(key)
            self.role_keys[self.n_roles] = p
            self.role_values[self.n_roles] = r
            self.n_roles += 1
        return r

    cdef void reserve(self, Py_ssize_t rows):
        # room for the rows a file of this size may hold: growing by doubling would zero and copy every column twice
        self.ints0.reserve(rows); self.ints1.reserve(rows); self.ints2.reserve(rows); self.ints3.reserve(rows)
        self.present0.reserve(rows); self.present1.reserve(rows); self.present2.reserve(rows)
        self.present3.reserve(rows)
        self.codes0.reserve(rows); self.codes1.reserve(rows); self.codes2.reserve(rows); self.codes3.reserve(rows)
        self.group.reserve(rows)
        self.mismatch.reserve(rows)

    cdef Py_ssize_t new_row(self):
        self.ints0.push_back(0); self.ints1.push_back(0); self.ints2.push_back(0); self.ints3.push_back(0)
        self.present0.push_back(0); self.present1.push_back(0); self.present2.push_back(0)
        self.present3.push_back(0)
        self.codes0.push_back(-1); self.codes1.push_back(-1); self.codes2.push_back(-1); self.codes3.push_back(-1)
        self.group.push_back(-1)
        self.mismatch.push_back(0)
        self.rows += 1
        return self.rows - 1

    cdef int add(self, Py_ssize_t row, object key, object value) except -1:
        cdef int r = self.role(key)
        cdef int overflow = 0
        cdef long long v
        cdef PyObject* item
        if r < 0 or r > ROLE_FRAMES:
            self.extras.setdefault(row, {})[key] = value
        elif r < 4:
            if value is None:
                return 0
            if not PyLong_CheckExact(value):  # bools are refused too; convert's checks word the error
                raise ColumnError(f"entry {row} has a non-integer {INT_KEYS[r]!r}")
            v = PyLong_AsLongLongAndOverflow(<PyObject*> value, &overflow)
            if overflow or v < 0 or v > MAX_VALUE:  # checks.MAX_VALUE (pure twin: convert._convert_trace_python)
                raise ColumnError(f"entry {row} has an out-of-range {INT_KEYS[r]!r}")
            self.set_int(row, r, v)
        elif r < ROLE_FRAMES:
            code = self.code(r - 4, value)
            if r == ROLE_ACTION:
                self.codes0[row] = code
                if code == self.unknown_code:
                    self.unknown_actions[row] = value
            elif r == 5:
                self.codes1[row] = code
            elif r == 6:
                self.codes2[row] = code
            else:
                self.codes3[row] = code
        else:
            self.add_frames(row, value)
        return 0

    cdef inline void set_int(self, Py_ssize_t row, int r, int64_t v):
        # an int column's value, checked by the caller (add(), or the entry reader as add() checks it)
        if r == 0:
            self.ints0[row] = v; self.present0[row] = 1
        elif r == 1:
            self.ints1[row] = v; self.present1[row] = 1
        elif r == 2:
            self.ints2[row] = v; self.present2[row] = 1
        else:
            self.ints3[row] = v; self.present3[row] = 1

    cdef int32_t code(self, int k, object value) except? -2:
        cdef dict table = <dict> self.tables[k]
        cdef PyObject* item = PyDict_GetItemWithError(table, value)
        if item is NULL and PyErr_Occurred():  # unhashable (a JSON list for a pool id): ask each time
            PyErr_Clear()
            return self.on_miss[k](value)
        if item is NULL:
            code = self.on_miss[k](value)
            table[value] = code
            return code
        if k == 3 and not _exact_pool(value):  # (True, 0) and (1.0, 0) hash as (1, 0): let the caller refuse them
            return self.on_miss[k](value)
        return <int32_t> (<object> item)

    cdef int add_frames(self, Py_ssize_t row, object frames) except -1:
        cdef PyObject* item = <PyObject*> frames
        cdef uint64_t h, slot = (<uint64_t> item >> 4) & (RECENT - 1)
        cdef unordered_map[uint64_t, int32_t].iterator found
        if item == SKIPPED:  # frames checked by the reader and not read: the row has no stack
            return 0
        if self.recent_list[slot] == <uint64_t> item:  # an alloc and its frees share one list
            self.group[row] = self.recent_group[slot]
            return 0
        if PyList_Check(item):
            h = _signature(item, PyList_GET_SIZE(item), True)
        elif PyTuple_Check(item):
            h = _signature(item, PyTuple_GET_SIZE(item), False)
        elif frames is None:
            return 0
        else:
            self.mismatch[row] = 1
            self.mismatched[row] = frames
            return 0
        if self.freeze_frames:  # only a list first met here: a recent one was frozen when first met
            self.frozen.insert(<uint64_t> item)
        found = self.group_of.find(h)
        if found == self.group_of.end():
            self.group_of[h] = len(self.leaders)
            self.group[row] = len(self.leaders)
            self.leaders.append(frames)
        else:
            self.group[row] = deref(found).second
            if not _same_frames(<PyObject*> self.leaders[self.group[row]], item):
                self.group[row] = -1
                self.mismatch[row] = 1
                self.mismatched[row] = frames
                return 0
        self.kept.append(frames)
        self.recent_list[slot] = <uint64_t> item
        self.recent_group[slot] = self.group[row]
        return 0

    def add_dict(self, dict entry):
        cdef Py_ssize_t row = self.new_row()
        cdef Py_ssize_t pos = 0
        cdef PyObject* key
        cdef PyObject* value
        while PyDict_Next(entry, &pos, &key, &value):
            self.add(row, <object> key, <object> value)

    def take_arrays(self):
        """1-D arrays: ints (of INT_KEYS), codes (of CODE_KEYS), taken once (after the stacks are made of the groups):
        each column's memory becomes its array's, so the columns are never held twice nor copied."""
        ints = [_take64(self.ints0), _take64(self.ints1), _take64(self.ints2), _take64(self.ints3)]
        codes = [_take32(self.codes0), _take32(self.codes1), _take32(self.codes2), _take32(self.codes3)]
        vector[int32_t]().swap(self.group)
        return ints, codes

    def actions_and_sizes(self, Py_ssize_t start, Py_ssize_t stop):
        """Copies of rows start..stop's action codes and sizes (0 where absent): the running curves of a trace
        still being read (progress), without taking the columns."""
        stop = max(min(stop, <Py_ssize_t> self.codes0.size(), <Py_ssize_t> self.ints1.size()), 0)
        start = min(max(start, 0), stop)
        if stop == start:
            return np.zeros(0, np.int32), np.zeros(0, np.int64)
        return (np.array(<int32_t[:stop - start]> (self.codes0.data() + start)),
                np.array(<int64_t[:stop - start]> (self.ints1.data() + start)))

    def all_present(self, int k, Py_ssize_t start, Py_ssize_t stop):
        """Whether every row in start..stop has INT_KEYS[k] (time_us is all or nothing)."""
        cdef vector[uint8_t]* v = &self.present0
        if k == 1:
            v = &self.present1
        elif k == 2:
            v = &self.present2
        elif k == 3:
            v = &self.present3
        cdef Py_ssize_t i
        for i in range(start, stop):
            if not deref(v)[i]:
                return False
        return True


# one copy out of a vector that stays (table_parts: the interner goes on filling it)
cdef object _i64(vector[int64_t]& v):
    return np.array(<int64_t[:v.size()]> v.data()) if v.size() else np.zeros(0, np.int64)


cdef object _i32(vector[int32_t]& v):
    return np.array(<int32_t[:v.size()]> v.data()) if v.size() else np.zeros(0, np.int32)


cdef char* BYTE_FORMAT = b"B"


@cython.auto_pickle(False)
cdef class _Lent:
    """A column's vector, moved here and lent to numpy as the base of its array: taking a column copies nothing
    (a copy writes pages never touched, which on some virtual machines cost more than the reading that filled them)."""

    cdef vector[int64_t] v64
    cdef vector[int32_t] v32
    cdef char* data
    cdef Py_ssize_t nbytes
    cdef Py_ssize_t shape[1]

    def __getbuffer__(self, Py_buffer* buf, int flags):
        self.shape[0] = self.nbytes
        buf.buf = self.data
        buf.obj = self
        buf.len = self.nbytes
        buf.readonly = 0
        buf.itemsize = 1
        buf.format = NULL  # unsigned bytes
        if flags & PyBUF_FORMAT:
            buf.format = BYTE_FORMAT
        buf.ndim = 1
        buf.shape = NULL
        if flags & PyBUF_ND:
            buf.shape = self.shape
        buf.strides = NULL
        buf.suboffsets = NULL
        buf.internal = NULL

    def __releasebuffer__(self, Py_buffer* buf):
        pass


cdef object _take64(vector[int64_t]& v):
    if v.size() == 0:
        vector[int64_t]().swap(v)  # clear() would keep the memory
        return np.zeros(0, np.int64)
    cdef _Lent lent = _Lent()
    lent.v64.swap(v)
    lent.data, lent.nbytes = <char*> lent.v64.data(), lent.v64.size() * sizeof(int64_t)
    return np.frombuffer(lent, np.int64)


cdef object _take32(vector[int32_t]& v):
    if v.size() == 0:
        vector[int32_t]().swap(v)
        return np.zeros(0, np.int32)
    cdef _Lent lent = _Lent()
    lent.v32.swap(v)
    lent.data, lent.nbytes = <char*> lent.v32.data(), lent.v32.size() * sizeof(int32_t)
    return np.frombuffer(lent, np.int32)


cdef object _u8(vector[uint8_t]& v):
    return np.array(<uint8_t[:v.size()]> v.data()).view(bool) if v.size() else np.zeros(0, bool)


def extract(list entries, EntryColumns columns):
    """Add every entry of `entries` (trace dicts) to `columns`."""
    cdef Py_ssize_t i, n = len(entries)
    for i in range(n):
        entry = entries[i]
        if not PyDict_Check(<PyObject*> entry):
            raise ColumnError(f"entry {i} is not a dict")
        columns.add_dict(<dict> entry)


def extract_fields(list entries, tuple keys, object unset, EntryColumns columns, dict frames_by_text, decode):
    """Add every entry of `entries` to `columns`: objects with an attribute for each of `keys`, `unset` where the
    entry had no such key (JSON's typed decoder makes them). A frames value is its undecoded text: equal texts
    become one list, decoded once by `decode` and kept in `frames_by_text`, which the columns then group as one."""
    cdef Py_ssize_t i, j, row, n = len(entries), k = len(keys)
    cdef Py_ssize_t frames_at = keys.index(FRAMES_KEY) if FRAMES_KEY in keys else -1
    cdef PyObject* found
    for i in range(n):
        entry = entries[i]
        row = columns.new_row()
        for j in range(k):
            key = keys[j]
            value = getattr(entry, key)
            if value is unset:
                continue
            if j == frames_at:
                text = bytes(value)
                found = PyDict_GetItemWithError(frames_by_text, text)  # bytes hash and compare without failing
                if found == NULL:
                    value = frames_by_text[text] = decode(text)
                else:
                    value = <object> found
            columns.add(row, key, value)


include "_stack_intern.pxi"


# -- the pickle reader ---------------------------------------------------------------------------------------

cdef class PickleReader:
    """A pickle VM over plain-data opcodes. Its value stack is a vector of owned references, so building a list
    or a tuple moves pointers instead of slicing Python lists (which the standard unpickler's C code also avoids)."""

    cdef const uint8_t* buf
    cdef Py_ssize_t n, pos
    cdef Py_ssize_t frame_end  # end of the current FRAME: a read that starts before it may not run past it
    cdef object data  # keeps the buffer alive
    cdef vector[PyObject*] stack  # owned references
    cdef vector[PyObject*] memo  # owned references (or NULL)
    cdef vector[Py_ssize_t] marks  # the standard unpickler's fence: nothing below the newest mark is popped
    # for each mark, the memo slot of the newest EMPTY_DICT if it lay right below the mark (else -1): an entry read
    # opcode by opcode holds new frame dicts, so at its SETITEMS it is no longer the newest, and its slot is here
    cdef vector[Py_ssize_t] mark_slots
    cdef Py_ssize_t popped_slot  # mark_slots' value of the mark pop_mark took last
    cdef Py_ssize_t memo_len  # filled memo slots: MEMOIZE's index, as the standard unpickler counts it
    cdef EntryColumns columns
    cdef PyObject* entry  # ENTRY, compared by address in the hot paths
    cdef PyObject* last_dict  # the newest EMPTY_DICT (borrowed: the stack or memo owns it) and its memo slot
    cdef Py_ssize_t last_dict_slot
    cdef FrameCanon canon
    # Lists of memo references (frame lists above all: ~100 shared frame dicts each) are read in one pass without
    # touching the value stack, and a list whose items are those of an earlier one becomes that earlier list: a
    # real file repeats a few thousand stacks in a million fresh lists, which then never exist. Such a shared list is
    # frozen: filling it again (only a hand-made pickle would) gives up, so nobody sees the sharing.
    cdef PyObject* last_list  # the newest EMPTY_LIST (borrowed) and its memo slot
    cdef Py_ssize_t last_list_slot
    cdef unordered_map[uint64_t, Py_ssize_t] list_by_items  # signature of the items -> index in `shared`
    cdef list shared  # its lists are in columns.frozen
    cdef list no_frames  # the one empty frames list of the entries read in one pass (frozen: nobody can tell)
    cdef vector[PyObject*] items  # scratch: the items of the list being read
    cdef object on_segments  # called with the root dict's 'segments' list once it is whole
    # False: a trace entry's new frames list is checked (frame dicts only) and passed over, SKIPPED_FRAMES in its
    # place, instead of being read and matched with the earlier lists: for what never shows a stack (the report)
    cdef bint stacks
    cdef bint segments_told
    cdef Py_ssize_t release_step  # > 0: the buffer is a mapping of a file, dropped behind the reader in such steps
    cdef Py_ssize_t released
    cdef object on_rows  # called with the count of rows whole so far, every rows_step rows (progress)
    cdef Py_ssize_t rows_step, next_rows

    def __init__(self, data, EntryColumns columns, on_segments=None, Py_ssize_t release_step=0, bint stacks=True,
                 on_rows=None, Py_ssize_t rows_step=0):
        cdef const uint8_t[::1] view = memoryview(data).cast("B")
        self.data = data
        self.buf = &view[0] if view.shape[0] else NULL
        self.n = view.shape[0]
        self.pos = 0
        self.frame_end = 0
        self.memo_len = 0
        self.entry = <PyObject*> ENTRY
        self.columns = columns
        self.last_dict, self.last_dict_slot = <PyObject*> NULL, -1
        self.canon = FrameCanon()
        self.last_list, self.last_list_slot = <PyObject*> NULL, -1
        self.shared = []
        columns.freeze_frames = True
        self.no_frames = []
        columns.frozen.insert(<uint64_t> <PyObject*> self.no_frames)
        self.on_segments, self.segments_told = on_segments, on_segments is None
        self.stacks = stacks
        self.release_step, self.released = (release_step if self.n else 0), 0
        self.on_rows, self.rows_step = (on_rows, rows_step) if rows_step > 0 else (None, 0)
        self.next_rows = rows_step + 1
        # an entry of a real file takes 100-250 bytes of pickle (a tenth of that without frames): reserved, not touched
        columns.reserve(min(self.n // 96, 1 << 26))
        # a real file memoizes an object every ~160 bytes: room reserved (not touched) for more than that, so that
        # the memo is not copied to a twice larger vector again and again while it grows (fresh pages each time)
        self.memo.reserve(min(self.n // 64, 1 << 26))

    def __dealloc__(self):
        cdef PyObject* p
        for p in self.stack:
            Py_XDECREF(p)
        for p in self.memo:
            Py_XDECREF(p)

    cdef inline const uint8_t* take(self, Py_ssize_t k) except NULL:
        if k < 0 or k > self.n - self.pos:  # pos + k could overflow for a declared length near 2^63
            raise Unsupported("truncated")
        # the standard unpickler reads a frame into its buffer: what straddles its end is read from elsewhere
        if self.pos < self.frame_end and k > self.frame_end - self.pos:
            raise Unsupported("straddles a frame")
        cdef const uint8_t* p = self.buf + self.pos
        self.pos += k
        return p

    cdef inline uint64_t uint_le(self, Py_ssize_t k) except? 0xFFFFFFFFFFFFFFFF:
        cdef const uint8_t* p = self.take(k)
        cdef uint64_t v = 0
        cdef Py_ssize_t j
        for j in range(k):
            v |= (<uint64_t> p[j]) << (8 * j)
        return v

    cdef inline void push(self, object value):
        Py_INCREF(value)
        self.stack.push_back(<PyObject*> value)

    cdef inline Py_ssize_t fence(self):
        return self.marks.back() if not self.marks.empty() else 0

    cdef inline PyObject* top(self) except NULL:
        if <Py_ssize_t> self.stack.size() <= self.fence():  # empty, or only a MARK above what is there
            raise Unsupported("unexpected mark or empty stack")
        return self.stack.back()

    cdef inline Py_ssize_t pop_mark(self) except -1:
        if self.marks.empty():
            raise Unsupported("no mark")
        cdef Py_ssize_t m = self.marks.back()
        self.marks.pop_back()
        self.popped_slot = self.mark_slots.back()
        self.mark_slots.pop_back()
        if m > <Py_ssize_t> self.stack.size():
            raise Unsupported("bad mark")
        return m

    cdef int refuse_skipped(self, Py_ssize_t start, Py_ssize_t stop, Py_ssize_t frames_at) except -1:
        # SKIPPED_FRAMES may stand as an entry's frames only (at `frames_at`, -1 for none): anywhere else its place
        # would hold something else than the list the file has
        cdef Py_ssize_t j
        for j in range(start, stop):
            if self.stack[j] == SKIPPED and j != frames_at:
                raise Unsupported("frames not read, named elsewhere")
        return 0

    cdef void drop_from(self, Py_ssize_t start):
        cdef Py_ssize_t j
        for j in range(start, self.stack.size()):
            Py_XDECREF(self.stack[j])
        self.stack.resize(start)

    cdef object string(self, Py_ssize_t size):
        cdef const uint8_t* p = self.take(size)
        return PyUnicode_DecodeUTF8(<const char*> p, size, "surrogatepass")

    cdef int memo_put(self, Py_ssize_t index) except -1:
        cdef PyObject* value = self.top()
        self.memo_store(index, <object> value)
        if value == self.last_dict:
            self.last_dict_slot = index
        elif value == self.last_list:
            self.last_list_slot = index
        return 0

    cdef int memo_store(self, Py_ssize_t index, object value) except -1:
        # the memo's slot `index` (memo_put's, and the entry reader's for a new frames list, never on the stack)
        if index < 0 or index > self.n:  # a memo index past the opcode count is corrupt data
            raise Unsupported("bad memo index")
        if <size_t> index >= self.memo.size():
            self.memo.resize(index + 1, <PyObject*> NULL)
        if self.memo[index] == NULL:
            self.memo_len += 1
        Py_XDECREF(self.memo[index])
        Py_INCREF(value)
        self.memo[index] = <PyObject*> value
        return 0

    cdef inline bint holds(self, Py_ssize_t slot, PyObject* target):
        # whether the memo's slot `slot` (-1: none) holds `target`: a slot put once may have been put again since
        return slot >= 0 and <size_t> slot < self.memo.size() and self.memo[slot] == target

    cdef inline int memo_get(self, Py_ssize_t index) except -1:
        if index < 0 or <size_t> index >= self.memo.size() or self.memo[index] == NULL:
            raise Unsupported("bad memo index")
        if self.memo[index] == self.entry:  # one dict in two places: the standard reader refuses it
            raise Unsupported("a trace entry referenced twice")
        Py_INCREF(<object> self.memo[index])
        self.stack.push_back(self.memo[index])
        return 0

    cdef object long_from(self, Py_ssize_t size):
        cdef const uint8_t* p = self.take(size)
        cdef uint64_t v = 0
        cdef Py_ssize_t j
        if size == 0:
            return 0
        if size <= 8:
            for j in range(size):
                v |= (<uint64_t> p[j]) << (8 * j)
            if size < 8 and (p[size - 1] & 0x80):
                v |= (~(<uint64_t> 0)) << (8 * size)  # sign-extend
            return PyLong_FromLongLong(<long long> v)
        return int.from_bytes(PyBytes_FromStringAndSize(<const char*> p, size), "little", signed=True)

    cdef int set_items(self, Py_ssize_t mark) except -1:
        cdef Py_ssize_t top = self.stack.size(), j, row
        if mark <= self.fence() or mark > top or (top - mark) % 2:  # the dict must lie above the fence
            raise Unsupported("bad setitems")
        cdef PyObject* target = self.stack[mark - 1]
        if not PyDict_CheckExact(<object> target):
            raise Unsupported("setitems on a non-dict")
        cdef bint entry = False, memoized
        cdef Py_ssize_t slot
        cdef uint32_t seen = 0
        cdef int r
        if len(<dict> target) == 0:
            slot = self.last_dict_slot if target == self.last_dict else self.popped_slot
            memoized = self.holds(slot, target)
            for j in range(mark, top, 2):
                if self.columns.role(<object> self.stack[j]) == ROLE_ACTION:
                    entry = True
                    break
            if not entry and top - mark == 6 and self.frame_dict(mark, target, slot, memoized):
                self.drop_from(mark)
                return 0
        elif self.canon.is_canonical(target):  # shared now: filling it would fill every place it stands
            raise Unsupported("a frame dict filled again")
        if entry:
            # ENTRY replaces the dict on the stack and in its memo slot: held anywhere else, that place would keep {}
            if Py_REFCNT(target) != 1 + memoized:
                raise Unsupported("a trace entry held elsewhere")
            for j in range(mark, top, 2):  # a key given twice: a dict keeps the last value, a row is not a dict
                r = self.columns.role(<object> self.stack[j])
                if 0 <= r <= ROLE_FRAMES:
                    if seen & (1u << r):
                        raise Unsupported("a trace entry's key given twice")
                    seen |= 1u << r
                self.refuse_skipped(j, j + 2, j + 1 if r == ROLE_FRAMES else -1)
            row = self.columns.new_row()
            for j in range(mark, top, 2):
                self.columns.add(row, <object> self.stack[j], <object> self.stack[j + 1])
            if memoized:
                self.memo_replace(slot, ENTRY)
            self.last_dict = <PyObject*> NULL
            Py_INCREF(ENTRY)
            self.stack[mark - 1] = <PyObject*> ENTRY
            Py_XDECREF(target)
        else:
            self.refuse_skipped(mark, top, -1)
            for j in range(mark, top, 2):
                (<dict> target)[<object> self.stack[j]] = <object> self.stack[j + 1]
        self.drop_from(mark)
        return 0

    cdef bint frame_dict(self, Py_ssize_t mark, PyObject* target, Py_ssize_t slot, bint memoized) except -1:
        """Replace `target` (empty, to get the three pairs above `mark`) by the canonical dict of that frame, if it
        is a plain frame dict held by the stack and at most its memo slot alone (`slot`, when `memoized`): whether
        it was replaced."""
        if Py_REFCNT(target) != 1 + memoized:  # referenced elsewhere: that reference must see this very dict
            return False
        cdef PyObject* canon = self.canon.of_pairs(self.columns, &self.stack[mark], target)
        if canon == target:
            return False  # not a plain frame, or the first of its content: filled as any dict
        if memoized:
            self.memo_replace(slot, <object> canon)
        self.last_dict = <PyObject*> NULL
        Py_INCREF(<object> canon)
        self.stack[mark - 1] = canon
        Py_XDECREF(target)
        return True

    cdef void memo_replace(self, Py_ssize_t index, object value):
        Py_XDECREF(self.memo[index])
        Py_INCREF(value)
        self.memo[index] = <PyObject*> value

    cdef int appends(self, Py_ssize_t mark) except -1:
        if mark <= self.fence() or mark > <Py_ssize_t> self.stack.size():  # the list must lie above the fence
            raise Unsupported("appends without a list")
        cdef PyObject* target = self.stack[mark - 1]
        if not PyList_CheckExact(<object> target):
            raise Unsupported("appends on a non-list")
        if self.columns.frozen.count(<uint64_t> target):  # shared, or a row's frames: it must not change now
            raise Unsupported("a shared list or an entry's frames filled again")
        cdef Py_ssize_t j
        self.refuse_skipped(mark, self.stack.size(), -1)
        for j in range(mark, self.stack.size()):
            PyList_Append(<object> target, <object> self.stack[j])
        self.drop_from(mark)
        return 0

    cdef int build_tuple(self, Py_ssize_t start) except -1:
        cdef Py_ssize_t k = self.stack.size() - start, j
        if start < self.fence() or k < 0:
            raise Unsupported("short stack")
        self.refuse_skipped(start, self.stack.size(), -1)
        value = PyTuple_New(k)
        for j in range(k):
            PyTuple_SET_ITEM(value, j, self.stack[start + j])  # steals the stack's reference
        self.stack.resize(start)
        self.push(value)
        return 0

    cdef int empty_list(self) except -1:
        # no local of load() may hold it: fast_list counts its references
        value = []
        self.push(value)
        self.last_list, self.last_list_slot = <PyObject*> value, -1
        return 0

    cdef inline PyObject* fetched(self, Py_ssize_t* at, Py_ssize_t end, Py_ssize_t own_slot) noexcept:
        """The memo object a BINGET or LONG_BINGET at *at names (and *at moved past it), or NULL when the opcode is
        another, runs past `end`, or names what the opcode-at-a-time reader refuses or `own_slot` (not filled yet).
        SKIPPED_FRAMES comes back as any object: only an entry's frames may be it (the callers see to that).
        noexcept: it raises nothing, and each of the millions of calls is spared a check for an exception."""
        cdef Py_ssize_t p = at[0], index
        cdef uint8_t op = self.buf[p]
        if op == 0x68:  # BINGET
            if p + 2 > end:
                return NULL
            index = self.buf[p + 1]
            p += 2
        elif op == 0x6A:  # LONG_BINGET
            if p + 5 > end:
                return NULL
            index = _le32(self.buf + p + 1)
            p += 5
        else:
            return NULL
        if <size_t> index >= self.memo.size() or index == own_slot:
            return NULL
        cdef PyObject* item = self.memo[index]
        if item == NULL or item == self.entry:
            return NULL
        at[0] = p
        return item

    cdef bint read_items(self, Py_ssize_t* at, Py_ssize_t end, Py_ssize_t own_slot, bint keep=True,
                         PyObject* target=NULL):
        """Read `(BINGET|LONG_BINGET)+ APPENDS` at *at into `items` (not the stack), and *at past it; False when
        anything else comes. With `keep` False (a frames list not read: stacks=False) nothing is kept, and each
        item must be a frame dict other than `target` (the entry's own), or the opcodes are read one by one and the
        stack checks judge the list."""
        cdef Py_ssize_t p = at[0], k = 0
        cdef PyObject* item
        self.items.clear()
        while True:
            if p >= end:
                return False
            if self.buf[p] == 0x65:  # APPENDS
                p += 1
                break
            item = self.fetched(&p, end, own_slot)
            if item == NULL or item == SKIPPED:
                return False
            if keep:
                self.items.push_back(item)
            elif item == target or not PyDict_Check(item):
                return False
            k += 1
        at[0] = p
        return k > 0

    cdef uint64_t items_hash(self):
        # four independent lanes: a single chain of multiplies would wait on each one's latency
        cdef Py_ssize_t j = 0, k = self.items.size()
        cdef uint64_t h0 = FNV_OFFSET ^ <uint64_t> k, h1 = FNV_OFFSET + 1, h2 = FNV_OFFSET + 2, h3 = FNV_OFFSET + 3
        cdef PyObject** got = self.items.data()
        while j + 4 <= k:
            h0 = (h0 ^ <uint64_t> got[j]) * FNV_PRIME
            h1 = (h1 ^ <uint64_t> got[j + 1]) * FNV_PRIME
            h2 = (h2 ^ <uint64_t> got[j + 2]) * FNV_PRIME
            h3 = (h3 ^ <uint64_t> got[j + 3]) * FNV_PRIME
            j += 4
        while j < k:
            h0 = (h0 ^ <uint64_t> got[j]) * FNV_PRIME
            j += 1
        cdef uint64_t h = (((h0 ^ (h1 >> 17)) * FNV_PRIME ^ (h2 >> 31)) * FNV_PRIME ^ (h3 >> 43)) * FNV_PRIME
        return h ^ (h1 << 5) ^ (h2 << 11) ^ (h3 << 23)

    cdef PyObject* earlier_list(self, uint64_t h):
        """The shared list whose items are `items`, or NULL (borrowed: `shared` owns it)."""
        cdef unordered_map[uint64_t, Py_ssize_t].iterator found = self.list_by_items.find(h)
        if found == self.list_by_items.end():
            return NULL
        cdef PyObject* earlier = <PyObject*> self.shared[deref(found).second]
        cdef Py_ssize_t k = self.items.size()
        if PyList_GET_SIZE(earlier) == k and memcmp(
                <const void*> PySequence_Fast_ITEMS(earlier), <const void*> self.items.data(),
                k * sizeof(PyObject*)) == 0:
            return earlier
        return NULL

    cdef int fill_and_share(self, object target, uint64_t h) except -1:
        # `target` (empty) gets `items` and, if no list was shared under that hash yet, becomes the shared one
        cdef Py_ssize_t j
        for j in range(<Py_ssize_t> self.items.size()):
            PyList_Append(target, <object> self.items[j])
        if self.list_by_items.find(h) == self.list_by_items.end():
            self.list_by_items[h] = len(self.shared)
            self.shared.append(target)
            self.columns.frozen.insert(<uint64_t> <PyObject*> target)
        return 0

    cdef inline bint alone_on_top(self, PyObject* target, bint memoized):
        # the newest container, on top of the stack above the newest mark, held by nothing else than the stack
        # and at most its memo slot (`memoized`: holds() said so): the one-pass readers may fill it, or put another
        # object in its place
        if target == NULL or self.stack.empty() or self.stack.back() != target:
            return False
        return Py_REFCNT(target) == 1 + memoized and (self.marks.empty() or self.marks.back() < self.stack.size())

    cdef bint fast_list(self) except -1:
        """At a MARK right after the newest EMPTY_LIST: read `MARK (BINGET|LONG_BINGET)* APPENDS` in one pass and
        fill that list, or put the earlier list with the very same items in its place. False (nothing read) when
        what follows is anything else: the opcodes are then read one by one."""
        cdef PyObject* target = self.last_list
        cdef bint memoized = self.holds(self.last_list_slot, target)
        cdef Py_ssize_t size = self.stack.size()
        if not self.alone_on_top(target, memoized) or PyList_GET_SIZE(target) != 0:
            return False
        # a read that starts inside a FRAME may not run past it; a FRAME opcode itself ends the fast pass
        cdef Py_ssize_t p = self.pos, end = self.frame_end if self.pos < self.frame_end else self.n
        if not self.read_items(&p, end, -1):
            return False
        cdef uint64_t h = self.items_hash()
        cdef PyObject* earlier = self.earlier_list(h)
        if earlier != NULL:
            Py_INCREF(<object> earlier)
            self.stack[size - 1] = earlier
            if memoized:
                self.memo_replace(self.last_list_slot, <object> earlier)
            Py_XDECREF(target)
        else:
            self.fill_and_share(<object> target, h)
        self.last_list = <PyObject*> NULL
        self.pos = p
        return True

    cdef bint fast_entry(self) except -1:
        """At a MARK right after the newest EMPTY_DICT: read a trace entry `MARK (key value)* SETITEMS` in one pass
        straight into a row, when each key is an earlier string naming a column (action, addr, size, ...) and each
        value an int, None, an earlier object, or a new list of earlier frames. False (nothing read) when anything
        else comes, or the dict is not an entry: the opcodes are then read one by one, which judges them. So is
        anything this pass does not model as the standard unpickler would: a key given twice (a dict keeps the last
        value), a memo get of the new list's slot after its put (it names the list, which is not made yet), the
        entry itself as a value or a frame."""
        cdef PyObject* target = self.last_dict
        cdef bint memoized = self.holds(self.last_dict_slot, target)
        cdef Py_ssize_t size = self.stack.size()
        if not self.alone_on_top(target, memoized) or len(<dict> target) != 0:
            return False
        cdef Py_ssize_t p = self.pos, end = self.frame_end if self.pos < self.frame_end else self.n
        cdef int roles[16]
        cdef int64_t ints[16]
        cdef PyObject* keys[16]
        cdef PyObject* values[16]  # borrowed from the memo; NULL for an int, or for the new list
        cdef int n = 0, r, width, j
        cdef bint action = False, new_list = False, has_items = False
        cdef Py_ssize_t list_slot = -1
        cdef uint32_t seen = 0  # the roles read so far
        cdef uint8_t op
        cdef uint64_t u
        cdef int64_t v
        while True:
            if p >= end:
                return False
            if self.buf[p] == 0x75:  # SETITEMS
                p += 1
                break
            if n == 16:
                return False
            keys[n] = self.fetched(&p, end, list_slot)
            if keys[n] == NULL or not PyUnicode_CheckExact(<object> keys[n]):
                return False
            r = self.columns.role(<object> keys[n])
            if r < 0 or r > ROLE_FRAMES or p >= end or seen & (1u << r):
                return False
            seen |= 1u << r
            roles[n] = r
            values[n] = NULL
            ints[n] = -1
            op = self.buf[p]
            if op == 0x4E:  # NONE
                p += 1
                values[n] = <PyObject*> None
            elif r < 4:  # an int column: the int is read in place, never made an object
                if op == 0x4B or op == 0x4D or op == 0x4A:  # BININT1, BININT2, BININT
                    width = 1 if op == 0x4B else 2 if op == 0x4D else 4
                    p += 1
                elif op == 0x8A and p + 1 < end and self.buf[p + 1] <= 8:  # LONG1, up to 8 bytes
                    width = self.buf[p + 1]
                    p += 2
                else:
                    return False
                if p + width > end:
                    return False
                u = 0
                for j in range(width):
                    u |= (<uint64_t> self.buf[p + j]) << (8 * j)
                p += width
                if width and (self.buf[p - 1] & 0x80) and op != 0x4B and op != 0x4D:
                    return False  # negative: the column's check words the error
                v = <int64_t> u
                if v > MAX_VALUE:
                    return False
                ints[n] = v
                values[n] = NULL
            elif r < ROLE_FRAMES or op != 0x5D:  # an earlier object: a code column's string, or a frames list
                values[n] = self.fetched(&p, end, list_slot)
                if values[n] == NULL or values[n] == target or (values[n] == SKIPPED and r != ROLE_FRAMES):
                    return False
                action = action or r == ROLE_ACTION
            else:  # EMPTY_LIST, its memo slot, and its frames: one new list per entry at most
                if new_list:
                    return False
                new_list = True
                p += 1
                if p < end and self.buf[p] == 0x94:  # MEMOIZE
                    list_slot = self.memo_len
                    p += 1
                elif p + 1 < end and self.buf[p] == 0x71:  # BINPUT
                    list_slot = self.buf[p + 1]
                    p += 2
                elif p + 4 < end and self.buf[p] == 0x72:  # LONG_BINPUT
                    list_slot = _le32(self.buf + p + 1)
                    p += 5
                if list_slot >= 0 and list_slot == self.last_dict_slot:  # the list takes the entry's own slot
                    return False
                if p < end and self.buf[p] == 0x28:  # MARK: the items follow
                    p += 1
                    if not self.read_items(&p, end, list_slot, self.stacks, target):
                        return False
                    has_items = True
            n += 1
        if not action:
            return False
        # everything read: now the row, the new list and the memo change
        frames = None
        cdef uint64_t h
        cdef PyObject* earlier
        if new_list and has_items and not self.stacks:
            frames = SKIPPED_FRAMES
        elif new_list:
            earlier = NULL
            if has_items:
                h = self.items_hash()
                earlier = self.earlier_list(h)
            if earlier != NULL:
                frames = <object> earlier
            elif not has_items:
                frames = self.no_frames
            else:
                for j in range(<Py_ssize_t> self.items.size()):  # an earlier list cannot hold the entry: it is newer
                    if self.items[j] == target:
                        return False
                frames = []
                self.fill_and_share(frames, h)
        cdef Py_ssize_t row = self.columns.new_row()
        for j in range(n):
            if roles[j] < 4:
                if values[j] == NULL:
                    self.columns.set_int(row, roles[j], ints[j])
            elif values[j] == NULL:  # the new list
                self.columns.add(row, <object> keys[j], frames)
            else:
                self.columns.add(row, <object> keys[j], <object> values[j])
        if list_slot >= 0:  # only now: the values above are borrowed from the memo, which this put may free
            self.memo_store(list_slot, frames)
        if memoized:
            self.memo_replace(self.last_dict_slot, ENTRY)
        self.last_dict = <PyObject*> NULL
        Py_INCREF(ENTRY)
        self.stack[size - 1] = <PyObject*> ENTRY
        Py_XDECREF(target)
        self.pos = p
        return True

    cdef int tell_segments(self) except -1:
        # Four values above no mark but the root dict's: [root, key, value, next key] once the first pair is whole
        # (a fourth value that is not a string is an item of the first value, pushed before its APPEND)
        if not PyUnicode_CheckExact(<object> self.stack[3]):
            return 0
        self.segments_told = True
        if (PyDict_CheckExact(<object> self.stack[0]) and PyUnicode_CheckExact(<object> self.stack[1])
                and <object> self.stack[1] == "segments" and PyList_CheckExact(<object> self.stack[2])):
            self.on_segments(<object> self.stack[2])
        return 0

    cdef void release(self):
        # drop the pages of the mapping the reader has passed (they are read again from the file if ever needed)
        cdef Py_ssize_t upto = (self.pos // self.release_step) * self.release_step
        if upto > self.released:
            madvise(<void*> (self.buf + self.released), upto - self.released, MADV_DONTNEED)
            self.released = upto

    cdef int empty_dict(self) except -1:
        # no local of load() may hold it: frame_dict counts its references
        value = {}
        self.push(value)
        self.last_dict, self.last_dict_slot = <PyObject*> value, -1
        return 0

    def load(self):
        cdef uint8_t op
        cdef Py_ssize_t size
        cdef PyObject* p
        while True:
            if not self.segments_told and self.stack.size() == 4 and self.marks.size() == 1:
                self.tell_segments()
            if self.release_step and self.pos - self.released >= self.release_step:
                self.release()
            if self.on_rows is not None and self.columns.rows >= self.next_rows:
                # the newest row may still be filling (an entry read the slow way): the rows before it are whole
                self.next_rows = self.columns.rows + self.rows_step
                self.on_rows(self.columns.rows - 1)
            op = self.take(1)[0]
            if op == 0x68:  # BINGET
                self.memo_get(self.take(1)[0])
            elif op == 0x71:  # BINPUT
                self.memo_put(self.take(1)[0])
            elif op == 0x94:  # MEMOIZE
                self.memo_put(self.memo_len)
            elif op == 0x8C:  # SHORT_BINUNICODE
                self.push(self.string(self.take(1)[0]))
            elif op == 0x4B:  # BININT1
                self.push(PyLong_FromLongLong(self.take(1)[0]))
            elif op == 0x4D:  # BININT2
                self.push(PyLong_FromLongLong(<long long> self.uint_le(2)))
            elif op == 0x4A:  # BININT
                self.push(PyLong_FromLongLong(<int32_t> <uint32_t> self.uint_le(4)))
            elif op == 0x8A:  # LONG1
                self.push(self.long_from(self.take(1)[0]))
            elif op == 0x28:  # MARK
                if not self.fast_list() and not self.fast_entry():
                    self.marks.push_back(self.stack.size())
                    below = not self.stack.empty() and self.stack.back() == self.last_dict
                    self.mark_slots.push_back(self.last_dict_slot if below else -1)
            elif op == 0x7D:  # EMPTY_DICT
                self.empty_dict()
            elif op == 0x5D:  # EMPTY_LIST
                self.empty_list()
            elif op == 0x29:  # EMPTY_TUPLE
                self.push(())
            elif op == 0x75:  # SETITEMS
                self.set_items(self.pop_mark())
            elif op == 0x73:  # SETITEM
                self.popped_slot = -1
                self.set_items(<Py_ssize_t> self.stack.size() - 2)
            elif op == 0x65:  # APPENDS
                self.appends(self.pop_mark())
            elif op == 0x61:  # APPEND
                self.appends(<Py_ssize_t> self.stack.size() - 1)
            elif op == 0x85 or op == 0x86 or op == 0x87:  # TUPLE1..3
                self.build_tuple(<Py_ssize_t> self.stack.size() - (op - 0x84))
            elif op == 0x74:  # TUPLE
                self.build_tuple(self.pop_mark())
            elif op == 0x58:  # BINUNICODE
                self.push(self.string(<Py_ssize_t> self.uint_le(4)))
            elif op == 0x8D:  # BINUNICODE8
                size = <Py_ssize_t> self.uint_le(8)
                self.push(self.string(size))
            elif op == 0x8B:  # LONG4
                self.push(self.long_from(<int32_t> <uint32_t> self.uint_le(4)))
            elif op == 0x4E:  # NONE
                self.push(None)
            elif op == 0x88:  # NEWTRUE
                self.push(True)
            elif op == 0x89:  # NEWFALSE
                self.push(False)
            elif op == 0x47:  # BINFLOAT
                self.push(struct.unpack(">d", PyBytes_FromStringAndSize(<const char*> self.take(8), 8))[0])
            elif op == 0x6A:  # LONG_BINGET
                self.memo_get(<Py_ssize_t> self.uint_le(4))
            elif op == 0x72:  # LONG_BINPUT
                self.memo_put(<Py_ssize_t> self.uint_le(4))
            elif op == 0x95:  # FRAME: the whole buffer is here already; a frame longer than the rest is truncated
                if self.pos - 1 < self.frame_end:
                    raise Unsupported("a frame inside a frame")
                size = <Py_ssize_t> self.uint_le(8)
                if size < 0 or size > self.n - self.pos:
                    raise Unsupported("truncated frame")
                self.frame_end = self.pos + size
            elif op == 0x80:  # PROTO
                if self.take(1)[0] > 5:
                    raise Unsupported("protocol")
            elif op == 0x43:  # SHORT_BINBYTES
                size = self.take(1)[0]
                self.push(PyBytes_FromStringAndSize(<const char*> self.take(size), size))
            elif op == 0x42:  # BINBYTES
                size = <Py_ssize_t> self.uint_le(4)
                self.push(PyBytes_FromStringAndSize(<const char*> self.take(size), size))
            elif op == 0x30:  # POP: a mark right on top is what it pops, as in the standard unpickler
                if not self.marks.empty() and self.marks.back() == <Py_ssize_t> self.stack.size():
                    self.marks.pop_back()
                    self.mark_slots.pop_back()
                else:
                    self.top()
                    self.drop_from(self.stack.size() - 1)
            elif op == 0x31:  # POP_MARK
                self.drop_from(self.pop_mark())
            elif op == 0x32:  # DUP
                if self.top() == self.entry:
                    raise Unsupported("a trace entry referenced twice")
                self.push(<object> self.top())
            elif op == 0x82 or op == 0x83 or op == 0x84 or op == 0x50 or op == 0x51:
                # EXT1/2/4 and PERSID/BINPERSID are never read, whatever copyreg's registry holds: the standard
                # reader's scan refuses them with its words
                raise Unsupported("refused opcode")
            elif op == 0x2E:  # STOP
                if self.stack.size() != 1 or not self.marks.empty():
                    raise Unsupported("stop")
                self.refuse_skipped(0, 1, -1)
                return <object> self.stack[0]
            else:  # globals, object building, protocol 0/1 text opcodes, buffers: the standard unpickler decides
                raise Unsupported(f"opcode {op:#x}")


def read_pickle(data, EntryColumns columns, on_segments=None, Py_ssize_t release_step=0, bint stacks=True,
                on_rows=None, Py_ssize_t rows_step=0):
    """Unpickle `data` (plain data only), with trace entries turned into rows of `columns` and ENTRY left in
    their place. Raises Unsupported for anything it does not read.

    With `stacks` False, the frames list an entry brings is checked (frame dicts only) but not read: SKIPPED_FRAMES
    stands for it, and its rows have no stack (what the standard way gives with StackInterner(stacks=False)).

    `on_segments`, if given, is called with the root dict's 'segments' list as soon as it is read, when it is the
    root's first key (as torch writes it). With a `release_step` (a multiple of the page size), `data` is a mapping
    of a file whose pages the reader drops in such steps once passed, so that the file never stays in memory whole.
    `on_rows`, if given with a `rows_step` > 0, is called with the count of whole rows every `rows_step` rows."""
    try:
        return PickleReader(data, columns, on_segments, release_step, stacks, on_rows, rows_step).load()
    except (Unsupported, MemoryError, KeyboardInterrupt):
        raise
    except Exception as e:  # corrupt data (bad UTF-8, a bad int...): the standard unpickler reports it
        raise Unsupported(f"{type(e).__name__}: {e}") from None

