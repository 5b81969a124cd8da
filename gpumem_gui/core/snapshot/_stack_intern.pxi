# Included by _columns.pyx: the compiled twin of stacks.StackInterner's pure-Python interning (FrameInterner), and
# the pickle reader's memo of frame dicts by content (FrameCanon).
#
# Frames are interned by content, one hash per frame dict: a dict seen before (by address: the interner keeps it
# alive) costs one C++ map probe, a new one a (name, filename, line) tuple looked up in a dict. Stacks are interned by
# their frame indices, hashed and compared in C++. Frames and stacks are numbered in order of first appearance, as
# the pure twin numbers them, so both give the same StackTable.

cdef uint64_t FNV_OFFSET = 1469598103934665603ULL, FNV_PRIME = 1099511628211ULL


cdef inline PyObject* _item(PyObject* frames, Py_ssize_t j):
    return PyList_GET_ITEM(frames, j) if PyList_Check(frames) else PyTuple_GET_ITEM(frames, j)


cdef inline Py_ssize_t _size(PyObject* frames):
    return PyList_GET_SIZE(frames) if PyList_Check(frames) else PyTuple_GET_SIZE(frames)


cdef bint _same_frames(PyObject* a, PyObject* b):
    # the same frame objects in the same order: equal content whatever the frames hold (== would also match a
    # line 1 with a line 1.0, which the interner's keys tell apart)
    cdef Py_ssize_t j, n = _size(a)
    if _size(b) != n:
        return False
    for j in range(n):
        if _item(a, j) != _item(b, j):
            return False
    return True


