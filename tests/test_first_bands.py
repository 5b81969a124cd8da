"""The loading worker hands the site timeline's first grouping over as soon as it is made, then the named spans, the
other groupings after: the first equals the in-process build_bands of that grouping (the oracle), the result holds
every grouping."""

from __future__ import annotations

import numpy as np

from gpumem_gui.assets import example_path
from gpumem_gui.core import load_snapshot
from gpumem_gui.core.analysis.site_series import GROUPINGS, TOP_SITES, build_bands
from gpumem_gui.core.analysis.timetravel import build_timeline
from gpumem_gui.sources.file_loader import FileLoadJob


def test_the_first_grouping_comes_before_the_others_and_equals_the_in_process_one() -> None:
    order: list[str] = []
    firsts: list[tuple[int, dict[str, object]]] = []
    job = FileLoadJob(str(example_path("training_leak")), site_bands=True)
    result = job.run(
        on_whole=lambda _r: order.append("whole"),
        on_spans=lambda _d, _s: order.append("spans"),
        on_bands=lambda bands: (order.append("first bands"), firsts.append(bands)),
        timeout=60,
    )
    assert result.error is None and result.site_bands is not None
    assert order == ["whole", "first bands", "spans"]  # the spans after the grouping shown first, before the others
    ((device, first),) = firsts
    assert list(first) == [GROUPINGS[0]]  # the grouping the site timeline shows first, alone
    assert result.site_bands[0] == device and list(result.site_bands[1]) == list(GROUPINGS)
    snapshot = load_snapshot(example_path("training_leak"))
    oracle = build_bands(snapshot, build_timeline(snapshot, device), GROUPINGS[0], TOP_SITES)
    handed = first[GROUPINGS[0]]
    assert [b.label for b in handed.bands] == [b.label for b in oracle.bands]  # type: ignore[attr-defined]
    for name in ("lifetime_band", "code_band", "keys", "values"):
        assert np.array_equal(getattr(handed, name), getattr(oracle, name)), name
        assert np.array_equal(getattr(result.site_bands[1][GROUPINGS[0]], name), getattr(oracle, name)), name
