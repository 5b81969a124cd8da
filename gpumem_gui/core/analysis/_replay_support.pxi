# The compiled replay's support, included by _replay.pyx: the flat hash table it keys blocks by, and the copies of its
# C++ vectors into numpy arrays.

cdef extern from "_flat_map.h":
    cdef cppclass FlatMap:
        size_t size()
        size_t capacity()
        bint slot_used(size_t i)
        int64_t slot_key(size_t i)
        int64_t slot_value(size_t i)
        int64_t* find(int64_t key)
        bint contains(int64_t key)
        int64_t get(int64_t key, int64_t fallback)
        int64_t& at(int64_t key, int64_t initial)
        void set(int64_t key, int64_t value)
        bint erase(int64_t key)

cdef object arr64(vector[int64_t]& v):
    # copy straight from the vector's buffer: going through a list of Python ints costs more than the replay
    if v.size() == 0:
        return np.zeros(0, np.int64)
    return np.array(<int64_t[:v.size()]> v.data(), dtype=np.int64)


cdef object arr32(vector[int32_t]& v):
    if v.size() == 0:
        return np.zeros(0, np.int32)
    return np.array(<int32_t[:v.size()]> v.data(), dtype=np.int32)