cdef class FrameInterner:
    """Frame lists to stack indices of one table (the pure twin: StackInterner with GPUMEM_GUI_PURE_PYTHON set)."""

    cdef public list frames  # the table's Frame objects
    cdef dict frame_by_key  # (name, filename, line) -> frame index
    cdef unordered_map[uint64_t, int32_t] frame_by_id  # frame dict address -> frame index
    cdef list kept  # every dict whose address frame_by_id holds, so that no address is reused
    cdef vector[int64_t] offsets
    cdef vector[int32_t] frame_ids
    cdef unordered_map[uint64_t, int32_t] stack_by_hash  # newest stack with that hash; older ones chain
    cdef vector[int32_t] stack_next
    cdef vector[int32_t] scratch
    cdef object frame_type, key_of, error, on_extra
    cdef object name_key, filename_key, line_key
    cdef bint stacks  # False: frame lists are checked as interning them would, and every one is no stack

    def __init__(self, frame_type, key_of, error, on_extra, bint stacks=True):
        """`frame_type(name, filename, line)` makes a table frame, `key_of(dict)` is the pure twin's key of an odd
        frame (a name that is not a string), `error(words)` the exception to raise, `on_extra(dict, index)` is told
        of each new frame dict with more than its three keys (FX fields), as the pure twin tells it. With `stacks`
        False nothing is interned: each list's frames are checked to be dicts (the one error interning raises) and
        every stack is NO_STACK, as the pure twin's StackInterner(stacks=False) does."""
        self.frames, self.frame_by_key, self.kept = [], {}, []
        self.frame_type, self.key_of, self.error, self.on_extra = frame_type, key_of, error, on_extra
        self.stacks = stacks
        self.name_key, self.filename_key, self.line_key = "name", "filename", "line"
        self.offsets.push_back(0)

    cdef object key(self, object frame):
        cdef PyObject* name = PyDict_GetItemWithError(frame, self.name_key)
        cdef PyObject* filename = PyDict_GetItemWithError(frame, self.filename_key)
        cdef PyObject* line = PyDict_GetItemWithError(frame, self.line_key)
        cdef int overflow = 0
        cdef long long v
        if PyErr_Occurred():  # the pure twin's frame.get raises it again
            PyErr_Clear()
            return self.key_of(frame)
        if (name != NULL and not PyUnicode_CheckExact(<object> name)) or (
                filename != NULL and not PyUnicode_CheckExact(<object> filename)):
            return self.key_of(frame)
        number = 0
        if line != NULL and PyLong_CheckExact(<object> line):  # anything else is no line (stacks._int_or_zero)
            v = PyLong_AsLongLongAndOverflow(line, &overflow)
            if not overflow and -MAX_VALUE <= v <= MAX_VALUE:
                number = <object> line
        return (<object> name if name != NULL else "", <object> filename if filename != NULL else "", number)

    cdef int32_t frame(self, PyObject* item) except -2:
        cdef unordered_map[uint64_t, int32_t].iterator found = self.frame_by_id.find(<uint64_t> item)
        if found != self.frame_by_id.end():
            return deref(found).second
        frame = <object> item
        if not PyDict_Check(item):
            raise self.error(frame_not_dict(frame))
        key = self.key(frame)
        cdef PyObject* index = PyDict_GetItemWithError(self.frame_by_key, key)
        cdef int32_t result
        if index == NULL:
            result = len(self.frames)
            self.frames.append(self.frame_type(*key))
            self.frame_by_key[key] = result
        else:
            result = <int32_t> (<object> index)
        self.kept.append(frame)
        self.frame_by_id[<uint64_t> item] = result
        if len(<dict> frame) > 3:
            self.on_extra(frame, result)
        return result

    cdef int32_t stack(self, object frames) except -2:
        """The stack index of a non-empty list or tuple of frames."""
        cdef bint is_list = PyList_CheckExact(frames)
        cdef Py_ssize_t j, size = PyList_GET_SIZE(<PyObject*> frames) if is_list else PyTuple_GET_SIZE(<PyObject*> frames)
        cdef uint64_t h = FNV_OFFSET ^ <uint64_t> size
        cdef int32_t f, s
        cdef int64_t start
        self.scratch.clear()
        for j in range(size):  # a frame dict's __eq__ runs no code, but re-read the size: nothing may shrink it
            if is_list and j >= PyList_GET_SIZE(<PyObject*> frames):
                break
            f = self.frame(PyList_GET_ITEM(<PyObject*> frames, j) if is_list
                           else PyTuple_GET_ITEM(<PyObject*> frames, j))
            self.scratch.push_back(f)
            h = (h ^ <uint64_t> <uint32_t> f) * FNV_PRIME
        size = self.scratch.size()
        cdef unordered_map[uint64_t, int32_t].iterator found = self.stack_by_hash.find(h)
        s = deref(found).second if found != self.stack_by_hash.end() else -1
        while s >= 0:
            start = self.offsets[s]
            if self.offsets[s + 1] - start == size:
                for j in range(size):
                    if self.frame_ids[start + j] != self.scratch[j]:
                        break
                else:
                    return s
            s = self.stack_next[s]
        s = self.offsets.size() - 1
        self.stack_next.push_back(deref(found).second if found != self.stack_by_hash.end() else -1)
        self.stack_by_hash[h] = s
        for j in range(size):
            self.frame_ids.push_back(self.scratch[j])
        self.offsets.push_back(self.frame_ids.size())
        return s

    cdef int32_t value(self, object frames) except -3:
        """A frames value's stack: NO_STACK (-1) when it is falsy, -2 when it is not a list or tuple."""
        if PyList_CheckExact(frames) or PyTuple_CheckExact(frames):
            if not self.stacks:
                self.check(frames)
                return -1
            return self.stack(frames) if len(frames) else -1
        return -2 if frames else -1

    cdef int check(self, object frames) except -1:
        """What stack() would raise for a list or tuple of frames, without interning it: a frame that is not a dict."""
        cdef Py_ssize_t j
        for j in range(len(frames)):
            item = frames[j]
            if not PyDict_Check(<PyObject*> item):
                raise self.error(frame_not_dict(item))
        return 0

    def intern_many(self, list lists):
        """The stack index of each element of `lists` (a frame list, or a falsy value for no stack)."""
        cdef Py_ssize_t i, n = len(lists)
        cdef unordered_map[uint64_t, int32_t] seen  # by address: `lists` keeps them alive during the call
        cdef unordered_map[uint64_t, int32_t].iterator found
        for i in range(n):  # every value is checked before any is interned, as in the pure twin
            item = lists[i]
            if not (PyList_CheckExact(item) or PyTuple_CheckExact(item)) and item:
                raise self.error(frames_not_list(item))
        out = np.empty(n, np.int32)
        cdef int32_t[::1] o = out
        for i in range(n):
            p = <uint64_t> PyList_GET_ITEM(<PyObject*> lists, i)
            found = seen.find(p)
            if found != seen.end():
                o[i] = deref(found).second
            else:
                o[i] = self.value(lists[i])
                seen[p] = o[i]
        return out

    def rows(self, EntryColumns columns):
        """The stack of each row of `columns`, rows in order (a group at its first row, a list unequal to its
        group's leader at its own row), as the pure twin interns the frames column; None when a row's frames value
        is not a list."""
        cdef Py_ssize_t r, n = columns.rows
        cdef int32_t g, s
        cdef vector[int32_t] group_stack = vector[int32_t](len(columns.leaders), -3)
        out = np.empty(n, np.int32)
        cdef int32_t[::1] o = out
        for r in range(n):
            g = columns.group[r]
            if columns.mismatch[r]:
                s = self.value(columns.mismatched[r])
                if s == -2:
                    return None
            elif g < 0:
                s = -1
            else:
                s = group_stack[g]
                if s == -3:
                    s = group_stack[g] = self.value(columns.leaders[g])
            o[r] = s
        return out

    def table_parts(self):
        """frames (list), offsets (int64), frame_ids (int32) of the table so far."""
        return list(self.frames), _i64(self.offsets), _i32(self.frame_ids)


