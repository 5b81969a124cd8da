"""A snapshot made by torch.cuda._memory_viz._profile_to_snapshot (a CPU profiler run here): its address space is
the span of the tensors the profiler saw, so no free memory or fragmentation is reported as the allocator's."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

import pytest

from gpumem_gui.core import load_snapshot
from gpumem_gui.core.analysis.diagnosis import diagnose
from gpumem_gui.core.analysis.report import build_report, report_text
from gpumem_gui.core.snapshot.origin import PROFILER_FORM, profiler_made
from gpumem_gui.document.document import SnapshotDocument


def _profiled_step() -> dict[str, Any]:
    torch = pytest.importorskip("torch")
    from torch.cuda._memory_viz import _profile_to_snapshot  # noqa: PLC0415

    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(64, 128), torch.nn.ReLU(), torch.nn.Linear(128, 10))
    opt = torch.optim.Adam(model.parameters())
    x, y = torch.randn(16, 64), torch.randint(0, 10, (16,))
    activities = [torch.profiler.ProfilerActivity.CPU]
    with torch.profiler.profile(activities=activities, profile_memory=True, record_shapes=True, with_stack=True) as p:
        for _ in range(2):
            opt.zero_grad()
            torch.nn.functional.cross_entropy(model(x), y).backward()
            opt.step()
    found: dict[str, Any] = _profile_to_snapshot(p)
    return found


@pytest.fixture(scope="module")
def profiled(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    raw = _profiled_step()
    path = tmp_path_factory.mktemp("profiler") / "profile.pickle"
    path.write_bytes(pickle.dumps(raw))
    return path, raw


def test_the_file_says_what_it_is_and_reports_no_fragmentation(profiled: tuple[Path, dict[str, Any]]) -> None:
    path, raw = profiled
    # the shape _profile_to_snapshot writes (torch/cuda/_memory_viz.py 2.13, lines 541-651): a category on each
    # alloc, no segment events, one segment per device from the lowest address to the highest end
    allocs = [e for t in raw["device_traces"] for e in t if e["action"] == "alloc"]
    assert allocs and all("category" in e for e in allocs)
    assert not any(e["action"].startswith("segment") for t in raw["device_traces"] for e in t)
    segment = raw["segments"][0]
    assert sum(b["size"] for b in segment["blocks"]) == segment["total_size"]

    snapshot = load_snapshot(path)
    assert profiler_made(snapshot)
    text = report_text(snapshot, build_report(snapshot))
    assert PROFILER_FORM in text.splitlines()[0]
    assert f"address span        {segment['total_size'] / 2**20:.1f} MiB" in text
    for allocator_figure in ("external fragmentation", "free (cached)", "largest free block", "fragmented"):
        assert allocator_figure not in text
    findings = diagnose(snapshot).findings
    assert not any(f.startswith("Reserved but not allocated") for f in findings)
    assert any(f.startswith(f"This is a {PROFILER_FORM}") and "fragmentation" in f for f in findings)
    (first_look,) = SnapshotDocument(snapshot).frame().findings  # the window's first look says the same, alone
    assert first_look.severity == "info" and first_look.text.startswith(f"This is a {PROFILER_FORM}")


def test_a_dump_snapshot_is_not_taken_for_one(tmp_path: Path) -> None:
    # the same categories, but the trace makes its segment: the caching allocator's own record
    entry = {"action": "alloc", "addr": 0x1000, "size": 512, "stream": 0, "frames": [], "category": "activation"}
    segment_alloc = {"action": "segment_alloc", "addr": 0x1000, "size": 2 << 20, "stream": 0, "frames": []}
    blocks = [
        {"size": 512, "requested_size": 512, "state": "active_allocated"},
        {"size": (2 << 20) - 512, "state": "inactive"},
    ]
    raw = {
        "segments": [{"address": 0x1000, "total_size": 2 << 20, "stream": 0, "blocks": blocks}],
        "device_traces": [[segment_alloc, entry]],
    }
    path = tmp_path / "dump.pickle"
    path.write_bytes(pickle.dumps(raw))
    snapshot = load_snapshot(path)
    assert not profiler_made(snapshot)
    assert "external fragmentation" in report_text(snapshot, build_report(snapshot))
