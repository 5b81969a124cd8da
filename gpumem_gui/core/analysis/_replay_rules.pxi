# The allocator's size rules over C integers for the replay kernel, included by _replay.pyx: allocator_rules'
# round_size and should_split, which tests/test_compiled_paths.py holds to the Python ones.

cdef int64_t MIN_BLOCK_SIZE = 512
cdef int64_t SMALL_SIZE = 1 << 20
cdef int64_t SMALL_BUFFER = 2 << 20


cdef int64_t rule_round_size(int64_t size, const int64_t* divisions):
    cdef int64_t div, floor_pow2, step, bits, index
    if size < MIN_BLOCK_SIZE:
        return MIN_BLOCK_SIZE
    bits = 0
    while (size >> (bits + 1)) > 0:
        bits += 1
    index = bits - 20
    if index < 0:
        index = 0
    if index > 15:
        index = 15
    div = divisions[index]
    if div > 1 and size > MIN_BLOCK_SIZE * div:
        if size & (size - 1) == 0:
            return size
        floor_pow2 = (<int64_t> 1) << bits
        step = floor_pow2
        while div > 1:
            step >>= 1
            div >>= 1
        if step == 0:
            return floor_pow2 << 1
        return ((size + step - 1) // step) * step
    return ((size + MIN_BLOCK_SIZE - 1) // MIN_BLOCK_SIZE) * MIN_BLOCK_SIZE


cdef bint rule_should_split(int64_t block_size, int64_t rounded, bint small, bint expandable, int64_t max_split):
    cdef int64_t remaining = block_size - rounded
    if small or expandable:
        return remaining >= MIN_BLOCK_SIZE
    return rounded < max_split and remaining > SMALL_SIZE


def round_size(int64_t size, divisions):
    """The compiled round_size, for the test that holds it to allocator_rules.round_size."""
    cdef int64_t divs[16]
    for k in range(16):
        divs[k] = divisions[k]
    return rule_round_size(size, divs)