cdef class FrameCanon:
    """The pickle reader's memo of plain frame dicts ({"name": str, "filename": str, "line": int}, keys in one
    order): a new dict equal to one seen before is dropped for that one, so that a file whose frame dicts are not
    shared reads as one whose are (the standard unpickler's graph holds equal dicts; nothing tells them apart but
    identity, and canonical dicts are never filled again: the reader refuses that)."""

    cdef vector[uint64_t] name_of, file_of  # per entry: the string objects matched by address
    cdef vector[int64_t] line_of
    cdef vector[int32_t] order_of, next_of
    cdef vector[PyObject*] canon_of  # borrowed: `by_content` owns them
    cdef unordered_map[uint64_t, int32_t] by_pointers  # hash of (order, name, filename addresses, line): newest
    cdef dict by_content  # (order, name, filename, line) -> the canonical dict
    cdef list kept  # the strings whose addresses by_pointers holds
    cdef unordered_map[uint64_t, int32_t] canonical  # address of each canonical dict

    def __init__(self):
        self.by_content, self.kept = {}, []

    cdef inline bint is_canonical(self, PyObject* d):
        return self.canonical.count(<uint64_t> d) > 0

    cdef PyObject* of_pairs(self, EntryColumns columns, PyObject** pairs, PyObject* target) except NULL:
        """The canonical dict of the frame that the three key/value `pairs` make in `target` (empty): `target`
        itself when they are not a plain frame, or when it becomes the canonical one (the caller fills it)."""
        cdef PyObject* parts[3]
        parts[0] = parts[1] = parts[2] = NULL
        cdef int order = 0, r, j, overflow = 0
        for j in range(3):
            r = columns.role(<object> pairs[2 * j]) - ROLE_NAME
            if r < 0 or r > 2 or parts[r] != NULL:
                return target
            parts[r] = pairs[2 * j + 1]
            order = order * 4 + r + 1
        if not (PyUnicode_CheckExact(<object> parts[0]) and PyUnicode_CheckExact(<object> parts[1])
                and PyLong_CheckExact(<object> parts[2])):
            return target
        cdef long long line = PyLong_AsLongLongAndOverflow(parts[2], &overflow)
        if overflow:
            return target
        return self.find(order, parts[0], parts[1], line, target)

    cdef PyObject* find(self, int order, PyObject* name, PyObject* filename, long long line,
                        PyObject* target) except NULL:
        """The canonical dict equal to the frame about to be made in `target` (empty): `target` itself when it
        becomes the canonical one (the caller fills it)."""
        cdef uint64_t h = (FNV_OFFSET ^ <uint64_t> order) * FNV_PRIME
        h = (h ^ <uint64_t> name) * FNV_PRIME
        h = (h ^ <uint64_t> filename) * FNV_PRIME
        h = (h ^ <uint64_t> line) * FNV_PRIME
        h ^= h >> 31
        cdef unordered_map[uint64_t, int32_t].iterator found = self.by_pointers.find(h)
        cdef int32_t e = deref(found).second if found != self.by_pointers.end() else -1
        while e >= 0:
            if (self.order_of[e] == order and self.name_of[e] == <uint64_t> name
                    and self.file_of[e] == <uint64_t> filename and self.line_of[e] == line):
                return self.canon_of[e]
            e = self.next_of[e]
        key = (order, <object> name, <object> filename, line)
        cdef PyObject* canon = PyDict_GetItemWithError(self.by_content, key)
        if canon == NULL:
            if PyErr_Occurred():
                return NULL
            self.by_content[key] = <object> target
            self.canonical[<uint64_t> target] = 1
            canon = target
        self.kept.append(<object> name)
        self.kept.append(<object> filename)
        self.name_of.push_back(<uint64_t> name)
        self.file_of.push_back(<uint64_t> filename)
        self.line_of.push_back(line)
        self.order_of.push_back(order)
        self.next_of.push_back(deref(found).second if found != self.by_pointers.end() else -1)
        self.canon_of.push_back(canon)
        self.by_pointers[h] = self.canon_of.size() - 1
        return canon
