"""Layers written as one strip paint the very pixels the per-pixel write paints (real states, random ones)."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest

from gpumem_gui.core import load_snapshot
from gpumem_gui.core.analysis import rasterize as raster
from gpumem_gui.core.analysis.rasterize import Sort
from gpumem_gui.core.analysis.timetravel import build_timeline
from gpumem_gui.core.snapshot.model import AllocatorState
from gpumem_gui.document.document import map_layout
from tests.conftest import fixture_path

LAYOUTS: tuple[tuple[str, Sort], ...] = (
    ("address", "address"),
    ("segment", "size"),
    ("segment", "free"),
    ("proportional", "size"),
)


def _both(monkeypatch: pytest.MonkeyPatch, draw: Any) -> tuple[np.ndarray, np.ndarray, int]:
    """`draw()` with the strips, then with every layer written pixel by pixel (the write before the strips); how
    many times a strip was taken."""
    taken = [0]
    strip = raster._paint_dense

    def counted(*args: Any, **kwargs: Any) -> bool:
        done = strip(*args, **kwargs)
        taken[0] += done
        return done

    monkeypatch.setattr(raster, "_paint_dense", counted)
    fast = draw()
    monkeypatch.setattr(raster, "_paint_dense", lambda *_args, **_kwargs: False)
    slow = draw()
    monkeypatch.setattr(raster, "_paint_dense", strip)
    return fast, slow, taken[0]


def _states() -> list[tuple[str, AllocatorState]]:
    found = []
    for name in ("magma27_memory_snapshot.pickle", "muduard_dump_snapshot_a.pickle", "felix_dump_a.pickle"):
        snap = load_snapshot(fixture_path(name))
        found.append((name, snap.state))
        for device in snap.state.devices()[:1]:
            timeline = build_timeline(snap, device)
            rng = np.random.default_rng(1)
            for event in sorted({-1, timeline.n_events - 1, *rng.integers(0, max(timeline.n_events, 1), 6)}):
                if -1 <= event < timeline.n_events:
                    found.append((f"{name}@{event}", timeline.state_at(int(event))))
    return found


@pytest.mark.parametrize(("width", "layout"), list(itertools.product((1000, 333, 1), LAYOUTS)))
def test_strip_paints_the_same_pixels(monkeypatch: pytest.MonkeyPatch, width: int, layout: tuple[str, Sort]) -> None:
    taken = 0
    rng = np.random.default_rng(width)
    for name, state in _states():
        lay = map_layout(state, *layout, width=width)
        n = len(state.blocks)
        ages, only, some = rng.integers(0, 200, n).astype(np.uint8), rng.random(n) < 0.3, rng.random(n) < 0.5
        checks = {
            "picture": lambda: raster.rasterize(state, lay),  # noqa: B023 (called in this turn of the loop)
            "ages": lambda: raster.rasterize(state, lay, block_codes=ages),  # noqa: B023
            "only": lambda: raster.rasterize(state, lay, only=only),  # noqa: B023
            "ids": lambda: raster.block_ids(state, lay, some),  # noqa: B023
            "all ids": lambda: raster.block_ids(state, lay, np.ones(n, bool)),  # noqa: B023
        }
        for what, draw in checks.items():
            fast, slow, strips = _both(monkeypatch, draw)
            assert fast.dtype == slow.dtype and fast.shape == slow.shape, (name, what)
            assert np.array_equal(fast, slow), (name, what, int((fast != slow).sum()))
            taken += strips
    assert taken > 0  # the strip did paint (not every case fell back)


def test_strip_on_random_runs_matches_the_per_pixel_write() -> None:
    """Random runs on random rows, overlapping as blocks' pixels do (a later run may start on an earlier one's last
    pixels) or not: the strip paints what a write in order paints, or declines."""
    rng = np.random.default_rng(7)
    declined = painted = 0
    for _ in range(400):
        size = int(rng.integers(1, 300))
        n = int(rng.integers(1, 40))
        start = np.sort(rng.integers(0, size, n)) if rng.random() < 0.7 else rng.integers(0, size, n)
        end = np.minimum(start + rng.integers(1, 30, n), size)
        if rng.random() < 0.5:  # as blocks' pixels: each run to the next one's start, or one pixel into it
            start = np.sort(start)
            end = np.minimum(np.maximum(np.r_[start[1:], size] + rng.integers(0, 2, n), start + 1), size)
        code = rng.integers(1, 250, n).astype(np.uint8)
        under = rng.integers(0, 250, size).astype(np.uint8) if rng.random() < 0.5 else np.zeros(size, np.uint8)
        by_hand = under.copy()
        for s, e, c in zip(start, end, code, strict=True):
            by_hand[s:e] = c  # in order: the later run wins; the pixels no run covers keep what they had
        flat = under.copy()
        if raster._paint_dense(flat, start, end, code, blank=not under.any()):
            painted += 1
            assert np.array_equal(flat, by_hand), (start, end, code)
        else:
            declined += 1
            assert np.array_equal(flat, under)
    assert painted > 100 and declined > 10
