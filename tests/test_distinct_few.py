"""distinct_few gives np.unique's answer (the oracle) for few distinct values and many, empty and single arrays."""

from __future__ import annotations

import numpy as np
import pytest

from gpumem_gui.core.snapshot.model import distinct_few


@pytest.mark.parametrize("count", [0, 1, 2, 7, 8, 9, 50, 10_000])
def test_distinct_few_is_np_unique(count: int) -> None:
    rng = np.random.default_rng(count)
    for size in (0, 1, 5, 3_000):
        pool = rng.integers(-(2**62), 2**62, max(count, 1), dtype=np.int64)  # stream ids: pointers, 0, negatives
        values = rng.choice(pool, size) if count else np.zeros(size, np.int64)
        found = distinct_few(values)
        assert found.dtype == values.dtype
        assert np.array_equal(found, np.unique(values))
